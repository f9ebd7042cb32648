"""Throttling that holds across workers: two app instances on one shared database (as two
gunicorn workers are) count on the same rows, per account and per address; the owner's
right password from an address that did not guess still signs in."""

from __future__ import annotations

import pytest

from portal.db import reset_databases
from portal.people import users
from tests.support.app import make_app
from tests.support.pages import PASSWORD, csrf_token
from tests.support.schema import copy_of

LIMIT = users.SIGNIN_ACCOUNT[0]


@pytest.fixture
def two_workers(tmp_path, demo_db, fixed_today):
    """Two apps (two engines, two pools) on one SQLite file, throttling on."""
    shared = f"sqlite:///{copy_of(demo_db[0], tmp_path, 'shared.db')}"

    def worker(name: str):  # noqa: ANN202
        return make_app(tmp_path, shared, INSTANCE_PATH=str(tmp_path / f"instance-{name}"),
                        RATELIMIT_ENABLED=True)
    yield worker("a"), worker("b")
    reset_databases()


def _sign_in(client, email, password, address="10.0.0.1"):  # noqa: ANN001, ANN202
    env = {"REMOTE_ADDR": address}
    page = client.get("/cuenta/entrar", environ_base=env).get_data(as_text=True)
    return client.post("/cuenta/entrar", environ_base=env, data={
        "csrf_token": csrf_token(page), "email": email, "password": password})


def test_the_account_limit_holds_across_two_workers(two_workers):
    a, b = (w.test_client() for w in two_workers)
    codes = [_sign_in(a if k % 2 else b, "owner@demo.pr", f"wrong guess {k}").status_code
             for k in range(LIMIT + 2)]
    assert codes == [200] * LIMIT + [429, 429]
    r = _sign_in(a, "owner@demo.pr", PASSWORD)
    assert r.status_code == 429
    assert "Demasiados intentos" in r.get_data(as_text=True)


def test_a_second_address_gets_one_guess_not_another_allowance(two_workers):
    a, b = (w.test_client() for w in two_workers)
    for k in range(LIMIT):
        _sign_in(a, "owner@demo.pr", f"wrong guess {k}", "10.0.0.1")
    assert _sign_in(b, "owner@demo.pr", "one more guess", "10.0.0.2").status_code == 200
    assert _sign_in(a, "owner@demo.pr", "and another", "10.0.0.2").status_code == 429


def test_the_owner_still_signs_in_from_an_address_that_did_not_guess(two_workers):
    a, b = (w.test_client() for w in two_workers)
    for k in range(LIMIT):
        _sign_in(a, "owner@demo.pr", f"wrong guess {k}", "10.0.0.1")
    r = _sign_in(b, "owner@demo.pr", PASSWORD, "172.16.0.9")
    assert r.status_code == 303 and r.headers["Location"].endswith("/mis-propiedades")


def test_the_address_limit_holds_across_two_workers(two_workers, monkeypatch):
    monkeypatch.setattr(users, "SIGNIN_ADDRESS", (4, 3600))
    a, b = (w.test_client() for w in two_workers)
    codes = [_sign_in(a if k % 2 else b, f"nobody{k}@demo.pr", "wrong password here")
             .status_code for k in range(5)]
    assert codes == [200] * 4 + [429]


def test_forms_limited_per_address_share_the_count(two_workers):
    a, b = two_workers
    for app in (a, b):
        app.config["RATELIMIT_SIGNIN"] = "3 per minute"
    clients = [a.test_client(), b.test_client()]
    tokens = [csrf_token(c.get("/cuenta/olvide").get_data(as_text=True)) for c in clients]
    codes = [clients[k % 2].post("/cuenta/olvide", data={
        "csrf_token": tokens[k % 2], "email": "x@example.com"}).status_code for k in range(4)]
    assert codes == [303, 303, 303, 429]


def test_a_reset_link_lifts_the_accounts_throttle(two_workers):
    from portal.web.people import tokens
    a, b = two_workers
    client = a.test_client()
    for k in range(LIMIT):
        _sign_in(client, "owner@demo.pr", f"wrong guess {k}")
    assert _sign_in(client, "owner@demo.pr", PASSWORD).status_code == 429
    from portal.db import UnitOfWork
    from portal.web.data import database
    with a.app_context(), UnitOfWork(database()) as w:
        owner = users.find_by_email(w, "owner@demo.pr")
        token = tokens.make_reset(owner.id, users.password_fingerprint(owner))
    new = "una frase nueva y bastante larga"
    page = client.get(f"/cuenta/nueva-contrasena/{token}").get_data(as_text=True)
    r = client.post(f"/cuenta/nueva-contrasena/{token}", data={
        "csrf_token": csrf_token(page), "password": new, "confirm": new})
    assert r.status_code == 303
    assert _sign_in(b.test_client(), "owner@demo.pr", new).status_code == 303
