"""A roll larger than one statement may bind: computing and publishing it (an amendment too)
reads every parcel in batches, never one parameter per parcel in a single IN list.

On SQLite the connections' variable limit is lowered (`setlimit`) below the roll's size, so a
statement with one parameter per parcel fails as it would at 260,000 parcels ("too many SQL
variables"); on both databases every statement's parameters are counted (PostgreSQL refuses
more than 65,535, what 100,000 parcels needed).
"""

from __future__ import annotations

import sqlite3
from datetime import date
from decimal import Decimal

from sqlalchemy import event, func, select

from portal import clock
from portal.accounts import bulk, facts, statements
from portal.models import Assessment, AssessmentRoll, Installment, Parcel, User
from portal.roll import budgets, roll
from portal.roll.budgets import LineInput
from tests.support.clock import at
from tests.support.world import build

LIMIT = 120  # variables per statement on SQLite here, and parameters counted on both
EXTRA = 3 * LIMIT  # parcels beyond the factory's five


class ParameterCounter:
    """The most parameters any one statement bound (an executemany: per row)."""

    def __init__(self) -> None:
        self.most = 0
        self.statement = ""

    def __call__(self, _conn, _cursor, statement, parameters, _context, executemany) -> None:
        rows = parameters if executemany else [parameters]
        n = max((len(r) for r in rows if r is not None), default=0)
        if n > self.most:
            self.most, self.statement = n, statement[:200]


def _lower_sqlite_limit(dbapi_connection, _record) -> None:
    if isinstance(dbapi_connection, sqlite3.Connection):
        dbapi_connection.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, LIMIT)


def _add_parcels(world, n: int) -> None:
    with world.uow() as uow:
        bulk.insert_rows(uow, Parcel, [
            {"catastro": f"041-{k:03d}-{k % 7:03d}-00", "address": f"Calle {k}, San Juan",
             "municipality": "San Juan", "owner_kind": "private", "transferred": False,
             "tax_incentive_exempt": False, "benefit_units": Decimal(5 + k % 11)}
            for k in range(n)])


def _amend(world, total: str, effective: date) -> int:
    with clock.fixed(at(effective)), world.uow() as uow:
        staff = uow.session.get(User, world.staff.id)
        fy = uow.session.get(statements.FiscalYear, world.fy_id)
        v = budgets.draft(uow, staff, fy, [
            LineInput("project", "Proyecto", "Project", Decimal("90000.00"), Decimal(total))],
            reference="Res. 2", effective_on=effective)
        budgets.adopt(uow, staff, v.id, effective)
        return v.id


def test_a_roll_larger_than_a_statement_computes_and_publishes(database, monkeypatch):
    monkeypatch.setattr(facts, "IN_BATCH", LIMIT // 2)
    monkeypatch.setattr(roll, "CHUNK", LIMIT)
    world = build(database)
    _add_parcels(world, EXTRA)
    event.listen(database.engine, "connect", _lower_sqlite_limit)
    database.engine.dispose()  # every new connection has the limit
    counter = ParameterCounter()
    event.listen(database.engine, "before_cursor_execute", counter)
    effective = date(2026, 12, 15)
    version_id = _amend(world, "50000.00", effective)
    with clock.fixed(at(effective)), world.uow() as uow:
        staff = uow.session.get(User, world.staff.id)
        r = roll.compute(uow, staff, version_id)
        assert (r.assessed_count, r.exempt_count) == (4 + EXTRA, 1)
        roll.publish(uow, staff, r.id)
        roll_id = r.id
    with clock.fixed(at(effective)), world.uow() as uow:
        staff = uow.session.get(User, world.staff.id)
        current = facts.current_assessments(
            uow, uow.session.scalars(select(Parcel.id)).all(), world.fy_id)
        assert len(current) == 4 + EXTRA
        assert {a.budget_version_id for a in current.values()} == {version_id}
        assert sum(a.annual_amount for a in current.values()) == Decimal("50000.00")
        # The amended parcels' old assessments are superseded, not rewritten (R-A5).
        assert sum(1 for a in current.values() if a.supersedes_id is not None) == 4
        written = uow.session.scalar(select(func.count()).select_from(Installment))
        # Publishing again writes nothing.
        roll.publish(uow, staff, roll_id)
        assert uow.session.scalar(select(func.count()).select_from(Installment)) == written
        assert uow.session.get(AssessmentRoll, roll_id).status == "published"
        assert uow.session.scalar(select(func.count()).select_from(Assessment)) == 4 + 4 + EXTRA
        # The accounts of the whole roll load too (the payments' and the pages' reads).
        loaded = facts.load_many(uow, list(current), statements.FiscalYear(
            id=world.fy_id, starts_on=date(2026, 7, 1), ends_on=date(2027, 6, 30),
            label="2026-2027"))
        assert sum(len(f.installment_rows) for f in loaded.values()) == 12 * len(current)
    event.remove(database.engine, "before_cursor_execute", counter)
    assert counter.most <= LIMIT, counter.statement
