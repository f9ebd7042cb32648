"""The small worlds the tests build in a database, and the one `World` that describes them.

- `build(database)`: a District built through the services (not the demo): staff, Alice
  (owner of A, claimed with its code), Bob (owner of B), a bank's employee; five parcels A-E
  (C has a loan of the bank, D is the authority's, leased, E is exempt); the budget of FY
  2026-2027 adopted on 20 May 2026, its roll published on 10 June 2026.
- `seed(database, annuals)`: a fiscal year, an owner, another person, staff (with a second
  step), one parcel per annual amount with its assessment and twelve installments, written
  straight as rows (fast: for the payments tests).

Then `pay`, `fail_debit` and `add_cost` write what happens to an account,
`set_passwords` lets the world's people sign in, and `adopt_rates` records a later fiscal
year's rates (the files adopt them up to FY 2026-2027; a roll is published only with them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from sqlalchemy import select

from portal import clock
from portal.accounts import ledger, parcels
from portal.core import payment_states as states
from portal.core.installments import schedule
from portal.db import Database, UnitOfWork
from portal.models import (
    Assessment,
    AssessmentRoll,
    Budget,
    BudgetVersion,
    FiscalYear,
    Installment,
    Lease,
    LedgerEntry,
    Lender,
    Loan,
    Parcel,
    ParcelLink,
    Party,
    PartyMember,
    Payment,
    User,
)
from portal.people import users
from portal.roll import budgets, roll
from portal.roll.budgets import LineInput

from .clock import at

#: The fiscal year both worlds are built for (2026-2027).
FY_START = date(2026, 7, 1)
#: The password of `build`'s people.
PASSWORD = "correct horse battery"
#: The staff user's TOTP secret in `seed`'s world: staff sign in with a second step
#: (tests.support.pages.second_step).
STAFF_TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"


@dataclass
class World:
    """What a builder made: its database, fiscal year, people and parcels.

    `people` by name: "staff", "alice", "bob", "lender_user" (`build`); "staff", "owner",
    "other" (`seed`). The User objects are detached: their ids and columns can be read, a
    service takes them again in its unit of work (`world.user(uow, name)`). `parcel` by key:
    "A" to "E" (`build`), "0", "1", ... in the order of the annual amounts (`seed`).
    """

    database: Database
    fy_id: int
    people: dict[str, User]
    parcel: dict[str, int]
    version_id: int | None = None
    roll_id: int | None = None
    codes: dict[str, str] = field(default_factory=dict)  # the claim codes issued, by parcel

    def uow(self) -> UnitOfWork:
        return UnitOfWork(self.database)

    def user(self, uow: UnitOfWork, which: str = "owner") -> User:
        """A person of the world, in this unit of work."""
        user = uow.session.get(User, self.people[which].id)
        assert user is not None
        return user

    @property
    def parcel_ids(self) -> list[int]:
        return list(self.parcel.values())

    def key(self, n: int = 0) -> str:
        """The payment form's key of the n-th parcel's account ("parcel id-fiscal year id")."""
        return f"{self.parcel_ids[n]}-{self.fy_id}"

    @property
    def staff(self) -> User:
        return self.people["staff"]

    @property
    def alice(self) -> User:
        return self.people["alice"]

    @property
    def bob(self) -> User:
        return self.people["bob"]

    @property
    def lender_user(self) -> User:
        return self.people["lender_user"]

    @property
    def owner(self) -> User:
        return self.people["owner"]

    @property
    def other(self) -> User:
        return self.people["other"]


def build(database: Database) -> World:
    """The District of the data tests, built through the services (module docstring)."""
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
    people = {"staff": staff, "alice": alice, "bob": bob, "lender_user": lender_user}
    return World(database, fy_id, people, ids, version_id=version_id, roll_id=roll_id,
                 codes=codes)


def seed(database: Database, annuals: tuple[str, ...] = ("1200.00",),
         fy_start: date = FY_START, notice: date | None = None) -> World:
    """The payments tests' world (module docstring): one parcel of the owner's per amount."""
    with UnitOfWork(database) as uow:
        s = uow.session
        owner = User(email="duena@example.com", password_hash="x", name="María Rivera",
                     language="es")
        other = User(email="otro@example.com", password_hash="x", name="Otro Dueño",
                     language="en")
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
        assessment_roll = AssessmentRoll(budget_version_id=version.id, fiscal_year_id=fy.id,
                                         status="published", total=total,
                                         published_at=clock.now())
        s.add(assessment_roll)
        s.flush()
        ids = {}
        for n, annual in enumerate(annuals, start=1):
            parcel = Parcel(catastro=f"060-000-001-{n:02d}", address=f"Calle Sol {n}",
                            municipality="San Juan", benefit_units=Decimal("1"))
            s.add(parcel)
            s.flush()
            a = Assessment(parcel_id=parcel.id, fiscal_year_id=fy.id,
                           budget_version_id=version.id, roll_id=assessment_roll.id,
                           annual_amount=Decimal(annual), benefit_units=Decimal("1"),
                           notified_on=notice)
            s.add(a)
            s.flush()
            for inst in schedule(Decimal(annual), fy_start, 12, notice):
                s.add(Installment(assessment_id=a.id, number=inst.number,
                                  due_date=inst.due_date, amount=inst.amount))
            s.add(ParcelLink(user_id=owner.id, parcel_id=parcel.id, role="owner",
                             source="code"))
            ids[str(n - 1)] = parcel.id
        s.flush()
        people = {"owner": owner, "other": other, "staff": staff}
        return World(database, fy.id, people, ids, version_id=version.id,
                     roll_id=assessment_roll.id)


def set_passwords(world: World, password: str) -> None:
    """Every person of the world signs in with `password`, their email confirmed."""
    from portal.people.users import hash_password
    hashed = hash_password(password)
    with world.uow() as uow:
        for u in uow.session.scalars(select(User)):
            u.password_hash = hashed
            u.email_confirmed_at = clock.now()


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


def fail_debit(world: World, payment_id: int, day: date, hh: int = 12) -> int:
    """The payment's bank debit fails, known on `day` at hh:00 in Puerto Rico: its ledger
    entry is reversed (as the payments fulfilment does). Returns the reversal's id."""
    with clock.fixed(at(day, hh)), world.uow() as uow:
        entry = ledger.posted_entry(uow, payment_id)
        return ledger.reverse_entry(uow, None, entry.id, "bank debit failed").id


def add_cost(world: World, n: int, amount: str, on: date, kind: str = "certified_mail") -> int:
    """A cost (R-A9) charged to the n-th parcel's account on `on`."""
    with world.uow() as uow:
        e = LedgerEntry(parcel_id=world.parcel_ids[n], fiscal_year_id=world.fy_id,
                        kind="cost", direction="debit", amount=Decimal(amount), legal_date=on,
                        rule="R-A9", cost_kind=kind, description="certified mail")
        uow.session.add(e)
        uow.session.flush()
        return e.id


#: The rates the Board (and the Authority) adopt for a year (`adopt_rates`).
RATES = {"late_fee_rate": "0.05", "interest_rate": "0.10", "lump_sum_discount_rate": "0.02"}


def adopt_rates(uow: UnitOfWork, staff: User, fy_start: date) -> None:
    """A fiscal year's rates (`RATES`), recorded effective on its first day (1 July), by a
    resolution of 19 May before it (the clock must be on or after that day)."""
    from portal.roll import board_parameters

    for name, value in RATES.items():
        board_parameters.adopt(uow, staff, fy_start, name, value, fy_start,
                               f"{fy_start.year}-4", date(fy_start.year, 5, 19))
