"""R-C8, 21 LPRA § 5105: the auction number selects the minimum rate the CRIM's regulation
sets (parameter `auction_minimum_rate`), applied to R-C4's lesser of equity and credit,
rounded to cents once, and never below what the property owes (the statute's floor)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from portal.core.auction import auction_minimum, minimum_rate_for
from portal.core.errors import CalcError, ParameterNotFound

D = Decimal


def test_the_rate_lowers_the_lesser_amount_and_the_floor_still_holds():
    """Equity 30,000.00 − 27,000.01 = 2,999.99; credit 4,000.00 + 150.00 + 250.00 + 0 +
    100.00 = 4,500.00; lesser 2,999.99. Rate 0.6667: 2,999.99 × 0.6667 = 2,000.093333 → 2,000.09;
    this property's floor 1,500.00 below it: minimum 2,000.09. With the floor 2,500.00 the
    floor wins: 2,500.00."""
    args = (D("30000.00"), D("27000.01"), D("4000.00"), D("150.00"), D("250.00"), D("100.00"))
    m = auction_minimum(*args, property_debt=D("1500.00"), minimum_rate=D("0.6667"),
                        auction_number=2)
    assert (m.equity, m.credit, m.floor, m.minimum) == (
        D("2999.99"), D("4500.00"), D("1500.00"), D("2000.09"))
    assert [s.rule for s in m.trace.steps] == ["R-C4", "R-C8"]
    assert m.trace.steps[1].params["regulated"] == D("2000.09")
    m = auction_minimum(*args, property_debt=D("2500.00"), minimum_rate=D("0.6667"),
                        auction_number=2)
    assert m.minimum == D("2500.00")


def test_rate_one_is_the_statutes_minimum_with_one_step():
    """The same at rate 1 with the floor 1,500.00: the lesser 2,999.99 itself; without a
    floor given it is the debt's 4,000.00 + 150.00 + 250.00 = 4,400.00, which wins."""
    m = auction_minimum(D("30000.00"), D("27000.01"), D("4000.00"), D("150.00"),
                        D("250.00"), D("100.00"), property_debt=D("1500.00"),
                        minimum_rate=D("1"))
    assert auction_minimum(D("30000.00"), D("27000.01"), D("4000.00"), D("150.00"),
                           D("250.00"), D("100.00")).minimum == D("4400.00")
    assert m.minimum == D("2999.99") and [s.rule for s in m.trace.steps] == ["R-C4"]


@pytest.mark.parametrize("rate", [D("0"), D("1.01")])
def test_a_rate_outside_zero_to_one_is_refused(rate):
    with pytest.raises(CalcError) as exc:
        auction_minimum(D("1"), D("0"), D("1"), D("0"), D("0"), D("0"), minimum_rate=rate)
    assert exc.value.field == "minimum_rate"


def test_the_parameter_names_each_auction_of_a_sale():
    """The demo's illustrative table: auctions 1 to 3 at the statute's minimum; a fourth is
    no auction the regulation sets; a year with no adopted table names none."""
    assert [minimum_rate_for(n, date(2026, 11, 2)) for n in (1, 2, 3)] == [D("1")] * 3
    with pytest.raises(ParameterNotFound) as exc:
        minimum_rate_for(4, date(2026, 11, 2))
    assert exc.value.field == "auction_number"
    with pytest.raises(ParameterNotFound):
        minimum_rate_for(1, date(2030, 1, 1))
