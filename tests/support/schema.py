"""The schema the tests run on: built from the migrations only (`portal.db.upgrade`).

On SQLite, one template file is migrated to head once per test session (with pytest-xdist,
once per worker: the `schema_template` fixture of tests/conftest.py) and each test works on
a copy of it: fast, and every test starts clean. On PostgreSQL, a throwaway database on the
server (TEST_POSTGRES_URL), or a visible skip when the server is not reachable.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from portal.db import Database, reset_databases, upgrade
from portal.models import Base


def build_template(folder: Path) -> Path:
    """A SQLite file in `folder` migrated to head (the fixture `schema_template` holds it)."""
    path = folder / "schema.db"
    upgrade(f"sqlite:///{path}", "head")
    reset_databases()
    return path


def copy_of(template: Path, folder: Path, name: str = "portal.db") -> Path:
    """A copy of the template (or of any SQLite file) as `folder`/`name`."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / name
    shutil.copyfile(template, target)
    return target


def sqlite_database(template: Path, folder: Path) -> Database:
    """A fresh database: a copy of the template in `folder` (dispose of it afterwards)."""
    return Database(f"sqlite:///{copy_of(template, folder)}")


# --- PostgreSQL ----------------------------------------------------------------------------

SERVER_URL = os.environ.get("TEST_POSTGRES_URL",
                            "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def _admin_engine():  # noqa: ANN202
    return create_engine(SERVER_URL, isolation_level="AUTOCOMMIT",
                         connect_args={"connect_timeout": 3})


@lru_cache(maxsize=1)
def reachable() -> str | None:
    """None when the server answers; otherwise why not (for the skip reason). Asked once."""
    engine = _admin_engine()
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        return None
    except Exception as exc:  # noqa: BLE001 - any failure means "not reachable"
        return f"{type(exc).__name__}: {str(exc).splitlines()[0][:120]}"
    finally:
        engine.dispose()


def skip_unless_reachable() -> None:
    why = reachable()
    if why is not None:
        where = make_url(SERVER_URL).render_as_string(hide_password=True)
        pytest.skip(f"PostgreSQL not reachable at {where} ({why})")


@contextmanager
def throwaway_database() -> Iterator[str]:
    """Create an empty database for the test, yield its URL, drop it afterwards."""
    skip_unless_reachable()
    name = f"portal_test_{uuid.uuid4().hex[:12]}"
    admin = _admin_engine()
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(SERVER_URL).set(database=name).render_as_string(hide_password=False)
    try:
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@contextmanager
def migrated_postgresql() -> Iterator[str]:
    """A throwaway PostgreSQL database migrated to head: its URL."""
    with throwaway_database() as url:
        upgrade(url, "head")
        yield url


def truncate(database: Database) -> None:
    """Empty every table of a PostgreSQL database (the next test's clean start)."""
    names = ", ".join(f'"{t.name}"' for t in Base.metadata.sorted_tables)
    with database.engine.begin() as conn:
        conn.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
