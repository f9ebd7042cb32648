"""The Flask application factory: `create_app(test_config=None)`.

Configuration comes from `portal.config.settings()` (the environment, with safe defaults;
the same function every command, the migrations and the mail read): see `portal/config.py`
for the variables (`SECRET_KEY`, `DATABASE_URL`, `MAIL_*`, `OUTBOX_DIR`, `PORTAL_INSTANCE`,
`SESSION_COOKIE_SECURE`, `REDIS_URL`, `PORTAL_BASE_URL`, `AUTHORITY_PHONE`).

Every absolute URL the app builds (`url_for(..., _external=True)`, a redirect's) is on
PORTAL_BASE_URL, whatever Host the request named; a request for a host that is not
PORTAL_BASE_URL's, `localhost` or `127.0.0.1` is refused with a 400 (TRUSTED_HOSTS).
Sessions are kept in the database (`portal.web.session_store`).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Request, request
from werkzeug.routing import MapAdapter
from werkzeug.serving import WSGIRequestHandler

from portal import config
from portal.config import TEMPLATES

log = logging.getLogger(__name__)


CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
       "form-action 'self'; frame-ancestors 'none'")


def _security_headers(app: Flask) -> None:
    @app.after_request
    def headers(response):  # noqa: ANN001 - Flask response
        h = response.headers
        h.setdefault("Content-Security-Policy", CSP)
        h.setdefault("X-Content-Type-Options", "nosniff")
        h.setdefault("X-Frame-Options", "DENY")
        h.setdefault("Referrer-Policy", "same-origin")
        h.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()")
        h.setdefault("Cross-Origin-Opener-Policy", "same-origin")
        if request.is_secure:  # a browser ignores it over plain http; only HTTPS sends it
            h.setdefault("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
        h.pop("Server", None)  # no server name or version from the app (see QuietHandler)
        if response.mimetype == "text/html":
            # Pages show personal figures: never kept in shared caches.
            h.setdefault("Cache-Control", "no-store")
        return response


class Portal(Flask):
    """Flask, with the URLs it builds in a request bound to PORTAL_BASE_URL."""

    def create_url_adapter(self, request: Request | None) -> MapAdapter | None:
        adapter = super().create_url_adapter(request)  # refuses an untrusted Host (400)
        if request is not None and adapter is not None:
            base = urlsplit(str(self.config.get("PORTAL_BASE_URL") or config.DEFAULT_BASE_URL))
            adapter.server_name = base.netloc
            adapter.url_scheme = base.scheme or "http"
        return adapter


class QuietHandler(WSGIRequestHandler):
    """`portal serve`'s request handler: `Server: portal`, no server or Python version."""

    def version_string(self) -> str:
        return "portal"


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the portal. `test_config` overrides anything read from the environment."""
    test_config = dict(test_config or {})
    given = test_config.pop("INSTANCE_PATH", None)
    instance = Path(given).resolve() if given else config.instance_path()
    app = Portal("portal", instance_path=str(instance), template_folder=str(TEMPLATES),
                static_folder=str(Path(__file__).parent / "static"))
    instance.mkdir(parents=True, exist_ok=True)
    app.config.update(config.settings(instance=instance,
                                      with_key="SECRET_KEY" not in test_config))
    if test_config:
        app.config.update(test_config)
    app.config["PORTAL_BASE_URL"] = app.config.get("PORTAL_BASE_URL") or config.DEFAULT_BASE_URL
    if "TRUSTED_HOSTS" not in test_config:
        app.config["TRUSTED_HOSTS"] = config.trusted_hosts(app.config["PORTAL_BASE_URL"])

    from portal import domains  # noqa: F401 - every job kind registered
    from portal.web import errors, extensions, locale, session_store
    from portal.web.converters import IdConverter
    app.url_map.converters["id"] = IdConverter
    locale.init_app(app)
    extensions.init_app(app)
    session_store.init_app(app)
    errors.init_app(app)
    _security_headers(app)
    _register_blueprints(app)
    return app


def _register_blueprints(app: Flask) -> None:
    from portal.web.account.routes import bp as account_bp
    from portal.web.auth.routes import bp as auth_bp
    from portal.web.certificates.routes import bp as certificates_bp
    from portal.web.lender.routes import bp as lender_bp
    from portal.web.lessee.routes import bp as lessee_bp
    from portal.web.staff import (
        board_parameters,  # noqa: F401 - its routes on staff_bp
        roll_import,  # noqa: F401 - its routes on staff_bp
        roll_notices,  # noqa: F401 - its routes on staff_bp (and the account's)
        roll_review,  # noqa: F401 - its routes on staff_bp
        two_factor_reset,  # noqa: F401 - its route on staff_bp
    )
    from portal.web.staff.routes import bp as staff_bp
    for bp in (account_bp, auth_bp, lessee_bp, lender_bp, staff_bp, certificates_bp):
        app.register_blueprint(bp)
    from portal.web.exemption_changes.routes import bp as exemption_changes_bp  # J6
    app.register_blueprint(exemption_changes_bp)
    from portal.web.fragments import amounts_list, deadline, schedule_rows, status_badge, why
    from portal.web.present import full_address, status_css, status_label
    app.jinja_env.globals.update(status_label=status_label, status_css=status_css,
                                 full_address=full_address, why=why,
                                 schedule_rows=schedule_rows, amounts_list=amounts_list,
                                 status_badge=status_badge, deadline=deadline,
                                 authority_phone=lambda: app.config["AUTHORITY_PHONE"])
    from portal.web.payments.routes import bp as payments_bp
    app.register_blueprint(payments_bp)
    from portal.web.collections.routes import bp as collections_bp  # J9
    app.register_blueprint(collections_bp)
    from portal.web.exemption.routes import bp as exemption_bp  # J5
    app.register_blueprint(exemption_bp)
    from portal.web.lender_api.routes import bp as lender_api_bp  # J7: the lenders' API
    app.register_blueprint(lender_api_bp)
    from portal.web.attachments.routes import bp as attachments_bp  # R-A14, R-C1–R-C8
    app.register_blueprint(attachments_bp)
