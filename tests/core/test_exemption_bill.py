"""The figures the certification wizard shows (J5): the bill without and with the residential
exemption, per CRIM bill with its prepayment discount (R-B1, R-B3, R-B10), each the same as
`portal calc residential_exemption` gives, worked by hand from the statute's rules."""

from __future__ import annotations

from datetime import date
from decimal import Decimal as D

import pytest

from portal.core import calc, property_tax
from portal.core.exemption import ExemptionInput

FY = date(2026, 7, 1)

CASES = [
    # (inputs, gross, exemption, veterans', net, net without, with: bills, without: bills)
    # The demo's home: 21,000 (land 4,200), San Juan 10.33 %: exempt 15,000 (the cap, R-B1);
    # gross 2,169.30, exemption 1,549.50, net 619.80 in two bills of 309.90, each 278.91 paid
    # early (less 10 %: 30.99); without it 1,084.65 a bill, 976.18 paid early (less 108.47).
    ({"valuation": "21000.00", "land_valuation": "4200.00", "tax_rate": "0.1033"},
     "2169.30", "1549.50", "0.00", "619.80", "2169.30",
     [("309.90", "278.91"), ("309.90", "278.91")],
     [("1084.65", "976.18"), ("1084.65", "976.18")]),
    # A veteran (R-B3): 20,000 less the veteran's 5,000 first; the residential exemption on
    # the 15,000 left; gross 2,066.00 = 1,549.50 + 516.50: nothing to pay with it; without
    # it, the veteran's exemption alone leaves 1,549.50 (774.75 a bill, 697.27 paid early).
    ({"valuation": "20000.00", "veteran_exemption": "5000.00", "tax_rate": "0.1033"},
     "2066.00", "1549.50", "516.50", "0.00", "1549.50",
     [("0.00", "0.00"), ("0.00", "0.00")],
     [("774.75", "697.27"), ("774.75", "697.27")]),
    # Half residential (R-B2), Carolina 10.58 %: 40,000 (land 10,000): R = 20,000, exempt
    # 15,000; gross 4,232.00, exemption 1,587.00, net 2,645.00: an odd cent to the first bill
    # is not needed (1,322.50 each, 1,190.25 paid early).
    ({"valuation": "40000.00", "land_valuation": "10000.00", "residential_fraction": "0.5",
      "tax_rate": "0.1058"},
     "4232.00", "1587.00", "0.00", "2645.00", "4232.00",
     [("1322.50", "1190.25"), ("1322.50", "1190.25")],
     [("2116.00", "1904.40"), ("2116.00", "1904.40")]),
    # An odd cent: 16,010.00 at 10.33 %: gross 1,653.83, exemption 1,549.50, net 104.33:
    # bills 52.17 and 52.16 (the extra cent first, as the District's plazos), early 46.95
    # (less 5.22) and 46.94.
    ({"valuation": "16010.00", "tax_rate": "0.1033"},
     "1653.83", "1549.50", "0.00", "104.33", "1653.83",
     [("52.17", "46.95"), ("52.16", "46.94")],
     [("826.92", "744.23"), ("826.91", "744.22")]),
]


def _input(d: dict) -> ExemptionInput:
    kw = {k: D(v) for k, v in d.items()}
    return ExemptionInput(**kw)


@pytest.mark.parametrize("inputs,gross,exemption,veteran,net,without,bills_with,bills_without",
                         CASES)
def test_the_wizards_figures(inputs, gross, exemption, veteran, net, without, bills_with,
                             bills_without):
    c = property_tax.compare(_input(inputs), FY)
    r = c.result
    assert (r.gross_tax, r.exemption_amount, r.veteran_exemption_amount, r.net_tax) == \
        (D(gross), D(exemption), D(veteran), D(net))
    assert c.net_without == D(without)
    assert [(b.amount, b.with_discount) for b in c.bills_with] == \
        [(D(a), D(e)) for a, e in bills_with]
    assert [(b.amount, b.with_discount) for b in c.bills_without] == \
        [(D(a), D(e)) for a, e in bills_without]
    assert [b.issued_on for b in c.bills_with] == [date(2026, 7, 1), date(2027, 1, 1)]
    assert sum(b.amount for b in c.bills_with) == r.net_tax  # R-B10: the bills add up
    # The same figures as `portal calc residential_exemption`.
    out = calc.run("residential_exemption", inputs)
    assert (out["gross_tax"], out["exemption_amount"], out["veteran_exemption_amount"],
            out["net_tax"]) == (gross, exemption, veteran, net)
    assert "R-B10" in c.trace.rules and "R-B1" in c.trace.rules


def test_rates_schedule_and_deadlines_are_dated_parameters():
    assert property_tax.tax_rate("San Juan", FY) == D("0.1033")
    assert property_tax.billing_dates(FY) == [date(2026, 7, 1), date(2027, 1, 1)]
    assert property_tax.plan_terms(FY) == (12, D(0))  # R-B16's defaults
    # R-B11: 30 days after a filing on 2026-12-04 is 2027-01-03, a Sunday: rolls to Monday.
    assert property_tax.plan_last_day(date(2026, 12, 4)) == date(2027, 1, 4)
    assert property_tax.judged_on(FY) == date(2026, 1, 1)  # R-B15
    from portal.core.errors import CalcError, ParameterNotFound
    with pytest.raises(CalcError):
        property_tax.tax_rate("Atlantis", FY)
    with pytest.raises(ParameterNotFound):
        property_tax.tax_rate("San Juan", date(2030, 7, 1))
