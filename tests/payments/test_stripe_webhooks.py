"""What Stripe reports after the money moved, through signed webhooks and the local test
server: a refund that fails later is undone once (the credit is back), whatever the order
and however often the events come; a dispute is recorded and shown to staff."""

from __future__ import annotations

import re
import time
from decimal import Decimal as D

import pytest
from sqlalchemy import select

from portal import clock
from portal.accounts import facts as facts_service
from portal.core.offer import Choice
from portal.db import reset_databases
from portal.models import FiscalYear, LedgerEntry, Payment
from portal.models.checkouts import Checkout, Dispute, PaymentRefund, RefundFailure
from portal.payments import ledger, service
from portal.payments.gateway import StripeGateway
from tests.support import stripe_server
from tests.support.app import make_app
from tests.support.clock import SEPT_5
from tests.support.pages import PASSWORD, csrf_token, second_step
from tests.support.payments import checkout, count, deliver, session_of
from tests.support.world import STAFF_TOTP_SECRET, set_passwords


def credit(world, n=1, on=None):
    with world.uow() as uow:
        fy = uow.session.get(FiscalYear, world.fy_id)
        return facts_service.load(uow, world.parcel_ids[n], fy).evaluate(
            on or clock.today()).credit


def paid(world, fake_stripe, gateway, amount, n=1):
    """The owner pays `amount` on parcel n by card; returns the checkout id."""
    started, _ = checkout(world, gateway, [Choice(world.key(n), "amount", amount=amount)])
    sid = session_of(world, started.checkout_id)
    fake_stripe.complete(sid, "card")
    assert deliver(world, gateway, fake_stripe, "checkout.session.completed", sid)[1] == "posted"
    return started.checkout_id


def refunded_in_dashboard(world, fake_stripe, gateway, checkout_id, amount, key):
    """Staff refund `amount` of the checkout in Stripe's Dashboard; its charge.refunded is
    delivered. Returns (payment intent, the refund event it sent, Stripe's refund)."""
    pi = fake_stripe.sessions[session_of(world, checkout_id)]["payment_intent"]
    StripeGateway("sk_test_portal", api_base=stripe_server.base(fake_stripe),
                  max_network_retries=0).refund(pi, amount, key)
    event = fake_stripe.refund_event(pi)
    assert deliver(world, gateway, fake_stripe, "", event=event)[1] == "refunded"
    return pi, event, fake_stripe.refunds[-1]


def amounts(world, checkout_id):
    with world.uow() as uow:
        c = uow.session.get(Checkout, checkout_id)
        [p] = [uow.session.get(Payment, part.payment_id) for part in c.parts]
        return c.refunded_amount, p.refunded_amount


def test_a_credit_refund_that_fails_gives_the_credit_back_once(world, fake_stripe,
                                                               stripe_gateway):
    with world.uow() as uow:
        fy = uow.session.get(FiscalYear, world.fy_id)
        payoff = facts_service.load(uow, world.parcel_ids[1], fy).evaluate(SEPT_5).payoff
    made = [checkout(world, stripe_gateway, [Choice(world.key(1), "amount", amount=a)])[0]
            for a in (payoff, D("30.00"))]  # both started before either is paid
    for started in made:
        sid = session_of(world, started.checkout_id)
        fake_stripe.complete(sid, "card")
        deliver(world, stripe_gateway, fake_stripe, "checkout.session.completed", sid)
    second = made[1].checkout_id
    assert credit(world) == D("30.00")
    with world.uow() as uow:
        staff = world.user(uow, "staff")
    done = service.refund_credit(world.database, staff, world.parcel_ids[1],
                                 world.fy_id, D("30.00"), gateway=stripe_gateway)
    assert done.amount == D("30.00") and credit(world) == 0
    assert amounts(world, second) == (D("30.00"), D("30.00"))
    [refund] = fake_stripe.refunds

    # Days later the card turns out closed: Stripe sends refund.updated, then refund.failed.
    fake_stripe.fail_refund(refund["id"])
    updated = fake_stripe.refund_failed_event(refund["id"], "refund.updated")
    assert deliver(world, stripe_gateway, fake_stripe, "", event=updated)[:2] == (
        200, "refund_reversed")
    assert credit(world) == D("30.00")
    assert amounts(world, second) == (D("0.00"), D("0.00"))
    failed = fake_stripe.refund_failed_event(refund["id"], "refund.failed")
    assert deliver(world, stripe_gateway, fake_stripe, "", event=failed)[:2] == (200, "noop")
    assert deliver(world, stripe_gateway, fake_stripe, "", event=updated)[:2] == (
        200, "duplicate")
    assert credit(world) == D("30.00")
    assert count(world, RefundFailure) == 1
    with world.uow() as uow:
        [rev] = uow.session.scalars(select(LedgerEntry).where(LedgerEntry.kind == "reversal"))
        refund_entry = uow.session.get(LedgerEntry, rev.reverses_id)
        assert (refund_entry.kind, rev.direction, rev.amount) == ("refund", "credit",
                                                                  D("30.00"))
        [f] = uow.session.scalars(select(RefundFailure))
        assert (f.provider_refund_id, f.failure_reason, f.reversal_entry_id) == (
            refund["id"], "expired_or_canceled_card", rev.id)
        assert ledger.check_allocations(uow, world.parcel_ids[1], world.fy_id) == []
    # The credit can be refunded again: from the other payment (the state machine keeps the
    # failed one "refunded").
    again = service.refund_credit(world.database, staff, world.parcel_ids[1],
                                  world.fy_id, D("30.00"), gateway=stripe_gateway)
    assert (again.amount, again.checkouts) == (D("30.00"), [made[0].checkout_id])
    assert credit(world) == 0


def test_an_update_that_is_not_a_failure_changes_nothing(world, fake_stripe, stripe_gateway):
    cid = paid(world, fake_stripe, stripe_gateway, D("100.00"))
    _, _, refund = refunded_in_dashboard(world, fake_stripe, stripe_gateway, cid, D("10.00"),
                                         "dashboard-1")
    event = fake_stripe.refund_failed_event(refund["id"], "refund.updated")  # succeeded
    assert deliver(world, stripe_gateway, fake_stripe, "", event=event)[:2] == (200, "noop")
    assert amounts(world, cid)[0] == D("10.00") and count(world, RefundFailure) == 0
    unknown = fake_stripe.event("refund.failed", obj={
        "id": "re_nobody", "object": "refund", "amount": 500, "status": "failed",
        "payment_intent": "pi_nobody"})
    assert deliver(world, stripe_gateway, fake_stripe, "", event=unknown)[:2] == (
        200, "unknown_refund")


def test_a_dashboard_refund_that_fails_and_late_events_around_it(world, fake_stripe,
                                                                stripe_gateway):
    """A refund made in Stripe's Dashboard reaches us only as charge.refunded (the cumulative
    amount, no refund id). It fails; an older charge.refunded, delivered late, must not
    record it again; a later refund is recorded as usual."""
    cid = paid(world, fake_stripe, stripe_gateway, D("100.00"))
    pi, first, refund = refunded_in_dashboard(world, fake_stripe, stripe_gateway, cid,
                                              D("10.00"), "dashboard-1")  # 10.00 so far
    first["created"] = int(time.time()) - 60  # sent a minute before the failure
    fake_stripe.fail_refund(refund["id"])
    failed = fake_stripe.refund_failed_event(refund["id"])
    assert deliver(world, stripe_gateway, fake_stripe, "", event=failed)[1] == "refund_reversed"
    assert amounts(world, cid) == (D("0.00"), D("0.00"))
    late = dict(first, id="evt_test_late_copy")  # the same moment's total, another delivery
    assert deliver(world, stripe_gateway, fake_stripe, "", event=late)[1] == "noop"
    assert amounts(world, cid) == (D("0.00"), D("0.00"))
    refunded_in_dashboard(world, fake_stripe, stripe_gateway, cid, D("4.00"), "dashboard-2")
    assert amounts(world, cid) == (D("4.00"), D("4.00"))
    assert count(world, PaymentRefund) == 2 and count(world, RefundFailure) == 1
    with world.uow() as uow:
        assert ledger.check_allocations(uow, world.parcel_ids[1], world.fy_id) == []


def test_a_dispute_is_recorded_once_and_kept_up_to_date(world, fake_stripe, stripe_gateway):
    cid = paid(world, fake_stripe, stripe_gateway, D("100.00"))
    pi = fake_stripe.sessions[session_of(world, cid)]["payment_intent"]
    dispute = fake_stripe.dispute(pi, reason="fraudulent")
    created = fake_stripe.dispute_event(dispute)
    assert deliver(world, stripe_gateway, fake_stripe, "", event=created)[:2] == (
        200, "dispute_recorded")
    assert deliver(world, stripe_gateway, fake_stripe, "", event=created)[:2] == (
        200, "duplicate")
    with world.uow() as uow:
        [d] = uow.session.scalars(select(Dispute))
        assert (d.checkout_id, d.amount, d.reason, d.status, d.dispute_id) == (
            cid, D("100.00"), "fraudulent", "needs_response", dispute["id"])
        assert d.evidence_due_by is not None
    closed = fake_stripe.dispute_event(dict(dispute, status="lost"), "charge.dispute.closed")
    closed["created"] = created["created"] + 10
    assert deliver(world, stripe_gateway, fake_stripe, "", event=closed)[1] == "dispute_updated"
    older = fake_stripe.dispute_event(dict(dispute, status="under_review"),
                                      "charge.dispute.updated")
    older["created"] = created["created"] + 5  # arrives after the closing: ignored
    assert deliver(world, stripe_gateway, fake_stripe, "", event=older)[1] == "noop"
    with world.uow() as uow:
        assert uow.session.scalar(select(Dispute.status)) == "lost"
    assert count(world, LedgerEntry, LedgerEntry.kind.in_(["refund", "reversal"])) == 0


@pytest.mark.parametrize("lang", ["es", "en"])
def test_staff_see_disputes(world, fake_stripe, stripe_gateway, tmp_path, lang):
    cid = paid(world, fake_stripe, stripe_gateway, D("100.00"))
    pi = fake_stripe.sessions[session_of(world, cid)]["payment_intent"]
    deliver(world, stripe_gateway, fake_stripe, "",
            event=fake_stripe.dispute_event(fake_stripe.dispute(pi, amount=4000,
                                                                reason="product_not_received")))
    set_passwords(world, PASSWORD)
    app = make_app(tmp_path, world.database)
    try:
        def signed_in(email):
            client = app.test_client()
            page = client.get(f"/cuenta/entrar?lang={lang}")
            r = client.post("/cuenta/entrar", data={"csrf_token": csrf_token(page.text),
                                                    "email": email,
                                                    "password": PASSWORD})
            assert r.status_code == 303
            if r.headers["Location"].endswith("/cuenta/verificar"):
                second_step(client, STAFF_TOTP_SECRET)
            return client

        staff = signed_in("staff@example.com")
        page = staff.get(f"/personal/buscar?lang={lang}")  # the staff's lookup page
        assert page.status_code == 200
        main = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.text))
        assert "María Rivera" in main and "$40.00" in main and "060-000-001-02" in main
        words = {"es": ("Disputas de pagos", "Producto no recibido", "Requiere respuesta"),
                 "en": ("Payment disputes", "Product not received", "Needs a response")}
        for w in words[lang]:
            assert w in main, w
        receipt = re.search(r'href="(/pagos/\d+/recibo)"', page.text).group(1)
        assert staff.get(receipt).status_code == 200
        assert signed_in("duena@example.com").get("/personal/buscar").status_code == 404
    finally:
        reset_databases()


@pytest.mark.postgres
def test_a_dashboard_refunds_second_failure_event_changes_nothing(world, fake_stripe,
                                                                 stripe_gateway):
    """A refund made in Stripe's dashboard is matched by amount; once its failure is
    recorded, the next event for it (refund.failed after refund.updated) is a no-op, not an
    unknown refund (the two delivered at the same instant must agree with this order)."""
    cid = paid(world, fake_stripe, stripe_gateway, D("100.00"))
    _pi, _, refund = refunded_in_dashboard(world, fake_stripe, stripe_gateway, cid,
                                           D("25.00"), "dashboard-1")
    fake_stripe.fail_refund(refund["id"])
    first, second = (fake_stripe.refund_failed_event(refund["id"], kind)
                     for kind in ("refund.updated", "refund.failed"))
    assert deliver(world, stripe_gateway, fake_stripe, "", event=first)[1] == "refund_reversed"
    assert deliver(world, stripe_gateway, fake_stripe, "", event=second)[1] == "noop"
    assert count(world, RefundFailure) == 1
    assert count(world, LedgerEntry, LedgerEntry.kind == "reversal") == 1


def test_both_failure_events_at_once_undo_the_refund_once(pg_world, fake_stripe,
                                                          stripe_gateway):
    """refund.updated and refund.failed delivered at the same instant (PostgreSQL, the
    checkout row locked): one reversal, one refund_failures row; a dispute on the way."""
    import threading

    world = pg_world
    cid = paid(world, fake_stripe, stripe_gateway, D("100.00"))
    pi, _, refund = refunded_in_dashboard(world, fake_stripe, stripe_gateway, cid,
                                          D("25.00"), "dashboard-1")
    fake_stripe.fail_refund(refund["id"])
    events = [fake_stripe.refund_failed_event(refund["id"], kind)
              for kind in ("refund.updated", "refund.failed")]
    barrier, results = threading.Barrier(2), [None, None]

    def run(i):
        barrier.wait()
        results[i] = deliver(world, stripe_gateway, fake_stripe, "", event=events[i])[1]

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results) == ["noop", "refund_reversed"]
    assert count(world, RefundFailure) == 1
    assert count(world, LedgerEntry, LedgerEntry.kind == "reversal") == 1
    assert amounts(world, cid) == (D("0.00"), D("0.00"))
    d = fake_stripe.dispute(pi)
    assert deliver(world, stripe_gateway, fake_stripe, "",
                   event=fake_stripe.dispute_event(d))[1] == "dispute_recorded"
    with world.uow() as uow:
        assert uow.session.scalar(select(Dispute.checkout_id)) == cid
        assert ledger.check_allocations(uow, world.parcel_ids[1], world.fy_id) == []
