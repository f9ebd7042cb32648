"""The review in bulk's page (portal/web/exemptions/bulk.py) on the demo District:
filters, outliers flagged, many certifications decided with one form, each audited on its
own; the bank gets no email per decision (the next day's digest tells it); staff only,
reviewers and administrators decide."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import and_, select

from portal.db import get_database
from portal.models import AuditRecord, ExemptionCertification, Loan, PropertyTaxFact, User
from tests.support.pages import STAFF_ROLE_EMAILS, csrf_token, login, outbox


@pytest.fixture
def filed(demo_app):  # noqa: ANN001, ANN201
    """Three certifications the demo's bank filed on its loans, one with an absurd amount."""
    ids = []
    with get_database(demo_app.config["DATABASE_URL"]).unit_of_work() as w:
        bank_user = w.session.scalar(select(User).where(User.email == "lender@demo.pr"))
        loans = list(w.session.scalars(
            select(Loan).join(PropertyTaxFact, and_(
                PropertyTaxFact.parcel_id == Loan.parcel_id,
                PropertyTaxFact.fiscal_year_start == date(2026, 7, 1)))
            .order_by(Loan.id).limit(3)))
        for n, loan in enumerate(loans):
            facts = w.session.scalar(select(PropertyTaxFact).where(
                PropertyTaxFact.parcel_id == loan.parcel_id,
                PropertyTaxFact.fiscal_year_start == date(2026, 7, 1)))
            typed = "1000000000.00" if n == 1 else str(
                facts.residential_valuation or facts.land_valuation + facts.structure_valuation)
            c = ExemptionCertification(
                parcel_id=loan.parcel_id, fiscal_year_start=date(2026, 7, 1), status="filed",
                created_by_id=bank_user.id, loan_id=loan.id, filed_on=date(2026, 11, 20),
                filing_number=f"EX-BULK-{n}",
                answers={"residential": "valuation", "residential_valuation": typed})
            w.session.add(c)
            w.session.flush()
            ids.append(c.id)
    return demo_app, ids


def test_the_page_flags_the_outlier_and_filters(filed):
    app, ids = filed
    client = login(app, "staff")
    html = client.get("/personal/exoneraciones/en-lote").get_data(as_text=True)
    assert f'data-cert="{ids[1]}" data-flags="' in html
    assert "1,000,000,000.00" in html or "1.000.000.000,00" in html
    r = client.get("/personal/exoneraciones/en-lote?senaladas=y")
    assert f'data-cert="{ids[0]}"' not in r.get_data(as_text=True)
    r = client.get("/personal/exoneraciones/en-lote?minimo=1e9")
    assert r.status_code == 422
    r = client.get("/personal/exoneraciones/en-lote?minimo=500&maximo=100")
    assert r.status_code == 422


def test_approve_many_each_audited_and_no_email_to_the_bank(filed):
    app, ids = filed
    client = login(app, STAFF_ROLE_EMAILS["reviewer"])
    page = client.get("/personal/exoneraciones/en-lote?todas=1").get_data(as_text=True)
    assert f'value="{ids[0]}" id="ids-' in page and "checked" in page
    sent_before = len(outbox(app))
    r = client.post("/personal/exoneraciones/en-lote", data={
        "csrf_token": csrf_token(page), "ids": [str(ids[0]), str(ids[2])],
        "action": "approve", "note": ""})
    assert r.status_code == 303
    with get_database(app.config["DATABASE_URL"]).unit_of_work() as w:
        for cid, status in zip(ids, ("approved", "filed", "approved"), strict=True):
            assert w.session.get(ExemptionCertification, cid).status == status
        audited = w.session.scalars(select(AuditRecord.object_id).where(
            AuditRecord.action == "exemption.approved"))
        assert {str(ids[0]), str(ids[2])} <= set(audited)
    assert len(outbox(app)) == sent_before  # the bank filed them: the digest tells it


def test_return_without_a_reason_is_its_message(filed):
    app, ids = filed
    client = login(app, "staff")
    page = client.get("/personal/exoneraciones/en-lote").get_data(as_text=True)
    r = client.post("/personal/exoneraciones/en-lote", data={
        "csrf_token": csrf_token(page), "ids": [str(ids[1])], "action": "return"})
    assert r.status_code == 422
    assert "Escoja por lo menos una razón." in r.get_data(as_text=True)
    r = client.post("/personal/exoneraciones/en-lote", data={
        "csrf_token": csrf_token(page), "action": "approve"})
    assert r.status_code == 422


@pytest.mark.parametrize("role", ["cashier", "read_only"])
def test_other_staff_read_but_may_not_decide(filed, role):
    app, ids = filed
    client = login(app, STAFF_ROLE_EMAILS[role])
    page = client.get("/personal/exoneraciones/en-lote")
    assert page.status_code == 200
    r = client.post("/personal/exoneraciones/en-lote", data={
        "csrf_token": csrf_token(page.get_data(as_text=True)), "ids": [str(ids[0])],
        "action": "approve"})
    assert r.status_code == 403


@pytest.mark.parametrize("role", ["owner", "lender"])
def test_not_staff_is_404(filed, role):
    app, _ids = filed
    client = login(app, role)
    assert client.get("/personal/exoneraciones/en-lote").status_code == 404
