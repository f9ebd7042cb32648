"""SQLite's planner statistics of every table, small ones included: the demo's load leaves
them, and the day's work takes them again (`bulk.analyze_all`, the `statistics` task).
Without statistics on `fiscal_years` SQLite built a Bloom filter of every notice on file for
each parcel page's account (a scan of the notices table per page)."""

from __future__ import annotations

import shutil
from datetime import date

from sqlalchemy import text

from portal import db
from portal.accounts import access
from portal.accounts import statements as S
from portal.jobs import daily
from portal.people import users


def _account_plan(database: db.Database) -> list[str]:
    """The query plan of the parcel page's account statement (an owner's, today)."""
    stmt = S._ACCOUNT_ON[False]
    with db.UnitOfWork(database) as uow:
        user = users.find_by_email(uow, "owner@demo.pr")
        conn = uow.session.connection()
        compiled = stmt.compile(dialect=conn.dialect)
        values = compiled.construct_params(
            {**access.relation_params(user), "pid": 1, "as_of": date(2026, 11, 30)})
        args = tuple(
            compiled.binds[name].type.bind_processor(conn.dialect)(values[name])
            if compiled.binds[name].type.bind_processor(conn.dialect) else values[name]
            for name in compiled.positiontup)
        rows = conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {compiled.string}", args).all()
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
