"""Fixtures for the data tests: a migrated database on SQLite, and on PostgreSQL when the
server is reachable (skipped with a visible reason otherwise); a fixed clock."""

from __future__ import annotations

import shutil
from datetime import date

import pytest
from sqlalchemy import text

from portal import clock, db
from portal.models import Base

from . import pg

TODAY = date(2026, 11, 30)


@pytest.fixture(autouse=True)
def cheap_hashing(monkeypatch):
    """Tests need not pay for strong hashing: the same functions, a lower cost."""
    from portal import passwords

    monkeypatch.setattr(passwords, "SCRYPT", (2 ** 8, 8, 1))


@pytest.fixture(autouse=True)
def fixed_clock():
    clock.set_fixed(TODAY)
    yield
    clock.set_fixed(None)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory):
    path = tmp_path_factory.mktemp("template") / "portal.db"
    db.upgrade(f"sqlite:///{path}", "head")
    return path


@pytest.fixture(scope="session")
def pg_database():
    with pg.throwaway_database() as url:
        db.upgrade(url, "head")
        yield url


def _truncate(database: db.Database) -> None:
    names = ", ".join(f'"{t.name}"' for t in Base.metadata.sorted_tables)
    with database.engine.begin() as conn:
        conn.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database(request, tmp_path, sqlite_template):
    """A migrated, empty database: each test runs on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        path = tmp_path / "portal.db"
        shutil.copy(sqlite_template, path)
        database = db.Database(f"sqlite:///{path}")
    else:
        url = request.getfixturevalue("pg_database")
        database = db.Database(url)
        _truncate(database)
    yield database
    database.dispose()


@pytest.fixture
def sqlite_database(tmp_path, sqlite_template):
    path = tmp_path / "portal.db"
    shutil.copy(sqlite_template, path)
    database = db.Database(f"sqlite:///{path}")
    yield database
    database.dispose()
