"""The roll's review (J8), between computing and publishing: its figures read with aggregate
and LIMIT queries only, never every line (a roll may have 1.5 million), and an amendment's
differences per parcel.

Amounts are compared and added as integer cents in SQL (`_cents`): SQLite keeps NUMERIC
values as binary floating point, so a sum of a million of them is exact only in cents.

An amendment's previous amount of a parcel is its assessment under the budget's earlier
versions that no earlier version supersedes (`_previous`): for a roll still computed, the
assessment in force, which publishing would supersede; for a published one, the assessment
it superseded. So the same query serves before and after publication, and for any version.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy import BigInteger, and_, case, cast, exists, func, literal, select
from sqlalchemy.orm import aliased

from portal.core import roll_review as core
from portal.core.money import from_cents_int
from portal.db import UnitOfWork
from portal.models import (
    Assessment,
    AssessmentRoll,
    BudgetFixedAmount,
    BudgetVersion,
    FiscalYear,
    Parcel,
    RollLine,
)
from portal.services import access
from portal.services.errors import NotFound

#: The largest shares listed.
TOP = 10
#: Rows of a streamed export read per round trip.
STREAM = 2000


def _cents(column: Any) -> Any:
    """An amount as integer cents, exact on both databases."""
    return cast(func.round(column * 100), BigInteger)


@dataclass(frozen=True)
class Share:
    parcel_id: int
    catastro: str
    amount: Decimal
    benefit_units: Decimal


@dataclass(frozen=True)
class Fixed:
    """A Board-fixed amount (R-A3) with its parcel and what the roll gives it (None: no line;
    `exempt`: the parcel is exempt, so the fixed amount is ignored)."""

    parcel_id: int
    catastro: str
    amount: Decimal
    reason: str
    line_amount: Decimal | None
    exempt: bool


@dataclass(frozen=True)
class Bin:
    low: Decimal
    high: Decimal
    count: int


@dataclass(frozen=True)
class Review:
    """What the review page shows of a roll."""

    roll: AssessmentRoll
    version: BudgetVersion
    fiscal_year: FiscalYear
    lines: int
    assessed: int
    exempt: int
    fixed: int
    total_assessed: Decimal
    total_to_assess: Decimal
    reasons: list[tuple[str, int]]  # (EXEMPT_REASONS code, parcels), most first
    top: list[Share]
    fixed_amounts: list[Fixed]
    bins: list[Bin]
    chart: core.Chart | None
    amendment: bool

    @property
    def complete(self) -> bool:
        """Every line of the computation is written (a job still running has fewer)."""
        return self.lines == self.roll.assessed_count + self.roll.exempt_count

    @property
    def balanced(self) -> bool:
        """R-A3: the shares sum to the version's total to assess, to the cent."""
        return self.total_assessed == self.total_to_assess


def _roll(uow: UnitOfWork, staff: Any, roll_id: int | str
          ) -> tuple[AssessmentRoll, BudgetVersion, FiscalYear]:
    access.require_staff(staff)
    roll = uow.session.get(AssessmentRoll, access.parse_id(roll_id))
    if roll is None:
        raise NotFound()
    return (roll, uow.session.get(BudgetVersion, roll.budget_version_id),
            uow.session.get(FiscalYear, roll.fiscal_year_id))


def review(uow: UnitOfWork, staff: Any, roll_id: int | str) -> Review:
    """A roll's figures (any staff): the total assessed against the total to assess (R-A3),
    the counts, the exempt parcels by reason (R-A2), the Board's fixed amounts, the largest
    shares and the histogram of the shares. `NotFound` for a roll that does not exist."""
    roll, version, fy = _roll(uow, staff, roll_id)
    s = uow.session
    of_roll = RollLine.roll_id == roll.id
    assessed = RollLine.exempt.is_(False)
    cents = _cents(RollLine.amount)
    lines, exempt, total, low, high = s.execute(select(
        func.count(), func.coalesce(func.sum(case((RollLine.exempt.is_(True), 1), else_=0)), 0),
        func.coalesce(func.sum(case((assessed, cents))), 0),
        func.min(case((assessed, cents))), func.max(case((assessed, cents))))
        .where(of_roll)).one()
    fixed_amounts = [Fixed(pid, catastro, amount, reason, line_amount, bool(line_exempt))
                     for pid, catastro, amount, reason, line_amount, line_exempt in s.execute(
        select(Parcel.id, Parcel.catastro, BudgetFixedAmount.amount, BudgetFixedAmount.reason,
               RollLine.amount, RollLine.exempt)
        .join(Parcel, Parcel.id == BudgetFixedAmount.parcel_id)
        .outerjoin(RollLine, and_(RollLine.parcel_id == Parcel.id, of_roll))
        .where(BudgetFixedAmount.version_id == version.id).order_by(Parcel.catastro))]
    top = [Share(*row) for row in s.execute(
        select(Parcel.id, Parcel.catastro, RollLine.amount, RollLine.benefit_units)
        .select_from(RollLine).join(Parcel, Parcel.id == RollLine.parcel_id)
        .where(of_roll, assessed)
        .order_by(RollLine.amount.desc(), Parcel.catastro).limit(TOP))]
    bins, drawn = _histogram(uow, roll.id, low, high)
    return Review(roll, version, fy, lines, lines - exempt, exempt,
                  sum(1 for f in fixed_amounts if f.line_amount is not None and not f.exempt),
                  from_cents_int(int(total)), version.total_to_assess,
                  _reasons(uow, roll.id), top, fixed_amounts, bins, drawn,
                  _amendment(uow, version, fy))


def _histogram(uow: UnitOfWork, roll_id: int, low: int | None, high: int | None
               ) -> tuple[list[Bin], core.Chart | None]:
    """The assessed shares counted per bin (`core.bin_edges`) in one grouped query."""
    if low is None:
        return [], None
    edges = core.bin_edges(int(low), int(high))
    n = len(edges) - 1
    cents = _cents(RollLine.amount)
    which = case(*((cents < literal(edge), k) for k, edge in enumerate(edges[1:-1])),
                 else_=n - 1) if n > 1 else literal(0)
    inner = select(which.label("bin")).where(RollLine.roll_id == roll_id,
                                             RollLine.exempt.is_(False)).subquery()
    found = dict(uow.session.execute(select(inner.c.bin, func.count()).group_by(inner.c.bin))
                 .all())
    counts = [int(found.get(k, 0)) for k in range(n)]
    bins = [Bin(from_cents_int(edges[k]), from_cents_int(edges[k + 1]), counts[k])
            for k in range(n)]
    return bins, core.chart(edges, counts)


def _reasons(uow: UnitOfWork, roll_id: int) -> list[tuple[str, int]]:
    """R-A2: the exempt lines counted by why (the parcel's owner kind and transfer)."""
    counts: dict[str, int] = {}
    for owner, transferred, n in uow.session.execute(
            select(Parcel.owner_kind, Parcel.transferred, func.count())
            .select_from(RollLine).join(Parcel, Parcel.id == RollLine.parcel_id)
            .where(RollLine.roll_id == roll_id, RollLine.exempt.is_(True))
            .group_by(Parcel.owner_kind, Parcel.transferred)):
        code = core.exemption_reason(owner, bool(transferred)) or "changed"
        counts[code] = counts.get(code, 0) + int(n)
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


@dataclass(frozen=True)
class ExemptParcel:
    parcel_id: int
    catastro: str
    address: str
    municipality: str
    owner_kind: str
    reason: str  # an EXEMPT_REASONS code


def exempt_page(uow: UnitOfWork, staff: Any, roll_id: int | str, *, limit: int, offset: int
                ) -> list[ExemptParcel]:
    """A page of the roll's exempt parcels by catastro number, each with why (R-A2)."""
    roll, _version, _fy = _roll(uow, staff, roll_id)
    return [ExemptParcel(pid, catastro, address, municipality, owner,
                         core.exemption_reason(owner, bool(transferred)) or "changed")
            for pid, catastro, address, municipality, owner, transferred in uow.session.execute(
                select(Parcel.id, Parcel.catastro, Parcel.address, Parcel.municipality,
                       Parcel.owner_kind, Parcel.transferred)
                .join(RollLine, RollLine.parcel_id == Parcel.id)
                .where(RollLine.roll_id == roll.id, RollLine.exempt.is_(True))
                .order_by(Parcel.catastro).limit(limit).offset(offset))]


# --- An amendment's differences per parcel (R-A5) --------------------------------------------

def _earlier(uow: UnitOfWork, version: BudgetVersion) -> list[int]:
    """The ids of the budget's versions before this one (a handful)."""
    return list(uow.session.scalars(select(BudgetVersion.id).where(
        BudgetVersion.budget_id == version.budget_id, BudgetVersion.version < version.version)))


def _amendment(uow: UnitOfWork, version: BudgetVersion, fy: FiscalYear) -> bool:
    """Whether an earlier version of the year's budget has published assessments: then this
    roll amends them (R-A5)."""
    earlier = _earlier(uow, version)
    return bool(earlier) and uow.session.scalar(select(Assessment.id).where(
        Assessment.fiscal_year_id == fy.id,
        Assessment.budget_version_id.in_(earlier)).limit(1)) is not None


def _previous(fy_id: int, earlier: list[int]) -> Any:
    """(parcel_id, cents): each parcel's assessment under the earlier versions that no
    earlier version supersedes."""
    a, later = aliased(Assessment), aliased(Assessment)
    return select(a.parcel_id.label("parcel_id"), _cents(a.annual_amount).label("cents")).where(
        a.fiscal_year_id == fy_id, a.budget_version_id.in_(earlier),
        ~exists().where(later.supersedes_id == a.id, later.budget_version_id.in_(earlier))
    ).subquery()


def _changes(uow: UnitOfWork, roll: AssessmentRoll, version: BudgetVersion) -> Any:
    """(parcel_id, catastro, old cents or None, new cents, change): the roll's parcels whose
    amount differs from the previous one (a parcel newly assessed counts from 0; an exempt
    line is 0)."""
    prev = _previous(roll.fiscal_year_id, _earlier(uow, version))
    new = case((RollLine.exempt.is_(True), 0), else_=_cents(RollLine.amount))
    change = new - func.coalesce(prev.c.cents, 0)
    return (select(Parcel.id.label("parcel_id"), Parcel.catastro.label("catastro"),
                   prev.c.cents.label("old"), new.label("new"), change.label("change"))
            .select_from(RollLine).join(Parcel, Parcel.id == RollLine.parcel_id)
            .outerjoin(prev, prev.c.parcel_id == RollLine.parcel_id)
            .where(RollLine.roll_id == roll.id, change != 0))


@dataclass(frozen=True)
class Difference:
    """A parcel's amount before and after the amendment (`old` None: not assessed before)."""

    parcel_id: int
    catastro: str
    old: Decimal | None
    new: Decimal
    change: Decimal


@dataclass(frozen=True)
class Differences:
    """An amendment's totals: the parcels changed, how many go up and down, by how much."""

    changed: int
    increased: int
    decreased: int
    increases: Decimal
    decreases: Decimal  # a positive amount: what the decreases take off

    @property
    def net(self) -> Decimal:
        return self.increases - self.decreases


def differences(uow: UnitOfWork, staff: Any, roll_id: int | str) -> Differences | None:
    """R-A5: the totals of an amendment's differences per parcel (any staff); None when the
    roll amends nothing (no earlier version of its year published)."""
    roll, version, fy = _roll(uow, staff, roll_id)
    if not _amendment(uow, version, fy):
        return None
    d = _changes(uow, roll, version).subquery()
    up, down = d.c.change > 0, d.c.change < 0
    changed, increased, decreased, plus, minus = uow.session.execute(select(
        func.count(), func.coalesce(func.sum(case((up, 1), else_=0)), 0),
        func.coalesce(func.sum(case((down, 1), else_=0)), 0),
        func.coalesce(func.sum(case((up, d.c.change), else_=0)), 0),
        func.coalesce(func.sum(case((down, -d.c.change), else_=0)), 0))).one()
    return Differences(int(changed), int(increased), int(decreased),
                       from_cents_int(int(plus)), from_cents_int(int(minus)))


def _ordered(uow: UnitOfWork, roll_id: int | str, staff: Any) -> Any:
    roll, version, fy = _roll(uow, staff, roll_id)
    if not _amendment(uow, version, fy):
        raise NotFound()
    d = _changes(uow, roll, version).subquery()
    return select(d).order_by(func.abs(d.c.change).desc(), d.c.catastro)


def _difference(row: Any) -> Difference:
    return Difference(row.parcel_id, row.catastro,
                      None if row.old is None else from_cents_int(int(row.old)),
                      from_cents_int(int(row.new)), from_cents_int(int(row.change)))


def differences_page(uow: UnitOfWork, staff: Any, roll_id: int | str, *, limit: int,
                     offset: int) -> list[Difference]:
    """A page of an amendment's differences, the largest change (either way) first, then by
    catastro number. `NotFound` when the roll amends nothing."""
    stmt = _ordered(uow, roll_id, staff)
    return [_difference(r) for r in uow.session.execute(stmt.limit(limit).offset(offset))]


def all_differences(uow: UnitOfWork, staff: Any, roll_id: int | str) -> Iterator[Difference]:
    """Every difference in the page's order, streamed (`STREAM` rows per round trip; a
    server-side cursor on PostgreSQL): constant memory for any roll."""
    stmt = _ordered(uow, roll_id, staff)
    for row in uow.session.execute(stmt.execution_options(yield_per=STREAM)):
        yield _difference(row)


__all__ = ["TOP", "Bin", "Difference", "Differences", "ExemptParcel", "Fixed", "Review",
           "Share", "all_differences", "differences", "differences_page",
           "exempt_page", "review"]
