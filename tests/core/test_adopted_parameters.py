"""Parameters with values adopted as data (`ParameterSet.with_values`, R-A7, R-A8, R-A11) and
the explanation of a last day a declared closed day moved (`closures`, R-A6): pure, no
database."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from portal.core import params
from portal.core.closures import (
    closed_day_behind,
    explain_deadline_extension,
    explain_extensions,
)
from portal.core.deadlines import timely_payment
from portal.core.explain import N_
from portal.core.params import AdoptedValue, AdoptedValueError, ClosedDay, ParameterSet
from portal.core.statement import StatementRules

FY = date(2026, 7, 1)
FILES = ParameterSet.files()


def _value(name: str, value: str, fy: str = "2026-2027", on: date = date(2026, 11, 1),
           number: str = "2026-14") -> AdoptedValue:
    return AdoptedValue(name, fy, value, f"Resolución {number}", on, on)


def test_the_files_set_is_what_the_module_functions_read():
    assert FILES.statement_rules(FY) == params.statement_rules(FY)
    assert FILES.for_fiscal_year("interest_rate", FY) == params.for_fiscal_year(
        "interest_rate", FY)


def test_an_adopted_value_replaces_its_year_only_with_its_reference():
    ps = FILES.with_values([_value("interest_rate", "0.08")])
    assert ps.for_fiscal_year("interest_rate", FY) == Decimal("0.08")
    assert ps.parameter("interest_rate").for_fiscal_year(FY).reference == "Resolución 2026-14"
    assert ps.for_fiscal_year("interest_rate", date(2025, 7, 1)) == Decimal("0.10")
    assert ps.value("interest_rate", date(2027, 3, 1)) == Decimal("0.08")
    assert StatementRules(**ps.statement_rules(FY)).interest_rate == Decimal("0.08")
    assert FILES.for_fiscal_year("interest_rate", FY) == Decimal("0.10")  # immutable


def test_the_latest_effective_value_wins_and_a_later_one_waits_for_its_day():
    values = [_value("late_fee_rate", "0.04", on=date(2026, 9, 1)),
              _value("late_fee_rate", "0.03", on=date(2026, 12, 15)),
              _value("late_fee_rate", "0.06", on=date(2026, 10, 1))]
    assert FILES.with_values(values, as_of=date(2026, 11, 30)).for_fiscal_year(
        "late_fee_rate", FY) == Decimal("0.06")
    assert FILES.with_values(values, as_of=date(2026, 12, 15)).for_fiscal_year(
        "late_fee_rate", FY) == Decimal("0.03")
    assert FILES.with_values(values, as_of=date(2026, 8, 31)).for_fiscal_year(
        "late_fee_rate", FY) == Decimal("0.05")  # none in force yet: the files'


def test_a_year_with_no_value_in_the_files_can_be_adopted():
    with pytest.raises(params.ParameterNotFound):
        FILES.statement_rules(date(2027, 7, 1))
    ps = FILES.with_values([_value(n, "0.05", fy="2027-2028") for n in
                            ("late_fee_rate", "interest_rate", "lump_sum_discount_rate")])
    assert ps.statement_rules(date(2027, 7, 1))["interest_rate"] == Decimal("0.05")


@pytest.mark.parametrize("name", ["demand_payment_days", "residential_cap",
                                  "crim_prepayment_discount_rate"])
def test_a_statutes_or_the_crims_value_is_never_adopted_here(name):
    with pytest.raises(AdoptedValueError):
        FILES.with_values([_value(name, "1")])
    with pytest.raises(AdoptedValueError):
        params.parse_adopted(name, "1")


@pytest.mark.parametrize(("text", "value"), [
    ("0.07", "0.07"), ("7%", "0.07"), (" 7.5 % ", "0.075"), ("0,05", "0.05"), ("0", "0"),
    ("0.250", "0.25")])
def test_a_rate_is_read_as_people_write_it(text, value):
    assert params.parse_adopted("interest_rate", text) == value


@pytest.mark.parametrize(("text", "code"), [
    ("", "required"), ("abc", "invalid"), ("NaN", "invalid"), ("Infinity", "invalid"),
    ("7", "out_of_range"), ("-0.01", "out_of_range"), ("26%", "out_of_range"),
    ("0.0000001", "out_of_range")])
def test_a_bad_rate_is_refused_with_a_code(text, code):
    with pytest.raises(AdoptedValueError) as exc:
        params.parse_adopted("late_fee_rate", text)
    assert exc.value.code == code and exc.value.field == "late_fee_rate"


HURRICANE = ClosedDay(date(2026, 12, 10), "Huracán Ernesto", "Hurricane Ernesto",
                      "Resolución 2026-15")


def test_a_declared_closed_day_is_in_the_statement_rules():
    ps = FILES.with_values(closed=[HURRICANE])
    rules = ps.statement_rules(FY)
    assert date(2026, 12, 10) in rules["closed_days"]
    assert date(2025, 10, 6) in rules["closed_days"]  # the files' stay
    assert [c.day for c in ps.closed_days()] == [date(2025, 10, 6), date(2026, 12, 10)]
    assert HURRICANE.reason("es") == "Huracán Ernesto"
    assert HURRICANE.reason("en") == "Hurricane Ernesto"


def test_the_explanation_names_the_closed_day_its_reason_and_resolution():
    """R-A6: due 2026-12-01, day G the 10th (a Thursday) closed: timely to the 11th."""
    last = timely_payment(date(2026, 12, 1), 10, {HURRICANE.day})
    assert last == date(2026, 12, 11)
    t = explain_extensions([(6, date(2026, 12, 1), last), (5, date(2026, 11, 1),
                                                          date(2026, 11, 10))], 10, [HURRICANE])
    assert len(t.steps) == 1 and t.steps[0].rule == "R-A6"
    en = t.steps[0].render("en")
    assert en == ("Installment 6: the last timely day was extended to 2026-12-11 because the "
                  "Board declared 2026-12-10 closed (Hurricane Ernesto, Resolución 2026-15).")
    assert "Huracán Ernesto" in t.steps[0].render("es")
    assert t.to_json()["explanation"]["en"][0].startswith("R-A6: Installment 6")


def test_a_weekend_alone_is_not_said_to_be_the_boards():
    # day G 2027-01-10 is a Sunday: it rolls to Monday 11th without any Board day
    assert closed_day_behind(date(2027, 1, 10), date(2027, 1, 11), [HURRICANE]) is None
    assert explain_extensions([(7, date(2027, 1, 1), date(2027, 1, 11))], 10,
                              [HURRICANE]).steps == []
    assert explain_extensions([(6, date(2026, 12, 1), date(2026, 12, 11))], 10, []).steps == []


def test_a_deadline_the_closed_day_moved_says_so():
    t = explain_deadline_extension(N_("The lump-sum deadline"), date(2026, 12, 10),
                                   date(2026, 12, 11), [HURRICANE])
    assert t.steps[0].rule == "R-A11"
    assert "Hurricane Ernesto" in t.steps[0].render("en")
    assert explain_deadline_extension("x", date(2026, 12, 9), date(2026, 12, 9),
                                      [HURRICANE]).steps == []
