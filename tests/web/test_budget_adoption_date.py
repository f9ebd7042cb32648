"""A budget's adoption date: not after today (it was recorded on 30 November as
15 January 2027, and the notices said so); correctable while no notice of its assessments has
gone out, audited with the old and the new date (R-A1)."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import func, select

from portal.db import UnitOfWork
from portal.models import AuditRecord, BudgetVersion
from portal.web.data import database
from tests.support.pages import csrf_token, login

LINES = {"lines-0-kind": "project", "lines-0-description_es": "Paseo",
         "lines-0-description_en": "Walk", "lines-0-amount": "1000", "lines-0-financed": "1000"}


def _draft(staff) -> int:  # noqa: ANN001
    page = staff.get("/personal/presupuestos/nuevo").get_data(as_text=True)
    r = staff.post("/personal/presupuestos/nuevo", data={
        "csrf_token": csrf_token(page), "fiscal_year": "2027", "fixed-0-catastro": "",
        "save": "y", **LINES})
    assert r.status_code == 303, r.get_data(as_text=True)[:1000]
    return int(r.headers["Location"].rsplit("/", 1)[1])


def _version(app: Flask, vid: int) -> tuple:
    with app.app_context(), UnitOfWork(database()) as w:
        v = w.session.get(BudgetVersion, vid)
        return v.status, v.adopted_on


@pytest.mark.parametrize(("lang", "says"), [
    ("es", "La fecha no puede ser posterior al 30 de noviembre de 2026."),
    ("en", "The date cannot be after November 30, 2026."),
])
def test_an_adoption_date_after_today_is_refused(demo_app: Flask, lang: str, says: str):
    staff = login(demo_app, "staff")
    vid = _draft(staff)
    page = staff.get(f"/personal/presupuestos/version/{vid}/adoptar?lang={lang}").get_data(
        as_text=True)
    r = staff.post(f"/personal/presupuestos/version/{vid}/adoptar?lang={lang}", data={
        "csrf_token": csrf_token(page), "adopted_on": "2027-01-15", "confirm": "y"})
    assert r.status_code == 400 and says in r.get_data(as_text=True)
    assert _version(demo_app, vid) == ("draft", None)


def test_the_adoption_date_is_corrected_before_the_notices_and_audited(demo_app: Flask):
    from datetime import date
    staff = login(demo_app, "staff")
    vid = _draft(staff)
    page = staff.get(f"/personal/presupuestos/version/{vid}/adoptar").get_data(as_text=True)
    r = staff.post(f"/personal/presupuestos/version/{vid}/adoptar", data={
        "csrf_token": csrf_token(page), "adopted_on": "2026-11-02", "confirm": "y"})
    assert r.status_code == 303
    page = staff.get(f"/personal/presupuestos/version/{vid}").get_data(as_text=True)
    assert "Corregir la fecha de adopción" in page
    url = f"/personal/presupuestos/version/{vid}/fecha"
    r = staff.post(url, data={"csrf_token": csrf_token(page), "adopted_on": "2027-01-15"})
    assert r.status_code == 400
    assert "no puede ser posterior al 30 de noviembre de 2026" in r.get_data(as_text=True)
    r = staff.post(url, data={"csrf_token": csrf_token(page), "adopted_on": "2026-11-20"})
    assert r.status_code == 303
    assert _version(demo_app, vid) == ("adopted", date(2026, 11, 20))
    with demo_app.app_context(), UnitOfWork(database()) as w:
        rec = w.session.scalar(select(AuditRecord).where(
            AuditRecord.action == "budget.adoption_date_corrected",
            AuditRecord.object_id == str(vid)))
        assert rec.before["adopted_on"] == "2026-11-02"
        assert rec.after["adopted_on"] == "2026-11-20"


def test_no_correction_once_its_notices_went_out(demo_app: Flask):
    """The demo's budget: its notices were mailed with its date; the date stays."""
    with demo_app.app_context(), UnitOfWork(database()) as w:
        vid = w.session.scalar(select(func.min(BudgetVersion.id)))
    before = _version(demo_app, vid)
    staff = login(demo_app, "staff")
    page = staff.get(f"/personal/presupuestos/version/{vid}").get_data(as_text=True)
    assert "Corregir la fecha de adopción" not in page
    r = staff.post(f"/personal/presupuestos/version/{vid}/fecha",
                   data={"csrf_token": csrf_token(page), "adopted_on": "2026-05-01"})
    assert r.status_code == 303
    assert "ya no se puede corregir" in staff.get(r.headers["Location"]).get_data(as_text=True)
    assert _version(demo_app, vid) == before
    # nobody but an administrator of the staff: the others are refused before anything
    for role, status in (("owner", 404), ("lender", 404)):
        other = login(demo_app, role)
        token = csrf_token(other.get("/").get_data(as_text=True))
        r = other.post(f"/personal/presupuestos/version/{vid}/fecha",
                       data={"csrf_token": token, "adopted_on": "2026-05-01"})
        assert r.status_code == status, role
    assert _version(demo_app, vid) == before
