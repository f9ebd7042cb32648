"""A lender's notice of an acquisition of a new structure: R-B10 (iii), R-B21.

R-B10, Exoneración residencial (f): for a new structure built after January 1 and bought with
a certification, the lender notifies the CRIM within 30 days of the acquisition (the deed
date, R-B21 policy); the last day rolls over (1 LPRA § 72: a Saturday, Sunday, Puerto Rico
legal holiday or a day the Board declared closed moves it to the next working day;
`deadlines.deadline("lender_notice", ...)`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from portal.core.deadlines import deadline
from portal.core.errors import ParameterNotFound


@dataclass(frozen=True)
class NoticeDeadline:
    """The lender's last day to notify the CRIM (rolled), seen on `on`."""

    acquired_on: date
    last_day: date
    on: date

    @property
    def days_left(self) -> int:
        """Days from `on` to the last day: 0 on the last day itself, negative after it."""
        return (self.last_day - self.on).days

    @property
    def overdue(self) -> bool:
        """R-B10, R-B21: the last day has passed without the notice (from the day after)."""
        return self.on > self.last_day


def lender_notice(acquired_on: date, on: date, closed_days: Iterable[date] = ()
                  ) -> NoticeDeadline:
    """R-B10 (iii), R-B21: the last day (rolled) for the lender's notice of an acquisition on
    `acquired_on`, with the days left and whether it is overdue on `on`."""
    return NoticeDeadline(acquired_on, deadline("lender_notice", acquired_on,
                                                closed_days=closed_days), on)


def acquired_on_problem(acquired_on: date, today: date) -> str | None:
    """R-B10 (iii), R-B21 (revision 3): a deed date may be reported on `today` unless it is in
    the future ("future") or before the law's notice rule took effect ("before_law": no
    `lender_notice_days` is in force on it, so no window can be said); None otherwise. The
    window is judged by the deed date and its 30 days only (`lender_notice`): "built after
    January 1" concerns the construction, not the deed, so a deed of 20 December 2026 is
    reported on 5 January 2027 while its 30 days run, and a report after them is recorded and
    flagged overdue (`NoticeDeadline.overdue`), as the lender forwards a later certification
    at once, flagged."""
    if acquired_on > today:
        return "future"
    try:
        deadline("lender_notice", acquired_on)
    except ParameterNotFound:
        return "before_law"
    return None
