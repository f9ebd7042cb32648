"""The webhooks in a real browser, in Spanish and English: the demo bank's administrator adds a
webhook endpoint and sees its signing secret once (axe-clean, nothing wider than a 375 px
phone); and on the staff's roll pages no amount is broken across lines, at 375 and 1,280 px
(`.portal-money`: white-space nowrap)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.browser import REASON, axe_violations, sign_in

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

MEASURE = (Path(__file__).parent / "layout.js").read_text()
#: The amounts whose text falls on more than one line.
BROKEN_AMOUNTS = """() => [...document.querySelectorAll('.portal-money')].filter(e => {
  const r = document.createRange(); r.selectNodeContents(e);
  return new Set([...r.getClientRects()].filter(x => x.width > 0)
                 .map(x => Math.round(x.top))).size > 1;
}).map(e => e.textContent.trim())"""
WORDS = {"es": {"url": "Dirección (https)", "add": "Añadir la dirección receptora",
                "secret": "El secreto de firma de la dirección receptora"},
         "en": {"url": "Address (https)", "add": "Add the endpoint",
                "secret": "The endpoint's signing secret"}}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_an_administrator_adds_a_webhook_endpoint(live, browser, lang):
    _app, url = live
    w = WORDS[lang]
    for width in (375, 1280):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        page.set_default_timeout(15000)
        try:
            sign_in(page, url, "lender", lang)
            page.goto(f"{url}/prestamista/webhooks?lang={lang}")
            assert axe_violations(page) == []
            page.get_by_label(w["url"]).fill(f"https://bank.example/events-{width}")
            page.get_by_role("button", name=w["add"]).click()
            expect(page.locator("main")).to_contain_text(w["secret"])
            assert page.locator("#new-secret").input_value().startswith("whsec_")
            assert axe_violations(page) == []
            assert page.evaluate(MEASURE, width) == []
        finally:
            context.close()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_no_amount_on_the_roll_pages_breaks_across_lines(live, browser, lang):
    _app, url = live
    for width in (375, 1280):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        page.set_default_timeout(15000)
        try:
            sign_in(page, url, "staff", lang)
            for path in ("/personal/tasacion", "/personal/presupuestos"):
                page.goto(f"{url}{path}?lang={lang}")
                assert page.locator(".portal-money").count() > 0, path
                assert page.evaluate(BROKEN_AMOUNTS) == [], (width, path)
                found = page.evaluate(MEASURE, width)
                assert found == [], "\n".join([str(width), path, *found])
        finally:
            context.close()
