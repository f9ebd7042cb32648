"""The CRIM's property-tax bill, with and without the residential exemption (R-B1, R-B3,
R-B10, R-B11, R-B15, R-B16).

Pure: the figures come from `exemption.residential_exemption` (the same as `portal calc
residential_exemption`); this module adds the municipality's total rate (a dated parameter
table), the CRIM's bills (July 1 and January 1, `crim_billing_dates`) and the prepayment
discount per bill (`crim_prepayment_discount_rate`). The exemption lowers the property tax
only, never a District benefit assessment (R-A2).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from portal.core import params
from portal.core.calendar import roll_over
from portal.core.errors import CalcError
from portal.core.exemption import ExemptionInput, ExemptionResult, residential_exemption
from portal.core.explain import N_, Rate, Trace
from portal.core.money import ZERO, cents, split_evenly


def tax_rate(municipality: str, fy_start: date) -> Decimal:
    """R-B1: the municipality's total rate (basic + special + municipal) for the fiscal year
    (`property_tax_rate`, adopted by the CRIM per fiscal year); a municipality without one is
    an error naming it."""
    table = params.for_fiscal_year("property_tax_rate", fy_start)
    if municipality not in table:
        raise CalcError(f"no property-tax rate for {municipality}", field="municipality")
    return Decimal(table[municipality])


def billing_dates(fy_start: date) -> list[date]:
    """R-B10: the days the CRIM issues the year's bills ("07-01", "01-01": July 1 of the
    fiscal year's first calendar year, January 1 of its second)."""
    out = []
    for md in params.for_fiscal_year("crim_billing_dates", fy_start):
        month, day = (int(x) for x in md.split("-"))
        year = fy_start.year if month >= 7 else fy_start.year + 1
        out.append(date(year, month, day))
    return sorted(out)


@dataclass(frozen=True)
class Bill:
    """One of the year's bills (R-B10): issued on `issued_on`, `amount`, and the prepayment
    discount and what is paid with it."""

    issued_on: date
    amount: Decimal
    discount: Decimal
    with_discount: Decimal


@dataclass(frozen=True)
class BillComparison:
    """The year's property tax without and with the residential exemption."""

    fiscal_year_start: date
    tax_rate: Decimal
    discount_rate: Decimal
    result: ExemptionResult  # the core's figures (gross, exemption, veterans', net)
    net_without: Decimal  # gross less the veterans' exemption only
    bills_without: list[Bill]
    bills_with: list[Bill]
    trace: Trace

    @property
    def saving(self) -> Decimal:
        return self.net_without - self.result.net_tax


def bills(total: Decimal, fy_start: date, discount_rate: Decimal) -> list[Bill]:
    """R-B10: the year's tax split over the CRIM's bills (cents to the first bills, as
    `split_evenly`), each with its prepayment discount: cents(bill x rate)."""
    return _bills(total, billing_dates(fy_start), discount_rate)


def _bills(total: Decimal, days: list[date], discount_rate: Decimal) -> list[Bill]:
    out = []
    for day, amount in zip(days, split_evenly(total, len(days))):
        discount = cents(amount * discount_rate)
        out.append(Bill(day, amount, discount, amount - discount))
    return out


def compare(x: ExemptionInput, fy_start: date) -> BillComparison:
    """R-B1 to R-B4, R-B7, R-B10: the bill without the residential exemption (gross tax less
    the veterans' exemption, which stands on its own law) and with it (the net tax), each as
    the year's bills with the prepayment discount per bill."""
    res = residential_exemption(x)
    rate = Decimal(params.for_fiscal_year("crim_prepayment_discount_rate", fy_start))
    net_without = max(ZERO, res.gross_tax - res.veteran_exemption_amount)
    days = billing_dates(fy_start)
    without, with_ = _bills(net_without, days, rate), _bills(res.net_tax, days, rate)
    t = Trace()
    t.extend(res.trace)
    t.add("R-B10", N_("The CRIM bills the year in {n} bills, the first on {first} and the "
                      "last on {last}; paying a bill early takes off {rate} of it."),
          n=len(with_), first=with_[0].issued_on, last=with_[-1].issued_on, rate=Rate(rate))
    return BillComparison(fy_start, x.tax_rate, rate, res, net_without, without, with_, t)


def plan_last_day(filed_on: date, closed_days: tuple[date, ...] = ()) -> date:
    """R-B11, R-B16: the last day to formulate (request) the payment plan: the 30th day after
    the filing, rolled over a weekend, holiday or closed day."""
    from portal.core.deadlines import deadline
    return deadline("payment_plan", filed_on, closed_days=closed_days)


def filing_deadline(fy_start: date, closed_days: tuple[date, ...] = ()) -> date:
    """R-B9, R-B15: the CRIM's date for filing the year's certification (a month-day of the
    fiscal year's first calendar year), rolled over."""
    month, day = (int(x) for x in
                  params.for_fiscal_year("certification_filing_deadline", fy_start).split("-"))
    return roll_over(date(fy_start.year, month, day), closed_days)


def plan_terms(fy_start: date) -> tuple[int, Decimal]:
    """R-B16, Exoneración residencial (g): (the most monthly payments a plan may have, its
    down-payment rate)."""
    return (int(params.for_fiscal_year("plan_max_payments", fy_start)),
            Decimal(params.for_fiscal_year("plan_down_payment_rate", fy_start)))


def judged_on(fy_start: date) -> date:
    """R-B15, Exoneración residencial (b), (d), (g): fiscal year Y-Y+1 is judged on January 1
    of Y (use and debt)."""
    return date(fy_start.year, 1, 1)
