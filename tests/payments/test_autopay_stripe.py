"""Autopay against the local Stripe-compatible server (tests/support/stripe_server.py), the
real `stripe` library sending what its API version accepts: a method saved by a setup-mode
Checkout Session (its SetupIntent, on a customer created once), the day's off-session
PaymentIntent with the saved method posted through `fulfil`, a declined card, a bank debit
settled by its webhook, a method removed (detached); and what the server refuses as the
real API does."""

from __future__ import annotations

from datetime import date

import pytest
import stripe
from sqlalchemy import select

from portal.core import payment_states as states
from portal.models.autopay import AutopayDebit, PaymentMethodSetup, SavedMethod
from portal.models.checkouts import Checkout
from portal.payments.autopay import debits, enrolments, methods
from portal.payments.webhooks import process_event
from tests.support import stripe_server
from tests.support.clock import fixed_on

CONFIG = {"MAIL_FROM": "portal@example.com", "PORTAL_BASE_URL": "https://portal.test"}
OCT_1 = date(2026, 10, 1)


def save(world, gw, fake, method: str = "card") -> SavedMethod:  # noqa: ANN001
    with world.uow() as uow:
        user = world.user(uow)
    url = methods.start_setup(world.database, user, gateway=gw, language="es",
                              success_url=lambda n: f"https://portal.test/ok/{n}",
                              cancel_url=lambda n: "https://portal.test/no")
    sid = url.rsplit("/", 1)[1]
    create = fake.session_creates[-1].form
    assert create["mode"] == "setup" and create["currency"] == "usd"
    assert "line_items" not in create and create["customer"].startswith("cus_test_")
    fake.complete_setup(sid, method)
    with world.uow() as uow:
        setup = uow.session.scalars(select(PaymentMethodSetup)).all()[-1]
        saved = methods.finish_setup(uow, world.user(uow), setup.id, gateway=gw)
        assert saved is not None
        uow.session.expunge(saved)
        return saved


def test_setup_then_off_session_debit(world, stripe_gateway, fake_stripe) -> None:  # noqa: ANN001
    card = save(world, stripe_gateway, fake_stripe)
    assert card.kind == "card" and card.last4 == "4242" and card.brand == "visa"
    bank = save(world, stripe_gateway, fake_stripe, "us_bank_account")
    assert bank.customer_id == card.customer_id  # one customer per payer
    assert len(fake_stripe.posts("/v1/customers")) == 1
    with world.uow() as uow:
        enrolments.enrol(uow, world.user(uow), world.parcel["0"], method_id=str(card.id),
                         plan="installments", lump_sum_on=None, language="es")
    with fixed_on(OCT_1):
        counts = debits.run_day(world.database, OCT_1, gateway=stripe_gateway, config=CONFIG)
    assert counts.get("posted") == 1
    sent = fake_stripe.posts("/v1/payment_intents")[-1]
    assert sent.form["off_session"] == "true" and sent.form["confirm"] == "true"
    assert sent.form["customer"] == card.customer_id
    assert sent.form["payment_method"] == card.provider_method_id
    assert sent.idempotency_key
    with world.uow() as uow:
        chk = uow.session.scalars(select(Checkout)).one()
        assert chk.status == states.SUCCEEDED and chk.provider_session_id.startswith("pi_")
        assert sent.form["amount"] == str(int(chk.amount * 100))
        assert sent.form["metadata"]["payment_id"] == str(chk.id)
    assert fake_stripe.refused == []


def test_declined_then_bank_settles_by_webhook(world, stripe_gateway, fake_stripe) -> None:  # noqa: ANN001
    card = save(world, stripe_gateway, fake_stripe)
    fake_stripe.decline_method(card.provider_method_id)
    with world.uow() as uow:
        enrolments.enrol(uow, world.user(uow), world.parcel["0"], method_id=str(card.id),
                         plan="installments", lump_sum_on=None, language="es")
    with fixed_on(OCT_1):
        assert debits.run_day(world.database, OCT_1, gateway=stripe_gateway,
                              config=CONFIG).get("failed") == 1
    with world.uow() as uow:
        row = uow.session.scalars(select(AutopayDebit)).one()
        assert row.status == "failed" and row.failure_code == "card_declined"
    # The payer changes to the bank account: a new enrolment, the retry goes by bank.
    bank = save(world, stripe_gateway, fake_stripe, "us_bank_account")
    with world.uow() as uow:
        enrolments.cancel(uow, world.user(uow), world.parcel["0"])
    day = date(2026, 10, 2)
    with fixed_on(day), world.uow() as uow:
        enrolments.enrol(uow, world.user(uow), world.parcel["0"], method_id=str(bank.id),
                         plan="installments", lump_sum_on=None, language="es")
    with fixed_on(day):
        assert debits.run_day(world.database, day, gateway=stripe_gateway,
                              config=CONFIG).get("posted") == 1
    with world.uow() as uow:
        chk = uow.session.scalars(select(Checkout).order_by(Checkout.id)).all()[-1]
        assert chk.status == states.PROCESSING and chk.method == "bank"
        pi = chk.provider_session_id
    fake_stripe.settle_intent(pi, ok=True)
    with fixed_on(date(2026, 10, 5)):
        status, outcome = process_event(world.database, stripe_gateway,
                                        fake_stripe.intent_event("payment_intent.succeeded", pi))
    assert (status, outcome) == (200, "settled")


def test_remove_detaches(world, stripe_gateway, fake_stripe) -> None:  # noqa: ANN001
    card = save(world, stripe_gateway, fake_stripe)
    with world.uow() as uow:
        methods.remove(uow, world.user(uow), card.id, gateway=stripe_gateway)
    assert fake_stripe.methods[card.provider_method_id]["customer"] is None
    assert fake_stripe.posts(f"/v1/payment_methods/{card.provider_method_id}/detach")


def client(fake) -> stripe.StripeClient:  # noqa: ANN001
    return stripe.StripeClient("sk_test_portal", base_addresses={
        "api": stripe_server.base(fake)}, max_network_retries=0)


def test_server_refuses_what_the_api_refuses(world, stripe_gateway, fake_stripe) -> None:  # noqa: ANN001
    card = save(world, stripe_gateway, fake_stripe)
    c = client(fake_stripe)
    base = {"amount": 10000, "currency": "usd", "payment_method": card.provider_method_id}
    with pytest.raises(stripe.InvalidRequestError) as e:  # off_session without confirm
        c.v1.payment_intents.create(params={**base, "customer": card.customer_id,
                                            "off_session": True})
    assert e.value.param == "off_session"
    with pytest.raises(stripe.InvalidRequestError) as e:  # a saved method without customer
        c.v1.payment_intents.create(params={**base, "off_session": True, "confirm": True})
    assert e.value.param == "customer"
    with pytest.raises(stripe.InvalidRequestError) as e:  # not a parameter of the version
        c.v1.payment_intents.create(params={**base, "customer": card.customer_id,
                                            "confirm": True, "payment_method_types": ["card"]})
    assert e.value.param == "payment_method_types"
    with pytest.raises(stripe.InvalidRequestError) as e:  # line items in setup mode
        c.v1.checkout.sessions.create(params={
            "mode": "setup", "currency": "usd", "success_url": "https://x.test/",
            "line_items": [{"quantity": 1, "price_data": {
                "currency": "usd", "unit_amount": 100, "product_data": {"name": "x"}}}]})
    assert e.value.param == "line_items"
    with pytest.raises(stripe.InvalidRequestError) as e:  # setup mode needs a currency
        c.v1.checkout.sessions.create(params={"mode": "setup",
                                              "success_url": "https://x.test/"})
    assert e.value.param == "currency"
    methods_ = c.v1.payment_methods
    methods_.detach(card.provider_method_id)
    with pytest.raises(stripe.InvalidRequestError):  # a detached method cannot be charged
        c.v1.payment_intents.create(params={**base, "customer": card.customer_id,
                                            "off_session": True, "confirm": True})
