"""A request that meets the database busy (SQLite's write lock held past its 5-second busy
timeout by another connection, as a background job's batch holds it while it writes) gets
the portal's "busy, try again" page: 503 with Retry-After, in the reader's language, nothing
saved and no traceback; once the lock is let go the same form saves."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from flask import Flask

from portal import db
from tests.support.pages import csrf_token, login

HEADING = {"es": "El portal está ocupado", "en": "The portal is busy"}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_write_while_the_lock_is_held_is_told_to_try_again(demo_app: Flask, tmp_path: Path,
                                                             lang: str, caplog):
    client = login(demo_app, "owner")
    client.post("/idioma", data={"lang": lang, "csrf_token": csrf_token(
        client.get("/").get_data(as_text=True))})
    tok = csrf_token(client.get("/cuenta/recordatorios").get_data(as_text=True))
    form = {"csrf_token": tok, "enabled": "y", "days_before": "14"}
    holder = sqlite3.connect(tmp_path / "portal.db", timeout=0, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # the write lock, held as a job's batch holds it
    try:
        r = client.post("/cuenta/recordatorios", data=form)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    html = r.get_data(as_text=True)
    assert r.status_code == 503
    assert r.headers["Retry-After"] == str(db.RETRY_AFTER)
    assert HEADING[lang] in html and "Traceback" not in html
    assert not [rec for rec in caplog.records if rec.levelname == "ERROR"]
    assert client.post("/cuenta/recordatorios", data=form).status_code == 303


def test_only_a_busy_database_is_busy():
    from sqlalchemy.exc import OperationalError

    def wrapped(orig: Exception) -> OperationalError:
        return OperationalError("UPDATE x", {}, orig)

    assert db.is_busy(wrapped(sqlite3.OperationalError("database is locked")))
    assert not db.is_busy(wrapped(sqlite3.OperationalError("no such table: x")))
    assert not db.is_busy(RuntimeError("database is locked"))

    class LockNotAvailable(Exception):
        sqlstate = "55P03"

    class UndefinedTable(Exception):
        sqlstate = "42P01"

    assert db.is_busy(wrapped(LockNotAvailable()))
    assert not db.is_busy(wrapped(UndefinedTable()))
