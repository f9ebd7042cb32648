"""A realistic demo District for the fiscal year of the day it is loaded (`portal demo`).

Its dates are placed from the day it is loaded (`clock.today()`, `Days`): the fiscal year is
the one containing that day, and the journeys are in the state the README describes on any
day. Loaded on REFERENCE_DAY (2026-11-30, the tests' day) its dates are the ones below; on
another day they move with it, the same way for the same day. In the first weeks of a fiscal
year nothing is late enough yet: no demand until late July (the lessee's is mailed 13 days
before today, for an installment past its day G), none past its 15 days until early August
(the court list is empty until then).

What it loads (in one unit of work: all or nothing):
- the fiscal year's budget (R-A1, five lines) adopted May 20 before it, its roll computed and
  published June 10 (notices), `parcels` parcels in the municipality of San Juan: homes,
  shops, hotels (one under an incentives tax exemption, which still pays, R-A2), lots,
  Authority land (exempt unless leased; several leased, their lessees pay, R-A16) and
  municipal land; for a year the parameter files do not cover, the Board's values recorded
  as staff record them (those of FY 2026-2027);
- payments from June to yesterday in realistic patterns (monthly, quarterly, lump sum with
  the R-A11 discount, late, stopped paying), each allocated by the core (R-A10);
- the featured accounts of the journeys (see `SIGN_INS`): an owner with four parcels (one
  delinquent for two months and more, with late fees, interest and a certified-mail demand
  past its 15 days, on the court list, and its cost, R-A9, R-A12, R-A13; one bought from the
  Authority lately, assessed on a late notice of two weeks ago or of the 1st of this month,
  2026-11-16 on REFERENCE_DAY, so its installments start the 1st of the next month (R-A4)
  and its discounted lump sum is still open today: J3, R-A11), the lessee of a leased
  Authority parcel two installments behind with a demand mailed 13 days ago, in its 15-day
  window (J4), a lender with 50 loans, staff;
- access codes for a few unclaimed parcels, returned so the command prints them (J1); one of
  them was also bought from the Authority lately (its lump sum is open too).

History is written with the clock set to each event's date, so stamps and legal dates agree;
nothing is written after yesterday. `users` > 4 adds generic owners (`user00001@demo.pr`
...) linked to generated parcels, for the benchmark.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from datetime import time as dtime
from decimal import Decimal
from typing import Any

from sqlalchemy import String, cast, func, select, update

from portal import clock, passwords
from portal.accounts import audit, bulk, facts, in_force, ledger, parcels
from portal.accounts.errors import Conflict
from portal.collections import demands, mailing
from portal.core import payment_states as states
from portal.core.calendar import add_months
from portal.core.installments import Installment as CoreInstallment
from portal.core.installments import schedule
from portal.core.money import ZERO, cents
from portal.core.statement import Payment as CorePayment
from portal.core.statement import evaluate
from portal.db import Database, UnitOfWork
from portal.exemptions import tax_facts as exemption_facts
from portal.jobs import runner
from portal.models import (
    Assessment,
    AuditRecord,
    DepositOrder,
    Installment,
    Lease,
    LedgerEntry,
    Lender,
    Loan,
    Notice,
    OwnershipShare,
    Parcel,
    ParcelLink,
    Party,
    PartyMember,
    Payment,
    PaymentAllocation,
    ReceiptSequence,
    User,
)
from portal.people import two_factor, users
from portal.reports import snapshots as report_snapshots
from portal.roll import (
    board_parameters,
    budgets,
    review,
    roll,  # registers the job kinds (compute, publish) run here
)
from portal.roll.budgets import LineInput

DEMO_PASSWORD = "Distrito2026!"
#: The demo staff account's two-factor secret (base32), fixed and public so the demo can be
#: used: add it to any TOTP app (or `pyotp.TOTP(secret).now()`). Never a real account's.
STAFF_TOTP_SECRET = "PRDERRAMASDEMOSTAFFJBSWY3DPEHPK3"
#: The day the demo's text and the tests describe (the tests load it with the clock on this
#: day); loaded on another day, every date moves with it (`Days`).
REFERENCE_DAY = date(2026, 11, 30)
FY_START = date(2026, 7, 1)  # the fiscal year of REFERENCE_DAY
CERTIFIED_MAIL = Decimal("10.35")
BASE_PARCELS = 240
MIN_PARCELS = 80
CHUNK = 2000

SIGN_INS = (
    ("owner@demo.pr", "owner", "María Rivera Ortiz"),
    ("lessee@demo.pr", "lessee", "Carlos Méndez Colón"),
    ("lender@demo.pr", "lender", "Ana Torres Vélez"),
    ("staff@demo.pr", "staff", "Luis Ortiz Marrero"),
    ("reviewer@demo.pr", "reviewer", "Nilda Acevedo Ramos"),
    ("cashier@demo.pr", "cashier", "Edwin Pagán Cruz"),
    ("readonly@demo.pr", "read_only", "Gloria Figueroa Díaz"),
)
#: The demo's staff sign-ins and their roles (docs/STAFF.md): "staff" is the administrator;
#: each has the demo password and the same two-factor secret.
STAFF_ROLES = {"staff": "administrator", "reviewer": "reviewer", "cashier": "cashier",
               "read_only": "read_only"}

BUDGET_LINES = (
    ("project", "Mejoras al paseo peatonal y a la iluminación del Distrito",
     "Improvements to the District's pedestrian promenade and lighting",
     Decimal("1200000.00"), Decimal("900000.00")),
    ("maintenance", "Mantenimiento, reparación y reemplazo de aceras, jardines y alumbrado",
     "Maintenance, repair and replacement of sidewalks, gardens and lighting",
     Decimal("650000.00"), Decimal("650000.00")),
    ("operation", "Operación: seguridad, limpieza y transporte interno",
     "Operation: security, cleaning and internal shuttle",
     Decimal("480000.00"), Decimal("480000.00")),
    ("marketing", "Mercadeo y promoción del Distrito",
     "Marketing and promotion of the District",
     Decimal("150000.00"), Decimal("120000.00")),
    ("center", "Mejoras al Centro de Convenciones financiadas por derramas",
     "Convention Center improvements financed by assessments",
     Decimal("500000.00"), Decimal("250000.00")),
)

STREETS = ("Calle Tanca", "Ave. Ponce de León", "Calle del Parque", "Ave. Fernández Juncos",
           "Calle Loíza", "Ave. Ashford", "Calle Cerra", "Calle San Jorge", "Calle Krug",
           "Paseo de la Princesa", "Calle Bolívar", "Ave. Juan Ponce de León", "Calle Coll y Toste",
           "Calle Condado", "Calle Del Muelle", "Ave. Constitución", "Calle Pelayo",
           "Calle Gertrudis", "Calle Las Palmas", "Calle Marginal")
ZIPS = ("00907", "00909", "00901", "00911")
FIRST = ("María", "José", "Luis", "Carmen", "Ana", "Juan", "Rosa", "Carlos", "Luz", "Pedro",
         "Elena", "Miguel", "Isabel", "Jorge", "Teresa", "Rafael", "Gloria", "Héctor",
         "Sofía", "Ramón", "Lourdes", "Ángel", "Marisol", "Edwin", "Nilda", "Javier")
LAST = ("Rivera", "Santiago", "Rodríguez", "Colón", "Torres", "Ortiz", "Vázquez", "Cruz",
        "Méndez", "Pagán", "Morales", "Figueroa", "Rosario", "Díaz", "Reyes", "Vélez",
        "Marrero", "Ramos", "Negrón", "Acevedo", "Maldonado", "Quiñones", "Burgos")
COMPANIES = ("Inversiones del Condado LLC", "Servicios Isleños Inc.", "Grupo Miramar Corp.",
             "Bahía Properties LLC", "Comercial San Jorge Inc.", "Puerta de Tierra LLC",
             "Caribe Retail Group Corp.", "Laguna Holdings LLC", "Farmacia El Parque Inc.",
             "Restaurante La Ceiba LLC", "Ferretería Santurce Inc.", "Oficinas Ashford LLC")

Progress = Callable[[str, int, int], None] | None


@dataclass(frozen=True)
class Days:
    """The demo's calendar for the day it is loaded (`today`): its fiscal year is the one
    containing that day, and every date of its history is placed from the fiscal year's start
    (the budget, the roll and its notices, the months paid) or from `today` (what each journey
    must show on it: the lump sum still open, a demand in its 15-day window, a claim on the
    court list), so that loaded on any day the journeys are there to see. Loaded on
    REFERENCE_DAY the demo is the one the README and the tests describe; on any one day it is
    always the same (no randomness other than the fixed seed)."""

    today: date

    @property
    def fy_start(self) -> date:
        year = self.today.year if self.today.month >= 7 else self.today.year - 1
        return date(year, 7, 1)

    @property
    def month(self) -> int:
        """The number of today's month in the fiscal year, from 0 (July) to 11 (June)."""
        return (self.today.month - 7) % 12

    def before_year(self, month: int, day: int) -> date:
        """A day of May or June before the fiscal year (the budget, the roll, the codes)."""
        return date(self.fy_start.year, month, day)

    def in_month(self, k: int, day: int) -> date:
        """Day `day` of the fiscal year's month `k` (0 is July)."""
        return add_months(self.fy_start, k).replace(day=day)

    def past(self, day: date) -> bool:
        """Whether `day` is before today: history is written only up to yesterday."""
        return day < self.today

    def ago(self, days: int) -> date:
        return self.today - timedelta(days=days)

    @property
    def late_notice(self) -> date:
        """The late notice of the Authority land sold mid-year (R-A4): its installments fall
        due the 1st of the month after it, so R-A11's lump sum (by the first one's due date)
        is still open today: two weeks ago, or the 1st of this month if that is later."""
        return max(self.ago(14), self.today.replace(day=1))

    @property
    def sold_on(self) -> date:
        """The day the Authority land was sold, eleven days before its notice."""
        return self.late_notice - timedelta(days=11)


@dataclass
class DemoResult:
    loaded: bool
    parcels: int = 0
    users: int = 0
    password: str = DEMO_PASSWORD
    staff_totp_secret: str = STAFF_TOTP_SECRET
    sign_ins: list[tuple[str, str]] = field(default_factory=list)  # (email, role)
    codes: list[tuple[str, str, str]] = field(default_factory=list)  # (catastro, code, address)
    seconds: float = 0.0


def is_empty(uow: UnitOfWork) -> bool:
    users_n = uow.session.scalar(select(func.count()).select_from(User))
    parcels_n = uow.session.scalar(select(func.count()).select_from(Parcel))
    return not users_n and not parcels_n


def _at(day: date, hour: int = 10, minute: int = 0) -> datetime:
    return clock.pr_instant(day, dtime(hour, minute))


def _d(x: float, places: int = 2) -> Decimal:
    return Decimal(f"{x:.{places}f}")


@dataclass
class _Spec:
    """A parcel to create."""

    kind: str  # home | shop | hotel | lot | authority | public
    address: str
    units: Decimal
    owner_kind: str = "private"
    transferred: bool = False
    incentive: bool = False
    zone: str = "urban"
    land_area: Decimal = Decimal("0.250000")
    land_value: Decimal = Decimal("60000.00")
    structure_value: Decimal = Decimal("180000.00")
    owners: list[tuple[str, str, Decimal, str]] = field(default_factory=list)
    lessee: str | None = None  # organisation name of the lessee who pays
    pattern: str = "monthly"
    featured: str | None = None


class _Builder:
    def __init__(self, uow: UnitOfWork, n_parcels: int, n_users: int, progress: Progress):
        self.uow = uow
        self.s = uow.session
        self.rng = random.Random(20262027)
        self.n_parcels = max(n_parcels, MIN_PARCELS)
        self.n_users = n_users
        self.progress = progress
        self.scale = max(Decimal(1), Decimal(self.n_parcels) / BASE_PARCELS)
        self.authority_party = 0
        self.municipal_party = 0

    def tick(self, stage: str | None, done: int = 1, total: int = 1) -> None:
        if self.progress is not None and stage is not None:
            self.progress(stage, done, total)

    # --- parcels ------------------------------------------------------------------------
    def _address(self, i: int) -> str:
        street = STREETS[i % len(STREETS)]
        return f"{street} {100 + (i * 37) % 1900}, San Juan, PR {ZIPS[i % len(ZIPS)]}"

    def _person(self) -> str:
        r = self.rng
        return f"{r.choice(FIRST)} {r.choice(LAST)} {r.choice(LAST)}"

    def featured_specs(self) -> list[_Spec]:
        maria, jose = "María Rivera Ortiz", "José Santiago Vega"
        return [
            _Spec("home", "Calle Tanca 254, Apt. 3B, San Juan, PR 00901", Decimal("15.0000"),
                  land_value=Decimal("42000.00"), structure_value=Decimal("168000.00"),
                  land_area=Decimal("0.045000"), owners=[(maria, "person", Decimal(1), "sole")],
                  pattern="featured", featured="home"),
            _Spec("shop", "Calle del Parque 612, San Juan, PR 00909", Decimal("42.0000"),
                  land_value=Decimal("95000.00"), structure_value=Decimal("310000.00"),
                  land_area=Decimal("0.120000"),
                  owners=[(maria, "person", Decimal("0.5"), "spouse"),
                          (jose, "person", Decimal("0.5"), "spouse")],
                  pattern="featured", featured="shop"),
            _Spec("lot", "Calle Las Palmas 1415 (solar), San Juan, PR 00907", Decimal("8.0000"),
                  land_value=Decimal("120000.00"), structure_value=Decimal("0.00"),
                  land_area=Decimal("0.400000"), zone="suburban",
                  owners=[(maria, "person", Decimal(1), "sole")],
                  pattern="featured", featured="lot"),
            _Spec("authority", "Paseo de la Princesa 45, Local 2, San Juan, PR 00901",
                  Decimal("60.0000"), owner_kind="authority", transferred=True,
                  land_value=Decimal("150000.00"), structure_value=Decimal("420000.00"),
                  lessee="Café La Marina LLC", pattern="featured", featured="leased"),
            _Spec("hotel", "Ave. Ashford 1077 (Hotel Laguna Grande), San Juan, PR 00907",
                  Decimal("2400.0000"), incentive=True, land_value=Decimal("4800000.00"),
                  structure_value=Decimal("38500000.00"), land_area=Decimal("3.100000"),
                  owners=[("Hotel Laguna Grande LLC", "organisation", Decimal(1), "sole")],
                  pattern="quarterly", featured="incentive"),
            _Spec("authority", "Calle Del Muelle 9, San Juan, PR 00901", Decimal("95.0000"),
                  owner_kind="authority", transferred=True, land_value=Decimal("210000.00"),
                  structure_value=Decimal("640000.00"), lessee="Marina Services Corp.",
                  pattern="featured", featured="deposit"),
            # Authority land (exempt in June: not transferred, R-A2) sold in November.
            _Spec("authority", "Calle San Agustín 310 (local comercial), San Juan, PR 00901",
                  Decimal("12.0000"), owner_kind="authority", land_value=Decimal("88000.00"),
                  structure_value=Decimal("145000.00"), land_area=Decimal("0.060000"),
                  pattern="featured", featured="bought"),
            _Spec("authority", "Calle Norzagaray 57, San Juan, PR 00901", Decimal("10.0000"),
                  owner_kind="authority", land_value=Decimal("70000.00"),
                  structure_value=Decimal("120000.00"), land_area=Decimal("0.050000"),
                  pattern="featured", featured="sold"),
        ]

    def generated_spec(self, i: int) -> _Spec:
        r = self.rng
        roll_ = r.random()
        address = self._address(i)
        pattern = r.choices(("monthly", "quarterly", "lump", "late", "stopped"),
                            (45, 25, 10, 14, 6))[0]
        if roll_ < 0.55:
            kind, units = "home", _d(r.uniform(8, 25), 2)
            land, struct, area = r.uniform(25e3, 90e3), r.uniform(80e3, 350e3), r.uniform(.03, .3)
        elif roll_ < 0.80:
            kind, units = "shop", _d(r.uniform(25, 120), 2)
            land, struct, area = r.uniform(60e3, 400e3), r.uniform(150e3, 1.5e6), r.uniform(.1, .8)
        elif roll_ < 0.83:
            kind, units = "hotel", _d(r.uniform(900, 3000), 2)
            land, struct, area = r.uniform(1e6, 6e6), r.uniform(8e6, 45e6), r.uniform(1, 4)
        elif roll_ < 0.90:
            kind, units = "lot", _d(r.uniform(4, 12), 2)
            land, struct, area = r.uniform(40e3, 300e3), 0.0, r.uniform(.2, 2.5)
        elif roll_ < 0.98:
            kind, units = "authority", _d(r.uniform(20, 150), 2)
            land, struct, area = r.uniform(80e3, 900e3), r.uniform(0, 2e6), r.uniform(.2, 3)
        else:
            kind, units = "public", _d(r.uniform(10, 80), 2)
            land, struct, area = r.uniform(80e3, 900e3), r.uniform(0, 2e6), r.uniform(.2, 3)
        spec = _Spec(kind, address, units, land_value=_d(land), structure_value=_d(struct),
                     land_area=_d(area, 6), pattern=pattern,
                     zone="suburban" if r.random() < 0.1 else "urban")
        if kind == "authority":
            spec.owner_kind = "authority"
            if r.random() < 0.4:
                spec.transferred = True
                spec.lessee = r.choice(COMPANIES)
        elif kind == "public":
            spec.owner_kind = "public"
        elif kind in ("shop", "hotel") or r.random() < 0.1:
            spec.owners = [(r.choice(COMPANIES), "organisation", Decimal(1), "sole")]
        elif r.random() < 0.25:
            a, b = self._person(), self._person()
            spec.owners = [(a, "person", Decimal("0.5"), "spouse"),
                           (b, "person", Decimal("0.5"), "spouse")]
        else:
            spec.owners = [(self._person(), "person", Decimal(1), "sole")]
        return spec

    def build_parcels(self) -> list[tuple[int, _Spec]]:
        specs = self.featured_specs()
        specs += [self.generated_spec(i) for i in range(len(specs), self.n_parcels)]
        authority = Party(kind="organisation",
                          name="Autoridad del Distrito del Centro de Convenciones de Puerto Rico",
                          mailing_address="PO Box 19269, San Juan, PR 00910")
        municipal = Party(kind="organisation", name="Municipio Autónomo de San Juan",
                          mailing_address="PO Box 70179, San Juan, PR 00936")
        self.s.add_all([authority, municipal])
        self.s.flush()
        self.authority_party, self.municipal_party = authority.id, municipal.id
        parcel_rows = []
        for i, sp in enumerate(specs):
            catastro = f"040-{(i // 1000) % 1000:03d}-{i % 1000:03d}-{(i * 7) % 100:02d}"
            parcel_rows.append({
                "catastro": catastro, "address": sp.address, "municipality": "San Juan",
                "zone": sp.zone, "land_area_cuerdas": sp.land_area,
                "land_valuation": sp.land_value, "structure_valuation": sp.structure_value,
                "owner_kind": sp.owner_kind, "transferred": sp.transferred,
                "tax_incentive_exempt": sp.incentive, "benefit_units": sp.units})
        ids = self._insert_returning(Parcel, parcel_rows, "parcels")
        # Owners: parties and shares (the Authority's and the municipality's land included).
        party_rows, share_keys = [], []
        names: dict[tuple[str, str], int] = {}
        for pid, sp in zip(ids, specs):
            if sp.owner_kind == "authority":
                share_keys.append((pid, self.authority_party, Decimal(1), "sole"))
                continue
            if sp.owner_kind == "public":
                share_keys.append((pid, self.municipal_party, Decimal(1), "sole"))
                continue
            for name, kind, share, skind in sp.owners:
                key = (name, kind) if sp.featured else (f"{name}#{pid}", kind)
                if key not in names:
                    names[key] = -1 - len(party_rows)
                    party_rows.append({"kind": kind, "name": name,
                                       "email": f"contacto{len(party_rows) + 1:06d}@correo.example",
                                       "mailing_address": sp.address, "language": "es"})
                share_keys.append((pid, names[key], share, skind))
        party_ids = self._insert_returning(Party, party_rows, "parties")
        self.party_by_name = {key[0]: party_ids[-1 - ref] for key, ref in names.items()
                              if "#" not in key[0]}
        share_rows = [{"parcel_id": pid, "party_id": party_ids[-1 - ref] if ref < 0 else ref,
                       "share": share, "kind": skind, "starts_on": date(2015, 3, 1)}
                      for pid, ref, share, skind in share_keys]
        self._insert(OwnershipShare, share_rows, "ownership")
        # Leases of Authority land: the lessee pays (R-A16).
        lessees: dict[str, int] = {}
        lease_rows = []
        for pid, sp in zip(ids, specs):
            if sp.lessee is None:
                continue
            if sp.lessee not in lessees:
                party = Party(kind="organisation", name=sp.lessee, mailing_address=sp.address)
                self.s.add(party)
                self.s.flush()
                lessees[sp.lessee] = party.id
            lease_rows.append({"parcel_id": pid, "lessee_party_id": lessees[sp.lessee],
                               "lessee_pays": True, "contract_number": f"ADCC-L-{pid:05d}",
                               "starts_on": date(2019, 1, 1) + timedelta(days=pid % 900),
                               "ends_on": date(2034, 12, 31)})
        self._insert(Lease, lease_rows, "leases")
        self.lessee_party = lessees
        return list(zip(ids, specs))

    def _insert(self, model: Any, rows: list[dict], stage: str | None) -> None:
        for start in range(0, len(rows), CHUNK):
            bulk.insert_rows(self.uow, model, rows[start:start + CHUNK])
            self.tick(stage, min(start + CHUNK, len(rows)), len(rows))

    def _insert_returning(self, model: Any, rows: list[dict], stage: str | None) -> list[int]:
        """Insert in batches; the new ids in the order of `rows`."""
        out: list[int] = []
        for start in range(0, len(rows), CHUNK):
            out.extend(bulk.insert_rows(self.uow, model, rows[start:start + CHUNK],
                                        return_ids=True))
            self.tick(stage, min(start + CHUNK, len(rows)), len(rows))
        return out


def _payments_for(pattern: str, inst: list, annual: Decimal, discount_rate: Decimal,
                  rng: random.Random, days: Days) -> list[CorePayment]:
    """The payments an account made from June to yesterday under a pattern (each installment
    in the first days of its month: monthly; three at a time: quarterly; the whole year in
    June with the R-A11 discount: lump; a month behind: late; stopped after two months)."""
    by_n = {i.number: i for i in inst}
    m = days.month

    def on(k: int, lo: int, hi: int) -> date:
        return days.in_month(k, rng.randint(lo, hi))

    if pattern == "lump":
        return [CorePayment(days.before_year(6, rng.randint(15, 29)),
                            annual - cents(discount_rate * annual), True)]
    out = []
    if pattern == "quarterly":
        for q in range(0, m + 1, 3):
            out.append(CorePayment(on(q, 1, 8), sum((by_n[n].amount for n in (q + 1, q + 2, q + 3)
                                                     if n in by_n), ZERO)))
        return [p for p in out if days.past(p.date)]
    months = {"monthly": range(m + 1), "late": range(m), "stopped": range(min(2, m + 1))}[pattern]
    for k in months:
        if k + 1 in by_n:
            out.append(CorePayment(on(k, 1, 9), by_n[k + 1].amount))
    if pattern == "late" and m + 1 in by_n and rng.random() < 0.5:
        out.append(CorePayment(days.in_month(m, rng.randint(16, 27)), by_n[m + 1].amount))
    return [p for p in out if days.past(p.date)]


def load(database: Database, *, parcels_n: int = BASE_PARCELS, users_n: int = len(SIGN_INS),
         if_empty: bool = False, progress: Progress = None) -> DemoResult:
    """Load the demo District, its dates placed from today (`clock.today()`: `Days`). With
    `if_empty`, only into an empty database (else nothing happens and `loaded` is False);
    without it, a non-empty database is a Conflict."""
    started = time.monotonic()
    with UnitOfWork(database) as uow:
        if not is_empty(uow):
            if if_empty:
                return DemoResult(False)
            raise Conflict("database_not_empty")
        result = _load(uow, parcels_n, users_n, progress, Days(clock.today()))
    with UnitOfWork(database) as uow:  # the reports as the worker computes them each day
        report_snapshots.compute_all(uow)
    result.seconds = time.monotonic() - started
    return result


def _load(uow: UnitOfWork, parcels_n: int, users_n: int, progress: Progress, days: Days
          ) -> DemoResult:
    s = uow.session
    b = _Builder(uow, parcels_n, users_n, progress)
    result = DemoResult(True, password=DEMO_PASSWORD)

    # 1. People who sign in (May 2026).
    with clock.fixed(_at(days.before_year(5, 4), 9)):
        people: dict[str, User] = {}
        for email, role, name in SIGN_INS:
            u = users.register(uow, email, DEMO_PASSWORD, name, "es")
            u.email_confirmed_at = clock.now()
            u.is_staff = role in STAFF_ROLES
            u.staff_role = STAFF_ROLES.get(role)
            if u.is_staff or role == "lender":  # the bank's administrator manages tokens
                two_factor.enrol_with_secret(uow, u, STAFF_TOTP_SECRET)
            people[role] = u
            result.sign_ins.append((email, role))
        s.flush()
        staff = people["staff"]
        b.tick("users", 1, 1)

    # 2. Parcels, owners, leases, lender and loans.
    with clock.fixed(_at(days.before_year(5, 5), 9)):
        rows = b.build_parcels()
        featured = {sp.featured: pid for pid, sp in rows if sp.featured}
        maria = b.party_by_name["María Rivera Ortiz"]
        s.add(PartyMember(party_id=maria, user_id=people["owner"].id, role="self"))
        s.add(PartyMember(party_id=b.lessee_party["Café La Marina LLC"],
                          user_id=people["lessee"].id, role="representative"))
        bank = Party(kind="organisation", name="Banco Hipotecario del Caribe",
                     mailing_address="Ave. Muñoz Rivera 1000, San Juan, PR 00918")
        s.add(bank)
        s.flush()
        lender = Lender(party_id=bank.id, code="BHC")
        s.add(lender)
        # J7: the demo lender's user administers the bank's organisation (users, API tokens)
        s.add(PartyMember(party_id=bank.id, user_id=people["lender"].id, role="administrator"))
        s.flush()
        # Four homes stay unclaimed, without a loan: their codes are printed (J1).
        free = [(pid, sp) for pid, sp in rows if sp.kind == "home" and not sp.featured
                and sp.pattern in ("monthly", "late")][:4]
        free_ids = {pid for pid, _ in free}
        private = [pid for kind in ("home", "shop", "lot") for pid, sp in rows
                   if sp.kind == kind and not sp.featured and pid not in free_ids]
        loan_parcels = [featured["home"]] + private[:49]
        loan_rows = []
        for k, pid in enumerate(loan_parcels):
            start = date(2008 + (k * 7) % 17, 1 + (k * 5) % 12, 1 + (k * 11) % 28)
            loan_rows.append({"lender_id": lender.id, "parcel_id": pid,
                              "loan_number": f"BHC-{start.year}-{100000 + k * 137:06d}",
                              "starts_on": start, "recorded_on": start + timedelta(days=12)})
        b._insert(Loan, loan_rows, "loans")
        # The CRIM's property-tax facts (illustrative); one unclaimed home owed tax (R-B11).
        exemption_facts.load_demo(uow, days.fy_start, debt_parcel_ids=(free[0][0],))

    # 3. The budget (R-A1), adopted before the fiscal year.
    adopted_on, notice_date = days.before_year(5, 20), days.before_year(6, 10)
    with clock.fixed(_at(adopted_on, 14)):
        fy = budgets.ensure_fiscal_year(uow, days.fy_start)
        _board_values(uow, staff, days.fy_start, adopted_on)
        lines = [LineInput(k, es, en, cents(amount * b.scale), cents(fin * b.scale))
                 for k, es, en, amount, fin in BUDGET_LINES]
        version = budgets.draft(
            uow, staff, fy, lines,
            reference=f"Resolución de la Junta {days.fy_start.year}-14 (demo)")
        budgets.adopt(uow, staff, version.id, adopted_on)

    # 4. The roll: computed, reviewed, published with the notices (R-A2 to R-A4), as the
    # staff's jobs (recorded on the jobs page), here in the demo's one transaction.
    with clock.fixed(_at(notice_date, 9)):
        _, r = runner.run_here(uow, staff, "roll.compute", {"version_id": version.id},
                             progress=lambda d, t: b.tick("roll", d, t))
    with clock.fixed(_at(notice_date, 10)):
        runner.run_here(uow, staff, "roll.publish", {"roll_id": r.id,
                                                   "notice_date": notice_date.isoformat()},
                      progress=lambda d, t: b.tick("assessments", d, t))

    # 5. Access codes; the featured people claim their parcels with them (J1).
    with clock.fixed(_at(days.before_year(6, 15), 11)):
        codes = {key: parcels.issue_code(uow, staff, featured[key])
                 for key in ("home", "shop", "lot", "leased")}
    with clock.fixed(_at(days.before_year(6, 16), 19)):
        catastro = dict(s.execute(select(Parcel.id, Parcel.catastro)
                                  .where(Parcel.id.in_(list(featured.values())))).all())
        for key in ("home", "shop", "lot"):
            parcels.claim(uow, people["owner"], catastro[featured[key]], codes[key])
        parcels.claim(uow, people["lessee"], catastro[featured["leased"]], codes["leased"])

    # 6. Payments of the generated accounts (bulk, allocated by the core: R-A10, R-A11).
    skip = {featured[k] for k in ("home", "shop", "lot", "leased", "deposit", "bought", "sold")}
    _bulk_payments(uow, b, fy, [(pid, sp) for pid, sp in rows if pid not in skip], days)

    # 7. The featured accounts, event by event, through the services.
    _featured_history(uow, b, fy, people, featured, days)

    # 8. Unclaimed parcels with codes to claim (J1), printed by the command: four homes
    # (codes of four weeks ago), then the Authority land sold this month or the last (its
    # lump sum is open).
    with clock.fixed(_at(days.ago(28), 10)):
        catastros = dict(s.execute(select(Parcel.id, Parcel.catastro)
                                   .where(Parcel.id.in_([p for p, _ in free]))).all())
        for pid, sp in free:
            result.codes.append((catastros[pid], parcels.issue_code(uow, staff, pid),
                                 sp.address))

    # 8b. Authority land sold lately and assessed on its own late notice (R-A2, R-A4):
    # one to the demo owner (she claims it: J3 on the demo), one left unclaimed (J1 + J3).
    specs = dict(rows)
    bought = _sold_mid_year(uow, staff, fy, r, featured["bought"], maria, days)
    sold = _sold_mid_year(uow, staff, fy, r, featured["sold"],
                          _new_person(uow, "Gloria Acevedo Burgos", specs[featured["sold"]]),
                          days)
    with clock.fixed(_at(min(days.late_notice + timedelta(days=1), days.today), 10)):
        code = parcels.issue_code(uow, staff, bought.id)
        result.codes.append((sold.catastro, parcels.issue_code(uow, staff, sold.id),
                             sold.address))
    with clock.fixed(_at(min(days.late_notice + timedelta(days=2), days.today), 20)):
        parcels.claim(uow, people["owner"], bought.catastro, code)

    # 9. Generic owners for a scaled demo (the benchmark).
    extra = max(0, users_n - len(SIGN_INS))
    if extra:
        _bulk_users(uow, b, extra, [pid for pid, sp in rows
                                    if not sp.featured and sp.kind in ("home", "shop", "lot")
                                    and pid not in free_ids])
    _receipts_in_date_order(uow)
    bulk.analyze_all(uow)
    s.add(AuditRecord(actor_id=staff.id, action="demo.loaded", object_type="database",
                      object_id="demo", after={"parcels": len(rows), "users": users_n}))
    result.parcels = len(rows)
    result.users = len(SIGN_INS) + extra
    return result


def _receipts_in_date_order(uow: UnitOfWork) -> None:
    """Renumber the demo's receipts in the order their payments were completed, as a real year
    numbers them (`ledger.next_receipt_numbers` at each success): the demo writes its history
    out of order (the generated accounts in blocks, then the featured ones event by event), so
    receipt 2026-000001 would otherwise be a November payment. Each year keeps the same numbers
    1..n of its counter, only permuted: two set-based statements (a unique index forbids a
    permutation in one), then a check that every number of the counter is used once."""
    P = Payment.__table__
    year = func.substr(P.c.receipt_number, 1, 4, type_=String)
    numbered = P.c.receipt_number.is_not(None)
    # Aside: the year and the row's id, unique and never a receipt number's form.
    uow.session.execute(update(P).where(numbered)
                        .values(receipt_number=year + "#" + cast(P.c.id, String)))
    ranked = (select(P.c.id, year.label("year"),
                     func.row_number().over(partition_by=year,
                                            order_by=(P.c.completed_at, P.c.id)).label("n"))
              .where(numbered).cte("ranked"))
    postgres = uow.session.get_bind().dialect.name == "postgresql"
    digits = (func.lpad(cast(ranked.c.n, String), 6, "0") if postgres
              else func.substr("000000" + cast(ranked.c.n, String), -6))
    uow.session.execute(update(P).where(P.c.id == ranked.c.id)
                        .values(receipt_number=ranked.c.year + "-" + digits))
    counted = dict(uow.session.execute(select(year, func.count()).where(numbered)
                                       .group_by(year)).all())
    issued = {str(y): last for y, last in uow.session.execute(
        select(ReceiptSequence.year, ReceiptSequence.last)).all()}
    if counted != issued:
        raise RuntimeError(f"demo receipts {counted} do not match the counters {issued}")


def _bulk_payments(uow: UnitOfWork, b: _Builder, fy: Any, rows: list[tuple[int, _Spec]],
                   days: Days) -> None:
    rules = facts.rules_for(fy.starts_on, uow)
    today = days.today
    specs = dict(rows)
    ids = list(specs)
    done = 0
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start:start + CHUNK]
        # Plain rows, not ORM objects: the demo's accounts have one assessment each.
        annual: dict[int, Decimal] = {}
        schedule: dict[int, list[CoreInstallment]] = {}
        for pid, amount, number, due, inst_amount in uow.session.execute(
                select(Assessment.parcel_id, Assessment.annual_amount, Installment.number,
                       Installment.due_date, Installment.amount)
                .join(Installment, Installment.assessment_id == Assessment.id)
                .where(Assessment.parcel_id.in_(chunk), Assessment.fiscal_year_id == fy.id)
                .order_by(Assessment.parcel_id, Installment.number)):
            annual[pid] = amount
            schedule.setdefault(pid, []).append(CoreInstallment(number, due, inst_amount))
        plans = []
        for pid in chunk:
            if pid not in schedule:
                continue
            inst = schedule[pid]
            pays = _payments_for(specs[pid].pattern, inst, annual[pid],
                                 rules.lump_sum_discount_rate, b.rng, days)
            if not pays:
                continue
            st = evaluate(today, inst, pays, (), rules, annual[pid])
            apps = {a.payment: a for a in st.applications if a.payment is not None}
            plans.append((pid, pays, apps))
        pay_rows, meta = [], []
        for pid, pays, apps in plans:
            for k, p in enumerate(pays):
                when = _at(p.date, 8 + (pid + k) % 12, (pid * 7 + k) % 60)
                pay_rows.append({
                    "parcel_id": pid, "fiscal_year_id": fy.id, "user_id": None,
                    "status": states.SUCCEEDED, "method": "card" if (pid + k) % 3 else "bank",
                    "amount": p.amount, "lump_sum": p.lump_sum,
                    "purpose": "lump_sum" if p.lump_sum else "due_now",
                    "idempotency_key": f"demo-{pid}-{k}", "provider": "sandbox",
                    "provider_session_id": None, "provider_payment_id": None,
                    "refunded_amount": ZERO, "created_at": when - timedelta(minutes=4),
                    "updated_at": when, "completed_at": when})
                meta.append((pid, p, apps[k]))
        _number_rows(uow, pay_rows)
        pay_ids = (b._insert_returning(Payment, pay_rows, None)
                   if pay_rows else [])
        entries, allocations = [], []
        for pay_id, (pid, p, app) in zip(pay_ids, meta):
            common = {"parcel_id": pid, "fiscal_year_id": fy.id, "legal_date": p.date,
                      "created_at": _at(p.date, 23, 0), "author_id": None, "cost_kind": None,
                      "description": "", "assessment_id": None, "reverses_id": None,
                      "payment_id": pay_id}
            granted = app.lump_sum == "granted"
            entries.append({**common, "kind": "payment", "direction": "credit",
                            "amount": p.amount, "rule": "R-A11" if granted else "R-A10"})
            discount = sum((ln.amount for ln in app.lines if ln.kind == "discount"), ZERO)
            if discount:
                entries.append({**common, "kind": "discount", "direction": "credit",
                                "amount": discount, "rule": "R-A11"})
            for pos, ln in enumerate(app.lines, start=1):
                allocations.append({"payment_id": pay_id, "position": pos, "kind": ln.kind,
                                    "amount": ln.amount, "installment_number": ln.installment,
                                    "cost_entry_id": None, "rule": ln.rule})
        b._insert(LedgerEntry, entries, None)
        b._insert(PaymentAllocation, allocations, None)
        done += len(chunk)
        b.tick("accounts", done, len(ids))


def _pay(uow: UnitOfWork, user: User | None, parcel_id: int, fy: Any, amount: Decimal,
         day: date, hour: int = 12, lump_sum: bool = False, method: str = "card") -> Payment:
    """A payment completed by its payer on `day` (Puerto Rico time), posted at once."""
    when = _at(day, hour, 17)
    with clock.fixed(when):
        p = Payment(parcel_id=parcel_id, fiscal_year_id=fy.id,
                    user_id=user.id if user else None, status=states.SUCCEEDED,
                    method=method, amount=amount, lump_sum=lump_sum,
                    purpose="lump_sum" if lump_sum else "due_now",
                    idempotency_key=f"demo-featured-{parcel_id}-{day.isoformat()}",
                    provider="sandbox", completed_at=when, updated_at=when)
        uow.session.add(p)
        uow.session.flush()
        ledger.post_payment(uow, p.id, actor=user)
        ledger.number_payment(uow, p)
    return p


def _number_rows(uow: UnitOfWork, pay_rows: list[dict]) -> None:
    """The receipt numbers of bulk-inserted succeeded payments, in the rows' order: one
    block of each year's counter (`ledger.next_receipt_numbers`), as if each had succeeded."""
    by_year: dict[int, list[dict]] = {}
    for row in pay_rows:
        by_year.setdefault(clock.legal_date(row["completed_at"]).year, []).append(row)
    for year, rows in by_year.items():
        numbers = ledger.next_receipt_numbers(uow, date(year, 1, 1), len(rows))
        for row, number in zip(rows, numbers, strict=True):
            row["receipt_number"] = number


def _featured_history(uow: UnitOfWork, b: _Builder, fy: Any, people: dict[str, User],
                      featured: dict[str, int], days: Days) -> None:
    """The featured accounts' history up to yesterday, placed so that today (`days`) each
    journey's state is there: the shop two months behind with a demand past its 15 days (on
    the court list), the leased parcel with a demand mailed 13 days ago (in its window), the
    deposit order's parcel, the owner's home paid every month."""
    s = uow.session
    staff, owner, lessee = people["staff"], people["owner"], people["lessee"]
    loaded = facts.load_many(uow, list(featured.values()), fy)
    m = days.month

    def inst(key: str, n: int) -> Decimal:
        return next(i.amount for i in loaded[featured[key]].installments if i.number == n)

    def pay(key: str, user: User | None, n: int, day: date, hour: int, **kw: Any) -> None:
        if days.past(day):
            _pay(uow, user, featured[key], fy, inst(key, n), day, hour, **kw)

    # The owner's home: every month on time (card).
    for k in range(m + 1):
        pay("home", owner, k + 1, days.in_month(k, min(2 + k, 28)), 20)
    # The lot: the whole year in one payment before July 1, with the R-A11 discount.
    lot = loaded[featured["lot"]]
    rate = lot.rules.lump_sum_discount_rate
    _pay(uow, owner, featured["lot"], fy, lot.annual - cents(rate * lot.annual),
         days.before_year(6, 24), 21, lump_sum=True)
    # The shop: paid two months, then nothing: delinquent (R-A6-A8), a demand by certified
    # mail (R-A12) and its cost (R-A9), its 15 days over: on the court list (R-A13).
    paid = max(0, m - 2)
    for k in range(paid):
        pay("shop", owner, k + 1, days.in_month(k, 8 - k % 2), 13)
    if days.past(days.in_month(paid, 29)):
        with clock.fixed(_at(days.in_month(paid, 21), 10)):
            demand = demands.queue_demand(uow, staff, featured["shop"], fy.id)
        with clock.fixed(_at(days.in_month(paid, 22), 15)):
            mailing.record_mailing(uow, staff, demand.id, days.in_month(paid, 22),
                                   "9407 1118 9876 5432 1001 23", CERTIFIED_MAIL)
        with clock.fixed(_at(days.in_month(paid, 29), 11)):
            mailing.record_acknowledgment(uow, staff, demand.id, days.in_month(paid, 28))
    # The leased Authority parcel (the lessee pays, R-A16): paid, then two installments
    # behind; a demand mailed 13 days ago, still in its 15-day window today (J4).
    queued = days.ago(14)
    late = sum(1 for i in loaded[featured["leased"]].installments
               if i.due_date.replace(day=15) < queued)  # past its day G (rolled) by then
    for k in range(max(0, late - 2)):
        pay("leased", lessee, k + 1, days.in_month(k, 9 + k % 2), 16, method="bank")
    if late and queued >= days.fy_start:
        with clock.fixed(_at(queued, 10)):
            demand = demands.queue_demand(uow, staff, featured["leased"], fy.id)
        with clock.fixed(_at(queued + timedelta(days=1), 15)):
            mailing.record_mailing(uow, staff, demand.id, queued + timedelta(days=1),
                                   "9407 1118 9876 5432 2002 46", CERTIFIED_MAIL)
    # Another leased Authority parcel: paid a month, then a demand, and a court order that
    # the lessee deposit its rents (R-A14).
    paid = max(0, m - 3)
    for k in range(paid):
        pay("deposit", None, k + 1, days.in_month(k, 10), 11, method="check")
    if days.past(days.in_month(paid, 17)):
        with clock.fixed(_at(days.in_month(paid, 17), 10)):
            demand = demands.queue_demand(uow, staff, featured["deposit"], fy.id)
            mailing.record_mailing(uow, staff, demand.id, days.in_month(paid, 17),
                                   "9407 1118 9876 5432 3003 69", CERTIFIED_MAIL)
        if days.past(days.in_month(paid, 24)):
            with clock.fixed(_at(days.in_month(paid, 24), 10)):
                mailing.record_acknowledgment(uow, staff, demand.id, days.in_month(paid, 20))
        ordered_on = days.in_month(paid + 2, 5)
        if paid + 2 < 12 and days.past(ordered_on):
            with clock.fixed(_at(ordered_on, 10)):
                lease = s.scalar(select(Lease).where(Lease.parcel_id == featured["deposit"]))
                order = DepositOrder(
                    lease_id=lease.id, ordered_on=ordered_on,
                    court="Tribunal de Primera Instancia, Sala Superior de San Juan",
                    case_number=f"SJ{ordered_on.year}CV01234")
                s.add(order)
                s.flush()
                audit.record(uow, staff, "deposit_order.recorded", order,
                             after=audit.snapshot(order))
    # The owner's home owes property taxes: a Treasury notice of attachment two weeks ago
    # and a CRIM auction's minimum (R-C1–R-C5; portal/collections/attachments.py).
    from portal.collections import attachments
    attachments.load_demo(uow, staff, featured["home"], notified_on=days.ago(14),
                          appraised_on=days.ago(28))
    b.tick("featured", 1, 1)


def _new_person(uow: UnitOfWork, name: str, spec: _Spec) -> int:
    party = Party(kind="person", name=name, mailing_address=spec.address, language="es",
                  email=f"{name.split()[0].lower()}@correo.example")
    uow.session.add(party)
    uow.session.flush()
    return party.id


def _sold_mid_year(uow: UnitOfWork, staff: User, fy: Any, roll_: Any, parcel_id: int,
                   buyer_party_id: int, days: Days) -> Parcel:
    """Authority land, exempt in the published roll (R-A2), sold to a private owner on
    `days.sold_on`: from then on it is assessed, at the roll's amount per benefit unit (R-A3),
    on its own notice of `days.late_notice`. R-A4: no installment falls due before the notice,
    so the first ones are due the 1st of the month after it (2026-12-01 on REFERENCE_DAY);
    R-A11's default deadline (the first installment's due date) is therefore still ahead
    today."""
    s = uow.session
    sold_on, notice_date = days.sold_on, days.late_notice
    parcel = s.get(Parcel, parcel_id)
    with clock.fixed(_at(sold_on, 11)):
        before = audit.snapshot(parcel)
        for share in s.scalars(select(OwnershipShare).where(
                OwnershipShare.parcel_id == parcel_id, OwnershipShare.ends_on.is_(None))):
            share.ends_on = sold_on - timedelta(days=1)
        s.add(OwnershipShare(parcel_id=parcel_id, party_id=buyer_party_id, share=Decimal(1),
                             kind="sole", starts_on=sold_on))
        parcel.owner_kind = "private"
        s.flush()
        review.parcels_changed(uow)  # R-A2's facts changed: exempt lines counted again
        audit.record(uow, staff, "parcel.sold", parcel, before=before,
                     after=audit.snapshot(parcel))
    with clock.fixed(_at(notice_date, 9)):
        annual = cents(parcel.benefit_units * roll_.total / roll_.total_units)
        a = Assessment(parcel_id=parcel_id, fiscal_year_id=fy.id,
                       budget_version_id=roll_.budget_version_id, roll_id=roll_.id,
                       annual_amount=annual, benefit_units=parcel.benefit_units, payer="owner",
                       notified_on=notice_date, credit=ZERO)
        s.add(a)
        s.flush()
        items = schedule(annual, fy.starts_on, facts.installment_count(fy.starts_on),
                         notice_date)
        s.add_all([Installment(assessment_id=a.id, number=i.number, due_date=i.due_date,
                               amount=i.amount) for i in items])
        s.add(LedgerEntry(parcel_id=parcel_id, fiscal_year_id=fy.id, assessment_id=a.id,
                          kind="charge", direction="debit", amount=annual,
                          legal_date=notice_date, rule="R-A3", author_id=staff.id,
                          description="v1"))
        s.add(Notice(parcel_id=parcel_id, fiscal_year_id=fy.id, kind="assessment",
                     assessment_id=a.id, amount=annual, language="es",
                     created_by_id=staff.id, mailed_on=notice_date))
        s.flush()
        audit.record(uow, staff, "assessment.notified", a, after=audit.snapshot(a))
    return parcel


def _board_values(uow: UnitOfWork, staff: User, fy_start: date, adopted_on: date) -> None:
    """The Board's values for a fiscal year the parameter files do not cover (the demo loaded
    after June 2027): recorded as staff record them (`board_parameters.adopt`, J8), effective
    from the year's start, each the value of the demo's reference year; none when the files
    have them all. Values only the law sets are in the files for every year."""
    missing = set(roll.missing_parameters(uow, fy_start))
    reference = in_force.parameter_set(uow)
    for name in board_parameters.editable():
        if name not in missing:
            continue
        value = reference.for_fiscal_year(name, FY_START)
        board_parameters.adopt(uow, staff, fy_start, name, str(value), fy_start,
                               f"{fy_start.year}-14", adopted_on)


def _bulk_users(uow: UnitOfWork, b: _Builder, n: int, parcel_ids: list[int]) -> None:
    password_hash = passwords.hash_password(DEMO_PASSWORD)
    now = clock.now()
    rows = [{"email": f"user{k:05d}@demo.pr", "password_hash": password_hash,
             "name": f"Dueño de demostración {k}", "language": "es" if k % 4 else "en",
             "is_staff": False, "email_confirmed_at": now, "created_at": now}
            for k in range(1, n + 1)]
    ids = b._insert_returning(User, rows, "users")
    per = max(1, len(parcel_ids) // max(1, n))
    links = []
    for k, uid in enumerate(ids):
        for pid in parcel_ids[k * per:(k + 1) * per]:
            links.append({"user_id": uid, "parcel_id": pid, "role": "owner", "source": "code",
                          "granted_by_id": None, "created_at": now})
    b._insert(ParcelLink, links, "links")
