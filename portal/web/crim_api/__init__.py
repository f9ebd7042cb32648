"""The CRIM's system's JSON API (R-B16): `/api/v1/crim/`, staff API tokens, RFC 9457
problem details (`routes.py`).

One blueprint, `crim_api`, CSRF-exempt (no cookie is read: only the Bearer token)."""

from flask import Blueprint

from portal.web.extensions import csrf

bp = Blueprint("crim_api", __name__, url_prefix="/api/v1/crim")
csrf.exempt(bp)
