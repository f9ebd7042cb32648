"""Accounts' rows as JSON columns of another statement (read-only pages).

A statement costs a page more in SQLAlchemy's own work than the database spends on it, so
the read-only pages read an account's installments and ledger entries (the parcel page: and
its budget lines, the Board's parameters, the boxes beside the account) as more columns of
the statement that reads the account: each a correlated subquery giving JSON text, one array
per row, built by the database (SQLite's json_group_array / json_array, PostgreSQL's json_agg
/ json_build_array, cast to text so that the driver does not read numbers as floats) and read
back here with the columns' types (dates; amounts as Decimal). `facts` builds the accounts'
subqueries with these; `in_force` the parameters'."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import Text
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.functions import FunctionElement

from portal.core.money import ZERO


class _JsonRow(FunctionElement):
    """SQL: a JSON array of the arguments."""

    inherit_cache = True


class _JsonRows(FunctionElement):
    """SQL aggregate: a JSON array of one value per row, as text (NULL for no row on
    PostgreSQL, "[]" on SQLite)."""

    type = Text()
    inherit_cache = True


#: Each construct's SQL per dialect ({} is the arguments); the portal speaks these two.
_JSON_SQL = {
    _JsonRow: {"sqlite": "json_array({})", "postgresql": "json_build_array({})"},
    _JsonRows: {"sqlite": "json_group_array({})", "postgresql": "CAST(json_agg({}) AS TEXT)"},
}


def _json_sql(template: str) -> Callable[..., str]:
    def compile_(element: FunctionElement, compiler: Any, **kw: Any) -> str:
        return template.format(compiler.process(element.clauses, **kw))
    return compile_


for _construct, _by_dialect in _JSON_SQL.items():
    for _dialect, _template in _by_dialect.items():
        compiles(_construct, _dialect)(_json_sql(_template))


def json_rows(*columns: Any) -> Any:
    """SQL aggregate: the rows' `columns` as JSON text, one array per row (`read_json_rows`)."""
    return _JsonRows(_JsonRow(*columns))


#: `json.loads(text, parse_float=Decimal)` makes a decoder on every call (a parcel page
#: reads about ten JSON columns); this one is made once (decoding keeps no state).
_DECODER = json.JSONDecoder(parse_float=Decimal)


def read_json_rows(text: str | None) -> list[list[Any]]:
    """`json_rows`' value: a list per row; JSON numbers with a fraction as `Decimal` (never
    float), integers as int (amounts: `stored_money`)."""
    return _DECODER.decode(text or "[]")


def stored_money(value: Decimal | int | None) -> Decimal | None:
    """An amount of a NUMERIC(14, 2) column as read from JSON, with its two decimals
    (600 -> 600.00): exact, no rounding (adding 0.00 keeps every digit)."""
    return None if value is None else Decimal(value) + ZERO


def stored_date(value: str | None) -> date | None:
    return None if value is None else date.fromisoformat(value)


def stored_instant(value: str | None) -> datetime | None:
    """An instant (`UTCDateTime`) as read from JSON: aware, in UTC (SQLite stores it naive
    in UTC, PostgreSQL with its offset), as the column's type gives it."""
    if value is None:
        return None
    found = datetime.fromisoformat(value)
    return found.replace(tzinfo=UTC) if found.tzinfo is None else found.astimezone(UTC)
