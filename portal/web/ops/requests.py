"""Each request's id, log line and metrics; the proxy's hops; Sentry (see `__init__`)."""

from __future__ import annotations

import logging
import re
import time
import uuid

from flask import Flask, g, request
from werkzeug.middleware.proxy_fix import ProxyFix

from portal.operations import logs, metrics

log = logging.getLogger("portal.request")

_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
UNMATCHED = "<unmatched>"


def request_id() -> str:
    """This request's id: the client's (a balancer's) `X-Request-ID` when it is a plain
    token of at most 128 characters, else a new one (128 random bits in hexadecimal)."""
    rid = g.get("request_id")
    if rid is None:
        given = request.headers.get("X-Request-ID", "")
        rid = g.request_id = given if _REQUEST_ID.match(given) else uuid.uuid4().hex
    return rid


def _start() -> None:
    g.request_started = time.perf_counter()


def _user_id() -> int | None:
    user = g.get("_login_user")  # only if the request loaded it: never a query here
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return getattr(user, "id", None)


def _finish(response):  # noqa: ANN001, ANN202 - Flask's response
    """The response's `X-Request-ID`, the request's metrics and its log line (built only
    when the log takes it: `portal.request` at INFO, as production's JSON log does)."""
    started = g.get("request_started")
    seconds = time.perf_counter() - started if started is not None else 0.0
    rule = request.url_rule
    route = rule.rule if rule is not None else UNMATCHED
    rid = request_id()
    response.headers["X-Request-ID"] = rid
    status = response.status_code
    metrics.observe(request.method, route, status, seconds)
    if log.isEnabledFor(logging.INFO):
        log.info("request", extra={
            "method": request.method, "route": route, "path": request.path,
            "status": status, "duration_ms": round(seconds * 1000, 1),
            "request_id": rid, "user_id": _user_id(), "client": request.remote_addr})
    return response


def init_app(app: Flask) -> None:
    hops = int(app.config.get("TRUSTED_PROXIES") or 0)
    if hops:
        # The last `hops` entries of X-Forwarded-For (and -Proto) are the proxies' own: the
        # client is the one they name; anything a client forged before them is ignored.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]
    app.before_request_funcs.setdefault(None, []).insert(0, _start)
    app.after_request_funcs.setdefault(None, []).append(_finish)
    fmt = app.config.get("LOG_FORMAT") or ("json" if app.config.get("PORTAL_ENV") ==
                                           "production" else "")
    if fmt:
        logs.configure(fmt)
    dsn = app.config.get("SENTRY_DSN")
    if dsn:
        import sentry_sdk

        sentry_sdk.init(dsn=dsn, environment=app.config.get("PORTAL_ENV") or "development",
                        traces_sample_rate=0.0)  # no personal data: the default
