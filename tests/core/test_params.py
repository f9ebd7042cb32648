"""Parameters are dated data with references; nothing falls back silently.

RULES.md: "Where the law leaves a value to the Board, the Authority or the CRIM, it is a
parameter: set per fiscal year, effective from a date, with the resolution or regulation that
set it, never hard-coded."
"""

from __future__ import annotations

import tomllib
from datetime import date, timedelta
from decimal import Decimal

import pytest

from portal.core import params
from portal.core.errors import CalcError, ParameterNotFound
from portal.core.rules import RULES

PARAMETERS = sorted(params.load())
FISCAL_YEARS = [date(year, 7, 1) for year in range(2020, 2031)]  # FY 2020-2021 .. 2030-2031


def _raw_files() -> dict[str, dict]:
    out = {}
    for path in sorted(params.PARAMETER_DIR.glob("*.toml")):
        with path.open("rb") as fh:
            out[path.name] = tomllib.load(fh)
    return out


def test_there_are_parameters() -> None:
    for name in ("grace_day", "late_fee_rate", "late_fee_base", "interest_rate",
                 "lump_sum_discount_rate", "demand_payment_days", "attachment_payment_days",
                 "residential_cap", "payment_plan_days", "lender_notice_days"):
        assert name in PARAMETERS


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


def test_every_value_was_checked_on_a_date() -> None:
    """Like openfisca-france: each dated value says when its reference was last checked."""
    for filename, data in _raw_files().items():
        if filename == "closed_days.toml":
            continue
        for name, spec in data.items():
            for v in spec["values"]:
                assert isinstance(v.get("last_checked"), date), f"{filename}: {name} {v['start']}"


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


@pytest.mark.parametrize("name", PARAMETERS)
def test_a_date_before_any_value_raises(name: str) -> None:
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


def test_an_unknown_parameter_raises() -> None:
    with pytest.raises(ParameterNotFound, match="no_such_rate"):
        params.value("no_such_rate", date(2026, 7, 1))


@pytest.mark.parametrize("fy_start", FISCAL_YEARS, ids=params.fiscal_year_label)
def test_each_fiscal_year_finds_every_value(fy_start: date) -> None:
    """No gap: every parameter has a value in force on each day of FY 2020-2021 ... 2030-2031
    (checked on the first day, the last day, and the 1st of every month)."""
    days = [fy_start, date(fy_start.year + 1, 6, 30)]
    days += [date(fy_start.year + (m < 7), m, 1) for m in range(1, 13)]
    for name in PARAMETERS:
        for day in days:
            params.value(name, day)  # raises ParameterNotFound on a gap


def test_the_value_in_force_changes_on_its_date() -> None:
    """lump_sum_discount_rate: 0 until the FY 2026-2027 regulation, then 0.02."""
    assert params.value("lump_sum_discount_rate", date(2026, 6, 30)) == Decimal("0")
    assert params.value("lump_sum_discount_rate", date(2026, 7, 1)) == Decimal("0.02")
    assert params.value("lump_sum_discount_rate", date(2040, 1, 1)) == Decimal("0.02")


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


def test_constants_in_code_agree_with_the_parameters() -> None:
    """Where a module keeps a constant for a statutory value, it is the parameter's value."""
    from portal.core.attachment import DUNNING_FEE_RATE
    from portal.core.exemption import ExemptionInput
    from portal.core.liens import CUTOFF
    from portal.core.statement import StatementRules

    on = date(2026, 7, 1)
    assert DUNNING_FEE_RATE == params.value("dunning_fee_rate", on)
    assert CUTOFF == params.value("lien_cutoff_date", on)
    assert ExemptionInput(Decimal(1), Decimal(0)).residential_cap == params.value(
        "residential_cap", on)
    defaults = StatementRules()
    assert defaults.grace_day == params.value("grace_day", on)
    assert defaults.late_fee_base == params.value("late_fee_base", on)
    assert defaults.late_fee_rate == params.value("late_fee_rate", on)
    assert defaults.interest_rate == params.value("interest_rate", on)


def test_property_tax_rates_are_a_table_of_decimals() -> None:
    table = params.value("property_tax_rate", date(2026, 7, 1))
    assert table["San Juan"] == Decimal("0.1033")
    assert all(isinstance(v, Decimal) and 0 < v < 1 for v in table.values())


def test_closed_days_are_dated_with_a_reason_and_reference() -> None:
    days = params.closed_days()
    assert days, "the demo declares at least one closed day"
    for c in days:
        assert isinstance(c.day, date)
        assert c.reason.strip() and c.reference.strip()


@pytest.mark.parametrize(("on", "start", "label"), [
    (date(2026, 7, 1), date(2026, 7, 1), "2026-2027"),
    (date(2026, 6, 30), date(2025, 7, 1), "2025-2026"),
    (date(2027, 1, 15), date(2026, 7, 1), "2026-2027"),
    (date(2026, 12, 31), date(2026, 7, 1), "2026-2027"),
])
def test_fiscal_year(on: date, start: date, label: str) -> None:
    assert params.fiscal_year_start(on) == start
    assert params.fiscal_year_label(start) == label
