"""Counters every web worker shares, in the database (`throttle_hits`): sliding windows.

Hits are stored per fixed window, and a key's count is the sliding-window estimate over the
last `window_seconds`: this window's hits plus the previous window's, weighted by how much
of it still lies inside the last `window_seconds` (the "sliding window counter" of
Flask-Limiter and of Cloudflare's limiter). A fixed window alone let a guesser make `limit`
tries just before a window's end and `limit` more just after; here they count together.

`hit(uow, key, limit, window_seconds)` counts one more hit on `key` and says whether the
count is still within `limit`; the increment is one statement (INSERT ... ON CONFLICT DO
UPDATE, SQLite's and PostgreSQL's), so two workers counting at once both count. `count`
reads a key's count without counting, `blocked` says whether it reached the limit,
`retry_after` how many seconds until it falls below the limit again, `clear` forgets a key
(or every key under a prefix). Rows no longer inside any count are deleted now and then, by
whichever hit comes along.
"""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime

from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite

from portal import clock
from portal.accounts.errors import ServiceError
from portal.db import UnitOfWork
from portal.models.security import ThrottleHit


class Throttled(ServiceError):
    """Too many attempts lately; `params["retry_after"]` seconds until the next try."""

    code = "throttled"


#: About one hit in this many deletes the rows no count reads any more.
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


def _windows(uow: UnitOfWork, key: str, window_seconds: int,
             now: datetime) -> tuple[int, int, float]:
    """(this window's hits, the previous window's hits, the share of this window gone)."""
    w = int(window_seconds)
    start = window_start(w, now)
    rows = dict(uow.session.execute(select(ThrottleHit.window_start, ThrottleHit.hits).where(
        ThrottleHit.key == _key(key),
        ThrottleHit.window_start.in_((start, start - w)))).all())
    elapsed = (now.timestamp() - start) / w
    return int(rows.get(start, 0)), int(rows.get(start - w, 0)), elapsed


def _estimate(current: int, previous: int, elapsed: float) -> int:
    """The sliding count, rounded up: a part of a hit still counts as one."""
    return current + math.ceil(previous * (1 - elapsed) - 1e-9)


def hit(uow: UnitOfWork, key: str, limit: int, window_seconds: int) -> bool:
    """Count one hit on `key`; True while its sliding count is at most `limit`."""
    now = _now()
    _count_one(uow, key, window_seconds, now)
    return _estimate(*_windows(uow, key, window_seconds, now)) <= limit


def _count_one(uow: UnitOfWork, key: str, window_seconds: int, now: datetime) -> None:
    start = window_start(window_seconds, now)
    # The row is read as "the previous window" during the next window: it expires after it.
    expires = datetime.fromtimestamp(start + 2 * int(window_seconds), UTC)
    stmt = _insert(uow).values(key=_key(key), window_start=start, hits=1, expires_at=expires)
    stmt = stmt.on_conflict_do_update(
        index_elements=[ThrottleHit.key, ThrottleHit.window_start],
        set_={"hits": ThrottleHit.hits + 1})
    uow.session.execute(stmt)
    if random.randrange(PURGE_ONE_IN) == 0:  # noqa: S311 - not a secret
        purge(uow, now)


def hit_with_quota(uow: UnitOfWork, key: str, limit: int, window_seconds: int
                   ) -> tuple[bool, int, int]:
    """`hit`, and what is left, from one read of the windows (an API request counts itself
    and answers what is left, the IETF draft's `RateLimit` header's `r` and `t`): (within
    `limit`, hits left of `limit` now, seconds until the count falls below `limit` when none
    are left, else until the current window ends)."""
    now = _now()
    _count_one(uow, key, window_seconds, now)
    sliding = _estimate(*_windows(uow, key, window_seconds, now))
    left = max(0, int(limit) - sliding)
    if left == 0:
        return sliding <= limit, 0, retry_after(uow, key, limit, window_seconds)
    w = int(window_seconds)
    return sliding <= limit, left, max(1, math.ceil(window_start(w, now) + w - now.timestamp()))


def count(uow: UnitOfWork, key: str, window_seconds: int) -> int:
    """The sliding count of hits on `key` over the last `window_seconds` (none counted)."""
    return _estimate(*_windows(uow, key, window_seconds, _now()))


def blocked(uow: UnitOfWork, key: str, limit: int, window_seconds: int) -> bool:
    """Whether `key`'s sliding count already reached `limit`."""
    return count(uow, key, window_seconds) >= limit


def retry_after(uow: UnitOfWork, key: str, limit: int, window_seconds: int) -> int:
    """Seconds until `key`'s sliding count falls below `limit` with no more hits (at least
    1; only meaningful while `blocked`)."""
    now = _now()
    current, previous, elapsed = _windows(uow, key, window_seconds, now)
    w = int(window_seconds)
    left_in_window = (1 - elapsed) * w
    if current < limit:
        # Within this window: previous * (1 - f) <= limit - current - 1.
        room = limit - current - 1
        f = 1 - room / previous if previous else 0
        wait = max(0.0, f - elapsed) * w
    else:
        # In the next window, this one's hits weigh (1 - g): current * (1 - g) <= limit - 1.
        g = max(0.0, 1 - (limit - 1) / current)
        wait = left_in_window + g * w
    return max(1, math.ceil(wait))


def clear(uow: UnitOfWork, key: str, *, prefix: bool = False) -> int:
    """Forget `key`'s counts (with `prefix=True`, every key that starts with it)."""
    condition = (ThrottleHit.key.startswith(_key(key), autoescape=True) if prefix
                 else ThrottleHit.key == _key(key))
    return uow.session.execute(delete(ThrottleHit).where(condition)).rowcount or 0


def purge(uow: UnitOfWork, now: datetime | None = None) -> int:
    """Delete the rows no count reads any more."""
    return uow.session.execute(
        delete(ThrottleHit).where(ThrottleHit.expires_at <= (now or _now()))).rowcount or 0
