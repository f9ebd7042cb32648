"""Fiscal years and the Board's budget versions (R-A1): drafted, adopted, amended.

An adopted version is never edited: an amendment is a new version (`amend`: a draft copied
from the adopted one), adopted in turn. The total to assess is the sum of the lines' parts
financed by assessments (R-A1 (3)); a version may also carry parcels' amounts fixed by the
Board (R-A3), which together may not exceed it. Changing a budget is the administrator's
(`access.MANAGE`); every change is audit-logged.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy import func, select

from portal import clock
from portal.accounts import access, audit
from portal.accounts.errors import Conflict, InvalidInput, NotFound
from portal.core import budget as core_budget
from portal.core import budget_compare
from portal.core.allocation import ParcelFacts, is_assessable
from portal.core.errors import CalcError
from portal.core.params import fiscal_year_label
from portal.db import UnitOfWork
from portal.models import (
    Assessment,
    Budget,
    BudgetFixedAmount,
    BudgetLine,
    BudgetVersion,
    FiscalYear,
    Notice,
    Parcel,
)


@dataclass(frozen=True)
class LineInput:
    kind: str
    description_es: str
    description_en: str
    amount: Decimal
    financed_by_assessments: Decimal


@dataclass(frozen=True)
class FixedInput:
    """A parcel's amount fixed by the Board (R-A3), the parcel by its catastro number."""

    catastro: str
    amount: Decimal
    reason: str = ""


def ensure_fiscal_year(uow: UnitOfWork, starts_on: date) -> FiscalYear:
    """The fiscal year starting on July 1 `starts_on` (created if missing)."""
    if (starts_on.month, starts_on.day) != (7, 1):
        raise InvalidInput("invalid", field="starts_on")
    fy = uow.session.scalar(select(FiscalYear).where(FiscalYear.starts_on == starts_on))
    if fy is None:
        fy = FiscalYear(label=fiscal_year_label(starts_on), starts_on=starts_on,
                        ends_on=date(starts_on.year + 1, 6, 30))
        uow.session.add(fy)
        uow.session.flush()
    return fy


def _core_lines(lines: list[LineInput]) -> tuple[core_budget.BudgetLine, ...]:
    try:
        return tuple(core_budget.BudgetLine(ln.kind, ln.description_en, ln.amount,
                                            ln.financed_by_assessments) for ln in lines)
    except CalcError as exc:
        raise InvalidInput("calc", field=exc.field, message=exc.message) from exc


def draft(uow: UnitOfWork, staff: Any, fiscal_year: FiscalYear, lines: list[LineInput],
          reference: str = "", effective_on: date | None = None,
          fixed: list[FixedInput] | tuple[FixedInput, ...] = ()) -> BudgetVersion:
    """A new draft version of the fiscal year's budget (1 if none, else the next)."""
    access.require_staff_role(staff, *access.MANAGE)
    core_lines = _core_lines(lines)
    total = sum((ln.financed_by_assessments for ln in core_lines), Decimal("0.00"))
    fixed_rows = _fixed_rows(uow, fixed, total)
    budget = uow.session.scalar(select(Budget).where(Budget.fiscal_year_id == fiscal_year.id))
    if budget is None:
        budget = Budget(fiscal_year_id=fiscal_year.id)
        uow.session.add(budget)
        uow.session.flush()
    number = (uow.session.scalar(select(func.max(BudgetVersion.version))
                                 .where(BudgetVersion.budget_id == budget.id)) or 0) + 1
    version = BudgetVersion(budget_id=budget.id, version=number, status="draft",
                            reference=reference, total_to_assess=total,
                            effective_on=effective_on if number > 1 else None,
                            created_by_id=staff.id)
    uow.session.add(version)
    uow.session.flush()
    _write_content(uow, version, lines, fixed_rows)
    uow.session.flush()
    audit.record(uow, staff, "budget.drafted", version, after=_content(uow, version))
    return version


def adopt(uow: UnitOfWork, staff: Any, version_id: int, adopted_on: date, *,
          late: bool = False) -> BudgetVersion:
    """Record the Board's adoption (R-A1): version 1 before the fiscal year starts; an
    amendment not before the version it amends, with its effective date.

    R-A1 says the Board adopts the budget before the fiscal year starts. A first version
    adopted on or after that day is refused (`Conflict("budget_late")`, with the year's
    first day) unless `late` says the staff saw that warning and records it anyway (the
    Board did adopt it late): the audit record keeps `late`."""
    access.require_staff_role(staff, *access.MANAGE)
    version = uow.session.get(BudgetVersion, int(version_id))
    if version is None:
        raise NotFound()
    if version.status == "adopted":
        raise Conflict("budget_adopted")
    if adopted_on > clock.today():  # a date that has not come: the Board has not adopted it
        raise InvalidInput("adopted_in_future", field="adopted_on", today=clock.today())
    budget = uow.session.get(Budget, version.budget_id)
    fy = uow.session.get(FiscalYear, budget.fiscal_year_id)
    lines = list(uow.session.scalars(select(BudgetLine).where(BudgetLine.version_id ==
                                                              version.id)))
    core_lines = _core_lines([LineInput(ln.kind, ln.description_es, ln.description_en,
                                        ln.amount, ln.financed_by_assessments) for ln in lines])
    try:
        if version.version == 1 and adopted_on >= fy.starts_on:
            if not late:
                raise Conflict("budget_late", starts_on=fy.starts_on)
            # R-A1's "before the fiscal year starts" was not met: recorded as the Board did
            # it, the staff having confirmed the warning (the core's adopt refuses it).
            core = core_budget.BudgetVersion(fy.starts_on, 1, adopted_on, core_lines,
                                             version.reference)
        elif version.version == 1:
            core = core_budget.adopt(fy.starts_on, adopted_on, core_lines, version.reference)
        else:
            prev = uow.session.scalar(select(BudgetVersion).where(
                BudgetVersion.budget_id == budget.id,
                BudgetVersion.version == version.version - 1))
            if prev is None or prev.status != "adopted":
                raise Conflict("budget_not_adopted")
            core = core_budget.amend(
                core_budget.BudgetVersion(fy.starts_on, prev.version, prev.adopted_on),
                adopted_on, core_lines, version.reference)
            if version.effective_on is None:
                version.effective_on = adopted_on
    except CalcError as exc:
        raise InvalidInput("calc", field=exc.field, message=exc.message) from exc
    _fixed_rows(uow, [FixedInput(str(f.parcel_id), f.amount) for f in
                      fixed_amounts(uow, version.id)], core.total_to_assess, by_id=True)
    before = audit.snapshot(version)
    version.total_to_assess = core.total_to_assess
    version.status = "adopted"
    version.adopted_on = adopted_on
    version.adopted_at = clock.now()
    version.adopted_by_id = staff.id
    uow.session.flush()
    audit.record(uow, staff, "budget.adopted", version, before=before,
                 after={**audit.snapshot(version), "late": bool(late and version.version == 1
                                                               and adopted_on >= fy.starts_on)})
    return version


def correct_adoption_date(uow: UnitOfWork, staff: Any, version_id: int, adopted_on: date
                          ) -> BudgetVersion:
    """Correct an adopted version's adoption date as staff mistyped it, before any notice of
    its assessments goes out (`Conflict("notices_sent")` after): not after today
    (`adopted_in_future`), version 1 before the fiscal year unless it was recorded late
    (`budget_late`), an amendment not before the version it amends nor after the next one
    (`calc`). The audit record keeps the old and the new date (R-A1)."""
    access.require_staff_role(staff, *access.MANAGE)
    version = uow.session.get(BudgetVersion, int(version_id))
    if version is None:
        raise NotFound()
    if version.status != "adopted":
        raise Conflict("budget_not_adopted")
    if adoption_locked(uow, version):
        raise Conflict("notices_sent")
    if adopted_on > clock.today():
        raise InvalidInput("adopted_in_future", field="adopted_on", today=clock.today())
    budget = uow.session.get(Budget, version.budget_id)
    fy = uow.session.get(FiscalYear, budget.fiscal_year_id)
    old = version.adopted_on
    if version.version == 1 and adopted_on >= fy.starts_on and old < fy.starts_on:
        raise Conflict("budget_late", starts_on=fy.starts_on)
    around = {v.version: v.adopted_on for v in uow.session.scalars(select(BudgetVersion).where(
        BudgetVersion.budget_id == budget.id, BudgetVersion.status == "adopted"))}
    before_it, after_it = around.get(version.version - 1), around.get(version.version + 1)
    if (before_it and adopted_on < before_it) or (after_it and adopted_on > after_it):
        raise InvalidInput("calc", field="adopted_on")
    if adopted_on == old:
        return version
    was = {"adopted_on": old, "effective_on": version.effective_on}
    if version.effective_on == old:
        version.effective_on = adopted_on
    version.adopted_on = adopted_on
    uow.session.flush()
    audit.record(uow, staff, "budget.adoption_date_corrected", version, before=was,
                 after={"adopted_on": adopted_on, "effective_on": version.effective_on})
    return version


def adoption_locked(uow: UnitOfWork, version: BudgetVersion) -> bool:
    """Has a notice of an assessment of this version gone out (its date is then on paper)?"""
    return uow.session.scalar(select(func.count()).select_from(Notice).join(
        Assessment, Assessment.id == Notice.assessment_id).where(
        Assessment.budget_version_id == version.id)) > 0


def is_late(fiscal_year: FiscalYear, version: BudgetVersion, adopted_on: date) -> bool:
    """Would adopting `version` on `adopted_on` be after its fiscal year began (R-A1)?"""
    return version.version == 1 and adopted_on >= fiscal_year.starts_on


def update_draft(uow: UnitOfWork, staff: Any, version_id: int, lines: list[LineInput],
                 reference: str = "", fixed: list[FixedInput] | tuple[FixedInput, ...] = ()
                 ) -> BudgetVersion:
    """Replace a draft's lines, reference and fixed amounts; an adopted version is never
    edited (`Conflict("budget_adopted")`, R-A1)."""
    version = _draft_of(uow, staff, version_id)
    core_lines = _core_lines(lines)
    total = sum((ln.financed_by_assessments for ln in core_lines), Decimal("0.00"))
    fixed_rows = _fixed_rows(uow, fixed, total)
    before = _content(uow, version)
    _delete_content(uow, version)
    _write_content(uow, version, lines, fixed_rows)
    version.reference = reference
    version.total_to_assess = total
    uow.session.flush()
    uow.session.expire(version, ["lines", "fixed_amounts"])
    audit.record(uow, staff, "budget.edited", version, before=before,
                 after=_content(uow, version))
    return version


def discard_draft(uow: UnitOfWork, staff: Any, version_id: int) -> FiscalYear:
    """Delete a draft version with its lines and fixed amounts (drafted by mistake, or an
    amendment the Board did not adopt); the budget goes too when it has no version left.
    An adopted version is never deleted (`Conflict("budget_adopted")`, R-A1). The audit
    record keeps what the draft held. Returns its fiscal year."""
    version = _draft_of(uow, staff, version_id)
    budget = uow.session.get(Budget, version.budget_id)
    fy = uow.session.get(FiscalYear, budget.fiscal_year_id)
    before = _content(uow, version)
    _delete_content(uow, version)
    uow.session.delete(version)
    uow.session.flush()
    if uow.session.scalar(select(BudgetVersion.id).where(
            BudgetVersion.budget_id == budget.id).limit(1)) is None:
        uow.session.delete(budget)
        uow.session.flush()
    audit.record(uow, staff, "budget.draft_discarded", object_type="budget_versions",
                 object_id=before["id"], before=before)
    return fy


def amend(uow: UnitOfWork, staff: Any, version_id: int) -> BudgetVersion:
    """R-A1: an amendment of the adopted version `version_id` — a new draft version with a
    copy of its lines and fixed amounts, edited and adopted in turn; the adopted version
    stays as it was. Only the latest version is amended, and only once it is adopted
    (`Conflict("budget_not_adopted")`, `Conflict("budget_draft_exists")`)."""
    access.require_staff_role(staff, *access.MANAGE)
    source = uow.session.get(BudgetVersion, access.parse_id(version_id))
    if source is None:
        raise NotFound()
    latest = uow.session.scalar(select(BudgetVersion).where(
        BudgetVersion.budget_id == source.budget_id).order_by(BudgetVersion.version.desc())
        .limit(1))
    if latest.status != "adopted":
        raise Conflict("budget_draft_exists", version_id=latest.id)
    if source.id != latest.id:
        raise Conflict("budget_not_latest", version_id=latest.id)
    budget = uow.session.get(Budget, source.budget_id)
    fy = uow.session.get(FiscalYear, budget.fiscal_year_id)
    parcels = dict(uow.session.execute(
        select(Parcel.id, Parcel.catastro).join(
            BudgetFixedAmount, BudgetFixedAmount.parcel_id == Parcel.id)
        .where(BudgetFixedAmount.version_id == source.id)).all())
    copy = draft(uow, staff, fy,
                 [LineInput(ln.kind, ln.description_es, ln.description_en, ln.amount,
                            ln.financed_by_assessments) for ln in lines(uow, source.id)],
                 reference="",
                 fixed=[FixedInput(parcels[f.parcel_id], f.amount, f.reason)
                        for f in fixed_amounts(uow, source.id)])
    audit.record(uow, staff, "budget.amendment_started", copy,
                 after={"amends": source.id, "version": copy.version})
    return copy


def _draft_of(uow: UnitOfWork, staff: Any, version_id: int | str) -> BudgetVersion:
    """The draft version `version_id`, for an administrator to change (`access.MANAGE`);
    `Conflict("budget_adopted")` for an adopted one (R-A1: never edited)."""
    access.require_staff_role(staff, *access.MANAGE)
    version = uow.session.get(BudgetVersion, access.parse_id(version_id))
    if version is None:
        raise NotFound()
    if version.status == "adopted":
        raise Conflict("budget_adopted")
    return version


def _delete_content(uow: UnitOfWork, version: BudgetVersion) -> None:
    for row in [*lines(uow, version.id), *fixed_amounts(uow, version.id)]:
        uow.session.delete(row)
    uow.session.flush()


def _write_content(uow: UnitOfWork, version: BudgetVersion, lines: list[LineInput],
                   fixed_rows: list[tuple[int, Decimal, str]]) -> None:
    """A draft's lines (in their order) and fixed amounts (`_fixed_rows`)."""
    for position, ln in enumerate(lines, start=1):
        uow.session.add(BudgetLine(version_id=version.id, position=position, kind=ln.kind,
                                   description_es=ln.description_es,
                                   description_en=ln.description_en, amount=ln.amount,
                                   financed_by_assessments=ln.financed_by_assessments))
    for parcel_id, amount, reason in fixed_rows:
        uow.session.add(BudgetFixedAmount(version_id=version.id, parcel_id=parcel_id,
                                          amount=amount, reason=reason))


def fixed_amounts(uow: UnitOfWork, version_id: int) -> list[BudgetFixedAmount]:
    return list(uow.session.scalars(select(BudgetFixedAmount).where(
        BudgetFixedAmount.version_id == int(version_id)).order_by(BudgetFixedAmount.id)))


def _fixed_rows(uow: UnitOfWork, fixed: Any, total: Decimal, *, by_id: bool = False
                ) -> list[tuple[int, Decimal, str]]:
    """(parcel id, amount, reason) for the Board's fixed amounts (R-A3): each parcel exists
    (by catastro number), is assessable (R-A2: an exempt parcel takes no amount) and appears
    once; together they do not exceed the total to assess (R-A3)."""
    rows: list[tuple[int, Decimal, str]] = []
    seen: set[int] = set()
    for k, f in enumerate(fixed):
        key = str(f.catastro).strip()
        where = Parcel.id == int(key) if by_id else Parcel.catastro == key
        p = uow.session.execute(select(Parcel.id, Parcel.benefit_units, Parcel.owner_kind,
                                       Parcel.transferred, Parcel.tax_incentive_exempt)
                                .where(where)).first()
        if p is None:
            raise InvalidInput("fixed_unknown_parcel", field=f"fixed.{k}", catastro=key)
        if not is_assessable(ParcelFacts(str(p.id), p.benefit_units, p.owner_kind,
                                         p.transferred, p.tax_incentive_exempt)):
            raise InvalidInput("fixed_exempt_parcel", field=f"fixed.{k}", catastro=key)
        if p.id in seen:
            raise InvalidInput("fixed_twice", field=f"fixed.{k}", catastro=key)
        if f.amount < 0:
            raise InvalidInput("calc", field=f"fixed.{k}", message="must not be negative")
        seen.add(p.id)
        rows.append((p.id, f.amount, (f.reason or "").strip()))
    fixed_total = sum((amount for _, amount, _ in rows), Decimal("0.00"))
    if fixed_total > total:
        raise InvalidInput("fixed_over_total", field="fixed", fixed=fixed_total, total=total)
    return rows


def _content(uow: UnitOfWork, version: BudgetVersion) -> dict:
    """The version with its lines and fixed amounts, for the audit record."""
    return {**audit.snapshot(version),
            "lines": [audit.snapshot(ln, exclude=("id", "version_id"))
                      for ln in lines(uow, version.id)],
            "fixed": [audit.snapshot(f, exclude=("id", "version_id"))
                      for f in fixed_amounts(uow, version.id)]}


@dataclass(frozen=True)
class VersionView:
    version: BudgetVersion
    fiscal_year: FiscalYear
    lines: list[BudgetLine]
    fixed: list[tuple[BudgetFixedAmount, str]]  # (fixed amount, the parcel's catastro)
    versions: list[BudgetVersion]  # every version of the same budget
    total_cost: Decimal  # the lines' costs (core: BudgetVersion.total_cost)

    @property
    def is_latest(self) -> bool:
        return self.versions[-1].id == self.version.id


def overview(uow: UnitOfWork, staff: Any) -> list[tuple[FiscalYear, list[BudgetVersion]]]:
    """Every fiscal year (the latest first) with its budget's versions."""
    access.require_staff(staff)
    years = list(uow.session.scalars(select(FiscalYear).order_by(FiscalYear.starts_on.desc())))
    by_year: dict[int, list[BudgetVersion]] = {fy.id: [] for fy in years}
    for fy_id, v in uow.session.execute(
            select(Budget.fiscal_year_id, BudgetVersion)
            .join(BudgetVersion, BudgetVersion.budget_id == Budget.id)
            .order_by(BudgetVersion.version)).all():
        by_year.setdefault(fy_id, []).append(v)
    return [(fy, by_year[fy.id]) for fy in years]


def get(uow: UnitOfWork, staff: Any, version_id: int | str) -> VersionView:
    """A version with its fiscal year, lines, fixed amounts and its budget's versions;
    `NotFound` for a bad id."""
    access.require_staff(staff)
    version = uow.session.get(BudgetVersion, access.parse_id(version_id))
    if version is None:
        raise NotFound()
    budget = uow.session.get(Budget, version.budget_id)
    fy = uow.session.get(FiscalYear, budget.fiscal_year_id)
    fixed = [(f, catastro) for f, catastro in uow.session.execute(
        select(BudgetFixedAmount, Parcel.catastro)
        .join(Parcel, Parcel.id == BudgetFixedAmount.parcel_id)
        .where(BudgetFixedAmount.version_id == version.id)
        .order_by(BudgetFixedAmount.id))]
    all_versions = list(uow.session.scalars(select(BudgetVersion).where(
        BudgetVersion.budget_id == budget.id).order_by(BudgetVersion.version)))
    its_lines = lines(uow, version.id)
    core = core_budget.BudgetVersion(fy.starts_on, version.version,
                                     version.adopted_on or fy.starts_on, _core_lines(
                                         [LineInput(ln.kind, ln.description_es,
                                                    ln.description_en, ln.amount,
                                                    ln.financed_by_assessments)
                                          for ln in its_lines]))
    return VersionView(version, fy, its_lines, fixed, all_versions, core.total_cost)


def compare(uow: UnitOfWork, staff: Any, old_id: int | str, new_id: int | str
            ) -> tuple[VersionView, VersionView, budget_compare.Comparison]:
    """Two versions of the same budget side by side (`core.budget_compare`); `NotFound`
    when they are not versions of one budget."""
    old, new = get(uow, staff, old_id), get(uow, staff, new_id)
    if old.version.budget_id != new.version.budget_id:
        raise NotFound()

    def plain(view: VersionView) -> list[budget_compare.Line]:
        return [budget_compare.Line(ln.kind, ln.description_es, ln.description_en,
                                    ln.amount, ln.financed_by_assessments)
                for ln in view.lines]

    def fixed(view: VersionView) -> dict[str, Decimal]:
        return {catastro: f.amount for f, catastro in view.fixed}

    return old, new, budget_compare.compare(plain(old), plain(new), fixed(old), fixed(new))


def versions(uow: UnitOfWork, fiscal_year: FiscalYear) -> list[BudgetVersion]:
    return list(uow.session.scalars(
        select(BudgetVersion).join(Budget, Budget.id == BudgetVersion.budget_id)
        .where(Budget.fiscal_year_id == fiscal_year.id).order_by(BudgetVersion.version)))


def lines(uow: UnitOfWork, version_id: int) -> list[BudgetLine]:
    return list(uow.session.scalars(select(BudgetLine).where(BudgetLine.version_id ==
                                                             int(version_id))
                                    .order_by(BudgetLine.position)))
