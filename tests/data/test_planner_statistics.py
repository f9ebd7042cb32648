"""SQLite's planner statistics of every table, small ones included: the demo's load leaves
them, and the day's work takes them again (`bulk.analyze_all`, the `statistics` task).
Without statistics on `fiscal_years` SQLite built a Bloom filter of every notice on file for
each parcel page's account (a scan of the notices table per page)."""

from __future__ import annotations

import shutil
from datetime import date

from sqlalchemy import select, text

from portal import db
from portal.accounts import statements
from portal.jobs import daily
from portal.models import ParcelLink
from portal.people import users
from tests.support.sql import QueryCounter


def _account_plan(database: db.Database) -> list[str]:
    """The query plan of the parcel page's account statement (the owner's first parcel,
    today), as the page's service sends it."""
    with db.UnitOfWork(database) as uow:
        user = users.find_by_email(uow, "owner@demo.pr")
        pid = uow.session.scalar(select(ParcelLink.parcel_id).where(
            ParcelLink.user_id == user.id).order_by(ParcelLink.parcel_id))
        with QueryCounter(database) as q:
            statements.statement_for(uow, user, pid, as_of=date(2026, 11, 30),
                                     with_payments=False, rows=True)
        sql, params = q.statements[0], q.parameters[0]
        rows = uow.session.connection().exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}",
                                                        params).all()
    return [r[-1] for r in rows]


def _copy(demo_db, tmp_path) -> db.Database:  # noqa: ANN001
    path = tmp_path / "demo.db"
    shutil.copy(demo_db[0], path)
    return db.Database(f"sqlite:///{path}")


def test_the_demo_leaves_statistics_the_parcel_page_needs(demo_db, tmp_path):
    database = _copy(demo_db, tmp_path)
    try:
        with database.engine.connect() as conn:
            analyzed = set(conn.execute(text("SELECT tbl FROM sqlite_stat1")).scalars())
        assert {"fiscal_years", "budget_versions", "assessment_rolls", "notices",
                "parcels", "assessments"} <= analyzed
        plan = _account_plan(database)
        assert not [step for step in plan if "BLOOM FILTER" in step], plan
    finally:
        database.dispose()


def test_the_days_work_takes_the_statistics_again(demo_db, tmp_path):
    database = _copy(demo_db, tmp_path)
    try:
        with database.engine.begin() as conn:  # the statistics of the small tables lost
            conn.execute(text("DELETE FROM sqlite_stat1 WHERE tbl IN "
                              "('fiscal_years', 'budget_versions', 'assessment_rolls')"))
        database.dispose()  # (a connection reads them when it opens)
        assert [s for s in _account_plan(database) if "BLOOM FILTER" in s]

        import portal.domains  # noqa: F401  (registers the day's tasks)
        assert daily.TASKS["statistics"](database, date(2026, 12, 1)) == {"analyzed": 1}
        database.dispose()
        assert not [s for s in _account_plan(database) if "BLOOM FILTER" in s]
    finally:
        database.dispose()
