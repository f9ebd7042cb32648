"""The lender's form of one certification in a real browser, in Spanish and in English: the
bank's user opens it from the upload page, files one home where only a second cousin lives
(beyond R-B7's degrees) and reads the batch's page: the row refused with R-B7 and the core's
reason in the page's language; then one home where the owner's son lives, delivered ten
days ago: accepted, and its receipt dated the delivery. The column guide lists the
relationships. Every page clean under axe and HTML_CodeSniffer at 1,280 and 375 px, and
valid under vnu. Screenshots go to $LENDER_BATCH_SHOTS when set (for review)."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest

from portal import clock
from tests.e2e.test_lender_batches_journey import _check
from tests.support.browser import REASON, second_step
from tests.support.html import vnu_errors, vnu_missing
from tests.support.lenders import add_homes

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WORDS = {
    "es": {"email": "Correo electrónico", "password": "Contraseña", "sign_in": "Entrar",
           "one": "Radicar una certificación", "loan": "Número de préstamo",
           "catastro": "Número de catastro", "fy": "Año fiscal",
           "delivery": "Día en que el dueño le entregó la certificación firmada",
           "owners": "Dueños que reclaman la casa (como constan en el registro, separados por |)",
           "occupant": "¿Quién vive en la vivienda?", "family": "Solo la familia de los dueños",
           "relationship": "El parentesco de la familia con el dueño",
           "cousin": "primo segundo o prima segunda", "son": "hijo o hija",
           "officer": "Nombre completo del oficial que certifica",
           "attest": "Certifico que el acreedor tiene la certificación que firmó el dueño",
           "file": "Radicar la certificación",
           "refused": "La certificación no cumple con R-B7: Quienes viven en la casa no son "
                      "familia del dueño",
           "guide": "Qué contiene cada columna (guía de columnas, en español y en inglés)",
           "delivered": "Entregada por el dueño al acreedor el"},
    "en": {"email": "Email", "password": "Password", "sign_in": "Sign in",
           "one": "File one certification", "loan": "Loan number",
           "catastro": "Catastro number", "fy": "Fiscal year",
           "delivery": "Day the owner delivered the signed certification to you",
           "owners": "Owners who claim the home (as on record, separated by |)",
           "occupant": "Who lives in the home?", "family": "Only the owners' family",
           "relationship": "The family's relationship to the owner",
           "cousin": "second cousin", "son": "son or daughter",
           "officer": "Full name of the officer who attests",
           "attest": "I attest that the lender holds the certification the owner signed",
           "file": "File the certification",
           "refused": "The certification does not meet R-B7: The people who live in the home "
                      "are not the owner's family",
           "guide": "What each column holds (column guide, in Spanish and English)",
           "delivered": "Delivered by the owner to the lender on"},
}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_one_certification_by_form_refused_then_filed(live, page, lang, tmp_path):
    from portal.jobs import queue
    from portal.web.data import database
    app, url = live
    w = WORDS[lang]
    folder = Path(os.environ.get("LENDER_BATCH_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    pages: list[Path] = []
    with app.app_context():
        queue.use_immediate(database())
    homes = add_homes(app, 2, prefix="093" if lang == "es" else "094")
    try:
        page.goto(f"{url}/cuenta/entrar?lang={lang}")
        page.get_by_label(w["email"]).fill("lender@demo.pr")
        page.get_by_label(w["password"], exact=True).fill("Distrito2026!")
        page.locator("main").get_by_role("button", name=w["sign_in"]).click()
        second_step(page)
        page.wait_for_url("**/mis-propiedades")
        main = page.locator("main")
        for k, (relation, expected) in enumerate(((w["cousin"], "refused"),
                                                  (w["son"], "accepted"))):
            home = homes[k]
            page.goto(f"{url}/prestamista/certificaciones/lote?lang={lang}")
            main.get_by_role("link", name=w["one"]).click()
            expect(page.locator("html")).to_have_attribute("lang", lang)
            if k == 0:
                _check(page, "one-form", lang, folder, pages)
            page.get_by_label(w["loan"], exact=True).fill(home["loan_number"])
            page.get_by_label(w["catastro"], exact=True).fill(home["catastro"])
            page.get_by_label(w["fy"], exact=True).fill(home["fiscal_year"])
            delivered = clock.today() - timedelta(days=10)
            page.get_by_label(w["delivery"]).fill(delivered.isoformat())
            page.get_by_label(w["owners"]).fill(home["owners"])
            page.get_by_label(w["occupant"]).select_option(label=w["family"])
            page.get_by_label(w["relationship"]).select_option(label=relation)
            page.get_by_label(w["officer"]).fill("María Ortiz Colón")
            page.locator("label[for=officer_attests]").click()
            main.get_by_role("button", name=w["file"]).click()
            expect(main.locator("table tbody tr")).to_have_count(1)
            if expected == "refused":
                expect(main.locator("table tbody")).to_contain_text(w["refused"])
                _check(page, "one-refused", lang, folder, pages)
            else:
                with page.expect_navigation():  # (the row's link leaves the batch's page)
                    main.locator("table tbody").get_by_role("link").first.click()
                expect(main).to_contain_text(w["delivered"], timeout=15_000)
                _check(page, "one-receipt", lang, folder, pages)
        page.goto(f"{url}/prestamista/certificaciones/lote?lang={lang}")
        main.get_by_role("link", name=w["guide"]).click()
        expect(main).to_contain_text(w["cousin"])
        _check(page, "guide-kinship", lang, folder, pages)
    finally:
        queue.reset()
    if vnu_missing() is None:
        errors = vnu_errors(pages)
        assert errors == [], "\n".join(errors)
