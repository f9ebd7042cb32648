"""Journeys J1 and J4 in a real browser, in Spanish and in English (PRODUCT.md)."""

from __future__ import annotations

import email
import re
from pathlib import Path

import pytest

from tests.support.browser import REASON, axe_violations

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

PASSWORD = "mi casa en el Condado 2026"
WORDS = {
    "es": {"create": "Crear una cuenta", "name": "Nombre completo",
           "email": "Correo electrónico", "password": "Contraseña",
           "again": "Repita la contraseña", "submit_create": "Crear cuenta",
           "check": "Revise su correo electrónico",
           "confirmed": "Su correo electrónico está confirmado",
           "sign_in": "Entrar", "mine": "Mis propiedades", "add": "Añadir una propiedad",
           "catastro": "Número de catastro", "code": "Código de acceso",
           "add_submit": "Añadir la propiedad", "added": "La propiedad se añadió a su cuenta.",
           "assessment": "Derrama de este año", "schedule": "Calendario de plazos",
           "why": "¿Por qué esta cantidad?", "late": "Cargos por demora",
           "interest": "Intereses a la fecha", "costs": "Costas de cobro",
           "certified": "Correo certificado", "payoff": "Cantidad para saldar",
           "through": "válido hasta el", "left": "quedan", "pay_by": "a más tardar el"},
    "en": {"create": "Create an account", "name": "Full name", "email": "Email",
           "password": "Password", "again": "Repeat the password",
           "submit_create": "Create account", "check": "Check your email",
           "confirmed": "Your email is confirmed", "sign_in": "Sign in", "mine": "My parcels",
           "add": "Add a parcel", "catastro": "Catastro number", "code": "Access code",
           "add_submit": "Add the parcel", "added": "The parcel was added to your account.",
           "assessment": "This year's assessment", "schedule": "Installment schedule",
           "why": "Why this amount?", "late": "Late fees", "interest": "Interest to date",
           "costs": "Collection costs", "certified": "Certified mail",
           "payoff": "Pay-off amount", "through": "good through", "left": "days left",
           "pay_by": "To stop a claim in court, pay"},
}


def _choose_language(page, lang: str) -> None:  # noqa: ANN001
    if page.locator("html").get_attribute("lang") != lang:
        page.locator(f"header button[lang='{lang}']").click()
    expect(page.locator("html")).to_have_attribute("lang", lang)


def _last_link(app) -> str:  # noqa: ANN001
    outbox = sorted(Path(app.config["OUTBOX_DIR"]).glob("*.eml"))
    msg = email.message_from_bytes(outbox[-1].read_bytes())
    body = msg.get_payload(decode=True).decode()
    return re.search(r"https?://\S+", body).group(0)


def _sign_in(page, w: dict, address: str, password: str) -> None:  # noqa: ANN001
    page.get_by_label(w["email"]).fill(address)
    page.get_by_label(w["password"], exact=True).fill(password)
    page.locator("main").get_by_role("button", name=w["sign_in"]).click()
    page.wait_for_load_state()


def _no_axe_violations(page) -> None:  # noqa: ANN001
    violations = axe_violations(page)
    assert violations == [], f"{page.url}: {violations}"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_j1_sign_up_confirm_claim_and_see_why(live, page, lang):
    app, url = live
    w = WORDS[lang]
    catastro, code, _address = app.config["DEMO"].codes[0 if lang == "es" else 1]
    address = f"j1-{lang}@example.com"
    page.goto(url + "/")
    _choose_language(page, lang)
    page.locator("main").get_by_role("link", name=w["create"]).click()
    page.get_by_label(w["name"]).fill("Rosa Santiago")
    page.get_by_label(w["email"]).fill(address)
    page.get_by_label(w["password"], exact=True).fill(PASSWORD)
    page.get_by_label(w["again"]).fill(PASSWORD)
    page.get_by_role("button", name=w["submit_create"]).click()
    expect(page.locator("h1")).to_have_text(w["check"])
    # The email in the outbox, in the reader's language.
    page.goto(_last_link(app))
    expect(page.locator("main")).to_contain_text(w["confirmed"])
    _sign_in(page, w, address, PASSWORD)
    expect(page.locator("h1")).to_have_text(w["mine"])
    page.locator("main").get_by_role("link", name=w["add"]).click()
    page.get_by_label(w["catastro"]).fill(catastro)
    page.get_by_label(w["code"]).fill(code.lower().replace("-", " "))
    page.get_by_role("button", name=w["add_submit"]).click()
    expect(page.locator("main")).to_contain_text(w["added"])
    expect(page.locator("h1")).to_contain_text(catastro)
    main = page.locator("main")
    assert w["assessment"] in main.inner_text()
    # The schedule and the budget are collapsed under the page's first screen: opened here.
    schedule = page.get_by_role("region", name=w["schedule"])
    expect(schedule).to_be_hidden()
    page.locator("#schedule > summary").click()
    assert schedule.locator("tbody tr").count() == 12
    page.locator("#budget > summary").click()
    # Why this year's assessment: the budget (R-A1) and the parcel's share (R-A3).
    why = page.locator("details.portal-why").filter(has_text="R-A3")
    expect(why.locator("li").first).to_be_hidden()
    why.locator("summary").click()
    expect(why.locator("li").filter(has_text="R-A3")).to_be_visible()
    assert "23 LPRA § 6432" in why.inner_text()
    _no_axe_violations(page)
    # Back on the dashboard the parcel is listed with its assessment.
    page.get_by_role("navigation", name=re.compile(".")).first.get_by_role(
        "link", name=w["mine"]).click()
    expect(page.locator("main")).to_contain_text(catastro)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_j4_lessee_checks_a_delinquent_balance(live, page, lang):
    app, url = live
    w = WORDS[lang]
    page.goto(url + "/cuenta/entrar")
    _choose_language(page, lang)
    _sign_in(page, w, "lessee@demo.pr", "Distrito2026!")
    page.locator("main a[href^='/propiedad/']").first.click()
    main = page.locator("main")
    expect(main.locator("h1")).to_be_visible()
    expect(page.locator("dl.portal-amounts")).to_be_visible()
    text = main.inner_text()
    for key in ("late", "interest", "costs", "payoff"):
        assert w[key] in text, key
    amounts = page.locator("dl.portal-amounts > div")
    for key, rules in (("late", ("R-A6", "R-A7")), ("interest", ("R-A8",)),
                       ("costs", ("R-A9",))):
        item = amounts.filter(has=page.locator("dt", has_text=w[key]))
        value = item.locator("dd .portal-money").inner_text()
        assert value != "$0.00", (key, value)
        item.locator("summary").click()
        shown = item.locator("details").inner_text()
        for rule in rules:
            assert rule in shown, (key, rule)
    assert w["certified"] in text
    # The demand's window and the payoff good through a date, with the days left.
    assert w["pay_by"] in text and "R-A13" in (main.text_content() or "")
    # The payoff today, then what it is good through a later day with its interest.
    assert "$" in page.locator("#payoff + p").inner_text()
    payoff = page.locator("#payoff + p + p")
    assert w["through"] in payoff.inner_text() and "$" in payoff.inner_text()
    assert re.search(r"\(\d+ " if lang == "en" else r"\(quedan? \d+", payoff.inner_text())
    _no_axe_violations(page)
    # The statement PDF is one click away.
    with page.expect_download() as dl:
        page.evaluate("() => { const a = document.querySelector(\"a[href*='.pdf']\");"
                      " a.setAttribute('download', ''); a.click(); }")
    assert dl.value.suggested_filename.endswith(".pdf")


def test_core_journeys_work_without_javascript(live, browser):
    """Sign in, the dashboard, a parcel with its explanations opened, the language switch:
    all without JavaScript."""
    app, url = live
    w = WORDS["es"]
    context = browser.new_context(java_script_enabled=False, locale="es-PR",
                                  viewport={"width": 375, "height": 800})
    page = context.new_page()
    try:
        page.goto(url + "/cuenta/entrar")
        _sign_in(page, w, "owner@demo.pr", "Distrito2026!")
        expect(page.locator("h1")).to_have_text(w["mine"])
        page.locator("main li").filter(has_text="vencido").locator(
            "a[href^='/propiedad/']").click()
        item = page.locator("dl.portal-amounts > div").filter(
            has=page.locator("dt", has_text=w["interest"]))
        item.locator("summary").click()
        expect(item.locator("details li").first).to_be_visible()
        assert "R-A8" in item.locator("details").inner_text()
        page.locator("header button[lang='en']").click()
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.locator("main")).to_contain_text("Interest to date")
    finally:
        context.close()
