"""The last explicit language choice wins: chosen on the sign-in page (the switch, or a link
with `?lang=`), it survives sign-in and becomes the stored preference; an anonymous visitor
who chose nothing gets Spanish, whatever the browser asks for, and is offered the switch."""

from __future__ import annotations

from portal.db import UnitOfWork
from portal.people import users
from portal.web.data import database
from tests.support.pages import PASSWORD, ROLES, csrf_token, second_step


def _stored(app, email: str) -> str:  # noqa: ANN001
    with app.app_context(), UnitOfWork(database()) as w:
        return users.find_by_email(w, email).language


def _sign_in(client, email: str, query: str = "") -> str:  # noqa: ANN001
    page = client.get(f"/cuenta/entrar{query}").get_data(as_text=True)
    r = client.post(f"/cuenta/entrar{query}", data={"csrf_token": csrf_token(page),
                                                    "email": email, "password": PASSWORD})
    assert r.status_code == 303, r.status_code
    return r.headers["Location"]


def test_english_chosen_on_the_sign_in_page_survives_sign_in(demo_app):
    email = ROLES["owner"]
    assert _stored(demo_app, email) == "es"
    client = demo_app.test_client()
    page = client.get("/cuenta/entrar").get_data(as_text=True)
    assert 'lang="es"' in page
    r = client.post("/idioma", data={"csrf_token": csrf_token(page), "lang": "en",
                                     "next": "/cuenta/entrar"})
    assert r.status_code == 303
    assert _sign_in(client, email).endswith("/mis-propiedades")
    page = client.get("/mis-propiedades").get_data(as_text=True)
    assert '<html lang="en">' in page and "My parcels" in page
    assert _stored(demo_app, email) == "en"


def test_a_language_link_on_the_sign_in_page_is_a_choice_too(demo_app):
    email = ROLES["owner"]
    client = demo_app.test_client()
    _sign_in(client, email, "?lang=en")
    page = client.get("/mis-propiedades").get_data(as_text=True)
    assert '<html lang="en">' in page
    assert _stored(demo_app, email) == "en"


def test_the_choice_survives_the_second_step(demo_app):
    from portal.demo.district import STAFF_TOTP_SECRET
    email = ROLES["staff"]
    before = _stored(demo_app, email)
    other = "en" if before == "es" else "es"
    client = demo_app.test_client()
    page = client.get("/cuenta/entrar").get_data(as_text=True)
    client.post("/idioma", data={"csrf_token": csrf_token(page), "lang": other,
                                 "next": "/cuenta/entrar"})
    assert _sign_in(client, email).endswith("/cuenta/verificar")
    second_step(client, STAFF_TOTP_SECRET)
    page = client.get("/personal/buscar").get_data(as_text=True)
    assert f'<html lang="{other}">' in page
    assert _stored(demo_app, email) == other


def test_without_a_choice_the_stored_preference_holds(demo_app):
    email = ROLES["owner"]
    client = demo_app.test_client()
    _sign_in(client, email)
    page = client.get("/mis-propiedades").get_data(as_text=True)
    assert '<html lang="es">' in page
    assert _stored(demo_app, email) == "es"


def test_an_anonymous_visitor_gets_spanish_and_the_switch(client):
    r = client.get("/", headers={"Accept-Language": "en-US,en;q=0.9"})
    page = r.get_data(as_text=True)
    assert '<html lang="es">' in page
    assert 'name="lang" value="en"' in page and ">\n            English</button>" in page
    # The browser asks for English: the page says, in English, that it is there.
    assert '<div class="usa-alert usa-alert--info usa-alert--slim margin-top-2" lang="en">' in page
    assert "This portal is in Spanish first. It is also in English:" in page
    assert "Read it in English</button>" in page
    plain = client.get("/", headers={"Accept-Language": "es-PR,es;q=0.9"}).get_data(as_text=True)
    assert "Read it in English" not in plain
    r = client.get("/?lang=en", headers={"Accept-Language": "en-US,en;q=0.9"})
    assert '<html lang="en">' in r.get_data(as_text=True)
    assert "Read it in English" not in r.get_data(as_text=True)
