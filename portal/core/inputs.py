"""Reading the JSON inputs of `portal calc` strictly (docs/rules/D-calc-contract.md).

Money is a string (or integer) with at most two decimals, never negative; rates and units are
decimal strings; `count`, `grace_day` and `number` are integers; ids are strings; dates are
ISO `YYYY-MM-DD`. Every error names its field (`payments[1].amount`); unknown fields are errors.
"""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from portal.core.errors import InputError
from portal.core.money import parse_money

MISSING: Any = object()
MAX_MONEY = Decimal("999999999999.99")  # NUMERIC(14, 2)
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
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

    def money(self, name: str, default: Any = MISSING) -> Decimal:
        raw = self._get(name, default)
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
        unknown = sorted(set(self.data) - self.seen)
        if unknown:
            raise InputError("is not a field of this operation", field=self.field(unknown[0]))


def parse_date(raw: Any, field: str) -> date:
    if not isinstance(raw, str) or not _DATE.match(raw):
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
