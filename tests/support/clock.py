"""The tests' days and the clock they set.

`TODAY` is the demo District's reference day (portal/demo/district.py places its dates from
the day it is loaded; the tests load it on 30 November 2026): the web and data tests run on
it. The tests never read the real date: each sets the clock it needs (portal.clock.fixed),
and the suite passes on any real date.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime, time

from portal import clock

#: The demo District's day, and the day the web and data tests run on.
TODAY = date(2026, 11, 30)
#: The payments tests' day, in the fiscal year 2026-2027 that tests.support.world.seed builds.
SEPT_5 = date(2026, 9, 5)


def at(day: date, hh: int = 12, mm: int = 0) -> datetime:
    """The instant of hh:mm on `day` in Puerto Rico."""
    return clock.pr_instant(day, time(hh, mm))


@contextmanager
def fixed_on(day: date | datetime = TODAY) -> Iterator[date | datetime]:
    """The clock fixed on `day` (noon in Puerto Rico for a bare date) while inside, the
    previous setting back afterwards: a fixture's `with fixed_on(TODAY) as today: yield today`."""
    with clock.fixed(day):
        yield day
