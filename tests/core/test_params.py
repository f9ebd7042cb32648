"""Parameters are dated data with references; nothing falls back silently: a statute's value
holds from its start date, a value the Board (the Authority, the CRIM) sets holds for the fiscal
years it was adopted for, and any other year is an error naming the parameter and the year.

RULES.md: "Where the law leaves a value to the Board, the Authority or the CRIM, it is a
parameter: set per fiscal year, effective from a date, with the resolution or regulation that
set it, never hard-coded."
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from datetime import date, timedelta
from decimal import Decimal

import pytest

from portal.core import params
from portal.core.errors import CalcError, ParameterNotFound
from portal.core.rules import RULES

PARAMETERS = sorted(params.load())
STATUTORY = [n for n in PARAMETERS if not params.parameter(n).adopted]
ADOPTED = [n for n in PARAMETERS if params.parameter(n).adopted]
#: The fiscal years the Board's demo values were adopted for.
ADOPTED_YEARS = [date(year, 7, 1) for year in range(2020, 2027)]  # FY 2020-2021 .. 2026-2027
#: Statutes hold with no end: checked over FY 2020-2021 .. 2030-2031 (and far later).
STATUTE_YEARS = [date(year, 7, 1) for year in range(2020, 2031)]
FY_2026 = date(2026, 7, 1)


def _raw_files() -> dict[str, dict]:
    out = {}
    for path in sorted(params.PARAMETER_DIR.glob("*.toml")):
        with path.open("rb") as fh:
            out[path.name] = tomllib.load(fh)
    return out


def _days_of(fy_start: date) -> list[date]:
    """The first and last day of the fiscal year and the 1st of each of its months."""
    days = [fy_start, date(fy_start.year + 1, 6, 30)]
    return days + [date(fy_start.year + (m < 7), m, 1) for m in range(1, 13)]


def test_there_are_parameters() -> None:
    for name in ("grace_day", "late_fee_rate", "late_fee_base", "interest_rate",
                 "lump_sum_discount_rate", "demand_payment_days", "attachment_payment_days",
                 "residential_cap", "payment_plan_days", "lender_notice_days"):
        assert name in PARAMETERS


def test_who_sets_each_parameter() -> None:
    """What the law fixes is a statute's value; what it leaves to a body is adopted per year."""
    for name in ("grace_day", "installment_count", "residential_cap", "late_fee_base",
                 "demand_payment_days", "attachment_payment_days", "dunning_fee_rate",
                 "lien_cutoff_date", "payment_plan_days", "lender_notice_days"):
        assert params.parameter(name).set_by == "statute", name
    for name in ("late_fee_rate", "interest_rate"):
        assert params.parameter(name).set_by == "board", name
    assert params.parameter("lump_sum_discount_rate").set_by == "authority"
    for name in ("property_tax_rate", "crim_prepayment_discount_rate",
                 "certification_filing_deadline", "crim_billing_dates"):
        assert params.parameter(name).set_by == "crim", name


@pytest.mark.parametrize("name", PARAMETERS)
def test_every_value_is_dated_and_has_a_reference(name: str) -> None:
    p = params.parameter(name)
    assert p.description.strip()
    assert p.rule in RULES, f"{name}: rule {p.rule!r} is not an id of RULES.md"
    assert p.values, f"{name} has no value"
    starts = [v.start for v in p.values]
    assert all(isinstance(s, date) for s in starts)
    assert starts == sorted(starts)
    assert len(set(starts)) == len(starts), f"{name}: two values take effect the same day"
    for v in p.values:
        assert v.reference.strip(), f"{name} from {v.start}: no reference"
        assert v.open_ended == (not p.adopted), f"{name}: a statute's value is open-ended"
        if p.adopted:
            assert v.fiscal_years and v.start == params.fiscal_year_of_label(v.fiscal_years[0])


@pytest.mark.parametrize("name", PARAMETERS)
def test_every_value_says_when_its_reference_was_last_checked(name: str) -> None:
    """Like openfisca-france: each value says when its reference was last checked, a date."""
    for v in params.parameter(name).values:
        assert type(v.last_checked) is date, f"{name} {v.start}: {v.last_checked!r}"
        assert date(2000, 1, 1) <= v.last_checked <= date(2100, 1, 1)


def test_no_parameter_is_written_as_a_float() -> None:
    """Rates are strings in TOML, read as Decimal: a TOML float would be a binary float."""
    def walk(value: object, where: str) -> None:
        assert not isinstance(value, float), f"{where} is a float: {value!r}"
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, f"{where}.{k}")
        elif isinstance(value, list):
            for k, v in enumerate(value):
                walk(v, f"{where}[{k}]")

    for filename, data in _raw_files().items():
        walk(data, filename)
    for name in PARAMETERS:
        for v in params.parameter(name).values:
            walk(v.value, name)
            if params.parameter(name).type == "decimal":
                assert isinstance(v.value, Decimal)


@pytest.mark.parametrize("name", STATUTORY)
def test_a_date_before_a_statutes_first_value_raises(name: str) -> None:
    first = params.parameter(name).values[0].start
    before = first - timedelta(days=1)
    with pytest.raises(ParameterNotFound) as info:
        params.value(name, before)
    err = info.value
    assert isinstance(err, CalcError)  # so `portal calc` reports it as bad input (exit 2)
    assert err.field == name
    message = err.one_line()
    assert name in message
    assert before.isoformat() in message
    assert first.isoformat() in message, "the message says from when a value exists"
    assert params.value(name, first) == params.parameter(name).values[0].value


@pytest.mark.parametrize("name", ADOPTED)
def test_a_year_the_board_adopted_nothing_for_is_an_error_naming_the_year(name: str) -> None:
    """Never last year's value in silence: FY 2027-2028 has no adopted value yet, although
    FY 2026-2027 has one."""
    assert params.value(name, date(2027, 6, 30)) is not None
    for day in (date(2027, 7, 1), date(2028, 1, 15), date(2019, 6, 30)):
        label = params.fiscal_year_label(params.fiscal_year_start(day))
        with pytest.raises(ParameterNotFound) as info:
            params.value(name, day)
        err = info.value
        assert err.field == name
        assert name in err.one_line() and f"fiscal year {label}" in err.one_line()
        assert "2020-2021 to 2026-2027" in err.one_line(), "it says which years have one"
        with pytest.raises(ParameterNotFound):
            params.for_fiscal_year(name, params.fiscal_year_start(day))


def test_an_unknown_parameter_raises() -> None:
    with pytest.raises(ParameterNotFound, match="no_such_rate"):
        params.value("no_such_rate", date(2026, 7, 1))


@pytest.mark.parametrize("fy_start", ADOPTED_YEARS, ids=params.fiscal_year_label)
def test_each_adopted_fiscal_year_finds_every_value(fy_start: date) -> None:
    """No gap: every parameter has a value on each day of FY 2020-2021 ... 2026-2027."""
    for name in PARAMETERS:
        for day in _days_of(fy_start):
            assert params.value(name, day) == params.for_fiscal_year(name, fy_start)


@pytest.mark.parametrize("fy_start", STATUTE_YEARS, ids=params.fiscal_year_label)
def test_statutes_hold_with_no_end(fy_start: date) -> None:
    for name in STATUTORY:
        for day in _days_of(fy_start):
            params.value(name, day)  # raises ParameterNotFound on a gap
    assert params.value("grace_day", date(2090, 1, 1)) == 10
    assert params.value("installment_count", date(2090, 1, 1)) == 12
    assert params.value("residential_cap", date(2090, 1, 1)) == Decimal("15000")


def test_the_value_adopted_changes_with_the_fiscal_year() -> None:
    """lump_sum_discount_rate: none until the Authority's FY 2026-2027 regulation, then 0.02
    for that year only."""
    assert params.value("lump_sum_discount_rate", date(2026, 6, 30)) == Decimal("0")
    assert params.value("lump_sum_discount_rate", date(2026, 7, 1)) == Decimal("0.02")
    assert params.value("lump_sum_discount_rate", date(2027, 6, 30)) == Decimal("0.02")
    with pytest.raises(ParameterNotFound, match="fiscal year 2027-2028"):
        params.value("lump_sum_discount_rate", date(2027, 7, 1))


def test_statutory_values() -> None:
    """The values the statutes themselves fix."""
    on = date(2026, 7, 1)
    assert params.value("grace_day", on) == 10  # § 6432(d): "the tenth (10th) day"
    assert params.value("demand_payment_days", on) == 15  # § 6432(d)
    assert params.value("attachment_payment_days", on) == 30  # 13 LPRA § 33262(b)
    assert params.value("dunning_fee_rate", on) == Decimal("0.10")  # § 33262(j)
    assert params.value("residential_cap", on) == Decimal("15000")  # Exoneración (a)
    assert params.value("payment_plan_days", on) == 30  # Exoneración (g)
    assert params.value("lender_notice_days", on) == 30  # Exoneración (f)
    assert params.value("lien_cutoff_date", on) == date(2000, 9, 2)  # § 6432(e)(3)
    assert params.value("late_fee_base", on) == "installment"
    assert params.value("installment_count", on) == 12


def test_a_statements_rules_come_from_the_parameters_of_its_fiscal_year() -> None:
    from portal.core.statement import StatementRules

    values = params.statement_rules(FY_2026)
    rules = StatementRules(**values)
    assert rules.grace_day == 10 and rules.late_fee_base == "installment"
    assert rules.late_fee_rate == Decimal("0.05") and rules.interest_rate == Decimal("0.10")
    assert rules.lump_sum_discount_rate == Decimal("0.02")
    assert rules.lump_sum_deadline is None  # the first installment's due date
    assert date(2025, 10, 6) in rules.closed_days
    with pytest.raises(ParameterNotFound, match="fiscal year 2027-2028"):
        params.statement_rules(date(2027, 7, 1))


@pytest.mark.parametrize(("spec", "deadline"), [
    ("first_installment_due", None), ("08-31", date(2026, 8, 31)),
    ("03-15", date(2027, 3, 15))])
def test_a_fixed_lump_sum_deadline_falls_in_the_fiscal_year(spec: str, deadline: date | None
                                                             ) -> None:
    assert params.lump_sum_deadline(spec, FY_2026) == deadline


def test_constants_in_code_agree_with_the_parameters() -> None:
    """Where a module keeps a constant or a default for a parameter, it is the parameter's
    value."""
    from portal.core.attachment import DUNNING_FEE_RATE
    from portal.core.exemption import ExemptionInput
    from portal.core.liens import CUTOFF
    from portal.core.statement import StatementRules

    on = date(2026, 7, 1)
    assert DUNNING_FEE_RATE == params.value("dunning_fee_rate", on)
    assert CUTOFF == params.value("lien_cutoff_date", on)
    assert ExemptionInput(Decimal(1), Decimal(0)).residential_cap == params.value(
        "residential_cap", on)
    wanted = params.statement_rules(on)
    for f in dataclasses.fields(StatementRules):
        if f.default is not dataclasses.MISSING and f.name in STATUTORY:
            assert f.default == wanted[f.name], f"StatementRules.{f.name}"


def test_no_account_is_computed_with_a_default_of_code() -> None:
    """StatementRules' defaults are `portal calc`'s (RULES.md section D: "rules missing from
    `rules` take the defaults of R-A6-R-A11"), not any year's: every account's rules come
    field by field from the values adopted for its fiscal year (`facts.rules_for`, through
    the `ParameterSet` of the files and the recorded resolutions), so a
    year the Board adopted no value for is an error, never a default applied in silence."""
    from portal.core.statement import StatementRules

    fields = {f.name for f in dataclasses.fields(StatementRules)}
    assert set(params.statement_rules(date(2026, 7, 1))) == fields
    files = params.ParameterSet.files()
    rules = StatementRules(**files.statement_rules(date(2026, 7, 1)))
    assert rules.lump_sum_discount_rate == Decimal("0.02")
    assert StatementRules().lump_sum_discount_rate == 0  # calc's default, never an account's
    with pytest.raises(ParameterNotFound, match="interest_rate|late_fee_rate|lump_sum"):
        files.statement_rules(date(2031, 7, 1))


def test_the_demo_and_the_test_worlds_have_adopted_values_for_their_fiscal_years() -> None:
    from portal.demo.district import FY_START as DEMO
    from tests.support.world import FY_START as WORLDS  # build and seed

    for fy_start in {DEMO, WORLDS}:
        params.statement_rules(fy_start)
        for name in PARAMETERS:
            params.for_fiscal_year(name, fy_start)


def test_the_listing_shows_each_value_its_reference_and_when_it_was_checked() -> None:
    rows = {r["name"]: r for r in params.listing(date(2026, 11, 30))}
    assert set(rows) == set(PARAMETERS)
    for name, row in rows.items():
        assert type(row["last_checked"]) is date and row["reference"], name
        assert row["set_by"] == params.parameter(name).set_by
    assert rows["interest_rate"]["value"] == Decimal("0.10")
    assert rows["interest_rate"]["fiscal_years"][-1] == "2026-2027"
    assert rows["grace_day"]["start"] == date(2000, 9, 2)
    later = {r["name"]: r for r in params.listing(date(2027, 7, 1))}
    assert "fiscal year 2027-2028" in later["interest_rate"]["error"]
    assert "value" not in later["interest_rate"]
    assert later["grace_day"]["value"] == 10


def test_portal_params_prints_the_values_with_their_last_check() -> None:
    from click.testing import CliRunner

    from portal.cli import main

    result = CliRunner().invoke(main, ["params", "--on", "2026-11-30"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["fiscal_year"] == "2026-2027"
    rows = {r["name"]: r for r in data["parameters"]}
    assert rows["late_fee_rate"] == {**rows["late_fee_rate"], "value": "0.05",
                                     "last_checked": "2026-11-30", "set_by": "board"}
    bad = CliRunner().invoke(main, ["params", "--on", "30/11/2026"])
    assert bad.exit_code == 2 and "YYYY-MM-DD" in bad.output


# --- the files' own rules -----------------------------------------------------------------

GOOD_STATUTE = """
[x]
description = "d"
rule = "R-A6"
type = "int"
set_by = "statute"
[[x.values]]
start = 2000-09-02
value = 10
reference = "r"
last_checked = 2026-11-30
"""

GOOD_BOARD = """
[y]
description = "d"
rule = "R-A8"
type = "decimal"
set_by = "board"
[[y.values]]
fiscal_years = ["2025-2026", "2026-2027"]
value = "0.10"
reference = "r"
last_checked = 2026-11-30
"""


def test_good_files_read(tmp_path) -> None:
    path = tmp_path / "p.toml"
    path.write_text(GOOD_STATUTE + GOOD_BOARD)
    read = params.read_file(path)
    assert read["x"].values[0].last_checked == date(2026, 11, 30)
    assert read["y"].fiscal_years() == ("2025-2026", "2026-2027")


@pytest.mark.parametrize(("text", "says"), [
    (GOOD_STATUTE.replace("last_checked = 2026-11-30", 'last_checked = "2026-11-30"'),
     "last_checked must be a date"),
    (GOOD_STATUTE.replace("last_checked = 2026-11-30", "last_checked = 2026-11-30T10:00:00"),
     "last_checked must be a date"),
    (GOOD_STATUTE.replace("last_checked = 2026-11-30\n", ""), "no last_checked"),
    (GOOD_STATUTE.replace("last_checked", "last_check"), "unknown keys"),
    (GOOD_STATUTE.replace('set_by = "statute"\n', ""), "set_by must be one of"),
    (GOOD_STATUTE.replace('reference = "r"', 'reference = " "'), "reference is empty"),
    (GOOD_STATUTE.replace("start = 2000-09-02", 'fiscal_years = ["2026-2027"]'),
     "not per fiscal year"),
    (GOOD_BOARD.replace('fiscal_years = ["2025-2026", "2026-2027"]', "start = 2026-07-01"),
     "names its fiscal_years"),
    (GOOD_BOARD.replace('"2025-2026", "2026-2027"', '"2026-2028"'), "not a fiscal year"),
    (GOOD_BOARD.replace('"2025-2026", "2026-2027"', '"2026-2027", "2026-2027"'),
     "listed twice"),
    (GOOD_BOARD + """[[y.values]]
fiscal_years = ["2024-2025", "2025-2026"]
value = "0.12"
reference = "r"
last_checked = 2026-11-30
""", "two values adopted for fiscal year 2025-2026"),
    (GOOD_BOARD.replace('value = "0.10"', "value = 0.10"), "no floats"),
])
def test_a_broken_file_is_an_error_naming_the_file_and_the_parameter(tmp_path, text: str,
                                                                      says: str) -> None:
    path = tmp_path / "broken.toml"
    path.write_text(text)
    with pytest.raises(params.ParameterFileError) as info:
        params.read_file(path)
    assert str(info.value).startswith("broken.toml: ")
    assert says in str(info.value)


def test_property_tax_rates_are_a_table_of_decimals() -> None:
    table = params.value("property_tax_rate", date(2026, 7, 1))
    assert table["San Juan"] == Decimal("0.1033")
    assert all(isinstance(v, Decimal) and 0 < v < 1 for v in table.values())


def test_closed_days_are_dated_with_a_reason_and_reference() -> None:
    days = params.closed_days()
    assert days, "the demo declares at least one closed day"
    for c in days:
        assert isinstance(c.day, date)
        assert c.reason_es.strip() and c.reason_en.strip() and c.reference.strip()


@pytest.mark.parametrize(("on", "start", "label"), [
    (date(2026, 7, 1), date(2026, 7, 1), "2026-2027"),
    (date(2026, 6, 30), date(2025, 7, 1), "2025-2026"),
    (date(2027, 1, 15), date(2026, 7, 1), "2026-2027"),
    (date(2026, 12, 31), date(2026, 7, 1), "2026-2027"),
])
def test_fiscal_year(on: date, start: date, label: str) -> None:
    assert params.fiscal_year_start(on) == start
    assert params.fiscal_year_label(start) == label
