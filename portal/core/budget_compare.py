"""Two versions of a budget side by side (R-A1: an amendment is a new version): per line the
old and new amounts and the change, and the totals. Pure: the lines come as plain values.

Lines are matched by their kind and Spanish description (what the Board calls the line), so
a line moved up or down is still itself; a line only in the old version is removed (its new
amounts are zero), one only in the new version is added.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from portal.core.money import ZERO


@dataclass(frozen=True)
class Line:
    kind: str
    description_es: str
    description_en: str
    amount: Decimal
    financed_by_assessments: Decimal

    @property
    def key(self) -> tuple[str, str]:
        return self.kind, " ".join(self.description_es.split()).casefold()


@dataclass(frozen=True)
class Figure:
    """One figure in both versions and its change (new − old)."""

    old: Decimal
    new: Decimal

    @property
    def change(self) -> Decimal:
        return self.new - self.old


@dataclass(frozen=True)
class LineChange:
    kind: str
    description_es: str
    description_en: str
    status: str  # "same", "changed", "added", "removed"
    amount: Figure
    financed: Figure


@dataclass(frozen=True)
class FixedChange:
    """A Board-fixed parcel amount (R-A3) in both versions (None where the version has none)."""

    parcel: str
    old: Decimal | None
    new: Decimal | None

    @property
    def change(self) -> Decimal:
        return (self.new or ZERO) - (self.old or ZERO)


@dataclass(frozen=True)
class Comparison:
    lines: tuple[LineChange, ...]
    total_cost: Figure
    total_to_assess: Figure  # R-A1 (3)
    fixed: tuple[FixedChange, ...]
    fixed_total: Figure

    @property
    def changed(self) -> bool:
        return any(ln.status != "same" for ln in self.lines) or \
            any(f.old != f.new for f in self.fixed)


def compare(old: Iterable[Line], new: Iterable[Line],
            old_fixed: dict[str, Decimal] | None = None,
            new_fixed: dict[str, Decimal] | None = None) -> Comparison:
    """`old` and `new` budget versions' lines (in their order), and their fixed amounts by
    parcel (catastro number): the lines in the new version's order, then the removed ones."""
    old, new = list(old), list(new)
    pool: dict[tuple[str, str], list[Line]] = {}
    for ln in old:
        pool.setdefault(ln.key, []).append(ln)
    out: list[LineChange] = []
    for ln in new:
        matches = pool.get(ln.key)
        before = matches.pop(0) if matches else None
        if before is None:
            out.append(LineChange(ln.kind, ln.description_es, ln.description_en, "added",
                                  Figure(ZERO, ln.amount),
                                  Figure(ZERO, ln.financed_by_assessments)))
            continue
        same = (before.amount == ln.amount
                and before.financed_by_assessments == ln.financed_by_assessments)
        out.append(LineChange(ln.kind, ln.description_es, ln.description_en,
                              "same" if same else "changed",
                              Figure(before.amount, ln.amount),
                              Figure(before.financed_by_assessments,
                                     ln.financed_by_assessments)))
    for rest in pool.values():
        for ln in rest:
            out.append(LineChange(ln.kind, ln.description_es, ln.description_en, "removed",
                                  Figure(ln.amount, ZERO),
                                  Figure(ln.financed_by_assessments, ZERO)))
    old_fixed, new_fixed = dict(old_fixed or {}), dict(new_fixed or {})
    fixed = tuple(FixedChange(p, old_fixed.get(p), new_fixed.get(p))
                  for p in sorted(set(old_fixed) | set(new_fixed)))
    return Comparison(
        tuple(out),
        Figure(sum((ln.amount for ln in old), ZERO), sum((ln.amount for ln in new), ZERO)),
        Figure(sum((ln.financed_by_assessments for ln in old), ZERO),
               sum((ln.financed_by_assessments for ln in new), ZERO)),
        fixed,
        Figure(sum(old_fixed.values(), ZERO), sum(new_fixed.values(), ZERO)))
