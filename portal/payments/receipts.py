"""What a receipt and the payment history say, read from the ledger (no Flask here).

A receipt is one checkout: its number, date (the Puerto Rico legal date the payer completed
it), payer, method (card and last four digits, or bank), status, and for each parcel the lines
the payment was applied to (R-A10 / R-A11, with rule ids), any lump-sum explanation (why the
discount was or was not granted), and the refunds. Visibility goes through the access policy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import func, select

from portal import clock
from portal.accounts import access, facts
from portal.accounts.errors import NotFound
from portal.core import payment_states as states
from portal.core.money import ZERO
from portal.db import UnitOfWork
from portal.models import FiscalYear, Parcel, Payment, PaymentAllocation
from portal.models.checkouts import Checkout, CheckoutPayment, PaymentRefund
from portal.payments import ledger


@dataclass
class ReceiptPart:
    payment: Payment
    parcel: Parcel
    fiscal_year: FiscalYear
    lines: list[PaymentAllocation]
    lump_sum: str | None  # the core's R-A11 verdict: granted | late | short | not_first ...
    refunds: list[PaymentRefund]
    reversed: bool
    cost_descriptions: dict[int, str] = field(default_factory=dict)
    #: "installments through N": the N chosen on the checkout (known before any line exists).
    through: int | None = None
    #: What is left on the account after it: (the day, its due now, its payoff),
    #: the account's statement on the receipt's day (`portal.core.statement`).
    left: tuple[date, Decimal, Decimal] | None = None

    @property
    def applied(self) -> Decimal:
        return sum((ln.amount for ln in self.lines if ln.kind != "discount"), ZERO)

    @property
    def discount(self) -> Decimal:
        return sum((ln.amount for ln in self.lines if ln.kind == "discount"), ZERO)


@dataclass
class LoosePayment:
    """A payment recorded without a checkout (the demo, a lender file, the data layer's own
    office payments), shaped like a checkout for its receipt."""

    payment: Payment
    payer_name: str = ""
    payer_email: str | None = None

    id = None
    provider_session_id = None
    card_brand = None
    last4 = None
    bank_name = None

    @property
    def receipt_number(self) -> str | None:
        """Given when it succeeded, from the same yearly counter as a checkout's."""
        return self.payment.receipt_number

    @property
    def status(self) -> str:
        return self.payment.status

    @property
    def provider(self) -> str:
        return self.payment.provider

    @property
    def amount(self) -> Decimal:
        return self.payment.amount

    @property
    def refunded_amount(self) -> Decimal:
        return self.payment.refunded_amount

    @property
    def completed_at(self) -> Any:
        return self.payment.completed_at

    @property
    def method(self) -> str:
        return self.payment.method

    @property
    def reference(self) -> str | None:
        return self.payment.provider_payment_id


@dataclass
class Receipt:
    checkout: Any  # a Checkout, or a LoosePayment
    parts: list[ReceiptPart]
    lump_sum_deadline: date | None = None

    @property
    def number(self) -> str | None:
        return self.checkout.receipt_number

    @property
    def legal_date(self) -> date | None:
        c = self.checkout.completed_at
        return clock.legal_date(c) if c is not None else None

    @property
    def status(self) -> str:
        return self.checkout.status

    @property
    def applied(self) -> bool:
        return self.checkout.status in states.APPLIED or self.checkout.status == states.REFUNDED

    @property
    def discount(self) -> Decimal:
        return sum((p.discount for p in self.parts), ZERO)


def visible_checkout(uow: UnitOfWork, user: Any, checkout_id: int | str) -> Checkout:
    """The checkout, if the user may see it: staff, its payer, or someone who sees every
    parcel it paid; `NotFound` otherwise (also for a bad id)."""
    cid = access.parse_id(checkout_id)
    chk = uow.session.get(Checkout, cid)
    if chk is None:
        raise NotFound()
    if access.is_staff(user) or (chk.user_id is not None and chk.user_id == getattr(
            user, "id", None)):
        return chk
    parcel_ids = uow.session.scalars(
        select(Payment.parcel_id).join(CheckoutPayment, CheckoutPayment.payment_id == Payment.id)
        .where(CheckoutPayment.checkout_id == cid)).all()
    if parcel_ids and all(access.relation(uow, user, pid) is not None for pid in parcel_ids):
        return chk
    raise NotFound()


def payment_receipt(uow: UnitOfWork, user: Any, payment_id: int | str) -> Receipt | int:
    """A payment's own receipt (one recorded without a checkout), or its checkout's id, if
    the user may see the payment (`access.get_payment`'s test: someone the access policy
    relates to its parcel); `NotFound` otherwise (also for a bad id). The payment is read
    once, with its parcel, fiscal year, checkout and payer (one statement)."""
    from portal.models import User
    pid = access.parse_id(payment_id)
    found = uow.session.execute(
        select(Payment, Parcel, FiscalYear, CheckoutPayment.checkout_id, User.name, User.email)
        .join(Parcel, Parcel.id == Payment.parcel_id)
        .join(FiscalYear, FiscalYear.id == Payment.fiscal_year_id)
        .outerjoin(CheckoutPayment, CheckoutPayment.payment_id == Payment.id)
        .outerjoin(User, User.id == Payment.user_id)
        .where(Payment.id == pid).limit(1)).first()
    if found is None or access.relation(uow, user, found[0].parcel_id) is None:
        raise NotFound()
    payment, parcel, fy, checkout_id, name, email = found
    if checkout_id is not None:
        return checkout_id
    return _build(uow, LoosePayment(payment, name or "", email), [payment.id], [],
                  read=[(payment, parcel, fy)])


def build_for_payment(uow: UnitOfWork, payment: Payment) -> Receipt:
    """The receipt of a payment recorded without a checkout."""
    from portal.models import User

    payer = uow.session.get(User, payment.user_id) if payment.user_id else None
    loose = LoosePayment(payment, payer.name if payer else "", payer.email if payer else None)
    return _build(uow, loose, [payment.id], [])


def build(uow: UnitOfWork, chk: Checkout) -> Receipt:
    rows = uow.session.execute(select(CheckoutPayment.payment_id,
                                      CheckoutPayment.installments_through).where(
        CheckoutPayment.checkout_id == chk.id).order_by(CheckoutPayment.position)).all()
    refunds = uow.session.scalars(select(PaymentRefund).where(
        PaymentRefund.checkout_id == chk.id).order_by(PaymentRefund.id)).all()
    return _build(uow, chk, [pid for pid, _ in rows], list(refunds),
                  {pid: n for pid, n in rows if n is not None})


def _build(uow: UnitOfWork, chk: Any, payment_ids: list[int],
           refunds: list[PaymentRefund], through: dict[int, int] | None = None, *,
           read: list[tuple[Payment, Parcel, FiscalYear]] | None = None) -> Receipt:
    """`read`: the payments with their parcels and fiscal years, when the caller has them."""
    through = through or {}
    found = {p.id: (p, parcel, fy) for p, parcel, fy in (read if read is not None else
        uow.session.execute(
            select(Payment, Parcel, FiscalYear)
            .join(Parcel, Parcel.id == Payment.parcel_id)
            .join(FiscalYear, FiscalYear.id == Payment.fiscal_year_id)
            .where(Payment.id.in_(payment_ids))).all())}
    rows = [found[i] for i in payment_ids if i in found]
    lines = ledger.receipt_lines(uow, [p.id for p, _, _ in rows])
    parts = []
    deadline = None
    for payment, parcel, fy in rows:
        verdict = None
        left = None
        costs: dict[int, str] = {}
        # The payment's account (read-only records, one statement): whether the payment was
        # posted and reversed, how it was applied and what is left.
        account = facts.load(uow, payment.parcel_id, fy, rows=True)
        kinds = {e.kind for e in account.entries if e.payment_id == payment.id}
        if "payment" in kinds:
            app = ledger.application_of(account, payment.id)
            verdict = app.lump_sum if app is not None else None
            # Every cost the receipt may name, a cost reversed since included.
            costs = {e.id: (e.cost_kind or e.kind) for e in account.entries
                     if e.direction == "debit"}
            today = clock.today()
            st = account.evaluate(today)
            deadline = deadline or st.lump_sum_deadline
            left = (today, st.total_due_now, st.payoff)
        parts.append(ReceiptPart(payment, parcel, fy, lines.get(payment.id, []), verdict,
                                 [r for r in refunds if r.payment_id == payment.id],
                                 "reversal" in kinds, costs, through.get(payment.id),
                                 left))
    return Receipt(chk, parts, deadline)


@dataclass(frozen=True)
class HistoryRow:
    checkout: Checkout | None
    payment: Payment
    #: The last installment it paid principal on (what "installments through N" chose).
    through: int | None = None

    @property
    def legal_date(self) -> date | None:
        c = self.payment.completed_at or (self.checkout.completed_at if self.checkout else None)
        return clock.legal_date(c) if c is not None else None

    @property
    def shown(self) -> Any:
        """What the row describes: the checkout, or the payment itself."""
        return self.checkout if self.checkout is not None else LoosePayment(self.payment)


def history(uow: UnitOfWork, user: Any, parcel_id: int | str
            ) -> tuple[Parcel, list[HistoryRow]]:
    """Every payment of a parcel the user may see (with or without a checkout), newest first;
    NotFound otherwise."""
    parcel = access.get_parcel(uow, user, parcel_id)
    rows = uow.session.execute(
        select(Payment, Checkout, CheckoutPayment.installments_through)
        .outerjoin(CheckoutPayment, CheckoutPayment.payment_id == Payment.id)
        .outerjoin(Checkout, Checkout.id == CheckoutPayment.checkout_id)
        .where(Payment.parcel_id == parcel.id)
        .order_by(Payment.created_at.desc(), Payment.id.desc())).all()
    through = dict(uow.session.execute(
        select(PaymentAllocation.payment_id, func.max(PaymentAllocation.installment_number))
        .join(Payment, Payment.id == PaymentAllocation.payment_id)
        .where(Payment.parcel_id == parcel.id, PaymentAllocation.kind == "principal")
        .group_by(PaymentAllocation.payment_id)).all())
    return parcel, [HistoryRow(c, p, chosen or through.get(p.id)) for p, c, chosen in rows]


# --- one's own payments of a calendar year (the account page's CSV and PDF) -----------------

#: The states of a payment whose money moved (a refunded one too: it is listed with its refund).
MONEY_MOVED = frozenset(states.APPLIED | {states.REFUNDED}) - {states.PROCESSING}
#: The relations whose payments a person's year lists (besides the payments they made).
PAYER_RELATIONS = ("owner", "lessee")


@dataclass(frozen=True)
class YearPayment:
    parcel: Parcel
    row: HistoryRow


@dataclass(frozen=True)
class YearHistory:
    year: int
    payments: list[YearPayment]
    #: The sums of the listed payments: paid, and given back (refunds).
    paid: Decimal
    refunded: Decimal


def _own_payments(uow: UnitOfWork, user: Any) -> Any:
    """The payments one person's year lists: those on the parcels they own or lease, and
    those they made themselves (for a parcel they were allowed to pay), never another's."""
    uid = getattr(user, "id", None)
    if uid is None:
        return None
    mine = [pid for pid, rel in access.relations(uow, user).items() if rel in PAYER_RELATIONS]
    return (Payment.parcel_id.in_(mine) | (Payment.user_id == int(uid)))


def payment_years(uow: UnitOfWork, user: Any) -> list[int]:
    """The calendar years (Puerto Rico dates) in which the person's payments were made,
    newest first."""
    where = _own_payments(uow, user)
    if where is None:
        return []
    instants = uow.session.scalars(select(Payment.completed_at).where(
        where, Payment.status.in_(MONEY_MOVED), Payment.completed_at.is_not(None))).all()
    return sorted({clock.legal_date(i).year for i in instants}, reverse=True)


def year_history(uow: UnitOfWork, user: Any, year: int) -> YearHistory:
    """The person's payments completed in the calendar `year` (their Puerto Rico dates), oldest
    first, each with its parcel and checkout, and their sums (from the payments' amounts and
    refunds as the ledger recorded them)."""
    where = _own_payments(uow, user)
    if where is None:
        return YearHistory(year, [], ZERO, ZERO)
    start = datetime(year, 1, 1, tzinfo=UTC) - timedelta(days=1)
    end = datetime(year + 1, 1, 1, tzinfo=UTC) + timedelta(days=1)
    rows = uow.session.execute(
        select(Payment, Parcel, Checkout, CheckoutPayment.installments_through)
        .join(Parcel, Parcel.id == Payment.parcel_id)
        .outerjoin(CheckoutPayment, CheckoutPayment.payment_id == Payment.id)
        .outerjoin(Checkout, Checkout.id == CheckoutPayment.checkout_id)
        .where(where, Payment.status.in_(MONEY_MOVED), Payment.completed_at >= start,
               Payment.completed_at < end)
        .order_by(Payment.completed_at, Payment.id)).all()
    rows = [r for r in rows if clock.legal_date(r[0].completed_at).year == year]
    through = dict(uow.session.execute(
        select(PaymentAllocation.payment_id, func.max(PaymentAllocation.installment_number))
        .where(PaymentAllocation.payment_id.in_([p.id for p, *_ in rows]),
               PaymentAllocation.kind == "principal")
        .group_by(PaymentAllocation.payment_id)).all()) if rows else {}
    listed = [YearPayment(parcel, HistoryRow(chk, p, chosen or through.get(p.id)))
              for p, parcel, chk, chosen in rows]
    paid = sum((y.row.payment.amount for y in listed), ZERO)
    refunded = sum((y.row.payment.refunded_amount or ZERO for y in listed), ZERO)
    return YearHistory(year, listed, paid, refunded)
