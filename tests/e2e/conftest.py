"""Browser tests: Playwright driving Debian's Chromium (../shared/guides/TESTING.md); the
fixture `browser` (one Chromium per module) is in tests/conftest.py.

The app is served from the test on a free port (werkzeug's threaded server in a daemon
thread: tests.support.browser.Server). Skipped with a visible reason when Chromium, the
Playwright package or the npm tools (node_modules: axe-core) are absent; `.ci/run` installs
them so CI always runs these.
"""

from __future__ import annotations

import pytest

from portal.db import reset_databases
from tests.support.app import make_app
from tests.support.browser import Server


@pytest.fixture
def live(tmp_path, demo_db, fixed_today):  # noqa: ANN001, ANN201
    """(app, base URL) of the demo District served on a free port."""
    app = make_app(tmp_path, demo_db[0], SERVER_NAME=None)
    app.config["DEMO"] = demo_db[1]
    with Server(app) as server:
        app.config["PORTAL_BASE_URL"] = server.url  # the links in emails: the served address
        yield app, server.url
    reset_databases()


@pytest.fixture
def page(browser):  # noqa: ANN001, ANN201
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  locale="es-PR")
    p = context.new_page()
    p.set_default_timeout(15000)
    yield p
    context.close()
