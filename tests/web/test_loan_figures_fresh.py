"""The lender's kept figures (`loan_figures`, J7) are the core's for the same facts and day:
after each kind of fact the core reads is written (a ledger entry of the parcel, a day the
Board declares closed, an amendment of the year's assessments, R-A5) or the day changes, the
portfolio's rows are what `statements.lender_portfolio` computes now, never the figures kept
from before. Each change is checked to move some loan's figures, so a stale cache fails."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from flask import Flask
from sqlalchemy import select

from portal import clock
from portal.accounts import statements
from portal.lenders import portfolio
from portal.models import LedgerEntry, Loan
from portal.people import users
from portal.roll import board_parameters
from tests.support.clock import TODAY, at
from tests.support.demo import app_uow


def _kept(app: Flask) -> dict[int, tuple]:
    """{loan id: its figures as the portfolio shows them} (computing those out of date)."""
    with app_uow(app) as w:
        user = users.find_by_email(w, "lender@demo.pr")
        return {r.loan_id: (r.status, r.annual, r.due_now, r.due_now_by, r.next_due)
                for r in portfolio.rows(w, user, portfolio.Query())}


def _core(app: Flask) -> dict[int, tuple]:
    """{loan id: the same figures computed by the core now}."""
    with app_uow(app) as w:
        user = users.find_by_email(w, "lender@demo.pr")
        return {s.loan.id: (s.status, s.annual, s.due_now, s.due_now_by, s.next_due_date)
                for s in statements.lender_portfolio(w, user, clock.today()).summaries}


def _fresh_after(app: Flask, change, day: date = TODAY) -> None:  # noqa: ANN001
    """The figures kept before `change` (on `day`), and after it: the core's, and moved."""
    with clock.fixed(at(day, 8)):
        before = _kept(app)
        assert before == _core(app)
    change()
    with clock.fixed(at(day, 11)):
        now = _core(app)
        assert now != before, "the change moved no loan's figures: the test shows nothing"
        assert _kept(app) == now


def _charge(app: Flask, hour: int) -> None:
    """A fee on the first loan's parcel, its entry created at `hour`."""
    with clock.fixed(at(TODAY, hour)), app_uow(app) as w:
        loan = w.session.scalar(select(Loan).order_by(Loan.id).limit(1))
        fy = w.session.scalar(select(LedgerEntry.fiscal_year_id).limit(1))
        w.session.add(LedgerEntry(parcel_id=loan.parcel_id, fiscal_year_id=fy, kind="cost",
                                  direction="debit", amount=Decimal("12.34"),
                                  legal_date=TODAY, cost_kind="certified_mail",
                                  created_at=clock.now()))


def test_a_ledger_entry_of_the_parcel(demo_app: Flask):
    _fresh_after(demo_app, lambda: _charge(demo_app, 9))


def test_an_entry_committed_after_the_figures_with_an_earlier_time(demo_app: Flask):
    """The race: the entry's transaction began at 7, before the figures were computed at 8,
    and committed after them: its creation time is earlier than theirs, yet it raised its
    loans' version (`models.fact_versions`) when it committed, so the figures are computed
    again rather than left hiding it."""
    _fresh_after(demo_app, lambda: _charge(demo_app, 7))


DAY = date(2026, 12, 2)


def test_a_closed_day_the_board_declares(demo_app: Flask):
    """R-A6: on 2 December, the installments due on the 1st are timely through the 10th;
    the Board closes the 10th and the 11th: the last day to pay moves to Monday the 14th."""
    def declare() -> None:
        with clock.fixed(at(DAY, 9)), app_uow(demo_app) as w:
            board_parameters.declare_closed(
                w, users.find_by_email(w, "staff@demo.pr"), date(2026, 12, 10),
                date(2026, 12, 11), "Huracán Ernesto", "Hurricane Ernesto", "2026-15",
                date(2026, 11, 29))
    _fresh_after(demo_app, declare, DAY)


def test_another_day(demo_app: Flask):
    with clock.fixed(at(TODAY, 8)):
        before = _kept(demo_app)
    later = TODAY + timedelta(days=15)  # past the 1 December installments' last day
    with clock.fixed(at(later, 8)):
        now = _core(demo_app)
        assert now != before
        assert _kept(demo_app) == now


def test_an_amendment_of_the_assessments(demo_app: Flask):
    """R-A5: the Board adds to the budget; the roll is computed and published again."""
    from tests.web.test_demo_amendment_email import DECEMBER, _amend
    _fresh_after(demo_app, lambda: _amend(demo_app, Decimal("300000.00")), DECEMBER)
