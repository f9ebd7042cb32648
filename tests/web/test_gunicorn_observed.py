"""gunicorn in production's log and metrics shape: two workers, metrics in multiprocess mode
(PROMETHEUS_MULTIPROC_DIR) summed over both at /metrics, one JSON log line per request with
the request id, the client's address through one trusted proxy."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

import pytest

from tests.support.gunicorn import gunicorn_serving

pytest.importorskip("gunicorn", reason="gunicorn is not installed (pip install -e .)")

REQUESTS = 20


def _get(url: str, **headers: str) -> tuple[int, dict[str, str], str]:
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as r:
        return r.status, dict(r.headers), r.read().decode()


def test_metrics_over_two_workers_and_json_request_lines(tmp_path: Path):
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    with gunicorn_serving(tmp_path, PROMETHEUS_MULTIPROC_DIR=str(metrics_dir),
                          LOG_FORMAT="json", TRUSTED_PROXIES="1") as (url, log):
        for n in range(REQUESTS):
            status, headers, _ = _get(url + "/healthz", **{
                "X-Request-ID": f"probe-{n}", "X-Forwarded-For": "203.0.113.9"})
            assert status == 200 and headers["X-Request-ID"] == f"probe-{n}"
        _, _, body = _get(url + "/metrics")
    counted = re.search(r'portal_http_requests_total\{method="GET",route="/healthz",'
                        r'status="200"\} (\S+)', body)
    assert counted is not None and float(counted.group(1)) == REQUESTS
    lines = [json.loads(line) for line in log.read_text().splitlines()
             if line.startswith("{") and '"portal.request"' in line]
    probes = [line for line in lines if line["route"] == "/healthz"]
    assert sorted(line["request_id"] for line in probes) == sorted(
        f"probe-{n}" for n in range(REQUESTS))
    assert {line["client"] for line in probes} == {"203.0.113.9"}
