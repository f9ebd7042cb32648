"""The one-click unsubscribe of the emailed notices (docs/MAIL.md, "Emailed notices"):
`/avisos/baja/<token>` answers a GET with a page in the reader's language and a POST
(RFC 8058: no sign-in, no CSRF token) by stopping that account's emailed notices only; a
forged token is refused (404) with nothing changed; the account page turns them back on."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import select

from portal.accounts import notice_emails
from tests.support.demo import app_uow
from tests.support.hostile import fingerprint
from tests.support.html import html_errors, needs_vnu
from tests.support.pages import csrf_token, login


def _user_id(app: Flask, email: str) -> int:
    from portal.people import users
    with app_uow(app) as w:
        return users.find_by_email(w, email).id


def _stopped(app: Flask) -> set[str]:
    from portal.models import User
    with app_uow(app) as w:
        return set(w.session.scalars(select(User.email).where(
            User.notice_emails_off_at.is_not(None))))


def _path(url: str) -> str:
    return "/" + url.split("://", 1)[1].split("/", 1)[1]


def test_the_link_is_the_route(app: Flask):
    with app.test_request_context():
        from flask import url_for
        assert url_for("accounts.notices_unsubscribe", token="T") == \
            notice_emails.UNSUBSCRIBE.format(token="T")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_one_click_without_a_session_stops_only_that_account(demo_app: Flask, lang: str):
    app = demo_app
    uid = _user_id(app, "owner@demo.pr")
    url = notice_emails.link(app.config, uid, lang)
    path = _path(url)
    anon = app.test_client()
    page = anon.get(path)
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "owner@demo.pr" in html
    assert ("Dejar de recibir avisos por correo electrónico" if lang == "es"
            else "Stop emailed notices") in html
    assert _stopped(app) == set()
    token = path.split("/")[-1].split("?")[0]
    forged = token[:-3] + ("abc" if not token.endswith("abc") else "xyz")
    other_uid = _user_id(app, "lessee@demo.pr")
    for bad in (forged, f"{other_uid}.{token.split('.', 1)[1]}", "999999"):
        before = fingerprint(app)
        r = anon.post(f"/avisos/baja/{bad}", data="List-Unsubscribe=One-Click",
                      content_type="application/x-www-form-urlencoded")
        assert r.status_code == 404 and fingerprint(app) == before
        assert anon.get(f"/avisos/baja/{bad}").status_code == 404
    r = anon.post(path, data="List-Unsubscribe=One-Click",
                  content_type="application/x-www-form-urlencoded")
    assert r.status_code == 200
    assert ("en papel" if lang == "es" else "on paper") in r.get_data(as_text=True)
    assert _stopped(app) == {"owner@demo.pr"}
    assert anon.post(path).status_code == 200  # twice: the same
    assert _stopped(app) == {"owner@demo.pr"}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_account_page_turns_them_back_on(demo_app: Flask, lang: str):
    app = demo_app
    client = login(app, "owner")
    client.post("/idioma", data={"lang": lang, "csrf_token": csrf_token(
        client.get("/").get_data(as_text=True))})
    anon = app.test_client()
    url = notice_emails.link(app.config, _user_id(app, "owner@demo.pr"))
    assert anon.post(_path(url)).status_code == 200
    html = client.get("/cuenta").get_data(as_text=True)
    assert 'value="on"' in html and ("en papel" if lang == "es" else "on paper") in html
    tok = csrf_token(html)
    assert client.post("/cuenta/avisos-por-correo", data={"csrf_token": tok,
                                                          "notice_emails": "maybe"}
                       ).status_code == 400
    assert _stopped(app) == {"owner@demo.pr"}
    r = client.post("/cuenta/avisos-por-correo", data={"csrf_token": tok,
                                                       "notice_emails": "on"})
    assert r.status_code == 303
    assert _stopped(app) == set()
    assert 'value="off"' in client.get("/cuenta").get_data(as_text=True)
    assert anon.post("/cuenta/avisos-por-correo", data={"notice_emails": "off"}
                     ).status_code in (302, 400)
    assert _stopped(app) == set()


@needs_vnu
def test_the_pages_are_valid_html(demo_app: Flask, tmp_path):
    app = demo_app
    url = notice_emails.link(app.config, _user_id(app, "owner@demo.pr"), "en")
    anon = app.test_client()
    pages = [("unsubscribe-ask", anon.get(_path(url)).get_data(as_text=True)),
             ("unsubscribe-done", anon.post(_path(url)).get_data(as_text=True)),
             ("account", login(app, "owner").get("/cuenta").get_data(as_text=True))]
    assert html_errors(tmp_path, pages) == []
