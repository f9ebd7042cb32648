"""A small District for the data tests, built through the services (not the demo)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time
from decimal import Decimal

from sqlalchemy import event

from portal import clock
from portal.accounts import ledger, parcels
from portal.core import payment_states as states
from portal.db import Database, UnitOfWork
from portal.models import Lease, Lender, Loan, Parcel, Party, PartyMember, Payment, User
from portal.people import users
from portal.roll import budgets, roll
from portal.roll.budgets import LineInput

FY_START = date(2026, 7, 1)
PASSWORD = "correct horse battery"


@dataclass
class World:
    database: Database
    staff: User
    alice: User  # owner of A (claimed with its code)
    bob: User  # owner of B
    lender_user: User
    fy_id: int
    version_id: int
    roll_id: int
    parcel: dict[str, int] = field(default_factory=dict)  # A, B, C, D (authority leased), E
    codes: dict[str, str] = field(default_factory=dict)

    def uow(self) -> UnitOfWork:
        return UnitOfWork(self.database)


def at(day: date, hh: int = 12, mm: int = 0) -> datetime:
    return clock.pr_instant(day, time(hh, mm))


def build(database: Database) -> World:
    with clock.fixed(at(date(2026, 5, 1))), UnitOfWork(database) as uow:
        s = uow.session
        staff = users.register(uow, "staff@test.pr", PASSWORD, "Staff")
        staff.is_staff = True
        alice = users.register(uow, "alice@test.pr", PASSWORD, "Alice")
        bob = users.register(uow, "bob@test.pr", PASSWORD, "Bob")
        lender_user = users.register(uow, "lender@test.pr", PASSWORD, "Lender")
        specs = {
            "A": ("040-000-000-01", "private", False, False, Decimal("10")),
            "B": ("040-000-000-02", "private", False, False, Decimal("30")),
            "C": ("040-000-000-03", "private", False, True, Decimal("60")),  # incentive
            "D": ("040-000-000-04", "authority", True, False, Decimal("20")),  # leased
            "E": ("040-000-000-05", "authority", False, False, Decimal("40")),  # exempt
        }
        ids = {}
        for key, (cat, owner, transferred, incentive, units) in specs.items():
            p = Parcel(catastro=cat, address=f"Calle {key} 1, San Juan", municipality="San Juan",
                       owner_kind=owner, transferred=transferred,
                       tax_incentive_exempt=incentive, benefit_units=units)
            s.add(p)
            s.flush()
            ids[key] = p.id
        lessee = Party(kind="organisation", name="Lessee LLC")
        bank = Party(kind="organisation", name="Bank")
        s.add_all([lessee, bank])
        s.flush()
        s.add(Lease(parcel_id=ids["D"], lessee_party_id=lessee.id, lessee_pays=True,
                    starts_on=date(2020, 1, 1)))
        lender = Lender(party_id=bank.id, code="BNK")
        s.add(lender)
        s.flush()
        s.add(PartyMember(party_id=bank.id, user_id=lender_user.id, role="employee"))
        s.add(Loan(lender_id=lender.id, parcel_id=ids["C"], loan_number="L-1",
                   starts_on=date(2015, 1, 1)))
        s.add(Loan(lender_id=lender.id, parcel_id=ids["B"], loan_number="L-OLD",
                   starts_on=date(2010, 1, 1), ends_on=date(2020, 1, 1)))
        staff_id = staff.id
    with clock.fixed(at(date(2026, 5, 20))), UnitOfWork(database) as uow:
        staff = uow.session.get(User, staff_id)
        fy = budgets.ensure_fiscal_year(uow, FY_START)
        v = budgets.draft(uow, staff, fy, [
            LineInput("project", "Proyecto", "Project", Decimal("15000.00"),
                      Decimal("10000.00")),
            LineInput("maintenance", "Mantenimiento", "Maintenance", Decimal("2000.00"),
                      Decimal("2000.00")),
        ], reference="Res. 1")
        budgets.adopt(uow, staff, v.id, date(2026, 5, 20))
        fy_id, version_id = fy.id, v.id
    with clock.fixed(at(date(2026, 6, 10))), UnitOfWork(database) as uow:
        staff = uow.session.get(User, staff_id)
        r = roll.compute(uow, staff, version_id)
        roll.publish(uow, staff, r.id, date(2026, 6, 10))
        codes = {k: parcels.issue_code(uow, staff, ids[k]) for k in ("A", "B", "D")}
        roll_id = r.id
    with clock.fixed(at(date(2026, 6, 12))), UnitOfWork(database) as uow:
        s = uow.session
        parcels.claim(uow, s.get(User, alice.id), specs["A"][0], codes["A"])
        parcels.claim(uow, s.get(User, bob.id), specs["B"][0], codes["B"])
    return World(database, staff, alice, bob, lender_user, fy_id, version_id, roll_id, ids,
                 codes)


def pay(world: World, parcel_key: str, amount: str, day: date, hh: int = 12,
        lump_sum: bool = False, user: User | None = None) -> int:
    """A card payment completed on `day` at hh:00 in Puerto Rico, posted."""
    when = at(day, hh)
    with clock.fixed(max(when, clock.now())), world.uow() as uow:
        p = Payment(parcel_id=world.parcel[parcel_key], fiscal_year_id=world.fy_id,
                    user_id=user.id if user else None, status=states.SUCCEEDED,
                    amount=Decimal(amount), lump_sum=lump_sum,
                    idempotency_key=f"t-{parcel_key}-{day}-{hh}-{amount}",
                    completed_at=when)
        uow.session.add(p)
        uow.session.flush()
        ledger.post_payment(uow, p.id)
        return p.id


class QueryCounter:
    """The statements run while it is open: `count` of them, and `account_reads`, those
    that are not the Board's recorded parameters (`board_parameters`: one small read per
    unit of work, whatever the number of parcels)."""

    def __init__(self, database: Database):
        self.engine = database.engine
        self.count = 0
        self.statements: list[str] = []

    def _hit(self, _conn, _cursor, statement: str, *_args) -> None:  # noqa: ANN001
        self.count += 1
        self.statements.append(statement)

    @property
    def account_reads(self) -> int:
        return sum("board_parameter_values" not in s for s in self.statements)

    def __enter__(self) -> QueryCounter:
        event.listen(self.engine, "before_cursor_execute", self._hit)
        return self

    def __exit__(self, *exc) -> None:
        event.remove(self.engine, "before_cursor_execute", self._hit)


def fail_debit(world: World, payment_id: int, day: date, hh: int = 12) -> int:
    """The payment's bank debit fails, known on `day` at hh:00 in Puerto Rico: its ledger
    entry is reversed (as the payments fulfilment does). Returns the reversal's id."""
    with clock.fixed(at(day, hh)), world.uow() as uow:
        entry = ledger.posted_entry(uow, payment_id)
        return ledger.reverse_entry(uow, None, entry.id, "bank debit failed").id
