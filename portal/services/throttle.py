"""Counters every web worker shares, in the database (`throttle_hits`): fixed windows.

`hit(uow, key, limit, window_seconds)` counts one more hit on `key` in the current window
and says whether it is still within `limit`; the increment is one statement (INSERT ... ON
CONFLICT DO UPDATE, SQLite's and PostgreSQL's), so two workers counting at once both count.
`count` reads a key's hits in the current window without counting, `blocked` says whether
they reached the limit, `retry_after` how many seconds are left of the window, `clear`
forgets a key (or every key under a prefix). Rows of windows that have ended are deleted now
and then, by whichever hit comes along.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime

from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite

from portal import clock
from portal.db import UnitOfWork
from portal.models.security import ThrottleHit
from portal.services.errors import ServiceError


class Throttled(ServiceError):
    """Too many attempts lately; `params["retry_after"]` seconds until the next try."""

    code = "throttled"


#: About one hit in this many deletes the rows whose windows have ended.
PURGE_ONE_IN = 50
MAX_KEY = 200


def _now() -> datetime:
    return clock.now()


def window_start(window_seconds: int, now: datetime | None = None) -> int:
    """The start of the fixed window `now` falls in, in seconds since the epoch."""
    seconds = int((now or _now()).timestamp())
    return seconds - seconds % int(window_seconds)


def _insert(uow: UnitOfWork):  # noqa: ANN202 - the dialect's insert construct
    dialect = uow.session.get_bind().dialect.name
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(ThrottleHit)


def _key(key: str) -> str:
    return key[:MAX_KEY]


def hit(uow: UnitOfWork, key: str, limit: int, window_seconds: int) -> bool:
    """Count one hit on `key`; True while the window's hits are at most `limit`."""
    now = _now()
    start = window_start(window_seconds, now)
    expires = datetime.fromtimestamp(start + int(window_seconds), UTC)
    stmt = _insert(uow).values(key=_key(key), window_start=start, hits=1, expires_at=expires)
    stmt = stmt.on_conflict_do_update(
        index_elements=[ThrottleHit.key, ThrottleHit.window_start],
        set_={"hits": ThrottleHit.hits + 1}).returning(ThrottleHit.hits)
    hits = uow.session.execute(stmt).scalar_one()
    if random.randrange(PURGE_ONE_IN) == 0:  # noqa: S311 - not a secret
        purge(uow, now)
    return hits <= limit


def count(uow: UnitOfWork, key: str, window_seconds: int) -> int:
    """The hits on `key` in the current window (none counted)."""
    hits = uow.session.scalar(select(ThrottleHit.hits).where(
        ThrottleHit.key == _key(key),
        ThrottleHit.window_start == window_start(window_seconds)))
    return int(hits or 0)


def blocked(uow: UnitOfWork, key: str, limit: int, window_seconds: int) -> bool:
    """Whether `key` already had `limit` hits in the current window."""
    return count(uow, key, window_seconds) >= limit


def retry_after(window_seconds: int) -> int:
    """Seconds until the current window ends (at least 1)."""
    now = _now()
    end = window_start(window_seconds, now) + int(window_seconds)
    return max(1, end - int(now.timestamp()))


def clear(uow: UnitOfWork, key: str, *, prefix: bool = False) -> int:
    """Forget `key`'s counts (with `prefix=True`, every key that starts with it)."""
    condition = (ThrottleHit.key.startswith(_key(key), autoescape=True) if prefix
                 else ThrottleHit.key == _key(key))
    return uow.session.execute(delete(ThrottleHit).where(condition)).rowcount or 0


def purge(uow: UnitOfWork, now: datetime | None = None) -> int:
    """Delete the rows whose windows have ended."""
    return uow.session.execute(
        delete(ThrottleHit).where(ThrottleHit.expires_at <= (now or _now()))).rowcount or 0
