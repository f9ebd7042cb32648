"""Concurrency on PostgreSQL: two simultaneous deliveries of the same event, and two
simultaneous checkouts of the same choice, make one charge and one posting.

Row locks (SELECT ... FOR UPDATE on the checkout and the account's parcel) and unique
constraints (event id, open checkout key, idempotency key) do it; these tests make the requests
overlap for real (threads released together, the provider answering slowly)."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from sqlalchemy import func, select

from portal import clock
from portal.core.offer import Choice
from portal.models import LedgerEntry, Payment, PaymentAllocation
from portal.models.checkouts import Checkout, ProviderEvent
from portal.payments import ledger
from portal.payments.webhooks import handle_webhook
from tests.support import stripe_server
from tests.support.clock import SEPT_5
from tests.support.payments import WEBHOOK_SECRET, checkout, count, session_of, together

pytestmark = pytest.mark.postgres


def test_postgres_is_used(pg_world):
    assert pg_world.database.engine.dialect.name == "postgresql"


def test_same_event_delivered_twice_at_once_posts_once(pg_world, fake_stripe, stripe_gateway):
    world = pg_world
    with clock.fixed(SEPT_5):
        started, priced = checkout(world, stripe_gateway, [Choice(world.key(0), "due_now")])
        sid = session_of(world, started.checkout_id)
        fake_stripe.complete(sid, "card")
        payload, header = stripe_server.signed(
            fake_stripe.event("checkout.session.completed", sid), WEBHOOK_SECRET)
        fake_stripe.delay = 0.3  # both deliveries are inside fulfil at the same time
        results = together(2, lambda i: handle_webhook(world.database, stripe_gateway,
                                                       payload.encode(), header))
    assert sorted(results) == [(200, "duplicate"), (200, "posted")]
    assert count(world, ProviderEvent) == 1
    assert count(world, LedgerEntry, LedgerEntry.kind == "payment") == 1
    with world.uow() as uow:
        total = uow.session.scalar(select(func.sum(PaymentAllocation.amount)))
        assert ledger.check_allocations(uow, world.parcel_ids[0], world.fy_id) == []
    assert total == priced.total


def test_different_events_of_one_session_at_once_post_once(pg_world, fake_stripe,
                                                           stripe_gateway):
    world = pg_world
    with clock.fixed(SEPT_5):
        started, _ = checkout(world, stripe_gateway, [Choice(world.key(1), "due_now")])
        sid = session_of(world, started.checkout_id)
        fake_stripe.complete(sid, "us_bank_account")
        fake_stripe.settle(sid)
        events = [stripe_server.signed(fake_stripe.event(kind, sid), WEBHOOK_SECRET)
                  for kind in ("checkout.session.completed",
                               "checkout.session.async_payment_succeeded")]
        fake_stripe.delay = 0.3
        results = together(2, lambda i: handle_webhook(world.database, stripe_gateway,
                                                       events[i][0].encode(), events[i][1]))
    assert sorted(r[1] for r in results) == ["noop", "posted"]
    assert count(world, ProviderEvent) == 2
    assert count(world, LedgerEntry, LedgerEntry.kind == "payment") == 1
    with world.uow() as uow:
        assert uow.session.get(Checkout, started.checkout_id).status == "succeeded"


def test_two_simultaneous_checkouts_make_one_session(pg_world, fake_stripe, stripe_gateway):
    world = pg_world
    fake_stripe.delay = 0.3
    with clock.fixed(SEPT_5):
        results = together(2, lambda i: checkout(
            world, stripe_gateway, [Choice(world.key(0), "installments", through=4)])[0])
    assert not [r for r in results if isinstance(r, Exception)], results
    assert results[0].checkout_id == results[1].checkout_id
    assert results[0].url == results[1].url
    assert len(fake_stripe.sessions) == 1
    assert count(world, Checkout) == 1 and count(world, Payment) == 1
    keys = {r.idempotency_key for r in fake_stripe.session_creates}
    assert len(keys) == 1


def test_two_payments_of_one_account_at_once_apply_in_order(pg_world, fake_stripe,
                                                            stripe_gateway):
    """Two different checkouts for one parcel settle at the same instant: the account lock
    makes them apply one after the other, and the stored lines are the core's."""
    world = pg_world
    with clock.fixed(SEPT_5):
        a, _ = checkout(world, stripe_gateway, [Choice(world.key(0), "due_now")])
        b, _ = checkout(world, stripe_gateway, [Choice(world.key(0), "amount",
                                                       amount=D("100.00"))])
        signed = []
        for s in (a, b):
            sid = session_of(world, s.checkout_id)
            fake_stripe.complete(sid, "card")
            signed.append(stripe_server.signed(
                fake_stripe.event("checkout.session.completed", sid), WEBHOOK_SECRET))
        fake_stripe.delay = 0.2
        results = together(2, lambda i: handle_webhook(world.database, stripe_gateway,
                                                       signed[i][0].encode(), signed[i][1]))
    assert [r[1] for r in results] == ["posted", "posted"]
    with world.uow() as uow:
        assert ledger.check_allocations(uow, world.parcel_ids[0], world.fy_id) == []
        total = uow.session.scalar(select(func.sum(PaymentAllocation.amount)))
    assert total == sum(c.amount for c in _checkouts(world))


def _checkouts(world):
    with world.uow() as uow:
        return uow.session.scalars(select(Checkout)).all()
