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


def may_see_minimum(is_staff: bool, is_debtor: bool) -> bool:
    """R-C5, 21 LPRA § 5105: the minimum is confidential between the CRIM and the taxpayer:
    staff and that debtor may see it, nobody else."""
    return is_staff or is_debtor


def announce_minimum(best_offer: Decimal, minimum: Decimal) -> bool:
    """R-C5, 21 LPRA § 5105: announced at the auction only after the best offer is received,
    and only when that offer does not exceed the minimum."""
    return best_offer <= minimum


def adjudicate_to_crim(bids: int, minimum: Decimal) -> Decimal | None:
    """R-C6, 21 LPRA § 5105: with no bid, the CRIM may adjudicate the property to itself for
    the minimum; None when there was a bid."""
    return minimum if bids == 0 else None


BUYERS = ("third_party", "crim")


def shortfall_after_sale(sale_price: Decimal, taxes: Decimal, surcharges: Decimal,
                         interest: Decimal, buyer: str = "third_party") -> Decimal:
    """R-C6, 21 LPRA § 5105: what remains collectible (once the CRIM learns of other
    attachable property) when a sale does not cover the debtor's taxes, surcharges and
    interest. The buyer takes the property "as is". R-C8 (policy): only after a sale to a
    third party; the CRIM's adjudication to itself at the minimum leaves none. A debtor who
    owes more than this property's own debt (`property_debt`, the floor of R-C4) can have a
    shortfall; one whose whole debt is this property's cannot (the price is at least it)."""
    if buyer == "crim":
        return ZERO
    return max(ZERO, taxes + surcharges + interest - sale_price)
