"""J9 in a real browser, in Spanish and in English: staff run collections for the demo
District (the page says the next day the run starts by itself; the owners' copies to print
are listed) and record a demand's mailing; the owner sees the collection timeline with the
amount that stops the next step. Every page axe-clean, at 1,280 and 375 px (no sideways
scroll). Screenshots go to $J9_SHOTS when it is set (for review; not compared)."""

from __future__ import annotations

import pytest

from tests.support.browser import REASON, clean_at_widths, sign_in
from tests.support.demand_copies import lease_private_parcels

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WORDS = {
    "es": {"start": "Iniciar el proceso de cobro", "finished": "Terminado",
           "record": "Registrar el envío", "recorded": "Se registró el envío",
           "number": "Número del correo certificado", "timeline": "Cronología del cobro",
           "mailed": "Requerimiento enviado por correo certificado", "pay": "Pague",
           "next_run": "el próximo es el 11 de diciembre de 2026",
           "copies": "Copias para los dueños por imprimir", "copy": "1 copia preparada"},
    "en": {"start": "Start the collections run", "finished": "Finished",
           "record": "Record the mailing", "recorded": "The mailing is recorded",
           "number": "Certified-mail number", "timeline": "Collection timeline",
           "mailed": "Demand mailed by certified mail", "pay": "Pay",
           "next_run": "the next is on December 11, 2026",
           "copies": "Owners' copies to print", "copy": "1 copy queued"},
}
SHOTS = "J9_SHOTS"  # the environment variable naming the screenshots' folder


@pytest.mark.parametrize("lang", ["es", "en"])
def test_j9_staff_run_collections_and_the_owner_sees_the_timeline(live, page, lang):
    from portal.jobs import queue
    from portal.web.data import database
    app, url = live
    with app.app_context():
        queue.use_immediate(database())
    lease_private_parcels(app)  # R-A17: two owners get a copy (one emailed, one printed)
    try:
        w = WORDS[lang]
        sign_in(page, url, "staff@demo.pr", lang)
        page.goto(f"{url}/personal/cobros?lang={lang}")
        expect(page.locator("#next-run")).to_contain_text(w["next_run"])  # R-A17, by itself
        clean_at_widths(page, f"{lang}-collections", SHOTS)
        page.get_by_role("button", name=w["start"]).click()
        expect(page.locator("main")).to_contain_text(w["finished"])
        page.goto(f"{url}/personal/cobros?lang={lang}")
        expect(page.get_by_role("heading", name=w["copies"])).to_be_visible()
        copies = page.get_by_role("link", name=w["copy"])
        expect(copies).to_have_attribute("href", "/personal/cobros/impresion.pdf?dia=2026-11-30")
        clean_at_widths(page, f"{lang}-collections-copies", SHOTS)
        page.goto(f"{url}/personal/cobros?estado=queued&lang={lang}")
        page.locator("main table a").first.click()
        clean_at_widths(page, f"{lang}-demand", SHOTS)
        page.get_by_label(w["number"]).fill("9400 1000 0000 0000 0001")
        page.get_by_role("button", name=w["record"]).click()
        expect(page.locator("body")).to_contain_text(w["recorded"])
        expect(page.locator("main")).to_contain_text("9400 1000 0000 0000 0001")
        clean_at_widths(page, f"{lang}-demand-mailed", SHOTS)
        page.goto(f"{url}/personal/cobros/tribunal?lang={lang}")
        clean_at_widths(page, f"{lang}-court", SHOTS)
        sign_in(page, url, "owner@demo.pr", lang)
        hrefs = page.eval_on_selector_all(
            "main a[href^='/propiedad/']", "els => els.map(e => e.getAttribute('href'))")
        seen = 0
        for href in dict.fromkeys(h for h in hrefs if h.count("/") == 2):
            page.goto(f"{url}{href}?lang={lang}")
            if page.get_by_role("heading", name=w["timeline"]).count():
                seen += 1
                expect(page.locator("main")).to_contain_text(w["pay"])
                clean_at_widths(page, f"{lang}-owner-timeline-{seen}", SHOTS)
        assert seen, "the delinquent owner sees the collection timeline"
    finally:
        queue.reset()


CORRECTION = {
    "es": {"correct": "Corregir el envío", "corrected": "El envío quedó corregido",
           "refused": "20 o 22 dígitos"},
    "en": {"correct": "Correct the mailing", "corrected": "The mailing is corrected",
           "refused": "20 or 22 digits"},
}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_staff_correct_a_mailing_in_the_browser(live, page, lang):
    """R-A13: a recorded mailing's number corrected on the demand's page: a formula refused
    at its field, then the right number kept and shown; the page axe-clean at both widths."""
    from portal.jobs import queue
    from portal.web.data import database
    app, url = live
    with app.app_context():
        queue.use_immediate(database())
    try:
        w, c = WORDS[lang], CORRECTION[lang]
        sign_in(page, url, "staff@demo.pr", lang)
        page.goto(f"{url}/personal/cobros?lang={lang}")
        page.get_by_role("button", name=w["start"]).click()
        expect(page.locator("main")).to_contain_text(w["finished"])
        page.goto(f"{url}/personal/cobros?estado=queued&lang={lang}")
        page.locator("main table a").first.click()
        page.get_by_label(w["number"]).fill("9400 1000 0000 0000 0001")
        page.get_by_role("button", name=w["record"]).click()
        expect(page.locator("body")).to_contain_text(w["recorded"])
        page.get_by_label(w["number"]).fill('=HYPERLINK("http://evil","x")')
        page.get_by_role("button", name=c["correct"]).click()
        expect(page.locator("main")).to_contain_text(c["refused"])
        clean_at_widths(page, f"{lang}-mailing-correction-refused", SHOTS)
        page.get_by_label(w["number"]).fill("9407 1118 9876 5432 1001 23")
        page.get_by_role("button", name=c["correct"]).click()
        expect(page.locator("body")).to_contain_text(c["corrected"])
        expect(page.locator("main")).to_contain_text("9407 1118 9876 5432 1001 23")
        clean_at_widths(page, f"{lang}-mailing-corrected", SHOTS)
    finally:
        queue.reset()
