"""Prometheus metrics (prometheus_client), read at `GET /metrics`.

- `portal_http_requests_total{method,route,status}`: requests answered, by the route's rule
  (`/cuenta/<id:parcel_id>`, never the parcel's number) and status;
- `portal_http_request_duration_seconds{method,route}`: their latency (a histogram).

gunicorn runs several worker processes: with `PROMETHEUS_MULTIPROC_DIR` set (an empty folder
of the host, emptied before each start, the same for the master and its workers),
prometheus_client's multiprocess mode writes each process's values there and `/metrics` sums
them (`portal/gunicorn_conf.py` marks a dead worker's files). Without it the process's own
registry answers (`portal serve`, the tests).
"""

from __future__ import annotations

import os

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)

REQUESTS = Counter("portal_http_requests", "HTTP requests answered",
                   ["method", "route", "status"])
LATENCY = Histogram("portal_http_request_duration_seconds", "HTTP request latency (seconds)",
                    ["method", "route"],
                    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0))


#: Each (method, route, status)'s counter and histogram, as `labels()` gives them (the same
#: objects each time): kept here, a request does not check and look up its labels again
#: (~10 µs a request). Bounded by the routes (their rules, never a path) and the statuses.
_children: dict[tuple[str, str, int], tuple] = {}


def observe(method: str, route: str, status: int, seconds: float) -> None:
    key = (method, route, status)
    pair = _children.get(key)
    if pair is None:
        pair = (REQUESTS.labels(method, route, str(status)), LATENCY.labels(method, route))
        if len(_children) < 5000:
            _children[key] = pair
    pair[0].inc()
    pair[1].observe(seconds)


def exposition() -> tuple[bytes, str]:
    """The metrics in Prometheus's text format, and its content type."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


def worker_exited(pid: int) -> None:
    """gunicorn's `child_exit`: a dead worker's live gauges are dropped (multiprocess)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.mark_process_dead(pid)
