"""Migration p0009 on a database with people in it: every staff account becomes an
administrator (nobody loses a power by the upgrade), others get no role; a role outside the
four is refused by the database; down and up again (SQLite: no rebuild of `users`, which
every other table references)."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from portal import db
from tests.support import schema


def _with_people(url: str) -> None:
    db.upgrade(url, "p0008")
    engine = db.make_engine(url)
    try:
        with engine.begin() as conn:
            for email, staff in (("staff@x.pr", True), ("owner@x.pr", False)):
                conn.execute(text(
                    "INSERT INTO users (email, password_hash, name, language, is_staff, "
                    "created_at) VALUES (:e, 'x', '', 'es', :s, CURRENT_TIMESTAMP)"),
                    {"e": email, "s": staff})
            conn.execute(text("INSERT INTO web_sessions (id, user_id, data, created_at, "
                              "last_seen_at, expires_at, address, user_agent) SELECT "
                              "'h', id, '{}', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, "
                              "CURRENT_TIMESTAMP, '', '' FROM users WHERE is_staff"))
        db.upgrade(url, "p0009")
        with engine.connect() as conn:
            rows = dict(conn.execute(text("SELECT email, staff_role FROM users")).all())
        assert rows == {"staff@x.pr": "administrator", "owner@x.pr": None}
        with pytest.raises(IntegrityError), engine.begin() as conn:
            conn.execute(text("UPDATE users SET staff_role = 'boss'"))
        db.downgrade(url, "p0008")
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM users")).scalar() == 2
        db.upgrade(url, "p0009")
    finally:
        engine.dispose()


def test_sqlite_staff_become_administrators(tmp_path):
    _with_people(f"sqlite:///{tmp_path / 'r.db'}")


@pytest.mark.postgres
def test_postgresql_staff_become_administrators():
    with schema.throwaway_database() as url:
        _with_people(url)
