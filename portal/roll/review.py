"""The roll's review (J8), between computing and publishing: its figures read with aggregate
and LIMIT queries only, never every line (a roll may have 1.5 million), and an amendment's
differences per parcel.

The figures are measured once and kept with the roll (`RollReviewFigures`, `keep`): by the
computation's last transaction, which writes the lines (nothing else changes them: computing
again deletes the kept figures first, and an amendment is another version's roll), so a view
reads one row. Two parts depend on more than the lines and are measured again, on the next
view, when that changes: the exempt lines' reasons read the parcels' facts now (an import
that changes an owner kind or transfer drops them, `parcels_changed`), and an amendment's
totals read the year's assessments in force (kept with the greatest assessment id then;
assessments are only added, so a greater one means they may differ). A roll without kept
figures (computed before they were kept) gets them on its first view, in a transaction of
its own; a roll whose computation is still running (fewer lines than its counts) is
measured on each view and keeps nothing.

Amounts are compared and added exactly in SQL (`_Amounts`): as NUMERIC on PostgreSQL, as
integer cents on SQLite, which keeps NUMERIC values as binary floating point (a sum of a
million of them is exact only in cents). The service turns either into cents, then Decimal.

An amendment's previous amount of a parcel is its assessment under the budget's earlier
versions that no earlier version supersedes (`_previous`): for a roll still computed, the
assessment in force, which publishing would supersede; for a published one, the assessment
it superseded. So the same query serves before and after publication, and for any version.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, NamedTuple

from sqlalchemy import (
    BigInteger,
    Integer,
    Numeric,
    and_,
    bindparam,
    case,
    cast,
    delete,
    exists,
    func,
    literal,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import aliased

from portal.accounts import access
from portal.accounts.errors import NotFound
from portal.core import roll_review as core
from portal.core.money import from_cents_int, to_cents_int
from portal.db import UnitOfWork
from portal.models import (
    Assessment,
    AssessmentRoll,
    BudgetFixedAmount,
    BudgetVersion,
    FiscalYear,
    Parcel,
    RollLine,
    RollReviewFigures,
)

#: The largest shares listed.
TOP = 10
#: Rows of a streamed export read per round trip.
STREAM = 2000


class _Amounts:
    """Money in SQL, exact on both databases: NUMERIC as it is on PostgreSQL (a cast per row
    made the review's queries three times slower there), integer cents on SQLite."""

    def __init__(self, uow: UnitOfWork | None = None, *, numeric: bool | None = None):
        self.numeric = (numeric if uow is None
                        else uow.session.get_bind().dialect.name == "postgresql")

    def of(self, column: Any) -> Any:
        return column if self.numeric else cast(func.round(column * 100), BigInteger)

    def literal(self, cents: int) -> Any:
        return (literal(from_cents_int(cents), Numeric(14, 2)) if self.numeric
                else literal(cents, BigInteger))

    def literal_value(self, cents: int) -> Decimal | int:
        """What `literal` binds: an amount (NUMERIC) or its cents (SQLite)."""
        return from_cents_int(cents) if self.numeric else cents

    def cents(self, value: Any) -> int:
        """A value read back (an amount, or its cents) as integer cents."""
        return to_cents_int(Decimal(value)) if self.numeric else int(value)

    def amount(self, value: Any) -> Decimal:
        """A value read back as an amount: PostgreSQL's NUMERIC is one already (two places:
        the columns' scale), SQLite's cents are turned into one."""
        return value if self.numeric else from_cents_int(int(value))


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
    changes: Differences | None = None  # an amendment's totals (None: it amends nothing)

    @property
    def complete(self) -> bool:
        """Every line of the computation is written (a job still running has fewer)."""
        return self.lines == self.roll.assessed_count + self.roll.exempt_count

    @property
    def balanced(self) -> bool:
        """R-A3: the shares sum to the version's total to assess, to the cent."""
        return self.total_assessed == self.total_to_assess


#: The greatest assessment id (0: none): the year's assessments in force, on which an
#: amendment's totals depend, only grow (`Assessment` is append-only).
_NEWEST = select(func.coalesce(func.max(Assessment.id), 0)).scalar_subquery()

#: The roll with its budget version, fiscal year and kept figures, and the greatest
#: assessment id (built once, bound by id).
_ROLL = (select(AssessmentRoll, BudgetVersion, FiscalYear, RollReviewFigures,
                _NEWEST.label("newest"))
         .join(BudgetVersion, BudgetVersion.id == AssessmentRoll.budget_version_id)
         .join(FiscalYear, FiscalYear.id == AssessmentRoll.fiscal_year_id)
         .outerjoin(RollReviewFigures, RollReviewFigures.roll_id == AssessmentRoll.id)
         .where(AssessmentRoll.id == bindparam("id")))


def _roll(uow: UnitOfWork, staff: Any, roll_id: int | str
          ) -> tuple[AssessmentRoll, BudgetVersion, FiscalYear, RollReviewFigures | None, int]:
    """The roll with its budget version, fiscal year, kept figures (None: none kept) and the
    greatest assessment id, in one statement."""
    access.require_staff(staff)
    found = uow.session.execute(_ROLL, {"id": access.parse_id(roll_id)}).first()
    if found is None:
        raise NotFound()
    return found[0], found[1], found[2], found[3], int(found[4])


def review(uow: UnitOfWork, staff: Any, roll_id: int | str) -> Review:
    """A roll's figures (any staff): the total assessed against the total to assess (R-A3),
    the counts, the exempt parcels by reason (R-A2), the Board's fixed amounts, the largest
    shares and the histogram of the shares; for an amendment, its totals (R-A5). Read from
    the figures kept with the roll (`keep`): a roll without them, or with a part of them no
    longer true, gets them first, in a transaction of its own. `NotFound` for a roll that
    does not exist."""
    roll, version, fy, kept, newest = _roll(uow, staff, roll_id)
    if kept is None or kept.reasons is None or kept.seen != newest:
        values = _keep_apart(uow, roll.id)
    else:
        values = _kept(kept)
    fixed_amounts = [Fixed(pid, catastro, amount, reason, line_amount, bool(line_exempt))
                     for pid, catastro, amount, reason, line_amount, line_exempt in
                     uow.connection().execute(
                         _FIXED_AMOUNTS, {"roll": roll.id, "version": version.id})]
    low, high, counts = values["low"], values["high"], values["bins"]
    if low is None:
        bins, drawn = [], None
    else:
        edges = core.bin_edges(to_cents_int(low), to_cents_int(high))
        bins = [Bin(from_cents_int(edges[k]), from_cents_int(edges[k + 1]), counts[k])
                for k in range(len(counts))]
        drawn = core.chart(edges, counts)
    lines, exempt = values["lines"], values["exempt"]
    return Review(roll, version, fy, lines, lines - exempt, exempt,
                  sum(1 for f in fixed_amounts if f.line_amount is not None and not f.exempt),
                  values["total_assessed"], version.total_to_assess,
                  [(code, n) for code, n in values["reasons"]],
                  [Share(pid, catastro, from_cents_int(cents), Decimal(units))
                   for pid, catastro, cents, units in values["top"]],
                  fixed_amounts, bins, drawn, bool(values["amends"]),
                  _differences(values, version) if values["amends"] else None)


#: How long a view waits for a lock to keep a roll's figures (a computation starting again
#: holds the roll while it apportions every parcel) before it measures them without keeping.
LOCK_WAIT_MS = 5000


def _keep_apart(uow: UnitOfWork, roll_id: int) -> dict[str, Any]:
    """`keep` in a transaction of its own; when it waits for a lock longer than
    `LOCK_WAIT_MS` (or for SQLite's busy timeout: the caller's own transaction may hold what
    it waits for), the figures measured in the caller's transaction, not kept."""
    try:
        with UnitOfWork(uow.database) as own:
            if own.session.get_bind().dialect.name == "postgresql":
                own.session.execute(text(f"SET LOCAL lock_timeout = {int(LOCK_WAIT_MS)}"))
            return keep(own, roll_id, lock=True)
    except OperationalError:
        return keep(uow, roll_id, again=True, store=False)


#: The kept figures' columns.
_COLUMNS = tuple(c.key for c in RollReviewFigures.__table__.columns if c.key != "roll_id")


def _kept(row: RollReviewFigures) -> dict[str, Any]:
    return {c: getattr(row, c) for c in _COLUMNS}


def keep(uow: UnitOfWork, roll_id: int, *, lock: bool = False, again: bool = False,
         store: bool = True) -> dict[str, Any]:
    """The roll's review figures (`RollReviewFigures`' columns), measured where the kept ones
    lack them (all of them with `again`, as when its computation ends) and kept when the roll
    is complete (a computation still running has fewer lines: nothing kept; nothing either
    without `store`). With `lock` (a view's own transaction), the roll is locked for share
    first: a computation starting again (`Computation.begin` locks it for update, then
    deletes the kept figures) waits or is waited for, so no figures of other lines are kept.
    The kept row is then locked for update: an import that changes parcels' facts and drops
    the reasons (`parcels_changed`) waits for the view, so reasons measured before the
    import committed are dropped after it, never kept over its drop; two views at once
    take turns. Without a kept row yet, two views both measure and both write the same
    figures (an upsert)."""
    s = uow.session
    query = select(AssessmentRoll).where(AssessmentRoll.id == roll_id).execution_options(
        populate_existing=True)
    roll = s.scalars(query.with_for_update(read=True) if lock else query).one()
    version = s.get(BudgetVersion, roll.budget_version_id)
    fy = s.get(FiscalYear, roll.fiscal_year_id)
    if again:
        row = None
    elif lock:  # an import that drops the reasons (`parcels_changed`) waits for this view
        row = s.scalars(select(RollReviewFigures).where(RollReviewFigures.roll_id == roll_id)
                        .with_for_update().execution_options(populate_existing=True)).first()
    else:
        row = s.get(RollReviewFigures, roll_id, populate_existing=True)
    newest = s.scalar(select(_NEWEST))  # before the amendment's part is read
    am = _Amounts(uow)
    values = {} if row is None else _kept(row)
    if row is None:
        values.update(_measure_lines(uow, am, roll.id))
    if row is None or row.reasons is None:
        values["reasons"] = [[code, n] for code, n in _reasons(uow, roll.id)]
    if row is None or row.seen != newest:
        values.update(_measure_amendment(uow, am, roll, version, fy), seen=newest)
    if store and values["lines"] == roll.assessed_count + roll.exempt_count:
        insert = (postgresql.insert if am.numeric  # (numeric: PostgreSQL)
                  else sqlite.insert)(RollReviewFigures)
        s.execute(insert.values(roll_id=roll.id, **values).on_conflict_do_update(
            index_elements=[RollReviewFigures.roll_id], set_=values))
    return values


def forget(uow: UnitOfWork, roll_id: int) -> None:
    """The roll's kept figures dropped (its computation starts again)."""
    uow.session.execute(delete(RollReviewFigures).where(RollReviewFigures.roll_id == roll_id))


def parcels_changed(uow: UnitOfWork) -> None:
    """Parcels' facts changed (owner kind, transfer): every roll's exempt lines are counted
    by reason again on their next view (a parcel whose facts now say it is assessed is
    counted as changed, R-A2)."""
    uow.session.execute(update(RollReviewFigures).values(reasons=None))


def _measure_lines(uow: UnitOfWork, am: _Amounts, roll_id: int) -> dict[str, Any]:
    """The lines' figures, with aggregate and LIMIT queries: the counts, sum, smallest and
    largest share, the shares per bin and the largest shares."""
    run = uow.connection().execute
    lines, exempt, total, low, high = run(_REVIEW[am.numeric].counts, {"roll": roll_id}).one()
    low = None if low is None else am.cents(low)
    high = None if high is None else am.cents(high)
    return {"lines": int(lines), "exempt": int(exempt), "total_assessed": am.amount(total),
            "low": None if low is None else from_cents_int(low),
            "high": None if high is None else from_cents_int(high),
            "bins": [] if low is None else _histogram(uow, am, roll_id, low, high),
            "top": [[pid, catastro, to_cents_int(amount), str(units)]
                    for pid, catastro, amount, units in run(_TOP, {"roll": roll_id})]}


class _Built(NamedTuple):
    """`review`'s statements that read amounts, built once for each way of reading them
    (`_Amounts.numeric`), bound by the roll's id (:roll): the counts and sums; the assessed
    shares per bin of width :step from :start (`_histogram`), and all in bin 0 (one bin)."""

    counts: Any
    bins: Any
    one_bin: Any


def _built(numeric: bool) -> _Built:
    am = _Amounts(numeric=numeric)
    assessed = RollLine.exempt.is_(False)
    amount = am.of(RollLine.amount)
    kind = Numeric(14, 2) if numeric else BigInteger()
    start, step = bindparam("start", type_=kind), bindparam("step", type_=kind)
    # Whole widths, exactly: PostgreSQL's div() of NUMERICs, SQLite's / of integers (cents).
    which = func.div(amount - start, step) if numeric else (amount - start) // step
    of_roll = and_(RollLine.roll_id == bindparam("roll"), assessed)
    bins = select(which.label("bin")).where(of_roll).subquery()
    return _Built(
        select(func.count(),
               func.coalesce(func.sum(case((RollLine.exempt.is_(True), 1), else_=0)), 0),
               func.coalesce(func.sum(case((assessed, amount))), am.literal(0)),
               am.of(func.min(case((assessed, RollLine.amount)))),
               am.of(func.max(case((assessed, RollLine.amount)))))
        .where(RollLine.roll_id == bindparam("roll")),
        select(bins.c.bin, func.count()).group_by(bins.c.bin),
        select(literal(0), func.count()).where(of_roll))


_OF_ROLL = RollLine.roll_id == bindparam("roll")
_REVIEW = {numeric: _built(numeric) for numeric in (False, True)}
_FIXED_AMOUNTS = (
    select(Parcel.id, Parcel.catastro, BudgetFixedAmount.amount, BudgetFixedAmount.reason,
           RollLine.amount, RollLine.exempt)
    .join(Parcel, Parcel.id == BudgetFixedAmount.parcel_id)
    .outerjoin(RollLine, and_(RollLine.parcel_id == Parcel.id, _OF_ROLL))
    .where(BudgetFixedAmount.version_id == bindparam("version")).order_by(Parcel.catastro))
_TOP = (select(Parcel.id, Parcel.catastro, RollLine.amount, RollLine.benefit_units)
        .select_from(RollLine).join(Parcel, Parcel.id == RollLine.parcel_id)
        .where(_OF_ROLL, RollLine.exempt.is_(False))
        .order_by(RollLine.amount.desc(), Parcel.catastro).limit(TOP))
_REASONS = (select(Parcel.owner_kind, Parcel.transferred, func.count())
            .select_from(RollLine).join(Parcel, Parcel.id == RollLine.parcel_id)
            .where(_OF_ROLL, RollLine.exempt.is_(True))
            .group_by(Parcel.owner_kind, Parcel.transferred))


def _histogram(uow: UnitOfWork, am: _Amounts, roll_id: int, low: int, high: int
               ) -> list[int]:
    """The assessed shares counted per bin (`core.bin_edges`) in one grouped query. The bins
    have one width from the first edge, so a share's bin is the whole number of widths from
    the first edge to it (`_Built.bins`: `amount < edge[k + 1]` for bin k), the last bin
    closed (the highest share, on the last edge, counts in it)."""
    edges = core.bin_edges(low, high)
    n = len(edges) - 1
    counts = [0] * n
    params = ({"roll": roll_id, "start": am.literal_value(edges[0]),
               "step": am.literal_value(edges[1] - edges[0])} if n > 1 else None)
    for k, count in uow.connection().execute(
            _REVIEW[am.numeric].bins if n > 1 else _REVIEW[am.numeric].one_bin,
            params or {"roll": roll_id}):
        counts[min(int(k), n - 1)] += int(count)
    return counts


def _reasons(uow: UnitOfWork, roll_id: int) -> list[tuple[str, int]]:
    """R-A2: the exempt lines counted by why (the parcel's owner kind and transfer)."""
    counts: dict[str, int] = {}
    for owner, transferred, n in uow.connection().execute(_REASONS,
                                                                   {"roll": roll_id}):
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
    access.require_staff(staff)
    # The roll alone (no statement when `review` read it in this unit of work).
    roll = uow.session.get(AssessmentRoll, access.parse_id(roll_id))
    if roll is None:
        raise NotFound()
    reasons: dict[tuple[str, bool], str] = {}  # the core asked once per owner kind

    def reason(owner: str, transferred: bool) -> str:
        key = (owner, bool(transferred))
        if key not in reasons:
            reasons[key] = core.exemption_reason(owner, key[1]) or "changed"
        return reasons[key]

    return [ExemptParcel(pid, catastro, address, municipality, owner,
                         reason(owner, transferred))
            for pid, catastro, address, municipality, owner, transferred
            in uow.connection().execute(
                _EXEMPT_PAGE, {"roll": roll.id, "limit": limit, "offset": offset})]


_EXEMPT_PAGE = (select(Parcel.id, Parcel.catastro, Parcel.address, Parcel.municipality,
                       Parcel.owner_kind, Parcel.transferred)
                .join(RollLine, RollLine.parcel_id == Parcel.id)
                .where(_OF_ROLL, RollLine.exempt.is_(True))
                .order_by(Parcel.catastro).limit(bindparam("limit", type_=Integer))
                .offset(bindparam("offset", type_=Integer)))


# --- An amendment's differences per parcel (R-A5) --------------------------------------------

def _earlier(uow: UnitOfWork, version: BudgetVersion) -> list[int]:
    """The ids of the budget's versions before this one (a handful)."""
    return list(uow.session.scalars(select(BudgetVersion.id).where(
        BudgetVersion.budget_id == version.budget_id, BudgetVersion.version < version.version)))


def _amendment(uow: UnitOfWork, version: BudgetVersion, fy: FiscalYear) -> bool:
    """Whether an earlier version of the year's budget has published assessments: then this
    roll amends them (R-A5)."""
    return uow.connection().execute(_AMENDED, {
        "fy": fy.id, "budget": version.budget_id, "version": version.version}).first() \
        is not None


#: From the budget's earlier versions (a handful) to their assessments by the version's
#: index, not through every assessment of the year.
_AMENDED = select(literal(1)).select_from(BudgetVersion).where(
    BudgetVersion.budget_id == bindparam("budget"),
    BudgetVersion.version < bindparam("version"),
    exists().where(Assessment.budget_version_id == BudgetVersion.id,
                   Assessment.fiscal_year_id == bindparam("fy"))).limit(1)


def _previous(am: _Amounts, fy_id: int, earlier: list[int]) -> Any:
    """(parcel_id, amount): each parcel's assessment under the earlier versions that no
    earlier version supersedes. With one earlier version nothing of it supersedes anything
    of it (an amendment supersedes another version's assessment), so the test is left out:
    the common case reads the assessments once."""
    a, later = aliased(Assessment), aliased(Assessment)
    stmt = select(a.parcel_id.label("parcel_id"), am.of(a.annual_amount).label("amount"),
                  a.roll_id.label("roll_id")).where(
        a.fiscal_year_id == fy_id, a.budget_version_id.in_(earlier))
    if len(earlier) > 1:
        stmt = stmt.where(~exists().where(later.supersedes_id == a.id,
                                          later.budget_version_id.in_(earlier)))
    return stmt.subquery()


def _changes(uow: UnitOfWork, am: _Amounts, roll: AssessmentRoll, version: BudgetVersion,
             *, catastro: bool = True, earlier: list[int] | None = None) -> Any:
    """(parcel_id, [catastro,] old amount or None, new amount, change): the roll's parcels
    whose amount differs from the previous one (a parcel newly assessed counts from 0; an
    exempt line is 0). Without `catastro` (the totals) the parcels are not joined.
    `earlier`: `_earlier(uow, version)` when the caller has it."""
    prev = _previous(am, roll.fiscal_year_id,
                     _earlier(uow, version) if earlier is None else earlier)
    zero = am.literal(0)
    new = case((RollLine.exempt.is_(True), zero), else_=am.of(RollLine.amount))
    change = new - func.coalesce(prev.c.amount, zero)
    columns = [RollLine.parcel_id.label("parcel_id"), prev.c.amount.label("old"),
               new.label("new"), change.label("change")]
    stmt = select(*columns).select_from(RollLine)
    if catastro:
        stmt = stmt.add_columns(Parcel.catastro.label("catastro")).join(
            Parcel, Parcel.id == RollLine.parcel_id)
    return (stmt.outerjoin(prev, prev.c.parcel_id == RollLine.parcel_id)
            .where(RollLine.roll_id == roll.id, change != 0))


class Difference(NamedTuple):
    """A parcel's amount before and after the amendment (`old` None: not assessed before).
    A named tuple: the CSV makes one per changed parcel, and a tuple is made fast."""

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
    why: core.NetChange | None = None  # the net change's parts (the budget's change first)

    @property
    def net(self) -> Decimal:
        return self.increases - self.decreases


def _why(uow: UnitOfWork, am: _Amounts, roll: AssessmentRoll, earlier_ids: list[int]
         ) -> dict[str, Any]:
    """R-A5: the figures that explain the net change (`core.net_change`, less the new
    version's total), read with one aggregate query over the earlier assessments and one over
    the roll's lines (`earlier_ids`: the budget's versions before this one, `_earlier`)."""
    prev = _previous(am, roll.fiscal_year_id, earlier_ids)
    zero = am.literal(0)
    own, new = aliased(RollLine), aliased(RollLine)
    earlier, outside, removed = uow.session.execute(select(
        func.coalesce(func.sum(prev.c.amount), zero),
        func.coalesce(func.sum(case((or_(own.id.is_(None), own.exempt.is_(True)),
                                     prev.c.amount), else_=zero)), zero),
        func.coalesce(func.sum(case((new.id.is_(None), prev.c.amount), else_=zero)), zero))
        .select_from(prev)
        .outerjoin(own, and_(own.roll_id == prev.c.roll_id, own.parcel_id == prev.c.parcel_id))
        .outerjoin(new, and_(new.roll_id == roll.id, new.parcel_id == prev.c.parcel_id))
    ).one()
    assessed = uow.session.scalar(select(func.coalesce(func.sum(case(
        (RollLine.exempt.is_(True), zero), else_=am.of(RollLine.amount))), zero)).where(
        RollLine.roll_id == roll.id))
    before = uow.session.scalar(  # the latest earlier version with assessments in force
        select(BudgetVersion.total_to_assess).where(BudgetVersion.id.in_(
            select(Assessment.budget_version_id).where(
                Assessment.fiscal_year_id == roll.fiscal_year_id,
                Assessment.budget_version_id.in_(earlier_ids))))
        .order_by(BudgetVersion.version.desc()).limit(1))
    return {"total_before": before, "assessed_after": am.amount(assessed),
            "earlier": am.amount(earlier), "outside_roll": am.amount(outside),
            "removed": am.amount(removed)}


#: The kept figures of an amendment's part, None when the roll amends nothing.
_AMENDMENT = ("changed", "increased", "decreased", "increases", "decreases", "total_before",
              "earlier", "outside_roll", "removed", "assessed_after")


def _measure_amendment(uow: UnitOfWork, am: _Amounts, roll: AssessmentRoll,
                       version: BudgetVersion, fy: FiscalYear) -> dict[str, Any]:
    """Whether the roll amends an earlier version's assessments and, when it does, the totals
    of its differences per parcel and what explains its net change (R-A5)."""
    if not _amendment(uow, version, fy):
        return {"amends": False, **dict.fromkeys(_AMENDMENT)}
    earlier = _earlier(uow, version)
    d = _changes(uow, am, roll, version, catastro=False, earlier=earlier).subquery()
    up, down, zero = d.c.change > 0, d.c.change < 0, am.literal(0)
    changed, increased, decreased, plus, minus = uow.session.execute(select(
        func.count(), func.coalesce(func.sum(case((up, 1), else_=0)), 0),
        func.coalesce(func.sum(case((down, 1), else_=0)), 0),
        func.coalesce(func.sum(case((up, d.c.change), else_=zero)), zero),
        func.coalesce(func.sum(case((down, -d.c.change), else_=zero)), zero))).one()
    return {"amends": True, "changed": int(changed), "increased": int(increased),
            "decreased": int(decreased), "increases": am.amount(plus),
            "decreases": am.amount(minus), **_why(uow, am, roll, earlier)}


def _differences(values: dict[str, Any], version: BudgetVersion) -> Differences:
    """An amendment's totals from its figures (`keep`)."""
    return Differences(values["changed"], values["increased"], values["decreased"],
                       values["increases"], values["decreases"], core.net_change(
                           total_before=values["total_before"],
                           total_after=version.total_to_assess,
                           assessed_after=values["assessed_after"], earlier=values["earlier"],
                           outside_roll=values["outside_roll"], removed=values["removed"]))


def differences(uow: UnitOfWork, staff: Any, roll_id: int | str, *,
                of: Review | None = None) -> Differences | None:
    """R-A5: the totals of an amendment's differences per parcel (any staff); None when the
    roll amends nothing (no earlier version of its year published). `of`: the roll's
    `review`, read in this unit of work (not read again)."""
    if of is not None and of.roll.id == access.parse_id(roll_id):
        access.require_staff(staff)
        return of.changes
    return review(uow, staff, roll_id).changes


def _ordered(uow: UnitOfWork, roll_id: int | str, staff: Any, of: Review | None = None
             ) -> tuple[Any, _Amounts]:
    if of is not None and of.roll.id == access.parse_id(roll_id):
        access.require_staff(staff)
        roll, version, amends = of.roll, of.version, of.amendment
    else:
        roll, version, fy, _kept_figures, _newest = _roll(uow, staff, roll_id)
        amends = _amendment(uow, version, fy)
    if not amends:
        raise NotFound()
    am = _Amounts(uow)
    d = _changes(uow, am, roll, version).subquery()
    return select(d).order_by(func.abs(d.c.change).desc(), d.c.catastro), am


def _difference(am: _Amounts, row: Any) -> Difference:
    pid, old, new, change, catastro = row
    return Difference(pid, catastro, None if old is None else am.amount(old), am.amount(new),
                      am.amount(change))


def differences_page(uow: UnitOfWork, staff: Any, roll_id: int | str, *, limit: int,
                     offset: int, of: Review | None = None) -> list[Difference]:
    """A page of an amendment's differences, the largest change (either way) first, then by
    catastro number. `NotFound` when the roll amends nothing. `of`: the roll's `review`,
    read in this unit of work (its roll and whether it amends, not read again)."""
    stmt, am = _ordered(uow, roll_id, staff, of)
    return [_difference(am, r) for r in uow.session.execute(stmt.limit(limit).offset(offset))]


def all_differences(uow: UnitOfWork, staff: Any, roll_id: int | str) -> Iterator[Difference]:
    """Every difference in the page's order, streamed (`STREAM` rows per round trip; a
    server-side cursor on PostgreSQL): constant memory for any roll."""
    stmt, am = _ordered(uow, roll_id, staff)
    for row in uow.session.execute(stmt.execution_options(yield_per=STREAM)):
        yield _difference(am, row)


__all__ = ["TOP", "Bin", "Difference", "Differences", "ExemptParcel", "Fixed", "Review",
           "Share", "all_differences", "differences", "differences_page",
           "exempt_page", "forget", "keep", "parcels_changed", "review"]
