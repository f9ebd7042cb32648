"""Flask extensions shared by the blueprints: CSRF, sessions (Flask-Login), rate limits.

The forms' CSRF token (`csrf_token()` in templates) is Flask-WTF's, made without its
per-call costs (`signed_csrf_token`); Flask-WTF checks it on every POST, as before.

`shared_limit(config_key)` limits a view's POSTs per client address with the limits of a
setting ("10 per minute;50 per hour"), counted where every worker sees them: Redis when
`REDIS_URL` is set (Flask-Limiter's storage), else the database (`accounts.throttle`); with
Redis down, the database too (the forms keep working).
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
from collections.abc import Callable
from typing import Any

from flask import Flask, abort, current_app, g, request, session
from flask_babel import gettext
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager
from flask_wtf.csrf import CSRFProtect
from itsdangerous import URLSafeTimedSerializer
from itsdangerous.encoding import base64_encode
from limits import parse_many

from portal.accounts import throttle
from portal.core.explain import N_
from portal.web.data import uow

log = logging.getLogger(__name__)
csrf = CSRFProtect()
login_manager = LoginManager()
limiter = Limiter(key_func=get_remote_address, default_limits=[], strategy="sliding-window-counter")


@login_manager.user_loader
def load_user(user_id: str):  # noqa: ANN201 - the service's user, or None
    from portal.web import session_user
    return session_user.load(user_id)


class _TokenSerializer(URLSafeTimedSerializer):
    """Flask-WTF's serializer of CSRF tokens (`URLSafeTimedSerializer`, salt
    "wtf-csrf-token") less its attempt to compress the payload: a token's payload is 40
    random hexadecimal digits in quotes, which zlib never makes shorter (0 of 20,000 tried),
    so itsdangerous always sent it uncompressed; the attempt was half the cost of a page's
    token. The tokens are the same strings, signed the same way, and Flask-WTF's
    `validate_csrf` reads them (it reads compressed ones too)."""

    def dump_payload(self, obj: Any) -> bytes:
        return base64_encode(self.serializer.dumps(obj, **self.serializer_kwargs).encode())


@functools.lru_cache(maxsize=4)
def _token_serializer(secret_key: str | bytes) -> _TokenSerializer:
    return _TokenSerializer(secret_key, salt="wtf-csrf-token")


def signed_csrf_token() -> str:
    """This request's CSRF token, as Flask-WTF's `generate_csrf` makes it: the session's
    random secret (made on first use: 160 bits from os.urandom), signed with a timestamp
    (Flask-WTF checks the signature and the age, WTF_CSRF_TIME_LIMIT, on each POST). Made
    once per request and kept where Flask-WTF keeps it (`g.csrf_token`), so its forms and
    the layout's show one token; a new one each request, as before. Only the serializer is
    made once per secret key instead of once per call, without the compression attempt."""
    config = current_app.config
    name = config.get("WTF_CSRF_FIELD_NAME") or "csrf_token"
    token = g.get(name)
    if token is None:
        raw = session.get(name)
        if not isinstance(raw, str):
            session[name] = raw = hashlib.sha1(os.urandom(64)).hexdigest()
        token = _token_serializer(config.get("WTF_CSRF_SECRET_KEY")
                                  or current_app.secret_key).dumps(raw)
        setattr(g, name, token)
    return token


def _fast_csrf_in_templates(app: Flask) -> None:
    """`csrf_token()` in templates is `signed_csrf_token`: a global, not Flask-WTF's context
    processor, which put its own function in every template's context."""
    app.jinja_env.globals["csrf_token"] = signed_csrf_token
    app.template_context_processors[None] = [
        f for f in app.template_context_processors.get(None, [])
        if getattr(f, "__module__", "") != "flask_wtf.csrf"]


def init_app(app: Flask) -> None:
    csrf.init_app(app)
    _fast_csrf_in_templates(app)
    login_manager.init_app(app)
    login_manager.login_view = "people.sign_in"
    login_manager.login_message = N_("Please sign in to see this page.")
    login_manager.localize_callback = gettext
    login_manager.login_message_category = "info"
    login_manager.session_protection = "basic"
    limiter.init_app(app)
    _no_checks_per_request(app)


def _no_checks_per_request(app: Flask) -> None:
    """Flask-Limiter checks its declared limits before every request, writes their headers
    after it and resets its context at teardown; no route declares one (`shared_limit`
    counts through `limiter.limiter`, its storage and strategy, on the POSTs it guards), so
    the three hooks only cost every page its time (~5 % of the trivial page's CPU): taken
    off (with RATELIMIT_ENABLED off, Flask-Limiter installs none)."""
    hooks = {limiter._check_request_limit, limiter._Limiter__release_context}
    for funcs in (app.before_request_funcs, app.after_request_funcs,
                  app.teardown_request_funcs):
        funcs[None] = [f for f in funcs.get(None, []) if f not in hooks
                       and getattr(f, "args", None) != (limiter,)]


def _over_limit(config_key: str, who: str) -> bool:
    """Count one hit for `who` on each limit of the setting; True when one is exceeded."""
    config = current_app.config
    over = False
    shared = (config.get("RATELIMIT_STORAGE_URI") or "memory://") != "memory://"
    for n, item in enumerate(parse_many(config[config_key])):
        if shared:
            prefix = config.get("RATELIMIT_KEY_PREFIX") or "portal"
            try:
                over |= not limiter.limiter.hit(item, prefix, config_key, who)
                continue
            except Exception:  # noqa: BLE001 - Redis down or unreachable: any storage error
                # Degrade, don't fail (docs/SECURITY.md): counted in the database instead,
                # as with no Redis at all; the form keeps working.
                log.warning("rate-limit storage unreachable; counting %s in the database",
                            config_key, exc_info=True)
        with uow() as w:
            over |= not throttle.hit(w, f"{config_key.lower()}:{n}:{who}", item.amount,
                                     item.get_expiry())
    return over


def shared_limit(config_key: str, key: Callable[[], str] | None = None) -> Callable:
    """Decorate a view: its POSTs are limited per client address (or per `key()`) by the
    setting `config_key`; over the limit, the 429 page. Off when RATELIMIT_ENABLED is off."""
    def decorate(view: Callable) -> Callable:
        @functools.wraps(view)
        def limited(*args: Any, **kwargs: Any) -> Any:
            if request.method == "POST" and current_app.config.get("RATELIMIT_ENABLED", True):
                who = key() if key is not None else (request.remote_addr or "")
                if _over_limit(config_key, who):
                    abort(429)
            return view(*args, **kwargs)
        return limited
    return decorate
