"""The gateways: the real `stripe` library against the local test server, and the sandbox.

These tests assert what we SEND to Stripe (amount in cents, currency, locale, metadata,
the idempotency key) and how its answers and failures come back.
"""

from __future__ import annotations

import socket
from decimal import Decimal

import pytest
import stripe

from portal.payments.gateway import (
    CheckoutRequest,
    GatewayError,
    MemorySandboxStore,
    SandboxGateway,
    StripeGateway,
    checkout_locale,
    gateway_from_config,
)
from tests.support import stripe_server
from tests.support.payments import WEBHOOK_SECRET


def request(**kw) -> CheckoutRequest:
    values = dict(payment_id="pay-41", amount=Decimal("1234.56"),
                  description="Derrama 2026-2027", parcel_ids=["P-1", "P-2"],
                  success_url="http://portal.test/pagos/41/exito?session_id={CHECKOUT_SESSION_ID}",
                  cancel_url="http://portal.test/pagos/41/cancelado",
                  idempotency_key="checkout-pay-41", language="es_PR",
                  customer_email="duena@example.com")
    values.update(kw)
    return CheckoutRequest(**values)


@pytest.mark.parametrize(("language", "locale"), [
    ("es", "es-419"), ("es_PR", "es-419"), ("es-PR", "es-419"), ("en", "en"), ("en_US", "en"),
    (None, "es-419"), ("fr", "es-419")])
def test_checkout_locale(language, locale):
    assert checkout_locale(language) == locale


def test_create_checkout_sends_cents_currency_locale_metadata_and_key(fake_stripe,
                                                                      stripe_gateway):
    session = stripe_gateway.create_checkout(request())
    assert session.id.startswith("cs_test_") and session.url.startswith("https://")
    assert session.amount == Decimal("1234.56") and session.status == "open"
    [sent] = fake_stripe.session_creates
    assert sent.idempotency_key == "checkout-pay-41"
    form = sent.form
    assert form["line_items"][0]["price_data"]["unit_amount"] == "123456"
    assert form["line_items"][0]["price_data"]["currency"] == "usd"
    assert form["line_items"][0]["quantity"] == "1"
    assert form["locale"] == "es-419"
    assert form["mode"] == "payment"
    assert form["client_reference_id"] == "pay-41"
    assert form["metadata"] == {"payment_id": "pay-41", "parcel_count": "2",
                                "parcel_ids": "P-1,P-2"}
    assert form["payment_intent_data"]["metadata"] == form["metadata"]
    assert form["payment_intent_data"]["description"] == "Derrama 2026-2027"
    assert form["allowed_payment_method_types"] == ["card", "us_bank_account"]
    assert "payment_method_types" not in form
    assert sent.headers["stripe-version"] == stripe.api_version
    assert form["success_url"].endswith("session_id={CHECKOUT_SESSION_ID}")
    assert form["customer_email"] == "duena@example.com"
    assert sent.headers["authorization"] == "Bearer sk_test_portal"


def test_english_payer_gets_english_checkout(fake_stripe, stripe_gateway):
    stripe_gateway.create_checkout(request(language="en"))
    assert fake_stripe.session_creates[0].form["locale"] == "en"


def test_same_attempt_twice_is_one_session(fake_stripe, stripe_gateway):
    """A double click or a retry resends the same key: Stripe answers with the same session."""
    first = stripe_gateway.create_checkout(request())
    second = stripe_gateway.create_checkout(request())
    assert first.id == second.id
    assert len(fake_stripe.sessions) == 1
    assert [r.idempotency_key for r in fake_stripe.session_creates] == ["checkout-pay-41"] * 2


def test_retrieve_reads_method_and_last_four(fake_stripe, stripe_gateway):
    s = stripe_gateway.create_checkout(request())
    fake_stripe.complete(s.id, method="card", last4="4242")
    got = stripe_gateway.retrieve(s.id)
    assert got.completed and got.paid
    assert (got.method, got.last4, got.brand) == ("card", "4242", "visa")
    assert got.payment_intent.startswith("pi_test_")
    assert got.metadata["payment_id"] == "pay-41" and got.client_reference_id == "pay-41"
    get = [r for r in fake_stripe.requests if r.method == "GET"][-1]
    assert get.query["expand"] == ["payment_intent.payment_method"]


def test_bank_account_is_processing_until_settled(fake_stripe, stripe_gateway):
    s = stripe_gateway.create_checkout(request())
    fake_stripe.complete(s.id, method="us_bank_account")
    got = stripe_gateway.retrieve(s.id)
    assert got.completed and not got.paid and got.intent_status == "processing"
    assert (got.method, got.bank_name, got.last4) == ("us_bank_account", "STRIPE TEST BANK",
                                                      "6789")
    fake_stripe.settle(s.id)
    assert stripe_gateway.retrieve(s.id).paid


def test_refund_sends_cents_and_key(fake_stripe, stripe_gateway):
    s = stripe_gateway.create_checkout(request())
    fake_stripe.complete(s.id)
    pi = stripe_gateway.retrieve(s.id).payment_intent
    refund = stripe_gateway.refund(pi, Decimal("34.56"), "refund-pay-41-1",
                                   {"payment_id": "pay-41"})
    assert refund.amount == Decimal("34.56") and refund.status == "succeeded"
    [sent] = fake_stripe.posts("/v1/refunds")
    assert sent.form["amount"] == "3456" and sent.form["payment_intent"] == pi
    assert sent.idempotency_key == "refund-pay-41-1"


def test_card_error_is_declined(fake_stripe, stripe_gateway):
    fake_stripe.fail_next(402)
    with pytest.raises(GatewayError) as err:
        stripe_gateway.create_checkout(request())
    assert err.value.kind == "declined" and err.value.code == "card_declined"


def test_server_error_is_unavailable(fake_stripe, stripe_gateway):
    fake_stripe.fail_next(500, code="api_error", message="boom", kind="api_error")
    with pytest.raises(GatewayError) as err:
        stripe_gateway.create_checkout(request())
    assert err.value.kind == "unavailable"


def test_bad_request_is_rejected(fake_stripe, stripe_gateway):
    with pytest.raises(GatewayError) as err:
        stripe_gateway.create_checkout(request(amount=Decimal("0.10")))  # below Stripe's $0.50
    assert err.value.kind == "rejected"


def test_unreachable_stripe_is_unavailable():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens there now
    gw = StripeGateway("sk_test_portal", api_base=f"http://127.0.0.1:{port}",
                       max_network_retries=0)
    with pytest.raises(GatewayError) as err:
        gw.create_checkout(request())
    assert err.value.kind == "unavailable"


def test_amount_in_cents_is_exact_for_awkward_amounts(fake_stripe, stripe_gateway):
    for i, amount in enumerate(["0.50", "1.10", "4.35", "19999999.99"]):
        stripe_gateway.create_checkout(request(amount=Decimal(amount), idempotency_key=f"k{i}"))
    sent = [r.form["line_items"][0]["price_data"]["unit_amount"]
            for r in fake_stripe.session_creates]
    assert sent == ["50", "110", "435", "1999999999"]


def test_a_decimal_with_fractions_of_a_cent_never_reaches_stripe(fake_stripe, stripe_gateway):
    with pytest.raises(ValueError):
        stripe_gateway.create_checkout(request(amount=Decimal("10.005")))
    assert fake_stripe.session_creates == []


# --- webhook signatures --------------------------------------------------------------------

def test_signed_event_is_accepted(stripe_gateway, fake_stripe):
    event = fake_stripe.event("checkout.session.completed",
                              obj={"id": "cs_1", "object": "checkout.session"})
    payload, header = stripe_server.signed(event, WEBHOOK_SECRET)
    got = stripe_gateway.construct_event(payload.encode(), header)
    assert got["id"] == event["id"] and got["type"] == "checkout.session.completed"


@pytest.mark.parametrize("case", ["unsigned", "wrong_secret", "stale", "altered", "garbage"])
def test_bad_signatures_are_refused(stripe_gateway, fake_stripe, case):
    import time
    event = fake_stripe.event("checkout.session.completed", obj={"id": "cs_1"})
    payload, header = stripe_server.signed(event, WEBHOOK_SECRET)
    if case == "unsigned":
        header = None
    elif case == "wrong_secret":
        payload, header = stripe_server.signed(event, "whsec_other")
    elif case == "stale":
        payload, header = stripe_server.signed(event, WEBHOOK_SECRET,
                                               timestamp=int(time.time()) - 301)
    elif case == "altered":
        payload = payload.replace("cs_1", "cs_2")
    else:
        header = "t=1,v1=abc"
    with pytest.raises(ValueError):
        stripe_gateway.construct_event(payload.encode(), header)


# --- the sandbox ------------------------------------------------------------------------------

def test_sandbox_checkout_outcomes():
    gw = SandboxGateway(MemorySandboxStore())
    s = gw.create_checkout(request())
    assert s.url == f"/pagos/prueba/{s.id}" and s.status == "open"
    assert gw.create_checkout(request()).id == s.id  # same key, same session
    with pytest.raises(GatewayError):
        gw.create_checkout(request(amount=Decimal("1.00")))  # same key, other amount
    done, kind = gw.complete(s.id, "card_succeeds")
    assert kind == "checkout.session.completed" and done.paid and done.last4 == "4242"
    assert gw.complete(s.id, "card_succeeds")[1] == ""  # a second click changes nothing
    r = gw.refund(done.payment_intent, Decimal("1000.00"), "r1")
    assert r.amount == Decimal("1000.00")
    with pytest.raises(GatewayError):
        gw.refund(done.payment_intent, Decimal("234.57"), "r2")  # one cent too many


def test_sandbox_bank_account_then_settles_or_fails():
    gw = SandboxGateway(MemorySandboxStore())
    a = gw.create_checkout(request(idempotency_key="a"))
    done, kind = gw.complete(a.id, "bank_processing")
    assert kind == "checkout.session.completed" and not done.paid
    assert done.intent_status == "processing" and done.method == "us_bank_account"
    assert gw.settle(a.id, True)[1] == "checkout.session.async_payment_succeeded"
    assert gw.retrieve(a.id).paid
    assert gw.settle(a.id, True)[1] == ""
    b = gw.create_checkout(request(idempotency_key="b"))
    gw.complete(b.id, "bank_processing")
    assert gw.settle(b.id, False)[1] == "checkout.session.async_payment_failed"
    assert not gw.retrieve(b.id).paid


def test_sandbox_decline_and_expiry():
    gw = SandboxGateway(MemorySandboxStore())
    a = gw.create_checkout(request(idempotency_key="a"))
    done, kind = gw.complete(a.id, "card_declined")
    assert kind == "checkout.session.async_payment_failed" and not done.paid
    b = gw.create_checkout(request(idempotency_key="b"))
    assert gw.expire(b.id)[1] == "checkout.session.expired"
    assert gw.complete(b.id, "card_succeeds")[1] == ""  # an expired session cannot be paid
    with pytest.raises(GatewayError):
        gw.retrieve("cs_nope")


def test_gateway_from_config():
    assert gateway_from_config({}).name == "sandbox"
    gw = gateway_from_config({"STRIPE_SECRET_KEY": "sk_test_x",
                              "STRIPE_API_BASE": "http://127.0.0.1:9"})
    assert gw.name == "stripe"
