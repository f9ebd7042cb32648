"""The SQL a piece of code runs, seen through SQLAlchemy's public events only."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

from portal.db import Database


def _engine(of: Database | Engine) -> Engine:
    return of.engine if isinstance(of, Database) else of


class QueryCounter:
    """The statements sent to the database while it is open (`before_cursor_execute`):
    `count` of them, their SQL in `statements` and their parameters as the driver got them
    in `parameters`, and `account_reads`, those that are not the Board's recorded parameters
    (`board_parameters`: one small read per unit of work, whatever the number of parcels)."""

    def __init__(self, of: Database | Engine):
        self.engine = _engine(of)
        self.count = 0
        self.statements: list[str] = []
        self.parameters: list[Any] = []

    def _hit(self, _conn: Any, _cursor: Any, statement: str, parameters: Any,
             *_args: Any) -> None:
        self.count += 1
        self.statements.append(statement)
        self.parameters.append(parameters)

    @property
    def account_reads(self) -> int:
        return sum("board_parameter_values" not in s for s in self.statements)

    def __enter__(self) -> QueryCounter:
        event.listen(self.engine, "before_cursor_execute", self._hit)
        return self

    def __exit__(self, *exc: object) -> None:
        event.remove(self.engine, "before_cursor_execute", self._hit)


class StatementsExecuted:
    """The statement objects (Select, Insert, ...) executed while it is open, as the engine
    is handed them (`before_execute`: Core and ORM execution alike). Held, not copied: a
    statement built anew is a new object, one built once and reused is the same object.

    `new_since(earlier)`: those executed here that `earlier` did not execute, compared by
    identity; a service that builds no statement per call has none on its second call."""

    def __init__(self, of: Database | Engine):
        self.engine = _engine(of)
        self.statements: list[Any] = []

    def _hit(self, _conn: Any, clauseelement: Any, *_args: Any) -> None:
        self.statements.append(clauseelement)

    def new_since(self, earlier: StatementsExecuted) -> list[Any]:
        seen = {id(s) for s in earlier.statements}
        return [s for s in self.statements if id(s) not in seen]

    def __enter__(self) -> StatementsExecuted:
        event.listen(self.engine, "before_execute", self._hit)
        return self

    def __exit__(self, *exc: object) -> None:
        event.remove(self.engine, "before_execute", self._hit)
