"""The portal's configuration, read from the environment in one place.

The web app (`portal.app.create_app`), every `portal` command, the Alembic environment
(`migrations/env.py`), the reconcile command and the mail and PDF code all read it here, so
they agree on the instance folder, the database and the outbox. Nothing secret is hard-coded.

| variable | default |
|---|---|
| `PORTAL_INSTANCE` | the `instance/` folder at the top of the repository |
| `SECRET_KEY` | a random key generated once and kept in `<instance>/secret_key` |
| `DATABASE_URL` | SQLite file `<instance>/portal.db` |
| `MAIL_SERVER` (+ `MAIL_PORT`, `MAIL_USERNAME`, `MAIL_PASSWORD`, `MAIL_USE_TLS`, ...) | none: |
|   | emails are written as `.eml` files to `OUTBOX_DIR` (`MAIL_FROM` is the sender) |
| `OUTBOX_DIR` | `<instance>/outbox/` |
| `SESSION_COOKIE_SECURE` | `1`: cookies only over HTTPS (browsers allow http://127.0.0.1); |
|   | served over HTTPS, the session cookie is `__Host-session` (`session` otherwise) |
| `REDIS_URL` | none: sign-in rate limits are kept in memory, and the background jobs' |
|   | queue in `<instance>/jobs-queue.db` (SQLite); with it, both in Redis |
| `PORTAL_BASE_URL` | `http://127.0.0.1:5000` (what `portal serve` and `make run` serve): the |
|   | portal's address; every absolute link (emails, PDFs, redirects) starts with it, and |
|   | requests for any host but its own, `localhost` and `127.0.0.1` are refused (400) |
| `STRIPE_SECRET_KEY`, `STRIPE_WEBHOOK_SECRET` | none: the built-in test checkout (sandbox) |
| `STRIPE_API_BASE`, `STRIPE_MAX_RETRIES` | Stripe's API; the library's retries |
| `PORTAL_ENV`, `TRUSTED_PROXIES`, `METRICS_ALLOW`, `SENTRY_DSN`, `LOG_FORMAT` | see |
|   | docs/OPERATIONS.md (production's checks: `portal.operations.settings`) |

This module imports no web framework: a command reads the same values as the app.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "templates"
TRANSLATIONS = ROOT / "translations"

DEFAULT_MAIL_FROM = "Portal del Distrito <no-reply@localhost>"
#: The address `portal serve` (and so `make run`) serves by default.
DEFAULT_BASE_URL = "http://127.0.0.1:5000"
#: Hosts always served besides PORTAL_BASE_URL's: the tests' and `make run`'s.
LOCAL_HOSTS = ("localhost", "127.0.0.1")
STRIPE_KEYS = ("STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "STRIPE_API_BASE",
               "STRIPE_MAX_RETRIES")


def _env(env: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if env is None else env


def flag(value: str | None, default: bool) -> bool:
    """An on/off variable: "1", "true", "yes", "on" (any case) are on; empty is `default`."""
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def instance_path(env: Mapping[str, str] | None = None) -> Path:
    """The instance folder: `PORTAL_INSTANCE`, else `instance/` at the top of the repository."""
    value = (_env(env).get("PORTAL_INSTANCE") or "").strip()
    return Path(value).resolve() if value else ROOT / "instance"


def database_url(url: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """The database URL: the argument, else `DATABASE_URL`, else `<instance>/portal.db`."""
    if url:
        return url
    value = (_env(env).get("DATABASE_URL") or "").strip()
    if value:
        # Heroku-style URLs name the old driver; the portal speaks psycopg 3.
        if value.startswith("postgres://"):
            value = "postgresql+psycopg://" + value[len("postgres://"):]
        elif value.startswith("postgresql://"):
            value = "postgresql+psycopg://" + value[len("postgresql://"):]
        return value
    return f"sqlite:///{instance_path(env) / 'portal.db'}"


def secret_key(instance: Path, env: Mapping[str, str] | None = None) -> str:
    """SECRET_KEY from the environment, else one random key kept in the instance folder."""
    key = _env(env).get("SECRET_KEY")
    if key:
        return key
    path = instance / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        key = secrets.token_urlsafe(48)
        instance.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process wrote it first
            return path.read_text().strip()
        with os.fdopen(fd, "w") as fh:
            fh.write(key)
        return key


def served_base_url(host: str, port: int, env: Mapping[str, str] | None = None) -> str:
    """The portal's address as `portal serve --host --port` serves it: PORTAL_BASE_URL when
    set, else http://host:port (127.0.0.1 for a server on every address), so the links and
    the payment's return follow the port it was started on."""
    given = (_env(env).get("PORTAL_BASE_URL") or "").strip()
    if given:
        return given
    shown = "127.0.0.1" if host in ("", "0.0.0.0", "::") else host
    shown = f"[{shown}]" if ":" in shown else shown
    return f"http://{shown}:{int(port)}"


def trusted_hosts(base_url: str) -> list[str]:
    """The hosts the portal answers (Flask's TRUSTED_HOSTS): PORTAL_BASE_URL's, `localhost`
    and `127.0.0.1`."""
    host = (urlsplit(base_url).hostname or "").lower()
    return list(dict.fromkeys([h for h in (host, *LOCAL_HOSTS) if h]))


def settings(env: Mapping[str, str] | None = None, *, instance: Path | None = None,
             with_key: bool = True) -> dict[str, Any]:
    """Every setting, as the app's config keys (the one configuration of every command)."""
    e = _env(env)
    instance = instance if instance is not None else instance_path(e)
    secure = flag(e.get("SESSION_COOKIE_SECURE"), True)
    return {
        "INSTANCE_PATH": str(instance),
        "SECRET_KEY": secret_key(instance, e) if with_key else None,
        "DATABASE_URL": database_url(None, {**e, "PORTAL_INSTANCE": str(instance)}),
        "MAIL_SERVER": e.get("MAIL_SERVER") or None,
        "MAIL_PORT": int(e.get("MAIL_PORT") or 587),
        "MAIL_USERNAME": e.get("MAIL_USERNAME") or None,
        "MAIL_PASSWORD": e.get("MAIL_PASSWORD") or None,
        "MAIL_USE_TLS": flag(e.get("MAIL_USE_TLS"), True),
        "MAIL_USE_SSL": flag(e.get("MAIL_USE_SSL"), False),
        "MAIL_FROM": e.get("MAIL_FROM") or DEFAULT_MAIL_FROM,
        "OUTBOX_DIR": e.get("OUTBOX_DIR") or str(instance / "outbox"),
        "PORTAL_BASE_URL": (e.get("PORTAL_BASE_URL") or "").strip() or DEFAULT_BASE_URL,
        "SESSION_COOKIE_SECURE": secure,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "REMEMBER_COOKIE_SECURE": secure,
        "REMEMBER_COOKIE_HTTPONLY": True,
        "REMEMBER_COOKIE_SAMESITE": "Lax",
        "PERMANENT_SESSION_LIFETIME": 60 * 60 * 8,
        "SESSION_IDLE_TIMEOUT": 30 * 60,  # seconds without a request, then signed out
        "SESSION_ABSOLUTE_TIMEOUT": 60 * 60 * 8,  # seconds from sign-in, then signed out
        "SESSION_TOUCH_INTERVAL": 60,  # last_seen_at is written at most this often
        "RATELIMIT_STORAGE_URI": e.get("REDIS_URL") or "memory://",
        "REDIS_URL": e.get("REDIS_URL") or None,
        "JOBS_QUEUE_FILE": str(instance / "jobs-queue.db"),
        "RATELIMIT_SIGNIN": e.get("RATELIMIT_SIGNIN") or "10 per minute;50 per hour",
        "RATELIMIT_CLAIM": e.get("RATELIMIT_CLAIM") or "10 per hour",
        # uploads are counted apart from sign-ins (a certification takes up to 10 documents)
        "RATELIMIT_UPLOAD": e.get("RATELIMIT_UPLOAD") or "30 per minute;300 per hour",
        "MAX_CONTENT_LENGTH": 2 * 1024 * 1024,
        "WTF_CSRF_TIME_LIMIT": 60 * 60 * 8,
        "BABEL_DEFAULT_LOCALE": "es_PR",
        "BABEL_DEFAULT_TIMEZONE": "America/Puerto_Rico",
        "BABEL_TRANSLATION_DIRECTORIES": str(TRANSLATIONS),
        "EMAIL_TOKEN_MAX_AGE": 60 * 60 * 24 * 3,
        "RESET_TOKEN_MAX_AGE": 60 * 60 * 2,
        **{k: e.get(k) or None for k in STRIPE_KEYS},
        # Running as a service (docs/OPERATIONS.md; checked by portal.operations.settings).
        "PORTAL_ENV": (e.get("PORTAL_ENV") or "").strip() or "development",
        # (a malformed count is refused at start by portal.operations.settings)
        "TRUSTED_PROXIES": int(hops) if (hops := (e.get("TRUSTED_PROXIES") or "").strip())
        .isdigit() else 0,
        "METRICS_ALLOW": e.get("METRICS_ALLOW") or "",
        "SENTRY_DSN": e.get("SENTRY_DSN") or None,
        "LOG_FORMAT": (e.get("LOG_FORMAT") or "").strip(),
        # days a notices' print file (plain-text access codes) is kept: portal.roll.retention
        "RETENTION_PRINT_FILE_DAYS": (e.get("RETENTION_PRINT_FILE_DAYS") or "").strip(),
        # days after the decision a removed evidence file is kept: portal.roll.retention
        "RETENTION_REMOVED_EVIDENCE_DAYS": (e.get("RETENTION_REMOVED_EVIDENCE_DAYS")
                                            or "").strip(),
    }


def mail_settings(env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The settings `portal.mail` needs, without generating a secret key."""
    keys = ("MAIL_SERVER", "MAIL_PORT", "MAIL_USERNAME", "MAIL_PASSWORD", "MAIL_USE_TLS",
            "MAIL_USE_SSL", "MAIL_FROM", "OUTBOX_DIR", "PORTAL_BASE_URL")
    everything = settings(env, with_key=False)
    return {k: everything[k] for k in keys}
