"""The one function that posts a payment (DESIGN.md 4): `fulfil`.

The webhook, the success page, the sandbox and `portal payments reconcile` all call
`fulfil(uow, checkout_id, provider_session, gateway=...)`. It re-reads the session from the
provider (the event's copy is not trusted), checks that it is ours (client_reference_id,
metadata, amount, currency), locks the checkout row (SELECT ... FOR UPDATE) and moves it forward:

    session open                         -> nothing (still pending)
    complete and paid                    -> succeeded: posted (card), or settled (ACH)
    complete, unpaid, debit in progress  -> processing: posted, shown as "processing"
    complete, unpaid, debit failed       -> failed: a posted ACH is reversed, dated today
                                            (the day the failure is known: from then the
                                            statement reads it as never received, R-A6)
    expired                              -> expired

A move the state machine does not allow forward (a replay, an event older than what we know)
changes nothing and says "noop": calling `fulfil` twice does nothing the second time.

Refunds (`refund_at_provider`, `record_provider_refund`) and office payments (`post_office`)
go through the same posting code (`portal.payments.ledger`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import select

from portal import clock
from portal.accounts import audit
from portal.core import payment_states as states
from portal.core.money import ZERO
from portal.db import UnitOfWork
from portal.models import Payment
from portal.models.checkouts import Checkout, CheckoutPayment, PaymentRefund
from portal.payments import ledger
from portal.payments.gateway import CheckoutSession, Gateway

log = logging.getLogger(__name__)

METHODS = {"card": "card", "us_bank_account": "bank"}
FAILED_INTENT = {"requires_payment_method", "canceled"}


class Mismatch(Exception):
    """The provider's session does not match our checkout (tampered or misrouted)."""

    def __init__(self, checkout_id: int, what: str):
        super().__init__(f"checkout {checkout_id}: session does not match ({what})")
        self.checkout_id = checkout_id
        self.what = what


@dataclass(frozen=True)
class Outcome:
    """What `fulfil` (or a refund) did: posted | settled | reversed | failed | expired |
    refunded | open | noop."""

    kind: str
    checkout_id: int
    status: str

    @property
    def changed(self) -> bool:
        return self.kind not in ("noop", "open")


def target_status(session: CheckoutSession) -> str | None:
    """The state a checkout should be in, by its provider session."""
    if session.status == "expired":
        return states.EXPIRED
    if session.status != "complete":
        return None
    if session.paid:
        return states.SUCCEEDED
    if session.intent_status in FAILED_INTENT:
        return states.FAILED
    return states.PROCESSING


def lock_checkout(uow: UnitOfWork, checkout_id: int) -> Checkout:
    chk = uow.session.scalar(select(Checkout).where(Checkout.id == checkout_id)
                             .with_for_update().execution_options(populate_existing=True))
    if chk is None:
        raise LookupError(f"no checkout {checkout_id}")
    return chk


def payments_of(uow: UnitOfWork, checkout_id: int, lock: bool = False) -> list[Payment]:
    stmt = (select(Payment).join(CheckoutPayment, CheckoutPayment.payment_id == Payment.id)
            .where(CheckoutPayment.checkout_id == checkout_id)
            .order_by(CheckoutPayment.position))
    if lock:
        stmt = stmt.with_for_update().execution_options(populate_existing=True)
    return list(uow.session.scalars(stmt))


def verify(chk: Checkout, session: CheckoutSession) -> None:
    """The session must be this checkout's: same id, reference, metadata, amount, currency."""
    ref = str(chk.id)
    problems = []
    if chk.provider_session_id is not None and session.id != chk.provider_session_id:
        problems.append("session id")
    if session.client_reference_id != ref:
        problems.append("client_reference_id")
    if session.metadata.get("payment_id") != ref:
        problems.append("metadata.payment_id")
    if session.amount is not None and session.amount != chk.amount:
        problems.append("amount")
    if session.currency is not None and session.currency.lower() != chk.currency:
        problems.append("currency")
    if problems:
        raise Mismatch(chk.id, ", ".join(problems))


def fulfil(uow: UnitOfWork, checkout_id: int, provider_session: str | None = None, *,
           gateway: Gateway, completed_at: datetime | None = None) -> Outcome:
    """Settle a checkout from its provider session; idempotent.

    `provider_session` is the session id (default: the one recorded on the checkout); the
    session is always re-read from the gateway. `completed_at` is when the payer completed
    it, when the caller knows (the webhook's event time); else when the provider says it was
    completed (reconcile, after a missed webhook: R-A6 dates the payment then, not when it
    is first seen); else the time it is first seen.
    Raises `GatewayError` (provider unreachable: nothing changed), `Mismatch` (not ours:
    nothing changed) or `LookupError` (no such checkout).
    """
    found = uow.session.get(Checkout, checkout_id)
    if found is None:
        raise LookupError(f"no checkout {checkout_id}")
    session_id = provider_session or found.provider_session_id
    if not session_id:
        return Outcome("noop", checkout_id, found.status)
    session = gateway.retrieve(session_id)
    chk = lock_checkout(uow, checkout_id)
    try:
        verify(chk, session)
    except Mismatch as exc:
        log.error("payments: %s", exc)  # the caller records it (this transaction rolls back)
        raise
    if chk.provider_session_id is None:
        chk.provider_session_id = session.id
    target = target_status(session)
    if target is None:
        return Outcome("open", chk.id, chk.status)
    return transition(uow, chk, target, session=session,
                      completed_at=completed_at or session.completed_at)


def transition(uow: UnitOfWork, chk: Checkout, target: str, *,
               session: CheckoutSession | None = None, completed_at: datetime | None = None,
               author_id: int | None = None, failure: str | None = None) -> Outcome:
    """Move a locked checkout (and its payments) to `target`, posting or reversing money."""
    current = chk.status
    if target == current or not states.can_move(current, target):
        if target != current:
            log.info("payments: checkout %s is %s; %s ignored (out of order)", chk.id,
                     current, target)
        return Outcome("noop", chk.id, current)
    now = clock.now()
    parts = payments_of(uow, chk.id, lock=True)
    ledger.lock_accounts(uow, [p.parcel_id for p in parts])
    before = {"status": current}
    if session is not None:
        _method(chk, session)
    if target in (states.PROCESSING, states.SUCCEEDED) and current in states.OPEN:
        when = completed_at or now
        when = min(max(when, chk.created_at), now)
        day = clock.legal_date(when)
        chk.completed_at = when
        # The next number of the year's one counter, in this transaction (a rollback gives
        # it back; a declined or expired checkout never takes one): no gaps, one scheme.
        chk.receipt_number = chk.receipt_number or ledger.next_receipt_number(uow, day)
        chk.open_key = None
        for p in parts:
            p.status = target
            p.completed_at = when
            p.method = chk.method or p.method
            p.provider_payment_id = chk.provider_payment_id
            p.updated_at = now
        uow.session.flush()
        for p in parts:
            ledger.post_payment(uow, p, author_id=author_id or chk.created_by_id)
        kind = "posted"
    elif target == states.SUCCEEDED:  # processing -> succeeded: the bank debit settled
        for p in parts:
            p.status = target
            p.updated_at = now
        kind = "settled"
    elif target == states.FAILED and current == states.PROCESSING:
        for p in parts:
            p.status = target
            p.updated_at = now
            ledger.reverse_payment(uow, p, "bank debit failed", author_id=author_id)
        chk.failure_code = failure or "debit_failed"
        kind = "reversed"
    else:  # open -> failed | expired: no money moved
        for p in parts:
            p.status = target
            p.updated_at = now
        chk.open_key = None
        if target == states.FAILED:
            chk.failure_code = failure or "payment_failed"
        kind = "failed" if target == states.FAILED else "expired"
    chk.status = target
    chk.updated_at = now
    uow.session.flush()
    audit.record(uow, author_id, f"payment.{kind}", chk, before=before,
                 after={"status": target, "amount": chk.amount,
                        "payments": [p.id for p in parts]})
    log.info("payments: checkout %s %s -> %s (%s)", chk.id, current, target, kind)
    return Outcome(kind, chk.id, target)


def _method(chk: Checkout, session: CheckoutSession) -> None:
    if session.payment_intent and not chk.provider_payment_id:
        chk.provider_payment_id = session.payment_intent
    if session.method and not chk.method:
        chk.method = METHODS.get(session.method, "card")
        chk.last4 = session.last4
        chk.card_brand = session.brand
        chk.bank_name = session.bank_name


# --- refunds ---------------------------------------------------------------------------------

def _refund_parts(uow: UnitOfWork, chk: Checkout, plan: list[tuple[Payment, Decimal]],
                  reason: str, *, author_id: int | None, note: str,
                  provider_refund_id: str | None) -> Outcome:
    now = clock.now()
    for p, amount in plan:
        uow.session.add(PaymentRefund(checkout_id=chk.id, payment_id=p.id, amount=amount,
                                      reason=reason, provider_refund_id=provider_refund_id,
                                      author_id=author_id, note=note))
        ledger.refund(uow, p, amount, note or reason, author_id=author_id)
    total = sum((a for _, a in plan), ZERO)
    before = {"status": chk.status, "refunded_amount": chk.refunded_amount}
    chk.refunded_amount = chk.refunded_amount + total
    target = states.REFUNDED if chk.refunded_amount == chk.amount else \
        states.PARTIALLY_REFUNDED
    if target != chk.status:
        chk.status = target
    chk.updated_at = now
    uow.session.flush()
    audit.record(uow, author_id, "checkout.refunded", chk, before=before,
                 after={"status": chk.status, "refunded_amount": chk.refunded_amount,
                        "refund": total, "reason": reason,
                        "payments": {str(p.id): a for p, a in plan}})
    return Outcome("refunded", chk.id, chk.status)


def record_provider_refund(uow: UnitOfWork, checkout_id: int, total_refunded: Decimal,
                           provider_refund_id: str | None = None) -> Outcome:
    """The provider says `total_refunded` of the charge has been given back so far (a
    `charge.refunded` event: cumulative, so replays and reordering change nothing twice).
    What we have not recorded yet is taken from the checkout's payments, last one first."""
    chk = lock_checkout(uow, checkout_id)
    if chk.status not in (states.SUCCEEDED, states.PARTIALLY_REFUNDED, states.REFUNDED):
        return Outcome("noop", chk.id, chk.status)
    delta = min(total_refunded, chk.amount) - chk.refunded_amount
    if delta <= 0:
        return Outcome("noop", chk.id, chk.status)
    parts = payments_of(uow, chk.id, lock=True)
    ledger.lock_accounts(uow, [p.parcel_id for p in parts])
    plan: list[tuple[Payment, Decimal]] = []
    for p in reversed(parts):
        room = p.amount - p.refunded_amount
        take = min(room, delta)
        if take > 0:
            plan.append((p, take))
            delta -= take
    return _refund_parts(uow, chk, plan, "provider", author_id=None,
                         note="refunded at the provider", provider_refund_id=provider_refund_id)


def refund_plan(uow: UnitOfWork, parcel_id: int, fiscal_year_id: int, amount: Decimal
                ) -> list[tuple[Checkout, Payment, Decimal]]:
    """Which payments give back `amount` of an account's credit: the latest first, among
    settled payments (a bank debit still processing cannot be refunded)."""
    rows = uow.session.execute(
        select(Checkout, Payment).join(CheckoutPayment, CheckoutPayment.checkout_id == Checkout.id)
        .join(Payment, Payment.id == CheckoutPayment.payment_id)
        .where(Payment.parcel_id == parcel_id, Payment.fiscal_year_id == fiscal_year_id,
               Payment.status.in_([states.SUCCEEDED, states.PARTIALLY_REFUNDED]))
        .order_by(Payment.completed_at.desc(), Payment.id.desc())).all()
    plan = []
    left = amount
    for chk, p in rows:
        take = min(p.amount - p.refunded_amount, left)
        if take > 0:
            plan.append((chk, p, take))
            left -= take
        if left == 0:
            break
    if left > 0:
        raise ValueError("not enough settled payments to refund from")
    return plan


def refund_parts(uow: UnitOfWork, chk: Checkout, plan: list[tuple[Payment, Decimal]], *,
                 reason: str, author_id: int | None, note: str,
                 provider_refund_id: str | None = None) -> Outcome:
    return _refund_parts(uow, chk, plan, reason, author_id=author_id, note=note,
                         provider_refund_id=provider_refund_id)


def describe(outcome: Outcome) -> dict[str, Any]:
    return {"kind": outcome.kind, "checkout": outcome.checkout_id, "status": outcome.status}
