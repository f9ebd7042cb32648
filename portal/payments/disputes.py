"""A payer's dispute (chargeback) of a card or bank payment, as the provider reports it.

- `record_dispute`: `charge.dispute.created` records who (the checkout, its payer), how much,
  why and the status; later events (`.updated`, `.closed`, ...) bring the status up to date,
  and an event older than the status kept changes nothing. The ledger is not touched: staff
  answer the dispute at the provider; money it then takes back arrives as a refund does.
- `open_disputes`: what staff see (`/personal/disputas`), newest first.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import select

from portal import clock
from portal.accounts import access, audit
from portal.core.money import from_minor_units
from portal.db import UnitOfWork
from portal.models import Parcel, Payment
from portal.models.checkouts import Checkout, CheckoutPayment, Dispute

log = logging.getLogger(__name__)


def _when(value: Any) -> datetime | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return datetime.fromtimestamp(value, UTC)
    return None


def record_dispute(uow: UnitOfWork, provider: str, dispute: dict[str, Any],
                   reported_at: datetime | None = None) -> tuple[int | None, str]:
    """Record (or bring up to date) a dispute; (checkout id, outcome): dispute_recorded |
    dispute_updated | noop | ignored (not a dispute we can read)."""
    dispute_id, amount = dispute.get("id"), dispute.get("amount")
    if not isinstance(dispute_id, str) or not isinstance(amount, int) or amount < 0:
        return None, "ignored"
    when = reported_at or clock.now()
    status = str(dispute.get("status") or "needs_response")[:30]
    row = uow.session.scalar(select(Dispute).where(
        Dispute.provider == provider, Dispute.dispute_id == dispute_id).with_for_update())
    if row is not None:
        if when < row.status_at or row.status == status:
            return row.checkout_id, "noop"
        before = {"status": row.status}
        row.status, row.status_at = status, when
        uow.session.flush()
        audit.record(uow, None, "dispute.updated", row, before=before, after={"status": status})
        return row.checkout_id, "dispute_updated"
    intent = dispute.get("payment_intent")
    chk_id = uow.session.scalar(select(Checkout.id).where(
        Checkout.provider_payment_id == str(intent))) if intent else None
    evidence = dispute.get("evidence_details")
    row = Dispute(provider=provider, dispute_id=dispute_id, checkout_id=chk_id,
                  payment_intent=str(intent) if intent else None,
                  amount=from_minor_units(amount),
                  currency=str(dispute.get("currency") or "usd")[:3],
                  reason=str(dispute.get("reason") or "")[:40], status=status,
                  evidence_due_by=_when(evidence.get("due_by"))
                  if isinstance(evidence, dict) else None,
                  opened_at=_when(dispute.get("created")) or when, status_at=when)
    uow.session.add(row)
    uow.session.flush()
    audit.record(uow, None, "dispute.recorded", row,
                 after={"dispute": dispute_id, "checkout": chk_id, "amount": row.amount,
                        "reason": row.reason, "status": status})
    if chk_id is None:
        log.warning("payments: dispute %s of an unknown payment %s", dispute_id, intent)
    return chk_id, "dispute_recorded"


@dataclass(frozen=True)
class DisputeRow:
    """A dispute as staff see it."""

    id: int
    dispute_id: str
    checkout_id: int | None
    receipt_number: str | None
    payer_name: str
    payer_email: str | None
    catastros: list[str]
    parcel_ids: list[int]
    amount: Decimal
    reason: str
    status: str
    opened_at: datetime
    evidence_due_by: datetime | None


def staff_disputes(uow: UnitOfWork, staff: Any, limit: int = 200) -> list[DisputeRow]:
    """The latest disputes (staff only), with who paid and which parcels."""
    access.require_staff(staff)
    rows = list(uow.session.execute(
        select(Dispute, Checkout).outerjoin(Checkout, Checkout.id == Dispute.checkout_id)
        .order_by(Dispute.opened_at.desc(), Dispute.id.desc()).limit(limit)))
    ids = [c.id for _, c in rows if c is not None]
    parcels: dict[int, list[tuple[int, str]]] = {}
    if ids:
        for chk_id, pid, catastro in uow.session.execute(
                select(CheckoutPayment.checkout_id, Parcel.id, Parcel.catastro)
                .join(Payment, Payment.id == CheckoutPayment.payment_id)
                .join(Parcel, Parcel.id == Payment.parcel_id)
                .where(CheckoutPayment.checkout_id.in_(ids))
                .order_by(CheckoutPayment.checkout_id, CheckoutPayment.position)):
            parcels.setdefault(chk_id, []).append((pid, catastro))
    out = []
    for d, c in rows:
        these = parcels.get(c.id, []) if c is not None else []
        out.append(DisputeRow(
            id=d.id, dispute_id=d.dispute_id, checkout_id=d.checkout_id,
            receipt_number=c.receipt_number if c else None,
            payer_name=c.payer_name if c else "", payer_email=c.payer_email if c else None,
            catastros=[cat for _, cat in these], parcel_ids=[pid for pid, _ in these],
            amount=d.amount, reason=d.reason, status=d.status, opened_at=d.opened_at,
            evidence_due_by=d.evidence_due_by))
    return out
