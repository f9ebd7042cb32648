"""The APIs' request quotas (the lenders' and the CRIM's): each request counted against its
quotas (`limited`), what is left of each kept on `g.quotas` and answered as the `RateLimit`
headers (`rate_limit_headers`, an after-request hook)."""

from __future__ import annotations

from typing import Any

from flask import g

from portal.accounts import throttle
from portal.web.lenders_api.answers import problem


def limited(w: Any, name: str, key: str, limit: tuple[int, int]) -> Any:
    """Count the request on `key`; the 429 problem beyond `limit`. What is left of each
    quota is kept for the `RateLimit` headers (g.quotas)."""
    within, left, reset = throttle.hit_with_quota(w, key, *limit)
    g.setdefault("quotas", []).append((name, limit, left, reset))
    if within:
        return None
    seconds = throttle.retry_after(w, key, *limit)
    return problem("rate_limited", {"Retry-After": str(seconds)}, seconds=seconds)


def rate_limit_headers(resp):  # noqa: ANN001, ANN201
    """The quotas this request counted against (IETF draft-ietf-httpapi-ratelimit-headers):
    `RateLimit-Policy: "token";q=120;w=60, "address";q=300;w=60` and what is left of each,
    `RateLimit: "token";r=119;t=42, ...` (r: requests left; t: seconds until more)."""
    quotas = g.get("quotas") or []
    if quotas:
        resp.headers["RateLimit-Policy"] = ", ".join(
            f'"{n}";q={q};w={w}' for n, (q, w), _l, _t in quotas)
        resp.headers["RateLimit"] = ", ".join(
            f'"{n}";r={left};t={t}' for n, _q, left, t in quotas)
    return resp
