"""The lenders' JSON API (J7): `/api/v1/`, Bearer tokens, RFC 9457 problem details.

One blueprint, `lenders_api`, CSRF-exempt (no cookie is read: see `routes.py`)."""

from flask import Blueprint

from portal.web.extensions import csrf

bp = Blueprint("lenders_api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)
