"""The one parser of each kind of typed input besides money (`portal.money_input`): yes or
no, dates, counts. Each refuses with its own reason, in the reader's language."""

from __future__ import annotations

from datetime import date

import pytest

from portal import count_input, date_input, yes_no_input
from portal.i18n import use_language
from portal.lenders.batches import REASONS, RowRefused, check_row

TODAY = date(2026, 11, 30)
ROW = {"loan_number": "L-1", "catastro": "040-000-001-01", "fiscal_year": "2026-2027",
       "delivery_date": "2026-11-02", "owners": "Ana", "residential_use": "sí", "rent": "no",
       "officer_name": "Rosa Díaz", "officer_attests": "sí"}


@pytest.mark.parametrize(("typed", "expected"), [
    ("sí", True), ("Sí", True), ("SI", True), ("si", True), (" yes ", True), ("YES", True),
    ("Verdadero", True), ("TRUE", True), ("no", False), ("No", False), ("NO", False),
    ("falso", False), ("FALSE", False),
])
def test_yes_and_no_in_either_language(typed: str, expected: bool):
    assert yes_no_input.parse(typed) is expected


@pytest.mark.parametrize("typed", ["X", "x", "Y", "y", "S", "N", "1", "0", "quizás", "yes!",
                                   "sí no", "✓"])
def test_a_mark_or_a_letter_is_not_an_answer(typed: str):
    with pytest.raises(yes_no_input.YesNoInputError) as caught:
        yes_no_input.parse(typed)
    assert caught.value.code == "not_yes_no"


def test_nothing_written_is_required_or_the_fields_default():
    with pytest.raises(yes_no_input.YesNoInputError) as caught:
        yes_no_input.parse("  ")
    assert caught.value.code == "required"
    assert yes_no_input.parse("", default=True) is True


@pytest.mark.parametrize(("lang", "text"), [("es", "Escriba sí o no"), ("en", "Write yes or no")])
def test_the_refusal_is_worded_in_the_readers_language(lang: str, text: str):
    with use_language(lang):
        assert yes_no_input.YesNoInputError("not_yes_no").message().startswith(text)


@pytest.mark.parametrize("column", ["residential_use", "rent", "officer_attests"])
@pytest.mark.parametrize("typed", ["X", "Y"])
def test_the_lender_csv_refuses_x_and_y(column: str, typed: str):
    """`X` and `Y` were read as yes: the row is refused with the column and the reason."""
    with pytest.raises(RowRefused) as caught:
        check_row({**ROW, column: typed}, TODAY)
    assert (caught.value.column, caught.value.reason) == (column, "not_yes_no")
    assert REASONS["not_yes_no"] == yes_no_input.MESSAGES["not_yes_no"]


@pytest.mark.parametrize(("typed", "lang", "expected"), [
    ("2026-11-30", "es", date(2026, 11, 30)), ("2026-11-30", "en", date(2026, 11, 30)),
    ("30/11/2026", "es", date(2026, 11, 30)), ("11/30/2026", "en", date(2026, 11, 30)),
    ("1/2/2026", "es", date(2026, 2, 1)), ("1/2/2026", "en", date(2026, 1, 2)),
])
def test_a_date_in_iso_or_the_readers_own_form(typed: str, lang: str, expected: date):
    assert date_input.parse(typed, lang) == expected


@pytest.mark.parametrize(("typed", "lang"), [
    ("30/11/2026", "en"), ("11/30/2026", "es"), ("2026-02-30", "es"), ("30-11-26", "es"),
    ("mañana", "es"), ("2026/11/30", "en"), ("1e9", "en"),
    ("\uff12\uff10\uff12\uff16-\uff11\uff12-\uff10\uff11", "es"),
    ("\u0663\u0660/11/2026", "es"),
])
def test_a_date_that_is_not_one_is_refused(typed: str, lang: str):
    with pytest.raises(date_input.DateInputError) as caught:
        date_input.parse(typed, lang)
    assert caught.value.code == "bad_date"


def test_a_date_checked_against_what_it_must_follow_and_today():
    with pytest.raises(date_input.DateInputError) as caught:
        date_input.parse("2027-01-15", "es", not_after=TODAY)
    assert caught.value.code == "after"
    with use_language("es"):
        assert caught.value.message("es") == ("La fecha no puede ser posterior al 30 de "
                                              "noviembre de 2026.")
    with pytest.raises(date_input.DateInputError) as caught:
        date_input.parse("2026-11-01", "en", not_before=date(2026, 11, 2))
    assert caught.value.code == "before"
    with use_language("en"):
        assert caught.value.message("en") == "The date cannot be before November 2, 2026."
    assert date_input.parse("2026-11-02", "en", not_before=date(2026, 11, 2),
                            not_after=TODAY) == date(2026, 11, 2)


def test_the_bad_date_message_gives_the_readers_own_example():
    with use_language("es"):
        assert "30/11/2026 (día, mes y año)" in date_input.DateInputError("bad_date").message("es")
    with use_language("en"):
        assert "11/30/2026 (month, day and year)" in \
            date_input.DateInputError("bad_date").message("en")


@pytest.mark.parametrize(("typed", "code"), [
    ("", "required"), ("3.5", "not_a_count"), ("1e3", "not_a_count"), ("-2", "not_a_count"),
    ("tres", "not_a_count"), ("３", "not_a_count"), ("0", "too_small"), ("13", "too_large"),
])
def test_a_count_refused_with_its_reason(typed: str, code: str):
    with pytest.raises(count_input.CountInputError) as caught:
        count_input.parse(typed, minimum=1, maximum=12)
    assert caught.value.code == code


def test_a_count_within_its_bounds():
    assert count_input.parse(" 12 ", minimum=1, maximum=12) == 12
    with use_language("en"):
        assert count_input.CountInputError("too_large", maximum=12).message() == (
            "The number cannot be more than 12.")
