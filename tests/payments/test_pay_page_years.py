"""The pay page reads every fiscal year's accounts at once (issue 30, item 1): the statements
it runs do not grow with the years an owner owes, and each year owed is offered."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from portal import clock
from portal.core.installments import schedule
from portal.db import UnitOfWork
from portal.models import (
    Assessment,
    AssessmentRoll,
    Budget,
    BudgetVersion,
    FiscalYear,
    Installment,
)
from tests.support.pages import PASSWORD
from tests.support.payments import sign_in_to_pay
from tests.support.sql import QueryCounter
from tests.support.world import World, set_passwords


@pytest.fixture
def world(world):
    """The payments' world; its people sign in with PASSWORD."""
    set_passwords(world, PASSWORD)
    return world


def _owe_a_past_year(world: World, start: date, annual: str = "900.00") -> str:
    """A past fiscal year assessed on each of the world's parcels, nothing paid: its label."""
    label = f"{start.year}-{start.year + 1}"
    with UnitOfWork(world.database) as w:
        s = w.session
        fy = FiscalYear(label=label, starts_on=start, ends_on=date(start.year + 1, 6, 30))
        s.add(fy)
        s.flush()
        budget = Budget(fiscal_year_id=fy.id)
        s.add(budget)
        s.flush()
        total = Decimal(annual) * len(world.parcel_ids)
        version = BudgetVersion(budget_id=budget.id, version=1, status="adopted",
                                adopted_on=date(start.year, 5, 15), total_to_assess=total)
        s.add(version)
        s.flush()
        roll = AssessmentRoll(budget_version_id=version.id, fiscal_year_id=fy.id,
                              status="published", total=total, published_at=clock.now())
        s.add(roll)
        s.flush()
        for pid in world.parcel_ids:
            a = Assessment(parcel_id=pid, fiscal_year_id=fy.id, budget_version_id=version.id,
                           roll_id=roll.id, annual_amount=Decimal(annual),
                           benefit_units=Decimal("1"))
            s.add(a)
            s.flush()
            for inst in schedule(Decimal(annual), start, 12, None):
                s.add(Installment(assessment_id=a.id, number=inst.number,
                                  due_date=inst.due_date, amount=inst.amount))
    return label


def _pay_page(app, client) -> tuple[int, str]:  # noqa: ANN001
    """The pay page's statements (its second request: what a process reads once is not the
    page's) and its HTML."""
    assert client.get("/pagar").status_code == 200
    with QueryCounter(_database(app)) as q:
        r = client.get("/pagar")
    assert r.status_code == 200
    return q.count, r.text


def _database(app):  # noqa: ANN001, ANN202
    from portal.web.data import database
    with app.app_context():
        return database()


def test_the_pay_page_reads_the_same_statements_whatever_the_years_owed(app, world):
    client = app.test_client()
    sign_in_to_pay(client)
    one_year, page = _pay_page(app, client)
    assert "2024-2025" not in page and "2025-2026" not in page
    years = [_owe_a_past_year(world, date(2024, 7, 1)), _owe_a_past_year(world, date(2025, 7, 1))]
    three_years, page = _pay_page(app, client)
    for label in years:  # each past year owed is offered, on each parcel
        for pid in world.parcel_ids:
            assert f'name="choice-{pid}-' in page
        assert page.count(label) == len(world.parcel_ids), label
    assert three_years == one_year
