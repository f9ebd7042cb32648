"""The API's reference page (`/api/v1/docs`, J7) in a real browser, in Spanish and English:
made from the OpenAPI document on the server, axe-clean, valid HTML (vnu, when Java is
there), no sideways scroll on a 375 px phone. Screenshots go to $J7_SHOTS when it is set
(looked at by hand, not compared)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.browser import REASON, axe_violations

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

TITLES = {"es": "La API de los prestamistas: referencia", "en": "The lenders' API: reference"}


def test_the_reference_page_is_clean_in_both_languages(live, browser, tmp_path):
    _app, url = live
    pages: list[Path] = []
    shots = os.environ.get("J7_SHOTS")
    for lang in ("es", "en"):
        for width in (1280, 375):
            ctx = browser.new_context(viewport={"width": width, "height": 900})
            try:
                page = ctx.new_page()
                page.goto(f"{url}/api/v1/docs?lang={lang}")
                assert page.locator("html").get_attribute("lang") == lang
                assert page.locator("h1").inner_text() == TITLES[lang]
                assert page.locator("main section h2 code").count() >= 7  # the operations
                assert axe_violations(page) == [], f"{lang} {width}"
                assert page.evaluate("document.documentElement.scrollWidth") <= width
                if width == 1280:
                    path = tmp_path / f"reference-{lang}.html"
                    path.write_text(page.content(), encoding="utf-8")
                    pages.append(path)
                if shots:
                    Path(shots).mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(Path(shots) / f"api-reference-{lang}-{width}.png"),
                                    full_page=True)
            finally:
                ctx.close()
    from tests.support.html import vnu_errors, vnu_missing
    if vnu_missing() is None:
        errors = vnu_errors(pages)
        assert errors == [], "\n".join(errors[:20])
