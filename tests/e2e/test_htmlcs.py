"""HTML_CodeSniffer (WCAG2AA), a second engine beside axe-core: no message of type "error" on
any page, for every role, in both languages (the pages and fixtures of test_a11y.py).

Warnings and notices ask a person to check something and are not failures. An error judged
a false positive goes into ALLOWED with its reason; everything else fails with its code,
selector and message."""

from __future__ import annotations

import pytest

from tests.support.browser import HTMLCS_JS, REASON, every_page, htmlcs_errors

SKIP = REASON or (None if HTMLCS_JS.exists() else
                  "node_modules/html_codesniffer missing (run `make setup`: npm ci)")
pytestmark = [pytest.mark.browser, pytest.mark.skipif(SKIP is not None, reason=SKIP or "")]

# (path, code, selector) -> why it is not a real problem.
ALLOWED: dict[tuple[str, str, str], str] = {
    ("/cuenta/entrar", "WCAG2AA.Principle1.Guideline1_3.1_3_5.H98", "#email"):
        'autocomplete="username" on the sign-in\'s <input type="email">: HTML allows it since '
        "whatwg/html#5881 (2020; the Nu checker and axe-core accept it), and it is what pairs "
        "the email with the password in password managers. HTML_CodeSniffer 2.5.1 still "
        "applies the older rule (username only on text, search or hidden inputs).",
}


@pytest.mark.parametrize("role", ["anonymous", "owner", "lessee", "lender", "staff"])
def test_no_htmlcs_error_on_any_page(live, page, role):
    problems = {}
    for lang, path in every_page(live, page, role):
        found = [e for e in htmlcs_errors(page) if (path, e["code"], e["selector"]) not in ALLOWED]
        if found:
            problems[f"{lang} {path}"] = found
    assert problems == {}, problems


def test_htmlcs_reports_a_real_error(page):
    """The engine runs and reports: an image without alt text is an error (H37)."""
    page.set_content('<html lang="en"><head><title>t</title></head>'
                     '<body><main><h1>t</h1><img src="x.png"></main></body></html>')
    codes = [e["code"] for e in htmlcs_errors(page)]
    assert "WCAG2AA.Principle1.Guideline1_1.1_1_1.H37" in codes, codes
