"""A statute's default the Board (or the Authority) may replace for a fiscal year
(`adoptable_by` in the parameter files): the grace day (R-A6), the number of installments
(R-A4), the late fee's base (R-A7) and the lump-sum deadline (R-A11). The files' dated value
holds unless a value adopted for that year replaces it; other years keep the default. Pure,
no database."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from portal.core import params
from portal.core.installments import schedule
from portal.core.params import AdoptedValue, AdoptedValueError, ParameterFileError, ParameterSet
from portal.core.statement import Payment, StatementRules, evaluate

FY = date(2026, 7, 1)
NEXT = date(2027, 7, 1)
FILES = ParameterSet.files()
DEFAULTS = {"grace_day": 10, "installment_count": 12, "late_fee_base": "installment",
            "lump_sum_deadline": "first_installment_due"}


def _adopted(name: str, value: object, fy: str = "2026-2027") -> AdoptedValue:
    return AdoptedValue(name, fy, value, "Resolución 2026-20", date(2026, 11, 1),
                        date(2026, 11, 1))


@pytest.mark.parametrize(("name", "body"), [
    ("grace_day", "board"), ("installment_count", "board"), ("late_fee_base", "board"),
    ("lump_sum_deadline", "authority")])
def test_the_statutes_default_is_the_bodys_to_replace(name, body):
    p = params.parameter(name)
    assert p.set_by == "statute" and p.adoptable_by == body and p.adopter == body
    assert not p.adopted  # no fiscal year needs a value: the statute's holds
    assert p.at(FY).value == DEFAULTS[name]
    assert "23 LPRA § 6432" in p.at(FY).reference or "R-A11" in p.at(FY).reference


@pytest.mark.parametrize(("name", "value", "rule"), [
    ("grace_day", 15, 15), ("late_fee_base", "unpaid", "unpaid"),
    ("lump_sum_deadline", "08-31", date(2026, 8, 31))])
def test_an_adopted_value_replaces_the_default_for_its_year_only(name, value, rule):
    ps = FILES.with_values([_adopted(name, value)])
    assert ps.for_fiscal_year(name, FY) == value
    assert ps.value(name, date(2027, 3, 15)) == value
    assert ps.parameter(name).for_fiscal_year(FY).reference == "Resolución 2026-20"
    assert ps.statement_rules(FY)[name] == rule
    # the year before and the year after keep the statute's value
    assert ps.for_fiscal_year(name, date(2025, 7, 1)) == DEFAULTS[name]
    assert ps.value(name, NEXT) == DEFAULTS[name]
    assert ps.value(name, date(2090, 1, 1)) == DEFAULTS[name]
    assert FILES.for_fiscal_year(name, FY) == DEFAULTS[name]  # the files' set is unchanged


def test_the_number_of_installments_replaced_for_a_year():
    ps = FILES.with_values([_adopted("installment_count", 10)])
    assert ps.for_fiscal_year("installment_count", FY) == 10
    assert ps.for_fiscal_year("installment_count", NEXT) == 12
    items = schedule(Decimal("1000.00"), FY, ps.for_fiscal_year("installment_count", FY))
    assert len(items) == 10 and sum(i.amount for i in items) == Decimal("1000.00")


def test_the_later_of_two_adopted_values_holds():
    first = _adopted("grace_day", 15)
    later = AdoptedValue("grace_day", "2026-2027", 20, "Resolución 2026-30",
                         date(2026, 12, 1), date(2026, 12, 1))
    ps = FILES.with_values([later, first])
    assert ps.for_fiscal_year("grace_day", FY) == 20
    assert FILES.with_values([later, first], as_of=date(2026, 11, 30)).for_fiscal_year(
        "grace_day", FY) == 15


def _rules(ps: ParameterSet) -> StatementRules:
    return StatementRules(**ps.statement_rules(FY))


def test_grace_day_15_makes_a_payment_on_the_12th_timely():
    """R-A6: the installment due 2026-11-01 paid in full on Thursday 2026-11-12 is late with
    the statute's day 10 (a Tuesday: a late fee, interest) and timely with the Board's day
    15 (a Sunday, rolled to the 16th)."""
    items = schedule(Decimal("1200.00"), FY, 12)
    paid = [Payment(date(2026, m, 1), Decimal("100.00")) for m in (7, 8, 9, 10)]
    paid.append(Payment(date(2026, 11, 12), Decimal("100.00")))
    on = date(2026, 11, 20)
    default = evaluate(on, items, paid, rules=_rules(FILES))
    board = evaluate(on, items, paid, rules=_rules(FILES.with_values(
        [_adopted("grace_day", 15)])))
    assert default.late_fees + default.interest > 0
    assert board.late_fees == 0 and board.interest == 0


def test_late_fee_base_unpaid_measures_the_fee_on_what_was_left():
    """R-A7: 60.00 of a 100.00 installment paid by day G: 5% of 100.00 by default, of the
    unpaid 40.00 with the Board's base."""
    items = schedule(Decimal("1200.00"), FY, 12)
    paid = [Payment(date(2026, 7, 5), Decimal("60.00"))]
    on = date(2026, 7, 20)
    default = evaluate(on, items, paid, rules=_rules(FILES))
    board = evaluate(on, items, paid, rules=_rules(FILES.with_values(
        [_adopted("late_fee_base", "unpaid")])))
    assert default.late_fees == Decimal("5.00")
    assert board.late_fees == Decimal("2.00")


@pytest.mark.parametrize(("name", "text", "value"), [
    ("grace_day", "15", 15), ("grace_day", " 1 ", 1), ("grace_day", "31", 31),
    ("installment_count", "1", 1), ("installment_count", "12", 12),
    ("late_fee_base", "unpaid", "unpaid"), ("late_fee_base", "installment", "installment"),
    ("lump_sum_deadline", "first_installment_due", "first_installment_due"),
    ("lump_sum_deadline", "08-31", "08-31"), ("lump_sum_deadline", "2026-08-31", "08-31"),
    ("lump_sum_deadline", "2027-1-5", "01-05")])
def test_a_value_is_read_in_its_type(name, text, value):
    assert params.parse_adopted(name, text, FY) == value


@pytest.mark.parametrize(("name", "text", "code"), [
    ("grace_day", "", "required"), ("grace_day", "x", "invalid"), ("grace_day", "1.5", "invalid"),
    ("grace_day", "-3", "invalid"), ("grace_day", "٣", "invalid"),
    ("grace_day", "0", "out_of_range"), ("grace_day", "32", "out_of_range"),
    ("installment_count", "0", "out_of_range"), ("installment_count", "13", "out_of_range"),
    ("late_fee_base", "whole", "invalid"), ("late_fee_base", "UNPAID", "invalid"),
    ("lump_sum_deadline", "soon", "invalid"), ("lump_sum_deadline", "02-30", "invalid"),
    ("lump_sum_deadline", "13-01", "invalid"), ("lump_sum_deadline", "2027-02-29", "invalid"),
    ("lump_sum_deadline", "2027-08-31", "outside_year"),
    ("lump_sum_deadline", "2026-06-30", "outside_year")])
def test_a_bad_value_is_refused_with_a_code(name, text, code):
    with pytest.raises(AdoptedValueError) as exc:
        params.parse_adopted(name, text, FY)
    assert exc.value.code == code and exc.value.field == name


def test_bounds_are_given_with_the_refusal():
    with pytest.raises(AdoptedValueError) as exc:
        params.parse_adopted("installment_count", "24", FY)
    assert exc.value.params == {"low": 1, "high": 12}


def test_a_value_only_the_law_sets_is_still_never_adopted():
    for name in ("demand_payment_days", "residential_cap"):
        with pytest.raises(AdoptedValueError) as exc:
            FILES.with_values([_adopted(name, 20)])
        assert exc.value.code == "statute"


def test_a_file_may_name_only_a_body_for_a_statutes_value(tmp_path: Path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[x]\ndescription = "x"\nrule = "R-A6"\ntype = "int"\nset_by = "board"\n'
                   'adoptable_by = "board"\n[[x.values]]\nfiscal_years = ["2026-2027"]\n'
                   'value = 1\nreference = "r"\nlast_checked = 2026-11-30\n')
    with pytest.raises(ParameterFileError, match="adoptable_by"):
        params.read_file(bad)
    bad.write_text('[x]\ndescription = "x"\nrule = "R-A6"\ntype = "int"\nset_by = "statute"\n'
                   'adoptable_by = "mayor"\n[[x.values]]\nstart = 2000-09-02\n'
                   'value = 1\nreference = "r"\nlast_checked = 2026-11-30\n')
    with pytest.raises(ParameterFileError, match="adoptable_by"):
        params.read_file(bad)


def test_the_listing_names_who_may_replace_the_default():
    rows = {r["name"]: r for r in params.listing(FY, FILES.with_values(
        [_adopted("grace_day", 15)]).parameters)}
    assert rows["grace_day"]["adoptable_by"] == "board"
    assert rows["grace_day"]["value"] == 15
    assert rows["installment_count"]["value"] == 12 and "start" in rows["installment_count"]
