"""Fixtures for the data tests: a migrated database on SQLite, and on PostgreSQL when the
server is reachable (skipped with a visible reason otherwise); the clock on TODAY; the small
District of tests.support.world.build."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from portal import db
from tests.support import schema
from tests.support.clock import TODAY, fixed_on
from tests.support.world import World, build


@pytest.fixture(autouse=True)
def cheap_hashing(monkeypatch):
    """Tests need not pay for strong hashing: the same functions, a lower cost."""
    from portal import passwords

    monkeypatch.setattr(passwords, "SCRYPT", (2 ** 8, 8, 1))


@pytest.fixture(autouse=True)
def fixed_clock() -> Iterator[None]:
    with fixed_on(TODAY):
        yield


@pytest.fixture(scope="session")
def pg_database() -> Iterator[str]:
    """One migrated PostgreSQL database per session, emptied before each test."""
    with schema.migrated_postgresql() as url:
        yield url


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database(request, tmp_path: Path, schema_template: Path) -> Iterator[db.Database]:
    """A migrated, empty database: each test runs on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        database = schema.sqlite_database(schema_template, tmp_path)
    else:
        database = db.Database(request.getfixturevalue("pg_database"))
        schema.truncate(database)
    yield database
    database.dispose()


@pytest.fixture
def sqlite_database(tmp_path: Path, schema_template: Path) -> Iterator[db.Database]:
    database = schema.sqlite_database(schema_template, tmp_path)
    yield database
    database.dispose()


@pytest.fixture
def world(database: db.Database) -> World:
    """The District of tests.support.world.build (on each database); a module that needs
    more overrides it, asking for this one by the same name."""
    return build(database)
