"""The law cases of tests/cases/*.yaml, run through the calculation interface (RULES.md D).

Every case goes through `portal.core.calc.run_json` exactly as `portal calc NAME` would feed
it (the case's `input` serialised to JSON text); a few also go through the real command in a
subprocess, to check its exit status and its one-line error messages.
"""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from portal.core import calc
from portal.core.deadlines import KINDS as DEADLINE_KINDS
from portal.core.errors import CalcError
from portal.core.rules import RULES
from tests.support.cases import CASES, input_text

CASE_KEYS = {"name", "rules", "statute", "description", "operation", "input", "input_json",
             "expected", "expected_error", "xfail"}
MONEY = re.compile(r"^[0-9]+\.[0-9]{2}$")


def _id(area: str, case: dict[str, Any]) -> str:
    return f"{area}: {case.get('name', '?')}"


def _params() -> list[Any]:
    params = []
    for area, case in CASES:
        marks = []
        if case.get("xfail"):
            marks.append(pytest.mark.xfail(reason=case["xfail"], strict=True))
        params.append(pytest.param(area, case, id=_id(area, case), marks=marks))
    return params


def assert_subset(expected: Any, actual: Any, path: str = "") -> None:
    """Every key of `expected` is in `actual` with the same value; lists match item by item."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path or 'output'}: expected an object, got {actual!r}"
        for key, value in expected.items():
            key = str(key)
            assert key in actual, f"{path}.{key}: missing from the output"
            assert_subset(value, actual[key], f"{path}.{key}" if path else key)
    elif isinstance(expected, list):
        assert isinstance(actual, list), f"{path}: expected a list, got {actual!r}"
        assert len(actual) == len(expected), (
            f"{path}: expected {len(expected)} items, got {len(actual)}: {actual!r}")
        for k, (e, a) in enumerate(zip(expected, actual)):
            assert_subset(e, a, f"{path}[{k}]")
    else:
        assert actual == expected, f"{path}: expected {expected!r}, got {actual!r}"


# --- The cases themselves are well formed ------------------------------------------------

def _walk(value: Any):
    yield value
    if isinstance(value, dict):
        for v in value.values():
            yield from _walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from _walk(v)


@pytest.mark.parametrize(("area", "case"), [pytest.param(a, c, id=_id(a, c)) for a, c in CASES])
def test_case_is_well_formed(area: str, case: dict[str, Any]) -> None:
    assert set(case) <= CASE_KEYS, f"unknown keys {set(case) - CASE_KEYS}"
    for key in ("name", "rules", "statute", "description", "operation"):
        assert case.get(key), f"{key} is required"
    assert ("input" in case) != ("input_json" in case), "exactly one of input, input_json"
    assert ("expected" in case) != ("expected_error" in case), (
        "exactly one of expected, expected_error")
    assert case["operation"] in calc.OPERATIONS
    assert all(r in RULES for r in case["rules"]), case["rules"]
    assert len(case["description"]) > 20, "say what the case shows and how"
    for value in _walk(case.get("input", {})):
        assert not isinstance(value, float), "write amounts as strings, floats in input_json"
    for value in _walk(case.get("expected", {})):
        assert not isinstance(value, float), f"money is a two-decimal string, not {value!r}"


def test_case_names_are_unique_in_each_file() -> None:
    seen: set[tuple[str, str]] = set()
    for area, case in CASES:
        key = (area, case["name"])
        assert key not in seen, f"{area}: two cases named {case['name']!r}"
        seen.add(key)


def test_every_rule_with_an_operation_has_a_case() -> None:
    """R-A1..R-C6 wherever section D has an operation for the rule."""
    with_operation = {
        "R-A2", "R-A3", "R-A4", "R-A5", "R-A6", "R-A7", "R-A8", "R-A9", "R-A10", "R-A11",
        "R-A12", "R-A13", "R-A15", "R-B1", "R-B2", "R-B3", "R-B4", "R-B7", "R-B9", "R-B10",
        "R-B11", "R-C2", "R-C3", "R-C4",
    }
    covered = {r for _, case in CASES if "expected" in case for r in case["rules"]}
    assert with_operation - covered == set()


def test_every_deadline_kind_has_a_case() -> None:
    kinds = {case["input"]["kind"] for _, case in CASES
             if case["operation"] == "deadline" and "expected" in case}
    assert kinds == set(DEADLINE_KINDS)


def test_every_operation_has_a_case() -> None:
    assert {case["operation"] for _, case in CASES} == set(calc.OPERATIONS)


# --- Running them ------------------------------------------------------------------------

@pytest.mark.parametrize(("area", "case"), _params())
def test_law_case(area: str, case: dict[str, Any]) -> None:
    name = case["operation"]
    if "expected_error" in case:
        with pytest.raises(CalcError) as info:
            calc.run_json(name, input_text(case))
        message = info.value.one_line()
        assert case["expected_error"] in message, message
        assert "\n" not in message
        return
    output = json.loads(calc.run_json(name, input_text(case)))
    assert_subset(case["expected"], output)
    for value in _walk(output):
        assert not isinstance(value, float), f"a float in the output: {value!r}"


def test_run_on_the_parsed_object_agrees_with_run_json() -> None:
    """`run(name, dict)` (what the portal calls) gives the same output as the JSON route."""
    for _, case in CASES:
        if "expected" in case and not case.get("xfail"):
            via_json = json.loads(calc.run_json(case["operation"], input_text(case)))
            direct = json.loads(json.dumps(calc.run(case["operation"], case["input"])))
            assert direct == via_json, case["name"]


def test_money_outputs_have_two_decimals() -> None:
    money_keys = {"amount", "principal", "late_fee", "interest", "late_fees", "costs",
                  "delinquent_principal", "due_principal", "upcoming_principal", "discount",
                  "credit", "total_due_now", "payoff", "fee", "total", "equity", "floor",
                  "minimum", "exempt_valuation", "taxable_valuation", "gross_tax",
                  "exemption_amount", "veteran_exemption_amount", "net_tax", "amount_due"}

    def check(value: Any, key: str = "") -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if k != "trace":
                    check(v, k)
        elif isinstance(value, list):
            for v in value:
                check(v, key)
        elif key in money_keys:
            assert isinstance(value, str) and MONEY.match(value), f"{key}: {value!r}"

    for _, case in CASES:
        if "expected" in case and not case.get("xfail"):
            check(json.loads(calc.run_json(case["operation"], input_text(case))))


# --- Whatever the input, a CalcError naming a field, never another exception ------------

_odd_values = st.one_of(
    st.none(), st.booleans(), st.integers(-10**20, 10**20), st.text(max_size=8),
    st.dates().map(lambda d: d.isoformat()),
    st.sampled_from(["9999-12-31", "0001-01-01", "2026-02-29", "2026-13-01", "0", "-0", "1e5",
                     "NaN", "100.00", "0.05", "999999999999.99", "1000000000000.00", "1,5",
                     "  7 ", "0x10", "1" * 30, "9" * 27 + ".99", "1e999999", "sNaN",
                     "Infinity", "-Infinity", "0.000000001"]),
    st.integers(10**25, 10**40),
    st.lists(st.integers(0, 3), max_size=2), st.dictionaries(st.text(max_size=3), st.none(),
                                                               max_size=2))
_GOOD_INPUTS = [(c["operation"], c["input"]) for _, c in CASES
                if "input" in c and "expected" in c]


def _mutate(value: Any, draw: Any) -> Any:
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            choice = draw(st.integers(0, 7))
            if choice == 0:
                continue  # drop the field
            out[key] = draw(_odd_values) if choice == 1 else _mutate(item, draw)
        if draw(st.integers(0, 9)) == 0:
            out["unexpected"] = draw(_odd_values)
        return out
    if isinstance(value, list):
        items = [_mutate(item, draw) for item in value]
        return items * draw(st.integers(0, 2)) if items else items
    return draw(_odd_values) if draw(st.integers(0, 4)) == 0 else value


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_input_gives_a_result_or_a_calc_error(data: st.DataObject) -> None:
    """Mutated inputs of the law cases (fields dropped, replaced by odd values, lists
    repeated, unknown fields): `run_json` answers, or raises CalcError naming a field;
    nothing else escapes (the command would print a traceback)."""
    name, good = data.draw(st.sampled_from(_GOOD_INPUTS))
    text = json.dumps(_mutate(good, data.draw))
    try:
        json.loads(calc.run_json(name, text))
    except CalcError as exc:
        assert exc.field, exc.one_line()
        assert "\n" not in exc.one_line()


_HUGE = ["1" * 30, 10**30, "9" * 27 + ".99", "99999999999999999999.999", "9" * 15, 10**15,
         "1e999999", "sNaN", "Infinity"]


def _leaves(value: Any, path: tuple = ()) -> Any:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for k, item in enumerate(value):
            yield from _leaves(item, (*path, k))
    else:
        yield path


def test_huge_numbers_in_any_field_give_a_result_or_a_calc_error() -> None:
    """Each field of each law case's input in turn set to a huge or odd number: an answer
    or a CalcError naming a field, never Decimal's InvalidOperation (a rate or an area of
    10^30 once overflowed the cents)."""
    escaped = {}
    for name, good in _GOOD_INPUTS:
        for path in _leaves(good):
            for odd in _HUGE:
                data = copy.deepcopy(good)
                target = data
                for key in path[:-1]:
                    target = target[key]
                target[path[-1]] = odd
                try:
                    calc.run_json(name, json.dumps(data))
                except CalcError as exc:
                    assert exc.field, exc.one_line()
                except Exception as exc:  # noqa: BLE001 - what the test looks for
                    escaped[(name, path)] = f"{odd!r}: {type(exc).__name__}"
    assert escaped == {}, escaped


def test_an_arithmetic_failure_is_an_input_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """The safety net of `run_json`: numbers the inputs' bounds let through but that cannot
    be computed to the cent are a one-line CalcError, not a traceback."""
    def overflowing(_reader: Any) -> dict[str, Any]:
        return {"x": str(Decimal("1e30").quantize(Decimal("0.01")))}
    monkeypatch.setitem(calc.OPERATIONS, "allocate", (overflowing, "test"))
    with pytest.raises(CalcError) as info:
        calc.run_json("allocate", "{}")
    assert info.value.field == "input" and "too large" in info.value.one_line()


# --- The real command --------------------------------------------------------------------

PORTAL = Path(sys.executable).parent / "portal"


def portal_calc(name: str | None, text: str) -> subprocess.CompletedProcess[str]:
    args = [str(PORTAL), "calc"] + ([name] if name else [])
    return subprocess.run(args, input=text, capture_output=True, text=True, timeout=60,
                          check=False)


def _case(area: str, name: str) -> dict[str, Any]:
    for a, case in CASES:
        if a == area and case["name"] == name:
            return case
    raise KeyError(name)


@pytest.fixture(scope="module")
def portal_exe() -> Path:
    if not PORTAL.exists():
        pytest.fail(f"the portal command is not installed next to {sys.executable}")
    return PORTAL


@pytest.mark.parametrize(("area", "name"), [
    ("allocation", "two parcels, one leftover cent to the largest remainder"),
    ("statement", "a payment on the 11th is late"),
    ("deadlines", "court claim from the day after the rolled last day"),
])
def test_command_prints_the_result(portal_exe: Path, area: str, name: str) -> None:
    case = _case(area, name)
    proc = portal_calc(case["operation"], input_text(case))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert_subset(case["expected"], json.loads(proc.stdout))


@pytest.mark.parametrize(("name", "text", "field"), [
    ("allocate", '{"total": "1,000.00", "weights": {"a": "1"}}', "total"),
    ("allocate", '{"total": "100.00", "weights": {"a": "1", "b": "-1"}}', "weights.b"),
    ("installments", '{"annual": "12.00", "fiscal_year_start": "2026-02-30"}',
     "fiscal_year_start"),
    ("installments", '{"annual": "12.00", "fiscal_year_start": "2026-07-01", "months": 12}',
     "months"),
    ("deadline", '{"kind": "appeal", "date": "2026-07-01"}', "kind"),
    ("statement", '{"as_of": "2026-07-01", "installments": [', "input"),
    ("statement", "", "input"),
    ("statement", "[1, 2]", "input"),
    ("no_such_operation", "{}", "NAME"),
    ("statement", '{"as_of": "2026-07-31", "installments": [{"number": 1, '
     '"due_date": "2026-07-01", "amount": "100.00"}], "payments": [{"date": "2026-07-05", '
     '"amount": "1,000.00"}]}', "payments[0].amount"),
    ("statement", '{"as_of": "2026-07-31", "installments": [{"number": 1, '
     '"due_date": "2026-07-01", "amount": "100.00"}], "payments": [{"date": "2026-07-05", '
     '"amount": "150.00"}], "refunds": [{"date": "2026-07-04", "amount": "50.00"}]}',
     "refunds[0]"),
    ("statement", '{"as_of": "2026-07-31", "installments": [], "adjustments": [{"date": '
     '"2026-07-05", "amount": "-1.00"}]}', "adjustments[0].amount"),
    ("statement", '{"as_of": "2026-07-31", "installments": [], "payments": [{"date": '
     '"2026-07-05", "amount": "1.00", "reversed_on": "5 July"}]}', "payments[0].reversed_on"),
])
def test_command_bad_input_is_one_line_naming_the_field(portal_exe: Path, name: str, text: str,
                                                        field: str) -> None:
    proc = portal_calc(name, text)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert field in lines[0], lines[0]


def test_command_without_a_name_lists_the_operations(portal_exe: Path) -> None:
    proc = portal_calc(None, "")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    for name in calc.OPERATIONS:
        assert name in proc.stdout + proc.stderr
