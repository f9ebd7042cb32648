"""R-B10 (iii), R-B21: a lender reports an acquisition of a new structure on one of its loans
(by a user or an API token); another lender's loan is not found; bad dates are refused with
the field named; each report is audit-logged."""

from __future__ import annotations

from datetime import UTC, date, datetime
from types import SimpleNamespace

import pytest
from sqlalchemy import select

from portal.accounts.errors import InvalidInput, NotFound
from portal.db import UnitOfWork
from portal.lenders import acquisitions
from portal.models import AuditRecord, LenderAcquisition, Loan
from portal.people import users
from tests.support.lenders import other_lender
from tests.support.schema import sqlite_database


@pytest.fixture
def db(tmp_path, demo_db, fixed_today):  # noqa: ANN001, ANN201
    """The demo District in a throwaway copy, on the tests' day (no app needed)."""
    database = sqlite_database(demo_db[0], tmp_path)
    yield database
    database.dispose()


def _first_loan(w: UnitOfWork) -> Loan:
    return w.session.scalars(select(Loan).order_by(Loan.loan_number)).first()


def test_a_lenders_user_reports_an_acquisition(db):
    with UnitOfWork(db) as w:
        user = users.find_by_email(w, "lender@demo.pr")
        loan = _first_loan(w)
        row = acquisitions.report(w, user, loan.loan_number,
                                         acquired_on=date(2026, 10, 27))
        assert (row.loan_id, row.parcel_id, row.reported_by_id) == (loan.id, loan.parcel_id,
                                                                     user.id)
        views = acquisitions.for_loan(w, user, loan.id)
        assert [v.deadline.last_day for v in views] == [date(2026, 11, 27)]  # Thanksgiving
        assert views[0].deadline.overdue and views[0].deadline.days_left == -3
        audit = w.session.scalars(select(AuditRecord).where(
            AuditRecord.action == "lender.acquisition_reported")).all()
        assert [(a.actor_id, a.object_id) for a in audit] == [(user.id, str(row.id))]


def test_an_api_token_reports_for_its_lender(db):
    with UnitOfWork(db) as w:
        loan = _first_loan(w)
        token = SimpleNamespace(id=None, lender_id=loan.lender_id)
        from portal.models import LenderApiToken
        owner = users.find_by_email(w, "lender@demo.pr")
        tok = LenderApiToken(lender_id=loan.lender_id, name="t", prefix="pdl_x",
                             token_hash="0" * 64, scope="write", created_by_id=owner.id,
                             expires_at=datetime(2027, 1, 1, tzinfo=UTC))
        w.session.add(tok)
        w.session.flush()
        token.id = tok.id
        row = acquisitions.report(w, token, loan.loan_number,
                                         acquired_on=date(2026, 11, 30))
        assert (row.reported_by_id, row.reported_by_token_id) == (None, tok.id)
        audit = w.session.scalars(select(AuditRecord).where(
            AuditRecord.action == "lender.acquisition_reported")).one()
        assert f'"token_id": {tok.id}' in audit.after or audit.after.get("token_id") == tok.id


def test_another_lenders_loan_is_not_found(db):
    with UnitOfWork(db) as w:
        other, clerk = other_lender(w)
        mine = _first_loan(w)
        with pytest.raises(NotFound):
            acquisitions.report(w, clerk, mine.loan_number, acquired_on=date(2026, 5, 1))
        with pytest.raises(NotFound):
            acquisitions.report(w, SimpleNamespace(id=1, lender_id=other.id),
                                       mine.loan_number, acquired_on=date(2026, 5, 1))
        with pytest.raises(NotFound):
            acquisitions.for_loan(w, clerk, mine.id)
        with pytest.raises(NotFound):
            acquisitions.report(w, users.find_by_email(w, "owner@demo.pr"),
                                       mine.loan_number, acquired_on=date(2026, 5, 1))
        assert w.session.scalars(select(LenderAcquisition)).all() == []


@pytest.mark.parametrize(("day", "code"), [(date(2026, 12, 1), "future")])
def test_bad_dates_name_the_field(db, day, code):
    with UnitOfWork(db) as w:
        user = users.find_by_email(w, "lender@demo.pr")
        with pytest.raises(InvalidInput) as exc:
            acquisitions.report(w, user, _first_loan(w).loan_number, acquired_on=day)
        assert (exc.value.code, exc.value.params["field"]) == (code, "acquired_on")
        assert w.session.scalars(select(LenderAcquisition)).all() == []


def test_a_deed_of_last_year_is_recorded_by_its_own_30_days(db):
    """R-B21 (revision 3): the window is the deed date's 30 days, whatever its year: a deed of
    2025-12-20 (30 days: Monday 2026-01-19, Martin Luther King Jr. Day, rolls to 01-20) is
    recorded, flagged overdue on the tests' day."""
    with UnitOfWork(db) as w:
        user = users.find_by_email(w, "lender@demo.pr")
        loan = _first_loan(w)
        acquisitions.report(w, user, loan.loan_number, acquired_on=date(2025, 12, 20))
        views = acquisitions.for_loan(w, user, loan.id)
        assert [v.deadline.last_day for v in views] == [date(2026, 1, 20)]
        assert views[0].deadline.overdue


def test_a_certification_of_another_parcel_is_refused(db):
    with UnitOfWork(db) as w:
        user = users.find_by_email(w, "lender@demo.pr")
        with pytest.raises(InvalidInput) as exc:
            acquisitions.report(w, user, _first_loan(w).loan_number,
                                       acquired_on=date(2026, 5, 1), certification_id=999999)
        assert exc.value.params["field"] == "certification_id"


def test_only_the_lenders_users_mark_what_it_will_pay(db):
    """J7: another lender's clerk, the owner and an API token may not mark (nor withdraw)
    the bank's loan's items; its own user may."""
    from portal.lenders import intents
    with UnitOfWork(db) as w:
        _other, clerk = other_lender(w)
        loan = _first_loan(w)
        for who in (clerk, users.find_by_email(w, "owner@demo.pr"),
                    SimpleNamespace(id=1, lender_id=loan.lender_id)):
            with pytest.raises(NotFound):
                intents.mark(w, who, loan.id, ["crim-1"])
            with pytest.raises(NotFound):
                intents.withdraw(w, who, loan.id, 1)
        from portal.models import LenderIntent
        assert w.session.scalars(select(LenderIntent)).all() == []
        mine = users.find_by_email(w, "lender@demo.pr")
        [row] = intents.mark(w, mine, loan.id, ["crim-1"])
        assert (row.kind, row.crim_half, row.marked_by_id) == ("crim_bill", 1, mine.id)
        assert [v.id for v in intents.for_parcel(w, loan.parcel_id, row.fiscal_year_id)
                ] == [row.id]
