"""The statement of an account: R-A6 to R-A11 (23 LPRA § 6432(d), (f)).

An account is its facts (DESIGN.md 1): installments, payments, costs, adjustments, refunds
and the rules in force. `evaluate` walks the days in order up to `as_of` exactly as docs/rules
"How `statement` evaluates an account" says. On each day:

1. installments due that day fall due;
2. costs dated that day are added (a credit, if any, is applied to them as a payment, after
   accruing interest) — R-A9, R-A10;
3. adjustments dated that day (a credit to the account: a decrease by amendment, a
   correction) are applied like a payment, with any credit folded in, after accruing
   interest; they are not principal paid for the lump sum — R-A10, R-A11;
4. payments dated that day are applied in input order, each after accruing interest on the
   delinquent installments up to that day — R-A8, R-A10, R-A11;
5. refunds dated that day are taken from the credit (more than the credit is an input
   error naming `refunds`) — R-A10;
6. the grace day closes for installments whose rolled day G it is (except on `as_of`): those
   with principal left become delinquent and get their one late fee — R-A6, R-A7.

At `as_of` interest is accrued once more. Facts dated later are ignored, and so is a payment
reversed on or before `as_of` (R-A6: never received). Interest is rounded only as a total
per installment: cents(rate x the exact sum of principal unpaid x days / 365) less the
interest already paid on it (R-A8). A qualifying lump sum's discount reduces principal from
installment number 1 forward, and the payment takes the principal not yet delinquent in
installment-number order (R-A11).

`evaluate_two` gives the statements at two dates over the same facts (the parcel page's
statement today and its pay-off "good through" a later day) in one walk of the days: the
account's state is copied at the first date, after that day's payments and costs and before
its grace day closes, and the walk goes on to the second.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import lru_cache
from operator import attrgetter
from typing import NamedTuple

from portal.core.calendar import roll_over
from portal.core.deadlines import timely_payment
from portal.core.errors import InputError
from portal.core.explain import N_, Rate, Trace
from portal.core.installments import Installment
from portal.core.money import ZERO, cents

DAYS_IN_YEAR = Decimal(365)  # actual/365, also in leap years (R-A8)
_new_tuple = tuple.__new__  # builds an Accrual without a Python frame (hot path)
_new_object = object.__new__  # an _Account without running its __init__ (_Account.copy)


@dataclass(frozen=True, slots=True)
class Payment:
    """A payment received on `date` (R-A6). One with `reversed_on` on or before the statement
    date (a bank debit that failed to settle) was never received and is ignored entirely;
    before that day it counts."""

    date: date
    amount: Decimal
    lump_sum: bool = False
    reversed_on: date | None = None


@dataclass(frozen=True, slots=True)
class Adjustment:
    """A credit to the account (a decrease by amendment, a correction): applied on its day
    like a payment, with any credit, after accruing interest (R-A10); it is not principal
    paid for the lump sum (R-A11)."""

    date: date
    amount: Decimal
    description: str = ""


@dataclass(frozen=True, slots=True)
class Refund:
    """Money paid back from the account's credit on `date`, after that day's payments (R-A10:
    a credit is refundable). More than the credit then is an input error."""

    date: date
    amount: Decimal


@dataclass(frozen=True, slots=True)
class Cost:
    """R-A9, 23 LPRA § 6432(d), (e): a collection cost or attorney's fee staff recorded."""

    date: date
    amount: Decimal
    description: str = ""


@dataclass(frozen=True)
class StatementRules:
    """The Board's parameters a statement needs; defaults are those of R-A6 to R-A11."""

    grace_day: int = 10
    late_fee_rate: Decimal = Decimal("0.05")
    late_fee_base: str = "installment"  # or "unpaid"
    interest_rate: Decimal = Decimal("0.10")
    lump_sum_discount_rate: Decimal = Decimal("0")
    lump_sum_deadline: date | None = None  # default: the first installment's due date
    closed_days: frozenset[date] = frozenset()


class Accrual(NamedTuple):
    """One R-A8 period of a delinquent installment: `principal` unpaid for `days` days, from
    `start` to `end`. Kept for the explanation; interest is rounded only as a total over the
    periods (InstallmentState.principal_days)."""

    start: date
    end: date
    principal: Decimal
    days: int
    principal_days: Decimal  # principal x days, exact


@dataclass(slots=True)
class InstallmentState:
    installment: Installment
    last_timely_day: date
    principal: Decimal
    late_fee: Decimal = ZERO
    interest: Decimal = ZERO
    delinquent: bool = False
    last_accrual: date | None = None
    late_fee_base: Decimal = ZERO
    late_fee_assessed: Decimal = ZERO
    accruals: list[Accrual] | None = None  # R-A8 periods, kept for the explanation
    principal_days: Decimal = ZERO  # R-A8: the exact sum of principal unpaid x days
    interest_paid: Decimal = ZERO  # R-A8, R-A10: interest already paid on it

    @property
    def owed(self) -> Decimal:
        return self.principal + self.late_fee + self.interest


@dataclass(slots=True)
class CostState:
    index: int
    cost: Cost
    owed: Decimal


class Line(NamedTuple):
    """One part of a payment's application: what it paid and under which rule (a tuple:
    immutable, and built without a Python frame in the hot loop, `_Account.apply`)."""

    kind: str  # "interest" | "late_fee" | "cost" | "principal" | "credit" | "discount"
    amount: Decimal
    installment: int | None = None
    cost: int | None = None
    rule: str = "R-A10"


@dataclass(slots=True)
class Application:
    """How one payment, adjustment or credit applied to a new cost was applied (R-A10, R-A11).

    `payment` is the index in the input payments (None otherwise); `adjustment` the index in
    the input adjustments (None otherwise); both None: a credit applied to a new cost. An
    adjustment's amount includes the credit folded into it."""

    date: date
    amount: Decimal
    payment: int | None
    lines: list[Line] = field(default_factory=list)
    lump_sum: str | None = None  # None | "granted" | "late" | "short" | "not_first" | "repeat"
    adjustment: int | None = None

    @property
    def applied(self) -> Decimal:
        return sum((ln.amount for ln in self.lines if ln.kind not in ("credit", "discount")),
                   ZERO)

    @property
    def to_credit(self) -> Decimal:
        total = ZERO  # (a loop, not sum over a generator: the explanation asks it each time)
        for ln in self.lines:
            if ln.kind == "credit":
                total += ln.amount
        return total


class InstallmentStatus(NamedTuple):
    """One installment as of the statement's date (a tuple: immutable, built in one call)."""

    number: int
    due_date: date
    last_timely_day: date
    status: str  # "paid" | "delinquent" | "due" | "upcoming"
    principal: Decimal
    late_fee: Decimal
    interest: Decimal
    late_fee_assessed: Decimal
    delinquent_since: date | None
    amount: Decimal = ZERO  # the installment's amount (principal at the start)
    accruals: tuple[Accrual, ...] = ()
    late_fee_base: Decimal = ZERO
    principal_days: Decimal = ZERO  # R-A8: the exact sum of principal unpaid x days
    interest_paid: Decimal = ZERO  # R-A8: interest paid on it; interest + this = the total


@dataclass(slots=True)
class Statement:
    as_of: date
    interest: Decimal
    late_fees: Decimal
    costs: Decimal
    delinquent_principal: Decimal
    due_principal: Decimal
    upcoming_principal: Decimal
    discount: Decimal
    credit: Decimal
    total_due_now: Decimal
    payoff: Decimal
    installments: list[InstallmentStatus]
    applications: list[Application]
    lump_sum_deadline: date | None
    rules: StatementRules
    cost_items: list[CostState]
    adjustments: tuple[Adjustment, ...] = ()  # the input adjustments (Application.adjustment)
    refunds: tuple[Refund, ...] = ()  # the refunds taken from the credit by as_of
    reversed_payments: tuple[Payment, ...] = ()  # dated by as_of, reversed by as_of: ignored

    def trace(self) -> Trace:
        return explain(self)

    def figures(self, only: tuple[str, ...] | None = None) -> dict[str, Trace]:
        """One explanation per figure (interest, late_fees, costs, delinquent_principal,
        due_principal, upcoming_principal, discount, credit, total_due_now, payoff), each with
        its own numbers: what "¿Por qué esta cantidad?" shows under that amount. `only`: just
        those figures."""
        from portal.core.statement_explain import explain_figures
        return explain_figures(self, only)


def _last_timely_day(due: date, grace: int, closed_days: frozenset[date]) -> date:
    """R-A6 (deadlines.timely_payment), remembered: the same few due dates recur in every
    account of a fiscal year. The Board's closed days change the day only when the day rolled
    without them is one: every day before it was no working day anyway (roll_over only
    moves forward), so an account's own closed days need no walk of their own otherwise."""
    day = _last_timely_day_open(due, grace)
    if closed_days and day in closed_days:
        return _last_timely_day_closed(due, grace, closed_days)
    return day


@lru_cache(maxsize=8192)
def _last_timely_day_open(due: date, grace: int) -> date:
    return timely_payment(due, grace, frozenset())


@lru_cache(maxsize=8192)
def _last_timely_day_closed(due: date, grace: int, closed_days: frozenset[date]) -> date:
    return timely_payment(due, grace, closed_days)


def _rolled(day: date, closed_days: frozenset[date]) -> date:
    """roll_over, remembered (the lump sum's deadline: the same few days in every account);
    closed days matter only as `_last_timely_day` says."""
    rolled = _rolled_open(day)
    return roll_over(day, closed_days) if closed_days and rolled in closed_days else rolled


@lru_cache(maxsize=4096)
def _rolled_open(day: date) -> date:
    return roll_over(day)


_DUE_ORDER = attrgetter("due_date", "number")


class _Account:
    """The mutable state while the days are walked."""

    def __init__(self, installments: Sequence[Installment], rules: StatementRules):
        self.rules = rules
        ordered = sorted(installments, key=_DUE_ORDER)
        closed, grace = frozenset(rules.closed_days), rules.grace_day
        self.items = items = []
        self.by_grace_day: dict[date, list[InstallmentState]] = defaultdict(list)
        by_grace_day = self.by_grace_day
        for i in ordered:  # (_last_timely_day written out: a call less an installment)
            day = _last_timely_day_open(i.due_date, grace)
            if closed and day in closed:
                day = _last_timely_day_closed(i.due_date, grace, closed)
            s = InstallmentState(i, day, i.amount)
            items.append(s)
            by_grace_day[day].append(s)
        # in due order (close_grace keeps it so): the only installments with interest or fees
        self.delinquent: list[InstallmentState] = []
        self.costs: list[CostState] = []
        self.credit = ZERO
        self.discount = ZERO
        self.discount_granted = False
        self.principal_paid = False
        self.refunded: list[Refund] = []

    def copy(self) -> _Account:
        """An independent copy of the state, for the statement at a date the walk goes past
        (`evaluate_two`): new installment states (their accruals lists copied) with
        `delinquent` and `by_grace_day` pointing at those copies, new cost states, the same
        rules, credit, discount and flags. What the copy does (R-A8 accruals, R-A10
        applications, R-A6 grace days) leaves this account as it was.

        The attributes are set as __init__ sets them, in its order, never through `__dict__`:
        reading or replacing an object's `__dict__` costs it CPython's fast attribute access,
        and this account's walk goes on after the copy.
        """
        twin: dict[int, InstallmentState] = {}  # id of a delinquent state: its copy
        items = []
        for s in self.items:
            c = InstallmentState(s.installment, s.last_timely_day, s.principal, s.late_fee,
                                 s.interest, s.delinquent, s.last_accrual, s.late_fee_base,
                                 s.late_fee_assessed,
                                 None if s.accruals is None else s.accruals.copy(),
                                 s.principal_days, s.interest_paid)
            if s.delinquent:
                twin[id(s)] = c
            items.append(c)
        new = _new_object(_Account)
        new.rules = self.rules
        new.items = items
        new.by_grace_day = by_grace_day = defaultdict(list)
        for c in items:
            by_grace_day[c.last_timely_day].append(c)
        new.delinquent = [twin[id(s)] for s in self.delinquent]
        new.costs = [CostState(c.index, c.cost, c.owed) for c in self.costs]
        new.credit = self.credit
        new.discount = self.discount
        new.discount_granted = self.discount_granted
        new.principal_paid = self.principal_paid
        new.refunded = self.refunded.copy()
        return new

    def accrue(self, day: date) -> None:
        """R-A8, 23 LPRA § 6432(d): simple interest on unpaid principal since the last accrual,
        rounded only as a total.

        Each delinquent installment keeps the exact sum of principal unpaid x days (the first
        period from the due date); the interest owed on it is cents(rate x that sum / 365)
        less the interest already paid on it. So the amount never depends on how many
        payments, costs or statements fell in between. No interest on interest, fees or costs.
        """
        rate = self.rules.interest_rate
        for s in self.delinquent:
            if s.principal > ZERO and s.last_accrual is not None:
                days = (day - s.last_accrual).days
                if days > 0:
                    principal_days = s.principal * days
                    s.principal_days += principal_days
                    s.interest = (cents(rate * s.principal_days / DAYS_IN_YEAR)
                                  - s.interest_paid)
                    period = _new_tuple(Accrual, (s.last_accrual, day, s.principal, days,
                                                  principal_days))
                    if s.accruals is None:
                        s.accruals = [period]
                    else:
                        s.accruals.append(period)
            s.last_accrual = day

    def close_grace(self, day: date) -> None:
        """R-A6 + R-A7, 23 LPRA § 6432(d): principal unpaid at the end of day G makes the
        installment delinquent, and it incurs one late fee: rate x base, rounded to cents."""
        for s in self.by_grace_day.get(day, ()):
            if not s.delinquent and s.principal > ZERO:
                s.delinquent = True
                delinquent = self.delinquent
                delinquent.append(s)
                # (the rolled days G follow the due dates, so this is the last in due order;
                # checked all the same: `apply` walks this list for interest and fees)
                if len(delinquent) > 1 and (_DUE_ORDER(delinquent[-2].installment)
                                            > _DUE_ORDER(s.installment)):
                    delinquent.sort(key=lambda d: _DUE_ORDER(d.installment))
                s.last_accrual = s.installment.due_date  # interest runs from the due date
                base = (s.installment.amount if self.rules.late_fee_base == "installment"
                        else s.principal)
                s.late_fee_base = base
                s.late_fee = s.late_fee_assessed = cents(self.rules.late_fee_rate * base)

    def apply(self, app: Application, amount: Decimal, paid_by_payer: bool = True,
              by_number: bool = False) -> None:
        """R-A10, 23 LPRA § 6432(d): interest, late fees, costs, delinquent principal, then
        other principal in due order; what is left is a credit (steps after delinquent
        principal are policy). An adjustment (`paid_by_payer` False) is applied the same way
        but is not principal paid for R-A11. A granted lump sum (`by_number`) takes the
        principal not yet delinquent in installment-number order (R-A11)."""
        left = amount
        lines = app.lines
        delinquent = self.delinquent  # (in due order; no other installment owes interest
        # or a late fee. The `min(owed, left)` steps are written out: the hot loop of a roll)
        for s in delinquent:
            if not left:
                break
            if s.interest:
                paid = s.interest if s.interest <= left else left
                left -= paid
                s.interest -= paid
                s.interest_paid += paid
                lines.append(_new_tuple(Line, ("interest", paid, s.installment.number, None,
                                               "R-A10")))
        for s in delinquent:
            if not left:
                break
            if s.late_fee:
                paid = s.late_fee if s.late_fee <= left else left
                left -= paid
                s.late_fee -= paid
                lines.append(_new_tuple(Line, ("late_fee", paid, s.installment.number, None,
                                               "R-A10")))
        for c in self.costs:
            if not left:
                break
            if c.owed:
                paid = c.owed if c.owed <= left else left
                left -= paid
                c.owed -= paid
                lines.append(_new_tuple(Line, ("cost", paid, None, c.index, "R-A10")))
        for s in delinquent:  # delinquent principal, in due order
            if not left:
                break
            if s.principal:
                paid = s.principal if s.principal <= left else left
                left -= paid
                s.principal -= paid
                self.principal_paid = self.principal_paid or paid_by_payer
                lines.append(_new_tuple(Line, ("principal", paid, s.installment.number, None,
                                               "R-A10")))
        for s in self.by_number() if by_number else self.items:  # then the other principal
            if not left:
                break
            if s.principal and not s.delinquent:
                paid = s.principal if s.principal <= left else left
                left -= paid
                s.principal -= paid
                self.principal_paid = self.principal_paid or paid_by_payer
                lines.append(_new_tuple(Line, ("principal", paid, s.installment.number, None,
                                               "R-A10")))
        if left:
            self.credit += left
            app.lines.append(Line("credit", left))

    def outstanding(self) -> Decimal:
        return (sum((s.interest + s.late_fee for s in self.items), ZERO)
                + sum((c.owed for c in self.costs), ZERO))

    def principal_left(self) -> Decimal:
        return sum((s.principal for s in self.items), ZERO)

    def by_number(self) -> list[InstallmentState]:
        """The installments in installment-number order (R-A11)."""
        return sorted(self.items, key=lambda s: s.installment.number)

    def grant_discount(self, app: Application, discount: Decimal) -> None:
        """R-A11, 23 LPRA § 6432(f): the discount reduces principal from installment number 1
        forward (the year as notified: an installment a later amendment adds has a higher
        number and stays owed in full); any excess becomes credit."""
        self.discount_granted = True
        self.discount += discount
        left = discount
        for s in self.by_number():
            if not left:
                break
            cut = min(s.principal, left)
            s.principal -= cut
            left -= cut
            if cut:
                app.lines.append(Line("discount", cut, installment=s.installment.number,
                                      rule="R-A11"))
        if left:
            self.credit += left
            app.lines.append(Line("discount", left, rule="R-A11"))


def _lump_sum_check(acct: _Account, pay: Payment, deadline: date | None, annual: Decimal,
                    discount: Decimal) -> str:
    """R-A11, 23 LPRA § 6432(f): why a lump-sum payment earns the discount, or why not."""
    if acct.discount_granted:
        return "repeat"
    if deadline is None or pay.date > deadline:
        return "late"
    if acct.principal_paid:
        return "not_first"
    needed = acct.outstanding() + min(acct.principal_left(), annual) - discount - acct.credit
    if pay.amount < needed:
        return "short"
    return "granted"


class _Events(NamedTuple):
    """An account's facts by day, up to the last date a walk reaches (`end`)."""

    pays_by_day: dict[date, list[tuple[int, Payment]]]  # dated by `end`, in input order
    costs_by_day: dict[date, list[tuple[int, Cost]]]  # dated by `end`, in input order
    grace_days: set[date]  # the rolled days G before `end` (on `end` none closes yet)
    days: list[date]  # all of those days, in order
    lump_deadline: date | None  # R-A11, rolled
    annual: Decimal
    discount: Decimal  # R-A11: cents(lump_sum_discount_rate x annual)
    adjustments_by_day: dict[date, list[tuple[int, Adjustment]]]  # dated by `end`
    refunds_by_day: dict[date, list[tuple[int, Refund]]]  # dated by `end`
    adjustments: tuple[Adjustment, ...]  # all of the input adjustments
    reversed_payments: tuple[Payment, ...]  # dated and reversed by `end`: ignored (R-A6)


def _by_day(facts: Sequence, end: date) -> dict[date, list]:
    """(index, fact) for the facts dated by `end`, grouped by day, in input order."""
    out: dict[date, list] = defaultdict(list)
    for k, f in enumerate(facts):
        if f.date <= end:
            out[f.date].append((k, f))
    return out


def _start(end: date, installments: Sequence[Installment], payments: Sequence[Payment],
           costs: Sequence[Cost], rules: StatementRules | None, annual: Decimal | None,
           adjustments: Sequence[Adjustment] = (), refunds: Sequence[Refund] = ()
           ) -> tuple[_Account, _Events]:
    """The account before its first day, and its events up to `end`: payments, costs,
    adjustments and refunds dated later are ignored, and so is a payment reversed by `end`
    (docs/rules/D-calc-contract.md)."""
    rules = rules or StatementRules()
    acct = _Account(installments, rules)
    annual = sum([i.amount for i in installments], ZERO) if annual is None else annual
    lump_deadline = rules.lump_sum_deadline
    if lump_deadline is None and acct.items:
        lump_deadline = acct.items[0].installment.due_date
    if lump_deadline is not None:
        lump_deadline = _rolled(lump_deadline, frozenset(rules.closed_days))
    discount_amount = cents(rules.lump_sum_discount_rate * annual)

    pays_by_day: dict[date, list[tuple[int, Payment]]] = defaultdict(list)
    reversed_payments = []
    for k, p in enumerate(payments):
        if p.date <= end:
            if p.reversed_on is not None and p.reversed_on <= end:
                reversed_payments.append(p)  # never received (R-A6)
            else:
                pays_by_day[p.date].append((k, p))
    costs_by_day = _by_day(costs, end) if costs else {}
    adjustments_by_day = _by_day(adjustments, end) if adjustments else {}
    refunds_by_day = _by_day(refunds, end) if refunds else {}
    grace_days = {s.last_timely_day for s in acct.items if s.last_timely_day < end}
    days = sorted({*pays_by_day, *costs_by_day, *grace_days, *adjustments_by_day,
                   *refunds_by_day})
    return acct, _new_tuple(_Events, (pays_by_day, costs_by_day, grace_days, days,
                                      lump_deadline, annual, discount_amount,
                                      adjustments_by_day, refunds_by_day, tuple(adjustments),
                                      tuple(reversed_payments)))


def _walk(acct: _Account, events: _Events, days: Sequence[date], close_before: date,
          applications: list[Application]) -> None:
    """Walk `days` (in order, from `events.days`) as docs/rules says. On each day, the costs
    dated that day are added, a credit applied to each as a payment after accruing interest
    (R-A9, R-A10); then the adjustments, each with any credit, after accruing interest
    (R-A10; not principal paid for R-A11); then the payments, in input order, each after
    accruing interest (R-A8, R-A10, R-A11); then the refunds are taken from the credit; then,
    if the day is before `close_before`, the grace day closes (R-A6, R-A7). Each payment's,
    adjustment's or credit's application is appended to `applications`."""
    pays_by_day, costs_by_day, grace_days = (events.pays_by_day, events.costs_by_day,
                                             events.grace_days)
    adjustments_by_day, refunds_by_day = events.adjustments_by_day, events.refunds_by_day
    for day in days:
        for k, c in costs_by_day.get(day, ()):
            acct.costs.append(CostState(k, c, c.amount))
            if acct.credit:
                acct.accrue(day)
                credit, acct.credit = acct.credit, ZERO
                app = Application(day, credit, None)
                acct.apply(app, credit)
                applications.append(app)
        if adjustments_by_day:
            for k, a in adjustments_by_day.get(day, ()):
                acct.accrue(day)
                amount, acct.credit = a.amount + acct.credit, ZERO
                app = Application(day, amount, None, adjustment=k)
                acct.apply(app, amount, paid_by_payer=False)
                applications.append(app)
        for k, p in pays_by_day.get(day, ()):
            acct.accrue(day)
            app = Application(day, p.amount, k)
            if p.lump_sum:
                app.lump_sum = _lump_sum_check(acct, p, events.lump_deadline, events.annual,
                                               events.discount)
                if app.lump_sum == "granted":
                    acct.grant_discount(app, events.discount)
            acct.apply(app, p.amount, by_number=app.lump_sum == "granted")
            applications.append(app)
        if refunds_by_day:
            for k, r in refunds_by_day.get(day, ()):
                if r.amount > acct.credit:
                    raise InputError(f"the refund of {r.amount} on {day} is larger than the "
                                     f"credit then, {acct.credit}", field=f"refunds[{k}].amount")
                acct.credit -= r.amount
                acct.refunded.append(r)
        if day < close_before and day in grace_days:
            acct.close_grace(day)


def evaluate(as_of: date, installments: Sequence[Installment],
             payments: Sequence[Payment] = (), costs: Sequence[Cost] = (),
             rules: StatementRules | None = None, annual: Decimal | None = None, *,
             adjustments: Sequence[Adjustment] = (), refunds: Sequence[Refund] = ()
             ) -> Statement:
    """The statement as of a date: R-A6 to R-A11 over the account's facts."""
    acct, events = _start(as_of, installments, payments, costs, rules, annual, adjustments,
                          refunds)
    applications: list[Application] = []
    _walk(acct, events, events.days, as_of, applications)
    acct.accrue(as_of)
    return _summarise(acct, as_of, applications, events)


def evaluate_two(as_of: date, through: date | Callable[[Statement], date],
                 installments: Sequence[Installment], payments: Sequence[Payment] = (),
                 costs: Sequence[Cost] = (), rules: StatementRules | None = None,
                 annual: Decimal | None = None, *, adjustments: Sequence[Adjustment] = (),
                 refunds: Sequence[Refund] = ()) -> tuple[Statement, Statement]:
    """evaluate(as_of, ...) and evaluate(through, ...) in one walk of the days (through >=
    as_of): R-A6 to R-A11 over the account's facts at two dates, equal to the two evaluates.
    `through` may be a function of the statement as of `as_of` that gives the later date
    (the pay-off amount is good through a date that depends on what is owed today).

    The days up to `as_of` are walked once, as for `through`: their events are the same, and
    the grace day `as_of` does not close yet. The state is copied there; the copy accrues
    interest to `as_of` (R-A8) and is summarised. The walk then goes on: the grace day
    `as_of` closes (R-A6, R-A7) if it is one and before `through`, then the later days, then
    interest is accrued to `through`. The two statements share the applications made by
    `as_of` (nothing changes an application after its day), not their lists.

    A payment reversed after `as_of` and by `through` counts in the first statement and not
    in the second (R-A6): then the days are walked twice, by two evaluates.
    """
    later = None if callable(through) else through
    if later is not None and later < as_of:
        raise ValueError(f"through {later} is before as_of {as_of}")
    extra = {"adjustments": adjustments, "refunds": refunds}
    if any(p.reversed_on is not None and p.reversed_on > as_of
           and (later is None or p.reversed_on <= later) for p in payments):
        at_as_of = evaluate(as_of, installments, payments, costs, rules, annual, **extra)
        if later is None:
            later = through(at_as_of)  # type: ignore[operator]
            if later < as_of:
                raise ValueError(f"through {later} is before as_of {as_of}")
        return at_as_of, evaluate(later, installments, payments, costs, rules, annual, **extra)
    # Without the later date yet, every event is read; the walk stops at the later date.
    acct, events = _start(later or date.max, installments, payments, costs, rules, annual,
                          adjustments, refunds)
    days = events.days
    split = bisect_right(days, as_of)
    applications: list[Application] = []
    _walk(acct, events, days[:split], as_of, applications)
    first = acct.copy()
    first.accrue(as_of)  # on the copy only: accruals split where they are made (R-A8)
    at_as_of = _summarise(first, as_of, applications.copy(), events)
    if later is None:
        later = through(at_as_of)  # type: ignore[operator]
        if later < as_of:
            raise ValueError(f"through {later} is before as_of {as_of}")
    if as_of < later and as_of in events.grace_days:  # the rest of the day as_of
        acct.close_grace(as_of)
    _walk(acct, events, days[split:bisect_right(days, later)], later, applications)
    acct.accrue(later)
    return at_as_of, _summarise(acct, later, applications, events)


def _summarise(acct: _Account, as_of: date, applications: list[Application],
               events: _Events) -> Statement:
    statuses = []
    # the principal by status (a paid installment has none), each total in a local
    delinquent = due = upcoming = interest = late_fees = ZERO
    for s in acct.items:
        inst = s.installment
        # (an amount paid off as ZERO itself: `fmt` and the trace write it without str())
        principal = s.principal or ZERO
        late_fee = s.late_fee or ZERO
        interest_left = s.interest or ZERO
        if principal + late_fee + interest_left == ZERO:  # (s.owed, without a call)
            status = "paid"
        elif inst.due_date > as_of:
            status = "upcoming"
            upcoming += principal
        elif s.last_timely_day < as_of:
            status = "delinquent"
            delinquent += principal
        else:
            status = "due"
            due += principal
        accruals = s.accruals
        statuses.append(_new_tuple(InstallmentStatus, (
            inst.number, inst.due_date, s.last_timely_day, status, principal, late_fee,
            interest_left, s.late_fee_assessed, inst.due_date if s.delinquent else None,
            inst.amount, () if accruals is None else tuple(accruals), s.late_fee_base,
            s.principal_days, s.interest_paid)))
        if interest_left:  # (a total nothing adds to stays ZERO itself)
            interest += interest_left
        if late_fee:
            late_fees += late_fee
    costs = sum((c.owed for c in acct.costs), ZERO)
    now = interest + late_fees + costs + delinquent + due
    reversed_payments = events.reversed_payments
    if reversed_payments:
        reversed_payments = tuple(p for p in reversed_payments if p.date <= as_of)
    credit = acct.credit
    return Statement(  # (in the fields' order, by position: a keyword call costs more)
        as_of, interest, late_fees, costs, delinquent, due, upcoming, acct.discount, credit,
        max(ZERO, now - credit), max(ZERO, now + upcoming - credit), statuses, applications,
        events.lump_deadline, acct.rules, acct.costs, events.adjustments,
        tuple(acct.refunded), reversed_payments)


def interest_per_day(st: Statement) -> Decimal:
    """R-A8 after the statement's day (R-A17 and R-A19 state it; section D `demand_stop`,
    `payoff_certificate`): one day's simple interest on the principal then delinquent,
    cents(interest_rate x delinquent_principal / 365), a figure to inform (the interest owed
    is rounded only as a total, so n days can differ from n times this by a cent)."""
    return cents(st.rules.interest_rate * st.delinquent_principal / DAYS_IN_YEAR)


LUMP_SUM_REASONS = {
    "granted": N_("Paid in one lump sum by {deadline}: the discount of {discount} was granted."),
    "late": N_("This payment was marked as a lump sum, but it came after the deadline "
               "{deadline}: it was applied as an ordinary payment."),
    "short": N_("This payment was marked as a lump sum, but it did not cover the whole year "
                "less the discount: it was applied as an ordinary payment."),
    "not_first": N_("This payment was marked as a lump sum, but part of the year's principal "
                    "had already been paid: it was applied as an ordinary payment."),
    "repeat": N_("The lump-sum discount was already granted this year: this payment was "
                 "applied as an ordinary payment."),
}


def explain(st: Statement) -> Trace:
    """Why each figure of the statement is what it is, rule by rule."""
    t = Trace()
    r = st.rules
    fee_rate = fee_base = None
    for i in st.installments:
        if i.delinquent_since is not None:
            if fee_rate is None:  # (the same for every installment)
                fee_rate = Rate(r.late_fee_rate)
                fee_base = (N_("the whole installment") if r.late_fee_base == "installment"
                            else N_("the unpaid principal"))
            t.add("R-A6", N_("Installment {number}, due {due}, was not paid in full by "
                             "{last_day}, the last timely day: it is delinquent."),
                  number=i.number, due=i.due_date, last_day=i.last_timely_day)
            t.add("R-A7", N_("Late fee on installment {number}: {rate} x {base} = {fee}."),
                  number=i.number, rate=fee_rate, base=fee_base, fee=i.late_fee_assessed)
    if st.interest:
        t.add("R-A8", N_("Interest at {rate} a year (actual/365) on unpaid delinquent principal "
                         "from each due date to {as_of}: {interest} owed."),
              rate=Rate(r.interest_rate), as_of=st.as_of, interest=st.interest)
    if st.costs:
        t.add("R-A9", N_("Collection costs recorded by staff still owed: {costs}."),
              costs=st.costs)
    for p in st.reversed_payments:
        t.add("R-A6", N_("The payment of {amount} on {date} was reversed on {reversed_on}: it "
                         "was never received and is not counted."),
              amount=p.amount, date=p.date, reversed_on=p.reversed_on)
    for app in st.applications:
        if app.adjustment is not None:
            t.add("R-A10", N_("Adjustment of {amount} on {date} ({description}), with any "
                              "credit, applied like a payment: interest first, then late "
                              "fees, costs, delinquent principal, then other principal; "
                              "{credit} left as credit."), amount=app.amount, date=app.date,
                  description=st.adjustments[app.adjustment].description or "-",
                  credit=app.to_credit)
            continue
        if app.payment is None:
            t.add("R-A10", N_("A credit of {amount} was applied on {date} to a new cost."),
                  amount=app.amount, date=app.date)
            continue
        t.add("R-A10", N_("Payment of {amount} on {date}: interest first, then late fees, "
                          "costs, delinquent principal, then other principal; {credit} left "
                          "as credit."), amount=app.amount, date=app.date, credit=app.to_credit)
        if app.lump_sum:
            t.add("R-A11", LUMP_SUM_REASONS[app.lump_sum], deadline=st.lump_sum_deadline,
                  discount=st.discount)
    for f in st.refunds:
        t.add("R-A10", N_("A refund of {amount} on {date} was taken from the credit."),
              amount=f.amount, date=f.date)
    t.add("R-A10", N_("Due now {total}; to pay everything off as of {as_of}: {payoff}."),
          total=st.total_due_now, as_of=st.as_of, payoff=st.payoff)
    return t
