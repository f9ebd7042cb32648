"""Parameters as dated data (OpenFisca style), read from `parameters/*.toml` with `tomllib`.

Each parameter has values keyed by the date they take effect, each with its reference (the
statute, or the Board resolution). `value(name, on)` returns the value in force on a date and
raises `ParameterNotFound` when none is: nothing falls back silently.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any

from portal.core.errors import ParameterNotFound

PARAMETER_DIR = Path(__file__).with_name("parameters")


@dataclass(frozen=True)
class DatedValue:
    start: date
    value: Any
    reference: str


@dataclass(frozen=True)
class Parameter:
    name: str
    description: str
    rule: str
    type: str
    values: tuple[DatedValue, ...]  # sorted by start

    def at(self, on: date) -> DatedValue:
        found = None
        for v in self.values:
            if v.start <= on:
                found = v
        if found is None:
            first = self.values[0].start if self.values else None
            raise ParameterNotFound(
                f"no value of '{self.name}' is in force on {on.isoformat()}"
                + (f" (the first takes effect on {first.isoformat()})" if first else ""),
                field=self.name,
            )
        return found


def _convert(kind: str, raw: Any, name: str) -> Any:
    if kind == "int":
        if not isinstance(raw, int) or isinstance(raw, bool):
            raise TypeError(f"{name}: expected an integer")
        return raw
    if kind == "decimal":
        if not isinstance(raw, str):
            raise TypeError(f"{name}: decimals are written as strings in TOML (no floats)")
        return Decimal(raw)
    if kind == "table-decimal":
        return {k: Decimal(v) for k, v in raw.items()}
    if kind.startswith("choice:"):
        if raw not in kind.split(":", 1)[1].split(","):
            raise ValueError(f"{name}: {raw!r} is not one of {kind}")
        return raw
    if kind == "list":
        return tuple(raw)
    if kind in ("str", "date"):
        return raw
    raise ValueError(f"{name}: unknown parameter type {kind}")


@lru_cache(maxsize=1)
def load() -> dict[str, Parameter]:
    params: dict[str, Parameter] = {}
    for path in sorted(PARAMETER_DIR.glob("*.toml")):
        if path.name == "closed_days.toml":
            continue
        with path.open("rb") as fh:
            data = tomllib.load(fh)
        for name, spec in data.items():
            values = tuple(
                sorted(
                    (
                        DatedValue(v["start"], _convert(spec["type"], v["value"], name),
                                   v["reference"])
                        for v in spec["values"]
                    ),
                    key=lambda v: v.start,
                )
            )
            params[name] = Parameter(name, spec["description"], spec["rule"], spec["type"],
                                     values)
    return params


def parameter(name: str) -> Parameter:
    try:
        return load()[name]
    except KeyError:
        raise ParameterNotFound(f"unknown parameter '{name}'", field=name) from None


def value(name: str, on: date) -> Any:
    """The value of parameter `name` in force on `on`; `ParameterNotFound` if none."""
    return parameter(name).at(on).value


def fiscal_year_start(on: date) -> date:
    """July 1 that opens the fiscal year containing `on` (FY: July 1 - June 30)."""
    return date(on.year if on.month >= 7 else on.year - 1, 7, 1)


def fiscal_year_label(start: date) -> str:
    return f"{start.year}-{start.year + 1}"


@dataclass(frozen=True)
class ClosedDay:
    day: date
    reason: str
    reference: str


@lru_cache(maxsize=1)
def closed_days() -> tuple[ClosedDay, ...]:
    """Days the Board declared closed (RULES.md Conventions), from closed_days.toml."""
    with (PARAMETER_DIR / "closed_days.toml").open("rb") as fh:
        data = tomllib.load(fh)
    return tuple(ClosedDay(c["day"], c["reason"], c["reference"]) for c in data.get("closed", []))
