"""The web layer's way to the data: a unit of work on the app's database."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import current_app, has_request_context, url_for

from portal.db import Database, UnitOfWork, get_database


def database() -> Database:
    return get_database(current_app.config["DATABASE_URL"])


def uow() -> UnitOfWork:
    """`with uow() as w: service(w, ...)`: one transaction per operation."""
    return UnitOfWork(database())


def external_url(endpoint: str, **values) -> str:  # noqa: ANN003
    """An absolute link for an email: PORTAL_BASE_URL when set, else the request's host
    (outside a request, as from a command: http://localhost)."""
    base = current_app.config.get("PORTAL_BASE_URL")
    if not base and has_request_context():
        return url_for(endpoint, _external=True, **values)
    base = (base or "http://localhost").rstrip("/")
    parts = urlsplit(base)
    adapter = current_app.url_map.bind(parts.netloc, script_name=parts.path or "/",
                                       url_scheme=parts.scheme or "http")
    return adapter.build(endpoint, values, force_external=True)
