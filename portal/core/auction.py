"""The CRIM's auction of attached real property: R-C4 to R-C6 (21 LPRA § 5105)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from portal.core.explain import N_, Trace
from portal.core.money import ZERO


@dataclass(frozen=True)
class AuctionMinimum:
    equity: Decimal
    credit: Decimal
    floor: Decimal
    minimum: Decimal
    trace: Trace


def auction_minimum(real_value: Decimal, mortgage_amount: Decimal, taxes: Decimal,
                    surcharges: Decimal, interest: Decimal, costs: Decimal,
                    penalties: Decimal = ZERO,
                    property_debt: Decimal | None = None) -> AuctionMinimum:
    """R-C4, 21 LPRA § 5105: the lesser of the equity and the credit, but never below what
    the property itself owes in taxes, surcharges and interest.

    R-C5: the result is confidential between the CRIM and the debtor; callers must show it
    only to staff and to that debtor (the portal's access policy enforces it).
    """
    equity = max(ZERO, real_value - mortgage_amount)
    credit = taxes + surcharges + interest + penalties + costs
    floor = taxes + surcharges + interest if property_debt is None else property_debt
    minimum = max(min(equity, credit), floor)
    t = Trace()
    t.add("R-C4", N_("Equity {equity} (value less mortgage, not below 0); credit {credit} "
                     "(taxes, surcharges, interest, penalties, costs); the minimum is the "
                     "lesser, but not below {floor}: {minimum}."),
          equity=equity, credit=credit, floor=floor, minimum=minimum)
    return AuctionMinimum(equity, credit, floor, minimum, t)


def shortfall_after_sale(sale_price: Decimal, taxes: Decimal, surcharges: Decimal,
                         interest: Decimal) -> Decimal:
    """R-C6: what remains collectible when a sale does not cover taxes, surcharges, interest."""
    return max(ZERO, taxes + surcharges + interest - sale_price)
