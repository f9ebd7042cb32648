"""Dates in the calculation interface's input are read strictly (docs/rules/D-calc-contract.md):
exactly `YYYY-MM-DD` in ASCII digits. A text with anything more (a newline at the end, spaces,
a time) or other digits is refused for its format, naming the field; a well-formed text that
is no day of the calendar is refused as not a real date. Both the one-pass reader of valid
lists and the full reader give the same answers."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from portal.core import calc
from portal.core.errors import InputError
from portal.core.inputs import BAD, parse_date, plain_date

FORMAT = "must be a date as YYYY-MM-DD"


def _account(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "as_of": "2026-09-15",
        "installments": [{"number": 1, "due_date": "2026-07-01", "amount": "100.00"},
                         {"number": 2, "due_date": "2026-08-01", "amount": "100.00"}],
        "payments": [{"date": "2026-07-05", "amount": "100.00"}],
        "costs": [{"date": "2026-08-20", "amount": "12.50", "description": "certified mail"}],
    }
    data.update(changes)
    return data


@pytest.mark.parametrize("text", ["2026-07-01\n", "2026-07-01 ", " 2026-07-01", "2026-7-01",
                                  "2026-07-01T00:00", "２０２６-07-01", "2026-07-٠١", ""])
def test_a_date_not_written_as_yyyy_mm_dd_is_refused_for_its_format(text: str) -> None:
    with pytest.raises(InputError) as err:
        parse_date(text, "as_of")
    assert err.value.field == "as_of"
    assert err.value.message == f"{FORMAT}, not {text!r}"
    assert plain_date(text) is BAD


@pytest.mark.parametrize("text", ["2026-02-30", "2026-13-01", "2026-06-31", "0000-01-01"])
def test_a_well_formed_day_not_in_the_calendar_is_not_a_real_date(text: str) -> None:
    with pytest.raises(InputError) as err:
        parse_date(text, "as_of")
    assert err.value.message == f"is not a real date: {text!r}"


def test_a_valid_date_is_read_the_same_every_time() -> None:
    assert parse_date("2026-07-01", "as_of") == date(2026, 7, 1)
    assert plain_date("2026-07-01") == date(2026, 7, 1)
    assert plain_date("2026-07-01") == date(2026, 7, 1)  # remembered, still the same
    assert plain_date("9989-12-31") == date(9989, 12, 31)
    assert plain_date("9990-01-01") is BAD  # beyond the last date: parse_date says why
    with pytest.raises(InputError, match="must be no later than 9989-12-31"):
        parse_date("9990-01-01", "as_of")


@pytest.mark.parametrize(("where", "field"), [
    (lambda d: d.update(as_of="2026-09-15\n"), "as_of"),
    (lambda d: d["installments"][1].update(due_date="2026-08-01\n"), "installments[1].due_date"),
    (lambda d: d["payments"][0].update(date="2026-07-05\n"), "payments[0].date"),
    (lambda d: d["payments"][0].update(reversed_on="2026-07-09\n"), "payments[0].reversed_on"),
    (lambda d: d["costs"][0].update(date="２０２６-08-20"), "costs[0].date"),
    (lambda d: d.update(rules={"closed_days": ["2026-07-10\n"]}), "rules.closed_days[0]"),
])
def test_statement_names_the_field_of_a_badly_written_date(where: Any, field: str) -> None:
    data = _account()
    where(data)
    with pytest.raises(InputError) as err:
        calc.run("statement", data)
    assert err.value.field == field
    assert err.value.message.startswith(FORMAT)


def test_the_one_pass_reader_and_the_full_reader_agree() -> None:
    """A list in its usual form is read in one pass; an unusual but valid one (an integer
    amount) by the full reader: the same statement."""
    usual = calc.run("statement", _account())
    unusual = calc.run("statement", _account(
        payments=[{"date": "2026-07-05", "amount": 100}]))
    assert unusual == usual
