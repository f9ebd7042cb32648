"""A loan's line of a lender's bill file: what is due on the account of a fiscal
year, read from the account's offer (`portal.core.offer`), never computed anew.

- The line pays every installment still owed that falls due on or before `due_by` (all of
  the year's when `due_by` is None), through the last of them: its amount is the offer's
  `amount_through` of that installment (R-A10: interest, late fees and costs first, then
  principal in due order), so paying the line is the payments' "installments through N"
  choice, priced by the same offer.
- Its last timely day: the offer's day when something is already late (R-A7), else the
  earliest last timely day (R-A6) of the installments it covers.
- The lump sum (R-A11) when the offer says it is eligible: its amount and last day.

Pure: an offer in, a line out.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from portal.core.money import ZERO
from portal.core.offer import Offer


@dataclass(frozen=True)
class Line:
    through: int | None  # the installment the line pays through; None: nothing owed
    amount: Decimal
    last_timely_day: date | None
    installments: tuple[int, ...]  # the installments it covers
    lump_sum: Decimal | None  # R-A11, when eligible
    lump_sum_by: date | None

    @property
    def owed(self) -> bool:
        return self.through is not None and self.amount > 0


#: Why a line cannot be paid as it was billed (the exceptions report), by code.
EXCEPTIONS = ("paid_by_you", "paid_by_owner", "paid", "changed", "in_progress", "ended")


def line(offer: Offer, due_by: date | None = None) -> Line:
    """The bill line of `offer`'s account: the installments owed due on or before `due_by`
    (every one owed when None)."""
    lump = offer.lump_sum
    lump_sum = lump.amount if lump.eligible else None
    lump_by = lump.deadline if lump.eligible else None
    owed = [o for o in offer.installments
            if o.owed > 0 and (due_by is None or o.due_date <= due_by
                               or o.status in ("delinquent", "due"))]
    if not owed:
        return Line(None, ZERO, None, (), lump_sum, lump_by)
    last = max(owed, key=lambda o: o.number)
    if any(o.status == "delinquent" for o in owed):
        by = offer.on
    else:
        by = min(o.last_timely_day for o in owed)
    return Line(last.number, last.amount_through, by, tuple(sorted(o.number for o in owed)),
                lump_sum, lump_by)


def exception(billed: Decimal, through: int | None, now: Line, *, paid_by_you: bool,
              paid_by_other: bool) -> str | None:
    """Why a billed line is not paid as billed today, or None: paid since the file (by the
    lender itself, by the owner or someone else, or settled some other way), or its amount
    changed (interest, a fee, an amendment: it is paid at today's amount)."""
    if not now.owed:
        if paid_by_you:
            return "paid_by_you"
        if paid_by_other:
            return "paid_by_owner"
        return "paid"
    if paid_by_other:
        return "paid_by_owner"
    if paid_by_you:
        return "paid_by_you"
    if now.amount != billed or now.through != through:
        return "changed"
    return None


__all__ = ["EXCEPTIONS", "Line", "exception", "line"]
