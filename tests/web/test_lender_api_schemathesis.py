"""schemathesis against the running app's own OpenAPI document (J7): every operation of
`/api/v1/openapi.json`, with examples generated from its schemas (valid requests; seeded and
bounded, so the run is the same every time and short), called through the WSGI app with a
write token of the demo bank; the paths' parameters half the time on the bank's own loan,
batch and bill file (the rest mostly 404s). Checks: no 500, each status code and content
type is one the document declares, every body matches its schema, the declared headers are
there
(Retry-After on a 429, Location on a 202)."""

from __future__ import annotations

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.generation import GenerationMode

from portal.jobs import queue
from portal.web.data import database
from portal.web.lenders_api.openapi import OPERATIONS
from tests.support.lenders import batch_rows, new_token
from tests.support.pages import login

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance, response_headers_conformance]
EXAMPLES = 25


@pytest.fixture
def api(demo_app: Flask, monkeypatch):  # noqa: ANN001, ANN201
    """The document as schemathesis reads it from the app, and a write token."""
    from portal.web.lenders_api import routes
    monkeypatch.setattr(routes, "PER_TOKEN", (100_000, 60))
    monkeypatch.setattr(routes, "PER_ADDRESS", (100_000, 60))
    with demo_app.app_context():
        queue.use_immediate(database())
    secret = new_token(login(demo_app, "lender"), "schemathesis", scope="write")
    r = demo_app.test_client().post(
        "/api/v1/certification-batches", json={"rows": batch_rows(demo_app, 3)},
        headers={"Authorization": f"Bearer {secret}", "Idempotency-Key": "seed"})
    assert r.status_code == 202
    first = batch_rows(demo_app, 1)[0]
    made = demo_app.test_client().post(
        "/api/v1/bills", json={}, headers={"Authorization": f"Bearer {secret}"})
    assert made.status_code == 201
    known = {"batch_id": r.get_json()["id"], "loan_number": first["loan_number"],
             "catastro": first["catastro"], "file_id": made.get_json()["file_id"]}
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", demo_app)
    schema.config.generation.update(modes=[GenerationMode.POSITIVE], deterministic=True,
                                    max_examples=EXAMPLES, allow_x00=False)
    yield schema, secret, known
    queue.reset()


@pytest.mark.parametrize(("method", "path"), [(op.method, op.path) for op in OPERATIONS])
def test_the_api_conforms_to_its_document(api, method, path):
    schema, secret, known = api
    operation = schema[path][method.upper()]
    headers = {"Authorization": f"Bearer {secret}"}
    strategy = operation.as_strategy(GenerationMode.POSITIVE)
    names = [n for n in known if "{" + n + "}" in path]
    if names:  # half of them on the bank's own loan or batch, half on anything
        strategy = st.one_of(strategy, operation.as_strategy(
            GenerationMode.POSITIVE, path_parameters={n: known[n] for n in names}))

    @given(case=strategy)
    @settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def call(case) -> None:  # noqa: ANN001
        case.call_and_validate(headers=headers, checks=CHECKS)

    call()
