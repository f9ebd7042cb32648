"""What can be paid, and the exact amount of each choice, computed by the core.

The browser never sets a price (PRODUCT.md): it names a choice per account — what is due now,
installments through number N (in due order), an amount from $1 up to the payoff, or the whole
year as a lump sum with the R-A11 discount — and `price` computes the amount from the account's
facts with the core's `statement`, then checks it by applying the hypothetical payment
(`preview`): what it would pay, line by line (R-A10), and what it would leave unpaid.

Everything here is pure (facts in, figures out): no Flask, no database.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from portal.core.installments import Installment
from portal.core.lump_sum import lump_sum_quote
from portal.core.money import ZERO, cents, has_whole_cents
from portal.core.statement import Application, Cost, Payment, Statement, StatementRules, evaluate

#: The smallest amount a payer may type (issue 4: "any amount from $1 up to the payoff").
MIN_AMOUNT = Decimal("1.00")
#: The smallest online payment Stripe accepts in USD.
MIN_ONLINE_TOTAL = Decimal("0.50")

KINDS = ("due_now", "installments", "amount", "lump_sum")


class ChoiceError(ValueError):
    """A choice that cannot be priced. `code` names the problem; `params` its figures.

    Codes: not_a_number, negative, zero, too_many_decimals, too_small, too_much (payoff),
    nothing_due, unknown_installment, installment_paid, lump_sum_unavailable (reason,
    deadline), unknown_kind, nothing_chosen, duplicate_account, total_too_small.
    """

    def __init__(self, code: str, account: str | None = None, **params: Any):
        super().__init__(code)
        self.code = code
        self.account = account
        self.params = params


@dataclass(frozen=True)
class AccountFacts:
    """An account's facts, as the core needs them (DESIGN.md 1)."""

    key: str  # the account's id, as text
    parcel_id: str
    label: str  # what the payer recognises: the catastro number
    fiscal_year: str
    installments: Sequence[Installment]
    payments: Sequence[Payment] = ()
    costs: Sequence[Cost] = ()
    rules: StatementRules = field(default_factory=StatementRules)
    annual: Decimal | None = None

    def statement(self, on: date, extra: Sequence[Payment] = ()) -> Statement:
        return evaluate(on, self.installments, list(self.payments) + list(extra), self.costs,
                        self.rules, self.annual)

    @property
    def annual_amount(self) -> Decimal:
        return self.annual if self.annual is not None else sum(
            (i.amount for i in self.installments), ZERO)


@dataclass(frozen=True)
class InstallmentOption:
    number: int
    due_date: date
    status: str  # delinquent | due | upcoming
    owed: Decimal  # still owed on it (principal, fee, interest)
    amount_through: Decimal  # to pay everything up to and including it, in R-A10 order


@dataclass(frozen=True)
class LumpSumOption:
    eligible: bool
    deadline: date | None
    discount: Decimal
    amount: Decimal
    reason: str | None  # why not: granted | late | not_first | no_discount | nothing_due
    granted_on: date | None = None  # reason "granted": the date of the payment that earned it


@dataclass(frozen=True)
class Offer:
    """What an account offers to pay today, with the figures each option shows."""

    facts: AccountFacts
    on: date
    statement: Statement
    due_now: Decimal
    payoff: Decimal
    installments: list[InstallmentOption]
    lump_sum: LumpSumOption
    arrears: Decimal  # interest + late fees + costs + delinquent principal

    @property
    def has_arrears(self) -> bool:
        return self.arrears > 0


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
        a = self.after
        return a.interest + a.late_fees + a.costs + a.delinquent_principal


@dataclass(frozen=True)
class Priced:
    parts: list[Part]

    @property
    def total(self) -> Decimal:
        return sum((p.amount for p in self.parts), ZERO)


def offer(facts: AccountFacts, on: date) -> Offer:
    st = facts.statement(on)
    items = []
    owed_before = st.interest + st.late_fees + st.costs - st.credit
    principal_so_far = ZERO
    for i in sorted(st.installments, key=lambda i: (i.due_date, i.number)):
        if i.status == "paid":
            continue
        principal_so_far += i.principal
        items.append(InstallmentOption(
            i.number, i.due_date, i.status, i.principal + i.late_fee + i.interest,
            max(ZERO, owed_before + principal_so_far)))
    arrears = st.interest + st.late_fees + st.costs + st.delinquent_principal
    return Offer(facts, on, st, st.total_due_now, st.payoff, items, _lump(facts, st, on),
                 arrears)


def _lump(facts: AccountFacts, st: Statement, on: date) -> LumpSumOption:
    deadline = st.lump_sum_deadline
    granted = next((a for a in st.applications if a.lump_sum == "granted"), None)
    if granted is not None:
        # R-A11, at most once a year: say it was granted (amount and date), not "unavailable".
        return LumpSumOption(False, deadline, st.discount, ZERO, "granted", granted.date)
    principal_paid = sum((i.amount for i in facts.installments), ZERO) - sum(
        (i.principal for i in st.installments), ZERO) - st.discount
    if deadline is None or st.payoff <= 0:
        return LumpSumOption(False, deadline, ZERO, ZERO, "nothing_due")
    q = lump_sum_quote(facts.annual_amount, facts.rules.lump_sum_discount_rate, deadline, on,
                       max(ZERO, principal_paid), facts.rules.closed_days)
    if not q.eligible:
        reason = q.reason or "not_first"
        return LumpSumOption(False, q.deadline, ZERO, ZERO, reason)
    if q.discount <= 0:
        return LumpSumOption(False, q.deadline, ZERO, ZERO, "no_discount")
    amount = max(ZERO, st.payoff - q.discount)
    return LumpSumOption(True, q.deadline, q.discount, amount, None)


def price(offer_: Offer, choice: Choice) -> Part:
    """The amount of one account's choice, checked by applying it through the core."""
    facts, st = offer_.facts, offer_.statement
    key = facts.key
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
    facts = offer_.facts
    after = facts.statement(offer_.on, [Payment(offer_.on, amount, lump)])
    index = len(facts.payments)
    app = next(a for a in after.applications if a.payment == index)
    if lump and app.lump_sum != "granted":
        raise ChoiceError("lump_sum_unavailable", facts.key, reason=app.lump_sum,
                          deadline=offer_.lump_sum.deadline)
    if kind == "installments" and through is not None:
        inst = next(i for i in after.installments if i.number == through)
        assert inst.status == "paid", "paying through an installment must pay it"
    return Part(facts.key, facts.parcel_id, facts.label, kind, amount, lump, through, app,
                after)


def check_amount(amount: Decimal | None, payoff: Decimal, account: str | None = None) -> Decimal:
    """An amount typed by the payer: at least $1, at most the payoff, whole cents."""
    if amount is None:
        raise ChoiceError("not_a_number", account)
    if not amount.is_finite():
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


_ALLOWED_CHARS = set("0123456789.,$ -\u00a0")


def parse_amount(text: str | None, locale: str) -> Decimal:
    """Money typed by a person, in their locale (es_PR and en_US: 1,234.50).

    Babel's `parse_decimal(strict=True)` refuses misplaced separators ("1.234,50" under
    es_PR) instead of silently reading 1.23450. Letters, exponents, NaN: `not_a_number`.
    """
    from babel.numbers import NumberFormatError, parse_decimal

    raw = (text or "").strip()
    if not raw or any(ch not in _ALLOWED_CHARS for ch in raw):
        raise ChoiceError("not_a_number")
    cleaned = raw.replace("$", "").replace("\u00a0", "").replace(" ", "")
    negative = cleaned.startswith("-")
    cleaned = cleaned.lstrip("-")
    if not cleaned or "-" in cleaned:
        raise ChoiceError("not_a_number")
    try:
        value = parse_decimal(cleaned, locale=locale, strict=True)
    except (NumberFormatError, InvalidOperation, ValueError):
        raise ChoiceError("not_a_number") from None
    if not value.is_finite():
        raise ChoiceError("not_a_number")
    if negative and value != 0:
        raise ChoiceError("negative")
    if not has_whole_cents(value):
        raise ChoiceError("too_many_decimals")
    return value
