"""`portal db upgrade` on PostgreSQL runs under an advisory lock (portal.db.upgrade): a
second upgrade started while the first holds it waits, then both succeed and the schema is
at head once. Skipped, with the reason, when PostgreSQL is not reachable."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import create_engine, text

from portal import db
from portal.operations import readiness
from tests.support.schema import throwaway_database

PORTAL = Path(sys.executable).parent / "portal"


def _waiting_for_the_lock(conn) -> int:  # noqa: ANN001
    """How many sessions wait for the migrations' advisory lock."""
    return conn.execute(text(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
        "AND objid = :key"), {"key": db.MIGRATION_LOCK}).scalar()


def test_two_upgrades_at_once_one_waits_and_both_succeed():
    with throwaway_database() as url:
        env = {**os.environ, "DATABASE_URL": url}
        holder = create_engine(url, isolation_level="AUTOCOMMIT")
        try:
            with holder.connect() as conn:
                # A first upgrade "in progress": this connection holds the lock.
                conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": db.MIGRATION_LOCK})
                upgrades = [subprocess.Popen([PORTAL, "db", "upgrade"], env=env,
                                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                             text=True) for _ in range(2)]
                for _ in range(600):  # until both are seen waiting (a readiness wait)
                    ended = any(p.poll() is not None for p in upgrades)
                    if ended or _waiting_for_the_lock(conn) == 2:
                        break
                    time.sleep(0.05)
                assert [p.poll() for p in upgrades] == [None, None]  # both wait
                assert db.current_revision(url) is None  # and neither has migrated
                conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": db.MIGRATION_LOCK})
            results = [p.communicate(timeout=300) + (p.returncode,) for p in upgrades]
        finally:
            holder.dispose()
        assert [r[2] for r in results] == [0, 0], [r[1][-500:] for r in results]
        head = readiness.head_revision()
        assert all(f"database at {head}" in r[0] for r in results)
        assert db.current_revision(url) == head
