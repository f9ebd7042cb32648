"""Whether this process can serve (`GET /readyz`, and production's start): the database
answers, its schema is at the migrations' head, the queue's Redis answers (when `REDIS_URL`
is set) and the file store answers. Each check gives None when it passes, else one line.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from sqlalchemy import text

from portal import db, storage


@functools.cache
def head_revision() -> str | None:
    """The migrations' head (read once: the code does not change under a running process)."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(db.alembic_config()).get_current_head()


@functools.cache
def _known(revision: str) -> bool:
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError

    try:
        return ScriptDirectory.from_config(db.alembic_config()).get_revision(revision) is not None
    except (CommandError, KeyError, ValueError):
        return False


def database(url: str | None = None) -> str | None:
    with db.get_database(url).engine.connect() as conn:
        conn.execute(text("SELECT 1"))
    return None


def schema(url: str | None = None) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with db.get_database(url).engine.connect() as conn:
        current = MigrationContext.configure(conn).get_current_revision()
    head = head_revision()
    if current != head and (current is None or _known(current)):
        # (a revision this code does not know is a newer release's: during a rolling
        # deploy the instances still on the old code keep serving)
        return (f"the schema is at {current or 'no revision'}, the code needs {head}: "
                "run `portal db upgrade`")
    return None


def queue(redis_url: str | None) -> str | None:
    if not redis_url:
        return None  # the queue is the instance folder's SQLite file
    import redis

    client = redis.Redis.from_url(redis_url, socket_timeout=2, socket_connect_timeout=2)
    try:
        client.ping()
    finally:
        client.close()
    return None


def file_store() -> str | None:
    storage.store().exists("0" * 64)  # a read that answers (absent) when the store does
    return None


def checks(url: str | None, redis_url: str | None) -> dict[str, Callable[[], str | None]]:
    return {"database": functools.partial(database, url),
            "schema": functools.partial(schema, url),
            "queue": functools.partial(queue, redis_url), "storage": file_store}


def run(url: str | None, redis_url: str | None) -> dict[str, str]:
    """Every check: its name and "ok" or the problem (an exception's class and message)."""
    results = {}
    for name, check in checks(url, redis_url).items():
        try:
            problem = check()
        except Exception as exc:  # noqa: BLE001 - any failure is the answer
            problem = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        results[name] = problem or "ok"
    return results


def schema_problems(url: str | None = None) -> list[str]:
    """Production's start: the schema's problem as a line (none when at head)."""
    try:
        problem = schema(url)
    except Exception as exc:  # noqa: BLE001 - the database does not answer
        problem = f"the database does not answer ({type(exc).__name__})"
    return [f"schema: {problem}"] if problem else []
