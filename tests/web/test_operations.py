"""The operator's routes and the request's bookkeeping (docs/OPERATIONS.md): /healthz,
/readyz naming the failing part, /metrics (and METRICS_ALLOW), the request id and the one
JSON log line per request; none of them needs a sign-in or makes a session row."""

from __future__ import annotations

import json
import logging

import pytest
from sqlalchemy import func, select, text

from portal.db import get_database, reset_databases
from portal.models.security import WebSession
from portal.operations import logs
from tests.support.app import make_app


def _sessions(app) -> int:  # noqa: ANN001
    with get_database(app.config["DATABASE_URL"]).unit_of_work() as w:
        return w.session.scalar(select(func.count()).select_from(WebSession))


def test_health_and_readiness_answer_without_a_session(app, client):
    for path in ("/healthz", "/readyz", "/metrics"):
        r = client.get(path)
        assert r.status_code == 200, path
        assert "Set-Cookie" not in r.headers, path
    assert client.get("/healthz").get_json() == {"status": "ok"}
    ready = client.get("/readyz").get_json()
    assert ready["status"] == "ok" and ready["failing"] == []
    assert set(ready["checks"]) == {"database", "schema", "queue", "storage"}
    assert _sessions(app) == 0


def test_readiness_names_an_unmigrated_schema(app, client):
    with get_database(app.config["DATABASE_URL"]).engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = 'p0001'"))
    r = client.get("/readyz")
    assert r.status_code == 503
    body = r.get_json()
    assert body["failing"] == ["schema"] and "portal db upgrade" in body["checks"]["schema"]


def test_a_newer_release_schema_keeps_the_old_instances_ready(app, client):
    # During a rolling deploy the database is migrated first: a revision this code does not
    # know is a newer release's, and the instances still on this code keep serving.
    with get_database(app.config["DATABASE_URL"]).engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = 'z9999_next_release'"))
    assert client.get("/readyz").status_code == 200


def test_readiness_names_a_redis_that_does_not_answer(tmp_path, schema_template, fixed_today):
    app = make_app(tmp_path, schema_template, REDIS_URL="redis://127.0.0.1:1/0")
    try:
        r = app.test_client().get("/readyz")
        assert r.status_code == 503 and r.get_json()["failing"] == ["queue"]
    finally:
        reset_databases()


def test_metrics_count_requests_by_route_and_status(client):
    client.get("/healthz")
    client.get("/no-such-page")
    body = client.get("/metrics").get_data(as_text=True)
    assert 'portal_http_requests_total{method="GET",route="/healthz",status="200"}' in body
    assert 'route="<unmatched>",status="404"' in body
    assert 'portal_http_request_duration_seconds_bucket{le="0.01",method="GET",route="/healthz"}' \
        in body


def test_metrics_can_be_limited_to_a_network(tmp_path, schema_template, fixed_today):
    app = make_app(tmp_path, schema_template, METRICS_ALLOW="10.1.0.0/16")
    try:
        client = app.test_client()
        inside = client.get("/metrics", environ_base={"REMOTE_ADDR": "10.1.2.3"})
        outside = client.get("/metrics", environ_base={"REMOTE_ADDR": "10.2.2.3"})
        assert (inside.status_code, outside.status_code) == (200, 404)
    finally:
        reset_databases()


def test_the_request_id_is_kept_or_made_and_returned(client):
    assert client.get("/healthz", headers={"X-Request-ID": "lb-42.a"}).headers[
        "X-Request-ID"] == "lb-42.a"
    made = client.get("/healthz", headers={"X-Request-ID": "not a token\u00e9"}).headers[
        "X-Request-ID"]
    assert len(made) == 32 and made != client.get("/healthz").headers["X-Request-ID"]


def test_one_log_line_per_request_with_its_fields(client, caplog):
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="portal.request"):
        client.get("/cuenta/entrar", headers={"X-Request-ID": "abc123"})
    [record] = [r for r in caplog.records if r.name == "portal.request"]
    line = json.loads(logs.json_formatter().format(record))
    assert {k: line[k] for k in ("method", "route", "status", "request_id", "user_id")} == {
        "method": "GET", "route": "/cuenta/entrar", "status": 200, "request_id": "abc123",
        "user_id": None}
    assert isinstance(line["duration_ms"], float)


def test_a_traceback_is_one_json_field():
    logger = logging.getLogger("portal.test_operations")
    try:
        raise ValueError("broken")
    except ValueError:
        record = logger.makeRecord(logger.name, logging.ERROR, __file__, 1, "failed", (),
                                   __import__("sys").exc_info())
    text_ = logs.json_formatter().format(record)
    assert "\n" not in text_
    line = json.loads(text_)
    assert line["message"] == "failed" and "ValueError: broken" in line["exc_info"]


@pytest.mark.usefixtures("fixed_today")
def test_a_signed_in_request_logs_its_user(demo_app, caplog):
    from tests.support.pages import login
    client = login(demo_app, "owner")
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="portal.request"):
        client.get("/mis-propiedades")
    [record] = [r for r in caplog.records if r.name == "portal.request"]
    assert isinstance(record.user_id, int) and record.status == 200
