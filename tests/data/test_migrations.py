"""The schema is made only by the migrations, and they match the models."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from portal import db
from portal.models import Base
from tests.support import schema


def _roundtrip(url: str) -> None:
    engine = db.make_engine(url)
    try:
        with engine.connect() as conn:
            assert inspect(conn).get_table_names() == []
        db.upgrade(url, "head")
        assert db.current_revision(url) is not None
        with engine.connect() as conn:
            tables = set(inspect(conn).get_table_names())
            assert set(Base.metadata.tables) <= tables
            ctx = MigrationContext.configure(conn, opts={"compare_type": True,
                                                       "include_object": db.include_object})
            diff = compare_metadata(ctx, Base.metadata)
        assert diff == [], f"models and migrations differ: {diff}"
        db.downgrade(url, "base")
        with engine.connect() as conn:
            left = set(inspect(conn).get_table_names()) - {"alembic_version"}
        assert left == set()
        assert db.current_revision(url) is None
    finally:
        engine.dispose()


def test_sqlite_upgrade_matches_models_and_downgrade_empties(tmp_path):
    _roundtrip(f"sqlite:///{tmp_path / 'm.db'}")


@pytest.mark.postgres
def test_postgresql_upgrade_matches_models_and_downgrade_empties():
    with schema.throwaway_database() as url:
        _roundtrip(url)


def test_compare_detects_a_difference(tmp_path):
    """The comparison is not vacuous: a model change the migrations lack is reported."""
    from sqlalchemy import Column, Integer, MetaData, Table

    url = f"sqlite:///{tmp_path / 'd.db'}"
    db.upgrade(url, "head")
    extra = MetaData()
    for table in Base.metadata.tables.values():
        table.to_metadata(extra)
    Table("not_migrated", extra, Column("id", Integer, primary_key=True))
    engine = db.make_engine(url)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), extra)
    engine.dispose()
    assert [d[0] for d in diff] == ["add_table"]
