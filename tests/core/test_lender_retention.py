"""R-B10 bill by bill (Exoneración residencial (f)): what the lender pays or retains for each
of the CRIM's bills in the three cases. The statute: "el acreedor pagará la contribución neta
impuesta según recibo menos el descuento correspondiente por pago anticipado" (i); billed
without the exemption, "rebajará del total de la contribución impuesta el importe que
corresponda a la exoneración y el descuento por pago anticipado" (ii); a new structure bought
with a certification, "retendrá la contribución que corresponda al exceso en valoración sobre
quince mil (15,000) dólares" (iii). Parameters: two bills (July 1, January 1), discount 10 %."""

from __future__ import annotations

from datetime import date
from decimal import Decimal as D

from portal.core.exemption import ExemptionInput
from portal.core.lender import lender_escrow, retention

FY = date(2026, 7, 1)


def test_a_home_valued_40000_at_0_1033():
    """Gross 4,132.00, exemption 1,549.50 (15,000 x 0.1033), net 2,582.50 for the year: two
    bills of 1,291.25 with it (2,066.00 without); each less 10 % = 1,162.12 (129.125 -> 129.13
    off, half up) in cases (i) and (ii); (iii) retains 2,582.50 / 2 = 1,291.25 a bill."""
    r = retention(ExemptionInput(valuation=D("40000"), tax_rate=D("0.1033")), FY)
    assert [b.issued_on for b in r.bills] == [date(2026, 7, 1), date(2027, 1, 1)]
    assert [b.billed_with for b in r.bills] == [D("1291.25"), D("1291.25")]
    assert [b.billed_without for b in r.bills] == [D("2066.00"), D("2066.00")]
    assert [b.with_exemption.discount for b in r.bills] == [D("129.13"), D("129.13")]
    assert [b.with_exemption.amount for b in r.bills] == [D("1162.12"), D("1162.12")]
    assert [b.without_exemption.amount for b in r.bills] == [D("1162.12"), D("1162.12")]
    assert [b.new_structure for b in r.bills] == [D("1291.25"), D("1291.25")]
    assert r.total_with_exemption == D("2324.24")
    assert r.total_new_structure == D("2582.50")
    rules = [s.rule for s in r.trace.steps]
    assert rules.count("R-B10") >= 3 and "R-B1" in rules


def test_an_odd_cent_goes_to_the_first_bill_in_every_case():
    """Net 1,000.01 for the year: bills of 500.01 and 500.00 (cents to the first bill, as the
    CRIM's split); each case follows the same bills."""
    x = ExemptionInput(valuation=D("15000"), tax_rate=D("0.1"), residential_cap=D("4999.9"))
    r = retention(x, FY)
    # gross 1,500.00, exemption 499.99 -> net 1,000.01
    assert [b.billed_with for b in r.bills] == [D("500.01"), D("500.00")]
    assert [b.new_structure for b in r.bills] == [D("500.01"), D("500.00")]
    assert sum(b.billed_with for b in r.bills) == D("1000.01")


def test_the_bill_by_bill_figures_are_lender_escrows():
    """Each bill's case (i) is `lender_escrow` of that bill: computed once, in the core."""
    x = ExemptionInput(valuation=D("60000"), tax_rate=D("0.0883"), veteran_exemption=D("5000"))
    r = retention(x, FY)
    for b in r.bills:
        assert b.with_exemption == lender_escrow("billed_with_exemption", net_tax=b.billed_with,
                                                 prepayment_discount_rate=D("0.10"))
        assert b.without_exemption.amount == b.with_exemption.amount


def test_a_home_below_the_cap_owes_nothing():
    r = retention(ExemptionInput(valuation=D("12000"), tax_rate=D("0.1033")), FY)
    assert all(b.with_exemption.amount == 0 and b.new_structure == 0 for b in r.bills)
    assert all(b.billed_without > 0 for b in r.bills)
