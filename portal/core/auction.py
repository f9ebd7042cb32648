"""The CRIM's auction of attached real property: R-C4 to R-C6 (21 LPRA § 5105)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from portal.core import params
from portal.core.errors import CalcError, ParameterNotFound
from portal.core.explain import N_, Rate, Trace
from portal.core.money import ZERO, cents

ONE = Decimal(1)


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
                    property_debt: Decimal | None = None,
                    minimum_rate: Decimal = ONE, auction_number: int = 1) -> AuctionMinimum:
    """R-C4, 21 LPRA § 5105: the lesser of the equity and the credit, but never below what
    the property itself owes in taxes, surcharges and interest (`property_debt`: this
    property's own, where the debtor owes more; by default the debt's taxes, surcharges and
    interest).

    R-C8: "the number of auctions to be held in each sale, as well as the minimum rate to be
    used in each, shall be determined by the Center through regulations": the auction
    `auction_number` uses `minimum_rate` (the CRIM's parameter `auction_minimum_rate` for that
    number, `minimum_rate_for`) times the lesser of equity and credit, rounded to cents, and
    still never below the floor, which the statute fixes for every auction. A rate of 1 (the
    default) is R-C4's minimum itself.

    R-C5: the result is confidential between the CRIM and the debtor; callers must show it
    only to staff and to that debtor (the portal's access policy enforces it).
    """
    if not ZERO < minimum_rate <= ONE:
        raise CalcError("must be more than 0 and at most 1", field="minimum_rate")
    equity = max(ZERO, real_value - mortgage_amount)
    credit = taxes + surcharges + interest + penalties + costs
    floor = taxes + surcharges + interest if property_debt is None else property_debt
    lesser = min(equity, credit)
    regulated = cents(lesser * minimum_rate)
    minimum = max(regulated, floor)
    t = Trace()
    if minimum_rate == ONE:
        t.add("R-C4", N_("Equity {equity} (value less mortgage, not below 0); credit {credit} "
                         "(taxes, surcharges, interest, penalties, costs); the minimum is the "
                         "lesser, but not below {floor}: {minimum}."),
              equity=equity, credit=credit, floor=floor, minimum=minimum)
    else:
        t.add("R-C4", N_("Equity {equity} (value less mortgage, not below 0); credit {credit} "
                         "(taxes, surcharges, interest, penalties, costs); the lesser is "
                         "{lesser}."), equity=equity, credit=credit, lesser=lesser)
        t.add("R-C8", N_("The CRIM's regulation sets auction {number} at {rate} of it: "
                         "{regulated}; never below {floor}, what the property owes in taxes, "
                         "surcharges and interest: the minimum is {minimum}."),
              number=auction_number, rate=Rate(minimum_rate), regulated=regulated, floor=floor,
              minimum=minimum)
    return AuctionMinimum(equity, credit, floor, minimum, t)


def minimum_rate_for(auction_number: int, on: date) -> Decimal:
    """R-C8, 21 LPRA § 5105: the share of R-C4's minimum that the CRIM's regulation sets for
    auction `auction_number` of a sale appraised on `on` (parameter `auction_minimum_rate`,
    a table by auction number). `ParameterNotFound` naming `auction_number` when the
    regulation sets no such auction, or none is in force on `on`."""
    table = params.value("auction_minimum_rate", on)
    try:
        return Decimal(table[str(auction_number)])
    except KeyError:
        raise ParameterNotFound(f"the CRIM's regulation sets no auction {auction_number}",
                                field="auction_number") from None


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
