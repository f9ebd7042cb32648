"""Server-side sessions: the cookie carries only a random token, the data lives in the
`web_sessions` row whose id is the token's SHA-256 (`portal.models.security.WebSession`).

- A visitor who is not signed in has no row: what such a session holds (the language, the
  CSRF secret of the forms, a flashed message: `ANONYMOUS_KEYS`) travels in the cookie itself,
  signed with the `SECRET_KEY` (itsdangerous, as Flask's own cookie sessions), so an anonymous
  request writes nothing to the database. The row is made when the session holds anything
  else: a signed-in user or the pending second step of signing in.

- The row is read on the first use of the session in a request (a static file or a page
  that never looks at it costs nothing), together with its user in one statement
  (`users.open_session`); Flask-Login's loader takes that user (`preloaded_user`).
- A session ends after `SESSION_IDLE_TIMEOUT` seconds without a request or
  `SESSION_ABSOLUTE_TIMEOUT` after it began; `last_seen_at` is written at most every
  `SESSION_TOUCH_INTERVAL` seconds. Ending a user's sessions is deleting their rows
  (`users.end_sessions`): the old cookie then opens nothing.
- Signing in (Flask-Login's `user_logged_in`, wherever `login_user` is called) gives the
  session a new token and a new CSRF token, so neither survives from before.
- The cookie is `__Host-session` (Secure, Path=/, no Domain) when the portal is served over
  HTTPS and SESSION_COOKIE_SECURE is on, else `session`; always HttpOnly and SameSite=Lax.
  It has no expiry date: closing the browser ends it too.
"""

from __future__ import annotations

import functools
import hashlib
import re
import secrets
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from flask import Flask, Request, g, request, session
from flask.json.tag import TaggedJSONSerializer
from flask.sessions import SessionInterface, SessionMixin
from flask_login import user_logged_in
from itsdangerous import BadSignature, URLSafeTimedSerializer
from itsdangerous.encoding import base64_encode

from portal import clock
from portal.people import users
from portal.signing import ClockSigner
from portal.web.data import database, uow

HOST_COOKIE = "__Host-session"
_TOKEN = re.compile(r"[A-Za-z0-9_-]{20,100}")
_serializer = TaggedJSONSerializer()

#: What an anonymous session may keep in its signed cookie instead of a row: the language,
#: the forms' CSRF secret, flashed messages, whether the visitor said they are a lessee,
#: Flask-Login's "fresh" flag.
ANONYMOUS_KEYS = frozenset({"lang", "lang_switched", "csrf_token", "_flashes", "is_lessee",
                            "_fresh"})
_SIGNED = "a."  # a signed cookie's prefix (a token never has a period)
_MAX_SIGNED = 3000  # bytes: past this the session takes a row (browsers keep 4 KB a cookie)


class _CookieSerializer(URLSafeTimedSerializer):
    """The signed cookie's serializer: itsdangerous's, which tries zlib on every payload,
    tries it only on one long enough to gain from it (a first visit's cookie, the forms'
    CSRF secret alone, never is). Either form is read back by `loads`."""

    def dump_payload(self, obj: Any) -> bytes:
        data = self.serializer.dumps(obj, **self.serializer_kwargs).encode()
        if len(data) > 160:
            return super().dump_payload(obj)
        return base64_encode(data)


@functools.lru_cache(maxsize=4)
def _signer_for(secret_key: str | bytes) -> URLSafeTimedSerializer:
    """Made once per key (it was made again for every anonymous response)."""
    return _CookieSerializer(secret_key, salt="portal.anonymous-session",
                             serializer=_serializer, signer=ClockSigner)


def _signer(app: Flask) -> URLSafeTimedSerializer:
    return _signer_for(app.secret_key)


def token_hash(token: str) -> str:
    """The row id of a cookie's token: its SHA-256 in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


class ServerSession(SessionMixin):
    """The request's session: read from its row on first use, written back at the end."""

    def __init__(self, token: str | None, idle: timedelta, cookie_sent: bool = False,
                 signed: dict[str, Any] | None = None) -> None:
        self.token = token
        self.cookie_sent = cookie_sent
        self.sid: str | None = token_hash(token) if token else None
        self._idle = idle
        self._data: dict[str, Any] | None = None if token else dict(signed or {})
        self.from_signed_cookie = signed is not None
        self.row_user_id: int | None = None
        self.user = None
        self.last_seen_at = None
        self.modified = False
        self.accessed = False
        self.renew = False
        self.new = token is None

    def _load(self) -> dict[str, Any]:
        self.accessed = True
        if self._data is None:
            row = users.open_session(database(), self.sid, self._idle)
            if row is None:  # unknown, ended or timed out: a new, empty session
                self.sid = None
                self._data = {}
            else:
                self._data = _serializer.loads(row.data) if row.data else {}
                self.row_user_id, self.user = row.user_id, row.user
                self.last_seen_at = row.last_seen_at
        return self._data

    @property
    def loaded(self) -> bool:
        return self._data is not None

    def __getitem__(self, key: str) -> Any:
        return self._load()[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self._load()[key] = value
        self.modified = True

    def __delitem__(self, key: str) -> None:
        del self._load()[key]
        self.modified = True

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())

    def __repr__(self) -> str:
        return f"<ServerSession {'loaded' if self.loaded else 'not loaded'}>"

    def rotate(self) -> None:
        """A new token at the end of this request, and a new CSRF token (Flask-WTF keeps its
        secret under "csrf_token"; the one from before signing in no longer validates).
        Written now, the next page need not write the session again."""
        self._load()["csrf_token"] = secrets.token_hex(20)
        g.pop("csrf_token", None)
        self.renew = True
        self.modified = True

    def restart(self, keep: tuple[str, ...] = ("lang",)) -> None:
        """Empty the session but for `keep` (the language), under a new token."""
        data = self._load()
        kept = {k: data[k] for k in keep if k in data}
        data.clear()
        data.update(kept)
        g.pop("csrf_token", None)
        self.renew = True
        self.modified = True


class DatabaseSessionInterface(SessionInterface):
    """Flask's session on the `web_sessions` table (see the module's docstring)."""

    serializer = _serializer

    def cookie_name(self, app: Flask, req: Request) -> str:
        https = req.is_secure or str(app.config.get("PORTAL_BASE_URL") or "").startswith(
            "https:")
        if https and app.config.get("SESSION_COOKIE_SECURE"):
            return HOST_COOKIE
        return app.config.get("SESSION_COOKIE_NAME") or "session"

    def open_session(self, app: Flask, request: Request) -> ServerSession:
        name = self.cookie_name(app, request)
        token = request.cookies.get(name)
        idle = timedelta(seconds=app.config["SESSION_IDLE_TIMEOUT"])
        if token is not None and token.startswith(_SIGNED):
            try:
                data = _signer(app).loads(token[len(_SIGNED):],
                                          max_age=app.config["SESSION_ABSOLUTE_TIMEOUT"])
            except BadSignature:  # forged, altered or too old: a new, empty session
                data = None
            if isinstance(data, dict) and set(data) <= ANONYMOUS_KEYS \
                    and "_user_id" not in data:
                return ServerSession(None, idle, cookie_sent=True, signed=data)
            return ServerSession(None, idle, cookie_sent=True)
        if token is not None and not _TOKEN.fullmatch(token):
            token = None
        return ServerSession(token, idle, cookie_sent=name in request.cookies)

    def save_session(self, app: Flask, s: SessionMixin, response: Any) -> None:
        if not isinstance(s, ServerSession) or not s.loaded:
            return
        if s.accessed:
            response.vary.add("Cookie")
        name = self.cookie_name(app, request)
        host_cookie = name == HOST_COOKIE
        cookie = {"path": "/" if host_cookie else self.get_cookie_path(app),
                  "domain": None if host_cookie else self.get_cookie_domain(app),
                  "secure": self.get_cookie_secure(app),
                  "httponly": self.get_cookie_httponly(app),
                  "samesite": self.get_cookie_samesite(app)}
        data = dict(s._data or {})
        user_id = _user_id(data)
        if user_id is None and set(data) <= ANONYMOUS_KEYS and self._save_signed(
                app, s, data, response, name, cookie):
            return
        if s.sid is not None and data and not (s.renew or s.modified or self._touch_due(app, s)):
            return  # a signed-in page that changed nothing: no transaction at all
        with uow() as w:
            if s.renew and s.sid is not None:
                users.delete_session(w, s.sid)
                s.sid = None
            if not data:
                if s.sid is not None:
                    users.delete_session(w, s.sid)
                if s.cookie_sent:
                    response.delete_cookie(name, **cookie)
                return
            text = self.serializer.dumps(data)
            if s.sid is None:
                token = secrets.token_urlsafe(32)
                users.create_session(
                    w, token_hash(token), text, user_id,
                    timedelta(seconds=app.config["SESSION_ABSOLUTE_TIMEOUT"]),
                    address=request.remote_addr or "",
                    user_agent=request.headers.get("User-Agent", ""))
                response.set_cookie(name, token, expires=self.get_expiration_time(app, s),
                                    **cookie)
            elif s.modified:
                if not users.save_session(w, s.sid, text, user_id):
                    response.delete_cookie(name, **cookie)  # ended meanwhile: stays ended
            elif self._touch_due(app, s):
                users.touch_session(w, s.sid)

    @staticmethod
    def _touch_due(app: Flask, s: ServerSession) -> bool:
        """Whether the row's `last_seen_at` is SESSION_TOUCH_INTERVAL old or more."""
        return s.last_seen_at is not None and clock.now() - s.last_seen_at >= timedelta(
            seconds=app.config["SESSION_TOUCH_INTERVAL"])

    def _save_signed(self, app: Flask, s: ServerSession, data: dict[str, Any],
                     response: Any, name: str, cookie: dict[str, Any]) -> bool:
        """An anonymous session's data in its signed cookie (nothing written to the database
        unless it had a row, which is then deleted); False when it is too large for a cookie."""
        if s.sid is not None:  # a signed-in session ended (sign-out): its row goes
            with uow() as w:
                users.delete_session(w, s.sid)
            s.sid = None
        elif s.from_signed_cookie and not s.modified and not s.renew:
            return True  # unchanged: the cookie the browser has stays
        if not data:
            if s.cookie_sent:
                response.delete_cookie(name, **cookie)
            return True
        value = _SIGNED + _signer(app).dumps(data)
        if len(value) > _MAX_SIGNED:
            return False
        response.set_cookie(name, value, expires=self.get_expiration_time(app, s), **cookie)
        return True


def _user_id(data: dict[str, Any]) -> int | None:
    try:
        return int(data["_user_id"])
    except (KeyError, TypeError, ValueError):
        return None


def current() -> ServerSession | None:
    s = session._get_current_object()
    return s if isinstance(s, ServerSession) else None


def current_sid() -> str | None:
    """This request's session id (None before it has a row)."""
    s = current()
    if s is None:
        return None
    s._load()
    return None if s.renew else s.sid


def preloaded_user(user_id: str) -> tuple[bool, Any]:
    """(True, the user or None) when this request's session row already read the user
    `user_id`; (False, None) when it must be loaded."""
    s = current()
    if s is None or not s.loaded or s.renew or s.row_user_id is None \
            or str(s.row_user_id) != str(user_id):
        return False, None
    return True, s.user


def restart() -> None:
    """End this browser's session (its row is deleted at the end of the request); a new one,
    keeping only the language, holds what the response still writes (a flashed message)."""
    s = current()
    if s is not None:
        s.restart()


def _rotate_at_sign_in(_app: Flask, **_extra: Any) -> None:
    s = current()
    if s is not None:
        s.rotate()


def init_app(app: Flask) -> None:
    """Sessions in the database. Flask-Login's remember-me cookie is never issued (a session
    ends with its row), so its after-request hook, which would read the session on every
    response (a static file's too), is taken off."""
    app.session_interface = DatabaseSessionInterface()
    user_logged_in.connect(_rotate_at_sign_in, app)
    manager = getattr(app, "login_manager", None)
    hooks = app.after_request_funcs.get(None, [])
    if manager is not None and manager._update_remember_cookie in hooks:
        hooks.remove(manager._update_remember_cookie)
