"""The aging report's buckets: how long an unpaid amount has been past due.
Pure: the report (`portal.reports.aging`) asks for the buckets' first and last due dates on
a day and sums in SQL; `bucket` and `totals` say the same of one amount, for tests and small
lists.

An installment is past due from the day after its due date: on its due date it is 0 days
past due (not listed); the next day, 1. The buckets, in days past due: 0–30 (1 to 30),
31–90, 91–365 and over 365."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

#: (code, first day, last day or None for no end), in days past due.
BUCKETS: tuple[tuple[str, int, int | None], ...] = (
    ("d0_30", 1, 30), ("d31_90", 31, 90), ("d91_365", 91, 365), ("over_365", 366, None))
CODES = tuple(code for code, _first, _last in BUCKETS)


@dataclass(frozen=True)
class Window:
    """A bucket as due dates on a day: due on or after `due_from` (None: no limit) and on
    or before `due_to`."""

    code: str
    due_from: date | None
    due_to: date


def windows(today: date) -> tuple[Window, ...]:
    """Each bucket's due dates on `today` (what SQL compares `due_date` with)."""
    return tuple(Window(code, today - timedelta(days=last) if last is not None else None,
                        today - timedelta(days=first)) for code, first, last in BUCKETS)


def days_past_due(due: date, today: date) -> int:
    return (today - due).days


def bucket(due: date, today: date) -> str | None:
    """The bucket of an amount due on `due`, or None when it is not past due."""
    days = days_past_due(due, today)
    for code, first, last in BUCKETS:
        if days >= first and (last is None or days <= last):
            return code
    return None


def totals(amounts: Iterable[tuple[date, Decimal]], today: date) -> dict[str, Decimal]:
    """Each bucket's sum of (due date, unpaid amount) pairs (every code, 0 when none)."""
    out = {code: Decimal("0.00") for code in CODES}
    for due, amount in amounts:
        code = bucket(due, today)
        if code is not None and amount > 0:
            out[code] += amount
    return out
