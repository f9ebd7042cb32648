"""PostgreSQL plans a statement the driver has prepared once per connection, not on every
request: psycopg prepares a statement run five times on a connection, and forgets every
prepared statement of the connection at a ROLLBACK. The session's read at the start of every
signed-in request ends its transaction with a COMMIT (`users.open_session`), so the reads of
the requests that follow keep theirs (docs/DATA.md, "Prepared statements")."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from sqlalchemy import event, text

from portal import db
from portal.people import users


def _session(database: db.Database, world) -> str:  # noqa: ANN001
    with db.UnitOfWork(database) as uow:
        users.create_session(uow, "sid-prepared", "", world.people["alice"].id,
                             timedelta(days=1))
    return "sid-prepared"


@contextmanager
def _rollbacks(database: db.Database) -> Iterator[list[object]]:
    """The connections the engine rolls back inside the block."""
    rollbacks: list[object] = []

    def rolled_back(conn) -> None:  # noqa: ANN001
        rollbacks.append(conn)

    event.listen(database.engine, "rollback", rolled_back)
    try:
        yield rollbacks
    finally:
        event.remove(database.engine, "rollback", rolled_back)


def test_opening_a_session_ends_its_read_without_a_rollback(database, world):
    sid = _session(database, world)
    with _rollbacks(database) as rollbacks:
        for _ in range(3):
            found = users.open_session(database, sid, timedelta(hours=1))
            assert found is not None and found.user.id == world.people["alice"].id
    assert rollbacks == []


@pytest.mark.postgres
def test_a_read_after_opening_the_session_is_prepared_once_and_kept(pg_database, world_pg):
    database, world = world_pg
    sid = _session(database, world)
    stmt = text("SELECT count(*) FROM parcels WHERE id = :pid")
    for _ in range(8):  # each as a request: the session, then the page's read
        assert users.open_session(database, sid, timedelta(hours=1)) is not None
        with db.UnitOfWork(database) as uow:
            uow.session.execute(stmt, {"pid": 1}).scalar_one()
    with database.engine.connect() as conn:
        prepared = conn.execute(text(
            "SELECT statement, generic_plans + custom_plans FROM pg_prepared_statements"
        )).all()
        conn.commit()
    # Both prepared, and each planned a handful of times (PostgreSQL's plan cache: five
    # custom plans, then the generic one), not on every one of the eight requests.
    plans = {s: n for s, n in prepared}
    ours = [n for s, n in plans.items() if "FROM parcels WHERE id" in s]
    assert ours and ours[0] >= 3, prepared
    assert any("web_sessions" in s for s in plans), prepared


@pytest.mark.postgres
def test_a_reading_unit_of_work_keeps_its_prepared_statements(pg_database, world_pg):
    """A page's reads in a `ReadingUnitOfWork` (no ORM session) end without a rollback, so
    a statement the page runs on every request is planned a handful of times."""
    database, world = world_pg
    sid = _session(database, world)
    stmt = text("SELECT count(*) FROM parcels WHERE id = :pid AND :n >= 0")
    with _rollbacks(database) as rollbacks:
        for n in range(8):
            assert users.open_session(database, sid, timedelta(hours=1)) is not None
            with db.ReadingUnitOfWork(database) as w:
                w.connection().execute(stmt, {"pid": 1, "n": n}).scalar_one()
    assert rollbacks == []
    with database.engine.connect() as conn:
        prepared = conn.execute(text(
            "SELECT statement, generic_plans + custom_plans FROM pg_prepared_statements"
        )).all()
        conn.commit()
    ours = [n for s, n in prepared if ":n >= 0" in s or "AND $2 >= 0" in s]
    assert ours and ours[0] >= 3, prepared


@pytest.fixture
def world_pg(pg_database):  # noqa: ANN001, ANN201
    """The small District on PostgreSQL, on an engine of its own with one connection, so
    every read of the test runs on the same server session."""
    from tests.support import schema
    from tests.support.world import build

    database = db.Database(engine=db.make_engine(pg_database, pool_size=1, max_overflow=0))
    schema.truncate(database)
    yield database, build(database)
    database.dispose()
