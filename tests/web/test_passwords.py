"""Passwords a person chooses (ASVS 2.1): at least 12 characters, not a common or leaked one
(Spanish and Puerto Rico ones included), not their own email or name; feedback in their
language. The demo's seeded password stays valid."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from portal.accounts.errors import InvalidInput
from portal.models import User
from portal.people import password_policy, users
from tests.support.pages import PASSWORD as DEMO_PASSWORD
from tests.support.pages import csrf_token, login

#: The probe's examples: four it named, three more of the common ones it tried.
REFUSED = ["Password1!", "Qwerty12345", "contraseña1", "Welcome2026",
           "Contraseña2026!", "Boricua12345!", "PuertoRico2026!"]


def _sign_up(client, password, lang="es", email="ana.rivera@example.com"):  # noqa: ANN001, ANN202
    page = client.get(f"/cuenta/registro?lang={lang}").get_data(as_text=True)
    return client.post(f"/cuenta/registro?lang={lang}", data={
        "csrf_token": csrf_token(page), "name": "Ana Rivera", "email": email,
        "password": password, "confirm": password})


def _users(app) -> int:  # noqa: ANN001
    from portal.db import UnitOfWork
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        return w.session.scalar(select(func.count()).select_from(User))


@pytest.mark.parametrize("password", REFUSED)
def test_the_probes_weak_passwords_are_refused_at_sign_up(app, client, password):
    r = _sign_up(client, password)
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert ("Use al menos 12 caracteres." in html
            or "Esa contraseña está en las listas de contraseñas comunes" in html), html
    assert _users(app) == 0


@pytest.mark.parametrize("password", REFUSED)
def test_the_service_refuses_them_too(password):
    with pytest.raises(InvalidInput) as err:
        users.choose_password(password, "ana@example.com", "Ana")
    assert err.value.code == "weak_password"


def test_spanish_variants_are_normalised_before_the_list():
    assert password_policy.normalise("¡Boricua2026!") == "boricua"
    assert password_policy.normalise("Puerto Rico 1952") == "puertorico"
    assert password_policy.normalise("CONTRASEÑA#123") == "contrasena"
    for pw in ("MiClave2026!!", "TeAmo123456789", "Borinquen2026", "puertorico#1952"):
        assert password_policy.problems(pw) == [password_policy.COMMON], pw


def test_own_email_or_name_is_refused(app, client):
    html = _sign_up(client, "rivera-en-el-portal-2026").get_data(as_text=True)
    assert "No use su nombre ni su correo electrónico en la contraseña." in html
    html = _sign_up(client, "ana.rivera@example.com").get_data(as_text=True)
    assert "No use su nombre ni su correo electrónico en la contraseña." in html
    assert _users(app) == 0


def test_feedback_follows_the_language(client):
    html = _sign_up(client, "Contraseña2026!", lang="en").get_data(as_text=True)
    assert "That password is on the lists of common or leaked passwords" in html
    html = _sign_up(client, "abcdefabcdefabcdef", lang="en").get_data(as_text=True)
    assert "That password is easy to guess" in html
    html = _sign_up(client, "abcdefabcdefabcdef").get_data(as_text=True)
    assert "Esa contraseña es fácil de adivinar" in html


def test_a_strong_phrase_is_accepted(app, client):
    r = _sign_up(client, "guayaba con queso en la playa")
    assert r.status_code == 303
    assert _users(app) == 1


def test_a_reset_refuses_weak_passwords_and_the_users_own_email(demo_app):
    from portal.db import UnitOfWork
    from portal.web.data import database
    from portal.web.people import tokens
    with demo_app.app_context(), UnitOfWork(database()) as w:
        owner = users.find_by_email(w, "owner@demo.pr")
        with demo_app.test_request_context():
            token = tokens.make_reset(owner.id, users.password_fingerprint(owner))
    client = demo_app.test_client()
    for weak, words in (("Password1234!", "Esa contraseña está en las listas"),
                        ("owner@demo.pr-2026", "No use su nombre"),
                        ("MariaRivera-2026!", "No use su nombre")):
        page = client.get(f"/cuenta/nueva-contrasena/{token}").get_data(as_text=True)
        r = client.post(f"/cuenta/nueva-contrasena/{token}", data={
            "csrf_token": csrf_token(page), "password": weak, "confirm": weak})
        assert r.status_code == 200 and words in r.get_data(as_text=True), weak
    login(demo_app, "owner", DEMO_PASSWORD)  # unchanged


def test_the_demo_password_stays_valid(demo_app):
    assert password_policy.problems(DEMO_PASSWORD, "owner@demo.pr", "María Rivera Ortiz") == []
    login(demo_app, "owner", DEMO_PASSWORD)


def _change(client, current, new):  # noqa: ANN001, ANN202
    page = client.get("/cuenta/contrasena").get_data(as_text=True)
    return client.post("/cuenta/contrasena", data={
        "csrf_token": csrf_token(page), "current": current, "password": new, "confirm": new})


def test_changing_the_password_checks_the_current_one_and_the_new_one(demo_app):
    client = login(demo_app, "owner", DEMO_PASSWORD)
    r = _change(client, DEMO_PASSWORD, "Welcome2026!")
    assert r.status_code == 200
    assert "Esa contraseña está en las listas" in r.get_data(as_text=True)
    r = _change(client, "not my password at all", "guayaba con queso en la playa")
    assert r.status_code == 200
    assert "Esa no es su contraseña actual." in r.get_data(as_text=True)
    r = _change(client, DEMO_PASSWORD, "guayaba con queso en la playa")
    assert r.status_code == 303
    login(demo_app, "owner", "guayaba con queso en la playa")
