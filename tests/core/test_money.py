"""Money: one rounding (ROUND_HALF_UP to the cent), strict parsing, exact splits.

RULES.md Conventions: "Money is `decimal.Decimal`, rounded to cents with ROUND_HALF_UP at the
points named here, never float." Python's `decimal` rounds half to even by default, so the
truth table below has the ties that tell the two apart (like Catala's
tests/arithmetic/good/rounding.catala_en), negatives included: half away from zero.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from portal.core.money import (
    ZERO,
    cents,
    fmt,
    fmt_display,
    from_minor_units,
    has_whole_cents,
    parse_money,
    split_evenly,
    to_minor_units,
)

D = Decimal

# value -> cents(value), ROUND_HALF_UP (ties away from zero).
ROUNDING_TABLE = [
    ("0", "0.00"),
    ("0.001", "0.00"),
    ("0.004", "0.00"),
    ("0.0049999999", "0.00"),
    ("0.005", "0.01"),  # banker's: 0.00
    ("0.0050000001", "0.01"),
    ("0.006", "0.01"),
    ("0.015", "0.02"),  # banker's: 0.02 too
    ("0.025", "0.03"),  # banker's: 0.02
    ("0.125", "0.13"),  # banker's: 0.12
    ("0.994", "0.99"),
    ("0.995", "1.00"),
    ("1.005", "1.01"),  # banker's: 1.00; as a float 1.005 is 1.00499... and rounds to 1.00
    ("2.675", "2.68"),  # as a float 2.675 is 2.67499... and rounds to 2.67
    ("5.0125", "5.01"),
    ("123456789.125", "123456789.13"),
    ("999999999999.995", "1000000000000.00"),
    ("1", "1.00"),
    ("1.1", "1.10"),
    ("-0.001", "0.00"),
    ("-0.004", "0.00"),
    ("-0.005", "-0.01"),  # half away from zero, not toward +infinity
    ("-0.015", "-0.02"),
    ("-0.025", "-0.03"),
    ("-0.125", "-0.13"),
    ("-1.005", "-1.01"),
    ("-2.675", "-2.68"),
    ("-0.995", "-1.00"),
    ("-5", "-5.00"),
]


@pytest.mark.parametrize(("value", "expected"), ROUNDING_TABLE)
def test_cents_rounds_half_up(value: str, expected: str) -> None:
    result = cents(D(value))
    assert result == D(expected)
    assert result.as_tuple().exponent == -2, "always exactly two decimals"


def test_cents_is_not_bankers_rounding() -> None:
    """The table has ties where ROUND_HALF_EVEN would differ: the helper must not be it."""
    from decimal import ROUND_HALF_EVEN
    differ = [v for v, _ in ROUNDING_TABLE
              if D(v).quantize(D("0.01"), rounding=ROUND_HALF_EVEN) != cents(D(v))]
    assert len(differ) >= 5


def test_cents_of_an_int() -> None:
    assert cents(5) == D("5.00")
    assert str(cents(0)) == "0.00"


@pytest.mark.parametrize("value", [0.1, 1.005, float("nan"), True, "1.00", None])
def test_cents_refuses_floats_bools_and_text(value: object) -> None:
    with pytest.raises(TypeError):
        cents(value)  # type: ignore[arg-type]


def test_cents_does_not_depend_on_the_context_rounding() -> None:
    import decimal
    with decimal.localcontext() as ctx:
        ctx.rounding = decimal.ROUND_HALF_EVEN
        assert cents(D("0.125")) == D("0.13")
        ctx.rounding = decimal.ROUND_DOWN
        assert cents(D("0.995")) == D("1.00")


# --- parse_money -------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("1234.50", "1234.50"),
    ("1234.5", "1234.50"),
    ("1234", "1234.00"),
    ("0", "0.00"),
    ("0.01", "0.01"),
    ("007.10", "7.10"),
    (" 12.30 ", "12.30"),
    (1234, "1234.00"),
    (0, "0.00"),
])
def test_parse_money_accepts_plain_amounts(text: str | int, expected: str) -> None:
    value = parse_money(text)
    assert isinstance(value, Decimal)
    assert value == D(expected)
    assert str(value) == expected


@pytest.mark.parametrize("text", [
    "1,000.00",  # thousands separator
    "1.000,00",  # Spanish-style decimal comma
    "12,5",
    "12.345",  # a tenth of a cent
    "12.300",  # three decimals, even if zero
    "-1",  # never negative
    "-0.01",
    "abc",
    "",
    "   ",
    "$12.00",
    "12.00 USD",
    "1e3",
    "1E-2",
    "NaN",
    "Infinity",
    "-Infinity",
    "+5",
    "1.2.3",
    "--1",
    "1-",
    "½",
    "١٢",  # Arabic-Indic digits: Decimal() would read them
    "1" * 27,  # beyond Decimal's 28 digits once in cents: refused, not an InvalidOperation
    "100000000000000000000.00",  # MAX_WHOLE_DIGITS (20) digits before the point is too many
])
def test_parse_money_rejects(text: str) -> None:
    with pytest.raises(ValueError):
        parse_money(text)


@pytest.mark.parametrize("value", [1.5, 0.1, 1e3, float("inf"), True, False, None, [1], D("1.5")])
def test_parse_money_rejects_non_text_values(value: object) -> None:
    """Floats (and bools, which are ints to Python) are never money."""
    with pytest.raises(ValueError):
        parse_money(value)  # type: ignore[arg-type]


def test_parse_money_rejects_negative_zero() -> None:
    """A minus sign is refused even on zero: "-0" would otherwise print as "-0.00"."""
    with pytest.raises(ValueError):
        parse_money("-0")
    with pytest.raises(ValueError):
        parse_money("-0.00")


def test_parse_money_negative_only_when_allowed() -> None:
    assert parse_money("-12.50", allow_negative=True) == D("-12.50")
    with pytest.raises(ValueError):
        parse_money("-12.505", allow_negative=True)


@pytest.mark.parametrize(("text", "whole"), [
    ("12.30", True), ("12.300", True), ("12", True), ("1E+5", True), ("-1.000", True),
    ("12.305", False), ("0.001", False), ("NaN", False), ("Infinity", False),
    ("999999999999999999999999999.990", True),  # any size: read off the digits
    ("999999999999999999999999999.999", False),
])
def test_has_whole_cents(text: str, whole: bool) -> None:
    assert has_whole_cents(D(text)) is whole


def test_parse_money_message_says_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="too large"):
        parse_money("1" * 27)
    with pytest.raises(ValueError, match="comma"):
        parse_money("1,000.00")
    with pytest.raises(ValueError, match="two decimals"):
        parse_money("12.345")
    with pytest.raises(ValueError, match="negative"):
        parse_money("-1")


# --- formatting and the Stripe boundary ----------------------------------------------------

@pytest.mark.parametrize(("value", "text", "display"), [
    (D("5"), "5.00", "$5.00"),
    (D("1234.5"), "1234.50", "$1,234.50"),
    (D("1234567.891"), "1234567.89", "$1,234,567.89"),
    (D("0.005"), "0.01", "$0.01"),
    (D("-12.5"), "-12.50", "-$12.50"),
])
def test_fmt(value: Decimal, text: str, display: str) -> None:
    assert fmt(value) == text
    assert fmt_display(value) == display


def test_minor_units_round_trip() -> None:
    assert to_minor_units(D("1234.56")) == 123456
    assert from_minor_units(123456) == D("1234.56")
    assert from_minor_units(5) == D("0.05")
    assert isinstance(to_minor_units(D("1.00")), int)
    with pytest.raises(ValueError):
        to_minor_units(D("1.005"))


# --- split_evenly (R-A4) -----------------------------------------------------------------

@pytest.mark.parametrize(("total", "count", "expected"), [
    ("1200.00", 12, ["100.00"] * 12),
    ("1000.00", 12, ["83.34"] * 4 + ["83.33"] * 8),
    ("0.11", 12, ["0.01"] * 11 + ["0.00"]),
    ("0.00", 3, ["0.00"] * 3),
    ("100.00", 3, ["33.34", "33.33", "33.33"]),
    ("100.01", 1, ["100.01"]),
    ("0.05", 6, ["0.01"] * 5 + ["0.00"]),
    # a decrease: split by magnitude, the earliest take the larger cut (R-A5)
    ("-0.05", 6, ["-0.01"] * 5 + ["0.00"]),
    ("-100.00", 3, ["-33.34", "-33.33", "-33.33"]),
])
def test_split_evenly(total: str, count: int, expected: list[str]) -> None:
    parts = split_evenly(D(total), count)
    assert parts == [D(x) for x in expected]
    assert sum(parts, ZERO) == D(total)


@pytest.mark.parametrize("count", [0, -1])
def test_split_evenly_needs_a_positive_count(count: int) -> None:
    with pytest.raises(ValueError):
        split_evenly(D("10.00"), count)


def test_split_evenly_refuses_fractions_of_a_cent() -> None:
    with pytest.raises(ValueError):
        split_evenly(D("10.005"), 2)
