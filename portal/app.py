"""The Flask application factory: `create_app(test_config=None)`.

Configuration comes from the environment with safe defaults (nothing secret is hard-coded):

| variable | default |
|---|---|
| `SECRET_KEY` | a random key generated once and kept in `instance/secret_key` |
| `DATABASE_URL` | SQLite file `instance/portal.db` |
| `MAIL_SERVER` (+ `MAIL_PORT`, `MAIL_USERNAME`, `MAIL_PASSWORD`, `MAIL_USE_TLS`, ...) | none:  |
|   | emails are written as `.eml` files to `OUTBOX_DIR` (`MAIL_FROM` is the sender) |
| `OUTBOX_DIR` | `instance/outbox/` |
| `PORTAL_INSTANCE` | the `instance/` folder at the top of the repository |
| `SESSION_COOKIE_SECURE` | `1`: cookies only over HTTPS (browsers allow http://127.0.0.1) |
| `REDIS_URL` | none: sign-in rate limits are kept in memory |
| `PORTAL_BASE_URL` | none: links in emails use the request's host |
| `AUTHORITY_PHONE` | `787-555-0100` (the demo's): the number pages give to call the Authority |
"""

from __future__ import annotations

import logging
import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "templates"
TRANSLATIONS = ROOT / "translations"

log = logging.getLogger(__name__)

#: The Authority's phone for the demo (a fictitious 555 number); set AUTHORITY_PHONE.
DEMO_AUTHORITY_PHONE = "787-555-0100"


def _flag(value: str | None, default: bool) -> bool:
    if value is None or value == "":
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def _secret_key(instance: Path) -> str:
    """SECRET_KEY from the environment, else one random key kept in the instance folder."""
    key = os.environ.get("SECRET_KEY")
    if key:
        return key
    path = instance / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        key = secrets.token_urlsafe(48)
        instance.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(key)
        return key


def config_from_env(instance: Path, *, with_key: bool = True) -> dict[str, Any]:
    env = os.environ
    secure = _flag(env.get("SESSION_COOKIE_SECURE"), True)
    return {
        "SECRET_KEY": _secret_key(instance) if with_key else None,
        "DATABASE_URL": env.get("DATABASE_URL") or f"sqlite:///{instance / 'portal.db'}",
        "MAIL_SERVER": env.get("MAIL_SERVER") or None,
        "MAIL_PORT": int(env.get("MAIL_PORT") or 587),
        "MAIL_USERNAME": env.get("MAIL_USERNAME") or None,
        "MAIL_PASSWORD": env.get("MAIL_PASSWORD") or None,
        "MAIL_USE_TLS": _flag(env.get("MAIL_USE_TLS"), True),
        "MAIL_USE_SSL": _flag(env.get("MAIL_USE_SSL"), False),
        "MAIL_FROM": env.get("MAIL_FROM") or "Portal del Distrito <no-reply@localhost>",
        "OUTBOX_DIR": env.get("OUTBOX_DIR") or str(instance / "outbox"),
        "PORTAL_BASE_URL": env.get("PORTAL_BASE_URL") or None,
        "SESSION_COOKIE_SECURE": secure,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "REMEMBER_COOKIE_SECURE": secure,
        "REMEMBER_COOKIE_HTTPONLY": True,
        "REMEMBER_COOKIE_SAMESITE": "Lax",
        "PERMANENT_SESSION_LIFETIME": 60 * 60 * 8,
        "RATELIMIT_STORAGE_URI": env.get("REDIS_URL") or "memory://",
        "RATELIMIT_SIGNIN": env.get("RATELIMIT_SIGNIN") or "10 per minute;50 per hour",
        "RATELIMIT_CLAIM": env.get("RATELIMIT_CLAIM") or "10 per hour",
        "MAX_CONTENT_LENGTH": 2 * 1024 * 1024,
        "WTF_CSRF_TIME_LIMIT": 60 * 60 * 8,
        "BABEL_DEFAULT_LOCALE": "es_PR",
        "BABEL_DEFAULT_TIMEZONE": "America/Puerto_Rico",
        "BABEL_TRANSLATION_DIRECTORIES": str(TRANSLATIONS),
        "EMAIL_TOKEN_MAX_AGE": 60 * 60 * 24 * 3,
        "RESET_TOKEN_MAX_AGE": 60 * 60 * 2,
        "AUTHORITY_PHONE": env.get("AUTHORITY_PHONE") or DEMO_AUTHORITY_PHONE,
    }


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
        if app.config.get("SESSION_COOKIE_SECURE"):
            h.setdefault("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
        if response.mimetype == "text/html":
            # Pages show personal figures: never kept in shared caches.
            h.setdefault("Cache-Control", "no-store")
        return response


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the portal. `test_config` overrides anything read from the environment."""
    test_config = dict(test_config or {})
    instance_path = test_config.pop("INSTANCE_PATH", None) or os.environ.get("PORTAL_INSTANCE")
    app = Flask("portal", instance_path=instance_path, template_folder=str(TEMPLATES),
                static_folder=str(Path(__file__).parent / "static"))
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.update(config_from_env(instance,
                                      with_key="SECRET_KEY" not in test_config))
    if test_config:
        app.config.update(test_config)

    from portal import i18n
    from portal.web import errors, extensions
    from portal.web.converters import IdConverter
    app.url_map.converters["id"] = IdConverter
    i18n.init_app(app)
    extensions.init_app(app)
    errors.init_app(app)
    _security_headers(app)
    _register_blueprints(app)
    return app


def _register_blueprints(app: Flask) -> None:
    from portal.web.account.routes import bp as account_bp
    from portal.web.auth.routes import bp as auth_bp
    from portal.web.lender.routes import bp as lender_bp
    from portal.web.lessee.routes import bp as lessee_bp
    from portal.web.staff.routes import bp as staff_bp
    for bp in (account_bp, auth_bp, lessee_bp, lender_bp, staff_bp):
        app.register_blueprint(bp)
    from portal.web.fragments import amounts_list, deadline, schedule_rows, status_badge, why
    from portal.web.present import full_address, status_css, status_label
    app.jinja_env.globals.update(status_label=status_label, status_css=status_css,
                                 full_address=full_address, why=why,
                                 schedule_rows=schedule_rows, amounts_list=amounts_list,
                                 status_badge=status_badge, deadline=deadline,
                                 authority_phone=lambda: app.config["AUTHORITY_PHONE"])
    from portal.web.payments.routes import bp as payments_bp  # payments (issue 4)
    app.register_blueprint(payments_bp)
