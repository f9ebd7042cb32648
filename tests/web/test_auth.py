"""Sign-up with email confirmation, sign-in, sign-out, password reset, rate limits, CSRF."""

from __future__ import annotations

from tests.support.app import make_app
from tests.support.pages import (
    NEW_PASSWORD,
    csrf_token,
    mail_link,
    outbox,
    read_mail,
    sign_in,
    sign_up,
)


def test_sign_up_confirm_sign_in_sign_out(app, client):
    r = sign_up(client)
    assert r.status_code == 303 and r.headers["Location"].endswith("/cuenta/revise-su-correo")
    [mail] = outbox(app)
    msg = read_mail(mail)
    assert msg["To"] == "ana@example.com"
    assert "Confirme su correo" in str(msg["Subject"])
    assert msg["Content-Language"] == "es-PR"
    # not confirmed yet: sign-in says so
    r = sign_in(client)
    assert r.status_code == 302 and "revise-su-correo" in r.headers["Location"]
    r = client.get(mail_link(mail))
    assert r.status_code == 302 and r.headers["Location"].endswith("/cuenta/entrar")
    r = sign_in(client)
    assert r.status_code == 303 and r.headers["Location"].endswith("/mis-propiedades")
    assert client.get("/mis-propiedades").status_code == 200
    page = client.get("/").get_data(as_text=True)
    r = client.post("/cuenta/salir", data={"csrf_token": csrf_token(page)})
    assert r.status_code == 303
    assert client.get("/mis-propiedades").status_code == 302


def test_confirmation_email_in_english(app, client):
    sign_up(client, "bob@example.com", lang="en")
    [mail] = outbox(app)
    msg = read_mail(mail)
    assert "Confirm your email" in str(msg["Subject"])
    assert msg["Content-Language"] == "en-US"


def test_sign_up_keeps_what_was_typed_and_says_how_to_fix(client):
    page = client.get("/cuenta/registro").get_data(as_text=True)
    r = client.post("/cuenta/registro", data={
        "csrf_token": csrf_token(page), "name": "Ana", "email": "ana@example.com",
        "password": "corta", "confirm": "otra"})
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert 'value="ana@example.com"' in html
    assert "Use al menos 12 caracteres." in html
    assert 'aria-invalid="true"' in html


def test_duplicate_sign_up_gives_the_same_answer(app, client):
    sign_up(client)
    r = sign_up(client)
    assert r.status_code == 303 and r.headers["Location"].endswith("/cuenta/revise-su-correo")
    # the email, not the page, says the account exists
    assert len(outbox(app)) == 2
    assert "Ya tiene una cuenta" in str(read_mail(outbox(app)[1])["Subject"])


def test_bad_confirmation_link(client):
    """A link that is not one of ours confirms nothing: back to "check your email" with the
    message (a good link goes on to the sign-in page instead)."""
    r = client.get("/cuenta/confirmar/not-a-token")
    assert r.status_code == 302
    assert r.headers["Location"].endswith("/cuenta/revise-su-correo")
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "Ese enlace de confirmación no es válido o expiró." in page


def test_wrong_password(app, client):
    sign_up(client)
    client.get(mail_link(outbox(app)[0]))
    r = sign_in(client, password="no es la contraseña")
    assert r.status_code == 200
    assert "El correo electrónico o la contraseña no son correctos." in r.get_data(as_text=True)


def test_password_reset_works_once(app, client):
    sign_up(client)
    client.get(mail_link(outbox(app)[0]))
    page = client.get("/cuenta/olvide").get_data(as_text=True)
    r = client.post("/cuenta/olvide", data={"csrf_token": csrf_token(page),
                                           "email": "ana@example.com"})
    assert r.status_code == 303
    reset_mail = outbox(app)[-1]
    link = mail_link(reset_mail)
    page = client.get(link).get_data(as_text=True)
    new = "otra frase larga y nueva"
    r = client.post(link, data={"csrf_token": csrf_token(page), "password": new,
                                "confirm": new})
    assert r.status_code == 303
    assert sign_in(client, password=new).status_code == 303
    # the link is spent
    assert client.get(link).status_code == 302


def test_forgot_for_unknown_email_says_the_same(app, client):
    page = client.get("/cuenta/olvide").get_data(as_text=True)
    r = client.post("/cuenta/olvide", data={"csrf_token": csrf_token(page),
                                           "email": "nadie@example.com"})
    assert r.status_code == 303
    [sent] = outbox(app)  # the same work: an email goes out, saying no account uses it
    assert "ninguna cuenta" in read_mail(sent).get_payload(decode=True).decode()


def test_forms_need_csrf(client):
    r = client.post("/cuenta/entrar", data={"email": "a@b.com", "password": "x"})
    assert r.status_code == 400


def test_sign_in_is_rate_limited(tmp_path, schema_template, fixed_today):
    app = make_app(tmp_path, schema_template, RATELIMIT_ENABLED=True)
    client = app.test_client()
    responses = [sign_in(client, "x@example.com", "wrong password 1") for _ in range(11)]
    assert [r.status_code for r in responses] == [200] * 10 + [429]
    assert "Demasiados intentos" in responses[10].get_data(as_text=True)


def test_open_redirect_after_sign_in_is_refused(app, client):
    sign_up(client)
    client.get(mail_link(outbox(app)[0]))
    page = client.get("/cuenta/entrar").get_data(as_text=True)
    r = client.post("/cuenta/entrar?next=https://evil.example/", data={
        "csrf_token": csrf_token(page), "email": "ana@example.com", "password": NEW_PASSWORD})
    assert r.headers["Location"].endswith("/mis-propiedades")


def test_language_switch_is_remembered_on_the_user(app, client):
    sign_up(client)
    client.get(mail_link(outbox(app)[0]))
    sign_in(client)
    page = client.get("/").get_data(as_text=True)
    client.post("/idioma", data={"lang": "en", "next": "/", "csrf_token": csrf_token(page)})
    # a new browser (no session) signs in: English comes back from the user
    other = app.test_client()
    sign_in(other)
    assert '<html lang="en">' in other.get("/").get_data(as_text=True)


def test_rate_limits_in_redis_when_configured(tmp_path, schema_template, fixed_today):
    import uuid

    import pytest
    redis = pytest.importorskip("redis")
    url = "redis://127.0.0.1:6379/15"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except Exception as exc:  # noqa: BLE001 - any failure means "not reachable"
        pytest.skip(f"Redis not reachable at {url}: {exc}")
    prefix = f"test-{uuid.uuid4().hex}"
    app = make_app(tmp_path, schema_template, RATELIMIT_ENABLED=True,
                   RATELIMIT_STORAGE_URI=url, RATELIMIT_SIGNIN="2 per minute",
                   RATELIMIT_KEY_PREFIX=prefix)
    client = app.test_client()
    page = client.get("/cuenta/olvide").get_data(as_text=True)
    codes = [client.post("/cuenta/olvide", data={"csrf_token": csrf_token(page),
                                                 "email": "x@example.com"}).status_code
             for _ in range(3)]
    assert codes == [303, 303, 429]
    server = redis.Redis.from_url(url)
    keys = server.keys(f"*{prefix}*")
    assert keys, "the counters are in Redis"
    server.delete(*keys)


def test_reset_and_confirmation_links_age_on_the_portals_clock(app, client):
    """Links expire by the portal's clock (`portal.signing`), not the machine's: two hours and
    a minute after the reset email the link is refused; three days and a minute after sign-up
    the confirmation link is refused."""
    from datetime import timedelta

    from portal import clock

    signed_up = clock.now()
    sign_up(client)
    confirm = mail_link(outbox(app)[0])
    with clock.fixed(signed_up + timedelta(days=3, minutes=1)):
        r = client.get(confirm)
        assert r.headers["Location"].endswith("/cuenta/revise-su-correo")
    with clock.fixed(signed_up + timedelta(days=2, hours=23)):
        assert client.get(confirm).headers["Location"].endswith("/cuenta/entrar")
        page = client.get("/cuenta/olvide").get_data(as_text=True)
        client.post("/cuenta/olvide", data={"csrf_token": csrf_token(page),
                                           "email": "ana@example.com"})
        link = mail_link(outbox(app)[-1])
        assert client.get(link).status_code == 200
    with clock.fixed(signed_up + timedelta(days=2, hours=25, minutes=1)):
        assert client.get(link).status_code == 302
