"""The web layer's way to the data: a unit of work on the app's database."""

from __future__ import annotations

from flask import current_app, url_for

from portal.db import Database, UnitOfWork, get_database


def database() -> Database:
    return get_database(current_app.config["DATABASE_URL"])


def uow() -> UnitOfWork:
    """`with uow() as w: service(w, ...)`: one transaction per operation."""
    return UnitOfWork(database())


def external_url(endpoint: str, **values) -> str:  # noqa: ANN003
    """An absolute link for an email: PORTAL_BASE_URL when set, else the request's host."""
    base = current_app.config.get("PORTAL_BASE_URL")
    if base:
        return base.rstrip("/") + url_for(endpoint, **values)
    return url_for(endpoint, _external=True, **values)
