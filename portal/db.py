"""The database: engine, sessions and the unit of work (DESIGN.md 1, ARCHITECTURE.md).

`DATABASE_URL` chooses the database (`portal.config`): by default an SQLite file `portal.db`
in the instance folder (`PORTAL_INSTANCE`, else `instance/` under the project root);
PostgreSQL as `postgresql+psycopg://user@host/db`. The schema is created only by the Alembic
migrations (`portal db upgrade`).

Services own their transactions: each operation runs inside one `UnitOfWork`, which commits
when the block succeeds and rolls back when it raises::

    with UnitOfWork() as uow:                 # or Database(url).unit_of_work()
        parcels = access.visible_parcels(uow, user)
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from types import TracebackType
from typing import Any

from sqlalchemy import Connection, Engine, Executable, create_engine, event, lambda_stmt, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.sql.lambdas import StatementLambdaElement

from portal import config
from portal.core.fold import fold

PROJECT_ROOT = Path(__file__).resolve().parents[1]


def database_url(url: str | None = None) -> str:
    """The URL to use: the argument, else `DATABASE_URL`, else `<instance>/portal.db`
    (`portal.config.database_url`, which the app, every command and the migrations read)."""
    return config.database_url(url)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
    # The staff search's accent- and case-insensitive match (PostgreSQL's is migration bo281).
    dbapi_connection.create_function("portal_fold", 1, fold, deterministic=True)


#: {name: statement} of `prepared`: a name stands for one statement.
_PREPARED: dict[str, Executable] = {}


def prepared(stmt: Executable, name: str) -> StatementLambdaElement:
    """`stmt` as SQLAlchemy's lambda statement (`lambda_stmt`), to be executed as it is many
    times: its compiled form is found by this function's lambda and `name`, not by the
    statement's cache key, a tuple of the whole statement that is hashed again on every
    execution (for the parcel page's account statement, ~140,000 of its ~1,050,000
    instructions). The same SQL, parameters and rows; the engine's events see it as any
    statement. `name` is the statement's own (a second statement under a name raises)."""
    if _PREPARED.setdefault(name, stmt) is not stmt:
        raise ValueError(f"{name!r} already names another statement")
    return lambda_stmt(lambda: stmt, track_on=[name])


def include_object(obj: Any, name: str | None, type_: str, reflected: bool,
                   compare_to: Any) -> bool:
    """Alembic's comparison of the models with a database leaves out the trigram indexes
    (`*_trgm`, PostgreSQL only, over `portal_fold`: migration bo281), which no model
    declares."""
    return not (type_ == "index" and bool(name) and str(name).endswith("_trgm"))


def make_engine(url: str | None = None, **kwargs: Any) -> Engine:
    """An engine for `url` (see `database_url`). SQLite: foreign keys on, folder created."""
    resolved = make_url(database_url(url))
    if resolved.get_backend_name() == "sqlite":
        db = resolved.database
        if db and db != ":memory:" and not db.startswith("file:"):
            Path(db).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(resolved, **kwargs)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    kwargs.setdefault("pool_pre_ping", True)
    if resolved.get_backend_name() == "postgresql":
        # pg_stat_activity names the portal's connections (PORTAL_DB_APPLICATION_NAME).
        connect_args = kwargs.setdefault("connect_args", {})
        connect_args.setdefault("application_name", application_name())
    return create_engine(resolved, **kwargs)


def application_name() -> str:
    """The name PostgreSQL shows for this process's connections: PORTAL_DB_APPLICATION_NAME,
    else `portal-<command>` (`portal-gunicorn`, `portal-worker`, ...)."""
    import os
    import sys

    given = os.environ.get("PORTAL_DB_APPLICATION_NAME", "").strip()
    if given:
        return given[:63]
    argv = sys.argv
    command = Path(argv[0]).name if argv and argv[0] else "python"
    if command == "portal" and len(argv) > 1:
        command = argv[1]
    return f"portal-{command}"[:63]


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


#: PostgreSQL's SQLSTATEs of a statement refused because others hold what it needs: a lock
#: not had within `lock_timeout` (55P03), a deadlock (40P01), a serialization failure (40001).
BUSY_STATES = frozenset({"55P03", "40P01", "40001"})
#: Seconds a page refused so says to wait (Retry-After): SQLite's busy timeout is 5 s.
RETRY_AFTER = 5


def is_busy(exc: BaseException) -> bool:
    """Whether `exc` is the database being busy, not wrong: SQLite's write lock still held
    by another connection when `busy_timeout` (5 s) ran out ("database is locked"), or
    PostgreSQL's `BUSY_STATES`. Trying again a moment later succeeds."""
    if not isinstance(exc, OperationalError):
        return False
    orig = exc.orig
    if isinstance(orig, sqlite3.OperationalError):
        return str(orig).startswith(("database is locked", "database table is locked"))
    return getattr(orig, "sqlstate", None) in BUSY_STATES


class Database:
    """An engine and its session factory. One per process (and per URL) is enough."""

    def __init__(self, url: str | None = None, engine: Engine | None = None):
        self.engine = engine if engine is not None else make_engine(url)
        self.sessionmaker: sessionmaker[Session] = sessionmaker(
            bind=self.engine, expire_on_commit=False, autoflush=True)

    @property
    def url(self) -> str:
        return self.engine.url.render_as_string(hide_password=True)

    def unit_of_work(self) -> UnitOfWork:
        return UnitOfWork(self)

    def dispose(self) -> None:
        self.engine.dispose()


_databases: dict[str, Database] = {}
_lock = threading.Lock()


def get_database(url: str | None = None) -> Database:
    """The process-wide Database for `url` (default: `DATABASE_URL` / the SQLite file)."""
    key = database_url(url)
    with _lock:
        db = _databases.get(key)
        if db is None:
            db = _databases[key] = Database(key)
        return db


def reset_databases() -> None:
    """Dispose of every cached engine (tests, or after changing DATABASE_URL)."""
    with _lock:
        for db in _databases.values():
            db.dispose()
        _databases.clear()


def forget_inherited_connections() -> None:
    """After a fork (gunicorn's preloaded workers): drop the parent's pooled connections
    without closing them (they are the parent's), so the child opens its own."""
    with _lock:
        for db in _databases.values():
            db.engine.dispose(close=False)


class UnitOfWork:
    """One transaction: `session` inside a `with` block; commit on success, rollback on error.

    `commit()` may be called inside the block to make progress durable (a long batch); the
    block still commits what is left at its end. `info` carries per-operation context (for
    example the request's IP address for the audit log).
    """

    def __init__(self, database: Database | None = None, *, url: str | None = None):
        self.database = database if database is not None else get_database(url)
        self._session: Session | None = None
        self.info: dict[str, Any] = {}

    @property
    def session(self) -> Session:
        if self._session is None:
            raise RuntimeError("the unit of work is used outside its `with` block")
        return self._session

    def __enter__(self) -> UnitOfWork:
        if self._session is not None:
            raise RuntimeError("a unit of work is not re-entrant")
        self._session = self.database.sessionmaker()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        session = self.session
        try:
            if exc_type is None:
                session.commit()
            else:
                session.rollback()
        finally:
            session.close()
            self._session = None

    def connection(self) -> Connection:
        """The transaction's connection, for Core statements (plain rows, none of the ORM
        session's work on the statement)."""
        return self.session.connection()

    def commit(self) -> None:
        self.session.commit()

    def rollback(self) -> None:
        self.session.rollback()

    def flush(self) -> None:
        self.session.flush()


class ReadingUnitOfWork(UnitOfWork):
    """A unit of work that only reads (a page's view model): its Core statements
    (`connection()`) run on a pooled connection in one transaction; no ORM session is made
    unless a service asks for `session` (a cache's refill), which is then bound to the same
    connection and refuses to flush a change. An ORM session costs a request ~270,000
    instructions (callgrind) even when it only lends its connection, more than the parcel
    page's account statement's own work in SQLAlchemy. The transaction ends with a COMMIT
    (it wrote nothing): at a ROLLBACK psycopg forgets the connection's prepared statements,
    and PostgreSQL would plan the page's statements again on every request (docs/DATA.md,
    "Prepared statements")."""

    def __init__(self, database: Database | None = None, *, url: str | None = None):
        super().__init__(database, url=url)
        self._connection: Connection | None = None
        self._open = False

    @property
    def session(self) -> Session:
        if self._session is None:
            connection = self.connection()  # (outside the `with` block: it raises)
            if not connection.in_transaction():  # the session joins it, not owns it: its
                connection.begin()  # close would otherwise roll it back (see `__exit__`)
            self._session = self.database.sessionmaker(bind=connection)
            event.listen(self._session, "before_flush", _refuse_changes)
        return self._session

    def connection(self) -> Connection:
        if self._connection is None:
            if not self._open:
                raise RuntimeError("the unit of work is used outside its `with` block")
            self._connection = self.database.engine.connect()
        return self._connection

    def __enter__(self) -> ReadingUnitOfWork:
        if self._open:
            raise RuntimeError("a unit of work is not re-entrant")
        self._open = True
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        session, connection = self._session, self._connection
        self._session = self._connection = None
        self._open = False
        try:
            if session is not None:
                session.close()
            if connection is not None and exc_type is None:
                connection.commit()
        finally:
            if connection is not None:
                connection.close()  # after an error, the pool rolls the transaction back

    def commit(self) -> None:
        raise RuntimeError("a reading unit of work does not commit")


def _refuse_changes(session: Session, _context: Any, _instances: Any) -> None:
    """A reading unit of work's session: a change to flush is a bug, not a write."""
    if session.new or session.dirty or session.deleted:
        raise RuntimeError("a reading unit of work does not write")


# --- The schema: only through the Alembic migrations (migrations/) -------------------------

def alembic_config(url: str | None = None) -> Any:
    """The Alembic configuration of the project, pointed at `url` (default DATABASE_URL)."""
    from alembic.config import Config

    cfg = Config(str(PROJECT_ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(PROJECT_ROOT / "migrations"))
    cfg.attributes["url"] = database_url(url)
    return cfg


#: The advisory lock `portal db upgrade` holds on PostgreSQL (any constant of the portal's).
MIGRATION_LOCK = 7_302_024


def upgrade(url: str | None = None, revision: str = "head", *, wait_seconds: int = 600,
            lock_timeout: str = "10s") -> None:
    """Migrate the database up to `revision` (`portal db upgrade`).

    On PostgreSQL the migrations run under a session advisory lock: a second upgrade started
    meanwhile (two hosts deploying at once) waits up to `wait_seconds` for the first, then
    finds the schema at head and does nothing. Inside, `lock_timeout` bounds each wait for a
    table's lock, so a migration blocked by a long transaction fails instead of stalling
    every request queued behind its lock."""
    from alembic import command

    cfg = alembic_config(url)
    engine = make_engine(url)
    try:
        if engine.dialect.name != "postgresql":
            command.upgrade(cfg, revision)
            return
        with engine.connect() as conn:
            conn.execute(text(f"SET lock_timeout = '{int(wait_seconds)}s'"))
            conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
            conn.commit()
            try:
                conn.execute(text(f"SET lock_timeout = '{_interval(lock_timeout)}'"))
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, revision)
                conn.commit()
            finally:
                conn.rollback()
                conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
                conn.commit()
    finally:
        engine.dispose()


def _interval(value: str) -> str:
    """A lock_timeout such as "10s" or "500ms" (checked: it is written into the statement)."""
    import re

    if not re.fullmatch(r"\d{1,6}(ms|s|min)?", value.strip()):
        raise ValueError(f"lock_timeout: {value!r} is not a duration such as 10s")
    return value.strip()


def downgrade(url: str | None = None, revision: str = "base") -> None:
    """Migrate the database down to `revision`; "base" leaves no table of the portal."""
    from alembic import command

    command.downgrade(alembic_config(url), revision)


def current_revision(url: str | None = None) -> str | None:
    """The revision the database is at (None for an empty database)."""
    from alembic.runtime.migration import MigrationContext

    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()
    finally:
        engine.dispose()
