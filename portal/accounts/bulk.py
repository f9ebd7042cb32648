"""Bulk inserts for batches (the roll, its import, the demo): fast on both databases.

- PostgreSQL: COPY ... FROM STDIN (psycopg 3); new ids, when wanted, are taken from the
  table's sequence first (`nextval`), so concurrent writers never clash. `copy_lines` takes
  rows already written as COPY's text (the roll's installments: twelve per parcel).
- SQLite: the DB-API's executemany; the new ids are the last ones, max(id) after the insert
  (an INTEGER PRIMARY KEY takes max(rowid) + 1; a writing transaction has the database to
  itself).

**Foreign keys, a batch at a time (PostgreSQL).** PostgreSQL checks a foreign key with a
trigger per row: a query and a row lock for each key of each row, which on the roll's
publication (16.7 M installments, 1.4 M assessments, charges and notices, about 40 M keys
with the import) cost twice the COPY itself. When the database role may set
`session_replication_role` (a superuser, or `GRANT SET ON PARAMETER session_replication_role`
on PostgreSQL 15 and later) and the table has no trigger but its foreign keys' own, a COPY runs
with the row triggers off for that statement only (`SET LOCAL`, set back right after it), and
each foreign key of the rows written is then checked in the same transaction by one query: the
distinct values the rows hold, every one found in the referenced table and locked there `FOR
KEY SHARE` — what the per-row trigger does (the same check, the same lock, before the
transaction can commit). A value not found raises `IntegrityError` and the batch rolls back:
nothing of it is written. Without that privilege the COPY runs with the per-row triggers.
A caller may name (`known`) key values that are rows its own transaction has just written
(the ids `insert_rows` returned: a publication's assessments for their installments,
charges and notices; an import's new parcels and parties for their shares and leases), or
has already checked and so locked (the parcels of those assessments): those are not looked
up again, since no other transaction can delete them or change their key before this one
commits (what the lock, or not yet being visible to others, guarantees).

Column defaults of the models (e.g. `created_at`) are filled in here, as the ORM would.
Facts a loan's kept figures read (ledger entries, assessments, installments, the Board's
values, fiscal years) raise the District's version in the same transaction
(`models.fact_versions.bulk_written`), as the ORM's flush raises theirs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Any

from sqlalchemy import Date, DateTime, Numeric, Table, text
from sqlalchemy.exc import IntegrityError

from portal.db import UnitOfWork
from portal.models import fact_versions

#: Bytes of COPY text sent at a time by `copy_lines`.
COPY_BUFFER = 1 << 18


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


def _table(model_or_table: Any) -> Table:
    return getattr(model_or_table, "__table__", model_or_table)


def _foreign_keys(table: Table, cols: Sequence[str]) -> list[tuple[int, str, str, str]]:
    """(position in `cols`, column, referenced table, referenced column) of each single-column
    foreign key among `cols`."""
    out = []
    for fk in table.foreign_keys:
        if fk.parent.name in cols:
            out.append((cols.index(fk.parent.name), fk.parent.name, fk.column.table.name,
                        fk.column.name))
    return out


def _keys_by_batch(conn: Any, table: Table) -> bool:
    """Whether this connection may COPY into `table` with its foreign keys checked a batch at
    a time (module docstring): the role may set `session_replication_role`, and the table has
    no trigger other than its foreign keys' (a trigger of its own must still fire)."""
    info = conn.connection.info
    may = info.get("bulk_replica_role")
    if may is None:
        raw = conn.connection.dbapi_connection
        may = False
        if raw.info.server_version >= 150000:
            may = bool(conn.execute(text(
                "SELECT current_setting('is_superuser') = 'on' OR "
                "has_parameter_privilege('session_replication_role', 'SET')")).scalar())
        info["bulk_replica_role"] = may
    if not may:
        return False
    plain = info.setdefault("bulk_plain_tables", {})
    if table.name not in plain:
        plain[table.name] = not conn.execute(text(
            "SELECT count(*) FROM pg_trigger WHERE tgrelid = CAST(:t AS regclass) "
            "AND NOT tgisinternal"), {"t": table.name}).scalar()
    return plain[table.name]


def _check_keys(cur: Any, table: Table, fks: Sequence[tuple[int, str, str, str]],
                values: Sequence[set[Any]]) -> None:
    """Each foreign key of the rows just written: every distinct value found in the
    referenced table, and locked there as the per-row trigger locks it (`FOR KEY SHARE`)."""
    for (_, col, ref_table, ref_col), wanted in zip(fks, values):
        wanted.discard(None)
        if not wanted:
            continue
        if all(type(v) is int for v in wanted):  # ids: the array as text (psycopg's list
            values: Any = "{" + ",".join(map(str, wanted)) + "}"  # dumper is slow)
            cast = "CAST(%s AS bigint[])"
        else:
            values, cast = list(wanted), "%s"
        cur.execute(f'SELECT count(*) FROM (SELECT 1 FROM "{ref_table}" WHERE "{ref_col}" = '
                    f'ANY({cast}) FOR KEY SHARE) AS k', [values])
        found = cur.fetchone()[0]
        if found != len(wanted):
            raise IntegrityError(
                f'INSERT INTO "{table.name}"', None,
                ValueError(f'{table.name}.{col}: {len(wanted) - found} value(s) not in '
                           f'{ref_table}.{ref_col}'))


def _copy(uow: UnitOfWork, table: Table, cols: Sequence[str], write: Any,
          keys: Sequence[set[Any]] | None, known: Mapping[str, Iterable[Any]] | None = None
          ) -> None:
    """One COPY into `table` (`write(copy, fk_values)` sends the rows and fills in the
    foreign keys' values), its foreign keys checked a batch at a time when it may be;
    `known` ({column: values}) names rows this transaction wrote or checked itself, which
    need no check (module docstring)."""
    conn = uow.connection()
    fks = _foreign_keys(table, cols)
    batch = bool(fks) and _keys_by_batch(conn, table)
    values: list[set[Any]] = [set() for _ in fks] if keys is None else list(keys)
    raw = conn.connection.dbapi_connection
    with raw.cursor() as cur:
        if batch:  # (a failed COPY aborts the transaction, and its rollback undoes this)
            cur.execute("SET LOCAL session_replication_role = replica")
        with cur.copy(f'COPY "{table.name}" ({", ".join(cols)}) FROM STDIN') as copy:
            write(copy, [(k, v) for (k, *_), v in zip(fks, values)] if batch
                  and keys is None else [])
        if batch:
            cur.execute("SET LOCAL session_replication_role = origin")
            for (_, col, _, _), seen in zip(fks, values):
                if known and col in known:
                    seen.difference_update(known[col])
            _check_keys(cur, table, fks, values)


def _as_text(table: Table, cols: Sequence[str]) -> list[int]:
    """Positions in `cols` of the numbers (of a fixed scale), dates and instants:
    `insert_rows` gives COPY their text (`str`: PostgreSQL's own input forms, an instant
    with its offset), each distinct value's once per batch (most repeat: the batch's
    instant, the notice's day, the amounts), several times faster than psycopg's adapting
    each Decimal, date or datetime. Equal values store the same there (a fixed scale; the
    same instant; the same day), whichever of them is written."""
    out = []
    for i, name in enumerate(cols):
        t = table.c[name].type
        t = getattr(t, "impl", t)
        if isinstance(t, Date | DateTime) or (isinstance(t, Numeric)
                                              and getattr(t, "scale", None) is not None):
            out.append(i)
    return out


def insert_rows(uow: UnitOfWork, model_or_table: Any, rows: Sequence[dict[str, Any]], *,
                return_ids: bool = False, chunk: int = 5000,
                known: Mapping[str, Iterable[Any]] | None = None) -> list[int]:
    """Insert `rows` (dicts by column name) into the table; the new ids in row order when
    `return_ids`. `known`: for a foreign-key column, values that are rows this transaction
    wrote itself (ids `insert_rows` returned) or has checked already, which need no check
    (module docstring)."""
    table = _table(model_or_table)
    if not rows:
        return []
    keys = set().union(*(r.keys() for r in rows[:1]))
    defaults = _defaults(table, keys)
    conn = uow.connection()
    fact_versions.bulk_written(conn, table.name)  # (facts: in the same transaction)
    if conn.dialect.name == "postgresql":
        ids: list[int] = []
        if return_ids:
            seq = conn.execute(text("SELECT pg_get_serial_sequence(:t, 'id')"),
                               {"t": table.name}).scalar()
            ids = sorted(map(int, conn.execute(text(  # (one string: no result row per id)
                "SELECT string_agg(nextval(:s)::text, ',') FROM generate_series(1, :n)"),
                {"s": seq, "n": len(rows)}).scalar().split(",")))
        # The COPY's columns: those of the rows, then the defaults (the same for every row,
        # made once), then the id.
        given = [c.name for c in table.columns
                 if c.name in keys and not (return_ids and c.name == "id")]
        fixed = [c.name for c in table.columns if c.name in defaults and c.name not in keys]
        cols = given + fixed + (["id"] if return_ids else [])
        as_text = set(_as_text(table, cols))
        constants = [defaults[c] if i not in as_text or defaults[c] is None
                     else str(defaults[c]) for i, c in enumerate(fixed, start=len(given))]
        convert = [(i, {}) for i in range(len(given)) if i in as_text]
        pick = (itemgetter(*given) if len(given) > 1 else
                (lambda r: (r[given[0]],)) if given else (lambda r: ()))

        def write(copy: Any, fk_values: list[tuple[int, set[Any]]]) -> None:
            for k, row in enumerate(rows):
                try:
                    values = [*pick(row), *constants]
                except KeyError:  # a row without one of the first row's columns: NULL
                    values = [row.get(c) for c in given] + constants
                if return_ids:
                    values.append(ids[k])
                for i, seen in convert:
                    v = values[i]
                    if v is not None:
                        t = seen.get(v)
                        if t is None:
                            t = seen[v] = str(v)
                        values[i] = t
                for i, seen in fk_values:
                    seen.add(values[i])
                copy.write_row(values)

        _copy(uow, table, cols, write, None, known)
        return ids
    # SQLite: the DB-API's executemany with the columns' own bind processing (the same
    # stored values as an ORM insert, without its per-row overhead).
    dialect = conn.dialect
    scols = [c for c in table.columns if c.name in keys or c.name in defaults]
    procs = [c.type._cached_bind_processor(dialect) for c in scols]
    sql = (f'INSERT INTO "{table.name}" ({", ".join(c.name for c in scols)}) '
           f'VALUES ({", ".join("?" for _ in scols)})')
    raw = conn.connection.dbapi_connection
    cur = raw.cursor()
    try:
        for start in range(0, len(rows), chunk):
            values = []
            for r in rows[start:start + chunk]:
                full = {**defaults, **r}
                values.append(tuple(p(full.get(c.name)) if p else full.get(c.name)
                                    for c, p in zip(scols, procs)))
            cur.executemany(sql, values)
    finally:
        cur.close()
    if not return_ids:
        return []
    # An INTEGER PRIMARY KEY takes max(rowid) + 1, and once it has written, the transaction
    # has the database to itself: the new ids are the last len(rows) ones, in order.
    last = conn.execute(text(f'SELECT max(id) FROM "{table.name}"')).scalar()
    return list(range(last - len(rows) + 1, last + 1))


def copy_lines(uow: UnitOfWork, model_or_table: Any, columns: Sequence[str],
               lines: Iterable[str], keys: Mapping[str, Iterable[Any]],
               known: Mapping[str, Iterable[Any]] | None = None) -> None:
    """PostgreSQL only: COPY rows already written as COPY's text format (one line each,
    tab-separated, `\\N` for NULL, in the order of `columns`; the caller writes only values
    that need no escaping: numbers and dates). `keys` gives, for each foreign-key column
    among `columns`, the values the lines hold (checked a batch at a time, module
    docstring)."""
    table = _table(model_or_table)
    cols = list(columns)
    fks = _foreign_keys(table, cols)
    missing = [c for _, c, _, _ in fks if c not in keys]
    if missing:
        raise ValueError(f"copy_lines needs the values of {', '.join(missing)}")
    values = [set(keys[c]) for _, c, _, _ in fks]
    fact_versions.bulk_written(uow.connection(), table.name)

    def write(copy: Any, _fk_values: Any) -> None:
        buffer: list[str] = []
        size = 0
        for line in lines:
            buffer.append(line)
            size += len(line)
            if size >= COPY_BUFFER:
                copy.write("".join(buffer))
                buffer, size = [], 0
        if buffer:
            copy.write("".join(buffer))

    _copy(uow, table, cols, write, values, known)


def batch_commit(uow: UnitOfWork) -> None:
    """PostgreSQL: this transaction's commit does not wait for its WAL to reach the disk
    (`SET LOCAL synchronous_commit = off`, this transaction only). For the batches of the
    roll's jobs, each committed with its job's progress: a crash of the server may lose the
    last batches committed, each whole with its progress (never a part of one), and the
    job's recovery does them again. Nothing else changes: the batch is as atomic, isolated
    and checked as before."""
    conn = uow.connection()
    if conn.dialect.name == "postgresql":
        conn.execute(text("SET LOCAL synchronous_commit = off"))


def analyze_all(uow: UnitOfWork) -> None:
    """The planner's statistics of every table (after the demo's load; SQLite's each day,
    `portal.domains`). The small tables count as much as the large ones: with no statistics
    on `fiscal_years` and the budget's tables, SQLite's plan for the parcel page's account built
    a Bloom filter of every notice on file for each page (a scan of the table: 0.19 ms instead of
    0.05 ms for the page's account at 2,000 parcels, growing with the notices). On SQLite
    at most 1,000 rows of each index are read (`analysis_limit`), so it stays short at any
    size."""
    conn = uow.connection()
    if conn.dialect.name == "sqlite":
        conn.execute(text("PRAGMA analysis_limit = 1000"))
    conn.execute(text("ANALYZE"))


def analyze(uow: UnitOfWork, *tables: Any) -> None:
    """Refresh the planner's statistics after a batch (SQLite has no autovacuum; on
    PostgreSQL it spares waiting for it): without them SQLite may scan a whole fiscal year
    instead of using the parcel index."""
    conn = uow.connection()
    for t in tables:
        name = getattr(t, "__tablename__", None) or getattr(t, "name", t)
        conn.execute(text(f'ANALYZE "{name}"'))
