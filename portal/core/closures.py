"""Why a last day moved: the days the Board declared closed (docs/rules/README.md, Conventions).

R-A6, 1 LPRA § 72: a last day to act that falls on a day the Board declared closed (a
hurricane, an outage) rolls over to the next working day. The statement already rolls each
last timely day (`deadlines.timely_payment`); this says, for a page, which installments a
declared closed day moved, to which day, and the Board's reason and resolution.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, timedelta

from portal.core.deadlines import grace_day
from portal.core.explain import N_, Localized, Trace
from portal.core.params import ClosedDay


def closed_day_behind(unrolled: date, rolled: date,
                      closed: Sequence[ClosedDay]) -> ClosedDay | None:
    """The first declared closed day in [`unrolled`, `rolled`): the one that moved a last day
    from `unrolled` to `rolled`, or None when only weekends and holidays did (or nothing)."""
    if rolled <= unrolled:
        return None
    by_day = {c.day: c for c in closed}
    day = unrolled
    while day < rolled:
        if day in by_day:
            return by_day[day]
        day += timedelta(days=1)
    return None


def explain_extensions(installments: Iterable[tuple[int, date, date]], grace: int,
                       closed: Sequence[ClosedDay]) -> Trace:
    """R-A6: one step per installment (number, due date, last timely day) whose last timely
    day a declared closed day moved: "extended to ... because the Board declared ... closed
    (reason, resolution)"."""
    t = Trace()
    rows = list(installments)
    if not closed or not rows:
        return t
    # A day behind a moved last day lies between the installment's due date (day G is not
    # before it) and its last timely day: none when no declared day falls in the span.
    first = min(due for _n, due, _l in rows)
    last_day = max(last for _n, _d, last in rows)
    if not any(first <= c.day < last_day for c in closed):
        return t
    for number, due, last in rows:
        c = closed_day_behind(grace_day(due, grace), last, closed)
        if c is not None:
            t.add("R-A6", N_("Installment {number}: the last timely day was extended to {last} "
                             "because the Board declared {day} closed ({reason}, "
                             "{reference})."),
                  number=number, last=last, day=c.day,
                  reason=Localized(c.reason_es, c.reason_en), reference=Localized(
                      c.reference, c.reference))
    return t


def explain_deadline_extension(label: str, unrolled: date, rolled: date,
                               closed: Sequence[ClosedDay]) -> Trace:
    """R-A11 (and any last day): the step saying a declared closed day moved the last day
    `label` (a marked message such as "The lump-sum deadline") from `unrolled` to `rolled`."""
    t = Trace()
    c = closed_day_behind(unrolled, rolled, closed)
    if c is not None:
        t.add("R-A11", N_("{what} was extended to {last} because the Board declared {day} "
                          "closed ({reason}, {reference})."),
              what=label, last=rolled, day=c.day, reason=Localized(c.reason_es, c.reason_en),
              reference=Localized(c.reference, c.reference))
    return t
