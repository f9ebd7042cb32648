"""Puerto Rico legal days and roll-over (RULES.md Conventions, 1 LPRA § 72).

The law cases (tests/cases/README.md) rely on these calendar facts; if a new version of the
`holidays` package changes one of them, this test says which, before the cases fail.
"""

from __future__ import annotations

from datetime import date

import holidays
import pytest

from portal.core.calendar import add_months, first_of_next_month, is_working_day, roll_over
from portal.core.deadlines import change_report, grace_day, timely_payment

# (day, working day?, part of the holiday's name or None)
FACTS = [
    (date(2026, 7, 1), True, None),
    (date(2026, 7, 3), False, "Independence Day (observed)"),
    (date(2026, 7, 4), False, "Independence Day"),
    (date(2026, 7, 6), True, None),
    (date(2026, 7, 10), True, None),
    (date(2026, 8, 1), False, None),  # Saturday
    (date(2026, 10, 10), False, None),  # Saturday
    (date(2026, 10, 11), False, None),  # Sunday
    (date(2026, 10, 12), False, "Columbus Day"),
    (date(2026, 10, 13), True, None),
    (date(2026, 11, 19), False, "Puerto Rican Identity Day"),
    (date(2026, 12, 20), False, None),  # Sunday
    (date(2027, 1, 6), False, "Epiphany"),
    (date(2027, 2, 28), False, None),  # Sunday
    (date(2027, 3, 1), True, None),
    (date(2027, 12, 31), False, "New Year's Day (observed)"),
]


@pytest.mark.parametrize(("day", "working", "holiday"), FACTS, ids=lambda x: str(x))
def test_calendar_facts_used_by_the_cases(day: date, working: bool, holiday: str | None) -> None:
    pr = holidays.country_holidays("US", subdiv="PR", years=day.year, observed=True)
    if holiday is not None:
        assert holiday in (pr.get(day) or ""), pr.get(day)
    assert is_working_day(day) is working


def test_weekends_and_holidays_are_not_working_days() -> None:
    day = date(2026, 1, 1)
    pr = holidays.country_holidays("US", subdiv="PR", years=[2026, 2027], observed=True)
    while day < date(2028, 1, 1):
        expected = day.weekday() < 5 and day not in pr
        assert is_working_day(day) is expected, day
        day = date.fromordinal(day.toordinal() + 1)


def test_roll_over() -> None:
    assert roll_over(date(2026, 7, 10)) == date(2026, 7, 10)  # a working day stays
    assert roll_over(date(2026, 10, 10)) == date(2026, 10, 13)  # Sat, Sun, Columbus Day
    assert roll_over(date(2026, 7, 3)) == date(2026, 7, 6)  # observed holiday, weekend
    assert roll_over(date(2026, 7, 10), [date(2026, 7, 10)]) == date(2026, 7, 13)
    # consecutive closed days, and a closed day after a weekend
    closed = [date(2026, 7, 10), date(2026, 7, 13), date(2026, 7, 14)]
    assert roll_over(date(2026, 7, 10), closed) == date(2026, 7, 15)
    # a closed day that is not the last day changes nothing
    assert roll_over(date(2026, 7, 9), [date(2026, 7, 10)]) == date(2026, 7, 9)


def test_grace_day() -> None:
    assert grace_day(date(2026, 7, 1), 10) == date(2026, 7, 10)
    assert grace_day(date(2027, 2, 1), 31) == date(2027, 2, 28)  # a G past the month's end
    assert grace_day(date(2028, 2, 1), 30) == date(2028, 2, 29)  # leap year
    assert grace_day(date(2026, 7, 15), 10) == date(2026, 7, 15)  # due after day G
    assert timely_payment(date(2026, 7, 15), 10) == date(2026, 7, 15)
    assert timely_payment(date(2026, 8, 15), 10) == date(2026, 8, 17)  # due on a Saturday


def test_change_report_is_fixed() -> None:
    assert change_report(date(2027, 5, 1)) == date(2027, 12, 31)  # a holiday: no roll-over
    assert change_report(date(2028, 1, 1)) == date(2028, 12, 31)  # a Sunday: no roll-over


def test_months() -> None:
    assert add_months(date(2026, 7, 1), 0) == date(2026, 7, 1)
    assert add_months(date(2026, 7, 1), 6) == date(2027, 1, 1)
    assert add_months(date(2026, 7, 15), 11) == date(2027, 6, 1)
    assert first_of_next_month(date(2026, 12, 31)) == date(2027, 1, 1)
    assert first_of_next_month(date(2026, 2, 1)) == date(2026, 3, 1)
