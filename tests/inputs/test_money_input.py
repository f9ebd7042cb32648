"""The one parser of typed amounts (`portal.money_input`): a truth table of what a person may
write and why each other thing is refused, in both locales and both languages."""

from __future__ import annotations

from decimal import Decimal

import pytest

from portal import i18n, money_input
from portal.money_input import MESSAGES, MoneyInputError, parse

ACCEPTED = [
    ("1500", "1500.00"), ("1,500.00", "1500.00"), ("1500.5", "1500.50"), ("$1,234.56", "1234.56"),
    ("  12 ", "12.00"), ("0", "0.00"), ("0.05", "0.05"), (".50", "0.50"),
    ("1,000,000.00", "1000000.00"), ("$ 7.00", "7.00"), ("999999999999.99", "999999999999.99"),
]

REFUSED = [
    ("", "required"), ("   ", "required"), (None, "required"),
    ("1e9", "exponent"), ("1.5E3", "exponent"), ("-2e2", "exponent"),
    ("1.500,00", "other_separators"), ("1.500", "other_separators"),
    ("12,5", "other_separators"), ("1500,00", "other_separators"),
    ("12.345.678,90", "other_separators"),
    ("abc", "not_a_number"), ("1,23.5", "not_a_number"), ("5.", "not_a_number"),
    ("--5", "not_a_number"), ("-", "not_a_number"), ("1 500", "not_a_number"),
    ("NaN", "not_a_number"),
    ("Infinity", "not_a_number"), ("12$", "not_a_number"),
    ("٣٤", "not_a_number"), ("１２", "not_a_number"), ("+5", "not_a_number"),
    ("-5", "negative"), ("-$5.00", "negative"),
    ("1234.500", "too_many_decimals"), ("0.001", "too_many_decimals"),
    ("1000000000000", "too_large"), ("1,000,000,000,000.00", "too_large"),
]


@pytest.mark.parametrize("locale", ["es_PR", "en_US"])
@pytest.mark.parametrize(("text", "value"), ACCEPTED)
def test_an_amount_as_people_write_it_is_read_at_cents(text: str, value: str, locale: str):
    got = parse(text, locale)
    assert got == Decimal(value) and str(got) == value


@pytest.mark.parametrize("locale", ["es_PR", "en_US"])
@pytest.mark.parametrize(("text", "code"), REFUSED)
def test_each_refusal_has_its_own_reason(text: str | None, code: str, locale: str):
    with pytest.raises(MoneyInputError) as caught:
        parse(text, locale)
    assert caught.value.code == code


def test_negative_where_the_field_allows_it_and_a_smaller_bound():
    assert parse("-5.25", allow_negative=True) == Decimal("-5.25")
    with pytest.raises(MoneyInputError) as caught:
        parse("100.01", maximum=Decimal("100.00"))
    assert caught.value.code == "too_large"
    assert caught.value.params == {"maximum": Decimal("100.00")}


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_each_reason_reads_differently_in_spanish_and_english(code: str):
    error = MoneyInputError(code, **({"maximum": Decimal("1000")} if code == "too_large" else {}))
    with i18n.use_language("es"):
        es = error.message()
    with i18n.use_language("en"):
        en = error.message()
    assert es and en and es != en
    if code == "too_large":
        assert "$1,000.00" in es and "$1,000.00" in en


def test_the_messages_are_distinct():
    assert len(set(MESSAGES.values())) == len(MESSAGES)


def test_the_bound_fits_the_money_columns():
    assert money_input.MAXIMUM < Decimal(10) ** 12
