"""Deadlines: last days to act and first days a step may be taken.

R-A6 (timely payment), R-A12/R-A13 (demand, court claim), R-A17 (the day a demand is
queued, the last day to mail it), R-B9 (report a change), R-B10 (lender's notice), R-B11
(payment plan), R-C2 (attachment). Last days roll over (1 LPRA § 72, `calendar.roll_over`),
except the fixed "before January 1" of R-B9. First days are the day after the rolled last day.
The days the Board declares closed move the last days met through the portal; the Treasury's
attachment periods (R-C2, R-C7) roll over weekends and legal holidays only (revision 3).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta

from portal.core import params
from portal.core.calendar import (
    add_months,
    is_working_day,
    last_day_of_month,
    roll_over,
    within_days,
)
from portal.core.errors import CalcError

KINDS = ("timely_payment", "demand_payment", "court_claim", "change_report", "payment_plan",
         "lender_notice", "attachment_payment", "attachment_sale", "demand_queue",
         "demand_mailing")
#: R-A17 (policy): a queued demand is mailed within this many working days.
MAIL_WITHIN_WORKING_DAYS = 5
#: Met at the Treasury, not through the portal: the Board's closed days do not move them.
TREASURY_KINDS = ("attachment_payment", "attachment_sale")

# kind -> (rule id, day-count parameter)
_DAY_COUNTS = {
    "demand_payment": ("R-A13", "demand_payment_days"),
    "court_claim": ("R-A13", "demand_payment_days"),
    "payment_plan": ("R-B11", "payment_plan_days"),
    "lender_notice": ("R-B10", "lender_notice_days"),
    "attachment_payment": ("R-C2", "attachment_payment_days"),
    "attachment_sale": ("R-C2", "attachment_payment_days"),
}
RULE_OF_KIND = {"timely_payment": "R-A6", "change_report": "R-B9", "demand_queue": "R-A17",
                "demand_mailing": "R-A17",
                **{k: v[0] for k, v in _DAY_COUNTS.items()}}


def grace_day(due: date, grace: int) -> date:
    """R-A6, 23 LPRA § 6432(d): the unrolled day G of an installment due on `due`.

    Day G of the due month; a G beyond the month's end means its last day; for an
    installment due after day G of its month, its due date serves as day G.
    """
    if grace < 1:
        raise CalcError("must be at least 1", field="grace_day")
    day = min(grace, last_day_of_month(due.year, due.month))
    g = date(due.year, due.month, day)
    return due if due > g else g


def timely_payment(due: date, grace: int, closed_days: Iterable[date] = ()) -> date:
    """R-A6: the last day a payment of the installment due on `due` is timely (rolled)."""
    return roll_over(grace_day(due, grace), closed_days)


def demand_run_day(on_or_after: date, grace: int, closed_days: Iterable[date] = ()) -> date:
    """R-A17, 23 LPRA § 6432(d) (policy): the first day on or after `on_or_after` on which
    demands are queued: the day after some month's rolled day G (counted for an installment
    due on that month's 1st). Roll-over is monotone, so the months' run days are in order."""
    closed = frozenset(closed_days)
    # a rolled day G may spill into the next month: start from the month before
    month = add_months(on_or_after, -1) if on_or_after > date(1, 12, 31) else on_or_after
    for k in range(240):
        run = timely_payment(add_months(month, k), grace, closed) + timedelta(days=1)
        if run >= on_or_after:
            return run
    raise CalcError("no working day within twenty years", field="closed_days")


def demand_queue(due: date, grace: int, closed_days: Iterable[date] = ()) -> date:
    """R-A17: the day a demand is queued for an installment due on `due`: the first run day
    (`demand_run_day`) on or after the day it becomes delinquent, the day after its rolled day
    G (R-A6). For an installment due on the 1st: its own rolled day G + 1."""
    closed = frozenset(closed_days)
    return demand_run_day(timely_payment(due, grace, closed) + timedelta(days=1), grace, closed)


def demand_mailing(queued_on: date, closed_days: Iterable[date] = ()) -> date:
    """R-A17 (policy): the last day to mail a demand queued on `queued_on`: the 5th working
    day after it (weekends, Puerto Rico holidays and days the Board declares closed do not
    count). It does not roll over: it is already a working day."""
    closed = frozenset(closed_days)
    day, left = queued_on, MAIL_WITHIN_WORKING_DAYS
    while left:
        day += timedelta(days=1)
        if is_working_day(day, closed):
            left -= 1
    return day


def change_report(change: date) -> date:
    """R-B9, Exoneración (e): report before January 1 following the change: December 31.

    A fixed calendar date set by the law itself: it does not roll over.
    """
    return date(change.year, 12, 31)


def deadline(kind: str, on: date, *, grace: int | None = None,
             closed_days: Iterable[date] = ()) -> date:
    """The date of a deadline of `kind` counted from the event on `on` (see KINDS).

    R-A13, 23 LPRA § 6432(d): 15 days after mailing the demand, then the court claim.
    R-B10, Exoneración residencial (f): the lender notifies the CRIM within 30 days.
    R-B11, Exoneración residencial (g): a payment plan within 30 days after filing.
    R-C2, 13 LPRA § 33262(b): 30 days from the notice of attachment to pay in full; only
    then may the property be sold (earliest: the day after the rolled last day); met at the
    Treasury, so the Board's closed days do not move them (revision 3).
    R-A17: the day a demand is queued for an installment due on `on`, and the last day to
    mail a demand queued on `on`.
    """
    closed = () if kind in TREASURY_KINDS else tuple(closed_days)
    if kind in ("timely_payment", "demand_queue"):
        if grace is None:
            raise CalcError(f"required for {kind}", field="grace_day")
        if kind == "demand_queue":
            return demand_queue(on, grace, closed)
        return timely_payment(on, grace, closed)
    if kind == "demand_mailing":
        return demand_mailing(on, closed)
    if kind == "change_report":
        return change_report(on)
    if kind not in _DAY_COUNTS:
        raise CalcError(f"unknown kind {kind!r}; one of: {', '.join(KINDS)}", field="kind")
    days = params.value(_DAY_COUNTS[kind][1], on)
    last = roll_over(within_days(on, days), closed)
    if kind in ("court_claim", "attachment_sale"):
        return last + timedelta(days=1)
    return last
