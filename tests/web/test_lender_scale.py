"""The portfolio's filters, totals, sort and pages in SQL on SQLite and PostgreSQL with
many loans (J7): the same answers on both, equal to what the rows themselves say, and the
API's token pages the same set."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

import pytest

from tests.support.app import demo_on_postgresql
from tests.support.demo import add_loans

EXTRA = 1200  # the demo bank's 50 loans + 1,200


def _check(app) -> dict:  # noqa: ANN001
    from portal.db import UnitOfWork
    from portal.lenders import portfolio
    from portal.people.users import find_by_email
    from portal.web.data import database
    add_loans(app, EXTRA)
    with app.app_context(), UnitOfWork(database()) as w:
        user = find_by_email(w, "lender@demo.pr")
        computed = portfolio.refresh(w, user)
        assert computed == 50 + EXTRA
        assert portfolio.refresh(w, user) == 0  # the figures of the day are kept
        every = list(portfolio.rows(w, user, portfolio.Query()))
        out = {"count": len(every)}
        for status in portfolio.STATUSES:
            page = portfolio.portfolio(w, user, portfolio.Query(status=status))
            mine = [r for r in every if r.status == status]
            assert page.count == len(mine)
            assert page.due_total == sum((r.due_now for r in mine), Decimal("0.00"))
            out[status] = (page.count, page.due_total)
        # every page of a sort by due now, descending: each loan once, in order
        seen: list = []
        first = portfolio.portfolio(w, user, portfolio.Query(sort="due", desc=True))
        for n in range(1, first.pages + 1):
            seen += portfolio.portfolio(w, user, portfolio.Query(sort="due", desc=True,
                                                              page=n)).rows
        assert len(seen) == len(every) == first.count
        assert len({r.loan_id for r in seen}) == len(seen)
        dues = [r.due_now for r in seen]
        assert dues == sorted(dues, reverse=True)
        town = every[0].municipality
        by_town = portfolio.portfolio(w, user, portfolio.Query(municipality=town))
        assert by_town.count == sum(1 for r in every if r.municipality == town)
        assert portfolio.portfolio(w, user, portfolio.Query(q="ZZ-01")).count == 100
        band = portfolio.portfolio(w, user, portfolio.Query(due_min=Decimal("1.00"),
                                                        due_max=Decimal("500.00")))
        assert band.count == sum(1 for r in every if 1 <= r.due_now <= 500)
        ids, total = portfolio.parcels_to_pay(w, user, portfolio.Query(status="overdue"))
        assert total == out["overdue"][0] and len(ids) <= portfolio.MAX_PAY
        out["annual"] = portfolio.portfolio(w, user, portfolio.Query()).annual_total
    return out


@pytest.fixture()
def many_sqlite(demo_app) -> Iterator:  # noqa: ANN001
    yield demo_app


def test_many_loans_on_sqlite(many_sqlite):
    got = _check(many_sqlite)
    assert got["count"] == 50 + EXTRA


@pytest.mark.postgres
def test_many_loans_on_postgresql_match_sqlite(tmp_path, demo_app):
    on_sqlite = _check(demo_app)
    with demo_on_postgresql(tmp_path) as (app, _result):
        on_pg = _check(app)
    assert on_pg == on_sqlite
