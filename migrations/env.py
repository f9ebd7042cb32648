"""Alembic environment: the portal's database (`portal.config.database_url`) and the models'
metadata (portal.models).

A caller may pass a connection in `config.attributes["connection"]` (tests, `portal db`),
or a URL in `config.attributes["url"]`; otherwise the portal's configuration chooses:
DATABASE_URL, else `portal.db` in the instance folder (PORTAL_INSTANCE), as for the app.
SQLite gets batch mode (ALTER TABLE by copy), so the same migrations run on both databases.
"""

from __future__ import annotations

from typing import Any

from alembic import context
from sqlalchemy import Connection

from portal.db import include_object, make_engine
from portal.models import Base, UTCDateTime

config = context.config
target_metadata = Base.metadata


def render_item(type_: str, obj: Any, autogen_context: Any) -> str | bool:
    """Render the portal's UTCDateTime as the plain DateTime(timezone=True) it stores."""
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        render_item=render_item,
        compare_type=True,
        include_object=include_object,
    )


def run_migrations_offline() -> None:
    from portal.config import database_url
    context.configure(url=config.attributes.get("url") or database_url(),
                      target_metadata=target_metadata, literal_binds=True,
                      render_item=render_item,
                      dialect_opts={"paramstyle": "named"})
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = make_engine(config.attributes.get("url"))
    try:
        with engine.connect() as conn:
            _configure(conn)
            with context.begin_transaction():
                context.run_migrations()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
