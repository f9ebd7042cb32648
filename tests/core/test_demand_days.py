"""R-A17 (revision 3): the day a demand is queued and the last day to mail it, from the
core's one function each (`deadlines.demand_run_day`/`demand_queue`, `demand_mailing`),
which the scheduled run, the timeline and the staff's list all read. Days set, never today."""

from __future__ import annotations

from datetime import date

import pytest

from portal.core import deadlines
from portal.core.collection_timeline import mail_by, next_run_day


@pytest.mark.parametrize(("due", "closed", "queued"), [
    # G = Tue 10 Nov 2026: queued Wed 11 (Veterans Day: the run day is not a last day,
    # it does not roll)
    (date(2026, 11, 1), (), date(2026, 11, 11)),
    # G declared closed: rolls past Veterans Day (Wed 11) to Thu 12; queued Fri 13
    (date(2026, 11, 1), (date(2026, 11, 10),), date(2026, 11, 13)),
    # G = Sat 10 Oct 2026 rolls to Mon 12 (Columbus Day, a PR holiday) then Tue 13: queued Wed 14
    (date(2026, 10, 1), (), date(2026, 10, 14)),
    # G = Thu 10 Dec; closed Thu 10 and Fri 11: rolls to Mon 14, queued Tue 15
    (date(2026, 12, 1), (date(2026, 12, 10), date(2026, 12, 11)), date(2026, 12, 15)),
])
def test_the_queue_day_is_the_day_after_the_rolled_day_g(due, closed, queued):
    assert deadlines.demand_queue(due, 10, closed) == queued
    assert deadlines.deadline("demand_queue", due, grace=10, closed_days=closed) == queued
    # the run day on or after any day of the window before it is that same day
    assert deadlines.demand_run_day(date(due.year, due.month, 2), 10, closed) == queued
    assert next_run_day(queued, 10, frozenset(closed)) == queued


def test_a_day_after_the_run_day_waits_for_next_month():
    assert deadlines.demand_run_day(date(2026, 11, 12), 10) == date(2026, 12, 11)


@pytest.mark.parametrize(("queued", "closed", "last"), [
    # Wed 11 Nov: Thu 12, Fri 13, Mon 16, Tue 17, Wed 18
    (date(2026, 11, 11), (), date(2026, 11, 18)),
    # a declared closed day (Mon 16) does not count, nor Thu 19 (Discovery of Puerto Rico
    # Day): Fri 20
    (date(2026, 11, 11), (date(2026, 11, 16),), date(2026, 11, 20)),
    # Tue 22 Dec: Wed 23, Thu 24, (Christmas Fri 25), Mon 28, Tue 29, Wed 30
    (date(2026, 12, 22), (), date(2026, 12, 30)),
])
def test_the_mailing_window_is_five_working_days(queued, closed, last):
    assert deadlines.demand_mailing(queued, closed) == last
    assert deadlines.deadline("demand_mailing", queued, closed_days=closed) == last
    assert mail_by(queued, frozenset(closed)) == last
