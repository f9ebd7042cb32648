"""The Board's parameters in force (R-A7, R-A8, R-A11, J8) and the days it declared closed
(docs/rules/README.md, "Closed days"): what every service reads parameters through.

Storage is append-only (`BoardParameterValue`: staff record a value with
`portal.roll.board_parameters`); a parameter's value for a fiscal year is its latest row in
effect (by effective date, then by id). A recorded value is in force from its effective day:
every statement computed from then on reads it for the whole fiscal year; a value effective
on or before its fiscal year's first day (1 July) is that year's from the day it is recorded
(`ParameterSet.with_values`), so next year's rates recorded in advance serve its roll.

`parameter_set(uow)` is the files' values with the rows on top
(`portal.core.params.ParameterSet.with_values`). It reads the table once per unit of work (a
few dozen rows a year), so a change is in force on the next request of every web worker; the
set built from the same rows is shared (`_build`, keyed by the rows themselves), never a
process-wide value another worker would not see.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from functools import lru_cache
from typing import Any

from sqlalchemy import select

from portal import clock
from portal.accounts.json_rows import json_rows, read_json_rows, stored_date
from portal.core import params
from portal.core.params import AdoptedValue, ClosedDay, ParameterSet
from portal.core.statement import StatementRules
from portal.db import UnitOfWork
from portal.models import BoardParameterValue
from portal.models.board_parameters import CLOSED_DAY

#: The table's rows as `_build`'s tuples: the columns, not the rows as objects (their
#: loading was most of the dashboard's read of the parameters).
_V = BoardParameterValue
_ROWS = select(_V.id, _V.fiscal_year, _V.name, _V.value, _V.effective_on,
               _V.resolution_number, _V.resolution_date, _V.reason_es,
               _V.reason_en).order_by(_V.id)
_INFO_KEY = "board_parameters"


def reference(resolution_number: str) -> str:
    """How a recorded value names its resolution (the Board's resolutions are in Spanish)."""
    return f"Resolución {resolution_number}"


@lru_cache(maxsize=16)
def _build(records: tuple[tuple, ...], today: date) -> ParameterSet:
    values, closed = [], []
    for _id, fy, name, value, effective, number, resolved, reason_es, reason_en in records:
        if name == CLOSED_DAY:
            if effective > today:
                continue
            closed.append(ClosedDay(date.fromisoformat(value), reason_es, reason_en,
                                    reference(number)))
            continue
        kind = params.parameter(name).type
        values.append(AdoptedValue(name, fy, int(value) if kind == "int" else value,
                                   reference(number), effective, resolved))
    return ParameterSet.files().with_values(values, closed, as_of=today)


def parameter_set(uow: UnitOfWork) -> ParameterSet:
    """The parameters in force today: the files' values with the recorded ones on top, read
    once per unit of work."""
    if is_read(uow):
        return uow.info[_INFO_KEY][1]
    today = clock.today()
    # Plain columns, run on the unit of work's connection: through the ORM, its own work on
    # the statement was most of this read (~75 -> 25 us; the dashboard reads it per request).
    # No autoflush is missed: the table's writers (`roll.board_parameters`) flush first.
    rows = tuple(tuple(r) for r in uow.connection().execute(_ROWS))
    ps = _build(rows, today)
    uow.info[_INFO_KEY] = (today, ps)
    return ps


def is_read(uow: UnitOfWork) -> bool:
    """Whether this unit of work has today's parameters already (`parameter_set` reads
    none)."""
    found = uow.info.get(_INFO_KEY)
    return found is not None and found[0] == clock.today()


def rows_json() -> Any:
    """SQL (a scalar subquery): the table's rows as JSON, for a statement that reads more
    than the parameters (the parcel page's account, `statements.statement_for`); then
    `read_rows_json` makes them this unit of work's `parameter_set`, as if read alone."""
    t = BoardParameterValue.__table__
    return select(json_rows(t.c.id, t.c.fiscal_year, t.c.name, t.c.value, t.c.effective_on,
                            t.c.resolution_number, t.c.resolution_date, t.c.reason_es,
                            t.c.reason_en)).scalar_subquery()


def read_rows_json(uow: UnitOfWork, text: str | None) -> None:
    """`rows_json`'s value as the unit of work's `parameter_set` (unless it read one today)."""
    if is_read(uow):
        return
    today = clock.today()
    rows = tuple(sorted((rid, fy, name, value, stored_date(effective), number,
                         stored_date(resolved), es, en)
                        for rid, fy, name, value, effective, number, resolved, es, en
                        in read_json_rows(text)))
    uow.info[_INFO_KEY] = (today, _build(rows, today))


@lru_cache(maxsize=64)
def _rules(ps: ParameterSet, fy_start: date) -> StatementRules:
    return StatementRules(**ps.statement_rules(fy_start))


def rules_for(uow: UnitOfWork, fy_start: date) -> StatementRules:
    """The rules of every statement of the fiscal year opening on `fy_start`, from the
    parameters in force (`parameter_set`): R-A6 to R-A11 with the declared closed days."""
    return _rules(parameter_set(uow), fy_start)


def demand_minimum(uow: UnitOfWork, fy_start: date) -> Decimal:
    """R-A17 (revision 3): the Board's `demand_minimum` in force for the fiscal year opening
    on `fy_start` (0.00 until the Board adopts one)."""
    return Decimal(str(parameter_set(uow).for_fiscal_year("demand_minimum", fy_start)))


def forget(uow: UnitOfWork) -> None:
    """Read the table again on the next `parameter_set` (after recording a value)."""
    uow.info.pop(_INFO_KEY, None)


def closed_days(uow: UnitOfWork) -> tuple[ClosedDay, ...]:
    """Every day the Board declared closed (the files' and the recorded ones), by day."""
    return parameter_set(uow).closed_days()
