"""The one validator of a certification's answers (`portal.exemptions.answers`): the owner's
wizard and the lender's CSV take and refuse the same values, for the same reason."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from portal.exemptions import answers
from portal.exemptions.answers import AnswerRefused
from portal.lenders.batches import REASONS, RowRefused, check_row

TODAY = date(2026, 11, 30)
ROW = {"loan_number": "L-1", "catastro": "040-000-001-01", "fiscal_year": "2026-2027",
       "delivery_date": "2026-11-02", "owners": "Ana", "residential_use": "sí", "rent": "no",
       "officer_name": "Rosa Díaz", "officer_attests": "sí"}


@pytest.mark.parametrize(("check", "value", "expected"), [
    (answers.fraction, "0.75", Decimal("0.75")), (answers.fraction, "1", Decimal(1)),
    (answers.fraction, "0.0001", Decimal("0.0001")),
    (answers.unit_share, "0.000001", Decimal("0.000001")),
    (answers.deed_date, "2026-03-02", date(2026, 3, 2)),
    (answers.deed_date, "02/03/2026", date(2026, 3, 2)),  # the Spanish reader's day/month
    (answers.deed_date, date(2026, 3, 2), date(2026, 3, 2)),
])
def test_what_both_take(check, value, expected):  # noqa: ANN001
    args = (value, TODAY) if check is answers.deed_date else (value,)
    assert check(*args) == expected


@pytest.mark.parametrize(("check", "value", "reason"), [
    (answers.fraction, "0", "bad_fraction"), (answers.fraction, "1.01", "bad_fraction"),
    (answers.fraction, "1e-1", "bad_fraction"), (answers.fraction, "mitad", "bad_fraction"),
    (answers.unit_share, "0", "bad_share"), (answers.unit_share, "2", "bad_share"),
    (answers.deed_date, "2026/03/02", "bad_date"), (answers.deed_date, "2026-12-01",
                                                     "date_in_future"),
])
def test_what_both_refuse(check, value, reason):  # noqa: ANN001
    args = (value, TODAY) if check is answers.deed_date else (value,)
    with pytest.raises(AnswerRefused) as caught:
        check(*args)
    assert caught.value.reason == reason


@pytest.mark.parametrize(("typed", "reason"), [
    ("1.500,00", "money_other_separators"), ("1e9", "money_exponent"),
    ("1500.001", "money_too_many_decimals"), ("-5", "money_negative"),
])
def test_an_amount_the_csv_used_to_misread_is_refused_with_its_reason(typed: str, reason: str):
    """"1.500,00" was stored as $1.50 and "1e9" as a billion: now each is refused, and the
    batch report has a message for the reason."""
    with pytest.raises(RowRefused) as caught:
        check_row({**ROW, "veteran_amount": typed}, TODAY)
    assert (caught.value.column, caught.value.reason) == ("veteran_amount", reason)
    assert reason in REASONS


def test_the_csv_and_the_wizard_store_the_same_answers():
    checked = check_row({**ROW, "residential_fraction": "0.75", "veteran_amount": "1,500",
                         "cooperative_share": "0.25", "cooperative_name": "Coop Sol",
                         "cooperative_election": "residencial",
                         "acquisition_date": "2026-03-02"}, TODAY)
    a = checked.answers
    assert (a["fraction"], a["veteran_amount"], a["unit_share"], a["deed_date"]) == (
        str(answers.fraction("0.75")), str(answers.amount("1500.00", "veteran_amount")),
        str(answers.unit_share("0.25")), "2026-03-02")
    assert a["veteran_amount"] == "1500.00"
