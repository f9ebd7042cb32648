"""Error pages (404, 403, 405, 429, 400, 500, 503): translated, and never a traceback.

503 is the database busy (`db.is_busy`: SQLite's write lock held past its busy timeout,
PostgreSQL's lock timeout): a page that says to try again, with Retry-After."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from flask import Flask, abort, render_template, request
from flask.globals import request_ctx
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError

from portal import db
from portal.accounts import errors as service_errors
from portal.web import upload_limits

log = logging.getLogger(__name__)

PAGES = {400: "errors/400.html", 403: "errors/403.html", 404: "errors/404.html",
         405: "errors/405.html", 413: "errors/413.html", 429: "errors/429.html",
         500: "errors/500.html", 503: "errors/503.html"}


def _render(code: int):  # noqa: ANN202
    """Every error is a page of the portal: its own for the common codes, else the generic
    400 or 500 page; 413 (an upload over its limit) says the limit (`upload_limits`)."""
    template = PAGES.get(code, "errors/400.html" if code < 500 else "errors/500.html")
    if request_ctx.url_adapter is None:  # an untrusted Host: no URL can be built for it
        return _PLAIN, code
    try:
        extra = {"limit": upload_limits.stated()} if code == 413 else {}
        return render_template(template, code=code, **extra), code
    except Exception:  # the layout itself failed: a plain page, still no traceback
        log.exception("error page %s failed to render", code)
        return _PLAIN, code


#: The page when the portal's own cannot be rendered (its layout failed, or the request's
#: Host is not the portal's, so no link of the layout can be built): both languages.
_PLAIN = ("<!doctype html><html lang=\"es\"><head><meta charset=\"utf-8\">"
          "<title>Error</title></head><body><main><h1>Error</h1>"
          "<p>Ocurrió un error. <span lang=\"en\">An error occurred.</span></p></main></body>"
          "</html>")


#: Prefixes whose errors are answered by their own handler, not a page (the API's
#: problem+json): (prefix, handler(status, headers)), registered with `scope`.
_SCOPES: list[tuple[str, Callable[[int, dict[str, str]], Any]]] = []


def scope(prefix: str, handler: Callable[[int, dict[str, str]], Any]) -> None:
    """Every error of a request whose path starts with `prefix` (a route's or the app's: an
    unknown address, a method not allowed, a body too large, an unexpected exception) is
    answered by `handler(status, headers)` instead of the portal's error page."""
    if all(p != prefix for p, _h in _SCOPES):
        _SCOPES.append((prefix, handler))


def _scoped(code: int, headers: dict[str, str]) -> Any:
    for prefix, handler in _SCOPES:
        if request.path == prefix.rstrip("/") or request.path.startswith(prefix):
            return handler(code, headers)
    return None


def _or_page(code: int) -> Any:
    scoped = _scoped(code, {})
    return _render(code) if scoped is None else scoped


def _has_nul(values: object) -> bool:
    return any("\x00" in v for _key, vs in values.lists() for v in vs)  # type: ignore[attr-defined]


def init_app(app: Flask) -> None:
    upload_limits.init_app(app)  # a 413 said as the limit, before the CSRF check reads a form
    @app.before_request
    def refuse_nul_bytes():  # noqa: ANN202
        """A NUL byte in the path, the query or a form is nothing a person typed, and
        PostgreSQL's text cannot hold one: the request is refused (400) before any view or
        query runs, rather than failing halfway (after a refund was sent, say)."""
        if "\x00" in request.path or _has_nul(request.args) or (
                request.method == "POST" and _has_nul(request.form)):
            abort(400)

    @app.errorhandler(CSRFError)
    def csrf_error(_exc):  # noqa: ANN001, ANN202
        return _or_page(400)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):  # noqa: ANN202
        code = exc.code or 500
        if code < 400:  # redirects raised as exceptions (e.g. a missing trailing slash)
            return exc
        headers = {k: v for k, v in exc.get_response().headers.items()
                   if k in ("Allow", "Retry-After", "Location")}
        scoped = _scoped(code, headers)
        if scoped is not None:
            return scoped
        html, status = _render(code)
        return html, status, headers

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):  # noqa: ANN202
        if isinstance(exc, HTTPException):  # pragma: no cover - handled above
            return http_error(exc)
        if isinstance(exc, service_errors.NotFound):  # a service's refusal a view did not
            return _or_page(404)     # catch: what it means, not a 500
        if isinstance(exc, service_errors.Forbidden):  # (e.g. a staff role without the right)
            return _or_page(403)
        if db.is_busy(exc):  # the database busy, not wrong: "try again", never a 500
            log.warning("database busy on %s %s: %s", request.method, request.path, exc.orig)
            headers = {"Retry-After": str(db.RETRY_AFTER)}
            scoped = _scoped(503, headers)
            if scoped is not None:
                return scoped
            html, status = _render(503)
            return html, status, headers
        log.exception("unhandled error on %s %s", request.method, request.path)
        return _or_page(InternalServerError.code)
