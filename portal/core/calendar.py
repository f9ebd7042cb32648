"""Puerto Rico legal days: when a last day to act rolls over (docs/rules/README.md, Conventions).

1 LPRA § 72: a last day that falls on a Saturday, a Sunday, a Puerto Rico legal holiday
(the `holidays` calendar for country US, subdivision PR, observed days included) or a day
the Board declares closed moves to the next working day. Fixed calendar dates set by the law
itself ("before January 1") do not roll: callers simply do not call `roll_over` for them.
"""

from __future__ import annotations

import calendar as _cal
from collections.abc import Iterable
from datetime import date, timedelta
from functools import lru_cache

import holidays


@lru_cache(maxsize=64)
def _pr_holidays(year: int) -> frozenset[date]:
    days = holidays.country_holidays("US", subdiv="PR", years=year, observed=True)
    return frozenset(days.keys())


def holiday_name(day: date) -> str | None:
    """The holiday's name on that day, or None."""
    days = holidays.country_holidays("US", subdiv="PR", years=day.year, observed=True)
    return days.get(day)


def is_working_day(day: date, closed_days: Iterable[date] = ()) -> bool:
    """False on weekends, PR legal holidays (observed included) and Board-declared closed days."""
    if day.weekday() >= 5:
        return False
    if day in _pr_holidays(day.year):
        return False
    return day not in frozenset(closed_days)


def roll_over(day: date, closed_days: Iterable[date] = ()) -> date:
    """The last day to act: `day`, or the next working day if `day` is not one (1 LPRA § 72)."""
    closed = frozenset(closed_days)
    while not is_working_day(day, closed):
        day += timedelta(days=1)
    return day


def last_day_of_month(year: int, month: int) -> int:
    return _cal.monthrange(year, month)[1]


def first_of_next_month(day: date) -> date:
    return date(day.year + (day.month == 12), day.month % 12 + 1, 1)


def add_months(day: date, months: int) -> date:
    """The 1st of the month `months` after `day`'s month (due dates are always the 1st)."""
    m = day.month - 1 + months
    return date(day.year + m // 12, m % 12 + 1, 1)


def within_days(start: date, n: int) -> date:
    """"Within N days after D": the last good day is D + N (docs/rules/README.md, Conventions)."""
    return start + timedelta(days=n)
