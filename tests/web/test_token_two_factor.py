"""API tokens hold a bank's power over its loans: only an administrator who turned on
two-step sign-in and passed it in this session creates or revokes one (docs/SECURITY.md).
The demo's bank administrator is enrolled (and signs in with the second step)."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import func, select

from tests.support.demo import app_uow
from tests.support.lenders import new_token, second_lender
from tests.support.pages import csrf_token, login, password_only


def _tokens(app: Flask) -> int:
    from portal.models import LenderApiToken
    with app_uow(app) as w:
        return w.session.scalar(select(func.count()).select_from(LenderApiToken))


def test_a_bank_administrator_without_the_second_step_creates_no_token(demo_app: Flask):
    with app_uow(demo_app) as w:
        _bank, admin = second_lender(w, enrol=False)
        email = admin.email
    client = login(demo_app, email)  # a password alone: not enrolled
    first = client.get("/prestamista/organizacion")  # the lender pages ask for it first
    assert first.status_code == 303 and "/cuenta/dos-pasos/activar" in first.headers["Location"]
    page = client.get("/cuenta").get_data(as_text=True)  # a form's token from a page it opens
    before = _tokens(demo_app)
    r = client.post("/prestamista/organizacion/tokens", data={
        "csrf_token": csrf_token(page), "name": "Escrow", "scope": "write", "days": "90"})
    assert r.status_code == 303 and r.headers["Location"].endswith("/cuenta/dos-pasos/activar")
    assert _tokens(demo_app) == before


def test_the_enrolled_administrator_signs_in_with_both_steps_and_creates_one(demo_app):
    _client, where = password_only(demo_app, "lender@demo.pr")
    assert where.endswith("/cuenta/verificar")  # a password alone is not enough
    before = _tokens(demo_app)
    assert new_token(login(demo_app, "lender"), scope="write")
    assert _tokens(demo_app) == before + 1
