"""A payment of many parcels stays within Stripe's limits (the test server enforces them):
the parcel list is kept out of metadata when it does not fit in a value (the checkout's
parcels are ours, in `checkout_payments`), the description is cut after the last whole
parcel that fits and says how many were left out."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from sqlalchemy import func, select, update

from portal import clock
from portal.db import reset_databases
from portal.models import Parcel, Payment
from portal.models.checkouts import CheckoutPayment
from portal.payments.gateway import DESCRIPTION_MAX, CheckoutRequest, fit_description
from tests.support import stripe_server
from tests.support.app import make_app
from tests.support.clock import SEPT_5
from tests.support.pages import PASSWORD, csrf_token
from tests.support.payments import WEBHOOK_SECRET
from tests.support.world import seed, set_passwords

MANY = 60


@pytest.mark.parametrize(("text", "limit", "expected"), [
    ("Derrama, parcela A", 100, "Derrama, parcela A"),
    ("parcel 111, 222, 333, 444", 20, "parcel 111, … (+3)"),
    ("parcel 111, 222, 333, 444", 24, "parcel 111, 222, … (+2)"),
    ("one very long word", 10, "one very …"),
])
def test_fit_description(text, limit, expected):
    assert fit_description(text, limit) == expected
    assert len(fit_description(text, limit)) <= limit


def test_parcel_ids_too_long_for_a_metadata_value_stay_ours(fake_stripe, stripe_gateway):
    ids = [str(2_000_000_000 + n) for n in range(MANY)]  # 659 characters with the commas
    req = CheckoutRequest(payment_id="41", amount=Decimal("72000.00"),
                          description="Derrama, parcela " + ", ".join(ids),
                          parcel_ids=ids, success_url="http://portal.test/ok",
                          cancel_url="http://portal.test/no", idempotency_key="checkout-41")
    stripe_gateway.create_checkout(req)
    assert fake_stripe.refused == []
    [sent] = fake_stripe.session_creates
    assert sent.form["metadata"] == {"payment_id": "41", "parcel_count": str(MANY)}
    assert sent.form["payment_intent_data"]["metadata"] == sent.form["metadata"]
    assert sent.form["payment_intent_data"]["description"] == req.description  # 735: fits


@pytest.fixture
def many(database):
    with clock.fixed(SEPT_5):
        world = seed(database, ("1200.00",) * MANY)
        with world.uow() as uow:
            for n, pid in enumerate(world.parcel_ids, start=1):  # catastro numbers of 19
                uow.session.execute(update(Parcel).where(Parcel.id == pid)
                                    .values(catastro=f"070-042-{n:03d}-09-001"))
        set_passwords(world, PASSWORD)
        yield world


@pytest.mark.parametrize("lang", ["es", "en"])
def test_sixty_parcels_in_one_payment_through_the_pages(many, tmp_path, fake_stripe, lang):
    app = make_app(tmp_path, many.database, STRIPE_SECRET_KEY="sk_test_portal",
                   STRIPE_API_BASE=stripe_server.base(fake_stripe), STRIPE_MAX_RETRIES="0",
                   STRIPE_WEBHOOK_SECRET=WEBHOOK_SECRET)
    try:
        with clock.fixed(SEPT_5):
            client = app.test_client()
            page = client.get(f"/cuenta/entrar?lang={lang}")
            assert client.post("/cuenta/entrar", data={
                "csrf_token": csrf_token(page.text), "email": "duena@example.com",
                "password": PASSWORD}).status_code == 303
            if lang == "en":  # with a token from after signing in (it rotates at sign-in)
                client.post("/idioma", data={"csrf_token": csrf_token(client.get("/pagar").text),
                                             "lang": "en", "next": "/"})
            tok = csrf_token(client.get("/pagar").text)
            choices = {f"choice-{many.key(n)}": "due_now" for n in range(MANY)}
            review = client.post("/pagar/revisar", data={"csrf_token": tok, **choices})
            assert review.status_code == 200, review.text[:300]
            expected = re.search(r'name="expected_total" value="([^"]+)"',
                                 review.text).group(1)
            r = client.post("/pagar/confirmar", data={"csrf_token": tok, **choices,
                                                      "expected_total": expected})
            assert r.status_code == 303, r.text[:500]
            assert r.headers["Location"].startswith("https://checkout.stripe.test/")
            assert fake_stripe.refused == []
            [sent] = fake_stripe.session_creates
            form = sent.form
            assert form["locale"] == ("es-419" if lang == "es" else "en")
            assert form["metadata"]["parcel_count"] == str(MANY)
            assert len(form["metadata"]["parcel_ids"]) <= 500
            description = form["payment_intent_data"]["description"]
            assert len(description) <= DESCRIPTION_MAX
            assert "070-042-001-09-001" in description and re.search(r"… \(\+\d+\)$",
                                                                       description)
            sid = next(iter(fake_stripe.sessions))
            fake_stripe.complete(sid, "card")
            payload, header = stripe_server.signed(
                fake_stripe.event("checkout.session.completed", sid), WEBHOOK_SECRET)
            hook = app.test_client().post("/pagos/webhook/stripe", data=payload.encode(),
                                          headers={"Stripe-Signature": header},
                                          content_type="application/json")
            assert hook.status_code == 200 and hook.text == "posted"
        with many.uow() as uow:
            assert uow.session.scalar(select(func.count()).select_from(CheckoutPayment)) == MANY
            statuses = set(uow.session.scalars(select(Payment.status)))
            assert statuses == {"succeeded"}
    finally:
        reset_databases()
