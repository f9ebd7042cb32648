"""Reading the JSON inputs of `portal calc` strictly (docs/rules/D-calc-contract.md).

Money is a string (or integer) with at most two decimals, never negative; rates and units are
decimal strings; `count`, `grace_day` and `number` are integers; ids are strings; dates are
ISO `YYYY-MM-DD`. Every error names its field (`payments[1].amount`); unknown fields are errors.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from portal.core.errors import InputError
from portal.core.money import cents, parse_money

MISSING: Any = object()
MAX_MONEY = Decimal("999999999999.99")  # NUMERIC(14, 2)
# ASCII digits only, and the whole text (`\d` takes any script's digits, and `$` a newline at
# the end: "2026-07-01\n" was refused as "not a real date" instead of for its format).
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_MONEY = re.compile(r"[0-9]{1,12}(?:\.[0-9]{1,2})?")  # at most MAX_MONEY: parse_money's case
_DECIMAL = re.compile(r"^[0-9]+(\.[0-9]+)?$")
# Python's calendar ends on 9999-12-31; ten years of margin keep every count (days after a
# date, months of installments, roll-overs) inside it.
LAST_DATE = date(9989, 12, 31)


class Reader:
    """Typed, strict access to one JSON object; `done()` rejects fields nobody asked for."""

    def __init__(self, data: Any, path: str = ""):
        if not isinstance(data, dict):
            raise InputError("must be a JSON object", field=path or "input")
        self.data = data
        self.path = path
        self.seen: set[str] = set()

    def field(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    def has(self, name: str) -> bool:
        return name in self.data and self.data[name] is not None

    def _get(self, name: str, default: Any) -> Any:
        self.seen.add(name)
        if name not in self.data or self.data[name] is None:
            if default is MISSING:
                raise InputError("is required", field=self.field(name))
            return default
        return self.data[name]

    def value(self, name: str, default: Any = MISSING) -> Any:
        """The raw value of a field (None when absent), counted as read; `is required` if it
        is missing and has no default."""
        return self._get(name, default)

    def money(self, name: str, default: Any = MISSING) -> Decimal:
        raw = self._get(name, default)
        value = plain_money(raw)
        if value is not BAD:
            return value
        if isinstance(raw, Decimal) and raw is default:
            return raw
        if isinstance(raw, Decimal):  # a JSON number with a fraction: section D wants a string
            raise InputError(f"write amounts as strings such as \"{raw}\", not JSON numbers "
                             "with decimals", field=self.field(name))
        try:
            value = parse_money(raw)
        except (ValueError, InvalidOperation) as exc:
            raise InputError(str(exc), field=self.field(name)) from None
        if value > MAX_MONEY:
            raise InputError(f"is too large (at most {MAX_MONEY})", field=self.field(name))
        return value

    def decimal(self, name: str, default: Any = MISSING, *, maximum: Decimal | None = None
                ) -> Decimal:
        raw = self._get(name, default)
        if isinstance(raw, Decimal) and raw is default:
            return raw
        return parse_decimal(raw, self.field(name), maximum=maximum)

    def integer(self, name: str, default: Any = MISSING, *, minimum: int | None = None) -> int:
        raw = self._get(name, default)
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise InputError(f"must be a whole number, not {raw!r}", field=self.field(name))
        if minimum is not None and raw < minimum:
            raise InputError(f"must be at least {minimum}", field=self.field(name))
        return raw

    def date(self, name: str, default: Any = MISSING) -> date:
        raw = self._get(name, default)
        if isinstance(raw, date) or raw is None:
            return raw
        return parse_date(raw, self.field(name))

    def boolean(self, name: str, default: Any = MISSING) -> bool:
        raw = self._get(name, default)
        if not isinstance(raw, bool):
            raise InputError(f"must be true or false, not {raw!r}", field=self.field(name))
        return raw

    def string(self, name: str, default: Any = MISSING, *, choices: tuple[str, ...] = ()
               ) -> str:
        raw = self._get(name, default)
        if isinstance(raw, int) and not isinstance(raw, bool) and not choices:
            raw = str(raw)
        if not isinstance(raw, str):
            raise InputError(f"must be a string, not {raw!r}", field=self.field(name))
        if choices and raw not in choices:
            raise InputError(f"must be one of {', '.join(choices)}, not {raw!r}",
                             field=self.field(name))
        return raw

    def id(self, name: str) -> str:
        raw = self._get(name, MISSING)
        if isinstance(raw, bool) or not isinstance(raw, (str, int)):
            raise InputError(f"must be a string, not {raw!r}", field=self.field(name))
        return str(raw)

    def objects(self, name: str, default: Any = MISSING) -> list[Reader]:
        raw = self._get(name, default)
        if not isinstance(raw, list):
            raise InputError("must be a list", field=self.field(name))
        return [Reader(item, f"{self.field(name)}[{k}]") for k, item in enumerate(raw)]

    def dates(self, name: str) -> list[date]:
        raw = self._get(name, [])
        if not isinstance(raw, list):
            raise InputError("must be a list of dates", field=self.field(name))
        return [parse_date(x, f"{self.field(name)}[{k}]") for k, x in enumerate(raw)]

    def mapping(self, name: str) -> dict[str, Any]:
        raw = self._get(name, MISSING)
        if not isinstance(raw, dict):
            raise InputError("must be a JSON object", field=self.field(name))
        return raw

    def obj(self, name: str, default: Any = MISSING) -> Reader:
        raw = self._get(name, default)
        return Reader(raw, self.field(name))

    def done(self) -> None:
        if self.seen.issuperset(self.data):  # (the usual case, without building a list)
            return
        unknown = sorted(set(self.data) - self.seen)
        if unknown:
            raise InputError("is not a field of this operation", field=self.field(unknown[0]))

    def records(self, name: str, fields: Records, default: Any = MISSING
                ) -> list[list[Any]] | None:
        """The list `name` of objects read in one pass when every value is in its usual form
        (the common valid case): each object's values in the order of `fields`. None when
        anything is unusual or wrong: the caller then reads the list with `objects`, whose
        checks name the error (or accept the unusual form). A value None is a missing one,
        as everywhere in this reader."""
        raw = self._get(name, default)
        if raw.__class__ is not list:
            return None
        keys, spec = fields.keys, fields.spec
        dates, amounts = _DATES, _AMOUNTS
        rows = []
        for item in raw:
            if item.__class__ is not dict or not item.keys() <= keys:
                return None
            row = []
            for key, read, value_default in spec:
                value = item.get(key)
                if value is None:
                    if value_default is MISSING:
                        return None
                    row.append(value_default)
                    continue
                # (the texts already seen are looked up here, without a call: the hot path)
                if read is plain_date and value.__class__ is str and value in dates:
                    value = dates[value]
                elif read is plain_money and value.__class__ is str and value in amounts:
                    value = amounts[value]
                else:
                    value = read(value)
                    if value is BAD:
                        return None
                row.append(value)
            rows.append(row)
        return rows


#: What a plain reader answers for a value that is not in its usual form (see Reader.records).
BAD: Any = object()
_MAX_REMEMBERED = 4096
_DATES: dict[str, date] = {}  # texts already read as valid dates (the same few days recur)
_AMOUNTS: dict[str, Decimal] = {}  # texts already read as valid amounts


def plain_date(raw: Any) -> Any:
    """The date of a valid "YYYY-MM-DD" text (remembered), or BAD for anything else:
    `parse_date` then says what is wrong with it."""
    if raw.__class__ is not str:
        return BAD
    day = _DATES.get(raw)
    if day is None:
        if not _DATE.fullmatch(raw):
            return BAD
        try:
            day = date.fromisoformat(raw)
        except ValueError:
            return BAD
        if day > LAST_DATE:
            return BAD
        _remember(_DATES, raw, day)
    return day


def plain_money(raw: Any) -> Any:
    """The amount of a valid plain text such as "1234.50" (remembered), as `Reader.money`
    reads it, or BAD for anything else (an integer, a JSON number, an error...)."""
    if raw.__class__ is not str:
        return BAD
    value = _AMOUNTS.get(raw)
    if value is None:
        if not _MONEY.fullmatch(raw):
            return BAD
        value = cents(Decimal(raw))
        _remember(_AMOUNTS, raw, value)
    return value


def _remember(cache: dict[str, Any], text: str, value: Any) -> None:
    """Keep a text's value; a full cache starts again (bounded memory in a long process)."""
    if len(cache) >= _MAX_REMEMBERED:
        cache.clear()
    cache[text] = value


def plain_text(raw: Any) -> Any:
    return raw if raw.__class__ is str else BAD


class Records:
    """The fields of the objects of a list for `Reader.records`: (name, plain reader,
    default) each, MISSING for a required one; no other field is allowed."""

    def __init__(self, *spec: tuple[str, Callable[[Any], Any], Any]):
        self.spec = spec
        self.keys = frozenset(name for name, _read, _default in spec)


def parse_date(raw: Any, field: str) -> date:
    day = plain_date(raw)
    if day is not BAD:
        return day
    if not isinstance(raw, str) or not _DATE.fullmatch(raw):
        raise InputError(f"must be a date as YYYY-MM-DD, not {raw!r}", field=field)
    try:
        day = date.fromisoformat(raw)
    except ValueError:
        raise InputError(f"is not a real date: {raw!r}", field=field) from None
    if day > LAST_DATE:  # counting days or months from it would leave the calendar
        raise InputError(f"must be no later than {LAST_DATE.isoformat()}, not {raw!r}",
                         field=field)
    return day


#: The most digits a plain decimal (units, cuerdas, rates) may have before its point: products
#: with amounts then stay within Decimal's 28 digits once rounded to cents.
MAX_WHOLE_DIGITS = 15


def parse_decimal(raw: Any, field: str, *, maximum: Decimal | None = None) -> Decimal:
    if isinstance(raw, bool) or not isinstance(raw, (str, int)):
        shown = f'"{raw}"' if isinstance(raw, Decimal) else repr(raw)
        raise InputError(f"must be a decimal number written as a string such as {shown}",
                         field=field)
    text = str(raw).strip()
    if text.startswith("-"):
        raise InputError(f"must not be negative: {raw!r}", field=field)
    if not _DECIMAL.match(text) or len(text) > 40:
        raise InputError(f"must be a plain decimal number such as \"0.05\", not {raw!r}",
                         field=field)
    value = Decimal(text)
    if value.adjusted() >= MAX_WHOLE_DIGITS:
        raise InputError(f"is too large: at most {MAX_WHOLE_DIGITS} digits before the decimal "
                         f"point, not {raw!r}", field=field)
    if maximum is not None and value > maximum:
        raise InputError(f"must be at most {maximum}", field=field)
    return value
