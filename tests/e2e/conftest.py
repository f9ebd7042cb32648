"""Browser tests: Playwright driving Debian's Chromium (../shared/guides/TESTING.md).

The app is served from the test on a free port (werkzeug's threaded server in a daemon
thread). Skipped with a visible reason when Chromium, the Playwright package or the npm tools
(node_modules: axe-core) are absent; `.ci/run` installs them so CI always runs these.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

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
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")


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


@pytest.fixture(scope="module")
def browser() -> Iterator:
    """One Chromium per test module, closed at its end (only one Playwright may run at a
    time in a process: other suites start their own)."""
    if REASON is not None:
        pytest.skip(REASON)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


def axe_violations(page) -> list[dict]:  # noqa: ANN001
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


# The demo District and the app, shared with the web tests' fixtures.
from tests.web.conftest import demo_db, fixed_today, make_app, schema_db  # noqa: E402, F401


@pytest.fixture
def live(tmp_path, demo_db, fixed_today):  # noqa: ANN001, ANN201, F811
    """(app, base URL) of the demo District served on a free port."""
    from portal.db import reset_databases
    app = make_app(tmp_path, demo_db[0], SERVER_NAME=None)
    app.config["DEMO"] = demo_db[1]
    with Server(app) as server:
        app.config["PORTAL_BASE_URL"] = server.url  # the links in emails: the served address
        yield app, server.url
    reset_databases()


def second_step(page, secret: str | None = None) -> None:  # noqa: ANN001
    """On `/cuenta/verificar`: type the authenticator's code (the demo staff's secret)."""
    from portal.demo.district import STAFF_TOTP_SECRET
    from tests.web.conftest import totp_code
    page.wait_for_url("**/cuenta/verificar**")
    page.locator("#code").fill(totp_code(secret or STAFF_TOTP_SECRET))
    page.locator("main form").first.locator("[type=submit]").click()


@pytest.fixture
def page(browser):  # noqa: ANN001, ANN201
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  locale="es-PR")
    p = context.new_page()
    p.set_default_timeout(15000)
    yield p
    context.close()
