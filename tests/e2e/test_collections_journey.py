"""J9 in a real browser, in Spanish and in English: staff run collections for the demo
District and record a demand's mailing; the owner sees the collection timeline with the
amount that stops the next step. Every page axe-clean, at 1,280 and 375 px (no sideways
scroll). Screenshots go to $J9_SHOTS when it is set (for review; not compared)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.e2e.conftest import REASON, axe_violations, htmlcs_errors, second_step

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WORDS = {
    "es": {"start": "Iniciar el proceso de cobro", "finished": "Terminado",
           "record": "Registrar el envío", "recorded": "Se registró el envío",
           "number": "Número del correo certificado", "timeline": "Cronología del cobro",
           "mailed": "Requerimiento enviado por correo certificado", "pay": "Pague"},
    "en": {"start": "Start the collections run", "finished": "Finished",
           "record": "Record the mailing", "recorded": "The mailing is recorded",
           "number": "Certified-mail number", "timeline": "Collection timeline",
           "mailed": "Demand mailed by certified mail", "pay": "Pay"},
}
SHOTS = os.environ.get("J9_SHOTS")


def _shot(page, name: str) -> None:  # noqa: ANN001
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def _clean(page, name: str) -> None:  # noqa: ANN001
    page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
    assert axe_violations(page) == [], page.url
    assert htmlcs_errors(page) == [], page.url
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= width, f"{page.url} scrolls sideways at {width} px ({wide})"
        _shot(page, f"{name}-{width}")
    page.set_viewport_size({"width": 1280, "height": 900})


def _sign_in(page, url: str, address: str, lang: str) -> None:  # noqa: ANN001
    page.context.clear_cookies()
    page.goto(f"{url}/cuenta/entrar?lang={lang}")
    page.locator("#email").fill(address)
    page.locator("#password").fill("Distrito2026!")
    page.locator("main button[type=submit], main input[type=submit]").first.click()
    if address.startswith("staff"):
        second_step(page)
    page.wait_for_url("**/mis-propiedades")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_j9_staff_run_collections_and_the_owner_sees_the_timeline(live, page, lang):
    from portal.jobs import queue
    from portal.web.data import database
    app, url = live
    with app.app_context():
        queue.use_immediate(database())
    try:
        w = WORDS[lang]
        _sign_in(page, url, "staff@demo.pr", lang)
        page.goto(f"{url}/personal/cobros?lang={lang}")
        _clean(page, f"{lang}-collections")
        page.get_by_role("button", name=w["start"]).click()
        expect(page.locator("main")).to_contain_text(w["finished"])
        page.goto(f"{url}/personal/cobros?estado=queued&lang={lang}")
        page.locator("main table a").first.click()
        _clean(page, f"{lang}-demand")
        page.get_by_label(w["number"]).fill("9400 1000 0000 0000 0001")
        page.get_by_role("button", name=w["record"]).click()
        expect(page.locator("body")).to_contain_text(w["recorded"])
        expect(page.locator("main")).to_contain_text("9400 1000 0000 0000 0001")
        _clean(page, f"{lang}-demand-mailed")
        page.goto(f"{url}/personal/cobros/tribunal?lang={lang}")
        _clean(page, f"{lang}-court")
        _sign_in(page, url, "owner@demo.pr", lang)
        hrefs = page.eval_on_selector_all(
            "main a[href^='/propiedad/']", "els => els.map(e => e.getAttribute('href'))")
        seen = 0
        for href in dict.fromkeys(h for h in hrefs if h.count("/") == 2):
            page.goto(f"{url}{href}?lang={lang}")
            if page.get_by_role("heading", name=w["timeline"]).count():
                seen += 1
                expect(page.locator("main")).to_contain_text(w["pay"])
                _clean(page, f"{lang}-owner-timeline-{seen}")
        assert seen, "the delinquent owner sees the collection timeline"
    finally:
        queue.reset()
