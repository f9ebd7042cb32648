"""What the mortgage lender pays or retains: R-B10 (Exoneración residencial (f))."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from portal.core.errors import CalcError
from portal.core.exemption import ExemptionInput, residential_exemption
from portal.core.explain import N_, Trace
from portal.core.money import ZERO, cents, split_evenly
from portal.core.property_tax import compare

CASES = ("billed_with_exemption", "billed_without_exemption", "new_structure")


@dataclass(frozen=True)
class EscrowResult:
    amount: Decimal
    discount: Decimal
    trace: Trace


def lender_escrow(case: str, *, prepayment_discount_rate: Decimal = ZERO,
                  net_tax: Decimal | None = None, gross_tax: Decimal | None = None,
                  exemption_amount: Decimal | None = None,
                  veteran_exemption_amount: Decimal = ZERO,
                  structure: ExemptionInput | None = None) -> EscrowResult:
    """R-B10, Exoneración (f): the amount the lender pays the CRIM (or retains).

    (i) bill issued with the exemption: the net tax less the prepayment discount;
    (ii) bill issued without it, right evidenced: the total less the exemption(s), less the
    prepayment discount on the difference; (iii) new structure built after January 1 and
    bought with a certification: retain the tax on the valuation above the exemption.
    """
    t = Trace()
    if case == "new_structure":
        if structure is None:
            raise CalcError("the inputs of residential_exemption are required", field="valuation")
        r = residential_exemption(structure)
        t.extend(r.trace)
        t.add("R-B10", N_("New structure bought with a certification: retain the tax on the "
                          "valuation above the exemption, {amount}."), amount=r.net_tax)
        return EscrowResult(r.net_tax, ZERO, t)
    if case == "billed_with_exemption":
        if net_tax is None:
            raise CalcError("required for billed_with_exemption", field="net_tax")
        net = net_tax
    elif case == "billed_without_exemption":
        if gross_tax is None:
            raise CalcError("required for billed_without_exemption", field="gross_tax")
        if exemption_amount is None:
            raise CalcError("required for billed_without_exemption", field="exemption_amount")
        net = gross_tax - exemption_amount - veteran_exemption_amount
    else:
        raise CalcError(f"must be one of {', '.join(CASES)}", field="case")
    net = max(net, ZERO)
    discount = cents(net * prepayment_discount_rate)
    t.add("R-B10", N_("Net tax {net} less the prepayment discount {discount}: the lender pays "
                      "{amount}."), net=net, discount=discount, amount=net - discount)
    return EscrowResult(net - discount, discount, t)


@dataclass(frozen=True)
class BillRetention:
    """One CRIM bill of the year (R-B10): what the lender pays or retains in each case."""

    issued_on: date
    billed_with: Decimal  # the bill issued with the exemption
    billed_without: Decimal  # the bill issued without it (gross less the veterans')
    with_exemption: EscrowResult  # (i) pay: the bill's net tax less the prepayment discount
    without_exemption: EscrowResult  # (ii) pay with the certification: the same net
    new_structure: Decimal  # (iii) retain: this bill's part of the year's tax above the cap


@dataclass(frozen=True)
class Retention:
    """The year's R-B10 figures for a loan's parcel, bill by bill, with the explanation."""

    fiscal_year_start: date
    discount_rate: Decimal
    bills: list[BillRetention]
    trace: Trace

    @property
    def total_with_exemption(self) -> Decimal:
        return sum((b.with_exemption.amount for b in self.bills), ZERO)

    @property
    def total_new_structure(self) -> Decimal:
        return sum((b.new_structure for b in self.bills), ZERO)


def retention(x: ExemptionInput, fy_start: date) -> Retention:
    """R-B10, Exoneración (f), bill by bill for the fiscal year (the CRIM's bills, July 1 and
    January 1, each with its prepayment discount: `property_tax.compare`):

    (i) a bill issued with the exemption: its net tax less the discount (`lender_escrow`);
    (ii) a bill issued without it, the right evidenced: that bill less its part of the
        exemption (the bill without less the bill with, so that both cases pay the same net)
        less the discount, paid with the certification;
    (iii) a new structure bought with a certification: retain the year's tax on the valuation
        above the exemption, split over the bills as the CRIM bills them (`split_evenly`).
    """
    cmp = compare(x, fy_start)
    rate = cmp.discount_rate
    # (iii) retains the tax above the exemption: `lender_escrow("new_structure")`'s amount,
    # the net tax of the residential exemption `compare` computed.
    year_new = cmp.result.net_tax
    new_parts = split_evenly(year_new, len(cmp.bills_with))
    out = []
    for with_, without, part in zip(cmp.bills_with, cmp.bills_without, new_parts):
        i = lender_escrow("billed_with_exemption", net_tax=with_.amount,
                          prepayment_discount_rate=rate)
        ii = lender_escrow("billed_without_exemption", gross_tax=without.amount,
                           exemption_amount=without.amount - with_.amount,
                           prepayment_discount_rate=rate)
        out.append(BillRetention(with_.issued_on, with_.amount, without.amount, i, ii, part))
    t = Trace()
    t.extend(cmp.trace)
    first = out[0]
    t.add("R-B10", N_("A bill issued with the exemption, {bill}: the lender pays it less the "
                      "prepayment discount, {amount}."),
          bill=first.billed_with, amount=first.with_exemption.amount)
    t.add("R-B10", N_("A bill issued without it, {bill}: the lender deducts the exemption "
                      "and the discount and pays {amount} with the certification."),
          bill=first.billed_without, amount=first.without_exemption.amount)
    t.add("R-B10", N_("A new structure bought after January 1 with a certification: the "
                      "lender retains the tax above the exemption, {amount} for the year."),
          amount=year_new)
    return Retention(fy_start, rate, out, t)
