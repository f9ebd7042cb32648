"""axe-core (WCAG 2.1 A and AA) finds no violation on any page, for every role, in both
languages; and at 320 px wide (WCAG 1.4.10 reflow: 1,280 px at 400 % zoom) no page scrolls
sideways."""

from __future__ import annotations

import pytest

from tests.support.browser import REASON, axe_violations, every_page, sign_in
from tests.support.demo import add_loans
from tests.support.site import pages_for

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

@pytest.mark.parametrize("role", ["anonymous", "owner", "lessee", "lender", "staff"])
def test_no_axe_violation_on_any_page(live, page, role):
    problems = {}
    for lang, path in every_page(live, page, role):
        found = axe_violations(page)
        if found:
            problems[f"{lang} {path}"] = found
    assert problems == {}, problems


def test_no_axe_violation_on_a_large_portfolio(live, page):
    """A bank with more loans than a page: the dashboard's count and link, the list's pages."""
    app, url = live
    add_loans(app, 75)
    sign_in(page, url, "lender")
    problems = {}
    for lang in ("es", "en"):
        for path in ("/mis-propiedades", "/prestamista/prestamos?page=2"):
            page.goto(f"{url}{path}{'&' if '?' in path else '?'}lang={lang}")
            found = axe_violations(page)
            if found:
                problems[f"{lang} {path}"] = found
    assert page.locator("#loans-apart-heading").count() == 0  # (the list page)
    page.goto(f"{url}/mis-propiedades")
    assert page.locator("#loans-apart-heading").is_visible()
    assert problems == {}, problems


@pytest.mark.parametrize("role", ["anonymous", "owner", "lessee", "lender", "staff"])
def test_reflows_at_320_px(live, browser, role):
    app, url = live
    context = browser.new_context(viewport={"width": 320, "height": 800})
    page = context.new_page()
    wide = {}
    try:
        if role != "anonymous":
            sign_in(page, url, role)
        for path in pages_for(app, role):
            page.goto(url + path)
            width = page.evaluate("() => document.documentElement.scrollWidth")
            if width > 320:
                wide[path] = width
        assert wide == {}, f"wider than 320 px: {wide}"
    finally:
        context.close()
