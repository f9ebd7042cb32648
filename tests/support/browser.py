"""The browser tests' helpers: Debian's Chromium driven by Playwright, the app served on a
free port, axe-core and HTML_CodeSniffer run in the page, signing in, screenshots.

The fixtures (`browser`, `page`, `live`) are in tests/e2e/conftest.py. REASON says why the
browser tests cannot run here (None when they can): Chromium, the Playwright package or the
npm tools (node_modules: axe-core) absent; `.ci/run` installs them so CI always runs these.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .pages import ROLES, totp_code
from .site import pages_for

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
HTMLCS_JS = ROOT / "node_modules" / "html_codesniffer" / "build" / "HTMLCS.js"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def missing() -> str | None:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"Chromium not found at {CHROMIUM} (apt-get install chromium; .ci/run does)"
    if not AXE_JS.exists():
        return "node_modules/axe-core missing (run `make setup`: npm ci)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[dev]')"
    return None


REASON = missing()
#: Skips a browser test, with the reason, where the browser tests cannot run.
needs_browser = pytest.mark.skipif(REASON is not None, reason=REASON or "")


class Server:
    def __init__(self, app):  # noqa: ANN001
        from werkzeug.serving import make_server
        self.httpd = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever,
                                       kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:  # noqa: ANN002
        self.httpd.shutdown()
        self.thread.join(5)


def axe_violations(page) -> list[dict]:  # noqa: ANN001
    # A click that navigates returns once the navigation starts: axe must run on the new
    # document once it has loaded, not on the old one being replaced.
    page.wait_for_load_state("load")
    page.evaluate(AXE_JS.read_text())
    res = page.evaluate("""async (tags) => await axe.run(document,
        {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})""", WCAG)
    return [{"id": v["id"], "help": v["help"],
             "nodes": [n["target"] for n in v["nodes"]][:5]} for v in res["violations"]]


# HTML_CodeSniffer's messages of type 1 ("error") under WCAG2AA, each with a CSS path to its
# element (warnings and notices ask a person to check something: they are not failures).
_HTMLCS_RUN = """() => new Promise((resolve, reject) => {
    const path = (el) => {
        if (!el || el.nodeType !== 1) return '(document)';
        const parts = [];
        for (let e = el; e && e.nodeType === 1 && parts.length < 6; e = e.parentElement) {
            if (e.id) { parts.unshift('#' + e.id); break; }
            let s = e.localName, i = 1;
            for (let p = e.previousElementSibling; p; p = p.previousElementSibling)
                if (p.localName === e.localName) i++;
            parts.unshift(s + ':nth-of-type(' + i + ')');
        }
        return parts.join(' > ');
    };
    // HTML_CodeSniffer 2.5.1 lacks the English text of some messages (its H98 autocomplete
    // errors): name the message by its key instead of failing on the missing text.
    const text = HTMLCS.getTranslation.bind(HTMLCS);
    HTMLCS.getTranslation = (key) => text(key) ?? `(${key})`;
    HTMLCS.process('WCAG2AA', document, () => resolve(HTMLCS.getMessages()
        .filter(m => m.type === HTMLCS.ERROR)
        .map(m => ({code: m.code, selector: path(m.element), message: m.msg}))),
        () => reject(new Error('HTML_CodeSniffer could not run')), 'en');
})"""


def htmlcs_errors(page) -> list[dict]:  # noqa: ANN001
    page.evaluate(HTMLCS_JS.read_text())
    return page.evaluate(_HTMLCS_RUN)


def second_step(page, secret: str | None = None) -> None:  # noqa: ANN001
    """On `/cuenta/verificar`: type the authenticator's code (the demo staff's secret)."""
    from portal.demo.district import STAFF_TOTP_SECRET
    page.wait_for_url("**/cuenta/verificar**")
    page.locator("#code").fill(totp_code(secret or STAFF_TOTP_SECRET))
    page.locator("#code").press("Enter")  # its own form (the page may hold others first)


def sign_in(page, url: str, who: str, lang: str = "es") -> None:  # noqa: ANN001
    """Sign in on the served portal as a demo role (owner, lessee, lender, staff) or a demo
    email, from a fresh sign-in page in `lang`; staff and the bank's administrator through
    the second step. Waits for
    the dashboard."""
    from portal.demo.district import DEMO_PASSWORD
    address = ROLES.get(who, who)
    page.context.clear_cookies()
    page.goto(f"{url}/cuenta/entrar?lang={lang}")
    page.locator("#email").fill(address)
    page.locator("#password").fill(DEMO_PASSWORD)
    page.locator("main button[type=submit], main input[type=submit]").first.click()
    if address.startswith("staff") or address == ROLES["lender"]:  # (the bank's admin too)
        second_step(page)
    page.wait_for_url("**/mis-propiedades")


def every_page(live: tuple[Any, str], page, role: str) -> Iterator[tuple[str, str]]:  # noqa: ANN001
    """Signs in as the role, then opens each of its pages in each language, every "why this
    amount?" open so its content is checked too; yields (lang, path) with the page loaded."""
    app, url = live
    if role != "anonymous":
        sign_in(page, url, role)
    for lang in ("es", "en"):
        for path in pages_for(app, role):
            sep = "&" if "?" in path else "?"
            page.goto(f"{url}{path}{sep}lang={lang}")
            page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
            yield lang, path


def shot(page, name: str, env: str) -> None:  # noqa: ANN001
    """A full-page screenshot `name`.png into the folder the environment variable `env`
    names, when it is set (for review by hand; never compared)."""
    folder = os.environ.get(env)
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def clean_at_widths(page, name: str, env: str) -> None:  # noqa: ANN001
    """The page, every <details> open: no axe-core violation, no HTML_CodeSniffer error, no
    sideways scroll at 1,280 and 375 px (a screenshot of each to $`env` when set)."""
    page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
    assert axe_violations(page) == [], page.url
    assert htmlcs_errors(page) == [], page.url
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= width, f"{page.url} scrolls sideways at {width} px ({wide})"
        shot(page, f"{name}-{width}", env)
    page.set_viewport_size({"width": 1280, "height": 900})
