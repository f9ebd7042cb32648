"""The one clock (DESIGN.md 2): every "now" and "today" of the portal comes from here.

Instants are aware datetimes in UTC. Legal dates are Puerto Rico dates (America/Puerto_Rico,
UTC-4, no daylight saving): a payment completed at 23:30 on the 10th in San Juan happened on
the 10th, although it was already the 11th in UTC. Nothing else reads the system date; tests
fix the clock with `set_fixed(...)` (or the `fixed(...)` context manager).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo

PR_TZ = ZoneInfo("America/Puerto_Rico")

_fixed: datetime | None = None


def _as_utc(instant: datetime) -> datetime:
    """An aware UTC datetime; a naive one is taken to be UTC already (as SQLite returns it)."""
    if instant.tzinfo is None:
        return instant.replace(tzinfo=UTC)
    return instant.astimezone(UTC)


def _configured_day() -> date | None:
    """PORTAL_TODAY=YYYY-MM-DD runs the portal on that Puerto Rico date (2026-11-30, the
    tests' day, for instance): the wall-clock time still advances, only the date is pinned."""
    raw = os.environ.get("PORTAL_TODAY", "").strip()
    if not raw:
        return None
    try:
        return date.fromisoformat(raw)
    except ValueError:
        raise RuntimeError(f"PORTAL_TODAY must be a date as YYYY-MM-DD, not {raw!r}") from None


def now() -> datetime:
    """The current instant, aware, in UTC (the fixed instant when a test has set one; the
    configured day of PORTAL_TODAY at the current Puerto Rico time when that is set)."""
    if _fixed is not None:
        return _fixed
    real = datetime.now(UTC)
    day = _configured_day()
    if day is None:
        return real
    return datetime.combine(day, real.astimezone(PR_TZ).timetz()).astimezone(UTC)


def true_now() -> datetime:
    """The current instant for what must follow the real time, not the portal's day: the
    codes of a person's authenticator app (TOTP). PORTAL_TODAY (the demo's pinned day) does
    not move it; a test's fixed clock does."""
    return _fixed if _fixed is not None else datetime.now(UTC)


def legal_date(instant: datetime) -> date:
    """The Puerto Rico legal date of a UTC instant (naive instants are read as UTC)."""
    return _as_utc(instant).astimezone(PR_TZ).date()


def today() -> date:
    """Today's legal date in Puerto Rico."""
    return legal_date(now())


def pr_instant(day: date, at: time = time(12, 0)) -> datetime:
    """The UTC instant of a Puerto Rico wall-clock time on `day` (default noon)."""
    return datetime.combine(day, at, tzinfo=PR_TZ).astimezone(UTC)


def set_fixed(instant: datetime | date | None) -> None:
    """Fix the clock at an instant (a bare date means noon in Puerto Rico); None releases it."""
    global _fixed
    if instant is None:
        _fixed = None
    elif isinstance(instant, datetime):
        _fixed = _as_utc(instant)
    else:
        _fixed = pr_instant(instant)


def is_fixed() -> bool:
    return _fixed is not None


@contextmanager
def fixed(instant: datetime | date) -> Iterator[None]:
    """`with clock.fixed(date(2026, 11, 30)): ...` then the previous setting comes back."""
    previous = _fixed
    set_fixed(instant)
    try:
        yield
    finally:
        set_fixed(previous)
