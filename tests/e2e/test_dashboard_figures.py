"""The dashboard's figures with their day, in a real browser, in Spanish and in English:
what is due now says the last day to pay it, and the parcel whose notice moved
installments 1-6 to 1 December (040-000-006-42) shows one next payment of six installments
with its last timely day; the page stays axe-clean."""

from __future__ import annotations

import pytest

from tests.support.browser import REASON, axe_violations

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WORDS = {
    "es": {"email": "Correo electrónico", "password": "Contraseña", "sign_in": "Entrar",
           "six": "(6 plazos)", "by": "pague a más tardar el", "tenth": "10 de diciembre de 2026"},
    "en": {"email": "Email", "password": "Password", "sign_in": "Sign in",
           "six": "(6 installments)", "by": "pay by", "tenth": "December 10, 2026"},
}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_dashboard_shows_each_amount_with_its_day(live, page, lang):
    _app, url = live
    w = WORDS[lang]
    page.goto(f"{url}/cuenta/entrar?lang={lang}")
    page.get_by_label(w["email"]).fill("owner@demo.pr")
    page.get_by_label(w["password"], exact=True).fill("Distrito2026!")
    page.locator("main").get_by_role("button", name=w["sign_in"]).click()
    card = page.locator("li", has_text="040-000-006-42")
    nxt = card.locator("[data-figure='next']")
    expect(nxt).to_contain_text(w["six"])
    expect(nxt).to_contain_text(w["tenth"])
    expect(nxt).to_have_attribute("data-by", "2026-12-10")
    owed = page.locator("[data-figure='due-now'][data-by]")
    assert owed.count() > 0, "an owner's parcel owes something today"
    for i in range(owed.count()):
        expect(owed.nth(i)).to_contain_text(w["by"])
    assert page.locator("[data-figure='due-now']:not([data-by])").evaluate_all(
        "els => els.filter(e => Number(e.dataset.amount) > 0).length") == 0
    assert axe_violations(page) == []
