"""axe-core (WCAG 2.1 A and AA) finds no violation on any page, for every role, in both
languages; and at 375 px wide no page scrolls sideways."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.e2e.conftest import REASON, axe_violations, second_step
from tests.web.conftest import add_loans
from tests.web.site import pages_for

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

EMAILS = {"owner": "owner@demo.pr", "lessee": "lessee@demo.pr", "lender": "lender@demo.pr",
          "staff": "staff@demo.pr"}


def _sign_in(page, url: str, role: str) -> None:  # noqa: ANN001
    page.goto(url + "/cuenta/entrar?lang=es")
    page.locator("#email").fill(EMAILS[role])
    page.locator("#password").fill("Distrito2026!")
    page.locator("main button[type=submit], main input[type=submit]").first.click()
    if role == "staff":
        second_step(page)
    page.wait_for_url("**/mis-propiedades")


def every_page(live, page, role: str) -> Iterator[tuple[str, str]]:  # noqa: ANN001
    """Signs in as the role, then opens each of its pages in each language, every "why this
    amount?" open so its content is checked too; yields (lang, path) with the page loaded."""
    app, url = live
    if role != "anonymous":
        _sign_in(page, url, role)
    for lang in ("es", "en"):
        for path in pages_for(app, role):
            sep = "&" if "?" in path else "?"
            page.goto(f"{url}{path}{sep}lang={lang}")
            page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
            yield lang, path


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
    _sign_in(page, url, "lender")
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
def test_usable_at_375_px(live, browser, role):
    app, url = live
    context = browser.new_context(viewport={"width": 375, "height": 800})
    page = context.new_page()
    try:
        if role != "anonymous":
            _sign_in(page, url, role)
        for path in pages_for(app, role):
            page.goto(url + path)
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= 375, f"{path} is {width} px wide at 375 px"
    finally:
        context.close()
