"""R-B16 (and R-B11): the payment plan for property tax owed on the January 1 before the
fiscal year (Exoneración residencial (g)).

The terms are the CRIM's parameters (`plan_max_payments`, `plan_down_payment_rate`,
`property_tax.plan_terms`). The portal keeps no CRIM ledger: the plan's payments are what the
CRIM reports, and this module only says what the plan asks, when, and whether it is kept.

- `schedule`: the plan's payments. With a down-payment rate, payment 1 is the down payment,
  cents(rate x debt), and the rest of the debt is split over the other payments; without one
  the whole debt is split over all of them. A split is by largest remainder: each share
  floored to cents, the leftover cents one each to the largest remainders, which are all
  equal, so ties go to the earliest payment (as R-A4's installments); the amounts sum to the
  debt exactly. Payment k is due on the first due date's day of the month k - 1 months later
  (the month's last day when it has fewer days); each due date is a last day to pay and rolls
  over a weekend, a Puerto Rico legal holiday or a day in `closed_days` (RULES.md
  Conventions: "plan payment dates").
- `plan_status`: the payments reported, applied in date order to the plan's payments, the
  earliest first. Default is a plan payment unpaid at the end of its (rolled) due date:
  the first payment whose amount, with all before it, the payments dated on or before its
  last day do not cover, once that day is over. Then the whole balance falls due, plus the
  auction notice costs, less what was paid (R-B16); years already recognised are not revoked
  (the caller's to say).
"""

from __future__ import annotations

import calendar as _cal
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from portal.core.calendar import roll_over
from portal.core.errors import InputError
from portal.core.explain import N_, Rate, Trace
from portal.core.money import ZERO, cents, split_evenly

#: The most payments a plan may have here (ten years of months), whatever the CRIM's
#: `plan_max_payments`: the bound of every count the core takes.
MAX_PAYMENTS = 120


@dataclass(frozen=True)
class PlanPayment:
    number: int
    due_date: date  # the day of the month the plan names
    last_day: date  # the due date rolled over (the last day to pay it)
    amount: Decimal
    down_payment: bool = False


@dataclass(frozen=True)
class PlanSchedule:
    debt: Decimal
    down_payment: Decimal
    payments: tuple[PlanPayment, ...]
    trace: Trace


def _monthly(first: date, k: int) -> date:
    m = first.month - 1 + k
    year, month = first.year + m // 12, m % 12 + 1
    return date(year, month, min(first.day, _cal.monthrange(year, month)[1]))


def schedule(debt: Decimal, count: int, first_due: date, down_payment_rate: Decimal = ZERO,
             closed_days: Iterable[date] = ()) -> PlanSchedule:
    """R-B16: the plan's `count` payments for `debt`, the first due `first_due`, monthly."""
    if count < 1:
        raise InputError("must be at least 1", field="count")
    if count > MAX_PAYMENTS:
        raise InputError(f"must be at most {MAX_PAYMENTS}", field="count")
    if debt <= 0:
        raise InputError("must be more than 0", field="debt")
    if not ZERO <= down_payment_rate < 1:
        raise InputError("must be from 0 to less than 1", field="down_payment_rate")
    closed = tuple(closed_days)
    down = cents(down_payment_rate * debt) if count > 1 else ZERO
    amounts = ([down, *split_evenly(debt - down, count - 1)] if down > 0
               else split_evenly(debt, count))
    assert sum(amounts, ZERO) == debt, "the plan's payments sum to the debt"
    payments = []
    for k, amount in enumerate(amounts):
        due = _monthly(first_due, k)
        payments.append(PlanPayment(k + 1, due, roll_over(due, closed), amount,
                                    down_payment=(k == 0 and down > 0)))
    t = Trace()
    if down > 0:
        t.add("R-B16", N_("Down payment: {rate} of the debt {debt} = {down}, due {first}; the "
                          "remaining {rest} in {n} monthly payments."),
              rate=Rate(down_payment_rate), debt=debt, down=down, first=payments[0].last_day,
              rest=debt - down, n=count - 1)
    else:
        t.add("R-B16", N_("The debt {debt} in {n} monthly payments from {first}, the extra "
                          "cents to the earliest: they sum to the debt."),
              debt=debt, n=count, first=payments[0].last_day)
    t.add("R-B16", N_("A payment date that falls on a weekend or a legal holiday moves to the "
                      "next working day: that day is the last to pay it."))
    return PlanSchedule(debt, down, tuple(payments), t)


@dataclass(frozen=True)
class PaymentState:
    payment: PlanPayment
    paid: Decimal  # what the payments reported by `on` cover of it
    status: str  # "paid" | "partly_paid" | "due" | "upcoming" | "missed"


@dataclass(frozen=True)
class PlanStatus:
    state: str  # "current" | "completed" | "defaulted"
    paid: Decimal  # every payment reported dated on or before `on`
    balance: Decimal  # debt - paid, not below 0
    defaulted_on: date | None  # the day after the last day of the payment missed
    missed: int | None  # its number
    due_now: Decimal  # on default: balance + notice costs; else what is due by `on`'s end
    next_payment: PlanPayment | None  # the first not fully paid, when current
    payments: tuple[PaymentState, ...]
    trace: Trace


def plan_status(plan: PlanSchedule, payments: Sequence[tuple[date, Decimal]], on: date,
                notice_costs: Decimal = ZERO) -> PlanStatus:
    """R-B16 on `on`: the payments reported (dated on or before `on`) against the schedule;
    default at the end of the first payment's last day that is not covered; the whole
    balance then falls due with the auction notice costs, less what was paid."""
    dated = sorted((d, a) for d, a in payments if d <= on)
    paid = sum((a for _d, a in dated), ZERO)

    def covered_by(day: date) -> Decimal:
        return sum((a for d, a in dated if d <= day), ZERO)

    states = []
    running = ZERO  # what the payments before this one ask, in all
    missed: PlanPayment | None = None
    for p in plan.payments:
        applied = min(p.amount, max(ZERO, paid - running))
        asked = running + p.amount
        if applied == p.amount:
            status = "paid"
        elif p.last_day < on:
            status = "missed"
        elif p.due_date > on:
            status = "upcoming" if applied == 0 else "partly_paid"
        else:
            status = "due" if applied == 0 else "partly_paid"
        if missed is None and p.last_day < on and covered_by(p.last_day) < asked:
            missed = p
            if status == "paid":  # paid in full, but after its last day
                status = "missed"
        states.append(PaymentState(p, applied, status))
        running = asked
    balance = max(ZERO, plan.debt - paid)
    t = Trace()
    t.extend(plan.trace)
    if missed is not None:
        defaulted_on = missed.last_day + timedelta(days=1)
        due_now = balance + notice_costs
        t.add("R-B16", N_("Payment {number} was not paid in full by the end of {last}: the plan "
                          "is in default from {day}. The whole balance {balance} falls due, "
                          "plus the auction notice costs {costs}: {due}. Years already "
                          "recognised are not revoked."),
              number=missed.number, last=missed.last_day, day=defaulted_on, balance=balance,
              costs=notice_costs, due=due_now)
        return PlanStatus("defaulted", paid, balance, defaulted_on, missed.number, due_now,
                          None, tuple(states), t)
    if balance == 0:
        t.add("R-B16", N_("Paid {paid}: the plan is paid in full."), paid=paid)
        return PlanStatus("completed", paid, ZERO, None, None, ZERO, None, tuple(states), t)
    asked_by_now = sum((p.amount for p in plan.payments if p.due_date <= on), ZERO)
    due_now = max(ZERO, asked_by_now - paid)
    nxt = next((s.payment for s in states if s.status != "paid"), None)
    t.add("R-B16", N_("Paid {paid} of {debt}: the plan is kept; {balance} remains."),
          paid=paid, debt=plan.debt, balance=balance)
    return PlanStatus("current", paid, balance, None, None, due_now, nxt, tuple(states), t)
