"""A lender's certification row: the day the owner delivered it to the lender (R-B13,
R-B21), who lives in the home and rent (R-B7), read by `check_row` and worded in either
language."""

from __future__ import annotations

from datetime import date

import pytest

from portal.i18n import use_language
from portal.lenders.batches import REASONS, RowRefused, check_row

TODAY = date(2026, 11, 30)  # fiscal year 2026-2027, judged on 2026-01-01 (R-B15)
ROW = {"loan_number": "L-1", "catastro": "040-000-001-01", "fiscal_year": "2026-2027",
       "delivery_date": "2026-11-02", "owners": "Ana", "residential_use": "sí", "rent": "no",
       "officer_name": "Rosa Díaz", "officer_attests": "sí"}


def _refused(**changes: str) -> tuple[str | None, str, dict]:
    with pytest.raises(RowRefused) as caught:
        check_row({**ROW, **changes}, TODAY)
    return caught.value.column, caught.value.reason, caught.value.params


@pytest.mark.parametrize(("typed", "expected"), [
    ("2026-11-02", date(2026, 11, 2)), ("13/11/2026", date(2026, 11, 13)),  # day/month/year
    ("2026-01-01", date(2026, 1, 1)), ("2026-11-30", TODAY)])
def test_the_delivery_date_is_read_by_the_one_date_parser(typed: str, expected: date):
    assert check_row({**ROW, "delivery_date": typed}, TODAY).delivered_on == expected


def test_a_slash_date_that_reads_two_ways_is_refused():
    """02/11/2026 is 2 November or 11 February: the row is refused, naming both readings."""
    column, reason, _params = _refused(delivery_date="02/11/2026")
    assert (column, reason) == ("delivery_date", "ambiguous_date")


def test_the_delivery_date_is_required():
    """RULES.md R-B13 and R-B21: the lender records when the owner delivered each
    certification, per row; it is the filing date, so a row without it is refused."""
    assert _refused(delivery_date="")[:2] == ("delivery_date", "required")
    assert _refused(delivery_date="ayer")[:2] == ("delivery_date", "bad_date")


def test_a_delivery_after_today_or_before_the_years_january_1_is_refused():
    assert _refused(delivery_date="2026-12-01")[:2] == ("delivery_date", "date_in_future")
    column, reason, params = _refused(delivery_date="2025-12-31")
    assert (column, reason, params) == ("delivery_date", "delivered_before_year",
                                        {"year": "2026-2027", "first": 2026})


@pytest.mark.parametrize(("lang", "text"), [
    ("es", "La certificación del año fiscal 2026-2027 declara el uso al 1 de enero de 2026"),
    ("en", "The certification of the fiscal year 2026-2027 states the use on January 1 of "
           "2026")])
def test_the_delivery_refusal_in_both_languages(lang: str, text: str):
    from portal.i18n import gettext
    with use_language(lang):
        assert gettext(REASONS["delivered_before_year"], year="2026-2027",
                       first=2026).startswith(text)


@pytest.mark.parametrize(("occupant", "relationship", "answers"), [
    ("", "", {"occupant": "owner"}),
    ("dueño", "", {"occupant": "owner"}),
    ("Owner", "", {"occupant": "owner"}),
    ("familia", "hijo", {"occupant": "family", "family_relationship": "child"}),
    ("family", "sibling_in_law", {"occupant": "family", "family_relationship": "sibling_in_law"}),
    ("Familia", "Cuñado", {"occupant": "family", "family_relationship": "sibling_in_law"}),
    ("familia", "primo segundo", {"occupant": "family", "family_relationship": "second_cousin"}),
])
def test_who_lives_there(occupant: str, relationship: str, answers: dict):
    got = check_row({**ROW, "occupant": occupant, "family_relationship": relationship},
                    TODAY).answers
    assert {k: got[k] for k in answers} == answers
    if answers["occupant"] == "owner":
        assert "family_relationship" not in got


def test_who_lives_there_refused():
    assert _refused(occupant="inquilino")[:2] == ("occupant", "bad_occupant")
    assert _refused(occupant="familia")[:2] == ("family_relationship", "required")
    assert _refused(occupant="familia", family_relationship="amigo")[:2] == (
        "family_relationship", "bad_relationship")
    assert _refused(family_relationship="hijo")[:2] == ("family_relationship",
                                                        "relationship_without_family")


def test_rent_is_stated_and_kept_for_the_core():
    """The row records the rent as stated; whether it denies the exemption is the core's
    (R-B7), when the row is filed."""
    assert _refused(rent="")[:2] == ("rent", "required")
    assert _refused(rent="X")[:2] == ("rent", "not_yes_no")
    got = check_row({**ROW, "rent": "sí", "rent_part": " el  apartamento de abajo "},
                    TODAY).answers
    assert (got["rent"], got["rent_part"]) == ("yes", "el apartamento de abajo")
    got = check_row({**ROW, "rent": "no", "rent_part": "nada"}, TODAY).answers
    assert (got["rent"], got["rent_part"]) == ("no", "")
