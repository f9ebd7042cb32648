"""Provider events (webhooks), and the sandbox's own events, into `fulfil`.

`handle_webhook` verifies the signature on the raw body with the endpoint secret
(STRIPE_WEBHOOK_SECRET) before anything else: unsigned, altered or stale (over 5 minutes)
deliveries get 400 and a log line. Then `process_event`:

- each event id is stored once (unique constraint) in the same transaction as its effect, so a
  replay finds it and changes nothing; a simultaneous second delivery fails on the constraint
  and rolls back whatever it did;
- checkout.session.completed / async_payment_succeeded / async_payment_failed / expired all
  call the one `fulfil`, which re-reads the session from the provider (the event's copy of the
  session is not trusted) and moves the checkout forward only, so events arriving out of order
  change nothing twice;
- payment_intent.succeeded / .processing / .payment_failed of an off-session debit
  (autopay: the checkout's session is the PaymentIntent) call the same `fulfil`;
- charge.refunded carries the cumulative amount refunded: what we have not recorded yet is
  recorded, so replays and reordering change nothing twice (less what has failed since the
  event was created: the provider no longer counts a failed refund);
- refund.updated / refund.failed (charge.refund.updated) with a failed or canceled refund
  undo the recorded refund once (`refund_failures.record_refund_failure`);
- charge.dispute.created (and .updated, .closed, .funds_withdrawn, .funds_reinstated) keep
  the dispute as the provider last reported it, shown to staff.

Returns (HTTP status, short text): 200 when handled or deliberately ignored, 400 for a bad
signature or a session that does not match our records, 503 when the provider cannot be
reached to re-read the session (the provider retries later).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from portal import clock
from portal.accounts import access, audit
from portal.accounts.errors import NotFound
from portal.core.money import from_minor_units
from portal.db import Database, UnitOfWork
from portal.models.checkouts import Checkout, ProviderEvent
from portal.payments import disputes, fulfilment, refund_failures
from portal.payments.gateway import Gateway, GatewayError

log = logging.getLogger(__name__)

CHECKOUT_EVENTS = ("checkout.session.completed", "checkout.session.async_payment_succeeded",
                   "checkout.session.async_payment_failed", "checkout.session.expired")
#: An off-session debit (autopay) is a PaymentIntent of its own, no Checkout Session: the
#: checkout records the intent's id as its session (`fulfil` reads it back the same way).
INTENT_EVENTS = ("payment_intent.succeeded", "payment_intent.processing",
                 "payment_intent.payment_failed")
REFUND_EVENTS = ("charge.refunded",)
REFUND_UPDATE_EVENTS = ("refund.updated", "refund.failed", "charge.refund.updated")
DISPUTE_EVENTS = ("charge.dispute.created", "charge.dispute.updated", "charge.dispute.closed",
                  "charge.dispute.funds_withdrawn", "charge.dispute.funds_reinstated")


Notify = Callable[[int, str], None]


def handle_webhook(database: Database, gateway: Gateway, payload: bytes,
                   signature: str | None, notify: Notify | None = None) -> tuple[int, str]:
    try:
        event = gateway.construct_event(payload, signature)
    except ValueError as exc:
        log.warning("payments: webhook refused: %s", exc)
        return 400, "invalid signature"
    return process_event(database, gateway, event, notify)


def _find_checkout(uow: UnitOfWork, obj: dict[str, Any]) -> Checkout | None:
    session_id = obj.get("id")
    if session_id:
        chk = uow.session.scalar(select(Checkout).where(
            Checkout.provider_session_id == str(session_id)))
        if chk is not None:
            return chk
    metadata = obj.get("metadata")
    ref = obj.get("client_reference_id") or (
        metadata.get("payment_id") if isinstance(metadata, dict) else None)
    try:
        checkout_id = access.parse_id(str(ref)) if ref else None
    except NotFound:  # not an id we could have written ("²", too large for the column)
        checkout_id = None
    if checkout_id is not None:
        chk = uow.session.get(Checkout, checkout_id)
        if chk is not None and chk.provider_session_id in (None, session_id):
            return chk
    return None


def _seen(uow: UnitOfWork, provider: str, event_id: str) -> bool:
    return uow.session.scalar(select(ProviderEvent.id).where(
        ProviderEvent.provider == provider, ProviderEvent.event_id == event_id)) is not None


def _event_time(event: dict[str, Any]) -> datetime | None:
    created = event.get("created")
    if isinstance(created, int) and not isinstance(created, bool):
        return datetime.fromtimestamp(created, UTC)
    return None


class _Duplicate(Exception):
    pass


def process_event(database: Database, gateway: Gateway, event: dict[str, Any],
                  notify: Notify | None = None) -> tuple[int, str]:
    """Handle one verified event; `notify(checkout_id, outcome)` runs after the commit (to
    email the receipt), never inside the transaction."""
    provider = gateway.name
    event_id, kind = event.get("id"), event.get("type")
    data = event.get("data")
    obj = data.get("object") if isinstance(data, dict) else None
    if not isinstance(event_id, str) or not isinstance(kind, str) or not isinstance(obj, dict):
        log.warning("payments: malformed event refused")
        return 400, "malformed event"
    try:
        with database.unit_of_work() as uow:
            if _seen(uow, provider, event_id):
                return 200, "duplicate"
            chk_id, outcome = _apply(uow, gateway, kind, obj, event, provider)
            uow.session.add(ProviderEvent(provider=provider, event_id=event_id, type=kind,
                                          checkout_id=chk_id, outcome=outcome))
            try:
                uow.session.flush()
            except IntegrityError:
                raise _Duplicate() from None
    except _Duplicate:
        log.info("payments: event %s delivered twice at once; the first one stands", event_id)
        return 200, "duplicate"
    except fulfilment.Mismatch as exc:
        with database.unit_of_work() as uow:
            audit.record(uow, None, "payment.mismatch", object_type="checkouts",
                         object_id=exc.checkout_id, after={"event": event_id,
                                                           "problem": exc.what})
        return 400, "session does not match"
    except GatewayError as exc:
        log.warning("payments: event %s: provider unreachable (%s); it will be retried",
                    event_id, exc)
        return 503, "provider unavailable"
    log.info("payments: event %s %s -> %s", event_id, kind, outcome)
    if notify is not None and chk_id is not None and outcome not in ("noop", "open"):
        try:
            notify(chk_id, outcome)
        except Exception:  # the money is posted; a failed email is retried by reconcile
            log.exception("payments: notifying checkout %s (%s) failed", chk_id, outcome)
    return 200, outcome


def _apply(uow: UnitOfWork, gateway: Gateway, kind: str, obj: dict[str, Any],
           event: dict[str, Any], provider: str) -> tuple[int | None, str]:
    if kind in CHECKOUT_EVENTS:
        chk = _find_checkout(uow, obj)
        if chk is None:
            log.warning("payments: %s for an unknown session %s", kind, obj.get("id"))
            return None, "unknown_session"
        when = _event_time(event) if kind == "checkout.session.completed" else None
        result = fulfilment.fulfil(uow, chk.id, str(obj.get("id") or "") or None,
                                   gateway=gateway, completed_at=when)
        return chk.id, result.kind
    if kind in INTENT_EVENTS:
        intent_id = str(obj.get("id") or "")
        chk = uow.session.scalar(select(Checkout).where(
            Checkout.provider_session_id == intent_id)) if intent_id else None
        if chk is None:  # a Checkout Session's own intent: its session's events post it
            return None, "ignored"
        result = fulfilment.fulfil(uow, chk.id, intent_id, gateway=gateway)
        return chk.id, result.kind
    if kind in REFUND_EVENTS:
        intent = obj.get("payment_intent")
        refunded = obj.get("amount_refunded")
        if not intent or not isinstance(refunded, int):
            return None, "ignored"
        chk = uow.session.scalar(select(Checkout).where(
            Checkout.provider_payment_id == str(intent)))
        if chk is None:
            log.warning("payments: refund for an unknown payment %s", intent)
            return None, "unknown_payment"
        total = from_minor_units(refunded) - refund_failures.failed_since(
            uow, chk.id, _event_time(event))
        result = fulfilment.record_provider_refund(uow, chk.id, total)
        return chk.id, result.kind
    if kind in REFUND_UPDATE_EVENTS:
        return refund_failures.record_refund_failure(uow, obj, _event_time(event))
    if kind in DISPUTE_EVENTS:
        return disputes.record_dispute(uow, provider, obj, _event_time(event))
    return None, "ignored"


def sandbox_event(kind: str, session_id: str) -> dict[str, Any]:
    """The event the sandbox 'sends' after the payer's choice on its page."""
    return {"id": "evt_sandbox_" + secrets.token_hex(12), "object": "event", "type": kind,
            "created": int(clock.now().timestamp()),
            "data": {"object": {"id": session_id, "object": "checkout.session"}}}
