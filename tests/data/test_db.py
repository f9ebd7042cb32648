import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from portal import db


def _setup(database: db.Database) -> None:
    with database.engine.begin() as c:
        c.execute(text("CREATE TABLE a (id INTEGER PRIMARY KEY)"))
        c.execute(text("CREATE TABLE b (id INTEGER PRIMARY KEY, a_id INTEGER REFERENCES a(id))"))


def test_default_url_is_the_instance_sqlite_file(monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert db.database_url() == f"sqlite:///{db.PROJECT_ROOT / 'instance' / 'portal.db'}"
    monkeypatch.setenv("DATABASE_URL", "postgresql://u@h/d")
    assert db.database_url() == "postgresql+psycopg://u@h/d"
    assert db.database_url("sqlite://") == "sqlite://"


def test_unit_of_work_commits_on_success_and_rolls_back_on_error(tmp_path):
    database = db.Database(f"sqlite:///{tmp_path / 'x.db'}")
    _setup(database)
    with database.unit_of_work() as uow:
        uow.session.execute(text("INSERT INTO a (id) VALUES (1)"))
    with pytest.raises(RuntimeError), database.unit_of_work() as uow:
        uow.session.execute(text("INSERT INTO a (id) VALUES (2)"))
        raise RuntimeError("boom")
    with database.unit_of_work() as uow:
        ids = uow.session.execute(text("SELECT id FROM a")).scalars().all()
    assert ids == [1]
    with pytest.raises(RuntimeError):
        _ = uow.session  # outside the block


def test_sqlite_enforces_foreign_keys(tmp_path):
    database = db.Database(f"sqlite:///{tmp_path / 'sub' / 'y.db'}")
    _setup(database)
    with pytest.raises(IntegrityError), database.unit_of_work() as uow:
        uow.session.execute(text("INSERT INTO b (id, a_id) VALUES (1, 99)"))


def test_a_prepared_statement_reads_what_the_statement_reads(tmp_path):
    """`db.prepared`: the same rows for each parameter, compiled once (found in the engine's
    compiled cache from its second execution on), seen by the engine's events like any
    statement; a name stands for one statement."""
    from sqlalchemy import bindparam, column, event, select, table

    database = db.Database(f"sqlite:///{tmp_path / 'x.db'}")
    _setup(database)
    with database.engine.begin() as c:
        c.execute(text("INSERT INTO a (id) VALUES (1), (2), (3)"))
        c.execute(text("INSERT INTO b (id, a_id) VALUES (10, 1), (11, 1), (12, 3)"))
    a, b = table("a", column("id")), table("b", column("id"), column("a_id"))
    stmt = (select(a.c.id, b.c.id).select_from(a).outerjoin(b, b.c.a_id == a.c.id)
            .where(a.c.id >= bindparam("low")).order_by(a.c.id, b.c.id))
    fast = db.prepared(stmt, f"test-prepared-{tmp_path.name}")
    seen = []
    event.listen(database.engine, "before_cursor_execute", lambda *args: seen.append(args[2]))
    with database.engine.connect() as c:
        hits = []
        for low in (1, 2, 3, 4):
            found = c.execute(fast, {"low": low})
            hits.append(found.context.cache_hit == database.engine.dialect.CACHE_HIT)
            assert found.all() == c.execute(stmt, {"low": low}).all()
        assert hits == [False, True, True, True]
        assert c.execute(fast, {"low": 2}).all() == [(2, None), (3, 12)]
    assert len(seen) == 9
    assert db.prepared(stmt, f"test-prepared-{tmp_path.name}") is not None  # the same one
    with pytest.raises(ValueError):
        db.prepared(select(a.c.id), f"test-prepared-{tmp_path.name}")


def test_a_reading_unit_of_work_reads_on_a_connection_and_writes_nothing(tmp_path):
    """`ReadingUnitOfWork`: its Core statements run on one pooled connection without an ORM
    session; a session is made only when asked for, on the same connection (it sees what
    that connection sees), and it refuses to flush a change; the block never commits, and
    the connection goes back to the pool at its end, even when the block raises."""
    from sqlalchemy import Column, Integer, event
    from sqlalchemy.orm import DeclarativeBase

    class Base(DeclarativeBase):
        pass

    class A(Base):
        __tablename__ = "a"
        id = Column(Integer, primary_key=True)

    database = db.Database(f"sqlite:///{tmp_path / 'x.db'}")
    _setup(database)
    with database.engine.begin() as c:
        c.execute(text("INSERT INTO a (id) VALUES (1), (2)"))
    sessions = []
    event.listen(database.sessionmaker, "after_begin", lambda s, *_: sessions.append(s))
    pool = database.engine.pool
    with db.ReadingUnitOfWork(database) as w:
        assert w.connection().execute(text("SELECT count(*) FROM a")).scalar() == 2
        assert w.connection() is w.connection()
        assert w._session is None and sessions == []
        assert pool.checkedout() == 1
        assert [a.id for a in w.session.query(A).order_by(A.id)] == [1, 2]
        assert w.session.connection() is w.connection()
        with pytest.raises(RuntimeError):
            w.commit()
        w.session.add(A(id=3))
        with pytest.raises(RuntimeError, match="does not write"):
            w.session.flush()
    assert pool.checkedout() == 0
    ended: list[str] = []
    event.listen(database.engine, "commit", lambda _c: ended.append("commit"))
    event.listen(database.engine, "rollback", lambda _c: ended.append("rollback"))
    for session_first in (True, False):  # a COMMIT ends it either way (docs/DATA.md)
        with db.ReadingUnitOfWork(database) as w:
            if session_first:
                assert w.session.query(A).count() == 2
            w.connection().execute(text("SELECT 1"))
            assert w.session.query(A).count() == 2
    assert ended == ["commit", "commit"]
    with pytest.raises(RuntimeError), db.ReadingUnitOfWork(database) as w:
        w.connection().execute(text("SELECT 1"))
        raise RuntimeError("boom")
    assert pool.checkedout() == 0
    with database.unit_of_work() as uow:
        assert uow.connection().execute(text("SELECT count(*) FROM a")).scalar() == 2
    with pytest.raises(RuntimeError):
        w.connection()  # outside the block
    with pytest.raises(RuntimeError):
        _ = w.session
