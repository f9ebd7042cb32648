"""The installment schedule and its amendment: R-A4 and R-A5 (23 LPRA § 6432(b), (d))."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import lru_cache
from typing import NamedTuple

from portal.core.calendar import add_months, first_of_next_month
from portal.core.errors import CalcError
from portal.core.explain import N_, Trace
from portal.core.money import ZERO, split_evenly


class Installment(NamedTuple):
    """One installment of an assessment (immutable; a roll makes a million of them)."""

    number: int
    due_date: date
    amount: Decimal
    paid: bool = False


@lru_cache(maxsize=256)
def _due_dates(fiscal_year_start: date, count: int, notice_date: date | None
               ) -> tuple[date, ...]:
    """R-A4: the 1st of each month from the FY's first month, none on or before the notice
    (a notice dated the 1st also moves that day's installment)."""
    dates = []
    for i in range(count):
        due = add_months(fiscal_year_start, i)
        if notice_date is not None and due <= notice_date:
            due = first_of_next_month(notice_date)
        dates.append(due)
    return tuple(dates)


def schedule(annual: Decimal, fiscal_year_start: date, count: int = 12,
             notice_date: date | None = None) -> list[Installment]:
    """R-A4, 23 LPRA § 6432(d): `count` equal monthly installments due on the 1st.

    Due the 1st of each month from the fiscal year's first month; amounts differ by at most
    one cent, the extra cents first. No installment falls due on or before the day the
    assessment is notified: one that would is due the 1st of the month after the notice (a
    notice dated the 1st also moves that day's installment).
    """
    if count < 1:
        raise CalcError("must be at least 1", field="count")
    amounts = split_evenly(annual, count)
    dues = _due_dates(fiscal_year_start, count, notice_date)
    new = tuple.__new__  # what Installment(...) does, without a Python frame per item
    return [new(Installment, (i, due, amount, False))
            for i, due, amount in zip(range(1, count + 1), dues, amounts)]


def explain_schedule(annual: Decimal, items: Sequence[Installment],
                     notice_date: date | None = None) -> Trace:
    t = Trace()
    # A late notice (R-A4) moves every installment due on or before it to one day: the 1st of
    # the month after it. Say so: those installments do not fall due a month apart.
    together = 0
    if items and notice_date is not None and items[0].due_date == first_of_next_month(
            notice_date):
        together = sum(1 for i in items if i.due_date == items[0].due_date)
    first = items[0].amount if items else ZERO
    if together > 1 and together < len(items):
        t.add("R-A4", N_("{annual} is paid in {count} installments of {first} or less: "
                         "installments 1 to {through} fall due on {first_due}, the 1st of the "
                         "month after the notice; the rest on the 1st of each month from "
                         "{start}."),
              annual=annual, count=len(items), first=first, through=together,
              first_due=items[0].due_date, start=items[together].due_date)
    elif together > 1:
        t.add("R-A4", N_("{annual} is paid in {count} installments of {first} or less, all "
                         "due on {first_due}, the 1st of the month after the notice."),
              annual=annual, count=len(items), first=first, first_due=items[0].due_date)
    else:
        t.add("R-A4", N_("{annual} is paid in {count} monthly installments of {first} or "
                         "less, due on the 1st of each month from {start}."),
              annual=annual, count=len(items), first=first,
              start=items[0].due_date if items else "")
    if notice_date is not None and any(i.due_date == first_of_next_month(notice_date)
                                       for i in items):
        t.add("R-A4", N_("The assessment was notified on {notice}: nothing falls due before "
                         "{first_due}."), notice=notice_date,
              first_due=first_of_next_month(notice_date))
    return t


@dataclass(frozen=True)
class Amendment:
    installments: list[Installment]
    credit: Decimal
    trace: Trace


def amend(installments: Sequence[Installment], new_annual: Decimal,
          effective_date: date) -> Amendment:
    """R-A5, 23 LPRA § 6432(b), (d): spread a new annual amount over what is still unpaid.

    The difference is split as in R-A4 by magnitude (earliest take the extra cent) over the
    installments due strictly after `effective_date` and not paid. None goes below 0: the
    shortfall comes off the other remaining installments, earliest first, and what cannot be
    absorbed is a credit. With none remaining an increase is one new installment due the 1st
    of the next month and a decrease is a credit. A paid installment is never rewritten.
    (Decreases as credits are a policy choice of docs/rules.)
    """
    items = sorted(installments, key=lambda i: (i.due_date, i.number))
    old_annual = sum((i.amount for i in items), ZERO)
    diff = new_annual - old_annual
    trace = Trace()
    trace.add("R-A5", N_("The annual amount changes from {old} to {new} on {effective}: "
                         "a difference of {diff}."),
              old=old_annual, new=new_annual, effective=effective_date, diff=diff)
    remaining = [k for k, i in enumerate(items) if i.due_date > effective_date and not i.paid]
    if diff == 0:
        return Amendment(list(items), ZERO, trace)
    if not remaining:
        if diff > 0:
            number = max((i.number for i in items), default=0) + 1
            due = first_of_next_month(effective_date)
            trace.add("R-A5", N_("No unpaid installment remains: the increase is one new "
                                 "installment due {due}."), due=due)
            return Amendment(list(items) + [Installment(number, due, diff)], ZERO, trace)
        trace.add("R-A5", N_("No unpaid installment remains: the decrease of {credit} is a "
                             "credit."), credit=-diff)
        return Amendment(list(items), -diff, trace)
    shares = split_evenly(diff, len(remaining))
    amounts = {k: items[k].amount + s for k, s in zip(remaining, shares)}
    shortfall = sum((-a for a in amounts.values() if a < 0), ZERO)
    amounts = {k: max(a, ZERO) for k, a in amounts.items()}
    for k in remaining:  # earliest first
        if shortfall == 0:
            break
        take = min(amounts[k], shortfall)
        amounts[k] -= take
        shortfall -= take
    result = [i._replace(amount=amounts[k]) if k in amounts else i for k, i in enumerate(items)]
    trace.add("R-A5", N_("The difference is spread over the {n} unpaid installments due after "
                         "{effective}."), n=len(remaining), effective=effective_date)
    if shortfall:
        trace.add("R-A5", N_("{credit} could not be absorbed by the unpaid installments and is "
                             "a credit."), credit=shortfall)
    return Amendment(result, shortfall, trace)
