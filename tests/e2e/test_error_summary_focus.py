"""The GOV.UK error-summary pattern and a focus ring that can be seen (WCAG 1.4.11, 2.4.3,
3.3.1), in Debian's Chromium, both languages: after a failed submit the focus is on the error
summary even when the URL keeps the skip link's #main-content (a browser skips autofocus
then; static/error-summary.js focuses it); a summary link to a radio group focuses its first
radio; "Error:" leads the title and the fields are marked invalid; and the focus ring of the
parcel page's "Pay" on the overdue box and of an error-summary link is at least 3:1 against
the box it is drawn on, measured from screenshots (tests/support/focus_ring.py)."""

from __future__ import annotations

import re

import pytest

from tests.support.browser import REASON, axe_violations, sign_in
from tests.support.focus_ring import ring_contrast

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WORDS = {"es": {"add": "Añadir", "start_link": "Comenzar la certificación de exoneración "
                "residencial", "start": "Comenzar la certificación",
                "next": "Guardar y continuar", "overdue": "vencido"},
         "en": {"add": "Add", "start_link": "Start the residential exemption certification",
                "start": "Start the certification", "next": "Save and continue",
                "overdue": "overdue"}}


def _focused(page) -> str:  # noqa: ANN001
    return page.evaluate("() => document.activeElement.id || document.activeElement.tagName")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_summary_takes_the_focus_whatever_the_fragment(live, page, lang):
    _, url = live
    sign_in(page, url, "owner", lang)
    page.goto(f"{url}/propiedad/reclamar?lang={lang}#main-content")
    with page.expect_navigation():
        page.locator("main form [type=submit]").click()
    page.wait_for_load_state("load")
    assert page.url.endswith("#main-content")
    expect(page.locator("#error-summary")).to_be_visible()
    assert _focused(page) == "error-summary"
    assert re.match(r"Error:", page.title())
    expect(page.locator("#catastro")).to_have_attribute("aria-invalid", "true")
    assert axe_violations(page) == []
    link = page.locator("#error-summary a").first
    ratio, ring, under = ring_contrast(page, link)
    assert ratio >= 3.0, f"error-summary link: ring {ring} on {under} is {ratio:.2f}:1"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_link_to_a_radio_group_focuses_its_first_radio(live, page, lang):
    _, url = live
    w = WORDS[lang]
    sign_in(page, url, "owner", lang)
    page.locator("main a[href^='/propiedad/']").first.click()
    page.get_by_role("link", name=w["start_link"]).click()
    with page.expect_navigation():
        page.get_by_role("button", name=w["start"]).click()
    with page.expect_navigation():  # the owners: the owner on record is checked already
        page.get_by_role("button", name=w["next"]).click()
    page.locator("#occupants").fill("María Rivera Ortiz")
    with page.expect_navigation():
        page.get_by_role("button", name=w["next"]).click()
    page.goto(page.url.split("#")[0] + "#main-content")  # as after the skip link
    with page.expect_navigation():  # the home's use: no answer
        page.get_by_role("button", name=w["next"]).click()
    page.wait_for_load_state("load")
    assert page.url.endswith("#main-content")
    assert _focused(page) == "error-summary"
    assert re.match(r"Error:", page.title())
    link = page.locator("#error-summary a").first
    expect(link).to_have_attribute("href", "#use-0")
    expect(page.locator("#use-0")).to_have_attribute("aria-invalid", "true")
    link.click()
    assert _focused(page) == "use-0"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_pay_buttons_ring_shows_on_the_overdue_box(live, page, lang):
    _, url = live
    sign_in(page, url, "owner", lang)
    page.locator("main li").filter(has_text=re.compile(WORDS[lang]["overdue"], re.I)).locator(
        "a[href^='/propiedad/']").first.click()
    box = page.locator("main .portal-answer")
    expect(box).to_have_class(re.compile(r"portal-answer--(overdue|claimable|demand)\b"))
    # "Pay", then outlined: "Payment history" and "Autopay"
    buttons = box.locator("a.usa-button")
    expect(buttons).to_have_count(3)
    for i in range(3):
        ratio, ring, under = ring_contrast(page, buttons.nth(i))
        assert ratio >= 3.0, f"button {i}: ring {ring} on {under} is {ratio:.2f}:1"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_ring_shows_on_the_lump_sum_box_and_the_sorted_column(live, page, lang):
    _, url = live
    sign_in(page, url, "owner", lang)
    page.goto(f"{url}/pagar?lang={lang}")
    below = page.locator("main .usa-summary-box a[href^='#lump-']").first  # "Choose it below"
    expect(below).to_be_visible()
    ratio, ring, under = ring_contrast(page, below)
    assert ratio >= 3.0, f"lump sum: ring {ring} on {under} is {ratio:.2f}:1"
    sign_in(page, url, "lender", lang)
    page.goto(f"{url}/prestamista/prestamos?orden=catastro&lang={lang}")
    header = page.locator("main th[aria-sort] a")
    expect(header).to_have_count(1)
    ratio, ring, under = ring_contrast(page, header)
    assert ratio >= 3.0, f"sorted column: ring {ring} on {under} is {ratio:.2f}:1"
