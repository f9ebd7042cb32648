"""Fiscal years and the Board's budget versions (R-A1): drafted, adopted, amended.

An adopted version is never edited: an amendment is a new version (`amend`), adopted in turn.
The total to assess is the sum of the lines' parts financed by assessments (R-A1 (3)).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy import func, select

from portal import clock
from portal.core import budget as core_budget
from portal.core.errors import CalcError
from portal.core.params import fiscal_year_label
from portal.db import UnitOfWork
from portal.models import Budget, BudgetLine, BudgetVersion, FiscalYear
from portal.services import access, audit
from portal.services.errors import Conflict, InvalidInput, NotFound


@dataclass(frozen=True)
class LineInput:
    kind: str
    description_es: str
    description_en: str
    amount: Decimal
    financed_by_assessments: Decimal


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
          reference: str = "", effective_on: date | None = None) -> BudgetVersion:
    """A new draft version of the fiscal year's budget (1 if none, else the next)."""
    access.require_staff(staff)
    core_lines = _core_lines(lines)
    budget = uow.session.scalar(select(Budget).where(Budget.fiscal_year_id == fiscal_year.id))
    if budget is None:
        budget = Budget(fiscal_year_id=fiscal_year.id)
        uow.session.add(budget)
        uow.session.flush()
    number = (uow.session.scalar(select(func.max(BudgetVersion.version))
                                 .where(BudgetVersion.budget_id == budget.id)) or 0) + 1
    total = sum((ln.financed_by_assessments for ln in core_lines), Decimal("0.00"))
    version = BudgetVersion(budget_id=budget.id, version=number, status="draft",
                            reference=reference, total_to_assess=total,
                            effective_on=effective_on if number > 1 else None,
                            created_by_id=staff.id)
    uow.session.add(version)
    uow.session.flush()
    for position, ln in enumerate(lines, start=1):
        uow.session.add(BudgetLine(version_id=version.id, position=position, kind=ln.kind,
                                   description_es=ln.description_es,
                                   description_en=ln.description_en, amount=ln.amount,
                                   financed_by_assessments=ln.financed_by_assessments))
    uow.session.flush()
    audit.record(uow, staff, "budget.drafted", version, after=audit.snapshot(version))
    return version


def adopt(uow: UnitOfWork, staff: Any, version_id: int, adopted_on: date) -> BudgetVersion:
    """Record the Board's adoption (R-A1): version 1 before the fiscal year starts; an
    amendment not before the version it amends, with its effective date."""
    access.require_staff(staff)
    version = uow.session.get(BudgetVersion, int(version_id))
    if version is None:
        raise NotFound()
    if version.status == "adopted":
        raise Conflict("budget_adopted")
    budget = uow.session.get(Budget, version.budget_id)
    fy = uow.session.get(FiscalYear, budget.fiscal_year_id)
    lines = list(uow.session.scalars(select(BudgetLine).where(BudgetLine.version_id ==
                                                              version.id)))
    core_lines = _core_lines([LineInput(ln.kind, ln.description_es, ln.description_en,
                                        ln.amount, ln.financed_by_assessments) for ln in lines])
    try:
        if version.version == 1:
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
    before = audit.snapshot(version)
    version.total_to_assess = core.total_to_assess
    version.status = "adopted"
    version.adopted_on = adopted_on
    version.adopted_at = clock.now()
    version.adopted_by_id = staff.id
    uow.session.flush()
    audit.record(uow, staff, "budget.adopted", version, before=before,
                 after=audit.snapshot(version))
    return version


def versions(uow: UnitOfWork, fiscal_year: FiscalYear) -> list[BudgetVersion]:
    return list(uow.session.scalars(
        select(BudgetVersion).join(Budget, Budget.id == BudgetVersion.budget_id)
        .where(Budget.fiscal_year_id == fiscal_year.id).order_by(BudgetVersion.version)))


def lines(uow: UnitOfWork, version_id: int) -> list[BudgetLine]:
    return list(uow.session.scalars(select(BudgetLine).where(BudgetLine.version_id ==
                                                             int(version_id))
                                    .order_by(BudgetLine.position)))
