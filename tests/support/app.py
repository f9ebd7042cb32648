"""The portal as the tests run it: one `make_app` for every test that needs the app."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask

from portal import clock
from portal.app import create_app
from portal.db import Database, reset_databases

from .clock import TODAY
from .schema import copy_of, migrated_postgresql


def make_app(tmp_path: Path, database: Path | Database | str, **overrides: Any) -> Flask:
    """The portal for a test, in `tmp_path` (its instance folder and its outbox).

    `database` is a SQLite file to copy (the schema template, the demo District's file: the
    app works on the copy, `tmp_path`/portal.db), a `Database` already made, or a URL used
    as it is. Whatever the shell's environment says: mail goes to the outbox folder, rate
    limits are off, CSRF is on (as in production) and payments use the built-in sandbox (no
    Stripe key). `overrides` change any setting.
    """
    if isinstance(database, Path):
        url = f"sqlite:///{copy_of(database, tmp_path)}"
    elif isinstance(database, Database):
        url = database.engine.url.render_as_string(hide_password=False)
    else:
        url = database
    config = {
        "TESTING": True,
        "SECRET_KEY": "test-secret-key",
        "INSTANCE_PATH": str(tmp_path / "instance"),
        "DATABASE_URL": url,
        "OUTBOX_DIR": str(tmp_path / "outbox"),
        "MAIL_SERVER": None,
        "MAIL_INLINE": True,  # the app sends its mail after each commit (no worker)
        "SERVER_NAME": "localhost",
        "PORTAL_BASE_URL": "http://localhost",
        "RATELIMIT_ENABLED": False,
        "WTF_CSRF_ENABLED": True,
        "STRIPE_SECRET_KEY": "",
        "STRIPE_WEBHOOK_SECRET": "",
        "STRIPE_API_BASE": "",
    }
    config.update(overrides)
    return create_app(config)


@contextmanager
def demo_on_postgresql(tmp_path: Path, **demo_options: Any) -> Iterator[tuple[Flask, Any]]:
    """(app, the demo's result): the demo District loaded into a throwaway PostgreSQL
    database on the demo's day, and an app serving it."""
    from portal.demo import district
    with migrated_postgresql() as url, clock.fixed(TODAY):
        database = Database(url)
        result = district.load(database, **demo_options)
        database.dispose()
        app = make_app(tmp_path, url)
        try:
            yield app, result
        finally:
            reset_databases()
