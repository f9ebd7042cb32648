"""Autopay: what an enrolment debits on a day, and when its payer is told beforehand.

An enrolment pays one parcel's account automatically with a saved card or bank account, by
one of two plans:

- `PLAN_INSTALLMENTS`: each installment on its due date (R-A4), for the installments falling
  due on or after the day of enrolment. The amount is the offer's "installments through N"
  for the last installment due that day (`InstallmentOption.amount_through`): the least
  payment that, applied by R-A10 (arrears first), pays it through. Never more than what is
  due now (`Offer.due_now`), and nothing when the offer says it is already paid (the owner
  paid by hand, a lender paid it).
- `PLAN_LUMP_SUM`: the year in one payment with the R-A11 discount, on a day the payer
  chose, while the offer says it is still eligible (`Offer.lump_sum.eligible`): its
  `amount`, nothing else.

Each debit is for a *target* (the installments through N, or the lump sum) and is tried at
most twice: a failed first attempt is tried again once, on the first run at least
`RETRY_AFTER_DAYS` after it (a bank debit's failure is known days later), with the amount
that day's offer gives; a target already charged (succeeded or still
processing) is never charged again. Nothing is debited on or after the day the enrolment
ends (`Enrolment.ends_on`: cancelled by the payer, or ended by the portal).

Before each debit the payer is told the amount and the day: `NOTICE_DAYS` ahead (3 days for
a bank debit, as NACHA's rules and Stripe's ACH mandates expect notice of a debit; the day
before for a card, which is charged at once and needs no more).

Pure: an `Offer` (portal.core.offer) in, a `Debit` out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from portal.core.money import ZERO
from portal.core.offer import Offer

PLAN_INSTALLMENTS = "installments"
PLAN_LUMP_SUM = "lump_sum"
PLANS = (PLAN_INSTALLMENTS, PLAN_LUMP_SUM)

METHOD_CARD = "card"
METHOD_BANK = "bank"
METHOD_KINDS = (METHOD_CARD, METHOD_BANK)

#: How many days before a debit its payer is told (the notice's day is the debit's less these).
NOTICE_DAYS = {METHOD_BANK: 3, METHOD_CARD: 1}
#: A failed attempt is tried once more, this many days after it.
RETRY_AFTER_DAYS = 1
#: At most this many attempts per target.
MAX_ATTEMPTS = 2

LUMP_SUM_TARGET = "lump_sum"

#: What an attempt became: still going (created, processing: the bank settles later),
#: succeeded, or failed (no money moved, or a bank debit returned).
CHARGED = ("created", "processing", "succeeded")
FAILED = "failed"


def installment_target(through: int) -> str:
    return f"through-{through}"


@dataclass(frozen=True)
class Enrolment:
    """What the payer chose. `starts_on`: the day of enrolment; `ends_on`: the first day
    with no debit (cancelled or ended), None while active."""

    plan: str
    method: str  # card | bank
    starts_on: date
    lump_sum_on: date | None = None
    ends_on: date | None = None

    def active_on(self, day: date) -> bool:
        return self.starts_on <= day and (self.ends_on is None or day < self.ends_on)


@dataclass(frozen=True)
class Attempt:
    """A debit already attempted for `target` on `on`, and what became of it."""

    target: str
    on: date
    amount: Decimal
    status: str  # created | processing | succeeded | failed
    numbers: tuple[int, ...] = ()  # the installments it was to pay (all of them through N)

    @property
    def charged(self) -> bool:
        return self.status in CHARGED


@dataclass(frozen=True)
class Debit:
    """What to debit today: `amount` for `target` (the installments `numbers`, through the
    last; or the lump sum), attempt 1 or 2."""

    target: str
    on: date
    amount: Decimal
    attempt: int
    lump_sum: bool
    numbers: tuple[int, ...] = ()
    through: int | None = None

    @property
    def kind(self) -> str:
        """The offer's choice it is (`portal.core.offer.KINDS`)."""
        return "lump_sum" if self.lump_sum else "installments"


def notice_days(method: str) -> int:
    """How many days before a debit by `method` its payer is told."""
    return NOTICE_DAYS[method]


def notice_day(method: str, debit_day: date) -> date:
    """The day the payer is told of a debit by `method` on `debit_day`."""
    return debit_day - timedelta(days=notice_days(method))


def planned(enrolment: Enrolment, offer: Offer) -> Debit | None:
    """What the plan asks on the offer's day, before looking at earlier attempts: the
    installments falling due that day (on or after enrolment), or the lump sum on its day
    while eligible. None when the plan asks nothing that day."""
    day = offer.on
    if not enrolment.active_on(day):
        return None
    if enrolment.plan == PLAN_LUMP_SUM:
        lump = offer.lump_sum
        if enrolment.lump_sum_on != day or not lump.eligible or lump.amount <= 0:
            return None
        return Debit(LUMP_SUM_TARGET, day, lump.amount, 1, True)
    today = [o for o in offer.installments if o.due_date == day and o.status != "paid"]
    if not today:
        return None
    last = max(today, key=lambda o: o.number)
    return _through(offer, last.number, [o.number for o in today], 1)


def _through(offer: Offer, through: int, numbers: Iterable[int], attempt: int) -> Debit | None:
    opt = next((o for o in offer.installments if o.number == through), None)
    if opt is None or opt.amount_through <= 0:
        return None
    amount = min(opt.amount_through, offer.due_now) if offer.due_now > 0 else ZERO
    if amount <= 0 or amount != opt.amount_through:
        return None  # not due yet by the offer: nothing is debited ahead of it
    return Debit(installment_target(through), offer.on, amount, attempt, False,
                 tuple(sorted(numbers)), through)


def due_today(enrolment: Enrolment, offer: Offer, attempts: Iterable[Attempt]) -> Debit | None:
    """What to debit on the offer's day, given every attempt made so far for this account:
    the plan's debit of the day (`planned`) if its target was never attempted, else the one
    retry of a target whose only attempt failed at least `RETRY_AFTER_DAYS` before, at that day's
    amount; never a target already charged, never an installment another charge covers,
    never more than the offer asks, nothing on or after the enrolment's end."""
    day = offer.on
    if not enrolment.active_on(day):
        return None
    attempts = list(attempts)
    covered = {n for a in attempts if a.charged for n in a.numbers}
    by_target: dict[str, list[Attempt]] = {}
    for a in attempts:
        by_target.setdefault(a.target, []).append(a)

    def allowed(d: Debit | None) -> Debit | None:
        if d is None or d.amount <= 0:
            return None
        if d.lump_sum and any(a.charged for a in attempts):
            return None  # the lump sum is the whole year: not after another charge
        if not d.lump_sum and (covered & set(d.numbers) or any(
                a.charged and a.target == LUMP_SUM_TARGET for a in attempts)):
            return None
        return d

    plan = planned(enrolment, offer)
    if plan is not None and plan.target not in by_target:
        return allowed(plan)
    # The retry: a target tried once, failed, the retry's day is today.
    for target, tried in sorted(by_target.items()):
        if len(tried) >= MAX_ATTEMPTS or any(a.charged for a in tried):
            continue
        first = tried[0]
        if first.on + timedelta(days=RETRY_AFTER_DAYS) > day:
            continue
        if target == LUMP_SUM_TARGET:
            if enrolment.plan != PLAN_LUMP_SUM or not offer.lump_sum.eligible:
                continue
            retry = Debit(target, day, offer.lump_sum.amount, 2, True)
        else:
            through = max(first.numbers) if first.numbers else None
            if through is None:
                continue
            still = [n for n in first.numbers
                     if any(o.number == n for o in offer.installments)]
            if not still:
                continue
            retry = _through(offer, through, first.numbers, 2)
        found = allowed(retry)
        if found is not None:
            return found
    return None


def notice_for(enrolment: Enrolment, offer_on_debit_day: Offer, attempts: Iterable[Attempt]
               ) -> Debit | None:
    """The debit to tell the payer of today, `notice_days` before it: what `due_today` would
    debit on the debit day (the offer given is that day's, computed from what is known
    today). None when nothing will be debited then."""
    found = due_today(enrolment, offer_on_debit_day, attempts)
    return found if found is not None and found.attempt == 1 else None


def covers(enrolment: Enrolment, offer: Offer, attempts: Iterable[Attempt] = ()) -> bool:
    """Whether the enrolment will pay what the offer asks next, so that a reminder of it is
    not needed: a lump-sum plan whose day is still to come while the lump sum is eligible;
    an installments plan active on the next payment's due day, or, on an installment's due
    day, one not yet attempted. Never with arrears (autopay pays no arrears by itself), nor
    once an attempt for what is due has failed (the payer is told to pay it)."""
    day = offer.on
    if enrolment.ends_on is not None and enrolment.ends_on <= day:
        return False
    if enrolment.plan == PLAN_LUMP_SUM:
        return (enrolment.lump_sum_on is not None and enrolment.lump_sum_on >= day
                and offer.lump_sum.eligible)
    if offer.has_arrears:
        return False
    failed = {n for a in attempts if a.status == FAILED for n in a.numbers}
    due = [o for o in offer.installments if o.status == "due"]
    if due:
        return all(o.due_date == day and o.due_date >= enrolment.starts_on
                   and o.number not in failed for o in due)
    nxt = offer.next_due
    return nxt is not None and nxt.due_date >= max(day, enrolment.starts_on)
