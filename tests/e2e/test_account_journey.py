"""The account page and the help pages in a real browser, in Spanish and in English:
the owner opens "Your account" from the menu, a wrong telephone is refused
with its message (the error summary takes the focus), a right one is shown in the national
format; the email form sends its link and the page says the account keeps its email until
then; the help pages open from the footer. Every page is axe-clean, HTML_CodeSniffer-clean
and does not scroll sideways at 1,280 and 375 px (`clean_at_widths`)."""

from __future__ import annotations

import pytest

from tests.support.browser import REASON, clean_at_widths, sign_in

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WORDS = {
    "es": {"account": "Su cuenta", "phone": "Teléfono", "save_phone": "Guardar el teléfono",
           "digits": "Ese número tiene muy pocos o demasiados dígitos",
           "saved": "Se guardó su teléfono.", "new_email": "Nuevo correo electrónico",
           "current": "Su contraseña actual", "send": "Envíenme el enlace",
           "sent": "Le enviamos un enlace a", "contact": "Comuníquese con la Autoridad",
           "faq": "Preguntas frecuentes", "privacy": "Aviso de privacidad",
           "a11y": "Accesibilidad", "a11y_h1": "Declaración de accesibilidad"},
    "en": {"account": "Your account", "phone": "Telephone", "save_phone": "Save the telephone",
           "digits": "That number has too few or too many digits",
           "saved": "Your telephone was saved.", "new_email": "New email",
           "current": "Your current password", "send": "Send me the link",
           "sent": "We sent a link to", "contact": "Contact the Authority",
           "faq": "Questions owners ask", "privacy": "Privacy notice",
           "a11y": "Accessibility", "a11y_h1": "Accessibility statement"},
}

ENV = "ACCOUNT_SHOTS"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_account_page(live, page, lang):
    from portal.demo.district import DEMO_PASSWORD
    _app, url = live
    w = WORDS[lang]
    sign_in(page, url, "owner", lang)
    page.get_by_role("navigation").get_by_role("link", name=w["account"]).click()
    page.wait_for_url("**/cuenta")
    expect(page.locator("h1")).to_have_text(w["account"])
    clean_at_widths(page, f"account-{lang}", ENV)

    expect(page.locator("label[for=phone]")).to_have_text(w["phone"])
    page.locator("#phone").fill("123")
    page.get_by_role("button", name=w["save_phone"]).click()
    summary = page.locator("#error-summary")
    expect(summary).to_contain_text(w["digits"])
    expect(summary).to_be_focused()
    expect(page.locator("#phone")).to_have_attribute("aria-invalid", "true")
    clean_at_widths(page, f"account-phone-error-{lang}", ENV)

    page.locator("#phone").fill("939 555 0142")
    page.get_by_role("button", name=w["save_phone"]).click()
    expect(page.locator(".usa-alert--success")).to_contain_text(w["saved"])
    expect(page.locator("#phone")).to_have_value("(939) 555-0142")

    page.get_by_label(w["new_email"]).fill(f"nuevo-{lang}@example.com")
    page.get_by_label(w["current"]).fill(DEMO_PASSWORD)
    page.get_by_role("button", name=w["send"]).click()
    expect(page.locator(".usa-alert--success")).to_contain_text(w["sent"])
    expect(page.locator("main")).to_contain_text("owner@demo.pr")
    clean_at_widths(page, f"account-sent-{lang}", ENV)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_help_pages_from_the_footer(live, page, lang):
    _app, url = live
    w = WORDS[lang]
    page.goto(f"{url}/")
    if lang == "en":  # the header's switch: remembered for the pages that follow
        page.locator("header").get_by_role("button", name="English").click()
        expect(page.locator("html")).to_have_attribute("lang", "en")
    footer = page.locator("footer")
    for link, heading in ((w["contact"], w["contact"]), (w["faq"], w["faq"]),
                          (w["privacy"], w["privacy"]), (w["a11y"], w["a11y_h1"])):
        footer.get_by_role("link", name=link, exact=True).click()
        expect(page.locator("h1")).to_have_text(heading)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        clean_at_widths(page, f"help-{heading}-{lang}", ENV)
    expect(page.locator("main")).to_contain_text("(WCAG) 2.1")
