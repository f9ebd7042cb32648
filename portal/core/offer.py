"""What an account offers to pay on a day, and the exact amount of each choice.

One function, `offer`, says from an account's facts on a day everything a page shows about
paying it: what is due now, what paying through installment N costs, the arrears a payment
goes to first (R-A10), any amount up to the payoff, the lump sum (R-A11: eligible, or the
reason not, with its discount, amount and deadline), the payoff good through a later date
(interest to that day included, R-A8), and, when a demand is in its window, the amount that,
paid by a given day, stops the court claim (R-A13, R-A17, R-A18). Every figure carries the
day it is good for. The dashboard, the parcel page, the pay page, the review page, the
receipt, the statement PDF and the lender list read these figures; nothing else computes them.

The browser never sets a price: it names a choice per account and `price` computes its amount
here, then checks it by applying the hypothetical payment through the core's `statement`
(`preview`): what it would pay, line by line, and what it would leave unpaid.

Pure: the account's facts in, figures out.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from functools import cached_property
from typing import Any

from portal.core.collection import Demand
from portal.core.deadlines import deadline as deadline_of
from portal.core.explain import N_, Trace
from portal.core.installments import Installment
from portal.core.money import ZERO, cents, has_whole_cents
from portal.core.statement import (
    LUMP_SUM_REASONS,
    Adjustment,
    Application,
    Cost,
    Payment,
    Refund,
    Statement,
    StatementRules,
    evaluate,
    evaluate_two,
)

#: The smallest amount a payer may type ("any amount from $1 up to the payoff").
MIN_AMOUNT = Decimal("1.00")
#: The smallest online payment Stripe accepts in USD.
MIN_ONLINE_TOTAL = Decimal("0.50")
#: A payoff quote holds this many days at most (or until the next grace day closes).
PAYOFF_DAYS = 10

KINDS = ("due_now", "installments", "amount", "lump_sum", "stop_claim")

STATUS_CURRENT = "current"  # al día
STATUS_PENDING = "pending"  # pendiente: due now, still within the grace period
STATUS_OVERDUE = "overdue"  # vencido: something is delinquent
STATUS_NONE = "none"  # no assessment this year (exempt, or not yet published)


class ChoiceError(ValueError):
    """A choice that cannot be priced. `code` names the problem; `params` its figures.

    Codes: not_a_number, negative, zero, too_many_decimals, too_small, too_much (payoff),
    nothing_due, unknown_installment, installment_paid, lump_sum_unavailable (reason,
    deadline), unknown_kind, nothing_chosen, duplicate_account, not_yours, total_too_small.
    """

    def __init__(self, code: str, account: str | None = None, **params: Any):
        super().__init__(code)
        self.code = code
        self.account = account
        self.params = params


@dataclass(frozen=True)
class Account:
    """An account's facts, as the core needs them (DESIGN.md 1)."""

    key: str  # the account's id, as text
    parcel_id: str
    label: str  # what the payer recognises: the catastro number
    fiscal_year: str
    installments: Sequence[Installment]
    payments: Sequence[Payment] = ()
    costs: Sequence[Cost] = ()
    rules: StatementRules = field(default_factory=StatementRules)
    annual: Decimal | None = None  # the year as notified (R-A11's measure); default the sum
    adjustments: Sequence[Adjustment] = ()
    refunds: Sequence[Refund] = ()

    def statement(self, on: date, extra: Sequence[Payment] = ()) -> Statement:
        return evaluate(on, self.installments, list(self.payments) + list(extra), self.costs,
                        self.rules, self.annual, adjustments=self.adjustments,
                        refunds=self.refunds)

    def statements(self, on: date, through: Any) -> tuple[Statement, Statement]:
        return evaluate_two(on, through, self.installments, self.payments, self.costs,
                            self.rules, self.annual, adjustments=self.adjustments,
                            refunds=self.refunds)

    @property
    def annual_amount(self) -> Decimal:
        return self.annual if self.annual is not None else sum(
            (i.amount for i in self.installments), ZERO)


@dataclass(frozen=True)
class InstallmentOption:
    number: int
    due_date: date
    last_timely_day: date  # R-A6: the rolled day G
    status: str  # delinquent | due | upcoming
    owed: Decimal  # still owed on it (principal, fee, interest)
    amount_through: Decimal  # to pay everything up to and including it, in R-A10 order


@dataclass(frozen=True)
class NextPayment:
    """The next payment not yet due: the installments falling due on `due_date` (one or
    several), what they ask together (`owed`) and the last day to pay it on time (R-A6)."""

    numbers: tuple[int, ...]
    due_date: date
    last_timely_day: date
    owed: Decimal

    @property
    def count(self) -> int:
        return len(self.numbers)


@dataclass(frozen=True)
class LumpSumOption:
    """R-A11 as of the offer's day: `amount` is what one payment must be today to earn
    `discount` (the year's principal left, plus any interest, fees and costs owed, less the
    discount and any credit); `reason` says why not when it is not `eligible`."""

    eligible: bool
    deadline: date | None
    discount: Decimal
    amount: Decimal
    reason: str | None  # why not: granted | late | not_first | no_discount | nothing_due | short
    granted_on: date | None = None  # reason "granted": the date of the payment that earned it
    annual: Decimal = ZERO
    other: Decimal = ZERO  # interest, fees and costs included in `amount`, less any credit

    def trace(self) -> Trace:
        """Why the lump sum is what it is (R-A11)."""
        t = Trace()
        if self.eligible and self.other:
            t.add("R-A11", N_("Paid in one lump sum by {deadline}, the year's {annual} earns a "
                              "discount of {discount}; with the {other} of interest, fees and "
                              "costs owed first, pay {amount}."),
                  deadline=self.deadline, annual=self.annual, discount=self.discount,
                  other=self.other, amount=self.amount)
        elif self.eligible:
            t.add("R-A11", N_("Paid in one lump sum by {deadline}, the year's {annual} earns a "
                              "discount of {discount}: pay {amount}."),
                  deadline=self.deadline, annual=self.annual, discount=self.discount,
                  amount=self.amount)
        elif self.reason == "late":
            t.add("R-A11", N_("The lump-sum discount was available until {deadline}."),
                  deadline=self.deadline)
        elif self.reason == "not_first":
            t.add("R-A11", N_("The lump-sum discount is only for a year of which nothing has "
                              "been paid yet."))
        elif self.reason == "granted":
            t.add("R-A11", LUMP_SUM_REASONS["granted"], deadline=self.deadline,
                  discount=self.discount)
        return t


@dataclass(frozen=True)
class StopOption:
    """R-A13, R-A17, R-A18 (23 LPRA § 6432(d)): the amount that, paid by a day, leaves
    nothing owed on the items a demand listed (the installments delinquent when it was
    mailed, with their fees and interest, and the costs recorded by then), so the court claim
    is stopped. R-A10 pays all interest and late fees first, then costs oldest first, then
    delinquent principal in due order, so that amount is: all interest and late fees to that
    day, the costs recorded by the mailing, and the demanded installments' principal, less
    any credit."""

    demand: Demand
    on: date
    last_day: date  # R-A13: mailing + 15 days, rolled
    court_claim_from: date  # R-A13: the day after
    today: Decimal  # paid on the offer's day
    by_last_day: Decimal  # paid on the last day (interest to that day included)
    demanded: tuple[int, ...]  # installment numbers

    @property
    def mailed_on(self) -> date:
        return self.demand.mailed_on

    @property
    def stage(self) -> str:
        """"paid" (nothing owed on the demanded items: stopped), "demand_window" (the last
        day has not passed) or "claimable" (R-A13: from the day after the last day)."""
        if self.today == 0:
            return "paid"
        return "demand_window" if self.on <= self.last_day else "claimable"

    @property
    def days_left(self) -> int:
        return (self.last_day - self.on).days

    def trace(self) -> Trace:
        t = Trace()
        t.add("R-A12", N_("Demand of {amount} mailed by certified mail on {mailed}."),
              amount=self.demand.amount, mailed=self.mailed_on)
        if self.stage == "paid":
            t.add("R-A18", N_("Nothing is owed any more on what the demand listed: the claim "
                              "in court is stopped."))
        elif self.stage == "demand_window":
            t.add("R-A18", N_("What the demand listed, with its interest to each day, is "
                              "{today} paid today or {by_last_day} paid on {last}, the last "
                              "day; interest, late fees and costs are paid first (R-A10)."),
                  today=self.today, by_last_day=self.by_last_day, last=self.last_day)
        t.add("R-A13", N_("Paying it in full by {last} stops a claim in court; from {first} the "
                          "debt may be claimed in court under Rule 60 of Civil Procedure (the "
                          "summary procedure, faster, for collecting money), whatever the "
                          "amount."),
              last=self.last_day, first=self.court_claim_from)
        return t


@dataclass(frozen=True)
class Offer:
    """What an account offers to pay on `on`, with each figure's day."""

    account: Account
    on: date
    statement: Statement  # as of `on`
    due_now: Decimal  # as of `on`
    payoff: Decimal  # as of `on`: the most the pay page accepts today
    installments: list[InstallmentOption]
    lump_sum: LumpSumOption
    arrears: Decimal  # interest + late fees + costs + delinquent principal, less credit
    payoff_through: date  # the later day the payoff quote holds (`payoff_statement`)
    stop: StopOption | None = None
    #: The statement as of `payoff_through` (interest to that day), when `offer` computed it
    #: in the same walk as today's; else computed the first time it is asked for.
    later: Statement | None = field(default=None, repr=False, compare=False)

    @cached_property
    def payoff_statement(self) -> Statement:
        if self.later is not None:
            return self.later
        return self.account.statement(self.payoff_through)

    @property
    def payoff_through_amount(self) -> Decimal:
        return self.payoff_statement.payoff

    @property
    def has_arrears(self) -> bool:
        return self.arrears > 0

    @property
    def status(self) -> str:
        return account_status(self.statement)

    @property
    def next_due(self) -> NextPayment | None:
        """The next payment not yet due: every installment due on the first upcoming due day
        (a notice may move several to one day, R-A4), with what they will ask together."""
        first = next((o for o in self.installments if o.status == "upcoming"), None)
        if first is None:
            return None
        same = [o for o in self.installments
                if o.status == "upcoming" and o.due_date == first.due_date]
        return NextPayment(tuple(o.number for o in same), first.due_date,
                           min(o.last_timely_day for o in same),
                           sum((o.owed for o in same), ZERO))

    @property
    def to_pay_next(self) -> NextPayment | None:
        """The one thing to pay next, as the parcel page's answer says it, with its last day
        on or after `on`: the arrears today (R-A7), else what is due now by its earliest last
        timely day (R-A6), else the next payment (`next_due`); None when nothing is left.
        An amendment's email (R-A5) reads this, so it never names a day already gone."""
        if self.has_arrears or self.due_now > 0:
            numbers = tuple(o.number for o in self.installments
                            if o.status in ("delinquent", "due"))
            by = self.due_now_by or self.on
            amount = self.arrears if self.has_arrears else self.due_now
            return NextPayment(numbers, by, by, amount)
        return self.next_due

    @property
    def due_now_by(self) -> date | None:
        """The last day to pay `due_now` on time: today when something is already
        delinquent (R-A7 has added its fee), else the earliest last timely day (R-A6) of
        the installments due now; None when nothing is due."""
        if self.due_now <= 0:
            return None
        if self.has_arrears:
            return self.on
        due = [o.last_timely_day for o in self.installments if o.status == "due"]
        return min(due) if due else self.on

    @property
    def due_not_late(self) -> Decimal:
        """The part of `due_now` that is not arrears: installments due now and still within
        their grace period (R-A6), which the pay button's `due_now` includes."""
        return max(ZERO, self.due_now - self.arrears)

    @property
    def due_not_late_by(self) -> date | None:
        """The last timely day (R-A6) of the installments due now and not yet late."""
        due = [o.last_timely_day for o in self.installments if o.status == "due"]
        return min(due) if due else None

    @property
    def due_now_count(self) -> int:
        """How many installments `due_now` covers (delinquent or due now)."""
        return sum(1 for o in self.installments if o.status in ("delinquent", "due"))

    def leaves_unpaid(self, amount: Decimal) -> Statement:
        """R-A10's warning: the account after a payment of `amount` today."""
        return self.account.statement(self.on, [Payment(self.on, amount)])


@dataclass(frozen=True)
class Choice:
    """What the payer asked for one account (as posted by the browser, validated here)."""

    account: str
    kind: str
    through: int | None = None
    amount: Decimal | None = None


@dataclass(frozen=True)
class Part:
    """One account's share of a payment, priced by the server."""

    account: str
    parcel_id: str
    label: str
    kind: str
    amount: Decimal
    lump_sum: bool
    through: int | None
    application: Application  # how the core would apply it today
    after: Statement  # the account once it is applied

    @property
    def leaves_due_now(self) -> Decimal:
        return self.after.total_due_now

    @property
    def leaves_arrears(self) -> Decimal:
        return arrears_of(self.after)


@dataclass(frozen=True)
class Priced:
    parts: list[Part]

    @property
    def total(self) -> Decimal:
        return sum((p.amount for p in self.parts), ZERO)


def arrears_of(st: Statement) -> Decimal:
    """R-A10: what a payment goes to before any principal not yet delinquent, less credit."""
    return max(ZERO, st.interest + st.late_fees + st.costs + st.delinquent_principal
               - st.credit)


def account_status(st: Statement | None) -> str:
    if st is None:
        return STATUS_NONE
    if arrears_of(st) > 0:
        return STATUS_OVERDUE
    if st.total_due_now > 0:
        return STATUS_PENDING
    return STATUS_CURRENT


def payoff_good_through(st: Statement, as_of: date, days: int = PAYOFF_DAYS) -> date:
    """The last day a payoff quoted today holds: `days` ahead, but not past the next last
    timely day of an unpaid installment (after it a late fee would be added, R-A7)."""
    through = as_of + timedelta(days=days)
    for i in st.installments:
        if i.status in ("due", "upcoming") and i.last_timely_day >= as_of:
            through = min(through, i.last_timely_day)
    return through


def offer(account: Account, on: date, *, demand: Demand | None = None,
          payoff_days: int = PAYOFF_DAYS, with_later: bool = True) -> Offer:
    """Everything `account` offers to pay on `on` (see the module's docstring).
    `with_later`: the statement the payoff is good through is computed in the same walk of
    the days as today's (a page that shows it); otherwise only when asked for (a list)."""
    later: Statement | None = None
    if with_later:
        st, later = account.statements(on, lambda today: payoff_good_through(
            today, on, payoff_days))
        through = later.as_of
    else:
        st = account.statement(on)
        through = payoff_good_through(st, on, payoff_days)
    clears = clearing_amounts(st)
    items = [InstallmentOption(i.number, i.due_date, i.last_timely_day, i.status,
                               i.principal + i.late_fee + i.interest,
                               clears.get(("installment", i.number), ZERO))
             for i in st.installments if i.status != "paid"]
    stop = _stop(account, st, on, demand) if demand is not None else None
    return Offer(account, on, st, st.total_due_now, st.payoff, items,
                 _lump(account, st, on), arrears_of(st), through, stop, later)


def lump_sum_discount(rules: StatementRules, annual: Decimal) -> Decimal:
    """R-A11: cents(lump_sum_discount_rate x annual), the same rate for every payer."""
    return cents(rules.lump_sum_discount_rate * annual)


@dataclass(frozen=True)
class LumpSumQuote:
    """`portal calc lump_sum_quote` (docs/rules/D-calc-contract.md): the offer's lump sum
    stated as the contract states it."""

    eligible: bool
    discount: Decimal
    amount_due: Decimal
    deadline: date
    reason: str | None  # why not eligible: "late" | "not_first"
    trace: Trace


def lump_sum_quote(annual: Decimal, discount_rate: Decimal, deadline: date, on: date,
                   principal_paid: Decimal, closed_days: Iterable[date] = ()) -> LumpSumQuote:
    """R-A11, 23 LPRA § 6432(f), read from the offer of a year of `annual` due in one
    installment on `deadline`, of which `principal_paid` is paid: eligible on or before the
    (rolled) deadline with no principal paid yet, and then the discount and the amount are
    the offer's (`offer(...).lump_sum`: cents(rate x annual), the same rate for every owner
    and lessee); otherwise no discount and the year's principal left, not below 0."""
    rules = StatementRules(lump_sum_discount_rate=discount_rate,
                           closed_days=frozenset(closed_days))
    paid = [Payment(on, principal_paid)] if principal_paid > 0 else []
    account = Account("quote", "quote", "quote", "", [Installment(1, deadline, annual)], paid,
                      rules=rules, annual=annual)
    lump = offer(account, on, with_later=False).lump_sum
    last = lump.deadline or deadline
    if on <= last and principal_paid <= 0:
        shown = lump if lump.eligible else LumpSumOption(True, last, ZERO, annual, None,
                                                          annual=annual)
        return LumpSumQuote(True, shown.discount, shown.amount, last, None, shown.trace())
    reason = "late" if on > last else "not_first"
    shown = LumpSumOption(False, last, ZERO, ZERO, reason, annual=annual)
    return LumpSumQuote(False, ZERO, max(ZERO, annual - principal_paid), last, reason,
                        shown.trace())


def _lump(account: Account, st: Statement, on: date) -> LumpSumOption:
    """R-A11 as the statement will judge a lump sum paid today: the amount it needs is
    computed from the statement, then checked by applying it (`app.lump_sum`)."""
    deadline = st.lump_sum_deadline
    annual = account.annual_amount
    granted = next((a for a in st.applications if a.lump_sum == "granted"), None)
    if granted is not None:
        # At most once a year: say it was granted (amount and date), not "unavailable".
        return LumpSumOption(False, deadline, st.discount, ZERO, "granted", granted.date,
                             annual)
    if deadline is None or st.payoff <= 0:
        return LumpSumOption(False, deadline, ZERO, ZERO, "nothing_due", annual=annual)
    if on > deadline:
        return LumpSumOption(False, deadline, ZERO, ZERO, "late", annual=annual)
    discount = lump_sum_discount(account.rules, annual)
    if discount <= 0:
        return LumpSumOption(False, deadline, ZERO, ZERO, "no_discount", annual=annual)
    principal = st.delinquent_principal + st.due_principal + st.upcoming_principal
    other = st.interest + st.late_fees + st.costs - st.credit
    amount = max(ZERO, other + min(principal, annual) - discount)
    app = _applied(account, on, amount, lump=True)
    if app.lump_sum != "granted":
        return LumpSumOption(False, deadline, ZERO, ZERO, app.lump_sum, annual=annual)
    return LumpSumOption(True, deadline, discount, amount, None, annual=annual, other=other)


def _stop(account: Account, st: Statement, on: date, demand: Demand) -> StopOption:
    """R-A13, R-A17, R-A18 (see StopOption)."""
    return demand_stop(account, on, demand, today=st)


def demand_stop(account: Account, on: date, demand: Demand, *,
                today: Statement | None = None) -> StopOption:
    """R-A13, R-A17, R-A18 (section D `demand_stop`): what the demand mailed on
    `demand.mailed_on` listed (the installments "delinquent" in the statement as of the
    mailing, and the costs dated by then), its last day (15 days, rolled) and the first day of
    the court claim, and the least payment on `on` and on the last day that leaves nothing
    owed on what it listed. `today`: the statement as of `on`, when the caller has it."""
    mailed_on = demand.mailed_on
    closed = account.rules.closed_days
    last = deadline_of("demand_payment", mailed_on, closed_days=closed)
    first_claim = deadline_of("court_claim", mailed_on, closed_days=closed)
    st = today if today is not None else account.statement(on)
    at_mailing = st if mailed_on == on else account.statement(mailed_on)
    demanded = tuple(i.number for i in at_mailing.installments if i.status == "delinquent")
    at_last = account.statement(last) if last > on else st
    return StopOption(demand, on, last, first_claim, _stop_amount(st, demanded, mailed_on),
                      _stop_amount(at_last, demanded, mailed_on), demanded)


def _stop_amount(st: Statement, demanded: tuple[int, ...], mailed_on: date) -> Decimal:
    wanted = {("installment", n) for n in demanded}
    wanted |= {("cost", c.index) for c in st.cost_items if c.cost.date <= mailed_on}
    return to_clear(st, wanted)


def _r_a10_order(st: Statement) -> Iterator[tuple[tuple[str, int], Decimal]]:
    """What a payment pays, in R-A10's order: all interest, then all late fees (installments
    in due order), costs oldest first, delinquent principal, then other principal in due
    order. (A credit is not part of a payment: R-A10 applies it only to a new cost.)"""
    for i in st.installments:
        yield ("installment", i.number), i.interest
    for i in st.installments:
        yield ("installment", i.number), i.late_fee
    for c in st.cost_items:
        yield ("cost", c.index), c.owed
    for delinquent in (True, False):
        for i in st.installments:
            if (i.status == "delinquent") is delinquent:
                yield ("installment", i.number), i.principal


def clearing_amounts(st: Statement) -> dict[tuple[str, int], Decimal]:
    """For each item owed (("installment", number) or ("cost", index)), the least payment,
    applied by R-A10 on the statement's day, that leaves nothing owed on it: everything
    before its last part in R-A10's order, and it. One pass."""
    paid = ZERO
    out: dict[tuple[str, int], Decimal] = {}
    for key, owed in _r_a10_order(st):
        if owed:
            paid += owed
            out[key] = paid
    return out


def to_clear(st: Statement, wanted: set[tuple[str, int]]) -> Decimal:
    """The least payment, applied by R-A10 on the statement's day, that leaves nothing owed
    on any of the `wanted` items."""
    clears = clearing_amounts(st)
    return max((clears[k] for k in wanted if k in clears), default=ZERO)


def _applied(account: Account, on: date, amount: Decimal, lump: bool = False
             ) -> Application:
    after = account.statement(on, [Payment(on, amount, lump)])
    index = len(account.payments)
    return next(a for a in after.applications if a.payment == index)


def price(offer_: Offer, choice: Choice) -> Part:
    """The amount of one account's choice, checked by applying it through the core."""
    acct, st = offer_.account, offer_.statement
    key = acct.key
    lump = False
    if choice.kind == "due_now":
        if offer_.due_now <= 0:
            raise ChoiceError("nothing_due", key)
        amount = offer_.due_now
    elif choice.kind == "installments":
        opt = next((o for o in offer_.installments if o.number == choice.through), None)
        if opt is None:
            known = any(i.number == choice.through for i in st.installments)
            raise ChoiceError("installment_paid" if known else "unknown_installment", key,
                              number=choice.through)
        amount = opt.amount_through
        if amount <= 0:
            raise ChoiceError("nothing_due", key)
    elif choice.kind == "amount":
        amount = check_amount(choice.amount, offer_.payoff, key)
    elif choice.kind == "stop_claim":
        if offer_.stop is None or offer_.stop.today <= 0:
            raise ChoiceError("nothing_due", key)
        amount = offer_.stop.today  # R-A18: clears what the demand listed, today
    elif choice.kind == "lump_sum":
        if not offer_.lump_sum.eligible:
            raise ChoiceError("lump_sum_unavailable", key, reason=offer_.lump_sum.reason,
                              deadline=offer_.lump_sum.deadline,
                              discount=offer_.lump_sum.discount,
                              granted_on=offer_.lump_sum.granted_on)
        amount, lump = offer_.lump_sum.amount, True
    else:
        raise ChoiceError("unknown_kind", key)
    return preview(offer_, choice.kind, amount, lump, choice.through)


def preview(offer_: Offer, kind: str, amount: Decimal, lump: bool = False,
            through: int | None = None) -> Part:
    """Apply a hypothetical payment of `amount` today; the core says what it pays."""
    acct = offer_.account
    after = acct.statement(offer_.on, [Payment(offer_.on, amount, lump)])
    index = len(acct.payments)
    app = next(a for a in after.applications if a.payment == index)
    if lump and app.lump_sum != "granted":
        raise ChoiceError("lump_sum_unavailable", acct.key, reason=app.lump_sum,
                          deadline=offer_.lump_sum.deadline)
    if kind == "installments" and through is not None:
        inst = next(i for i in after.installments if i.number == through)
        if inst.status != "paid":
            raise ChoiceError("nothing_due", acct.key)
    return Part(acct.key, acct.parcel_id, acct.label, kind, amount, lump, through, app, after)


def check_amount(amount: Decimal | None, payoff: Decimal, account: str | None = None) -> Decimal:
    """An amount typed by the payer: at least $1, at most the payoff, whole cents."""
    if amount is None or not amount.is_finite():
        raise ChoiceError("not_a_number", account)
    if amount < 0:
        raise ChoiceError("negative", account)
    if amount == 0:
        raise ChoiceError("zero", account)
    if not has_whole_cents(amount):
        raise ChoiceError("too_many_decimals", account)
    if payoff <= 0:
        raise ChoiceError("nothing_due", account)
    if amount > payoff:  # before `cents`: any size of number is more than the payoff
        raise ChoiceError("too_much", account, payoff=payoff)
    amount = cents(amount)
    if amount < MIN_AMOUNT and amount != payoff:
        raise ChoiceError("too_small", account, minimum=MIN_AMOUNT)
    return amount


def price_all(offers: dict[str, Offer], choices: Sequence[Choice]) -> Priced:
    """Price a payment of one or more accounts (several parcels in one payment)."""
    if not choices:
        raise ChoiceError("nothing_chosen")
    seen: set[str] = set()
    parts = []
    for c in choices:
        if c.account in seen:
            raise ChoiceError("duplicate_account", c.account)
        seen.add(c.account)
        if c.account not in offers:
            raise ChoiceError("not_yours", c.account)
        parts.append(price(offers[c.account], c))
    priced = Priced(parts)
    if priced.total < MIN_ONLINE_TOTAL:
        raise ChoiceError("total_too_small", minimum=MIN_ONLINE_TOTAL)
    return priced
