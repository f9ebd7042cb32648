"""A throwaway PostgreSQL database for the concurrency tests, or a visible skip."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

SERVER_URL = os.environ.get("TEST_POSTGRES_URL",
                            "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def _admin():  # noqa: ANN202
    return create_engine(SERVER_URL, isolation_level="AUTOCOMMIT",
                         connect_args={"connect_timeout": 3})


@contextmanager
def throwaway_database() -> Iterator[str]:
    admin = _admin()
    try:
        with admin.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:  # noqa: BLE001 - any failure means "not reachable"
        admin.dispose()
        where = make_url(SERVER_URL).render_as_string(hide_password=True)
        pytest.skip(f"PostgreSQL not reachable at {where} "
                    f"({type(exc).__name__}: {str(exc).splitlines()[0][:100]})")
    name = f"portal_pay_{uuid.uuid4().hex[:12]}"
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(SERVER_URL).set(database=name).render_as_string(hide_password=False)
    try:
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
