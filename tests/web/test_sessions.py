"""Server-side sessions (portal/web/session_store.py): the cookie holds only a token; signing
out, a new password and "sign out on every other device" end sessions for good; idle and
absolute timeouts; a new session id and CSRF token at sign-in; the cookie's flags."""

from __future__ import annotations

import email
import hashlib
import json
import re
from datetime import timedelta

import pytest
from sqlalchemy import select

from portal import clock
from portal.models.security import WebSession
from tests.support.app import make_app
from tests.support.clock import TODAY
from tests.support.pages import csrf_token, outbox

PASSWORD = "Tortuga verde bajo la lluvia"
EMAIL = "ana@example.com"


def _add_user(app, email_addr: str = EMAIL) -> int:  # noqa: ANN001
    from portal.db import UnitOfWork
    from portal.people import users
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        user = users.register(w, email=email_addr, password=PASSWORD, name="Ana")
        users.confirm_email(w, user.id)
        return user.id


def _rows(app) -> list[WebSession]:  # noqa: ANN001
    from portal.db import UnitOfWork
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        return list(w.session.scalars(select(WebSession)))


def _cookie(client, name: str = "session") -> str | None:  # noqa: ANN001
    c = client.get_cookie(name)
    return c.value if c is not None else None


def _sign_in(app, client=None, email_addr: str = EMAIL):  # noqa: ANN001, ANN201
    client = client or app.test_client()
    page = client.get("/cuenta/entrar").get_data(as_text=True)
    r = client.post("/cuenta/entrar", data={"csrf_token": csrf_token(page),
                                            "email": email_addr, "password": PASSWORD})
    assert r.status_code == 303, r.status_code
    return client


def _signed_in(client) -> bool:  # noqa: ANN001
    """Whether the client is signed in: the dashboard opens (200), or (signed out) it sends
    to the sign-in page, and nowhere else."""
    r = client.get("/mis-propiedades")
    if r.status_code == 200:
        return True
    assert r.status_code == 302 and "/cuenta/entrar" in r.headers["Location"], r.status_code
    return False


def _with_cookie(app, value: str):  # noqa: ANN001, ANN201
    """Another browser holding a copy of that cookie."""
    other = app.test_client()
    other.set_cookie("session", value)
    return other


def _signed_data(app, value: str) -> dict:  # noqa: ANN001
    """What an anonymous session's signed cookie holds."""
    from portal.web.session_store import _signer
    assert value.startswith("a.")
    return _signer(app).loads(value[2:])


@pytest.fixture
def user_app(app):  # noqa: ANN001, ANN201
    _add_user(app)
    return app


def test_the_cookie_holds_only_a_token_and_the_row_its_hash(user_app):
    client = _sign_in(user_app)
    token = _cookie(client)
    assert re.fullmatch(r"[A-Za-z0-9_-]{40,}", token)  # no signed, readable payload
    [row] = _rows(user_app)
    assert row.id == hashlib.sha256(token.encode()).hexdigest()
    assert json.loads(row.data)["_user_id"] == str(row.user_id)
    assert token not in row.data and row.id not in row.data


def test_after_sign_out_the_old_cookie_no_longer_works(user_app):
    client = _sign_in(user_app)
    old = _cookie(client)
    assert _signed_in(_with_cookie(user_app, old))
    page = client.get("/mis-propiedades").get_data(as_text=True)
    r = client.post("/cuenta/salir", data={"csrf_token": csrf_token(page)})
    assert r.status_code == 303
    assert not _signed_in(client)
    assert not _signed_in(_with_cookie(user_app, old))


def test_sign_out_ends_every_session_of_the_user(user_app):
    _add_user(user_app, "otra@example.com")
    phone, laptop = _sign_in(user_app), _sign_in(user_app)
    someone_else = _sign_in(user_app, email_addr="otra@example.com")
    page = phone.get("/mis-propiedades").get_data(as_text=True)
    phone.post("/cuenta/salir", data={"csrf_token": csrf_token(page)})
    assert not _signed_in(laptop)
    assert _signed_in(someone_else)


def test_after_a_password_reset_another_browsers_cookie_no_longer_works(user_app):
    other_browser = _sign_in(user_app)
    assert _signed_in(other_browser)
    client = user_app.test_client()
    page = client.get("/cuenta/olvide").get_data(as_text=True)
    client.post("/cuenta/olvide", data={"csrf_token": csrf_token(page), "email": EMAIL})
    body = email.message_from_bytes(outbox(user_app)[-1].read_bytes()).get_payload(
        decode=True).decode()
    link = re.search(r"https?://\S+", body).group(0).replace("http://localhost", "")
    page = client.get(link).get_data(as_text=True)
    new = "Otra frase larga para la cuenta"
    r = client.post(link, data={"csrf_token": csrf_token(page), "password": new,
                                "confirm": new})
    assert r.status_code == 303
    assert not _signed_in(other_browser)
    assert [row.user_id for row in _rows(user_app)] == [None] * len(_rows(user_app))


def test_a_password_change_ends_the_other_sessions_and_keeps_this_one(user_app):
    here, there = _sign_in(user_app), _sign_in(user_app)
    page = here.get("/cuenta/contrasena").get_data(as_text=True)
    new = "Otra frase larga para la cuenta"
    r = here.post("/cuenta/contrasena", data={"csrf_token": csrf_token(page),
                                               "current": PASSWORD, "password": new,
                                               "confirm": new})
    assert r.status_code == 303
    assert _signed_in(here)
    assert not _signed_in(there)


def test_sign_out_on_every_other_device_keeps_this_one(user_app):
    here, there, elsewhere = _sign_in(user_app), _sign_in(user_app), _sign_in(user_app)
    page = here.get("/mis-propiedades").get_data(as_text=True)
    assert "Sign out on every other device" in here.get(
        "/mis-propiedades?lang=en").get_data(as_text=True)
    r = here.post("/cuenta/salir-de-otros-dispositivos",
                  data={"csrf_token": csrf_token(page)})
    assert r.status_code == 303 and r.headers["Location"].endswith("/mis-propiedades")
    assert _signed_in(here)
    assert not _signed_in(there) and not _signed_in(elsewhere)
    assert len([row for row in _rows(user_app) if row.user_id is not None]) == 1


def test_idle_timeout_30_minutes(user_app, fixed_today):
    start = clock.now()
    client = _sign_in(user_app)
    for minutes in (29, 58, 87):  # each request within 30 minutes of the last one
        with clock.fixed(start + timedelta(minutes=minutes)):
            assert _signed_in(client), minutes
    with clock.fixed(start + timedelta(minutes=87 + 30)):
        assert not _signed_in(client)
    assert all(row.user_id is None for row in _rows(user_app))  # its row was deleted


def test_absolute_timeout_8_hours(user_app, fixed_today):
    start = clock.now()
    client = _sign_in(user_app)
    for minutes in range(20, 8 * 60, 20):  # never idle, up to 7 h 40 min
        with clock.fixed(start + timedelta(minutes=minutes)):
            assert _signed_in(client), minutes
    with clock.fixed(start + timedelta(hours=8)):
        assert not _signed_in(client)


def test_last_seen_is_written_at_most_once_a_minute(user_app, fixed_today):
    start = clock.now()
    client = _sign_in(user_app)
    assert _signed_in(client)
    [row] = _rows(user_app)
    assert row.last_seen_at == start
    with clock.fixed(start + timedelta(seconds=59)):
        assert _signed_in(client)
    [row] = _rows(user_app)
    assert row.last_seen_at == start
    with clock.fixed(start + timedelta(seconds=61)):
        assert _signed_in(client)
    [row] = _rows(user_app)
    assert row.last_seen_at == start + timedelta(seconds=61)


def test_expired_rows_are_deleted_by_the_hourly_pass_not_by_a_request(user_app, fixed_today):
    """signing in writes its own row and deletes nothing; the worker's hourly pass
    (`portal.jobs.daily`, task "sessions") deletes the rows past their absolute end, and a
    second pass finds none."""
    from portal import domains  # noqa: F401 - registers the task
    from portal.jobs import daily
    from portal.web.data import database
    start = clock.now()
    _sign_in(user_app)
    with clock.fixed(start + timedelta(hours=9)):
        _sign_in(user_app)
        assert len(_rows(user_app)) == 2  # the old one is refused when opened, kept till the pass
        with user_app.app_context():
            db = database()
        assert daily.TASKS["sessions"](db, clock.today()) == {"deleted": 1}
        assert daily.TASKS["sessions"](db, clock.today()) == {"deleted": 0}
        [row] = _rows(user_app)
        assert row.expires_at > clock.now()


def test_session_id_and_csrf_token_change_at_sign_in(user_app):
    client = user_app.test_client()
    page = client.get("/cuenta/entrar").get_data(as_text=True)
    before_cookie, before_token = _cookie(client), csrf_token(page)
    assert _rows(user_app) == []  # an anonymous session has no row: its cookie holds it
    before_raw = _signed_data(user_app, before_cookie)["csrf_token"]
    r = client.post("/cuenta/entrar", data={"csrf_token": before_token, "email": EMAIL,
                                            "password": PASSWORD})
    assert r.status_code == 303
    after_cookie = _cookie(client)
    assert after_cookie and after_cookie != before_cookie
    [row] = _rows(user_app)  # signed in: a row, and the cookie only its token
    assert row.id == hashlib.sha256(after_cookie.encode()).hexdigest()
    page = client.get("/mis-propiedades").get_data(as_text=True)
    assert csrf_token(page) != before_token
    [row] = _rows(user_app)
    assert json.loads(row.data)["csrf_token"] != before_raw
    # the token from before signing in is refused now
    r = client.post("/idioma", data={"lang": "en", "next": "/", "csrf_token": before_token})
    assert r.status_code == 400
    # and the cookie from before (a planted session) opens nothing
    assert not _signed_in(_with_cookie(user_app, before_cookie))


def test_an_anonymous_visitor_writes_nothing_to_the_database(user_app):
    """Pages, forms, a wrong password and a language switch without signing in: no session
    row and no write; the forms' CSRF secret and the language travel in the signed cookie."""
    from portal.web.data import database
    from tests.support.sql import QueryCounter
    client = user_app.test_client()
    with user_app.app_context():
        engine = database().engine
    with QueryCounter(engine) as seen:
        page = client.get("/cuenta/entrar").get_data(as_text=True)
        r = client.post("/cuenta/entrar", data={"csrf_token": csrf_token(page), "email": EMAIL,
                                                "password": "not the password at all"})
        assert r.status_code == 200 and "session" not in str(r.headers.get("Location"))
        r = client.post("/idioma", data={"lang": "en", "next": "/",
                                         "csrf_token": csrf_token(page)})
        assert r.status_code in (302, 303)
        assert client.get("/").status_code == 200
    writes = [s for s in seen.statements if "web_sessions" in s.lower()
              and not s.lstrip().upper().startswith("SELECT")]
    assert writes == []
    assert _rows(user_app) == []
    data = _signed_data(user_app, _cookie(client))
    assert data["lang"] == "en" and len(data["csrf_token"]) == 40


def test_an_anonymous_get_without_a_cookie_runs_no_sql(user_app):
    """A first visit (no cookie) to the home page, the sign-in page and the guest payment's
    start sends no statement at all to the database: its session (the forms' CSRF secret)
    is only in the signed cookie the response sets; a second visit with that cookie none
    either."""
    from portal.web.data import database
    from tests.support.sql import QueryCounter
    with user_app.app_context():
        engine = database().engine
    for path in ("/", "/cuenta/entrar", "/?lang=en"):
        client = user_app.test_client()
        with QueryCounter(engine) as seen:
            r = client.get(path)
            assert r.status_code == 200, path
            assert _cookie(client).startswith("a.")  # the signed cookie, not a row's token
            assert client.get(path).status_code == 200
        assert seen.statements == [], path
    assert _rows(user_app) == []


def test_no_request_purges_expired_sessions(user_app, fixed_today):
    """Signing in, a signed-in page and an anonymous one, hours after sessions expired,
    delete no expired row (only the worker's hourly pass does: the test above); a
    signed-in page that changes nothing writes nothing either."""
    from portal.web.data import database
    from tests.support.sql import QueryCounter
    start = clock.now()
    _sign_in(user_app)
    with user_app.app_context():
        engine = database().engine
    with clock.fixed(start + timedelta(hours=9)):
        with QueryCounter(engine) as seen:
            client = _sign_in(user_app)
            assert client.get("/").status_code == 200
            assert user_app.test_client().get("/").status_code == 200
        deletes = [s for s in seen.statements if s.lstrip().upper().startswith("DELETE")
                   and "web_sessions" in s]
        assert deletes == []
        assert len(_rows(user_app)) == 2  # the expired one waits for the worker
        with QueryCounter(engine) as seen:
            assert client.get("/").status_code == 200
        assert len(seen.statements) == 1 and seen.statements[0].lstrip().upper().startswith(
            "SELECT")


def test_an_altered_signed_cookie_opens_an_empty_session(user_app):
    client = user_app.test_client()
    page = client.get("/cuenta/entrar").get_data(as_text=True)
    value = _cookie(client)
    head, _, tail = value.rpartition(".")
    forged = head + "." + ("A" if tail[0] != "A" else "B") + tail[1:]
    other = _with_cookie(user_app, forged)
    r = other.post("/idioma", data={"lang": "en", "next": "/", "csrf_token": csrf_token(page)})
    assert r.status_code == 400  # the form's secret was not in a cookie it could trust
    assert client.post("/idioma", data={"lang": "en", "next": "/",
                                        "csrf_token": csrf_token(page)}).status_code in (302, 303)


def test_cookie_flags_over_http(user_app):
    client = user_app.test_client()
    r = client.get("/cuenta/entrar")
    cookie = r.headers["Set-Cookie"]
    assert cookie.startswith("session=")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" in cookie
    assert "Expires" not in cookie  # ends with the browser too


def test_cookie_is_host_prefixed_over_https(tmp_path, schema_template, fixed_today):  # noqa: ANN001
    from portal.db import reset_databases
    app = make_app(tmp_path, schema_template, PORTAL_BASE_URL="https://localhost")
    try:
        _add_user(app)
        client = app.test_client()
        base = "https://localhost"
        r = client.get("/cuenta/entrar", base_url=base)
        cookie = r.headers["Set-Cookie"]
        assert cookie.startswith("__Host-session=")
        assert "Secure" in cookie and "Path=/" in cookie and "Domain" not in cookie
        assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
        r = client.post("/cuenta/entrar", base_url=base, headers={
            "Referer": base + "/cuenta/entrar"}, data={
            "csrf_token": csrf_token(r.get_data(as_text=True)), "email": EMAIL,
            "password": PASSWORD})
        assert r.status_code == 303
        assert client.get("/mis-propiedades", base_url=base).status_code == 200
        assert client.get_cookie("session") is None
    finally:
        reset_databases()


def test_a_forged_or_unknown_cookie_opens_nothing(user_app):
    _sign_in(user_app)
    for value in ("x" * 43, "eyJfdXNlcl9pZCI6IjEifQ.Z.abc", "", "é" * 50):
        client = user_app.test_client()
        client.set_cookie("session", value)
        assert not _signed_in(client)


def test_pages_that_need_no_session_read_none(user_app):
    """A static file reads no session row (nothing is queried for it)."""
    from portal.web.data import database
    from tests.support.sql import QueryCounter
    client = _sign_in(user_app)
    client.get("/")
    with user_app.app_context():
        engine = database().engine
    with QueryCounter(engine) as seen:
        r = client.get("/static/portal.css")
        assert r.status_code == 200
        r.close()
        assert seen.statements == []
        assert client.get("/").status_code == 200
        assert seen.count == 1  # the session with its user: one statement


@pytest.mark.postgres
def test_sessions_on_postgresql(tmp_path):
    from portal.db import reset_databases
    from tests.support.schema import migrated_postgresql
    with migrated_postgresql() as url, clock.fixed(TODAY):
        app = make_app(tmp_path, url)
        try:
            _add_user(app)
            here, there = _sign_in(app), _sign_in(app)
            page = here.get("/mis-propiedades").get_data(as_text=True)
            here.post("/cuenta/salir-de-otros-dispositivos",
                      data={"csrf_token": csrf_token(page)})
            assert _signed_in(here) and not _signed_in(there)
            start = clock.now()
            with clock.fixed(start + timedelta(minutes=20)):
                assert _signed_in(here)
            with clock.fixed(start + timedelta(minutes=51)):
                assert not _signed_in(here)
            again = _sign_in(app)
            old = _cookie(again)
            page = again.get("/mis-propiedades").get_data(as_text=True)
            again.post("/cuenta/salir", data={"csrf_token": csrf_token(page)})
            assert not _signed_in(_with_cookie(app, old))
        finally:
            reset_databases()
