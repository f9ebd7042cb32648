"""Upload limits said as limits: before the upload (each form states its limit, from
`stated`) and after it (a request over its limit is a 413 page, or a problem under /api,
naming the limit in the reader's language, never "the form expired").

Each route that takes a file larger than the app's default request limit
(`MAX_CONTENT_LENGTH`, for forms) raises its own request's limit (`register`: before any
other check reads the body) and names what it takes: one document, one file. `refuse_too_large`
answers 413 as soon as the declared length is over the request's limit, before the CSRF check
reads the form (which would otherwise fail and say the form expired).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from flask import Flask, abort, current_app, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from portal.i18n import number

#: What a route takes, as its limit is said.
KINDS = {
    "document": _l("This upload takes one document (PDF, JPEG or PNG) of at most %(size)s."),
    "file": _l("This upload takes one file of at most %(size)s."),
    "form": _l("This page takes at most %(size)s at a time."),
}
#: The part of a request that is not the file (the form's other fields, multipart headers).
FORM_ROOM = 512 * 1024


@dataclass(frozen=True)
class Limit:
    size: int  # bytes the route's file may have
    kind: str  # a key of KINDS


_LIMITS: dict[str, Limit] = {}


def register(app: Flask, endpoint: str, size: int, kind: str = "file") -> None:
    """`endpoint` takes one `kind` of at most `size` bytes: its request's limit is raised to
    that and the form around it (by `refuse_too_large`, before the app's other checks read
    the body)."""
    _LIMITS[endpoint] = Limit(size, kind)
    app.extensions.setdefault("upload_limits", {})[endpoint] = size + FORM_ROOM


def size_text(size: int) -> str:
    """`size` bytes in megabytes as the reader writes numbers ("10 MB", "2,5 MB")."""
    mb = (Decimal(size) / (1024 * 1024)).quantize(Decimal("0.1"))
    return f"{number(int(mb) if mb == mb.to_integral_value() else mb)} MB"


def size_of(endpoint: str | None = None) -> int:
    """The bytes `endpoint` (the request's, by default) takes: its file's, else a form's."""
    limit = _LIMITS.get(endpoint if endpoint is not None else (request.endpoint or ""))
    return limit.size if limit else current_app.config["MAX_CONTENT_LENGTH"]


def stated(endpoint: str | None = None) -> str:
    """The limit of `endpoint` (the request's, by default) in a sentence in the reader's
    language: a registered route's file, else the app's limit for a form."""
    limit = _LIMITS.get(endpoint if endpoint is not None else (request.endpoint or ""))
    return _(KINDS[limit.kind if limit else "form"], size=size_text(size_of(endpoint)))


def refuse_too_large() -> None:
    """413 for a request whose declared length is over its limit (a registered route's, else
    the app's), before anything reads it. One hook for every route: a page pays one lookup."""
    raised = current_app.extensions.get("upload_limits", {}).get(request.endpoint)
    if raised is not None:
        request.max_content_length = raised
    most = request.max_content_length
    if most is not None and request.content_length is not None \
            and request.content_length > most:
        abort(413)


def init_app(app: Flask) -> None:
    """The 413 check runs before the CSRF check (first, after the routes' raised limits,
    which `register` puts before it); `upload_limit(endpoint)` for the templates."""
    app.before_request_funcs.setdefault(None, []).insert(0, refuse_too_large)
    app.jinja_env.globals["upload_limit"] = stated
