"""Every main page fits at 375, 768 and 1,280 px, measured in the browser: nothing
is wider than the viewport, no box's content spills out of it (a fieldset's title, a table
in its wrapper, a card's text), and nothing needs sideways scrolling inside its box. And the
error summary of a form sent with errors takes the focus, links each error to its field and
puts "Error:" first in the title."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.browser import REASON, sign_in
from tests.support.site import pages_for

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WIDTHS = (375, 768, 1280)

#: What the browser measures: elements past the viewport's right or left edge, and boxes
#: whose content is wider than the box (scrollWidth > clientWidth on a block that does not
#: clip, or a scroll wrapper that would have to scroll). Visually hidden text (USWDS's
#: sr-only, the radio inputs kept off-screen) and closed <details> are not drawn, so not
#: measured.
MEASURE = (Path(__file__).parent / "layout.js").read_text()


def _paths(app, role: str) -> list[str]:  # noqa: ANN001
    paths = pages_for(app, role)
    if role in ("owner", "lessee"):
        paths = [*paths, "/pagar"]
    return paths


@pytest.mark.parametrize("role", ["anonymous", "owner", "lessee", "lender", "staff"])
def test_no_element_is_wider_than_the_viewport_or_its_box(live, browser, role):
    app, url = live
    problems: dict[str, list[str]] = {}
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        page.set_default_timeout(15000)
        try:
            if role != "anonymous":
                sign_in(page, url, role)
            for lang in ("es", "en"):
                for path in _paths(app, role):
                    sep = "&" if "?" in path else "?"
                    page.goto(f"{url}{path}{sep}lang={lang}")
                    # The long details too: the schedule and the budget, open.
                    page.evaluate("() => document.querySelectorAll('details')"
                                  ".forEach(d => d.open = true)")
                    found = page.evaluate(MEASURE, width)
                    if found:
                        problems[f"{width} {lang} {path}"] = found
        finally:
            context.close()
    assert problems == {}, problems


def _summary_takes_focus(page) -> None:  # noqa: ANN001
    """The error summary holds the focus. Its `autofocus` is applied at the browser's next
    rendering update after load, not at load: wait for it (up to 5 s), then assert."""
    page.wait_for_function("() => document.activeElement"
                           " && document.activeElement.id === 'error-summary'", timeout=5000)
    assert page.evaluate("() => document.activeElement.id") == "error-summary"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_error_summary_takes_focus_and_links_each_error(live, page, lang):
    _app, url = live
    sign_in(page, url, "owner")
    page.goto(f"{url}/propiedad/reclamar?lang={lang}")
    title = page.title()
    page.locator("#code").fill("x" * 500)
    page.locator("main form [type=submit]").first.click()
    page.wait_for_load_state()
    assert page.title().startswith("Error: ") and page.title()[len("Error: "):] == title
    _summary_takes_focus(page)
    links = page.locator("#error-summary a")
    targets = [links.nth(k).get_attribute("href") for k in range(links.count())]
    assert sorted(targets) == ["#catastro", "#code"]
    for target in targets:
        field = page.locator(target)
        assert field.get_attribute("aria-invalid") == "true"
        described = field.get_attribute("aria-describedby").split()
        assert any(page.locator(f"#{d}").inner_text().strip() for d in described)
    # Following a link lands on its field, ready to type.
    page.locator("#error-summary a[href='#code']").click()
    assert page.evaluate("() => document.activeElement.id") == "code"
    # The long code was kept as typed (no maxlength) and the length is said.
    assert len(page.locator("#code").input_value()) == 500
    assert "40" in page.locator("#error-summary").inner_text()


def test_the_pay_page_error_summary_links_the_amount(live, page):
    _app, url = live
    sign_in(page, url, "owner")
    page.goto(f"{url}/pagar?lang=es")
    amount = page.locator("input[id^=amount-]").first
    key = amount.get_attribute("id").removeprefix("amount-")
    page.locator(f"label[for=amt-{key}]").click()
    amount.fill("999999")
    page.locator("main form.usa-form [type=submit]").last.click()
    page.wait_for_load_state()
    assert page.title().startswith("Error: ")
    _summary_takes_focus(page)
    page.locator(f"#error-summary a[href='#amount-{key}']").click()
    assert page.evaluate("() => document.activeElement.id") == f"amount-{key}"
    assert amount.get_attribute("aria-invalid") == "true"
    assert f"error-{key}" in amount.get_attribute("aria-describedby")
    assert page.locator(f"#amt-{key}").get_attribute("aria-invalid") == "true"
    assert page.locator(f"#account-{key}").get_attribute("aria-describedby") == f"error-{key}"


#: The focus ring's contrast with the background it is drawn on (WCAG 2.4.11's 3:1), for a
#: link or button of the dark header, the grey menu bar, the page and the footer.
FOCUS_CONTRAST = """(selectors) => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((s, v, k) => s + v * [0.2126, 0.7152, 0.0722][k], 0);
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05); };
  const background = (e) => {
    for (let n = e.parentElement; n; n = n.parentElement) {
      const c = getComputedStyle(n).backgroundColor;
      if (c && !c.startsWith('rgba(0, 0, 0, 0)') && c !== 'transparent') return rgb(c);
    }
    return [255, 255, 255];
  };
  const out = {};
  for (const sel of selectors) {
    const e = document.querySelector(sel);
    if (!e) { out[sel] = null; continue; }
    e.focus();
    const s = getComputedStyle(e);
    out[sel] = s.outlineStyle === 'none' ? 0 : ratio(rgb(s.outlineColor), background(e));
  }
  return out;
}"""


def test_the_focus_ring_stands_out_on_every_background(live, page):
    _app, url = live
    sign_in(page, url, "owner")
    page.goto(f"{url}/mis-propiedades")
    page.keyboard.press("Tab")  # keyboard use: :focus-visible applies from here on
    found = page.evaluate(FOCUS_CONTRAST, [
        ".portal-header__home", ".portal-header__tools button", ".portal-nav__link",
        "main a[href^='/propiedad/']", "main .usa-button"])
    assert all(v is not None and v >= 3 for v in found.values()), found


@pytest.mark.parametrize("width", [375, 1280])
def test_the_parcel_page_answers_in_its_first_screen(live, browser, width):
    """On a phone and a desktop the status sentence and the pay button are on the first
    screen (900 px tall), before anything else needs scrolling to."""
    app, url = live
    from tests.support.demo import parcel_ids
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        sign_in(page, url, "owner")
        for pid in parcel_ids(app)["owner"]:
            page.goto(f"{url}/propiedad/{pid}")
            answer = page.locator(".portal-answer__text")
            button = page.locator(f".portal-answer a[href='/pagar?parcela={pid}']")
            assert answer.inner_text().strip(), pid
            box = button.bounding_box()
            assert box is not None and box["y"] + box["height"] <= 900, (pid, box)
    finally:
        context.close()


def test_the_pay_journey_works_from_the_keyboard(live, page):
    """From the parcel page to the review with the keyboard only: the pay button at the top,
    a choice in the parcel's radio group (arrow keys), and the review button."""
    app, url = live
    from tests.support.demo import parcel_ids
    sign_in(page, url, "owner")
    pid = parcel_ids(app)["owner"][1]  # the parcel past due
    page.goto(f"{url}/propiedad/{pid}")
    for _ in range(40):  # Tab to the answer's pay button, then Enter
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.getAttribute('href')") == \
                f"/pagar?parcela={pid}":
            break
    else:
        pytest.fail("the pay button is not reachable with Tab")
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/pagar?parcela={pid}")
    for _ in range(40):  # Tab into the radio group, then the arrow keys choose
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.type") == "radio":
            break
    first = page.evaluate("() => document.activeElement.id")
    page.keyboard.press("ArrowDown")
    chosen = page.evaluate("() => document.activeElement.id")
    assert chosen != first and page.locator(f"#{chosen}").is_checked()
    ring = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert ring != "none" or page.evaluate(
        "() => getComputedStyle(document.activeElement.nextElementSibling, '::before')"
        ".boxShadow") != "none"
    for _ in range(60):  # on to "Review the payment", then Enter
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.type") == "submit":
            break
    page.keyboard.press("Enter")
    page.wait_for_url("**/pagar/revisar")
    assert page.locator("h1").inner_text().strip() in ("Revise su pago", "Review your payment")
