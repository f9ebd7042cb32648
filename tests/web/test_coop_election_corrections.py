"""Staff's pages of the housing cooperatives' elections (R-B4, R-B20): an election recorded
in error is corrected by a reviewer or an administrator as a new append-only correction
(reason, staff member, audited), the latest one in force; every staff member reads the
pages, others get 404; bad input says why in the reader's language and changes nothing.
The clock is the demo District's day (2026-11-30)."""

from __future__ import annotations

import re
from datetime import date

import pytest
from sqlalchemy import func, select

from tests.support.demo import app_uow
from tests.support.pages import STAFF_ROLE_EMAILS, csrf_token, login

FY = date(2026, 7, 1)


def _election(app, name: str = "Cooperativa Jardines del Paraíso",  # noqa: ANN001
              election: str = "residential") -> int:
    from portal.exemptions import cooperatives
    from portal.people import users
    with app_uow(app) as w:
        owner = users.find_by_email(w, "owner@demo.pr")
        return cooperatives.record(w, fy=FY, name=name, election=election,
                                   recorded_by_id=owner.id, lender_id=None).id


def _state(app, eid: int) -> tuple:  # noqa: ANN001
    """What a refused correction must leave as it was: the election, its corrections and
    their audit records."""
    from portal.models import AuditRecord, CooperativeElection, CooperativeElectionCorrection
    with app_uow(app) as w:
        e = w.session.get(CooperativeElection, eid)
        return (e.election, w.session.scalar(select(func.count(CooperativeElectionCorrection.id))),
                w.session.scalar(select(func.count(AuditRecord.id)).where(
                    AuditRecord.action == "exemption.coop_election_corrected")))


def _staff(app, role: str):  # noqa: ANN001, ANN202
    return login(app, STAFF_ROLE_EMAILS[role])


def _english(client) -> None:  # noqa: ANN001
    token = csrf_token(client.get("/").get_data(as_text=True))
    client.post("/idioma", data={"csrf_token": token, "lang": "en", "next": "/"})


def test_who_may_read_and_who_may_correct(demo_app):
    eid = _election(demo_app)
    before = _state(demo_app, eid)
    anonymous = demo_app.test_client()
    assert anonymous.get("/personal/cooperativas").status_code == 302
    assert anonymous.post(f"/personal/cooperativas/{eid}/correccion").status_code in (302, 400)
    for who in ("owner", "other", "lender", "lessee"):
        client = login(demo_app, who)
        assert client.get("/personal/cooperativas").status_code == 404
        assert client.get(f"/personal/cooperativas/{eid}").status_code == 404
        tok = csrf_token(client.get("/").get_data(as_text=True))
        r = client.post(f"/personal/cooperativas/{eid}/correccion", data={
            "csrf_token": tok, "election": "cooperative_law", "reason": "Error"})
        assert r.status_code == 404
    for role in ("cashier", "read_only"):
        client = _staff(demo_app, role)
        listed = client.get("/personal/cooperativas").get_data(as_text=True)
        assert "Cooperativa Jardines del Paraíso" in listed
        page = client.get(f"/personal/cooperativas/{eid}").get_data(as_text=True)
        assert 'name="reason"' not in page
        assert "Los revisores y los administradores corrigen una elección." in page
        r = client.post(f"/personal/cooperativas/{eid}/correccion", data={
            "csrf_token": csrf_token(page), "election": "cooperative_law", "reason": "Error"})
        assert r.status_code == 403
    assert _state(demo_app, eid) == before
    for role in ("reviewer", "administrator"):
        page = _staff(demo_app, role).get(f"/personal/cooperativas/{eid}").get_data(as_text=True)
        assert 'name="reason"' in page and 'name="election"' in page
    assert _staff(demo_app, "reviewer").get("/personal/cooperativas/999999").status_code == 404


@pytest.mark.parametrize(("data", "code", "message"), [
    ({}, 422, "Elija la elección que hizo la cooperativa."),
    ({"election": "cooperative_law"}, 422, "Diga por qué se corrige la elección."),
    ({"election": "cooperative_law", "reason": "   "}, 422,
     "Diga por qué se corrige la elección."),
    ({"election": "cooperative_law", "reason": "x" * 501}, 422,
     "Escriba hasta 500 caracteres."),
    ({"election": "both", "reason": "Error"}, 422, "Not a valid choice"),
    ({"election": "residential", "reason": "Error"}, 409,
     "Esa ya es la elección vigente: no cambió nada."),
])
def test_bad_input_says_why_and_changes_nothing(demo_app, data, code, message):
    eid = _election(demo_app)
    reviewer = _staff(demo_app, "reviewer")
    page = reviewer.get(f"/personal/cooperativas/{eid}").get_data(as_text=True)
    before = _state(demo_app, eid)
    r = reviewer.post(f"/personal/cooperativas/{eid}/correccion",
                      data={"csrf_token": csrf_token(page), **data})
    html = r.get_data(as_text=True)
    assert r.status_code == code
    if message != "Not a valid choice":
        assert message in html
    assert 'id="error-summary"' in html and "<title>Error:" in html
    assert _state(demo_app, eid) == before
    # An expired form (no CSRF token) is refused too, and changes nothing.
    r = reviewer.post(f"/personal/cooperativas/{eid}/correccion",
                      data={"election": "cooperative_law", "reason": "Error"})
    assert r.status_code in (400, 422) and _state(demo_app, eid) == before


def test_a_correction_is_appended_audited_and_in_force(demo_app):
    from portal.accounts.errors import Conflict
    from portal.exemptions import cooperatives
    from portal.models import AuditRecord, CooperativeElection, CooperativeElectionCorrection
    from portal.people import users
    eid = _election(demo_app)
    reviewer = _staff(demo_app, "reviewer")
    page = reviewer.get(f"/personal/cooperativas/{eid}").get_data(as_text=True)
    assert "La elección nunca se corrigió." in page
    r = reviewer.post(f"/personal/cooperativas/{eid}/correccion", data={
        "csrf_token": csrf_token(page), "election": "cooperative_law",
        "reason": "La resolución de la junta eligió la ley de cooperativas."})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/personal/cooperativas/{eid}")
    page = reviewer.get(f"/personal/cooperativas/{eid}").get_data(as_text=True)
    assert "La corrección quedó registrada" in page
    assert "En su lugar, la exención de la ley de cooperativas" in page
    assert "La resolución de la junta eligió la ley de cooperativas." in page
    listed = reviewer.get("/personal/cooperativas").get_data(as_text=True)
    assert "Corregida" in listed
    with app_uow(demo_app) as w:
        assert w.session.get(CooperativeElection, eid).election == "residential"  # kept
        [fix] = w.session.scalars(select(CooperativeElectionCorrection)).all()
        staff = users.find_by_email(w, STAFF_ROLE_EMAILS["reviewer"])
        assert (fix.election, fix.corrected_by_id) == ("cooperative_law", staff.id)
        audit = w.session.scalar(select(AuditRecord).where(
            AuditRecord.action == "exemption.coop_election_corrected"))
        assert audit.actor_id == staff.id and audit.object_id == str(eid)
        e = w.session.get(CooperativeElection, eid)
        assert cooperatives.in_force(w, e) == "cooperative_law"
        owner = users.find_by_email(w, "owner@demo.pr")
        # Units filed from now on follow the corrected election; the old one is refused.
        assert cooperatives.record(w, fy=FY, name="cooperativa jardines del paraiso",
                                   election="cooperative_law", recorded_by_id=owner.id,
                                   lender_id=None).id == eid
        with pytest.raises(Conflict):
            cooperatives.record(w, fy=FY, name="Cooperativa Jardines del Paraíso",
                                election="residential", recorded_by_id=owner.id,
                                lender_id=None)
    # An administrator corrects it back: the latest correction is in force, both are listed.
    admin = _staff(demo_app, "administrator")
    _english(admin)
    page = admin.get(f"/personal/cooperativas/{eid}").get_data(as_text=True)
    assert "Correct the election" in page and "Why it is corrected" in page
    r = admin.post(f"/personal/cooperativas/{eid}/correccion", data={
        "csrf_token": csrf_token(page), "election": "residential",
        "reason": "The board's resolution was misread."}, follow_redirects=True)
    html = r.get_data(as_text=True)
    assert "The residential exemption, unit by unit" in html
    assert len(re.findall(r'data-label="Corrected to"', html)) == 2
    with app_uow(demo_app) as w:
        assert cooperatives.in_force(w, w.session.get(CooperativeElection, eid)) \
            == "residential"
    empty = admin.post(f"/personal/cooperativas/{eid}/correccion",
                       data={"csrf_token": csrf_token(page)})
    assert empty.status_code == 422
    assert "Choose the election the cooperative made." in empty.get_data(as_text=True)
