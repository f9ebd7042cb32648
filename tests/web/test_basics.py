"""The app factory, languages, security headers and error pages."""

from __future__ import annotations

import random

import pytest
from flask import Flask

from tests.support.pages import csrf_token


def test_home_is_spanish_by_default(client):
    r = client.get("/")
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert '<html lang="es">' in html
    assert "Saltar al contenido principal" in html
    assert 'lang="en"' in html and "English" in html


def test_accept_language_english_is_not_a_choice(client):
    """Spanish until the visitor chooses: the switch to English is offered."""
    html = client.get("/", headers={"Accept-Language": "en-US,en;q=0.9"}).get_data(as_text=True)
    assert '<html lang="es">' in html
    assert "Saltar al contenido principal" in html
    assert 'name="lang" value="en"' in html


def test_accept_language_es_pr(client):
    html = client.get("/", headers={"Accept-Language": "es-PR"}).get_data(as_text=True)
    assert '<html lang="es">' in html


def test_query_lang_overrides(client):
    html = client.get("/?lang=en").get_data(as_text=True)
    assert '<html lang="en">' in html


def test_language_switch_is_remembered_in_session(client):
    token = csrf_token(client.get("/").get_data(as_text=True))
    r = client.post("/idioma", data={"lang": "en", "next": "/", "csrf_token": token})
    assert r.status_code == 303 and r.headers["Location"] == "/"
    assert '<html lang="en">' in client.get("/").get_data(as_text=True)
    # and back
    token = csrf_token(client.get("/").get_data(as_text=True))
    client.post("/idioma", data={"lang": "es", "next": "/", "csrf_token": token})
    assert '<html lang="es">' in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/", "/\\evil",
                                    "javascript:alert(1)"])
def test_language_switch_never_redirects_off_site(client, target):
    token = csrf_token(client.get("/").get_data(as_text=True))
    r = client.post("/idioma", data={"lang": "en", "next": target, "csrf_token": token})
    assert r.headers["Location"] == "/"


def test_language_switch_needs_csrf(client):
    r = client.post("/idioma", data={"lang": "en", "next": "/"})
    assert r.status_code == 400
    assert "Traceback" not in r.get_data(as_text=True)


def test_security_headers(client):
    r = client.get("/")
    h = r.headers
    assert "default-src 'self'" in h["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in h["Content-Security-Policy"]
    assert "unsafe-inline" not in h["Content-Security-Policy"]
    assert h["X-Content-Type-Options"] == "nosniff"
    assert h["X-Frame-Options"] == "DENY"
    assert h["Referrer-Policy"] == "same-origin"
    assert h["Cache-Control"] == "no-store"
    assert "Strict-Transport-Security" not in h  # plain http: HSTS only over HTTPS
    secure = client.get("/", base_url="https://localhost")
    assert "max-age" in secure.headers["Strict-Transport-Security"]


def test_session_cookie_is_secure_httponly_lax(client):
    r = client.get("/")  # a form's CSRF token opens the session: its cookie is set here
    token = csrf_token(r.get_data(as_text=True))
    assert client.post("/idioma", data={"lang": "en", "next": "/",
                                        "csrf_token": token}).status_code == 303
    cookie = r.headers.get("Set-Cookie", "")
    assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie


@pytest.mark.parametrize("lang,text", [("es", "Página no encontrada"), ("en", "Page not found")])
def test_404_translated(client, lang, text):
    r = client.get(f"/no-such-page?lang={lang}")
    assert r.status_code == 404
    assert text in r.get_data(as_text=True)


def test_500_never_shows_a_traceback(app: Flask):
    @app.get("/boom")
    def boom():  # noqa: ANN202
        raise RuntimeError("secret internals")

    client = app.test_client()
    for lang, text in (("es", "Algo salió mal"), ("en", "Something went wrong")):
        r = client.get(f"/boom?lang={lang}")
        html = r.get_data(as_text=True)
        assert r.status_code == 500
        assert text in html
        assert "secret internals" not in html and "Traceback" not in html


def test_405_is_a_page(client):
    r = client.delete("/")
    assert r.status_code == 405
    assert "Traceback" not in r.get_data(as_text=True)


def test_static_uswds_served(client):
    with client.get("/static/vendor/uswds/css/uswds.min.css") as r:
        assert r.status_code == 200, "USWDS not installed: run `make setup` (npm ci)"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_money_dates_numbers_follow_the_locale(app: Flask, lang):
    from datetime import date
    from decimal import Decimal

    from babel.numbers import format_currency

    from portal import i18n
    with app.test_request_context(f"/?lang={lang}"):
        for v in ("0", "0.05", "1234.5", "-1234567.89", "999999999999.99"):
            babel = format_currency(Decimal(v), "USD", locale=i18n.LOCALES[lang])
            assert i18n.money(Decimal(v)) == babel
        assert i18n.money(Decimal("1234.5")) == "$1,234.50"
        # Any amount in cents, as Babel writes it (a seeded sample); a negative zero (0 x -1)
        # is written as zero, a negative amount under a cent as "-$0.00".
        rng = random.Random(30)
        for cents in [rng.randrange(-10**13, 10**13) for _ in range(2000)] + [-1, 1, -999]:
            v = Decimal(cents).scaleb(-2)
            assert i18n.money(v) == format_currency(v, "USD", locale=i18n.LOCALES[lang]), v
        assert i18n.money(Decimal("-0.00")) == i18n.money(Decimal("-0")) == "$0.00"
        assert i18n.money(Decimal("-0.001")) == "-$0.00"
        long = i18n.date_long(date(2026, 4, 15))
        assert long == {"es": "15 de abril de 2026", "en": "April 15, 2026"}[lang]
        assert i18n.days_left(date(2026, 12, 2), date(2026, 11, 30)) == {
            "es": "quedan 2 días", "en": "2 days left"}[lang]
        assert i18n.days_left(date(2026, 11, 29), date(2026, 11, 30)) == {
            "es": "hace 1 día", "en": "1 day ago"}[lang]


def test_emails_inside_an_english_page_keep_the_readers_language(app: Flask):
    from portal import mail
    with app.test_request_context("/?lang=en"):
        subject_es, body_es = mail.render("confirm", "es", name="Ana", link="http://x/")
        subject_en, _body = mail.render("confirm", "en", name="Ann", link="http://x/")
        from flask_babel import gettext
        assert gettext("Sign in") == "Sign in"  # the page itself is still English
    assert "Confirme su correo" in subject_es and "Saludos, Ana:" in body_es
    assert subject_en.startswith("Confirm your email")


def test_language_switch_comes_back_without_the_lang_parameter(client):
    html = client.get("/no-existe?lang=en&x=1").get_data(as_text=True)
    assert 'name="next" value="/no-existe?x=1"' in html


def test_pages_answering_a_post_come_back_on_get(client):
    """The language switch sends the reader back with a GET: no page ends on a 405."""
    r = client.get("/cuenta/reenviar")
    assert r.status_code == 303 and r.headers["Location"].endswith("/cuenta/revise-su-correo")


def test_every_http_error_is_a_translated_page(app: Flask):
    from werkzeug.exceptions import RequestEntityTooLarge, ServiceUnavailable

    @app.get("/too-large")
    def too_large():  # noqa: ANN202
        raise RequestEntityTooLarge()

    @app.get("/unavailable")
    def unavailable():  # noqa: ANN202
        raise ServiceUnavailable()

    client = app.test_client()
    r = client.get("/too-large")
    # a 413 says the limit (tests/web/test_upload_limits.py), never "the form expired"
    assert r.status_code == 413 and "El archivo es demasiado grande" in r.get_data(as_text=True)
    assert "2 MB como máximo" in r.get_data(as_text=True)
    r = client.get("/unavailable?lang=en")
    # any 503 is the "busy, try again" page (the database busy is the portal's one 503)
    assert r.status_code == 503 and "The portal is busy" in r.get_data(as_text=True)
    assert "Something went wrong" not in r.get_data(as_text=True)
    r = client.delete("/")
    assert r.status_code == 405 and "GET" in r.headers["Allow"]
