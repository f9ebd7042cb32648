"""The test checkout (sandbox) acts only for the user who started it.

A read-only delegate, a lender, another payer of the same parcel and staff may see a payment
(its receipt); none of them may decline someone else's pending checkout or answer for their
bank (which failed a bank payment and posted a $10.00 reversal): 403, and nothing changes.
Every money movement's audit record names who acted and from which address.
"""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from portal.db import reset_databases
from portal.models import (
    AuditRecord,
    LedgerEntry,
)
from portal.models.checkouts import Checkout, SandboxSession
from tests.support.app import make_app
from tests.support.payments import ADDRESS, add_people, review, sign_in_from, start


@pytest.fixture
def world(world):
    """The payments' world with its other people (tests.support.payments.add_people)."""
    add_people(world)
    return world


def state(world):  # noqa: ANN001, ANN201
    """Everything a checkout's outcome could change."""
    with world.uow() as uow:
        s = uow.session
        return (s.execute(select(Checkout.id, Checkout.status).order_by(Checkout.id)).all(),
                s.execute(select(SandboxSession.id, SandboxSession.status,
                                 SandboxSession.payment_status, SandboxSession.intent_status)
                          .order_by(SandboxSession.id)).all(),
                s.scalar(select(func.count()).select_from(LedgerEntry)),
                s.scalar(select(func.count()).select_from(AuditRecord)))


OTHERS = ("delegate", "lender", "other", "staff")


@pytest.mark.parametrize("who", OTHERS)
@pytest.mark.parametrize("outcome", ["card_declined", "card_succeeds", "bank_processing",
                                     "cancel"])
def test_no_one_else_completes_or_declines_a_pending_checkout(app, world, who, outcome):
    owner, otok = sign_in_from(app, "owner")
    url = start(owner, otok, {f"choice-{world.key(0)}": "due_now"})
    client, tok = sign_in_from(app, who)
    before = state(world)
    assert client.get(url).status_code == 403
    r = client.post(url, data={"csrf_token": tok, "outcome": outcome})
    assert r.status_code == 403
    assert state(world) == before
    # The payer still can.
    r = owner.post(url, data={"csrf_token": otok, "outcome": "card_succeeds"})
    assert r.status_code == 303


def _processing(app, world):  # noqa: ANN001, ANN202
    owner, otok = sign_in_from(app, "owner")
    url = start(owner, otok, {f"choice-{world.key(0)}": "due_now"})
    assert owner.post(url, data={"csrf_token": otok, "outcome": "bank_processing"}
                      ).status_code == 303
    with world.uow() as uow:
        chk = uow.session.scalar(select(Checkout))
        assert chk.status == "processing"
        return owner, otok, url, chk.id


@pytest.mark.parametrize("who", OTHERS)
@pytest.mark.parametrize("result", ["fail", "settle"])
def test_no_one_else_answers_for_the_payers_bank(app, world, who, result):
    owner, otok, url, chk_id = _processing(app, world)
    client, tok = sign_in_from(app, who)
    before = state(world)
    r = client.post(url + "/banco", data={"csrf_token": tok, "result": result})
    assert r.status_code == 403
    assert state(world) == before
    with world.uow() as uow:  # no reversal was posted
        assert uow.session.scalar(select(func.count()).select_from(LedgerEntry).where(
            LedgerEntry.kind == "reversal")) == 0
    # Whoever sees the receipt is not offered the bank's buttons; the payer is.
    seen = client.get(f"/pagos/{chk_id}/recibo")
    if seen.status_code == 200:
        assert "/banco" not in seen.text
    assert "/banco" in owner.get(f"/pagos/{chk_id}/recibo").text
    r = owner.post(url + "/banco", data={"csrf_token": otok, "result": result})
    assert r.status_code == 303


def test_a_stranger_gets_404(app, world):
    owner, otok = sign_in_from(app, "owner")
    url = start(owner, otok, {f"choice-{world.key(1)}": "due_now"})  # parcel 1: no lessee
    client, tok = sign_in_from(app, "other")
    before = state(world)
    assert client.get(url).status_code == 404
    assert client.post(url, data={"csrf_token": tok, "outcome": "card_declined"}
                       ).status_code == 404
    assert state(world) == before


def _audit(world, action):  # noqa: ANN001, ANN202
    with world.uow() as uow:
        return uow.session.scalars(select(AuditRecord).where(AuditRecord.action == action)
                                   .order_by(AuditRecord.id)).all()


def test_the_audit_names_the_payer_and_address_of_a_card_payment(app, world):
    owner, otok = sign_in_from(app, "owner", "203.0.113.5")
    url = start(owner, otok, {f"choice-{world.key(0)}": "due_now"})
    r = owner.post(url, data={"csrf_token": otok, "outcome": "card_succeeds"})
    owner.get(r.headers["Location"])  # back: the success page settles it
    for action in ("payment.created", "payment.posted"):
        rows = _audit(world, action)
        assert rows, action
        for row in rows:
            assert (row.actor_id, row.ip) == (world.owner.id, "203.0.113.5"), action


def test_the_audit_names_the_payer_of_a_failed_bank_debit(app, world):
    owner, otok, url, _chk = _processing(app, world)
    owner.post(url + "/banco", data={"csrf_token": otok, "result": "fail"})
    rows = _audit(world, "payment.reversed") + _audit(world, "entry.reversed")
    assert rows
    assert {(r.actor_id, r.ip) for r in rows} == {(world.owner.id, ADDRESS)}


def test_the_audit_names_staff_and_address_of_an_office_payment_and_a_refund(app, world):
    owner, otok = sign_in_from(app, "owner")
    key = world.key(1)
    for data in ({f"choice-{key}": "amount", f"amount-{key}": "600.00"},
                 {f"choice-{key}": "installments", f"through-{key}": "12"}):
        start(owner, otok, data)  # two tabs: the second payment becomes a credit
    with world.uow() as uow:
        sessions = uow.session.scalars(select(Checkout.provider_session_id)).all()
    for sid in sessions:
        owner.post(f"/pagos/prueba/{sid}", data={"csrf_token": otok,
                                                 "outcome": "card_succeeds"})
    staff, stok = sign_in_from(app, "staff", "192.0.2.44")
    pid = world.parcel_ids[1]
    before = len(_audit(world, "payment.posted"))
    r = staff.post(f"/personal/pagos/oficina/{world.parcel_ids[0]}", data={
        "csrf_token": stok, "account": world.key(0), "amount": "100.00", "method": "check",
        "reference": "1042", "payer_name": "María Rivera"})
    assert r.status_code == 303
    assert len(_audit(world, "payment.posted")) > before
    r = staff.post(f"/personal/pagos/reembolso/{pid}",
                   data={"csrf_token": stok, "account": world.key(1), "amount": "50.00",
                         "note": "overpaid"})
    assert r.status_code == 303, r.text[:500]
    rows = (_audit(world, "payment.posted")[before:]
            + _audit(world, "payment.refunded") + _audit(world, "checkout.refunded"))
    assert {"payment.posted", "checkout.refunded"} <= {r.action for r in rows}
    assert {(r.actor_id, r.ip) for r in rows} == {(world.staff.id, "192.0.2.44")}


def test_the_audit_names_the_provider_and_its_address_for_a_webhook(world, tmp_path,
                                                                   fake_stripe):
    from tests.support import stripe_server
    from tests.support.payments import WEBHOOK_SECRET
    app = make_app(tmp_path, world.database, STRIPE_SECRET_KEY="sk_test_portal",
                   STRIPE_API_BASE=stripe_server.base(fake_stripe), STRIPE_MAX_RETRIES="0",
                   STRIPE_WEBHOOK_SECRET=WEBHOOK_SECRET)
    try:
        owner, otok = sign_in_from(app, "owner", "203.0.113.5")
        key = world.key(0)
        _page, form = review(owner, otok, {f"choice-{key}": "due_now"})
        r = owner.post("/pagar/confirmar", data=form)
        assert r.status_code == 303 and r.headers["Location"].startswith("https://")
        sid = next(iter(fake_stripe.sessions))
        fake_stripe.complete(sid, "card")
        payload, header = stripe_server.signed(
            fake_stripe.event("checkout.session.completed", sid), WEBHOOK_SECRET)
        hook = app.test_client()
        hook.environ_base["REMOTE_ADDR"] = "54.187.174.169"
        assert hook.post("/pagos/webhook/stripe", data=payload.encode(),
                         headers={"Stripe-Signature": header},
                         content_type="application/json").status_code == 200
        [created] = _audit(world, "payment.created")
        assert (created.actor_id, created.ip) == (world.owner.id, "203.0.113.5")
        posted = _audit(world, "payment.posted")
        assert posted
        for row in posted:
            assert row.actor_id is None and row.ip == "54.187.174.169"
            assert row.after["actor"] == "provider"
    finally:
        reset_databases()
