"""Links and hosts come from the configuration (PORTAL_BASE_URL), never from a request's
Host: a reset link cannot be pointed at another site, and other hosts are refused."""

from __future__ import annotations

import email
import re
import threading
import urllib.request

import pytest
from flask import url_for

from tests.support.app import make_app
from tests.support.pages import outbox

BASE = "https://portal.example.pr"
PASSWORD = "Tortuga verde bajo la lluvia"


@pytest.fixture
def prod_app(tmp_path, schema_template, fixed_today):  # noqa: ANN001, ANN201
    """As deployed: no SERVER_NAME, PORTAL_BASE_URL set, no CSRF field to scrape."""
    from portal.db import UnitOfWork, reset_databases
    from portal.people import users
    from portal.web.data import database
    app = make_app(tmp_path, schema_template, SERVER_NAME=None, PORTAL_BASE_URL=BASE,
                   WTF_CSRF_ENABLED=False)
    with app.app_context(), UnitOfWork(database()) as w:
        user = users.register(w, email="ana@example.com", password=PASSWORD, name="Ana")
        users.confirm_email(w, user.id)
    yield app
    reset_databases()


def _links(app) -> list[str]:  # noqa: ANN001
    out = []
    for path in outbox(app):
        body = email.message_from_bytes(path.read_bytes()).get_payload(decode=True).decode()
        out += re.findall(r"https?://\S+", body)
    return out


def test_reset_request_for_another_host_is_refused_and_never_links_there(prod_app):
    client = prod_app.test_client()
    r = client.post("/cuenta/olvide", data={"email": "ana@example.com"},
                    headers={"Host": "attacker.example"})
    assert r.status_code == 400
    assert not any("attacker.example" in link for link in _links(prod_app))


def test_reset_link_uses_the_configured_base(prod_app):
    client = prod_app.test_client()
    r = client.post("/cuenta/olvide", data={"email": "ana@example.com"},
                    headers={"Host": "127.0.0.1:5000"})
    assert r.status_code == 303
    [link] = _links(prod_app)
    assert link.startswith(BASE + "/cuenta/nueva-contrasena/")


@pytest.mark.parametrize("host", ["attacker.example", "portal.example.pr.attacker.example",
                                  "evil.localhost", "attacker.example:443"])
def test_other_hosts_are_refused_with_the_400_page(prod_app, host, caplog):
    for method in ("get", "post"):
        r = getattr(prod_app.test_client(), method)("/cuenta/olvide?lang=en",
                                                    headers={"Host": host})
        assert r.status_code == 400
        assert "<html" in r.get_data(as_text=True) and host not in r.get_data(as_text=True)
    # A refused host is an expected answer, not an error of the portal's: nothing logged
    # with a traceback (the 400 page's layout cannot build links for that host).
    assert not [rec for rec in caplog.records if rec.exc_info], caplog.text[-2000:]


@pytest.mark.parametrize("host", ["portal.example.pr", "localhost", "127.0.0.1:5000"])
def test_the_portal_and_local_hosts_are_served(prod_app, host):
    assert prod_app.test_client().get("/", headers={"Host": host}).status_code == 200


def test_urls_built_in_a_request_are_on_the_base(prod_app):
    """A provider's return address (`url_for(..., _external=True)`) and routing's own
    redirects take the configured scheme and host, not the request's."""
    with prod_app.test_request_context("/", headers={"Host": "localhost"}):
        assert url_for("people.sign_in", _external=True) == BASE + "/cuenta/entrar"
        assert url_for("people.sign_in") == "/cuenta/entrar"
    r = prod_app.test_client().get("/arrendamientos", headers={"Host": "localhost"})
    assert r.status_code == 308 and r.headers["Location"] == BASE + "/arrendamientos/"


def test_default_base_is_what_make_run_serves(tmp_path, schema_template, fixed_today):  # noqa: ANN001
    from portal import config
    assert config.settings({}, with_key=False)["PORTAL_BASE_URL"] == "http://127.0.0.1:5000"
    app = make_app(tmp_path, schema_template, SERVER_NAME=None, PORTAL_BASE_URL=None)
    assert app.config["PORTAL_BASE_URL"] == "http://127.0.0.1:5000"
    assert sorted(app.config["TRUSTED_HOSTS"]) == ["127.0.0.1", "localhost"]


def test_no_server_name_or_version(prod_app):
    """The app adds no `Server`; `portal serve`'s handler says only "portal"."""
    from werkzeug.serving import make_server

    from portal.app import QuietHandler
    assert "Server" not in prod_app.test_client().get("/").headers
    httpd = make_server("127.0.0.1", 0, prod_app, threaded=True, request_handler=QuietHandler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    try:
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(f"http://127.0.0.1:{httpd.server_port}/", timeout=10) as resp:
            assert resp.headers.get_all("Server") == ["portal"]
            assert "Strict-Transport-Security" not in resp.headers  # plain http
    finally:
        httpd.shutdown()
        thread.join(5)
