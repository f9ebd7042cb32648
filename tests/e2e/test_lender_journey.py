"""J7 in a real browser, in Spanish and English: the demo lender filters its loans (status
overdue), reads the totals, exports the filtered set as CSV, pays for the filtered set in
one payment (the payments' review), opens a loan's page (what to pay or retain per CRIM
bill, R-B10) and creates an API token on its organisation's page, shown once. Every page is
axe-clean (and HTML_CodeSniffer's WCAG2AA), and the list has no sideways scroll on a 375 px
phone. Screenshots go to $J7_SHOTS when it is set (looked at by hand, not compared)."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest

from portal import clock
from tests.support.browser import REASON, axe_violations, htmlcs_errors, second_step, shot

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WORDS = {
    "es": {"email": "Correo electrónico", "password": "Contraseña", "sign_in": "Entrar",
           "status": "Estado", "overdue": "vencido", "show": "Mostrar", "find": "Buscar préstamos",
           "download": "Descargar estos préstamos (CSV)",
           "pay": "Pagar lo adeudado ahora en estos préstamos", "confirm": "Pagar",
           "org": "Su organización", "name": "Nombre del token", "create": "Crear el token",
           "once": "se muestra solo esta vez", "retain": "qué pagar o retener",
           "add": "Añadir una propiedad", "thanks": "Gracias: recibimos su pago."},
    "en": {"email": "Email", "password": "Password", "sign_in": "Sign in",
           "status": "Status", "overdue": "overdue", "show": "Show", "find": "Find loans",
           "download": "Download these loans (CSV)",
           "pay": "Pay what is due now on these loans", "confirm": "Pay",
           "org": "Your organisation", "name": "Name of the token",
           "create": "Create the token", "once": "shown only this once",
           "retain": "what to pay or retain", "add": "Add a parcel",
           "thanks": "Thank you: your payment was received."},
}


def _clean(page) -> None:  # noqa: ANN001
    violations = axe_violations(page)
    assert violations == [], f"{page.url}: {violations}"
    errors = htmlcs_errors(page)
    assert errors == [], f"{page.url}: {errors}"


def _choose_language(page, lang: str) -> None:  # noqa: ANN001
    if page.locator("html").get_attribute("lang") != lang:
        page.locator(f"header button[lang='{lang}']").click()
    expect(page.locator("html")).to_have_attribute("lang", lang)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_j7_lender_filters_exports_pays_and_creates_a_token(live, page, lang):
    _app, url = live
    w = WORDS[lang]
    page.goto(url + "/cuenta/entrar")
    _choose_language(page, lang)
    page.get_by_label(w["email"]).fill("lender@demo.pr")
    page.get_by_label(w["password"], exact=True).fill("Distrito2026!")
    page.locator("main").get_by_role("button", name=w["sign_in"]).click()
    second_step(page)  # the bank's administrator signs in with two steps
    page.wait_for_url("**/mis-propiedades**")
    page.goto(url + "/prestamista/prestamos")
    assert w["add"] not in page.locator("header").inner_text()  # the menu: a lender's only
    _clean(page)
    shot(page, f"loans-{lang}-1280", "J7_SHOTS")
    main = page.locator("main")
    main.locator("summary", has_text=w["find"]).click()  # the filters, folded until used
    main.get_by_label(w["status"], exact=True).select_option("overdue")
    main.get_by_role("button", name=w["show"], exact=True).click()
    page.wait_for_url("**estado=overdue**")
    rows = main.locator("tbody tr")
    rows_before = rows.count()
    assert rows_before > 0
    for i in range(rows.count()):
        assert w["overdue"] in rows.nth(i).inner_text()
    _clean(page)
    with page.expect_download() as dl:
        main.get_by_role("link", name=w["download"]).click()
    text = Path(dl.value.path()).read_text(encoding="utf-8-sig")
    assert len(text.strip().splitlines()) == rows.count() + 1
    # the phone: stacked rows, no sideways scroll
    page.set_viewport_size({"width": 375, "height": 800})
    shot(page, f"loans-{lang}-375", "J7_SHOTS")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.set_viewport_size({"width": 1280, "height": 900})
    main.get_by_role("button", name=w["pay"]).click()
    # One payment prepared by the bill file's path: a file of the filtered loans, its
    # exceptions report, then the confirmation.
    page.wait_for_url("**/prestamista/facturas/*/pagos/*")
    assert int(page.locator("#pay-count").inner_text()) == rows_before
    assert axe_violations(page) == []
    shot(page, f"pay-{lang}-1280", "J7_SHOTS")
    total = page.locator("#bill-payment").get_attribute("data-total")
    # The payment comes a minute after the figures were computed (the tests' clock stands
    # still unless moved): its ledger entries are newer, so the figures are computed again.
    clock.set_fixed(clock.now() + timedelta(minutes=1))
    page.locator("#pay-confirm").click()  # "Pay $… in one payment": the sandbox's checkout
    page.wait_for_url("**/pagos/prueba/**")
    page.locator("button[value='card_succeeds']").click()
    expect(page.locator("main")).to_contain_text(w["thanks"])
    assert f"{float(total):,.2f}" in page.locator("main").inner_text()
    # paid: the overdue loans' figures are computed again (a ledger entry is newer)
    page.goto(url + "/prestamista/prestamos?estado=overdue")
    assert page.locator("main tbody tr").count() < rows_before
    # a loan's page: what to pay or retain per bill
    page.goto(url + "/prestamista/prestamos")
    page.locator("main tbody tr th a").first.click()
    page.wait_for_url(re.compile(r".*/prestamista/prestamos/\d+$"))
    assert w["retain"] in page.locator("main").inner_text().lower()
    _clean(page)
    shot(page, f"loan-{lang}-1280", "J7_SHOTS")
    page.set_viewport_size({"width": 375, "height": 800})
    shot(page, f"loan-{lang}-375", "J7_SHOTS")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.set_viewport_size({"width": 1280, "height": 900})
    # the organisation: a token, shown once
    page.goto(url + "/prestamista/prestamos")
    page.locator("main").get_by_role("link", name=w["org"], exact=True).click()
    page.wait_for_url("**/prestamista/organizacion")
    _clean(page)
    page.locator("main").get_by_label(w["name"]).fill("Escrow " + lang)
    page.locator("main").get_by_role("button", name=w["create"]).click()
    secret = page.locator("#new-token").input_value()
    assert secret.startswith("pdl_") and w["once"] in page.locator("main").inner_text()
    _clean(page)
    shot(page, f"org-{lang}-1280", "J7_SHOTS")
    page.set_viewport_size({"width": 375, "height": 800})
    shot(page, f"org-{lang}-375", "J7_SHOTS")
    wide = page.evaluate("""() => [...document.querySelectorAll('main *')]
        .filter(e => e.getBoundingClientRect().right > 375)
        .map(e => e.tagName + '.' + e.className)""")  # what overflows, if anything
    assert page.evaluate("document.documentElement.scrollWidth") <= 375, wide[:8]
    page.reload()
    assert secret not in page.content()  # shown once
