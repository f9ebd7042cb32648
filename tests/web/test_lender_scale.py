"""The portfolio's filters, totals, sort and pages in SQL on SQLite and PostgreSQL with
many loans (J7): the same answers on both, equal to what the rows themselves say, and the
API's token pages the same set."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

import pytest

from tests.web.conftest import add_loans, demo_on_postgresql

EXTRA = 1200  # the demo bank's 50 loans + 1,200


def _check(app) -> dict:  # noqa: ANN001
    from portal.db import UnitOfWork
    from portal.services import lenders
    from portal.services.users import find_by_email
    from portal.web.data import database
    add_loans(app, EXTRA)
    with app.app_context(), UnitOfWork(database()) as w:
        user = find_by_email(w, "lender@demo.pr")
        computed = lenders.refresh(w, user)
        assert computed == 50 + EXTRA
        assert lenders.refresh(w, user) == 0  # the figures of the day are kept
        every = list(lenders.rows(w, user, lenders.Query()))
        out = {"count": len(every)}
        for status in lenders.STATUSES:
            page = lenders.portfolio(w, user, lenders.Query(status=status))
            mine = [r for r in every if r.status == status]
            assert page.count == len(mine)
            assert page.due_total == sum((r.due_now for r in mine), Decimal("0.00"))
            out[status] = (page.count, page.due_total)
        # every page of a sort by due now, descending: each loan once, in order
        seen: list = []
        first = lenders.portfolio(w, user, lenders.Query(sort="due", desc=True))
        for n in range(1, first.pages + 1):
            seen += lenders.portfolio(w, user, lenders.Query(sort="due", desc=True,
                                                              page=n)).rows
        assert len(seen) == len(every) == first.count
        assert len({r.loan_id for r in seen}) == len(seen)
        dues = [r.due_now for r in seen]
        assert dues == sorted(dues, reverse=True)
        town = every[0].municipality
        by_town = lenders.portfolio(w, user, lenders.Query(municipality=town))
        assert by_town.count == sum(1 for r in every if r.municipality == town)
        assert lenders.portfolio(w, user, lenders.Query(q="ZZ-01")).count == 100
        band = lenders.portfolio(w, user, lenders.Query(due_min=Decimal("1.00"),
                                                        due_max=Decimal("500.00")))
        assert band.count == sum(1 for r in every if 1 <= r.due_now <= 500)
        ids, total = lenders.parcels_to_pay(w, user, lenders.Query(status="overdue"))
        assert total == out["overdue"][0] and len(ids) <= lenders.MAX_PAY
        out["annual"] = lenders.portfolio(w, user, lenders.Query()).annual_total
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
