"""The Board's annual budget: R-A1 (23 LPRA § 6432(b)).

A budget is adopted before its fiscal year starts; the Authority may amend it, and each
amendment is a new version: an adopted version is never edited in place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from portal.core.errors import CalcError
from portal.core.money import ZERO

LINE_KINDS = (
    "project",  # (1)-(2) improvement projects and their construction cost
    "maintenance",  # (2) maintenance, repair, replacement, renovation
    "marketing",  # (2) marketing
    "operation",  # (2) operation
    "center",  # (5) Center improvements financed by assessments
)


@dataclass(frozen=True)
class BudgetLine:
    kind: str
    description: str
    amount: Decimal
    financed_by_assessments: Decimal  # the part of `amount` raised by assessments

    def __post_init__(self) -> None:
        if self.kind not in LINE_KINDS:
            raise CalcError(f"must be one of {', '.join(LINE_KINDS)}", field="kind")
        if self.amount < 0 or self.financed_by_assessments < 0:
            raise CalcError("must not be negative", field="amount")
        if self.financed_by_assessments > self.amount:
            raise CalcError("cannot exceed the line's amount", field="financed_by_assessments")


@dataclass(frozen=True)
class BudgetVersion:
    fiscal_year_start: date
    version: int
    adopted_on: date
    lines: tuple[BudgetLine, ...] = field(default_factory=tuple)
    reference: str = ""

    @property
    def total_to_assess(self) -> Decimal:
        """(3) The total to be imposed and collected as benefit assessments."""
        return sum((ln.financed_by_assessments for ln in self.lines), ZERO)

    @property
    def total_cost(self) -> Decimal:
        return sum((ln.amount for ln in self.lines), ZERO)


def adopt(fiscal_year_start: date, adopted_on: date, lines: tuple[BudgetLine, ...],
          reference: str = "") -> BudgetVersion:
    """R-A1, 23 LPRA § 6432(b): the first version, adopted before the fiscal year starts."""
    if adopted_on >= fiscal_year_start:
        raise CalcError("a budget is adopted before its fiscal year starts", field="adopted_on")
    return BudgetVersion(fiscal_year_start, 1, adopted_on, lines, reference)


def amend(previous: BudgetVersion, amended_on: date, lines: tuple[BudgetLine, ...],
          reference: str = "") -> BudgetVersion:
    """R-A1, 23 LPRA § 6432(b): an amendment is a new version; the previous one stays as it was.
    """
    if amended_on < previous.adopted_on:
        raise CalcError("an amendment cannot predate the version it amends",
                        field="amended_on")
    return BudgetVersion(previous.fiscal_year_start, previous.version + 1, amended_on, lines,
                         reference)
