"""`calc assessment_roll` reads a plainly valid parcel list by `roll_input.lean_roll` and
anything else by the full validator (`roll_input.read_parcels`, a `Reader` per parcel): the
same output to the character when the input is valid, the same error (class, field, message)
when it is not. RULES.md D; R-A2, R-A3."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from portal.core import calc
from portal.core.allocation import assessment_roll, largest_remainder
from portal.core.errors import CalcError
from portal.core.inputs import Reader
from portal.core.money import fmt
from portal.core.roll_input import lean_roll, lean_roll_json, read_parcels


def full_path(data: Any) -> dict[str, Any]:
    """The roll as `calc` computed it before the lean reader: every parcel through a Reader."""
    r = Reader(data)
    total = r.money("total")
    roll = assessment_roll(total, read_parcels(r))
    r.done()
    return {"assessments": {k: fmt(v) for k, v in roll.assessments.items()},
            "exempt": roll.exempt, "trace": roll.trace.to_json()}


def outcome(fn: Any, data: Any) -> Any:
    try:
        return fn(data)
    except CalcError as exc:
        return (type(exc).__name__, exc.field, exc.message)


def _run(data: Any) -> dict[str, Any]:
    return calc.run("assessment_roll", data)


def lean_path(data: Any) -> dict[str, Any] | None:
    lean = lean_roll(Reader(data))
    return None if lean is None else lean_roll_json(lean)


# --- plainly valid rolls: the lean reader takes them and reads them as the full one does ----

units_text = st.one_of(
    st.integers(0, 10 ** 6).map(str),
    st.tuples(st.integers(0, 10 ** 6), st.integers(1, 6)).map(
        lambda t: str(Decimal(t[0]).scaleb(-t[1]))),
    st.sampled_from(["0", "0.00", "000123.4500", "999999999999999.99", "1.00000000000001"]))
units = st.one_of(units_text, st.integers(0, 10 ** 14), st.none())
amount = st.one_of(st.integers(0, 10 ** 6).map(lambda c: f"{c // 100}.{c % 100:02d}"),
                   st.integers(0, 5000), st.integers(0, 5000).map(str),
                   st.integers(0, 999).map(lambda c: f"{c // 10}.{c % 10}"))


@st.composite
def valid_parcel(draw: Any, k: int) -> dict[str, Any]:
    p: dict[str, Any] = {"id": draw(st.sampled_from([f"P{k:05d}", k, f"{k:04d}-1"]))}
    for name, values in (("benefit_units", units),
                         ("owner", st.sampled_from(["private", "authority", "public", None])),
                         ("transferred", st.sampled_from([True, False, None])),
                         ("tax_incentive_exempt", st.sampled_from([True, False, None]))):
        if draw(st.booleans()):
            p[name] = draw(values)
    if draw(st.integers(0, 9)) == 0:
        p["fixed_amount"] = draw(amount)
    return p


@st.composite
def valid_roll(draw: Any) -> dict[str, Any]:
    n = draw(st.integers(0, 40))
    parcels = [draw(valid_parcel(k)) for k in range(n)]
    if draw(st.booleans()):  # one shape for all (one itemgetter a parcel)
        keys = set(parcels[0]) if parcels else set()
        parcels = [{k: p.get(k) for k in keys} for p in parcels]
    fixed = sum(Decimal(str(p["fixed_amount"])) for p in parcels
                if p.get("fixed_amount") is not None)
    total = fixed + Decimal(draw(st.integers(0, 10 ** 9))).scaleb(-2)
    return {"total": draw(st.sampled_from([f"{total:.2f}", str(int(total))])),
            "parcels": parcels}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=valid_roll())
def test_a_valid_roll_reads_and_computes_as_the_full_validator(data: dict[str, Any]) -> None:
    expected = outcome(full_path, data)
    assert outcome(_run, data) == expected
    if isinstance(expected, dict):  # computable: the lean reader took it, with the same result
        assert lean_path(data) == expected
    else:  # not computable (zero units everywhere, fixed amounts above the total)
        assert lean_path(data) is None


def test_the_lean_reader_takes_the_usual_roll() -> None:
    data = {"total": "1000.00", "parcels": [
        {"id": "A", "benefit_units": "1.5", "owner": "private"},
        {"id": "B", "benefit_units": "2.25", "owner": "authority", "transferred": True},
        {"id": "C", "benefit_units": "3", "owner": "public"},
        {"id": "D", "benefit_units": "1", "owner": "private", "fixed_amount": "100.00"},
        {"id": 7, "benefit_units": 2, "tax_incentive_exempt": True}]}
    lean = lean_roll(Reader(data))
    assert lean is not None
    assert list(lean.assessable) == ["A", "B", "D", "7"] and lean.exempt == ["C"]
    assert lean.fixed == {"D": 10000}
    assert list(lean.shared_ids) == ["A", "B", "7"]
    assert list(lean.shared_units) == [150, 225, 200]  # at one scale, two places
    assert _run(data) == full_path(data)


# --- anything else: the full validator, the same first error -----------------------------

odd = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.integers(10 ** 15, 10 ** 16),
                st.decimals(allow_nan=False, allow_infinity=False, places=2, min_value=-9,
                            max_value=9),
                st.sampled_from(["", " 1", "1 ", "-1", "1e3", "1,5", "1.", ".5", "٣", "1.234",
                                 "Private", "private ", "x", "1" * 16, "0." + "1" * 30,
                                 "9999999999999.00", "1000000000000", "5\n6", "12,", ",,"]),
                st.lists(st.integers(), max_size=1), st.dictionaries(st.text(max_size=2),
                                                                    st.integers(), max_size=1))


@st.composite
def broken_roll(draw: Any) -> Any:
    data = draw(valid_roll())
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(["total", "parcels", "top", "parcel", "field", "field",
                                      "field", "extra", "duplicate"]))
        parcels = data.get("parcels")
        if where in ("total", "parcels"):
            data[where] = draw(odd)
        elif where == "top":
            data["year"] = 2027
        elif not isinstance(parcels, list) or not parcels:
            data["parcels"] = [draw(odd)]
        elif where == "parcel":
            parcels[draw(st.integers(0, len(parcels) - 1))] = draw(odd)
        elif not all(isinstance(p, dict) for p in parcels):
            continue
        elif where == "duplicate":
            parcels.append(dict(parcels[draw(st.integers(0, len(parcels) - 1))]))
        else:
            name = draw(st.sampled_from(["id", "benefit_units", "owner", "transferred",
                                         "tax_incentive_exempt", "fixed_amount"])
                        if where == "field" else st.sampled_from(["notes", "Id", ""]))
            parcels[draw(st.integers(0, len(parcels) - 1))][name] = draw(odd)
    return data


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=broken_roll())
def test_any_input_gives_what_the_full_validator_gives(data: Any) -> None:
    expected = outcome(full_path, data)
    assert outcome(_run, data) == expected
    if not isinstance(expected, dict):  # an error: the lean reader never takes such input
        assert outcome(lean_path, data) in (None, expected)


@pytest.mark.parametrize(("units", "total", "expected"), [
    ([1, 1, 1], 100, [34, 33, 33]),
    ([1, 1, 1], 101, [34, 34, 33]),
    ([0, 5, 0], 7, [0, 7, 0]),
    ([3, 1], 0, [0, 0]),
])
def test_largest_remainder_floors_then_gives_the_leftover_cents_by_remainder_then_id(
        units: list[int], total: int, expected: list[int]) -> None:
    assert largest_remainder(total, units, ["a", "b", "c"][:len(units)]) == expected


def test_largest_remainder_breaks_ties_by_id_as_text() -> None:
    assert largest_remainder(2, [1, 1, 1], ["c", "a", "b"]) == [0, 1, 1]
    assert largest_remainder(1, [1, 1, 1], ["10", "9", "2"]) == [1, 0, 0]
