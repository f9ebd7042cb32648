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
