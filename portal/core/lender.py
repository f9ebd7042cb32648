"""What the mortgage lender pays or retains: R-B10 (Exoneración residencial (f))."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from portal.core.errors import CalcError
from portal.core.exemption import ExemptionInput, residential_exemption
from portal.core.explain import N_, Trace
from portal.core.money import ZERO, cents

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
