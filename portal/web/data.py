"""The web layer's way to the data: a unit of work on the app's database."""

from __future__ import annotations

from flask import current_app

from portal.db import Database, UnitOfWork, get_database


def database() -> Database:
    return get_database(current_app.config["DATABASE_URL"])


def uow() -> UnitOfWork:
    """`with uow() as w: service(w, ...)`: one transaction per operation."""
    return UnitOfWork(database())
