"""J10 in a real browser, in Spanish and in English: an owner asks for a payoff certificate
on the parcel page, downloads it, and a visitor (no account) verifies its code on the public
page; every page is axe-clean and HTML_CodeSniffer-clean (R-A19, PRODUCT.md J10)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from tests.support.browser import HTMLCS_JS, REASON, axe_violations, htmlcs_errors

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

CODE = re.compile(r"[0-9A-Z]{4}(?:-[0-9A-Z]{4}){6}")
WORDS = {
    "es": {"email": "Correo electrónico", "password": "Contraseña", "sign_in": "Entrar",
           "heading": "Certificación de deuda", "through": "Válida hasta",
           "issue": "Emitir la certificación", "issued": "Se emitió la certificación",
           "download": "Descargar (PDF, español)", "verify": "Verificar",
           "code": "Código de verificación", "valid": "Certificación válida",
           "payoff": "Cantidad para saldar", "unknown": "Ninguna certificación tiene ese código"},
    "en": {"email": "Email", "password": "Password", "sign_in": "Sign in",
           "heading": "Payoff certificate", "through": "Good through",
           "issue": "Issue the certificate", "issued": "Certificate issued",
           "download": "Download (PDF, English)", "verify": "Verify",
           "code": "Verification code", "valid": "Valid certificate",
           "payoff": "Pay-off amount", "unknown": "No certificate has that code"},
}


def _clean(page) -> None:  # noqa: ANN001
    """axe finds no WCAG 2.1 A/AA violation, nor HTML_CodeSniffer (WCAG2AA) an error."""
    violations = axe_violations(page)
    assert violations == [], f"{page.url}: {violations}"
    if HTMLCS_JS.exists():
        errors = htmlcs_errors(page)
        assert errors == [], f"{page.url}: {errors}"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_j10_owner_downloads_and_a_visitor_verifies(live, page, browser, lang, tmp_path):
    app, url = live
    w = WORDS[lang]
    page.goto(f"{url}/cuenta/entrar?lang={lang}")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.get_by_label(w["email"]).fill("owner@demo.pr")
    page.get_by_label(w["password"], exact=True).fill("Distrito2026!")
    page.locator("main").get_by_role("button", name=w["sign_in"]).click()
    page.locator("main a[href^='/propiedad/']").first.click()
    section = page.locator("#certificate")
    expect(section.get_by_role("heading", name=w["heading"])).to_be_visible()
    _clean(page)
    section.get_by_label(w["through"]).fill("2026-12-08")
    section.get_by_role("button", name=w["issue"]).click()
    expect(page.locator("main")).to_contain_text(w["issued"])
    code = CODE.search(page.locator("main").inner_text()).group(0)
    _clean(page)
    with page.expect_download() as dl:
        page.evaluate("() => { const a = document.querySelector(\"main a[href$='.pdf']\");"
                      " a.setAttribute('download', ''); a.click(); }")
    assert page.get_by_role("link", name=w["download"]).count() == 1
    saved = tmp_path / "certificate.pdf"
    dl.value.save_as(saved)
    assert saved.read_bytes().startswith(b"%PDF")
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(saved), "-"], capture_output=True, text=True,
                              check=True).stdout
        assert code in text and f"{url}/verificar" in text and w["heading"] in text
    # a visitor, signed in nowhere, types the code on the public page
    visitor = browser.new_context(viewport={"width": 375, "height": 800}, locale="es-PR")
    try:
        v = visitor.new_page()
        v.goto(f"{url}/verificar?lang={lang}")
        _clean(v)
        v.get_by_label(w["code"]).fill(code.lower().replace("-", " "))
        v.get_by_role("button", name=w["verify"], exact=True).click()
        expect(v.get_by_role("heading", name=w["valid"])).to_be_visible()
        shown = v.locator("main").inner_text()
        assert w["payoff"] in shown and "$" in shown
        _clean(v)
        # on a 375 px phone nothing runs off the side
        assert v.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        # the QR code's address opens the same answer, in the browser's language (this
        # visitor's is Spanish); a wrong code says so plainly
        v.goto(f"{url}/verificar?codigo={code}")
        expect(v.get_by_role("heading", name=WORDS["es"]["valid"])).to_be_visible()
        v.goto(f"{url}/verificar?codigo={code[:-1]}0" if code[-1] != "0"
               else f"{url}/verificar?codigo={code[:-1]}1")
        expect(v.locator("main")).to_contain_text(WORDS["es"]["unknown"])
        _clean(v)
    finally:
        visitor.close()
