"""Journeys J2 and J3 in a real browser (Chromium through Playwright), in Spanish and English.

J2: the owner pays what is due now by card through the sandbox checkout; the receipt shows how
the payment was applied (R-A10, line by line) and the balance updates.
J3: before the deadline, the owner pays the whole year with the lump-sum discount (R-A11).
Skipped with a visible reason when Chromium or Playwright is absent (.ci/run installs them).
"""

from __future__ import annotations

import email
from datetime import date
from pathlib import Path

import pytest

from portal import clock
from portal.db import reset_databases
from tests.support.app import make_app
from tests.support.browser import REASON, Server, axe_violations
from tests.support.clock import SEPT_5
from tests.support.pages import PASSWORD
from tests.support.world import seed, set_passwords

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser, pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WORDS = {
    "es": {"email": "Correo electrónico", "password": "Contraseña", "sign_in": "Entrar",
           "review": "Revisar el pago", "due": "Lo que vence ahora:",
           "card_ok": "Pagar con tarjeta: el pago se completa",
           "thanks": "Gracias: recibimos su pago.",
           "receipt": "Recibo de pago", "interest": "Intereses del plazo 1",
           "fee": "Cargo por demora del plazo 1", "inst": "Plazo 3", "old_debt": "deuda vencida",
           "nothing": "No hay nada a pagar ahora en esta propiedad.",
           "lump": "El año completo en un solo pago:", "discount": "Descuento por pago global",
           "granted": "se concedió el descuento de $24.00", "pay": "Pagar"},
    "en": {"email": "Email", "password": "Password", "sign_in": "Sign in",
           "review": "Review the payment", "due": "What is due now:",
           "card_ok": "Pay by card: the payment succeeds",
           "thanks": "Thank you: your payment was received.", "receipt": "Payment receipt",
           "interest": "Interest on installment 1", "fee": "Late fee on installment 1",
           "inst": "Installment 3", "old_debt": "past-due debt",
           "nothing": "Nothing is due now on this parcel.",
           "lump": "The whole year in one payment:", "discount": "Lump-sum discount",
           "granted": "the discount of $24.00 was granted", "pay": "Pay"},
}


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 390, "height": 900}, locale="es-PR")
    p = context.new_page()
    p.set_default_timeout(15000)
    yield p
    context.close()


def serve(database, tmp_path, today: date):
    clock.set_fixed(today)
    world = seed(database, ("1200.00",))
    set_passwords(world, PASSWORD)
    app = make_app(tmp_path, database, SERVER_NAME=None)
    return world, app


def _live(database, tmp_path, day):  # noqa: ANN001, ANN202
    """The portal served on `day`: (world, app, base URL)."""
    world, app = serve(database, tmp_path, day)
    with Server(app) as server:
        app.config["PORTAL_BASE_URL"] = server.url  # links and redirects: the served address
        yield world, app, server.url
    clock.set_fixed(None)
    reset_databases()


@pytest.fixture
def live_sept(database, tmp_path):
    yield from _live(database, tmp_path, SEPT_5)


@pytest.fixture
def live_june(database, tmp_path):
    yield from _live(database, tmp_path, date(2026, 6, 20))


def sign_in(page, url: str, lang: str) -> None:
    w = WORDS[lang]
    page.goto(url + f"/cuenta/entrar?lang={lang}")
    if page.locator("html").get_attribute("lang") != lang:
        page.locator(f"header button[lang='{lang}']").click()
    page.get_by_label(w["email"]).fill("duena@example.com")
    page.get_by_label(w["password"], exact=True).fill(PASSWORD)
    page.locator("main").get_by_role("button", name=w["sign_in"]).click()
    page.wait_for_load_state()
    if page.locator("html").get_attribute("lang") != lang:
        page.locator(f"header button[lang='{lang}']").click()
    expect(page.locator("html")).to_have_attribute("lang", lang)


def no_axe_violations(page) -> None:
    violations = axe_violations(page)
    assert violations == [], f"{page.url}: {violations}"


def pay_in_sandbox(page, lang: str) -> None:
    w = WORDS[lang]
    expect(page.locator("h1")).to_contain_text("MODO DE PRUEBA")
    expect(page.locator("main")).to_contain_text("TEST MODE")
    no_axe_violations(page)
    page.get_by_role("button", name=w["card_ok"]).click()
    page.wait_for_load_state()
    expect(page.locator("main")).to_contain_text(w["thanks"])


@pytest.mark.parametrize("lang", ["es", "en"])
def test_j2_pay_what_is_due_by_card(live_sept, page, lang):
    world, app, url = live_sept
    w = WORDS[lang]
    sign_in(page, url, lang)
    page.goto(url + f"/pagar?parcela={world.parcel_ids[0]}")
    main = page.locator("main")
    expect(main).to_contain_text("$312.77")
    expect(main).to_contain_text("R-A10")  # the arrears warning before paying
    expect(page.get_by_label(w["due"])).to_be_checked()  # the only parcel: due now
    no_axe_violations(page)
    page.get_by_role("button", name=w["review"]).click()
    expect(main).to_contain_text(w["old_debt"])
    expect(page.locator("table")).to_contain_text(w["interest"])
    no_axe_violations(page)
    page.get_by_role("button", name=f"{w['pay']} $312.77").click()
    pay_in_sandbox(page, lang)
    expect(page.locator("h1")).to_contain_text(w["receipt"])
    table = page.locator("table")
    for text in (w["interest"], w["fee"], w["inst"], "R-A8", "R-A7", "R-A10"):
        expect(table).to_contain_text(text)
    expect(main).to_contain_text("$312.77")
    expect(main).to_contain_text("4242")
    no_axe_violations(page)
    # The receipt PDF and the email in the payer's language.
    pdf = page.request.get(page.url + ".pdf")
    assert pdf.ok and pdf.body().startswith(b"%PDF")
    [eml] = sorted(Path(app.config["OUTBOX_DIR"]).glob("*.eml"))
    msg = email.message_from_bytes(eml.read_bytes())
    assert msg["Content-Language"] == ("es-PR" if lang == "es" else "en-US")
    # The balance updates: nothing is due now.
    page.goto(url + f"/pagar?parcela={world.parcel_ids[0]}")
    expect(main).to_contain_text(w["nothing"])


@pytest.mark.parametrize("lang", ["es", "en"])
def test_j3_lump_sum_with_the_discount_before_the_deadline(live_june, page, lang):
    world, app, url = live_june
    w = WORDS[lang]
    sign_in(page, url, lang)
    page.goto(url + "/pagar")
    main = page.locator("main")
    lump = page.get_by_label(w["lump"])
    expect(main).to_contain_text("$1,176.00")
    expect(main).to_contain_text("$24.00")
    expect(main).to_contain_text("R-A11")
    page.locator(f"label[for='{lump.get_attribute('id')}']").click()  # USWDS hides the input
    expect(lump).to_be_checked()
    page.get_by_role("button", name=w["review"]).click()
    expect(page.locator("table")).to_contain_text(w["discount"])
    page.get_by_role("button", name=f"{w['pay']} $1,176.00").click()
    pay_in_sandbox(page, lang)
    expect(page.locator("table")).to_contain_text(w["discount"])
    expect(main).to_contain_text(w["granted"])
    no_axe_violations(page)
    page.goto(url + "/pagar")
    expect(main).not_to_contain_text(w["lump"])
