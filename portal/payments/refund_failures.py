"""A refund that the provider reports failed after we recorded it.

- `record_refund_failure`: a refund we recorded (staff's credit refund, or one made at the
  provider and recorded from `charge.refunded`) that the provider later reports `failed` (or
  `canceled`): the money never reached the payer, so each recorded part is undone by a ledger
  reversal of its `refund` entry (`accounts.ledger.reverse_entry`: the account's credit is
  back), the payment's and the checkout's refunded amounts go down by it, and a
  `refund_failures` row (unique per part) makes a repeated event, or the second of
  `refund.updated` / `refund.failed`, change nothing. The payment's status stays where the
  forward-only state machine put it (a `refunded` payment whose refund failed shows its
  refunded amount, now lower).
- `failed_since`: how much of what a `charge.refunded` event counts as refunded has failed
  since that event was created (the provider no longer counts it), so an older event that
  arrives late does not record a failed refund again.
"""

from __future__ import annotations

import logging
from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import func, select

from portal import clock
from portal.accounts import audit
from portal.accounts import ledger as data_ledger
from portal.core.money import ZERO, from_minor_units
from portal.db import UnitOfWork
from portal.models import LedgerEntry
from portal.models.checkouts import Checkout, PaymentRefund, RefundFailure
from portal.payments import fulfilment, ledger

log = logging.getLogger(__name__)

#: A refund in these states gave nothing back.
FAILED = ("failed", "canceled")


def _parts(uow: UnitOfWork, refund: dict[str, Any]) -> list[PaymentRefund]:
    """The recorded parts of the provider's refund: by its id; else (a refund made at the
    provider, recorded from `charge.refunded` without an id) the latest unnamed parts of that
    payment intent's checkout whose amounts add up to exactly the refund's."""
    refund_id = str(refund.get("id") or "")
    if refund_id:
        rows = list(uow.session.scalars(select(PaymentRefund).where(
            PaymentRefund.provider_refund_id == refund_id).order_by(PaymentRefund.id)))
        if rows:
            return rows
    intent, amount = refund.get("payment_intent"), refund.get("amount")
    if not intent or not isinstance(amount, int) or isinstance(amount, bool):
        return []
    chk_id = uow.session.scalar(select(Checkout.id).where(
        Checkout.provider_payment_id == str(intent)))
    if chk_id is None:
        return []
    undone = select(RefundFailure.payment_refund_id)
    candidates = uow.session.scalars(select(PaymentRefund).where(
        PaymentRefund.checkout_id == chk_id, PaymentRefund.reason == "provider",
        PaymentRefund.provider_refund_id.is_(None), PaymentRefund.id.not_in(undone))
        .order_by(PaymentRefund.id.desc()))
    want, taken, total = from_minor_units(amount), [], ZERO
    for row in candidates:
        taken.append(row)
        total += row.amount
        if total >= want:
            break
    return sorted(taken, key=lambda r: r.id) if total == want else []


def _refund_entry(uow: UnitOfWork, part: PaymentRefund) -> LedgerEntry | None:
    """The `refund` ledger entry written with `part`: parts and entries of one payment are
    written together, in the same order."""
    parts = list(uow.session.scalars(select(PaymentRefund.id).where(
        PaymentRefund.payment_id == part.payment_id).order_by(PaymentRefund.id)))
    entries = list(uow.session.scalars(select(LedgerEntry).where(
        LedgerEntry.payment_id == part.payment_id, LedgerEntry.kind == "refund")
        .order_by(LedgerEntry.id)))
    n = parts.index(part.id)
    if n < len(entries) and entries[n].amount == part.amount:
        return entries[n]
    reversed_ids = set(uow.session.scalars(select(LedgerEntry.reverses_id).where(
        LedgerEntry.reverses_id.in_([e.id for e in entries]))))
    return next((e for e in entries if e.amount == part.amount
                 and e.id not in reversed_ids), None)


def record_refund_failure(uow: UnitOfWork, refund: dict[str, Any],
                          reported_at: datetime | None = None) -> tuple[int | None, str]:
    """Undo the recorded refund the provider reports failed; (checkout id, outcome):
    refund_reversed | noop (already undone, or not failed) | unknown_refund."""
    if refund.get("status") not in FAILED:
        return None, "noop"
    parts = _parts(uow, refund)
    if not parts:
        # Already undone (a refund made at the provider, matched by amount, is no longer a
        # candidate once its failure is recorded): the second of its events changes nothing.
        undone = uow.session.scalar(select(RefundFailure.checkout_id).where(
            RefundFailure.provider_refund_id == str(refund.get("id") or "")).limit(1))
        if refund.get("id") and undone is not None:
            return undone, "noop"
        log.warning("payments: refund %s failed, but no recorded refund matches it",
                    refund.get("id"))
        return None, "unknown_refund"
    chk = fulfilment.lock_checkout(uow, parts[0].checkout_id)
    payments = {p.id: p for p in fulfilment.payments_of(uow, chk.id, lock=True)}
    ledger.lock_accounts(uow, [p.parcel_id for p in payments.values()])
    done = set(uow.session.scalars(select(RefundFailure.payment_refund_id).where(
        RefundFailure.payment_refund_id.in_([p.id for p in parts]))))
    todo = [p for p in parts if p.id not in done]
    if not todo:
        return chk.id, "noop"
    reason = str(refund.get("failure_reason") or refund.get("status") or "")[:40]
    when = reported_at or clock.now()
    before = {"refunded_amount": chk.refunded_amount}
    total = ZERO
    for part in todo:
        entry = _refund_entry(uow, part)
        if entry is None:
            log.error("payments: refund part %s has no ledger entry to reverse", part.id)
            continue
        reversal = data_ledger.reverse_entry(uow, None, entry.id,
                                             f"refund failed at the provider ({reason})")
        payment = payments[part.payment_id]
        payment.refunded_amount = payment.refunded_amount - part.amount
        payment.updated_at = clock.now()
        uow.session.add(RefundFailure(
            payment_refund_id=part.id, checkout_id=chk.id, payment_id=part.payment_id,
            amount=part.amount, provider_refund_id=refund.get("id"), failure_reason=reason,
            reversal_entry_id=reversal.id, failed_at=when))
        total += part.amount
    if total == ZERO:
        return chk.id, "noop"
    chk.refunded_amount = chk.refunded_amount - total
    chk.updated_at = clock.now()
    uow.session.flush()
    audit.record(uow, None, "checkout.refund_failed", chk, before=before,
                 after={"refunded_amount": chk.refunded_amount, "failed": total,
                        "refund": refund.get("id"), "reason": reason})
    return chk.id, "refund_reversed"


def failed_since(uow: UnitOfWork, checkout_id: int, created: datetime | None) -> Decimal:
    """What of the checkout's refunds failed after `created` (an event's time)."""
    if created is None:
        return ZERO
    return uow.session.scalar(select(func.coalesce(func.sum(RefundFailure.amount), 0)).where(
        RefundFailure.checkout_id == checkout_id, RefundFailure.failed_at > created)) or ZERO
