"""The operator's routes and the request's bookkeeping (docs/OPERATIONS.md).

- `GET /healthz`: the process answers (no database); `GET /readyz`: the database, the
  schema at head, Redis (with REDIS_URL) and the file store, 503 naming the failing part;
  `GET /metrics`: Prometheus (limited to METRICS_ALLOW's networks when set). None of them
  reads the session, so they neither need a sign-in nor create a session row.
- Every request: the client's real address behind TRUSTED_PROXIES proxies (werkzeug's
  ProxyFix, so `request.remote_addr` is the client's for the throttles, the audit log and
  the logs), an `X-Request-ID` (the request's, when it is a plain token, else a new one)
  returned in the response, one log line (`portal.request`) and the metrics.
- Errors reach Sentry when SENTRY_DSN is set.
"""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("ops", __name__)
