"""`/healthz`, `/readyz`, `/metrics` (see the package's docstring)."""

from __future__ import annotations

import ipaddress

from flask import Response, abort, current_app, jsonify, request

from portal.operations import metrics, readiness
from portal.web.ops import bp


def _no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/healthz")
def healthz() -> Response:
    """The process answers (nothing else is asked: a balancer's liveness probe)."""
    return _no_store(jsonify(status="ok"))


@bp.get("/readyz")
def readyz() -> tuple[Response, int]:
    """200 when every part answers, else 503 with the failing parts named."""
    results = readiness.run(current_app.config["DATABASE_URL"], current_app.config.get("REDIS_URL"))
    failing = [name for name, result in results.items() if result != "ok"]
    body = jsonify(status="failing" if failing else "ok", failing=failing, checks=results)
    return _no_store(body), 503 if failing else 200


def _allowed(address: str | None, allow: str) -> bool:
    networks = [n.strip() for n in allow.split(",") if n.strip()]
    if not networks:
        return True
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return False
    return any(ip in ipaddress.ip_network(n, strict=False) for n in networks)


@bp.get("/metrics")
def metrics_page() -> Response:
    """Prometheus's text format; 404 to an address outside METRICS_ALLOW (when set)."""
    if not _allowed(request.remote_addr, current_app.config.get("METRICS_ALLOW") or ""):
        abort(404)
    data, content_type = metrics.exposition()
    return _no_store(Response(data, content_type=content_type))
