"""Every writer of a fact a loan's kept figures read makes them out of date in its own
transaction (the versions of `models.fact_versions`), through the services that write it:
a payment at the office, a cost, an adjustment, the reversal of a payment, a refund, an
amendment of the year's assessments (the roll's publication, R-A5), a value the Board
adopted, a closed day, a fiscal year; and the lender's list then shows the core's figures
at once. Each change is checked to leave some loan's figures out of date: a writer whose
fact raised no version fails here (its figures would be read as fresh). Then the same on
PostgreSQL (a visible skip without a server), and the data layer's two doors (the ORM's
flush, `accounts.bulk`) checked to raise the version of exactly what they wrote."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from decimal import Decimal

import pytest
from flask import Flask
from sqlalchemy import select

from portal import clock
from portal.accounts import bulk
from portal.accounts import ledger as ledger_service
from portal.lenders import portfolio
from portal.models import FactsVersion, LedgerEntry, Loan
from portal.models.fact_versions import DISTRICT
from portal.people import users
from portal.roll import board_parameters, budgets
from tests.support.clock import TODAY, at
from tests.support.demo import app_uow
from tests.web.test_loan_figures_fresh import _core, _kept


def _stale(app: Flask, day: date) -> int:
    """How many of the demo lender's loans the list's check finds out of date on `day`."""
    with clock.fixed(at(day, 10)), app_uow(app) as w:
        user = users.find_by_email(w, "lender@demo.pr")
        base, params = portfolio._base(user)
        totals, _rows = portfolio._page_statements(base, [], portfolio.Query())
        return w.session.execute(totals, {**params, "as_of": day}).one()[0]


def _after(app: Flask, change: Callable[[], object], day: date = TODAY, *,
           moves: bool = True) -> None:
    """The figures kept and fresh on `day`; `change` leaves some out of date; the list then
    shows the core's figures (moved by it, when `moves`)."""
    with clock.fixed(at(day, 8)):
        before = _kept(app)
        assert before == _core(app)
    assert _stale(app, day) == 0
    with clock.fixed(at(day, 9)):
        change()
    assert _stale(app, day) > 0, "the fact left every loan's figures as fresh"
    with clock.fixed(at(day, 11)):
        now = _core(app)
        if moves:
            assert now != before, "the change moved no loan's figures: the test shows nothing"
        assert _kept(app) == now
    assert _stale(app, day) == 0


def _due_loan(app: Flask) -> tuple[int, int, Decimal]:
    """(parcel, fiscal year, due now) of the first loan with something due today."""
    with clock.fixed(at(TODAY, 8)):
        due = {loan_id: row[2] for loan_id, row in _kept(app).items()}
    with app_uow(app) as w:
        for loan in w.session.scalars(select(Loan).order_by(Loan.id)):
            if due.get(loan.id, Decimal(0)) > 0:
                fy = w.session.scalar(select(LedgerEntry.fiscal_year_id).where(
                    LedgerEntry.parcel_id == loan.parcel_id).limit(1))
                return loan.parcel_id, fy, due[loan.id]
    raise AssertionError("no loan with something due")


def _staff(w):  # noqa: ANN001, ANN202
    return users.find_by_email(w, "staff@demo.pr")


def _office_payment(app: Flask, parcel: int, fy: int, amount: Decimal) -> int:
    from portal.models import Payment
    from portal.payments import service
    with app_uow(app) as w:
        service.post_office_payment(w, _staff(w), parcel, fy, amount, "check",
                                    payer_name="Banco", reference="77")
        return w.session.scalar(select(Payment.id).where(Payment.parcel_id == parcel)
                                .order_by(Payment.id.desc()).limit(1))


def test_a_payment_at_the_office(demo_app: Flask):
    parcel, fy, due = _due_loan(demo_app)
    _after(demo_app, lambda: _office_payment(demo_app, parcel, fy, due))


def test_a_cost(demo_app: Flask):
    parcel, fy, _due = _due_loan(demo_app)

    def cost() -> None:
        with app_uow(demo_app) as w:
            ledger_service.record_cost(w, _staff(w), parcel, fy, Decimal("12.34"), TODAY)
    _after(demo_app, cost)


@pytest.mark.parametrize("direction", ["debit", "credit"])
def test_an_adjustment(demo_app: Flask, direction: str):
    parcel, fy, _due = _due_loan(demo_app)

    def adjust() -> None:
        with app_uow(demo_app) as w:
            ledger_service.record_adjustment(w, _staff(w), parcel, fy, Decimal("10.00"),
                                             direction, "corrección")
    _after(demo_app, adjust)


def test_the_reversal_of_a_payment(demo_app: Flask):
    """A failed bank debit (`payments.ledger.reverse_payment`): owed again from its day."""
    from portal.models import Payment
    from portal.payments import ledger as payments_ledger
    parcel, fy, due = _due_loan(demo_app)
    with clock.fixed(at(TODAY, 7)):
        pid = _office_payment(demo_app, parcel, fy, due)

    def reverse() -> None:
        with app_uow(demo_app) as w:
            assert payments_ledger.reverse_payment(w, w.session.get(Payment, pid),
                                                   "returned", _staff(w).id) is not None
    _after(demo_app, reverse)


def test_a_refund(demo_app: Flask):
    """Money given back is owed again from the next day: today's figures may stay, but they
    are computed again (out of date) and are the core's."""
    parcel, fy, due = _due_loan(demo_app)
    with clock.fixed(at(TODAY, 7)):
        pid = _office_payment(demo_app, parcel, fy, due)

    def refund() -> None:
        with app_uow(demo_app) as w:
            ledger_service.record_refund(w, _staff(w), pid, Decimal("5.00"), "devolución")
    _after(demo_app, refund, moves=False)


def test_an_amendment_of_the_assessments(demo_app: Flask):
    """R-A5: the roll computed and published again (its assessments, installments and
    credits written a batch at a time)."""
    from tests.web.test_demo_amendment_email import DECEMBER, _amend
    _after(demo_app, lambda: _amend(demo_app, Decimal("300000.00")), DECEMBER)


def test_a_value_the_board_adopts(demo_app: Flask):
    """A District's fact: every loan's figures out of date, then the core's."""
    def adopt() -> None:
        with app_uow(demo_app) as w:
            board_parameters.adopt(w, _staff_admin(w), date(2026, 7, 1), "interest_rate",
                                   "0.09", TODAY, "2026-16", TODAY)
    _after(demo_app, adopt, moves=False)


def _staff_admin(w):  # noqa: ANN001, ANN202
    from portal.models import User
    from tests.support.pages import STAFF_ROLE_EMAILS
    return w.session.scalar(select(User).where(User.email == STAFF_ROLE_EMAILS["administrator"]))


def test_a_closed_day(demo_app: Flask):
    """R-A6: the Board closes the 10th and 11th of December: the installments due on the
    1st are timely through Monday the 14th."""
    day = date(2026, 12, 2)

    def declare() -> None:
        with app_uow(demo_app) as w:
            board_parameters.declare_closed(
                w, _staff_admin(w), date(2026, 12, 10), date(2026, 12, 11), "Huracán",
                "Hurricane", "2026-15", date(2026, 11, 29))
    _after(demo_app, declare, day)


def test_a_fiscal_year(demo_app: Flask):
    def year() -> None:
        with app_uow(demo_app) as w:
            budgets.ensure_fiscal_year(w, date(2027, 7, 1))
    _after(demo_app, year, moves=False)


# --- the data layer's doors -----------------------------------------------------------------

def _versions(app: Flask) -> tuple[dict[int, int], int]:
    with app_uow(app) as w:
        loans = dict(w.session.execute(select(Loan.parcel_id, Loan.facts_version)).all())
        district = w.session.scalar(select(FactsVersion.version).where(
            FactsVersion.name == DISTRICT))
    return loans, district


def test_a_flush_raises_the_versions_of_what_it_wrote(demo_app: Flask):
    """An entry added through the ORM raises its parcel's loans' version (no other), in its
    own transaction: rolled back with it."""
    loans, district = _versions(demo_app)
    parcel = next(iter(loans))
    with app_uow(demo_app) as w:
        fy = w.session.scalar(select(LedgerEntry.fiscal_year_id).limit(1))
        w.session.add(LedgerEntry(parcel_id=parcel, fiscal_year_id=fy, kind="cost",
                                  direction="debit", amount=Decimal("1.00"),
                                  legal_date=TODAY, cost_kind="certified_mail"))
    after, district_after = _versions(demo_app)
    assert after == {**loans, parcel: loans[parcel] + 1} and district_after == district

    class Undo(Exception):
        pass
    with pytest.raises(Undo), app_uow(demo_app) as w:
        w.session.add(LedgerEntry(parcel_id=parcel, fiscal_year_id=fy, kind="cost",
                                  direction="debit", amount=Decimal("1.00"),
                                  legal_date=TODAY, cost_kind="certified_mail"))
        w.session.flush()
        raise Undo
    assert _versions(demo_app) == (after, district)


def test_a_batch_of_facts_raises_the_districts_version(demo_app: Flask):
    loans, district = _versions(demo_app)
    parcel = next(iter(loans))
    with app_uow(demo_app) as w:
        fy = w.session.scalar(select(LedgerEntry.fiscal_year_id).limit(1))
        bulk.insert_rows(w, LedgerEntry, [{
            "parcel_id": parcel, "fiscal_year_id": fy, "kind": "cost", "direction": "debit",
            "amount": Decimal("1.00"), "legal_date": TODAY, "cost_kind": "certified_mail"}])
    assert _versions(demo_app) == (loans, district + 1)


# --- PostgreSQL --------------------------------------------------------------------------------

@pytest.mark.postgres
def test_the_same_on_postgresql(tmp_path):  # noqa: ANN001
    from tests.support.app import demo_on_postgresql
    with demo_on_postgresql(tmp_path) as (app, _result):
        parcel, fy, _due = _due_loan(app)

        def cost() -> None:
            with app_uow(app) as w:
                ledger_service.record_cost(w, _staff(w), parcel, fy, Decimal("12.34"), TODAY)
        _after(app, cost)
        parcel, fy, due = _due_loan(app)
        _after(app, lambda: _office_payment(app, parcel, fy, due))

        def adopt() -> None:
            with app_uow(app) as w:
                board_parameters.adopt(w, _staff_admin(w), date(2026, 7, 1), "interest_rate",
                                       "0.09", TODAY, "2026-16", TODAY)
        _after(app, adopt, moves=False)
        loans, district = _versions(app)
        with app_uow(app) as w:
            bulk.insert_rows(w, LedgerEntry, [{
                "parcel_id": parcel, "fiscal_year_id": fy, "kind": "cost",
                "direction": "debit", "amount": Decimal("1.00"), "legal_date": TODAY,
                "cost_kind": "certified_mail"}])
        assert _versions(app) == (loans, district + 1)


def _until(check, rounds: int = 1000) -> bool:  # noqa: ANN001
    """True as soon as `check()` is, asked `rounds` times a hundredth of a second apart."""
    import time
    for _ in range(rounds):
        if check():
            return True
        time.sleep(0.01)
    return False


def _waiting_on_a_lock(app) -> bool:  # noqa: ANN001
    """Whether a PostgreSQL backend of this database waits on a lock now."""
    from sqlalchemy import text
    with app_uow(app) as w:
        return bool(w.session.scalar(text(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock'")))


def _entry(w, parcel: int, fy: int) -> None:  # noqa: ANN001
    w.session.add(LedgerEntry(parcel_id=parcel, fiscal_year_id=fy, kind="cost",
                              direction="debit", amount=Decimal("7.00"), legal_date=TODAY,
                              cost_kind="certified_mail"))
    w.session.flush()


@pytest.mark.postgres
def test_concurrent_writers_and_a_refresh_on_postgresql(tmp_path, monkeypatch):  # noqa: ANN001
    """READ COMMITTED: (1) an entry whose transaction is open while the figures are kept,
    committed after: they are out of date, then the core's; (2) one committed between the
    refresh's read of the versions and its read of the facts: the facts include it, the
    versions kept do not, so the figures are computed again, never left hiding a fact;
    (3) two writers on one parcel at once: the second waits for the first's row and adds
    to what it committed (both raises count)."""
    import threading

    from portal.accounts import statements
    from tests.support.app import demo_on_postgresql
    with demo_on_postgresql(tmp_path) as (app, _result):
        parcel, fy, _due = _due_loan(app)
        with clock.fixed(at(TODAY, 8)):
            _kept(app)
        with clock.fixed(at(TODAY, 9)), app_uow(app) as writer:
            _entry(writer, parcel, fy)
            assert _stale(app, TODAY) == 0  # not committed: not seen, nothing computed
            with clock.fixed(at(TODAY, 9)):
                _kept(app)
        assert _stale(app, TODAY) > 0
        with clock.fixed(at(TODAY, 10)):
            assert _kept(app) == _core(app)

        summaries = statements._summaries
        writer_done: list[bool] = []

        def between(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            if not writer_done:  # the refresh read the versions; a fact commits now
                with app_uow(app) as w:
                    _entry(w, parcel, fy)
                writer_done.append(True)
            return summaries(*args, **kwargs)
        monkeypatch.setattr(statements, "_summaries", between)
        tomorrow = TODAY + timedelta(days=1)
        with clock.fixed(at(tomorrow, 8)):  # a new day's figures: the refresh computes all
            with app_uow(app) as w:
                portfolio.refresh(w, users.find_by_email(w, "lender@demo.pr"), tomorrow)
        monkeypatch.setattr(statements, "_summaries", summaries)
        assert writer_done
        assert _stale(app, tomorrow) == 1  # the loan on that parcel: computed again
        with clock.fixed(at(tomorrow, 9)):
            assert _kept(app) == _core(app)

        loans, _district = _versions(app)

        def second() -> None:
            with app_uow(app) as w:
                _entry(w, parcel, fy)  # waits for the first writer's loan rows
        with app_uow(app) as first:
            _entry(first, parcel, fy)
            t = threading.Thread(target=second)
            t.start()
            # No timed wait (under the CI's faketime pass one never ends): the database is
            # asked, a hundredth of a second apart, until the second writer waits on a lock.
            assert _until(lambda: _waiting_on_a_lock(app)), "the second writer never waited"
            assert t.is_alive(), "the second writer did not wait for the first"
        t.join()
        assert _versions(app)[0][parcel] == loans[parcel] + 2
        with clock.fixed(at(TODAY, 12)):
            assert _stale(app, TODAY) > 0
            assert _kept(app) == _core(app)
