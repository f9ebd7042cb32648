"""Reviewing residential-exemption certifications in bulk (portal/exemptions/bulk_review.py):
filters, outliers flagged by the core's rule (portal/core/review_flags.py), many
decided at once yet each audited one by one through the single review's functions, and one
digest email per lender per day (portal/exemptions/digest.py), sent once."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from portal import clock
from portal.accounts.errors import Forbidden, InvalidInput
from portal.core.review_flags import outliers
from portal.exemptions import bulk_review, digest
from portal.models import (
    AuditRecord,
    ExemptionCertification,
    ExemptionEvent,
    Loan,
    OutboxMessage,
    PropertyTaxFact,
    User,
)
from tests.support.clock import TODAY, at
from tests.support.world import FY_START

CONFIG = {"MAIL_FROM": "portal@test.pr", "PORTAL_BASE_URL": "https://portal.test",
          "OUTBOX_DIR": ""}


def test_the_outlier_rule():
    crim = {"crim_total": Decimal("150000.00"), "crim_residential": Decimal("120000.00")}
    assert outliers(**crim, typed_residential=Decimal("100000.00"), typed_veteran=None) == ()
    assert outliers(**crim, typed_residential=Decimal("1000000000.00"),
                    typed_veteran=None) == ("residential_over_total",
                                            "residential_far_from_crim")
    assert outliers(**crim, typed_residential=Decimal("50000.00"),
                    typed_veteran=None) == ("residential_far_from_crim",)
    assert outliers(**crim, typed_residential=None,
                    typed_veteran=Decimal("150000.01")) == ("veteran_over_total",)
    assert outliers(crim_total=None, crim_residential=None, typed_residential=Decimal("1"),
                    typed_veteran=None) == ("no_crim_facts",)
    assert outliers(crim_total=None, crim_residential=None, typed_residential=None,
                    typed_veteran=Decimal("0")) == ()


@pytest.fixture
def filings(world):  # noqa: ANN001, ANN201
    """Three certifications on the lender's loan L-1 (parcel C) and one of Alice's (A),
    with the CRIM's facts of A and C: C's valuation 150,000.00 (residential 120,000.00)."""
    with world.uow() as w:
        s = w.session
        loan = s.scalar(select(Loan).where(Loan.loan_number == "L-1"))
        for key in ("A", "C"):
            s.add(PropertyTaxFact(parcel_id=world.parcel[key], fiscal_year_start=FY_START,
                                  municipality="San Juan", zone="urban",
                                  land_area_cuerdas=Decimal("0.1"),
                                  land_valuation=Decimal("30000.00"),
                                  structure_valuation=Decimal("120000.00"),
                                  residential_valuation=Decimal("120000.00"),
                                  source="test"))
        ids = {}
        for name, key, loan_id, typed, by in (
                ("ok", "C", loan.id, "110000.00", "lender_user"),
                ("huge", "C", loan.id, "1000000000.00", "lender_user"),
                ("small", "C", loan.id, "40000.00", "lender_user"),
                ("alice", "A", None, "100000.00", "alice")):
            c = ExemptionCertification(
                parcel_id=world.parcel[key], fiscal_year_start=FY_START, status="filed",
                created_by_id=world.people[by].id, loan_id=loan_id, filed_on=date(2026, 11, 2),
                filing_number=f"EX-{name}",
                answers={"residential": "valuation", "residential_valuation": typed})
            s.add(c)
            s.flush()
            ids[name] = c.id
    return world, ids


def _staff(w, world):  # noqa: ANN001, ANN202
    return w.session.get(User, world.staff.id)


def test_filters_and_flags(filings):
    world, ids = filings
    with world.uow() as w:
        staff = _staff(w, world)
        [(lender_id, _name)] = bulk_review.lenders(w)
        rows, total, flagged = bulk_review.queue(w, staff, bulk_review.Filters())
        assert total == 4 and flagged == 2
        flags = {r.filing_number: r.flags for r in rows}
        assert flags["EX-huge"] == ("residential_over_total", "residential_far_from_crim")
        assert flags["EX-small"] == ("residential_far_from_crim",)
        assert flags["EX-ok"] == flags["EX-alice"] == ()
        rows, total, _f = bulk_review.queue(w, staff, bulk_review.Filters(lender_id=lender_id))
        assert total == 3 and "EX-alice" not in {r.filing_number for r in rows}
        rows, total, _f = bulk_review.queue(w, staff, bulk_review.Filters(
            amount_min=Decimal("50000"), amount_max=Decimal("200000")))
        assert {r.filing_number for r in rows} == {"EX-ok", "EX-alice"}
        rows, total, _f = bulk_review.queue(w, staff, bulk_review.Filters(flagged_only=True))
        assert {r.filing_number for r in rows} == {"EX-huge", "EX-small"} and total == 2
        rows, total, _f = bulk_review.queue(w, staff, bulk_review.Filters(), offset=3)
        assert total == 4 and len(rows) == 1


def test_a_bulk_decision_is_audited_one_by_one(filings):
    world, ids = filings
    chosen = [ids["ok"], ids["alice"], ids["small"]]
    with clock.fixed(at(date(2026, 11, 30), 10)), world.uow() as w:
        before = w.session.scalar(select(func.count()).select_from(AuditRecord))
        out = bulk_review.decide(w, _staff(w, world), chosen, "approve", note="Bien")
        assert out.decided == chosen and out.skipped == []
    with world.uow() as w:
        for cid in chosen:
            cert = w.session.get(ExemptionCertification, cid)
            assert cert.status == "approved" and cert.decided_by_id == world.staff.id
            events = [e.to_status for e in w.session.scalars(
                select(ExemptionEvent).where(ExemptionEvent.certification_id == cid))]
            assert events == ["under_review", "approved"]
            actions = list(w.session.scalars(select(AuditRecord.action).where(
                AuditRecord.object_id == str(cid),
                AuditRecord.object_type == "exemption_certifications")
                .order_by(AuditRecord.id)))
            assert actions == ["exemption.under_review", "exemption.approved"]
        assert w.session.scalar(select(func.count()).select_from(AuditRecord)) == before + 6
        assert w.session.get(ExemptionCertification, ids["huge"]).status == "filed"


def test_return_needs_reasons_and_a_moved_one_is_skipped(filings):
    world, ids = filings
    with world.uow() as w:
        with pytest.raises(InvalidInput):
            bulk_review.decide(w, _staff(w, world), [ids["huge"]], "return", reasons=[])
        with pytest.raises(InvalidInput):
            bulk_review.decide(w, _staff(w, world), [ids["huge"]], "return",
                               reasons=["nope"])
        bulk_review.decide(w, _staff(w, world), [ids["ok"]], "approve")
    with world.uow() as w:
        out = bulk_review.decide(w, _staff(w, world), [ids["ok"], ids["huge"]], "return",
                                 reasons=["residential"], note="Revise la valoración")
    assert out.decided == [ids["huge"]] and out.skipped == [(ids["ok"], "exemption_state")]
    with world.uow() as w:
        huge = w.session.get(ExemptionCertification, ids["huge"])
        assert huge.status == "returned" and huge.returned_steps == ["residential"]


def test_only_reviewers_decide(filings):
    world, ids = filings
    with world.uow() as w:
        w.session.get(User, world.staff.id).staff_role = "cashier"
    with world.uow() as w, pytest.raises(Forbidden):
        bulk_review.decide(w, _staff(w, world), [ids["ok"]], "approve")


def test_one_digest_per_lender_per_day_sent_once(filings):
    world, ids = filings
    with clock.fixed(at(date(2026, 11, 29), 9)), world.uow() as w:
        bulk_review.decide(w, _staff(w, world), [ids["ok"], ids["small"]], "approve")
    with clock.fixed(at(date(2026, 11, 29), 23, 30)), world.uow() as w:  # still the 29th in PR
        bulk_review.decide(w, _staff(w, world), [ids["huge"]], "return",
                           reasons=["residential"])
    with clock.fixed(at(date(2026, 11, 30), 1)), world.uow() as w:  # the next day's
        bulk_review.decide(w, _staff(w, world), [ids["alice"]], "approve")
    assert digest.send(world.database, date(2026, 11, 29), CONFIG)["sent"] == 0
    done = digest.send(world.database, TODAY, CONFIG)
    assert done == {"lenders": 1, "sent": 1, "already_sent": 0}
    assert digest.send(world.database, TODAY, CONFIG) == {"lenders": 1, "sent": 0,
                                                          "already_sent": 1}
    with world.uow() as w:
        [msg] = w.session.scalars(select(OutboxMessage).where(
            OutboxMessage.template == "exemption_digest"))
        body = msg.raw.decode()
    assert msg.recipient == "lender@test.pr"
    assert "EX-ok" in body and "EX-small" in body and "EX-huge" in body
    assert "EX-alice" not in body  # not the lender's, and decided the next day
    assert "<exemption-digest." in body
    assert "https://portal.test/prestamista/exoneraciones" in body
