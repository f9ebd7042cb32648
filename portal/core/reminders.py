"""Which reminders an account is due on a day, and the amount each one gives.

Four kinds, each about one day of the account's calendar:

- `installment_due`: the installments whose last timely day (R-A6) is `days_before` days away
  or less; the amount is what pays them through on that day (the offer's `amount_through`,
  R-A10's order: any arrears first).
- `lump_sum_deadline`: the lump-sum deadline (R-A11) while the discount is still offered; the
  amount is the offer's lump sum on the deadline.
- `installment_late`: the day after an installment's last timely day, when it became late:
  the late fee it incurred (R-A7) and that interest runs on its principal (R-A8); the amount
  is what pays it through today.
- `demand_last_day`: a demand's last day (R-A13) while it is in its window; the amount is the
  offer's `stop.by_last_day`, what paid on the last day stops the court claim (R-A18), and
  today's (`stop.today`).

A reminder is due from `days_before` days before its day through the day itself (a late
reminder: through `LATE_WINDOW` days after), so a day the job did not run is caught up the
next; the sender keeps one record per parcel, kind, day and recipient, so each goes once.
Nothing is due for what is paid: the offer lists only what is owed. What a lender said it will
pay (its intents) or autopay covers is left out by the caller (`without`).

Pure: the core's account and the day in, reminders out. Every amount is the offer's
(`portal.core.offer`), computed here for the day it is good for.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from portal.core.collection import Demand
from portal.core.money import ZERO
from portal.core.offer import Account, Offer, offer

INSTALLMENT_DUE = "installment_due"
LUMP_SUM_DEADLINE = "lump_sum_deadline"
INSTALLMENT_LATE = "installment_late"
DEMAND_LAST_DAY = "demand_last_day"
KINDS = (INSTALLMENT_DUE, LUMP_SUM_DEADLINE, INSTALLMENT_LATE, DEMAND_LAST_DAY)

#: Days before a day that its reminder goes, unless the owner chose otherwise.
DEFAULT_DAYS_BEFORE = 7
#: The choices the preferences page offers.
DAYS_BEFORE_CHOICES = (1, 3, 7, 14, 30)
#: A late installment's reminder may still go this many days after it became late (a day the
#: job did not run); after that, the next statement says it.
LATE_WINDOW = 3


@dataclass(frozen=True)
class Reminder:
    """One reminder due: its kind, the day it is about, and the offer's figures.

    `amount` is good on `good_on` (the day itself for a reminder before a day; today for a
    late installment); `today_amount` is what the same thing costs paid today."""

    kind: str
    day: date
    amount: Decimal
    good_on: date
    today_amount: Decimal
    numbers: tuple[int, ...] = ()
    late_fee: Decimal = ZERO  # installment_late: the fee added (R-A7)
    late_fee_rate: Decimal = ZERO
    last_timely_day: date | None = None  # installment_late: the day it was not paid by
    court_claim_from: date | None = None  # demand_last_day: the first day of a court claim
    discount: Decimal = ZERO  # lump_sum_deadline: the discount earned

    @property
    def key(self) -> tuple[str, date]:
        """What the sender records once per parcel and recipient."""
        return self.kind, self.day


def _window(today: date, day: date, days_before: int) -> bool:
    return day - timedelta(days=days_before) <= today <= day


def _through(o: Offer, numbers: Iterable[int]) -> Decimal | None:
    """The least payment on the offer's day that pays every one of `numbers` through."""
    wanted = set(numbers)
    amounts = [opt.amount_through for opt in o.installments if opt.number in wanted]
    return max(amounts) if amounts else None


def due(account: Account, today: date, days_before: int = DEFAULT_DAYS_BEFORE, *,
        demand: Demand | None = None) -> list[Reminder]:
    """The reminders `account` is due on `today` (the module's docstring), by day."""
    days_before = max(0, int(days_before))
    now = offer(account, today, demand=demand, with_later=False)
    out: list[Reminder] = []
    later: dict[date, Offer] = {}

    def on(day: date) -> Offer:
        if day not in later:
            later[day] = now if day == today else offer(account, day, demand=demand,
                                                        with_later=False)
        return later[day]

    # Installments not yet late, by their last timely day.
    by_day: dict[date, list[int]] = {}
    for opt in now.installments:
        if opt.status in ("due", "upcoming") and _window(today, opt.last_timely_day,
                                                          days_before):
            by_day.setdefault(opt.last_timely_day, []).append(opt.number)
    for day, numbers in sorted(by_day.items()):
        amount = _through(on(day), numbers)
        today_amount = _through(now, numbers)
        if amount is None or today_amount is None or amount <= 0:
            continue
        out.append(Reminder(INSTALLMENT_DUE, day, amount, day, today_amount, tuple(numbers)))

    lump = now.lump_sum
    if lump.eligible and lump.deadline is not None and _window(today, lump.deadline,
                                                                days_before):
        at = on(lump.deadline).lump_sum
        shown = at if at.eligible else lump
        out.append(Reminder(LUMP_SUM_DEADLINE, lump.deadline, shown.amount,
                            lump.deadline if at.eligible else today, lump.amount,
                            discount=shown.discount))

    # Installments that became late (the day after their last timely day), by that day.
    late: dict[date, list[int]] = {}
    fees: dict[date, Decimal] = {}
    rules = now.statement.rules
    for i in now.statement.installments:
        if i.status != "delinquent":
            continue
        became = i.last_timely_day + timedelta(days=1)
        if became <= today < became + timedelta(days=LATE_WINDOW):
            late.setdefault(became, []).append(i.number)
            fees[became] = fees.get(became, ZERO) + i.late_fee_assessed
    for day, numbers in sorted(late.items()):
        amount = _through(now, numbers)
        if amount is None or amount <= 0:
            continue
        out.append(Reminder(INSTALLMENT_LATE, day, amount, today, amount, tuple(numbers),
                            late_fee=fees[day], late_fee_rate=rules.late_fee_rate,
                            last_timely_day=day - timedelta(days=1)))

    stop = now.stop
    if stop is not None and stop.stage == "demand_window" and _window(
            today, stop.last_day, days_before):
        out.append(Reminder(DEMAND_LAST_DAY, stop.last_day, stop.by_last_day, stop.last_day,
                            stop.today, stop.demanded, court_claim_from=stop.court_claim_from))
    return out


def without(reminders: Iterable[Reminder], covered: Iterable[int]) -> list[Reminder]:
    """The reminders before an installment's day left once `covered` installments (a
    lender's intents, autopay) are taken out: one all of whose installments are covered goes
    away; one with some covered names the others (its amount is still what pays them
    through: R-A10 pays the earlier ones first). The other kinds are kept."""
    gone = set(covered)
    out = []
    for r in reminders:
        if r.kind == INSTALLMENT_DUE and gone:
            left = tuple(n for n in r.numbers if n not in gone)
            if not left:
                continue
            if left != r.numbers:
                r = Reminder(r.kind, r.day, r.amount, r.good_on, r.today_amount, left)
        out.append(r)
    return out


@dataclass(frozen=True)
class CalendarDay:
    """A day of an account's calendar (the iCalendar feed): `kind` as a reminder's
    (installment_due: an installment's last timely day; lump_sum_deadline; demand_last_day)."""

    kind: str
    day: date
    numbers: tuple[int, ...] = ()
    amount: Decimal | None = None  # the amount owed for it, as the offer says today


def calendar(account: Account, today: date, *, demand: Demand | None = None
             ) -> list[CalendarDay]:
    """The days of the account's year worth a calendar entry: every installment's last
    timely day (paid or not: a calendar is the year's, and an entry that vanished would
    look like an error; its amount is what is owed, 0 when paid), the lump-sum deadline and
    a demand's last day while it runs."""
    now = offer(account, today, demand=demand, with_later=False)
    owed = {o.number: o.owed for o in now.installments}
    by_day: dict[date, list[int]] = {}
    for i in now.statement.installments:
        by_day.setdefault(i.last_timely_day, []).append(i.number)
    days = [CalendarDay(INSTALLMENT_DUE, d, tuple(ns),
                        sum((owed.get(n, ZERO) for n in ns), ZERO))
            for d, ns in sorted(by_day.items())]
    deadline = now.statement.lump_sum_deadline
    if deadline is not None:
        days.append(CalendarDay(LUMP_SUM_DEADLINE, deadline, (),
                                now.lump_sum.amount if now.lump_sum.eligible else None))
    if now.stop is not None and now.stop.stage == "demand_window":
        days.append(CalendarDay(DEMAND_LAST_DAY, now.stop.last_day, now.stop.demanded,
                                now.stop.today))
    return sorted(days, key=lambda d: (d.day, KINDS.index(d.kind)))
