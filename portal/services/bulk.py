"""Bulk inserts for batches (the roll, the demo): fast on both databases.

- PostgreSQL: COPY ... FROM STDIN (psycopg 3); new ids, when wanted, are taken from the
  table's sequence first (`nextval`), so concurrent writers never clash.
- SQLite: the DB-API's executemany; the new ids are the last ones, max(id) after the insert
  (an INTEGER PRIMARY KEY takes max(rowid) + 1; a writing transaction has the database to
  itself).

Column defaults of the models (e.g. `created_at`) are filled in here, as the ORM would.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Table, text

from portal.db import UnitOfWork


def _defaults(table: Table, keys: set[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for col in table.columns:
        if col.name in keys or col.default is None or col.primary_key:
            continue
        d = col.default
        if getattr(d, "is_scalar", False):
            out[col.name] = d.arg
        elif getattr(d, "is_callable", False):
            out[col.name] = d.arg(None)
    return out


def insert_rows(uow: UnitOfWork, model_or_table: Any, rows: Sequence[dict[str, Any]], *,
                return_ids: bool = False, chunk: int = 5000) -> list[int]:
    """Insert `rows` (dicts by column name) into the table; the new ids in row order when
    `return_ids`."""
    table: Table = getattr(model_or_table, "__table__", model_or_table)
    if not rows:
        return []
    keys = set().union(*(r.keys() for r in rows[:1]))
    defaults = _defaults(table, keys)
    conn = uow.session.connection()
    if conn.dialect.name == "postgresql":
        ids: list[int] = []
        if return_ids:
            seq = conn.execute(text("SELECT pg_get_serial_sequence(:t, 'id')"),
                               {"t": table.name}).scalar()
            ids = list(conn.execute(text("SELECT nextval(:s) FROM generate_series(1, :n)"),
                                    {"s": seq, "n": len(rows)}).scalars())
        cols = [c.name for c in table.columns
                if c.name in keys or c.name in defaults or (return_ids and c.name == "id")]
        raw = conn.connection.dbapi_connection
        with raw.cursor() as cur:
            with cur.copy(f'COPY "{table.name}" ({", ".join(cols)}) FROM STDIN') as copy:
                for k, row in enumerate(rows):
                    full = {**defaults, **row}
                    if return_ids:
                        full["id"] = ids[k]
                    copy.write_row([full.get(c) for c in cols])
        return ids
    # SQLite: the DB-API's executemany with the columns' own bind processing (the same
    # stored values as an ORM insert, without its per-row overhead).
    dialect = conn.dialect
    cols = [c for c in table.columns if c.name in keys or c.name in defaults]
    procs = [c.type._cached_bind_processor(dialect) for c in cols]
    sql = (f'INSERT INTO "{table.name}" ({", ".join(c.name for c in cols)}) '
           f'VALUES ({", ".join("?" for _ in cols)})')
    raw = conn.connection.dbapi_connection
    cur = raw.cursor()
    try:
        for start in range(0, len(rows), chunk):
            values = []
            for r in rows[start:start + chunk]:
                full = {**defaults, **r}
                values.append(tuple(p(full.get(c.name)) if p else full.get(c.name)
                                    for c, p in zip(cols, procs)))
            cur.executemany(sql, values)
    finally:
        cur.close()
    if not return_ids:
        return []
    # An INTEGER PRIMARY KEY takes max(rowid) + 1, and once it has written, the transaction
    # has the database to itself: the new ids are the last len(rows) ones, in order.
    last = conn.execute(text(f'SELECT max(id) FROM "{table.name}"')).scalar()
    return list(range(last - len(rows) + 1, last + 1))


def analyze(uow: UnitOfWork, *tables: Any) -> None:
    """Refresh the planner's statistics after a batch (SQLite has no autovacuum; on
    PostgreSQL it spares waiting for it): without them SQLite may scan a whole fiscal year
    instead of using the parcel index."""
    conn = uow.session.connection()
    for t in tables:
        name = getattr(t, "__tablename__", None) or getattr(t, "name", t)
        conn.execute(text(f'ANALYZE "{name}"'))
