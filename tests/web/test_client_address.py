"""Behind TRUSTED_PROXIES proxies the client is the address they name (werkzeug's ProxyFix):
the throttle counts per client, the audit row and the log line carry the client's address,
and an X-Forwarded-For a client forged before the proxies changes nothing."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy import select

from portal.db import get_database, reset_databases
from portal.models.audit import AuditRecord
from tests.support.app import make_app
from tests.support.pages import NEW_PASSWORD, PASSWORD, csrf_token, sign_in_form

BALANCER = "10.0.0.5"


@pytest.fixture
def proxied(tmp_path, demo_db, fixed_today):  # noqa: ANN001, ANN201
    app = make_app(tmp_path, demo_db[0], TRUSTED_PROXIES=1, RATELIMIT_ENABLED=True,
                   RATELIMIT_SIGNIN="3 per minute")
    yield app
    reset_databases()


def _client(app, forwarded_for: str):  # noqa: ANN001, ANN202
    """A client whose requests come through the balancer, which says `forwarded_for`."""
    client = app.test_client()
    client.environ_base.update(REMOTE_ADDR=BALANCER, HTTP_X_FORWARDED_FOR=forwarded_for)
    return client


def _forgot(client) -> int:  # noqa: ANN001
    page = client.get("/cuenta/olvide").get_data(as_text=True)
    return client.post("/cuenta/olvide", data={"csrf_token": csrf_token(page),
                                               "email": "nobody@example.com"}).status_code


def test_one_client_throttled_the_next_one_not(proxied):
    first = _client(proxied, "203.0.113.7")
    assert [_forgot(first) for _ in range(4)][-1] == 429
    assert _forgot(_client(proxied, "198.51.100.20")) != 429


def test_a_forged_forwarded_for_does_not_escape_the_throttle(proxied):
    # The client writes its own X-Forwarded-For; the balancer appends the real address.
    codes = [_forgot(_client(proxied, f"192.0.2.{n}, 203.0.113.7")) for n in range(4)]
    assert codes[-1] == 429


def test_without_trusted_proxies_the_header_is_not_believed(tmp_path, demo_db, fixed_today):
    app = make_app(tmp_path, demo_db[0], RATELIMIT_ENABLED=True, RATELIMIT_SIGNIN="3 per minute")
    try:
        codes = [_forgot(_client(app, f"192.0.2.{n}")) for n in range(4)]
        assert codes[-1] == 429  # every request is the balancer's address
    finally:
        reset_databases()


def test_the_audit_row_and_the_log_line_carry_the_client_address(proxied, caplog):
    client = _client(proxied, "192.0.2.66, 203.0.113.7")
    assert sign_in_form(client, "owner@demo.pr", PASSWORD).status_code == 303
    page = client.get("/cuenta/contrasena").get_data(as_text=True)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="portal.request"):
        r = client.post("/cuenta/contrasena", data={
            "csrf_token": csrf_token(page), "current": PASSWORD, "password": NEW_PASSWORD,
            "confirm": NEW_PASSWORD})
    assert r.status_code in (302, 303)
    with get_database(proxied.config["DATABASE_URL"]).unit_of_work() as w:
        row = w.session.scalars(select(AuditRecord).where(
            AuditRecord.action == "user.password_changed")).one()
    assert row.ip == "203.0.113.7"
    lines = [rec for rec in caplog.records if rec.name == "portal.request"]
    assert [(rec.method, rec.client) for rec in lines] == [("POST", "203.0.113.7")]
