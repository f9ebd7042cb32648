"""A small world for the payments tests: a fiscal year, an owner, parcels with assessments.

The schema comes from the migrations (built once into a template SQLite file and copied), or
from a throwaway PostgreSQL database for the concurrency tests.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path

from portal.core.installments import schedule
from portal.db import Database, UnitOfWork
from portal.models import (
    Assessment,
    AssessmentRoll,
    Budget,
    BudgetVersion,
    FiscalYear,
    Installment,
    LedgerEntry,
    Parcel,
    ParcelLink,
    User,
)

FY_START = date(2026, 7, 1)
#: The staff user's TOTP secret: staff sign in with a second step (tests.web.conftest.second_step).
STAFF_TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"


@dataclass
class World:
    database: Database
    owner_id: int
    other_id: int
    staff_id: int
    fiscal_year_id: int
    parcel_ids: list[int] = field(default_factory=list)

    def uow(self) -> UnitOfWork:
        return self.database.unit_of_work()

    def user(self, uow: UnitOfWork, which: str = "owner") -> User:
        uid = {"owner": self.owner_id, "other": self.other_id, "staff": self.staff_id}[which]
        user = uow.session.get(User, uid)
        assert user is not None
        return user

    def key(self, n: int = 0) -> str:
        return f"{self.parcel_ids[n]}-{self.fiscal_year_id}"


def sqlite_database(template: Path, tmp: Path) -> Database:
    target = tmp / "portal.db"
    shutil.copyfile(template, target)
    return Database(f"sqlite:///{target}")


def seed(database: Database, annuals: tuple[str, ...] = ("1200.00",),
         fy_start: date = FY_START, notice: date | None = None) -> World:
    with database.unit_of_work() as uow:
        s = uow.session
        owner = User(email="duena@example.com", password_hash="x", name="María Rivera",
                     language="es")
        other = User(email="otro@example.com", password_hash="x", name="Otro Dueño",
                     language="en")
        from portal import clock
        staff = User(email="staff@example.com", password_hash="x", name="Staff", is_staff=True,
                     totp_secret=STAFF_TOTP_SECRET, totp_enabled_at=clock.now())
        s.add_all([owner, other, staff])
        fy = FiscalYear(label=f"{fy_start.year}-{fy_start.year + 1}", starts_on=fy_start,
                        ends_on=date(fy_start.year + 1, 6, 30))
        s.add(fy)
        s.flush()
        budget = Budget(fiscal_year_id=fy.id)
        s.add(budget)
        s.flush()
        total = sum((Decimal(a) for a in annuals), Decimal("0.00"))
        version = BudgetVersion(budget_id=budget.id, version=1, status="adopted",
                                adopted_on=date(fy_start.year, 5, 15), total_to_assess=total)
        s.add(version)
        s.flush()
        roll = AssessmentRoll(budget_version_id=version.id, fiscal_year_id=fy.id,
                              status="published", total=total, published_at=None)
        from portal import clock
        roll.published_at = clock.now()
        s.add(roll)
        s.flush()
        parcel_ids = []
        for n, annual in enumerate(annuals, start=1):
            parcel = Parcel(catastro=f"060-000-001-{n:02d}", address=f"Calle Sol {n}",
                            municipality="San Juan", benefit_units=Decimal("1"))
            s.add(parcel)
            s.flush()
            a = Assessment(parcel_id=parcel.id, fiscal_year_id=fy.id,
                           budget_version_id=version.id, roll_id=roll.id,
                           annual_amount=Decimal(annual), benefit_units=Decimal("1"),
                           notified_on=notice)
            s.add(a)
            s.flush()
            for inst in schedule(Decimal(annual), fy_start, 12, notice):
                s.add(Installment(assessment_id=a.id, number=inst.number,
                                  due_date=inst.due_date, amount=inst.amount))
            s.add(ParcelLink(user_id=owner.id, parcel_id=parcel.id, role="owner",
                             source="code"))
            parcel_ids.append(parcel.id)
        s.flush()
        return World(database, owner.id, other.id, staff.id, fy.id, parcel_ids)


def add_cost(world: World, n: int, amount: str, on: date, kind: str = "certified_mail") -> int:
    with world.uow() as uow:
        e = LedgerEntry(parcel_id=world.parcel_ids[n], fiscal_year_id=world.fiscal_year_id,
                        kind="cost", direction="debit", amount=Decimal(amount), legal_date=on,
                        rule="R-A9", cost_kind=kind, description="certified mail")
        uow.session.add(e)
        uow.session.flush()
        return e.id
