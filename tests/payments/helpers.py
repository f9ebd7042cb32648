"""Paying in tests: choose, check out, complete at the fake provider, deliver the webhook."""

from __future__ import annotations

from decimal import Decimal

from portal.core import offer as options
from portal.payments import service
from portal.payments.webhooks import handle_webhook

from . import stripe_server
from .conftest import WEBHOOK_SECRET


def checkout(world, gateway, choices, *, user="owner", language="es"):
    """Price the choices for the user and start a checkout; returns (Started, Priced)."""
    with world.uow() as uow:
        payer = world.user(uow, user)
        accounts = service.payable_accounts(uow, payer)
        priced = options.price_all({a.key: a.offer for a in accounts}, choices)
    started = service.start_checkout(
        world.database, user=payer, priced=priced, language=language, gateway=gateway,
        success_url=lambda cid: f"http://portal.test/pagos/{cid}/exito",
        cancel_url=lambda cid: f"http://portal.test/pagos/{cid}/cancelado",
        description="Derrama")
    return started, priced


def deliver(world, gateway, fake, kind, session_id=None, *, obj=None, event_id=None,
            event=None, secret=WEBHOOK_SECRET):
    """Sign the event as Stripe does and hand the exact bytes to the webhook handler."""
    event = event or fake.event(kind, session_id, obj=obj, event_id=event_id)
    payload, header = stripe_server.signed(event, secret)
    status, text = handle_webhook(world.database, gateway, payload.encode(), header)
    return status, text, event


def session_of(world, checkout_id):
    from portal.models.checkouts import Checkout
    with world.uow() as uow:
        return uow.session.get(Checkout, checkout_id).provider_session_id


def ledger_sums(world, n=0):
    """(credits, debits) of the account's ledger, discounts left out."""
    from sqlalchemy import select

    from portal.models import LedgerEntry
    with world.uow() as uow:
        rows = uow.session.scalars(select(LedgerEntry).where(
            LedgerEntry.parcel_id == world.parcel_ids[n])).all()
    credits = sum((e.amount for e in rows if e.direction == "credit" and e.kind != "discount"),
                  Decimal("0.00"))
    debits = sum((e.amount for e in rows if e.direction == "debit" and e.kind != "cost"
                  and not (e.kind == "reversal" and e.rule == "R-A11")), Decimal("0.00"))
    return credits, debits
