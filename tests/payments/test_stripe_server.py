"""The local Stripe test server refuses what the real API refuses for the pinned library's
API version (`stripe.api_version`): parameters, enum values and shapes its generated request
types (`stripe.params`) do not define, and Stripe's length limits. And it accepts everything
the gateway sends."""

from __future__ import annotations

from decimal import Decimal

import pytest
import stripe
from stripe.params.checkout import SessionCreateParams

from portal.payments.gateway import CheckoutRequest, GatewayError
from tests.support import stripe_server
from tests.support.stripe_server import ParamError, check_limits, check_params


def session_params(**changes) -> dict:
    """What the gateway sends to create a Checkout Session, changed by `changes`."""
    params = {
        "mode": "payment",
        "line_items": [{"quantity": 1, "price_data": {
            "currency": "usd", "unit_amount": 123456,
            "product_data": {"name": "Derrama 2026-2027"}}}],
        "allowed_payment_method_types": ["card", "us_bank_account"],
        "locale": "es-419", "client_reference_id": "41",
        "metadata": {"payment_id": "41"},
        "payment_intent_data": {"metadata": {"payment_id": "41"}, "description": "Derrama"},
        "success_url": "http://portal.test/ok", "cancel_url": "http://portal.test/no",
    }
    params.update(changes)
    return params


@pytest.fixture
def client(fake_stripe):
    return stripe.StripeClient("sk_test_portal", base_addresses={
        "api": stripe_server.base(fake_stripe)}, max_network_retries=0)


def refused(client, params, key="k-1"):
    """Send a session create; the Stripe error it raises (it must raise one)."""
    with pytest.raises(stripe.InvalidRequestError) as err:
        client.v1.checkout.sessions.create(params=params, options={"idempotency_key": key})
    assert err.value.http_status == 400
    assert err.value.error.type == "invalid_request_error"
    return err.value


def test_payment_method_types_is_refused_as_the_real_api_does(client, fake_stripe):
    params = session_params()
    del params["allowed_payment_method_types"]
    params["payment_method_types"] = ["card", "us_bank_account"]
    exc = refused(client, params)
    assert exc.param == "payment_method_types" and exc.code == "parameter_unknown"
    assert "Received unknown parameter: payment_method_types" in exc.user_message
    assert fake_stripe.sessions == {}


def test_an_unknown_nested_key_is_refused_with_its_full_name(client, fake_stripe):
    params = session_params()
    params["line_items"][0]["price_data"]["colour"] = "blue"
    exc = refused(client, params)
    assert exc.param == "line_items[0][price_data][colour]"
    assert exc.code == "parameter_unknown"
    intent = session_params(payment_intent_data={"descripton": "typo"})
    assert refused(client, intent, "k-2").param == "payment_intent_data[descripton]"
    assert fake_stripe.sessions == {}


@pytest.mark.parametrize(("change", "param"), [
    ({"locale": "es-PR"}, "locale"),
    ({"mode": "pay"}, "mode"),
    ({"allowed_payment_method_types": ["card", "ach"]}, "allowed_payment_method_types[1]"),
    ({"payment_intent_data": {"capture_method": "later"}}, "payment_intent_data[capture_method]"),
])
def test_an_enum_value_the_version_does_not_define_is_refused(client, change, param):
    exc = refused(client, session_params(**change))
    assert exc.param == param and "must be one of" in exc.user_message


def test_malformed_values_and_missing_required_keys_are_refused(client):
    params = session_params()
    params["line_items"][0]["price_data"]["unit_amount"] = "12.5"
    assert refused(client, params).code == "parameter_invalid_integer"
    params = session_params()
    del params["line_items"][0]["price_data"]["currency"]
    exc = refused(client, params, "k-2")
    assert (exc.param, exc.code) == ("line_items[0][price_data][currency]", "parameter_missing")
    exc = refused(client, session_params(metadata="x"), "k-3")
    assert exc.param == "metadata"


def test_a_refused_request_stores_no_idempotent_result(client, fake_stripe):
    refused(client, session_params(locale="es-PR"), key="same")
    created = client.v1.checkout.sessions.create(params=session_params(),
                                                 options={"idempotency_key": "same"})
    assert created.id in fake_stripe.sessions


@pytest.mark.parametrize(("change", "param"), [
    ({"client_reference_id": "9" * 201}, "client_reference_id"),
    ({"metadata": {f"k{n}": "v" for n in range(51)}}, "metadata"),
    ({"metadata": {"k" * 41: "v"}}, "metadata[" + "k" * 41 + "]"),
    ({"metadata": {"parcel_ids": "1" * 501}}, "metadata[parcel_ids]"),
    ({"payment_intent_data": {"metadata": {"parcel_ids": "1" * 501}}},
     "payment_intent_data[metadata][parcel_ids]"),
    ({"payment_intent_data": {"description": "d" * 1001}}, "payment_intent_data[description]"),
])
def test_stripes_limits_are_enforced(client, change, param):
    assert refused(client, session_params(**change)).param == param


def test_the_limits_themselves_are_accepted(client, fake_stripe):
    client.v1.checkout.sessions.create(params=session_params(
        client_reference_id="9" * 200,
        metadata={f"{n:02d}" + "k" * 38: "v" * 500 for n in range(50)},
        payment_intent_data={"description": "d" * 1000}),
        options={"idempotency_key": "k" * 255})
    assert len(fake_stripe.sessions) == 1 and fake_stripe.refused == []


def test_an_idempotency_key_over_255_characters_is_refused(client, fake_stripe):
    exc = refused(client, session_params(), key="k" * 256)
    assert "255" in exc.user_message and fake_stripe.sessions == {}


def test_another_api_version_is_refused(fake_stripe):
    other = stripe.StripeClient("sk_test_portal", base_addresses={
        "api": stripe_server.base(fake_stripe)}, max_network_retries=0,
        stripe_version="2024-06-20")
    with pytest.raises(stripe.InvalidRequestError) as err:
        other.v1.checkout.sessions.create(params=session_params())
    assert stripe.api_version in err.value.user_message


def test_refunds_retrievals_and_expiry_are_checked_too(client, fake_stripe):
    s = client.v1.checkout.sessions.create(params=session_params())
    with pytest.raises(stripe.InvalidRequestError) as err:
        client.v1.checkout.sessions.retrieve(s.id, params={"expand": ["x"], "include": "y"})
    assert err.value.param == "include"
    fake_stripe.complete(s.id)
    pi = fake_stripe.sessions[s.id]["payment_intent"]
    with pytest.raises(stripe.InvalidRequestError) as err:
        client.v1.refunds.create(params={"payment_intent": pi, "amount": 100,
                                         "reason": "credit"})
    assert err.value.param == "reason"
    with pytest.raises(stripe.InvalidRequestError) as err:
        client.v1.refunds.create(params={"payment_intent": pi, "amount": 100,
                                         "metadata": {"n" * 41: "x"}})
    assert err.value.param == "metadata[" + "n" * 41 + "]"
    refund = client.v1.refunds.create(params={"payment_intent": pi, "amount": 100,
                                              "reason": "requested_by_customer"})
    assert client.v1.refunds.retrieve(refund.id).amount == 100
    assert client.v1.payment_intents.retrieve(pi).status == "succeeded"
    with pytest.raises(stripe.InvalidRequestError) as err:
        client.v1.payment_intents.retrieve(pi, params={"client_secret": "x", "colour": "y"})
    assert err.value.param == "colour"
    other = client.v1.checkout.sessions.create(params=session_params())
    assert client.v1.checkout.sessions.expire(other.id).status == "expired"
    with pytest.raises(stripe.InvalidRequestError):
        client.v1.checkout.sessions.expire(other.id)  # only an open session expires


def test_everything_the_gateway_sends_is_accepted(fake_stripe, stripe_gateway):
    req = CheckoutRequest(payment_id="41", amount=Decimal("1234.56"),
                          description="District benefit assessment, parcel 060-000-001-01",
                          parcel_ids=["7", "8"], success_url="http://portal.test/ok",
                          cancel_url="http://portal.test/no", idempotency_key="checkout-41",
                          language="es_PR", customer_email="duena@example.com")
    s = stripe_gateway.create_checkout(req)
    stripe_gateway.create_checkout(CheckoutRequest(**{**req.__dict__, "language": "en",
                                                      "idempotency_key": "checkout-42"}))
    fake_stripe.complete(s.id)
    got = stripe_gateway.retrieve(s.id)
    stripe_gateway.refund(got.payment_intent, Decimal("10.00"), "refund-41-1",
                          {"payment_id": "41", "reason": "credit"})
    assert fake_stripe.refused == []
    assert len(fake_stripe.refunds) == 1


def test_a_refusal_reaches_the_portal_as_rejected(fake_stripe, stripe_gateway, monkeypatch):
    from portal.payments import gateway as gateway_module
    monkeypatch.setattr(gateway_module, "CHECKOUT_LOCALES", {"es": "es-PR", "en": "en"})
    req = CheckoutRequest(payment_id="41", amount=Decimal("10.00"), description="Derrama",
                          parcel_ids=["7"], success_url="http://portal.test/ok",
                          cancel_url="http://portal.test/no", idempotency_key="checkout-41")
    with pytest.raises(GatewayError) as err:
        stripe_gateway.create_checkout(req)
    assert err.value.kind == "rejected" and "locale" in str(err.value)


# --- the checker itself, without HTTP ------------------------------------------------------

def test_the_checker_reads_the_librarys_types():
    check_params(SessionCreateParams, stripe_server.unflatten([
        ("line_items[0][price_data][currency]", "usd"),
        ("line_items[0][price_data][unit_amount]", "100"),
        ("line_items[0][price_data][product_data][name]", "x"),
        ("line_items[0][quantity]", "1"), ("mode", "payment"), ("metadata[a]", "b"),
        ("allowed_payment_method_types[0]", "card"), ("allow_promotion_codes", "false")]))
    with pytest.raises(ParamError) as err:
        check_params(SessionCreateParams, {"allow_promotion_codes": "yes"})
    assert err.value.code == "parameter_invalid_boolean"
    with pytest.raises(ParamError) as err:
        check_params(SessionCreateParams, {"line_items": {"a": "b"}})
    assert err.value.code == "parameter_invalid_array"
    with pytest.raises(ParamError) as err:
        check_params(SessionCreateParams, {"metadata": ""})  # unset only where "" is typed
    assert err.value.code == "parameter_invalid_object"
    with pytest.raises(ParamError) as err:
        check_params(SessionCreateParams, {"api_key": "sk_x"})  # a call option, not a param
    assert err.value.code == "parameter_unknown"
    check_limits({"metadata": {"a": "b"}, "line_items": [{"metadata": {"c": "d"}}]})
    with pytest.raises(ParamError) as err:
        check_limits({"line_items": [{"metadata": {"c": "d" * 501}}]})
    assert err.value.param == "line_items[0][metadata][c]"
