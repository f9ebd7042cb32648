"""The web layer's way to the data: a unit of work on the app's database."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import current_app
from werkzeug.routing import MapAdapter

from portal.config import DEFAULT_BASE_URL
from portal.db import Database, ReadingUnitOfWork, UnitOfWork, get_database


def database() -> Database:
    return get_database(current_app.config["DATABASE_URL"])


def uow() -> UnitOfWork:
    """`with uow() as w: service(w, ...)`: one transaction per operation."""
    return UnitOfWork(database())


def reading() -> ReadingUnitOfWork:
    """`with reading() as w: view(w, ...)`: a page's reads, in one transaction that writes
    nothing (no ORM session unless a service asks for one)."""
    return ReadingUnitOfWork(database())


def external_url(endpoint: str, **values) -> str:  # noqa: ANN003
    """An absolute link (an email's, a PDF's): always on PORTAL_BASE_URL, never on the host a
    request named, in a request or outside one (a command)."""
    return base_url_adapter().build(endpoint, values, force_external=True)


def base_url_adapter() -> MapAdapter:
    """The app's URLs bound to PORTAL_BASE_URL (its scheme, host and path)."""
    parts = urlsplit(str(current_app.config.get("PORTAL_BASE_URL") or DEFAULT_BASE_URL))
    return current_app.url_map.bind(parts.netloc, script_name=parts.path or "/",
                                    url_scheme=parts.scheme or "http")
