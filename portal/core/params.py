"""Parameters as dated data (OpenFisca style), read from `parameters/*.toml` with `tomllib`.

docs/rules: "Where the law leaves a value to the Board, the Authority or the CRIM, it is a
parameter: set per fiscal year, effective from a date, with the resolution or regulation that
set it, never hard-coded." So a parameter is one of two kinds (`set_by`):

- `statute`: a value the law itself fixes (the grace day 10, 12 installments, the residential
  cap). Each value takes effect on its `start` date and holds until the next one: open-ended.
  With `adoptable_by = "board"` (or `"authority"`) the statute's value is a default that body
  may replace for a fiscal year ("or as otherwise determined by the Board", § 6432(d)): the
  dated value holds unless a value adopted for that year (`with_values`) replaces it.
- `board`, `authority` or `crim`: a value that body adopts for named fiscal years
  (`fiscal_years = ["2025-2026", "2026-2027"]`). It holds for exactly those years; a day in a
  fiscal year with no adopted value is a `ParameterNotFound` naming the parameter and the
  year, never last year's value in silence.

Every value carries its `reference` (the statute's clause, or the resolution) and the date
that reference was `last_checked`. This file holds the only defaults of the Board's
parameters: `statement_rules(fy)` gives a statement's rules for a fiscal year from them.
A file that breaks these rules is a `ParameterFileError` naming the file and the parameter.

Values adopted as data: a `ParameterSet` is the files' values with the values staff recorded
from a Board's (or the Authority's) resolution on top (`with_values`), and the days the Board
declared closed; the core reads it and never the database (the services build it).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from pathlib import Path
from typing import Any

from portal.core.errors import ParameterNotFound

PARAMETER_DIR = Path(__file__).with_name("parameters")

STATUTE = "statute"
ADOPTED = ("board", "authority", "crim")  # set per fiscal year by the body named
SET_BY = (STATUTE, *ADOPTED)
BODY = {"board": "Board", "authority": "Authority", "crim": "CRIM"}

_FY_LABEL = re.compile(r"^(\d{4})-(\d{4})$")
_PARAMETER_KEYS = {"description", "rule", "type", "set_by", "adoptable_by", "values"}
_VALUE_KEYS = {"start", "fiscal_years", "value", "reference", "last_checked"}


class ParameterFileError(ValueError):
    """A parameter file that breaks the rules above (a missing date, reference, ...)."""


def fiscal_year_start(on: date) -> date:
    """July 1 that opens the fiscal year containing `on` (FY: July 1 - June 30)."""
    return date(on.year if on.month >= 7 else on.year - 1, 7, 1)


def fiscal_year_label(start: date) -> str:
    return f"{start.year}-{start.year + 1}"


def fiscal_year_of_label(label: str) -> date:
    """The July 1 that opens the fiscal year labelled `label` ("2026-2027")."""
    m = _FY_LABEL.match(label)
    if m is None or int(m.group(2)) != int(m.group(1)) + 1:
        raise ValueError(f"{label!r} is not a fiscal year like '2026-2027'")
    return date(int(m.group(1)), 7, 1)


@dataclass(frozen=True)
class DatedValue:
    """One value: from `start` (statute: open-ended) or for the `fiscal_years` adopted."""

    start: date
    value: Any
    reference: str
    last_checked: date
    fiscal_years: tuple[str, ...] = ()  # empty for a statute's value

    @property
    def open_ended(self) -> bool:
        return not self.fiscal_years


@dataclass(frozen=True)
class Parameter:
    name: str
    description: str
    rule: str
    type: str
    set_by: str
    values: tuple[DatedValue, ...]  # sorted by start
    adoptable_by: str | None = None  # a statute's default this body may replace per year

    @property
    def adopted(self) -> bool:
        """Set per fiscal year (by the Board, the Authority or the CRIM), not by statute."""
        return self.set_by in ADOPTED

    @property
    def adopter(self) -> str | None:
        """The body that adopts this parameter's value for a fiscal year: `set_by` for an
        adopted one, `adoptable_by` for a statute's default; None when only the law sets it."""
        return self.set_by if self.adopted else self.adoptable_by

    def fiscal_years(self) -> tuple[str, ...]:
        """The fiscal years with an adopted value, in order (empty for a statute's)."""
        return tuple(sorted(fy for v in self.values for fy in v.fiscal_years))

    def at(self, on: date) -> DatedValue:
        """The value in force on `on`; `ParameterNotFound` naming the parameter when none."""
        if self.adopted:
            return self.for_fiscal_year(fiscal_year_start(on))
        if self.adoptable_by is not None:
            replaced = self._adopted_for(fiscal_year_label(fiscal_year_start(on)))
            if replaced is not None:
                return replaced
        found = None
        for v in self.values:
            if v.open_ended and v.start <= on:
                found = v
        if found is None:
            first = self.values[0].start if self.values else None
            raise ParameterNotFound(
                f"no value of '{self.name}' is in force on {on.isoformat()}"
                + (f" (the first takes effect on {first.isoformat()})" if first else ""),
                field=self.name,
            )
        return found

    def for_fiscal_year(self, fy_start: date) -> DatedValue:
        """The value for the fiscal year opening on `fy_start` (adopted, or the statute's in
        force on its first day)."""
        if not self.adopted:
            return self.at(fy_start)
        label = fiscal_year_label(fiscal_year_start(fy_start))
        found = self._adopted_for(label)
        if found is not None:
            return found
        raise ParameterNotFound(
            f"no value of '{self.name}' was adopted for fiscal year {label} "
            f"(the {BODY[self.set_by]} adopted one for {_spans(self.fiscal_years()) or 'none'})",
            field=self.name)

    def _adopted_for(self, label: str) -> DatedValue | None:
        for v in self.values:
            if label in v.fiscal_years:
                return v
        return None


def _spans(labels: tuple[str, ...]) -> str:
    """"2020-2021 to 2023-2024, 2025-2026": runs of consecutive fiscal years."""
    starts = sorted(fiscal_year_of_label(x).year for x in labels)
    runs: list[list[int]] = []
    for y in starts:
        if runs and y == runs[-1][-1] + 1:
            runs[-1].append(y)
        else:
            runs.append([y])
    return ", ".join(f"{r[0]}-{r[0] + 1}" + (f" to {r[-1]}-{r[-1] + 1}" if len(r) > 1 else "")
                     for r in runs)


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
        if not isinstance(raw, dict) or not all(isinstance(v, str) for v in raw.values()):
            raise TypeError(f"{name}: a table of decimals written as strings")
        return {k: Decimal(v) for k, v in raw.items()}
    if kind.startswith("choice:"):
        if raw not in kind.split(":", 1)[1].split(","):
            raise ValueError(f"{name}: {raw!r} is not one of {kind}")
        return raw
    if kind == "list":
        if not isinstance(raw, list):
            raise TypeError(f"{name}: expected a list")
        return tuple(raw)
    if kind == "str":
        if not isinstance(raw, str):
            raise TypeError(f"{name}: expected a string")
        return raw
    if kind == "date":
        if not _is_date(raw):
            raise TypeError(f"{name}: expected a date")
        return raw
    raise ValueError(f"{name}: unknown parameter type {kind}")


def _is_date(raw: Any) -> bool:
    return isinstance(raw, date) and not isinstance(raw, datetime)


def _read_value(name: str, set_by: str, kind: str, raw: dict[str, Any]) -> DatedValue:
    unknown = set(raw) - _VALUE_KEYS
    if unknown:
        raise ValueError(f"unknown keys {sorted(unknown)}")
    for key in ("value", "reference", "last_checked"):
        if key not in raw:
            raise ValueError(f"no {key}")
    reference = raw["reference"]
    if not isinstance(reference, str) or not reference.strip():
        raise ValueError("the reference is empty")
    checked = raw["last_checked"]
    if not _is_date(checked):
        raise ValueError(f"last_checked must be a date (YYYY-MM-DD), not {checked!r}")
    value = _convert(kind, raw["value"], name)
    if set_by == STATUTE:
        if "fiscal_years" in raw:
            raise ValueError("a statute's value takes effect on a start date, not per "
                             "fiscal year (set_by names who sets it per fiscal year)")
        start = raw.get("start")
        if not _is_date(start):
            raise ValueError("a statute's value needs a start date")
        return DatedValue(start, value, reference, checked)
    if "start" in raw:
        raise ValueError(f"a value the {set_by} adopts names its fiscal_years, not a start")
    years = raw.get("fiscal_years")
    if not isinstance(years, list) or not years or not all(isinstance(y, str) for y in years):
        raise ValueError("fiscal_years must be a non-empty list like [\"2026-2027\"]")
    starts = sorted(fiscal_year_of_label(y) for y in years)
    if len(set(starts)) != len(starts):
        raise ValueError("a fiscal year is listed twice")
    return DatedValue(starts[0], value, reference, checked,
                      tuple(fiscal_year_label(s) for s in starts))


def _read_parameter(name: str, spec: dict[str, Any]) -> Parameter:
    unknown = set(spec) - _PARAMETER_KEYS
    if unknown:
        raise ValueError(f"unknown keys {sorted(unknown)}")
    set_by = spec.get("set_by")
    if set_by not in SET_BY:
        raise ValueError(f"set_by must be one of {', '.join(SET_BY)}, not {set_by!r}")
    adoptable_by = spec.get("adoptable_by")
    if adoptable_by is not None and (set_by != STATUTE or adoptable_by not in ADOPTED):
        raise ValueError("adoptable_by names the body (board, authority, crim) that may "
                         "replace a statute's value for a fiscal year")
    for key in ("description", "rule", "type"):
        if not isinstance(spec.get(key), str) or not spec[key].strip():
            raise ValueError(f"no {key}")
    raw_values = spec.get("values")
    if not isinstance(raw_values, list) or not raw_values:
        raise ValueError("no values")
    values = []
    for k, raw in enumerate(raw_values):
        try:
            values.append(_read_value(name, set_by, spec["type"], raw))
        except (TypeError, ValueError, InvalidOperation) as exc:
            raise ValueError(f"value {k + 1}: {exc}") from None
    values.sort(key=lambda v: v.start)
    years = [fy for v in values for fy in v.fiscal_years]
    if len(set(years)) != len(years):
        twice = sorted({fy for fy in years if years.count(fy) > 1})
        raise ValueError(f"two values adopted for fiscal year {', '.join(twice)}")
    starts = [v.start for v in values]
    if len(set(starts)) != len(starts):
        raise ValueError("two values take effect the same day")
    return Parameter(name, spec["description"], spec["rule"], spec["type"], set_by,
                     tuple(values), adoptable_by)


def read_file(path: Path) -> dict[str, Parameter]:
    """The parameters of one TOML file; `ParameterFileError` naming the file and parameter."""
    with path.open("rb") as fh:
        data = tomllib.load(fh)
    out = {}
    for name, spec in data.items():
        try:
            out[name] = _read_parameter(name, spec)
        except (TypeError, ValueError) as exc:
            raise ParameterFileError(f"{path.name}: {name}: {exc}") from None
    return out


@lru_cache(maxsize=1)
def load() -> dict[str, Parameter]:
    params: dict[str, Parameter] = {}
    for path in sorted(PARAMETER_DIR.glob("*.toml")):
        if path.name == "closed_days.toml":
            continue
        for name, p in read_file(path).items():
            if name in params:
                raise ParameterFileError(f"{path.name}: {name}: defined in two files")
            params[name] = p
    return params


def parameter(name: str) -> Parameter:
    try:
        return load()[name]
    except KeyError:
        raise ParameterNotFound(f"unknown parameter '{name}'", field=name) from None


def value(name: str, on: date) -> Any:
    """The value of parameter `name` in force on `on` (for a value adopted per fiscal year:
    the one adopted for the fiscal year of `on`); `ParameterNotFound` if none."""
    return parameter(name).at(on).value


def for_fiscal_year(name: str, fy_start: date) -> Any:
    """The value of `name` for the fiscal year opening on `fy_start`."""
    return parameter(name).for_fiscal_year(fy_start).value


#: The parameters of a statement (portal.core.statement.StatementRules), by field name.
STATEMENT_RULES = ("grace_day", "late_fee_rate", "late_fee_base", "interest_rate",
                   "lump_sum_discount_rate", "lump_sum_deadline")


def lump_sum_deadline(spec: str, fy_start: date) -> date | None:
    """R-A11's last day for the lump sum: None for 'first_installment_due' (the statement
    takes the first installment's due date), else the month-day `spec` ("08-31") within the
    fiscal year."""
    if spec == "first_installment_due":
        return None
    month, day = (int(x) for x in str(spec).split("-"))
    year = fy_start.year if month >= fy_start.month else fy_start.year + 1
    return date(year, month, day)


def statement_rules(fy_start: date) -> dict[str, Any]:
    """The keyword arguments of `StatementRules` for the fiscal year opening on `fy_start`,
    from these parameters (the one place their values live), with the Board's closed days.
    `ParameterNotFound` when one has no value for that year."""
    return ParameterSet.files().statement_rules(fy_start)


def listing(on: date, parameters: dict[str, Parameter] | None = None) -> list[dict[str, Any]]:
    """Every parameter as of `on`, for people (`portal params`): who sets it, its value for
    that day (or why there is none), the reference and when it was last checked. Of the
    files, or of `parameters` (a `ParameterSet`'s, with the recorded values)."""
    rows = []
    for name, p in sorted((parameters if parameters is not None else load()).items()):
        row: dict[str, Any] = {"name": name, "rule": p.rule, "set_by": p.set_by,
                               "description": p.description}
        if p.adopted:
            row["fiscal_years"] = list(p.fiscal_years())
        elif p.adoptable_by:
            row["adoptable_by"] = p.adoptable_by
        try:
            v = p.at(on)
        except ParameterNotFound as exc:
            row["error"] = exc.message
        else:
            row["value"] = v.value
            row["reference"] = v.reference
            row["last_checked"] = v.last_checked
            if v.open_ended:
                row["start"] = v.start
        rows.append(row)
    return rows


@dataclass(frozen=True)
class ClosedDay:
    """A day the Board declared closed (a hurricane, an outage): a last day to act that falls
    on it rolls over to the next working day (docs/rules, Conventions, 1 LPRA § 72). The reason
    is the Board's, in both languages; `reference` names the resolution."""

    day: date
    reason_es: str
    reason_en: str
    reference: str

    def reason(self, lang: str) -> str:
        """The reason in `lang` ("es" or "en"), else the other one."""
        return (self.reason_es if lang == "es" else self.reason_en) or self.reason_es \
            or self.reason_en


@lru_cache(maxsize=1)
def closed_days() -> tuple[ClosedDay, ...]:
    """Days the Board declared closed (docs/rules, Conventions), from closed_days.toml."""
    with (PARAMETER_DIR / "closed_days.toml").open("rb") as fh:
        data = tomllib.load(fh)
    return tuple(ClosedDay(c["day"], c["reason_es"], c["reason_en"], c["reference"])
                 for c in data.get("closed", []))


# --- Values adopted as data ---------------------------------------------------------------

#: The parameters staff may record a Board's or the Authority's adopted value for (set by
#: that body, or a statute's default it may replace: `Parameter.adopter`), with the bounds a
#: value must keep (inclusive). A value only the law sets is never edited here.
EDITABLE_BY = ("board", "authority")
BOUNDS: dict[str, tuple[Decimal, Decimal]] = {
    "late_fee_rate": (Decimal("0"), Decimal("0.25")),
    "interest_rate": (Decimal("0"), Decimal("0.25")),
    "lump_sum_discount_rate": (Decimal("0"), Decimal("0.25")),
    "demand_minimum": (Decimal("0"), Decimal("1000.00")),  # R-A17: dollars, not a rate
}
#: Decimal parameters that are amounts of money (whole cents, never a percentage).
MONEY = frozenset({"demand_minimum"})
#: Whole-number parameters the Board may set, with their bounds (inclusive). R-A6: "a G
#: beyond the month's end means its last day", so any day of a month, 1 to 31, is a grace
#: day. R-A4: at most one installment a month within the fiscal year, so 1 to 12.
INT_BOUNDS: dict[str, tuple[int, int]] = {
    "grace_day": (1, 31),
    "installment_count": (1, 12),
}
FIRST_INSTALLMENT_DUE = "first_installment_due"
_MONTH_DAY = re.compile(r"^(?:(\d{4})-)?(\d{1,2})-(\d{1,2})$")


class AdoptedValueError(ValueError):
    """A value that cannot be adopted: `code` (unknown, statute, invalid, out_of_range), the
    parameter it is about (`field`) and the bounds when it is out of them."""

    def __init__(self, code: str, field: str, **params: Any):
        super().__init__(f"{field}: {code}")
        self.code = code
        self.field = field
        self.params = params


@dataclass(frozen=True)
class AdoptedValue:
    """A value the Board (or the Authority) adopted for one fiscal year, recorded as data
    rather than in the files: it replaces that year's value from `effective_on`."""

    name: str
    fiscal_year: str  # "2026-2027"
    value: Any  # as the parameter's type reads it ("0.07" for a decimal, 12 for an int)
    reference: str  # the resolution: "Resolución 2026-14 (2026-11-20)"
    effective_on: date
    last_checked: date


class ParameterSet:
    """The parameters (the files' values) with any values adopted as data on top: what a
    statement, a deadline or a page reads. Immutable; `with_values` gives a new set.

    R-A7, R-A8, R-A11: a rate the Board (or the Authority) adopts for a fiscal year is the
    year's value from its effective date, with its resolution as the reference. A day the
    Board declares closed moves every last day that falls on it (docs/rules, Conventions).
    """

    def __init__(self, parameters: dict[str, Parameter],
                 closed: tuple[ClosedDay, ...]) -> None:
        self.parameters = parameters
        self.closed = tuple(sorted(closed, key=lambda c: c.day))
        self._rules: dict[date, dict[str, Any]] = {}

    @classmethod
    def files(cls) -> ParameterSet:
        """The parameters as the files give them (no value adopted as data)."""
        return _files_set()

    def with_values(self, values: Iterable[AdoptedValue] = (),
                    closed: Iterable[ClosedDay] = (), *, as_of: date | None = None
                    ) -> ParameterSet:
        """This set with `values` adopted on top (each replacing its fiscal year's value;
        of two for the same year, the later effective one, then the later given) and the
        days in `closed` declared closed too. With `as_of`, a value effective after that
        day is not in force yet, unless it is effective on or before its fiscal year's first
        day: then it is that year's value already (R-A7, R-A8: next year's rates, recorded
        effective 1 July, serve next year's roll and notices before that day).
        `AdoptedValueError` for a statute's or unknown parameter."""
        latest: dict[tuple[str, str], AdoptedValue] = {}
        for v in values:
            if (as_of is not None and v.effective_on > as_of
                    and v.effective_on > fiscal_year_of_label(v.fiscal_year)):
                continue
            check_adoptable(self.parameters, v.name)
            fiscal_year_of_label(v.fiscal_year)
            key = (v.name, v.fiscal_year)
            seen = latest.get(key)
            if seen is None or v.effective_on >= seen.effective_on:
                latest[key] = v
        out = dict(self.parameters)
        for (name, label), v in latest.items():
            out[name] = _replace_year(out[name], label, v)
        days = {c.day: c for c in self.closed}
        for c in closed:
            days[c.day] = c
        return ParameterSet(out, tuple(days.values()))

    def parameter(self, name: str) -> Parameter:
        try:
            return self.parameters[name]
        except KeyError:
            raise ParameterNotFound(f"unknown parameter '{name}'", field=name) from None

    def value(self, name: str, on: date) -> Any:
        return self.parameter(name).at(on).value

    def for_fiscal_year(self, name: str, fy_start: date) -> Any:
        return self.parameter(name).for_fiscal_year(fy_start).value

    def closed_days(self) -> tuple[ClosedDay, ...]:
        return self.closed

    def closed_dates(self) -> frozenset[date]:
        return frozenset(c.day for c in self.closed)

    def statement_rules(self, fy_start: date) -> dict[str, Any]:
        """The keyword arguments of `StatementRules` for the fiscal year opening on
        `fy_start` (see the module's `statement_rules`)."""
        found = self._rules.get(fy_start)
        if found is None:
            found = {name: self.for_fiscal_year(name, fy_start) for name in STATEMENT_RULES}
            found["lump_sum_deadline"] = lump_sum_deadline(found["lump_sum_deadline"],
                                                           fy_start)
            found["closed_days"] = self.closed_dates()
            self._rules[fy_start] = found
        return dict(found)


def check_adoptable(parameters: dict[str, Parameter], name: str) -> Parameter:
    p = parameters.get(name)
    if p is None:
        raise AdoptedValueError("unknown", name)
    if p.adopter not in EDITABLE_BY:
        raise AdoptedValueError("statute" if p.set_by == STATUTE else "not_editable", name)
    return p


def parse_adopted(name: str, text: str, fy_start: date | None = None) -> Any:
    """R-A4, R-A6, R-A7, R-A8, R-A11: the value staff typed for an adoptable parameter, in
    its type and within its bounds: a rate ("0.07", or "7%") within `BOUNDS`, a whole number
    within `INT_BOUNDS`, a choice among the type's, a lump-sum deadline
    ("first_installment_due", or a day "08-31" / "2026-08-31", within the fiscal year opening
    on `fy_start` when given, read as "08-31"). `AdoptedValueError` otherwise."""
    p = check_adoptable(load(), name)
    raw = (text or "").strip()
    if not raw:
        raise AdoptedValueError("required", name)
    if p.type.startswith("choice:"):
        if raw not in p.type.split(":", 1)[1].split(","):
            raise AdoptedValueError("invalid", name)
        return raw
    if name == "lump_sum_deadline":
        return _parse_deadline(raw, fy_start)
    raw = raw.replace(",", ".")
    if p.type == "decimal" and name in MONEY:
        return _parse_money(name, raw)
    if p.type == "decimal":
        percent = raw.endswith("%")
        try:
            value = Decimal(raw.rstrip("%").strip())
        except InvalidOperation:
            raise AdoptedValueError("invalid", name) from None
        if not value.is_finite():
            raise AdoptedValueError("invalid", name)
        if percent:
            value = value / 100
        low, high = BOUNDS.get(name, (Decimal("0"), Decimal("1")))
        if not low <= value <= high or value.as_tuple().exponent < -6:
            raise AdoptedValueError("out_of_range", name, low=low, high=high)
        return str(value.normalize()) if value else "0"
    if p.type == "int":
        if not raw.isascii() or not raw.isdigit():
            raise AdoptedValueError("invalid", name)
        low_int, high_int = INT_BOUNDS.get(name, (0, 10**6))
        if not low_int <= int(raw) <= high_int:
            raise AdoptedValueError("out_of_range", name, low=low_int, high=high_int)
        return int(raw)
    raise AdoptedValueError("not_editable", name)


def _parse_money(name: str, raw: str) -> str:
    """An amount a parameter holds (R-A17's `demand_minimum`): ASCII digits with at most two
    decimals (no percentage, no exponent), within `BOUNDS`."""
    if not re.fullmatch(r"[0-9]{1,7}(\.[0-9]{1,2})?", raw):
        raise AdoptedValueError("invalid", name)
    value = Decimal(raw)
    low, high = BOUNDS[name]
    if not low <= value <= high:
        raise AdoptedValueError("out_of_range", name, low=low, high=high)
    return f"{value:.2f}"


def _parse_deadline(raw: str, fy_start: date | None) -> str:
    """R-A11's last day as `lump_sum_deadline()` reads it: the first installment's due date,
    or a month-day ("08-31") that is a day of the fiscal year opening on `fy_start` (a day
    given with its year must be within that year)."""
    if raw == FIRST_INSTALLMENT_DUE:
        return raw
    m = _MONTH_DAY.match(raw)
    if m is None:
        raise AdoptedValueError("invalid", "lump_sum_deadline")
    year, month, day = m.groups()
    spec = f"{int(month):02d}-{int(day):02d}"
    start = fiscal_year_start(fy_start) if fy_start is not None else date(2027, 7, 1)
    try:
        found = lump_sum_deadline(spec, start)  # a year with a February 29 if none given
        given = date(int(year), int(month), int(day)) if year else found
    except ValueError:
        raise AdoptedValueError("invalid", "lump_sum_deadline") from None
    if fy_start is not None and given != found:
        raise AdoptedValueError("outside_year", "lump_sum_deadline")
    return spec


def _replace_year(p: Parameter, label: str, v: AdoptedValue) -> Parameter:
    """`p` with fiscal year `label`'s value replaced by the adopted one."""
    try:
        value = _convert(p.type, v.value, p.name)
    except (TypeError, ValueError, InvalidOperation):
        raise AdoptedValueError("invalid", p.name) from None
    values = []
    for old in p.values:
        if old.open_ended:  # a statute's default: it holds for the other years
            values.append(old)
            continue
        years = tuple(y for y in old.fiscal_years if y != label)
        if years:
            values.append(DatedValue(fiscal_year_of_label(years[0]), old.value, old.reference,
                                     old.last_checked, years))
    values.append(DatedValue(fiscal_year_of_label(label), value, v.reference, v.last_checked,
                             (label,)))
    values.sort(key=lambda d: d.start)
    return Parameter(p.name, p.description, p.rule, p.type, p.set_by, tuple(values),
                     p.adoptable_by)


@lru_cache(maxsize=1)
def _files_set() -> ParameterSet:
    return ParameterSet(load(), closed_days())
