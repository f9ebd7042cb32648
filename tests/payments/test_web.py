"""The payment pages through the Flask test client: choose, review, pay in the sandbox (test
mode) or through Stripe (the local test server and the webhook endpoint), receipts, history,
staff's office payments and refunds; bad input in both languages changes no money."""

from __future__ import annotations

import email
import re
from datetime import date
from decimal import Decimal as D

import pytest
from sqlalchemy import select

from portal import clock
from portal.db import reset_databases
from portal.models import LedgerEntry
from portal.models.checkouts import Checkout
from tests.support import stripe_server
from tests.support.app import make_app
from tests.support.pages import PASSWORD, error_messages, main_text
from tests.support.payments import WEBHOOK_SECRET, count, pay_in_sandbox, sign_in_to_pay
from tests.support.world import seed, set_passwords


@pytest.fixture
def world(world):
    """The payments' world; its people sign in with PASSWORD."""
    set_passwords(world, PASSWORD)
    return world


def test_pay_due_now_in_the_sandbox_spanish(app, world):
    client = app.test_client()
    tok = sign_in_to_pay(client)
    key = world.key(0)
    choose = client.get(f"/pagar?parcela={world.parcel_ids[0]}")
    assert choose.status_code == 200 and 'lang="es"' in choose.text
    assert "$312.77" in choose.text and "R-A10" in choose.text  # due now, arrears warning
    receipt_url, receipt = pay_in_sandbox(client, tok, {f"choice-{key}": "due_now"})
    assert receipt.status_code == 200
    body = main_text(receipt.text)
    assert "2026-000001" in body and "4242" in body and "$312.77" in body
    assert "R-A8" in body and "R-A7" in body and "R-A10" in body
    pdf = client.get(receipt_url + ".pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    # The balance updates: nothing due now on the parcel.
    again = client.get(f"/pagar?parcela={world.parcel_ids[0]}")
    assert "$312.77" not in again.text
    # The receipt was emailed once, with the PDF.
    outbox = sorted((app.config["OUTBOX_DIR"] and __import__("pathlib").Path(
        app.config["OUTBOX_DIR"])).glob("*.eml"))
    assert len(outbox) == 1
    msg = email.message_from_bytes(outbox[0].read_bytes())
    assert "2026-000001" in msg["Subject"]
    assert any(p.get_content_type() == "application/pdf" for p in msg.walk())
    client.get(receipt_url.replace("/recibo", "/exito"))
    assert len(list(__import__("pathlib").Path(app.config["OUTBOX_DIR"]).glob("*.eml"))) == 1
    history = client.get(f"/propiedad/{world.parcel_ids[0]}/pagos")
    assert history.status_code == 200 and "2026-000001" in history.text


def test_pay_in_english(app, world):
    client = app.test_client()
    tok = sign_in_to_pay(client, lang="en")
    choose = client.get("/pagar")
    assert 'lang="en"' in choose.text and "Pay your assessment" in choose.text
    key = world.key(1)
    _, receipt = pay_in_sandbox(client, tok, {f"choice-{key}": "installments",
                                              f"through-{key}": "4"})
    assert "Payment receipt" in receipt.text and "Installment 4" in main_text(receipt.text)


@pytest.mark.parametrize(("typed", "message"), [
    ("abc", "numbers only"), ("-5", "cannot be negative"), ("0", "more than $0.00"),
    ("12.345", "cents after a period"), ("1.234,50", "cents after a period"),
    ("12.345", "not 1.500,00"), ("12.3456", "two decimals"), ("1e3", "without an exponent"),
    ("0.50", "smallest amount"),
])
def test_bad_amounts_are_explained_and_kept(app, world, typed, message):
    client = app.test_client()
    tok = sign_in_to_pay(client, lang="en")
    key = world.key(0)
    r = client.post("/pagar/revisar", data={"csrf_token": tok, f"choice-{key}": "amount",
                                            f"amount-{key}": typed})
    assert r.status_code == 400
    assert any(message in e for e in error_messages(r.text)), error_messages(r.text)
    assert f'value="{typed}"' in r.text  # what was typed is kept
    assert "Traceback" not in r.text
    assert count(world, Checkout) == 0


def test_more_than_the_payoff_offers_the_payoff(app, world):
    client = app.test_client()
    tok = sign_in_to_pay(client, lang="en")
    key = world.key(0)
    r = client.post("/pagar/revisar", data={"csrf_token": tok, f"choice-{key}": "amount",
                                            f"amount-{key}": "5,000"})
    assert r.status_code == 400
    assert any("$1,212.77" in e for e in error_messages(r.text))
    offer = re.search(rf'name="amount-{key}" value="([^"]+)"', r.text).group(1)
    assert offer == "$1,212.77"
    again = client.post("/pagar/revisar", data={"csrf_token": tok, f"choice-{key}": "amount",
                                                f"amount-{key}": offer})
    assert again.status_code == 200 and "$1,212.77" in again.text


def test_someone_elses_account_or_installment(app, world, caplog):
    client = app.test_client()
    tok = sign_in_to_pay(client, "otro@example.com", lang="en")  # owns nothing
    key = world.key(0)
    r = client.post("/pagar/revisar", data={"csrf_token": tok, f"choice-{key}": "due_now"})
    assert r.status_code == 400 and "not one you can pay" in r.text
    assert "posted an account not theirs" in caplog.text
    assert client.get(f"/pagar?parcela={world.parcel_ids[0]}").status_code == 404
    owner = app.test_client()
    tok = sign_in_to_pay(owner, lang="en")
    r = owner.post("/pagar/revisar", data={"csrf_token": tok, f"choice-{key}": "installments",
                                           f"through-{key}": "99"})
    assert r.status_code == 400
    assert any("not one of this account" in e for e in error_messages(r.text))
    assert count(world, Checkout) == 0


def test_a_price_posted_by_the_browser_is_ignored(app, world):
    """The browser can post anything: the amount charged is the server's."""
    client = app.test_client()
    tok = sign_in_to_pay(client, lang="en")
    key = world.key(0)
    r = client.post("/pagar/confirmar", data={"csrf_token": tok, f"choice-{key}": "due_now",
                                              "expected_total": "1.00", "amount": "1.00",
                                              "price": "1.00"})
    assert r.status_code == 409  # the totals differ: review again, nothing created
    assert "$312.77" in r.text and count(world, Checkout) == 0


@pytest.mark.parametrize("posted", ["sNaN", "NaN", "-Infinity", "1e999999", "", "3,12"])
def test_an_odd_total_posted_by_the_browser_changes_nothing(app, world, posted):
    """Not a number, a signalling NaN, an infinity: review again (409), never an error."""
    client = app.test_client()
    tok = sign_in_to_pay(client, lang="en")
    key = world.key(0)
    r = client.post("/pagar/confirmar", data={"csrf_token": tok, f"choice-{key}": "due_now",
                                              "expected_total": posted})
    assert r.status_code == 409, posted
    assert "$312.77" in r.text and count(world, Checkout) == 0


def test_lump_sum_shows_why_it_is_gone(app, world):
    client = app.test_client()
    sign_in_to_pay(client, lang="en")
    page = client.get("/pagar")
    assert "The lump-sum discount ended on July 1, 2026." in main_text(page.text)


def test_provider_down_changes_no_money(world, tmp_path):
    app = make_app(tmp_path, world.database, STRIPE_SECRET_KEY="sk_test_x",
                   STRIPE_API_BASE="http://127.0.0.1:9", STRIPE_MAX_RETRIES="0",
                   STRIPE_WEBHOOK_SECRET=WEBHOOK_SECRET)
    client = app.test_client()
    tok = sign_in_to_pay(client, lang="es")
    key = world.key(0)
    review = client.post("/pagar/revisar", data={"csrf_token": tok, f"choice-{key}": "due_now"})
    expected = re.search(r'name="expected_total" value="([^"]+)"', review.text).group(1)
    r = client.post("/pagar/confirmar", data={"csrf_token": tok, f"choice-{key}": "due_now",
                                              "expected_total": expected})
    assert r.status_code == 503
    assert count(world, LedgerEntry, LedgerEntry.kind == "payment") == 0
    with world.uow() as uow:
        assert uow.session.scalar(select(Checkout.status)) == "failed"
    reset_databases()


def test_bank_account_processing_then_settles_in_the_sandbox(app, world):
    client = app.test_client()
    tok = sign_in_to_pay(client, lang="en")
    key = world.key(1)
    url, receipt = pay_in_sandbox(client, tok, {f"choice-{key}": "due_now"},
                                  outcome="bank_processing")
    assert "processing" in main_text(receipt.text)
    assert "The bank completes the payment" in receipt.text
    session_id = re.search(r'/pagos/prueba/(cs_sandbox_\w+)/banco', receipt.text).group(1)
    r = client.post(f"/pagos/prueba/{session_id}/banco", data={"csrf_token": tok,
                                                                "result": "settle"})
    assert r.status_code == 303
    assert "paid" in main_text(client.get(url).text)


def test_declined_card_in_the_sandbox(app, world):
    client = app.test_client()
    tok = sign_in_to_pay(client, lang="en")
    _, receipt = pay_in_sandbox(client, tok, {f"choice-{world.key(0)}": "due_now"},
                                outcome="card_declined")
    assert "failed: nothing was charged" in main_text(receipt.text)
    assert count(world, LedgerEntry, LedgerEntry.kind == "payment") == 0


def test_receipts_are_private(app, world):
    client = app.test_client()
    tok = sign_in_to_pay(client, lang="en")
    url, _ = pay_in_sandbox(client, tok, {f"choice-{world.key(0)}": "due_now"})
    stranger = app.test_client()
    sign_in_to_pay(stranger, "otro@example.com", lang="en")
    assert stranger.get(url).status_code == 404
    assert stranger.get(url + ".pdf").status_code == 404
    assert stranger.get(f"/propiedad/{world.parcel_ids[0]}/pagos").status_code == 404


def test_stripe_checkout_and_webhook_endpoint(world, tmp_path, fake_stripe):
    app = make_app(tmp_path, world.database, STRIPE_SECRET_KEY="sk_test_portal",
                   STRIPE_API_BASE=stripe_server.base(fake_stripe), STRIPE_MAX_RETRIES="0",
                   STRIPE_WEBHOOK_SECRET=WEBHOOK_SECRET)
    client = app.test_client()
    tok = sign_in_to_pay(client, lang="en")
    key = world.key(0)
    review = client.post("/pagar/revisar", data={"csrf_token": tok, f"choice-{key}": "due_now"})
    expected = re.search(r'name="expected_total" value="([^"]+)"', review.text).group(1)
    r = client.post("/pagar/confirmar", data={"csrf_token": tok, f"choice-{key}": "due_now",
                                              "expected_total": expected})
    assert r.status_code == 303 and r.headers["Location"].startswith("https://checkout.stripe")
    [sent] = fake_stripe.session_creates
    assert sent.form["locale"] == "en"
    assert sent.form["line_items"][0]["price_data"]["unit_amount"] == "31277"
    assert sent.form["success_url"].startswith("http://localhost/pagos/1/exito")
    sid = next(iter(fake_stripe.sessions))
    fake_stripe.complete(sid, "card")
    payload, header = stripe_server.signed(fake_stripe.event("checkout.session.completed", sid),
                                           WEBHOOK_SECRET)
    hook = app.test_client()
    assert hook.post("/pagos/webhook/stripe", data=payload.encode(),
                     headers={"Stripe-Signature": header},
                     content_type="application/json").status_code == 200
    assert hook.post("/pagos/webhook/stripe", data=payload.encode(),
                     headers={"Stripe-Signature": header},
                     content_type="application/json").text == "duplicate"
    bad = hook.post("/pagos/webhook/stripe", data=payload.encode() + b" ",
                    headers={"Stripe-Signature": header}, content_type="application/json")
    assert bad.status_code == 400
    assert hook.post("/pagos/webhook/stripe", data=payload.encode(),
                     content_type="application/json").status_code == 400
    assert count(world, LedgerEntry, LedgerEntry.kind == "payment") == 1
    reset_databases()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_an_office_name_or_reference_too_long_is_refused_not_cut(app, world, lang):
    """A name over 200 characters or a reference over 60 (their columns): the form comes
    back with what was typed and says the limit; nothing is recorded."""
    client = app.test_client()
    tok = sign_in_to_pay(client, "staff@example.com", lang=lang)
    pid = world.parcel_ids[1]
    form = client.get(f"/personal/pagos/oficina/{pid}").text
    # No maxlength: the browser would cut what was typed without a word; the
    # form says the limit instead.
    assert "maxlength" not in form
    name, ref = "María " + "x" * 200, "1" * 61
    r = client.post(f"/personal/pagos/oficina/{pid}", data={
        "csrf_token": tok, "account": world.key(1), "amount": "100.00", "method": "check",
        "reference": ref, "payer_name": name})
    assert r.status_code == 400
    said = {"es": ["El nombre tiene 200 caracteres como máximo.",
                   "El número de cheque o la referencia tiene 60 caracteres como máximo."],
            "en": ["The name is at most 200 characters.",
                   "The check number or reference is at most 60 characters."]}[lang]
    assert sorted(error_messages(r.text)) == sorted(said)
    assert f'value="{ref}"' in r.text and name in r.text
    summary = r.text.split('id="error-summary"', 1)[1].split("</ul>", 1)[0]
    assert 'href="#reference"' in summary and 'href="#payer_name"' in summary
    assert count(world, Checkout) == 0


def test_staff_records_an_office_payment_and_refunds_a_credit(app, world):
    client = app.test_client()
    tok = sign_in_to_pay(client, "staff@example.com", lang="en")
    pid = world.parcel_ids[1]
    page = client.get(f"/personal/pagos/oficina/{pid}")
    assert page.status_code == 200
    bad = client.post(f"/personal/pagos/oficina/{pid}", data={
        "csrf_token": tok, "account": world.key(1), "amount": "abc", "method": "check",
        "reference": "", "payer_name": ""})
    assert bad.status_code == 400 and len(error_messages(bad.text)) >= 2
    r = client.post(f"/personal/pagos/oficina/{pid}", data={
        "csrf_token": tok, "account": world.key(1), "amount": "100.00", "method": "check",
        "reference": "1042", "payer_name": "María Rivera"})
    assert r.status_code == 303
    receipt = client.get(r.headers["Location"])
    assert "Check number 1042" in main_text(receipt.text)
    # No credit yet: nothing to refund.
    assert "no credit to refund" in client.get(f"/personal/pagos/reembolso/{pid}").text
    # Owners cannot reach staff pages.
    owner = app.test_client()
    sign_in_to_pay(owner, lang="en")
    assert owner.get(f"/personal/pagos/oficina/{pid}").status_code == 404


def start_payment(client, tok, data):
    review = client.post("/pagar/revisar", data={"csrf_token": tok, **data})
    assert review.status_code == 200, error_messages(review.text)
    expected = re.search(r'name="expected_total" value="([^"]+)"', review.text).group(1)
    r = client.post("/pagar/confirmar", data={"csrf_token": tok, "expected_total": expected,
                                              **data})
    assert r.status_code == 303
    return r.headers["Location"]


def test_refund_of_a_credit_by_staff(app, world):
    """Two tabs each start paying the whole pay-off, then both are paid: the second becomes a
    credit (never lost); staff refunds it, back to the card (sandbox)."""
    owner = app.test_client()
    tok = sign_in_to_pay(owner, lang="en")
    key = world.key(1)
    first = start_payment(owner, tok, {f"choice-{key}": "amount", f"amount-{key}": "600.00"})
    second = start_payment(owner, tok, {f"choice-{key}": "installments",
                                        f"through-{key}": "12"})
    assert first != second
    for url in (first, second):
        owner.post(url, data={"csrf_token": tok, "outcome": "card_succeeds"})
    staff = app.test_client()
    stok = sign_in_to_pay(staff, "staff@example.com", lang="en")
    page = staff.get(f"/personal/pagos/reembolso/{world.parcel_ids[1]}")
    assert "credit $600.00" in page.text
    too_much = staff.post(f"/personal/pagos/reembolso/{world.parcel_ids[1]}",
                          data={"csrf_token": stok, "account": key, "amount": "600.01"})
    assert too_much.status_code == 400 and "more than the credit" in too_much.text
    r = staff.post(f"/personal/pagos/reembolso/{world.parcel_ids[1]}",
                   data={"csrf_token": stok, "account": key, "amount": "600.00",
                         "note": "paid twice"})
    assert r.status_code == 303
    assert count(world, LedgerEntry, LedgerEntry.kind == "refund") == 1
    with world.uow() as uow:
        rows = uow.session.execute(select(Checkout.id, Checkout.status, Checkout.amount,
                                          Checkout.refunded_amount)
                                   .order_by(Checkout.id)).all()
    # The latest payment (the pay-off, $6.39 more than the first) gives the $600 back.
    assert [(r.status, r.refunded_amount) for r in rows] == [
        ("succeeded", D("0.00")), ("partially_refunded", D("600.00"))]
    assert rows[1].amount > D("600.00")


def test_an_unfinished_payment_is_offered_before_paying_again(app, world):
    client = app.test_client()
    tok = sign_in_to_pay(client, lang="en")
    url = start_payment(client, tok, {f"choice-{world.key(0)}": "due_now"})
    page = client.get("/pagar")
    assert "did not finish it" in page.text and f'href="{url}"' in page.text
    client.post(url, data={"csrf_token": tok, "outcome": "card_succeeds"})
    assert "did not finish it" not in client.get("/pagar").text


# --- found trying the portal as a new user (QA) -------------------------------------------

def test_receipt_and_history_name_the_installment_chosen(app, world):
    client = app.test_client()
    tok = sign_in_to_pay(client, lang="en")
    key = world.key(1)
    url, receipt = pay_in_sandbox(client, tok, {f"choice-{key}": "installments",
                                                f"through-{key}": "4"})
    assert "Installments through number 4" in main_text(receipt.text)
    assert "through number :" not in main_text(receipt.text)
    history = client.get(f"/propiedad/{world.parcel_ids[1]}/pagos")
    assert "Installments through number 4" in main_text(history.text)


def _installment_labels(html: str, key: str) -> list[str]:
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", m)).strip() for m in re.findall(
        rf'<label class="usa-radio__label" for="inst-{key}-\d+">(.*?)</label>', html, re.S)]


def test_installment_choices_show_dates_in_words(app, world):
    client = app.test_client()
    sign_in_to_pay(client)
    page = client.get(f"/pagar?parcela={world.parcel_ids[1]}")
    labels = " ".join(_installment_labels(page.text, world.key(1)))
    # Dates in the long form, as on every page: "vence 1 de julio de 2026".
    assert re.search(r"\(vence \d+ de [a-z]+ de 2026\)", labels), labels
    assert not re.search(r"\d+ [a-z]{3,4}\.? 2026", labels), labels
    assert not re.search(r"\d\d?/\d\d?/\d{4}", labels)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_each_installment_choice_is_its_own_radio(app, world, lang):
    """QA: a <select> of installments next to a radio paid what was due now when the radio
    was left alone. Now each "through N" is one radio of the parcel's group (no select), the
    amount first and short enough for a 375 px phone; the one clicked is the one paid."""
    client = app.test_client()
    tok = sign_in_to_pay(client, lang=lang)
    key = world.key(1)
    page = client.get(f"/pagar?parcela={world.parcel_ids[1]}")
    assert "<select" not in page.text[page.text.index("<main"):]
    values = re.findall(rf'name="choice-{key}" value="(through-\d+)"', page.text)
    assert len(values) >= 3 and values[0] == "through-1"
    for label in _installment_labels(page.text, key):
        # Amount first; the long date makes it up to ~55 characters, which wraps inside its
        # box at 375 px (tests/e2e/test_layout.py measures the pay page at that width).
        assert label.startswith("$") and len(label) <= 60, label
    review = client.post("/pagar/revisar", data={"csrf_token": tok,
                                                 f"choice-{key}": "through-3"})
    assert review.status_code == 200, error_messages(review.text)
    kind = "Plazos hasta el número 3" if lang == "es" else "Installments through number 3"
    assert kind in main_text(review.text)
    assert f'name="choice-{key}" value="installments"' in review.text
    assert f'name="through-{key}" value="3"' in review.text
    # A stale form naming an installment while the radio says "what is due now": asked.
    r = client.post("/pagar/revisar", data={"csrf_token": tok, f"choice-{key}": "due_now",
                                            f"through-{key}": "4"})
    assert r.status_code == 400 and error_messages(r.text), r.text[:300]
    assert count(world, Checkout) == 0
    # Re-shown with the choice kept.
    r = client.post("/pagar/revisar", data={"csrf_token": tok, f"choice-{key}": "through-99"})
    assert r.status_code == 400


def test_language_switch_on_the_review_page_goes_back_to_the_choices(app, world):
    client = app.test_client()
    sign_in_to_pay(client)
    for path in ("/pagar/revisar", "/pagar/confirmar"):
        r = client.get(path)
        assert r.status_code == 303 and r.headers["Location"].endswith("/pagar")


@pytest.mark.parametrize("choice", ["due_now", "none"])
def test_an_amount_typed_without_choosing_it_is_not_ignored(app, world, choice):
    client = app.test_client()
    tok = sign_in_to_pay(client, lang="en")
    key = world.key(0)
    r = client.post("/pagar/revisar", data={"csrf_token": tok, f"choice-{key}": choice,
                                            f"amount-{key}": "50"})
    assert r.status_code == 400
    assert any("only one option" in e for e in error_messages(r.text)), error_messages(r.text)
    assert 'value="50"' in r.text
    assert count(world, Checkout) == 0


@pytest.mark.parametrize("path", [
    "/pagos/99999999999999999999999/recibo", "/pagos/99999999999999999999999/recibo.pdf",
    "/pagos/pago/99999999999999999999999/recibo", "/propiedad/99999999999999999999999/pagos",
    "/pagar?parcela=99999999999999999999999",
])
def test_ids_too_large_for_the_database_are_not_found(app, world, path):
    client = app.test_client()
    sign_in_to_pay(client, lang="en")
    assert client.get(path).status_code == 404


@pytest.mark.parametrize(("outcome", "label_es", "label_en"), [
    ("card_declined", "Cantidad intentada", "Amount attempted"),
    ("bank_processing", "En proceso", "Processing"),
])
def test_an_unsettled_receipt_does_not_say_amount_paid(app, world, outcome, label_es,
                                                      label_en):
    """QA: a failed payment's receipt said "Amount paid" though nothing was charged; the
    installment chosen is named from the checkout even without any receipt line."""
    for lang, label in (("en", label_en), ("es", label_es)):
        client = app.test_client()
        tok = sign_in_to_pay(client, lang=lang)
        client.post("/idioma", data={"csrf_token": tok, "lang": lang, "next": "/"})
        key = world.key(1)
        _, receipt = pay_in_sandbox(client, tok, {f"choice-{key}": "through-4"},
                                    outcome=outcome)
        body = main_text(receipt.text)
        assert f"<dt>{label}</dt>" in receipt.text, body[:600]
        assert "Amount paid" not in body and "Cantidad pagada" not in body
        through = "Installments through number 4" if lang == "en" else "número 4"
        assert through in body
        with world.uow() as uow:
            from portal.models.checkouts import CheckoutPayment
            assert uow.session.scalars(select(CheckoutPayment.installments_through)
                                       .order_by(CheckoutPayment.id.desc())).first() == 4
        if outcome == "bank_processing":
            break  # the account now has a payment processing: one language is enough


def test_office_errors_are_worded_for_staff_and_on_their_field(app, world):
    """QA: over the payoff, staff read "more than you owe" (the payer's words); a tampered
    payment method got only the page's general message."""
    client = app.test_client()
    tok = sign_in_to_pay(client, "staff@example.com", lang="en")
    pid = world.parcel_ids[1]
    data = {"csrf_token": tok, "account": world.key(1), "amount": "99999.00",
            "method": "cash", "reference": "", "payer_name": "María Rivera"}
    r = client.post(f"/personal/pagos/oficina/{pid}", data=data)
    assert r.status_code == 400
    assert any("More than this account&#39;s pay-off of $" in e for e in error_messages(r.text)), \
        error_messages(r.text)
    assert "than you owe" not in r.text
    r = client.post(f"/personal/pagos/oficina/{pid}", data={**data, "amount": "10.00",
                                                            "method": "bitcoin"})
    assert r.status_code == 400
    assert 'id="method-error">Choose cash or check.</span>' in r.text
    assert 'aria-describedby="method-error"' in r.text
    r = client.post(f"/personal/pagos/oficina/{pid}", data={**data, "amount": "10.00",
                                                            "method": "check"})
    assert r.status_code == 400 and 'id="reference-error"' in r.text
    assert count(world, Checkout) == 0


def test_lump_sum_receipt_shows_the_discount_apart_and_then_that_it_was_granted(database,
                                                                              tmp_path):
    """QA: on the receipt the discount sat among the amounts paid (the lines added up to more
    than the amount paid); afterwards the year said "the discount is not available"."""
    with clock.fixed(date(2026, 6, 20)):
        w = seed(database, ("1200.00",))
        set_passwords(w, PASSWORD)
        application = make_app(tmp_path, w.database)
        try:
            client = application.test_client()
            tok = sign_in_to_pay(client, lang="en")
            _, receipt = pay_in_sandbox(client, tok, {f"choice-{w.key(0)}": "lump_sum"})
            html = receipt.text
            body_rows = html[html.index("<tbody>"):html.index("</tbody>")]
            foot = html[html.index("<tfoot>"):html.index("</tfoot>")]
            paid = [D(x.replace(",", "")) for x in
                    re.findall(r'class="portal-money">\$([\d,.]+)</td>', body_rows)]
            assert sum(paid) == D("1176.00") and "discount" not in body_rows.lower()
            assert "Total paid" in foot and "$1,176.00" in foot
            assert "Lump-sum discount (R-A11)" in foot and "$24.00" in foot
            # The PDF too: the discount is its own row, after the total paid.
            pdf = client.get(receipt.request.path + ".pdf")
            assert pdf.status_code == 200
            with w.uow() as uow:
                from portal.accounts import statements
                view = statements.statement_for(uow, w.user(uow), w.parcel_ids[0])
            assert view.lump_sum is None  # no "not available" quote once granted
            choose = main_text(client.get("/pagar").text)
            assert "not available" not in choose
            if w.key(0) in client.get("/pagar").text:  # listed: it says it was granted
                assert "The lump-sum discount of $24.00 was granted on" in choose
            assert view.lump_sum_granted.discount == D("24.00")
            assert view.lump_sum_granted.on == date(2026, 6, 20)
        finally:
            reset_databases()
    from portal.web.payments import present
    with application.test_request_context("/?lang=es"):
        from flask import session
        session["lang"] = "es"
        gone = present.lump_gone("granted", date(2026, 7, 1), D("24.00"), date(2026, 6, 20))
    assert "$24.00" in gone and "R-A11" in gone and "2026" in gone
