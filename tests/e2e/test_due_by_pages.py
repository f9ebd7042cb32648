"""The last day to pay what is due now, in a real browser, in Spanish and in English, at 1,280
and 375 px: the owner's dashboard and the lender's loans page say it in the reader's words
beside the amount (the core offer's `due_now_by`; tests/web/test_surfaces_agree.py checks
they are the same day), each page clean
under axe and without sideways scroll. DUE_BY_SHOTS=folder keeps the screenshots."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.browser import REASON, axe_violations, sign_in

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

PAY_BY = {"es": "pague a más tardar el", "en": "pay by"}
PAGES = {"owner": "/mis-propiedades", "lender": "/prestamista/prestamos"}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_due_now_and_its_last_day_on_the_dashboard_and_the_loans_page(live, page, lang):  # noqa: ANN001
    _app, url = live
    shots = os.environ.get("DUE_BY_SHOTS")
    for role, path in PAGES.items():
        sign_in(page, url, role, lang)
        page.goto(f"{url}{path}?lang={lang}")
        assert page.locator("html").get_attribute("lang") == lang
        cells = page.locator('[data-figure="due-now"][data-by]')
        assert cells.count() > 0, (role, lang)
        first = cells.first
        by = first.get_attribute("data-by")
        assert PAY_BY[lang] in first.inner_text(), (role, lang, first.inner_text())
        assert first.locator(f'time[datetime="{by}"]').is_visible()
        assert axe_violations(page) == [], (role, lang)
        for width in (1280, 375):
            page.set_viewport_size({"width": width, "height": 900})
            wide = page.evaluate("() => document.documentElement.scrollWidth")
            assert wide <= width, f"{path} scrolls sideways at {width} px ({wide})"
            assert first.locator(f'time[datetime="{by}"]').is_visible()
            if shots:
                Path(shots).mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(Path(shots) / f"{role}-{lang}-{width}.png"),
                                full_page=True)
                holder = first.locator("xpath=ancestor::*[self::tr or self::li][1]")
                holder.screenshot(path=str(Path(shots) / f"{role}-{lang}-{width}-row.png"))
        page.set_viewport_size({"width": 1280, "height": 900})
