"""J6 in a real browser, in Spanish and in English (PRODUCT.md): the demo owner reports that
the house was rented out and sees the deadline ("antes del 1 de enero", R-B9), the days left
and what follows (revocation from the next fiscal year, the taxes owed, the R-B12 penalty);
the confirmation gives a report number; every page is axe-clean. The demo lives on
2026-11-30 (the web tests' fixed clock), so the last day is 2026-12-31, 31 days away."""

from __future__ import annotations

import re

import pytest

from tests.support.browser import REASON, axe_violations, htmlcs_errors, sign_in
from tests.support.demo import home_parcel

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WORDS = {
    "es": {"email": "Correo electrónico", "password": "Contraseña", "sign_in": "Entrar",
           "report": "Notificar un cambio", "rented": "Alquilé la propiedad",
           "date": "Fecha del cambio", "details": "Qué hay de nuevo (opcional)",
           "continue": "Continuar", "deadline": "31 de diciembre de 2026",
           "left": "quedan 31 días", "before": "antes del 1 de enero",
           "fy": "año fiscal 2027-2028", "misdemeanor": "delito menos grave",
           "lender": "acreedor hipotecario", "send": "Enviar la notificación",
           "number": "Notificación de cambio C-2026-", "on_time": "A tiempo"},
    "en": {"email": "Email", "password": "Password", "sign_in": "Sign in",
           "report": "Report a change", "rented": "I rented out the property",
           "date": "Date of the change", "details": "What is new (optional)",
           "continue": "Continue", "deadline": "December 31, 2026", "left": "31 days left",
           "before": "before January 1", "fy": "fiscal year 2027-2028",
           "misdemeanor": "misdemeanor", "lender": "lender", "send": "Send the report",
           "number": "Change report C-2026-", "on_time": "On time"},
}


def _choose_language(page, lang: str) -> None:  # noqa: ANN001
    if page.locator("html").get_attribute("lang") != lang:
        page.locator(f"header button[lang='{lang}']").click()
    expect(page.locator("html")).to_have_attribute("lang", lang)


def _no_axe_violations(page) -> None:  # noqa: ANN001
    """axe-core, and HTML_CodeSniffer (WCAG2AA) as the second engine (tests/e2e/test_htmlcs.py)."""
    violations = axe_violations(page)
    assert violations == [], f"{page.url}: {violations}"
    errors = htmlcs_errors(page)
    assert errors == [], f"{page.url}: {errors}"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_j6_owner_reports_the_house_rented_out(live, page, lang):
    app, url = live
    w = WORDS[lang]
    pid = home_parcel(app)
    page.goto(url + "/cuenta/entrar")
    _choose_language(page, lang)
    page.get_by_label(w["email"]).fill("owner@demo.pr")
    page.get_by_label(w["password"], exact=True).fill("Distrito2026!")
    page.locator("main").get_by_role("button", name=w["sign_in"]).click()
    page.wait_for_load_state()
    page.goto(f"{url}/propiedad/{pid}")
    page.locator("main").get_by_role("link", name=w["report"]).click()
    page.wait_for_url(f"**/propiedad/{pid}/cambio")
    main = page.locator("main")
    text = main.inner_text()
    assert w["deadline"] in text and w["left"] in text and w["lender"] in text
    assert w["before"].lower() in text.lower()
    _no_axe_violations(page)
    # Sent empty: a clear message, in the page's language, and the summary takes the focus.
    main.get_by_role("button", name=re.compile(w["continue"])).click()
    expect(page.locator("#error-summary")).to_be_visible()
    assert page.title().startswith("Error")
    _no_axe_violations(page)
    main.locator("label", has_text=w["rented"]).click()  # (USWDS hides the input itself)
    main.get_by_label(w["date"]).fill("2026-11-15")
    main.get_by_label(w["details"]).fill("Alquilada a una familia desde el 15 de noviembre.")
    main.get_by_role("button", name=re.compile(w["continue"])).click()
    page.wait_for_load_state()
    text = main.inner_text()
    assert w["deadline"] in text and w["left"] in text
    assert w["fy"] in text and w["misdemeanor"] in text and "$500.00" in text
    for rule in ("R-B9", "R-B7", "R-B12"):
        assert rule in text, rule
    _no_axe_violations(page)
    main.locator("label[for=attest]").click()  # the attestation after the R-B12 warning
    main.locator("#full_name").fill("María Rivera Ortiz")
    main.get_by_role("button", name=w["send"]).click()
    page.wait_for_url("**/cambios/*")
    text = main.inner_text()
    assert w["number"] in text and w["on_time"] in text and w["fy"] in text
    _no_axe_violations(page)


REVOKE = {
    "es": {"divorce": "Me divorcié", "rule": "R-B5: un matrimonio tiene una sola exoneración",
           "moved": "Me mudé", "upload": "Subir", "review": "Revisar",
           "revoke": "Acusar recibo y revocar la exoneración",
           "revoked": "La exoneración residencial fue revocada", "badge": "Revocad",
           "without": "Sin la exoneración", "warning": "Advertencia (R-B12)"},
    "en": {"divorce": "I divorced", "rule": "R-B5: a couple has one exemption",
           "moved": "I moved out", "upload": "Upload", "review": "Review",
           "revoke": "Acknowledge and revoke the exemption",
           "revoked": "The residential exemption was revoked", "badge": "Revoked",
           "without": "Without the exemption", "warning": "Warning (R-B12)"},
}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_report_with_evidence_revoked_by_the_reviewer(live, page, lang, tmp_path):
    """The form's eight kinds with their rules; the report's page with a document; the
    reviewer's page and its decision; the owner's report and parcel pages after the
    revocation (FY 2026-2027, the year in course, billed without it). axe-clean throughout."""
    from tests.web.test_exemption_revocation import _approve, _png
    app, url = live
    w, r = WORDS[lang], REVOKE[lang]
    pid = home_parcel(app)
    _approve(app, pid)
    sign_in(page, url, "owner", lang)
    page.goto(f"{url}/propiedad/{pid}/cambio")
    main = page.locator("main")
    text = main.inner_text()
    assert r["divorce"] in text and r["rule"] in text
    _no_axe_violations(page)
    page.screenshot(path=str(tmp_path / f"form-{lang}.png"), full_page=True)
    main.locator("label", has_text=r["moved"]).click()
    main.get_by_label(w["date"]).fill("2025-12-01")
    main.get_by_role("button", name=re.compile(w["continue"])).click()
    page.wait_for_load_state()
    main.locator("label[for=attest]").click()
    main.locator("#full_name").fill("María Rivera Ortiz")
    main.get_by_role("button", name=w["send"]).click()
    page.wait_for_url("**/cambios/*")
    report = page.url
    assert r["warning"] in main.inner_text()
    doc = tmp_path / "mudanza.png"
    doc.write_bytes(_png())
    main.locator("#file").set_input_files(str(doc))
    main.get_by_role("button", name=r["upload"]).click()
    page.wait_for_load_state()
    assert "mudanza.png" in main.inner_text()
    _no_axe_violations(page)

    staff = page.context.browser.new_context(viewport={"width": 1280, "height": 900})
    sp = staff.new_page()
    try:
        sign_in(sp, url, "staff", lang)
        sp.goto(report)
        smain = sp.locator("main")
        assert "mudanza.png" in smain.inner_text()
        _no_axe_violations(sp)
        sp.screenshot(path=str(tmp_path / f"reviewer-{lang}.png"), full_page=True)
        smain.get_by_role("button", name=r["revoke"]).click()
        sp.wait_for_load_state()
        assert r["revoked"] in smain.inner_text()
        _no_axe_violations(sp)
    finally:
        staff.close()

    page.goto(report)
    assert r["revoked"] in main.inner_text() and "2026-2027" in main.inner_text()
    _no_axe_violations(page)
    page.goto(f"{url}/propiedad/{pid}")
    text = main.inner_text()
    assert r["badge"] in text and r["without"] in text
    _no_axe_violations(page)
    page.screenshot(path=str(tmp_path / f"owner-{lang}.png"), full_page=True)
    import shutil
    for f in tmp_path.glob("*.png"):
        if f.name != "mudanza.png":
            shutil.copy(f, f"/tmp/revoke26_{f.name}")
