"""A lender's kept totals (`lender_figures`, `portfolio._kept`) equal what one pass over every
loan gives (the list's aggregate before them, `portfolio._checked_totals`, and the filter's
municipalities, `portfolio._municipalities`), after each change that moves them: a payment,
a cost, a loan added in SQL and through the ORM, a loan removed by the bank's portfolio file
(an ORM UPDATE) and by an ORM object's change, the next day, a value the Board adopts, and
the figures computed for another day by the dashboard. A view while they hold computes
nothing again and reads no aggregate. The same on PostgreSQL (a visible skip without a
server)."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from flask import Flask
from sqlalchemy import select, text

from portal import clock
from portal.lenders import portfolio
from tests.support.clock import TODAY, at
from tests.support.demo import app_uow
from tests.web.test_lender_portfolio_changes import free_parcel, lender_user

CENT = Decimal("0.01")


def _one_pass(app: Flask, day: date) -> tuple:
    """(loans, due now, assessments, municipalities) as one pass over every loan reads them,
    the figures of `day` computed first."""
    with clock.fixed(at(day, 10)), app_uow(app) as w:
        user = lender_user(w)
        portfolio.refresh(w, user, day)
        base, params = portfolio._base(user)
        _stale, n, due, annual = w.session.execute(
            portfolio._checked_totals(base, [], False), {**params, "as_of": day}).one()
        places = list(w.session.scalars(portfolio._municipalities(base), params))
        return n, Decimal(due).quantize(CENT), Decimal(annual).quantize(CENT), places


def _shown(app: Flask, day: date) -> tuple:
    """The same as the list shows them on `day` (its municipalities, then its first page)."""
    with clock.fixed(at(day, 10)), app_uow(app) as w:
        user = lender_user(w)
        places = portfolio.municipalities(w, user)
        page = portfolio.portfolio(w, user, portfolio.Query(), day)
        return page.count, page.due_total, page.annual_total, places


class _Keeps:
    """How many times the kept totals were recomputed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.n = 0
        keep = portfolio._keep

        def counted(*args: object, **kwargs: object) -> object:
            self.n += 1
            return keep(*args, **kwargs)
        monkeypatch.setattr(portfolio, "_keep", counted)


def _check(app: Flask, keeps: _Keeps, day: date) -> tuple:
    """The list's totals on `day` equal one pass's, recomputed once; a second view while
    they hold recomputes nothing."""
    before = keeps.n
    shown = _shown(app, day)
    assert keeps.n == before + 1, "the kept totals held after a change"
    assert shown == _one_pass(app, day)
    assert _shown(app, day) == shown and keeps.n == before + 1
    return shown


def _due_parcel(app: Flask) -> tuple[int, int]:
    """(parcel, fiscal year) of a loan of the bank with something due now."""
    from portal.models import LedgerEntry, Loan, LoanFigures
    with app_uow(app) as w:
        parcel = w.session.scalar(
            select(Loan.parcel_id).join(LoanFigures, LoanFigures.loan_id == Loan.id)
            .where(LoanFigures.due_now > 0).order_by(Loan.id).limit(1))
        fy = w.session.scalar(select(LedgerEntry.fiscal_year_id)
                              .where(LedgerEntry.parcel_id == parcel).limit(1))
        return parcel, fy


def _staff(w):  # noqa: ANN001, ANN202
    from portal.people import users
    return users.find_by_email(w, "staff@demo.pr")


def _scenario(app: Flask, keeps: _Keeps) -> None:
    from portal.accounts import ledger as ledger_service
    from portal.lenders import loan_changes as lc
    from portal.models import Loan
    from portal.payments import service
    from portal.roll import board_parameters
    from tests.web.test_loan_figures_writers import _staff_admin

    first = _check(app, keeps, TODAY)
    assert first[0] > 0 and first[1] > 0

    parcel, fy = _due_parcel(app)
    with clock.fixed(at(TODAY, 11)), app_uow(app) as w:  # a cost
        ledger_service.record_cost(w, _staff(w), parcel, fy, Decimal("12.34"), TODAY)
    cost = _check(app, keeps, TODAY)
    assert cost[1] > first[1]

    with clock.fixed(at(TODAY, 11)), app_uow(app) as w:  # a payment at the office
        service.post_office_payment(w, _staff(w), parcel, fy, Decimal("10.00"), "check",
                                    payer_name="Banco", reference="77")
    assert _check(app, keeps, TODAY)[1] < cost[1]

    with clock.fixed(at(TODAY, 11)), app_uow(app) as w:  # two loans added, in SQL and ORM
        (cat, name, pid), (cat2, _n2, pid2), _c = free_parcel(w)
        lender_id = w.session.scalar(select(Loan.lender_id).limit(1))
        w.session.execute(text(
            "INSERT INTO loans (lender_id, parcel_id, loan_number, starts_on, created_at) "
            "VALUES (:lender, :parcel, 'KT-SQL', :starts, :created)"),
            {"lender": lender_id, "parcel": pid, "starts": date(2024, 1, 1),
             "created": clock.now()})
        w.session.add(Loan(lender_id=lender_id, parcel_id=pid2, loan_number="KT-ORM",
                           starts_on=date(2024, 1, 1)))
    added = _check(app, keeps, TODAY)
    assert added[0] == first[0] + 2

    with clock.fixed(at(TODAY, 11)), app_uow(app) as w:  # removed by the bank's file
        rows = [{"action": "baja", "loan_number": "KT-ORM", "catastro": cat2}]
        lc.submit(w, lender_user(w), rows, source="api", idempotency_key="kt",
                  body_hash=lc.body_hash_of(rows))
    assert _check(app, keeps, TODAY)[0] == first[0] + 1

    with clock.fixed(at(TODAY, 11)), app_uow(app) as w:  # an ORM object's change
        loan = w.session.scalar(select(Loan).where(Loan.loan_number == "KT-SQL"))
        loan.ends_on = TODAY - timedelta(days=1)
        loan.starts_on = min(loan.starts_on, loan.ends_on)
    assert _check(app, keeps, TODAY)[0] == first[0]
    assert cat and name

    with clock.fixed(at(TODAY, 11)), app_uow(app) as w:  # a parcel moved by the roll's import
        from portal.models import fact_versions
        w.session.execute(text("UPDATE parcels SET municipality = 'Culebra' WHERE id = :p"),
                          {"p": parcel})
        fact_versions.parcels_moved(w.session.connection(), [parcel])
    moved = _check(app, keeps, TODAY)
    assert "Culebra" in moved[3] and "Culebra" not in first[3]

    tomorrow = TODAY + timedelta(days=1)  # the next day
    _check(app, keeps, tomorrow)

    with clock.fixed(at(tomorrow, 11)), app_uow(app) as w:  # a District's fact
        board_parameters.adopt(w, _staff_admin(w), date(2026, 7, 1), "interest_rate",
                               "0.09", tomorrow, "2026-17", tomorrow)
    _check(app, keeps, tomorrow)

    later = TODAY + timedelta(days=40)  # the dashboard computes the figures of another day
    with clock.fixed(at(later, 10)), app_uow(app) as w:
        portfolio.dashboard_loans(w, lender_user(w), later)
    _check(app, keeps, tomorrow)


def test_the_kept_totals_equal_one_pass(demo_app: Flask, monkeypatch: pytest.MonkeyPatch):
    _scenario(demo_app, _Keeps(monkeypatch))


def test_a_view_while_they_hold_reads_no_aggregate(demo_app: Flask):
    """The first page reads the kept totals and its rows: no statement over every loan
    (`_checked_totals`'s FILTER, `_LENDER_TOTALS`)."""
    from tests.support.pages import login
    from tests.web.test_page_statements import _statements
    client = login(demo_app, "lender")
    with clock.fixed(at(TODAY, 10)):
        n, sql = _statements(demo_app, client, "/prestamista/prestamos")
    assert n == 3, sql
    assert not any("count(*)" in s.lower() and "sum(" in s.lower() for s in sql), sql


@pytest.mark.postgres
def test_the_same_on_postgresql(tmp_path, monkeypatch: pytest.MonkeyPatch):  # noqa: ANN001
    from tests.support.app import demo_on_postgresql
    with demo_on_postgresql(tmp_path) as (app, _result):
        _scenario(app, _Keeps(monkeypatch))


@pytest.mark.postgres
def test_concurrent_recomputes_and_a_writer_on_postgresql(tmp_path, monkeypatch):  # noqa: ANN001
    """READ COMMITTED: (1) a fact committed while the kept totals are recomputed (after the
    refresh read its loan's version, before the totals are summed) leaves them not holding,
    and the next view's equal one pass; (2) two views recomputing one lender's totals at
    once: the second waits for the first's row, then both end and the totals equal one
    pass."""
    import threading

    from portal.accounts import ledger as ledger_service
    from portal.accounts import statements
    from tests.support.app import demo_on_postgresql
    from tests.web.test_loan_figures_writers import _until, _waiting_on_a_lock
    with demo_on_postgresql(tmp_path) as (app, _result):
        keeps = _Keeps(monkeypatch)
        _check(app, keeps, TODAY)
        parcel, fy = _due_parcel(app)
        summaries = statements._summaries
        written: list[bool] = []

        def between(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            if not written:  # the refresh read the versions; a fact commits now
                with app_uow(app) as w:
                    ledger_service.record_cost(w, _staff(w), parcel, fy, Decimal("5.00"),
                                               TODAY)
                written.append(True)
            return summaries(*args, **kwargs)
        tomorrow = TODAY + timedelta(days=1)
        monkeypatch.setattr(statements, "_summaries", between)
        with clock.fixed(at(tomorrow, 8)):
            _shown(app, tomorrow)
        monkeypatch.setattr(statements, "_summaries", summaries)
        assert written
        _check(app, keeps, tomorrow)  # not holding: recomputed, equal to one pass

        later = tomorrow + timedelta(days=1)
        done: list[tuple] = []

        def second() -> None:
            done.append(_shown(app, later))  # waits for the first's row
        with clock.fixed(at(later, 9)), app_uow(app) as first:
            lender_id = first.session.scalar(text("SELECT lender_id FROM loans LIMIT 1"))
            portfolio._keep(first, lender_id, later)
            t = threading.Thread(target=second)
            t.start()
            # No timed wait (under the CI's faketime pass one never ends): the database is
            # asked, a hundredth of a second apart, until the second view waits on a lock.
            assert _until(lambda: _waiting_on_a_lock(app)), "the second view never waited"
            assert t.is_alive(), "the second view did not wait for the first"
        t.join()
        assert done and done[0] == _one_pass(app, later) == _shown(app, later)


def test_the_days_work_keeps_the_totals_so_the_first_view_computes_nothing(
        demo_app: Flask, monkeypatch: pytest.MonkeyPatch):
    """The worker's day's work (`lenders.figures`, as `portal lenders figures`): each
    lender's figures and totals of today kept, idempotent, another day nothing; then the
    list's first view of the day computes nothing."""
    import portal.domains  # noqa: F401 - registers the day's tasks
    from portal.jobs import daily
    from portal.lenders import portfolio
    from portal.web.data import database
    from tests.support.pages import login
    assert daily.TASKS[portfolio.DAY_TASK] is portfolio.keep_day
    with demo_app.app_context(), clock.fixed(at(TODAY, 3)):
        other = portfolio.keep_day(database(), TODAY.replace(day=TODAY.day - 1))
        assert other == {"lenders": 0, "loans": 0, "totals": 0}  # another day: nothing
        done = portfolio.keep_day(database(), TODAY)
        assert done["lenders"] >= 1 and done["totals"] == done["lenders"]
        assert portfolio.keep_day(database(), TODAY)["totals"] == 0  # idempotent
    computed = []
    keep, refresh = portfolio._keep, portfolio.refresh
    monkeypatch.setattr(portfolio, "_keep", lambda *a, **k: computed.append(1) or keep(*a, **k))
    monkeypatch.setattr(portfolio, "refresh",
                        lambda *a, **k: computed.append(2) or refresh(*a, **k))
    client = login(demo_app, "lender")
    with clock.fixed(at(TODAY, 9)):
        assert client.get("/prestamista/prestamos").status_code == 200
    assert computed == []
