"""The lump sum paid in advance: R-A11 (23 LPRA § 6432(f)).

The statement applies a lump-sum payment (statement.py); this module quotes one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from portal.core.calendar import roll_over
from portal.core.explain import N_, Rate, Trace
from portal.core.money import ZERO, cents


@dataclass(frozen=True)
class LumpSumQuote:
    eligible: bool
    discount: Decimal
    amount_due: Decimal
    deadline: date
    reason: str | None  # why not eligible: "late" | "not_first"
    trace: Trace


def lump_sum_quote(annual: Decimal, discount_rate: Decimal, deadline: date, on: date,
                   principal_paid: Decimal, closed_days: Iterable[date] = ()) -> LumpSumQuote:
    """R-A11, 23 LPRA § 6432(f): eligible on or before the (rolled) deadline with no principal
    paid yet; then the discount is cents(rate x annual), the same rate for every owner and
    lessee."""
    last = roll_over(deadline, closed_days)
    t = Trace()
    reason = None
    if on > last:
        reason = "late"
    elif principal_paid > 0:
        reason = "not_first"
    if reason is None:
        discount = cents(discount_rate * annual)
        t.add("R-A11", N_("Paid in one lump sum by {deadline}, the year's {annual} earns a "
                          "discount of {rate}, {discount}: pay {amount}."),
              deadline=last, annual=annual, rate=Rate(discount_rate), discount=discount,
              amount=annual - discount)
        return LumpSumQuote(True, discount, annual - discount, last, None, t)
    if reason == "late":
        t.add("R-A11", N_("The lump-sum discount was available until {deadline}."),
              deadline=last)
    else:
        t.add("R-A11", N_("The lump-sum discount is only for a year of which nothing has been "
                          "paid yet."))
    return LumpSumQuote(False, ZERO, max(ZERO, annual - principal_paid), last, reason, t)
