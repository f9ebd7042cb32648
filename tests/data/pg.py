"""PostgreSQL for the data tests: a throwaway database on the server, or a visible skip."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

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
