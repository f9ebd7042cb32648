"""R-B10 (iii), R-B21: the lender's 30-day notice of an acquisition, rolled over (1 LPRA § 72),
with the days left and the overdue flag on a given day."""

from __future__ import annotations

from datetime import date

import pytest

from portal.core.acquisition import acquired_on_problem, lender_notice


@pytest.mark.parametrize(("acquired", "last"), [
    # + 30 = Saturday 2026-07-04, Independence Day; Sunday: Monday 2026-07-06.
    (date(2026, 6, 4), date(2026, 7, 6)),
    # + 30 = Thursday 2026-11-26, Thanksgiving Day: Friday 2026-11-27.
    (date(2026, 10, 27), date(2026, 11, 27)),
    # + 30 = Saturday 2026-10-31; Sunday: Monday 2026-11-02.
    (date(2026, 10, 1), date(2026, 11, 2)),
    # + 30 = Thursday 2026-04-02, a working day: it stays.
    (date(2026, 3, 3), date(2026, 4, 2)),
])
def test_the_last_day_rolls_over(acquired: date, last: date) -> None:
    assert lender_notice(acquired, acquired).last_day == last


def test_a_day_the_board_declared_closed_rolls_too() -> None:
    # Monday 2026-11-02 declared closed: Tuesday 2026-11-03.
    n = lender_notice(date(2026, 10, 1), date(2026, 10, 1), [date(2026, 11, 2)])
    assert n.last_day == date(2026, 11, 3)


@pytest.mark.parametrize(("on", "left", "overdue"), [
    (date(2026, 11, 1), 26, False),
    (date(2026, 11, 26), 1, False),
    (date(2026, 11, 27), 0, False),  # the last day itself is still in time
    (date(2026, 11, 28), -1, True),
    (date(2026, 12, 31), -34, True),
])
def test_days_left_and_overdue_on_a_given_day(on: date, left: int, overdue: bool) -> None:
    n = lender_notice(date(2026, 10, 27), on)
    assert (n.days_left, n.overdue) == (left, overdue)


def test_only_future_dates_are_refused() -> None:
    today = date(2026, 11, 30)
    assert acquired_on_problem(date(2026, 1, 1), today) is None
    assert acquired_on_problem(today, today) is None
    assert acquired_on_problem(date(2026, 12, 1), today) == "future"
    assert acquired_on_problem(date(2025, 12, 31), today) is None


def test_a_december_deed_is_reported_in_january_while_its_30_days_run() -> None:
    """R-B21 (revision 3): a deed of Sunday 2026-12-20: 30 days is Tuesday 2027-01-19 (a
    working day), so on 2027-01-05 it is reported in time with 14 days left; the year of the
    deed does not matter. On 2027-01-20 it is still recorded, flagged overdue."""
    assert acquired_on_problem(date(2026, 12, 20), date(2027, 1, 5)) is None
    n = lender_notice(date(2026, 12, 20), date(2027, 1, 5))
    assert (n.last_day, n.days_left, n.overdue) == (date(2027, 1, 19), 14, False)
    assert lender_notice(date(2026, 12, 20), date(2027, 1, 20)).overdue
