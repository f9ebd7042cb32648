"""Data-layer benchmark: the scaled demo's load time, and the services behind the pages.

    .venv/bin/python bench/web_data_bench.py [--parcels 20000] [--users 5000] [--runs 20]
                                             [--database sqlite|postgresql]

Loads the demo District scaled to `--parcels` / `--users` into a fresh database (an SQLite
file in a temporary folder, or a throwaway PostgreSQL database on 127.0.0.1:5432), then
measures, as of the demo's "today" (2026-11-30), for the demo owner, a generic owner and the
demo lender: the SQL statements and the median time of `accounts.dashboard`,
`accounts.statement_for` (the parcel page) and `accounts.lender_portfolio`, and finally
recomputing the roll (`roll.compute`, a staff batch) over every parcel.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from datetime import date
from pathlib import Path

from sqlalchemy import create_engine, event, select, text

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from portal import clock, db  # noqa: E402
from portal.accounts import statements  # noqa: E402
from portal.demo import district  # noqa: E402
from portal.models import AssessmentRoll, Budget, BudgetVersion, FiscalYear  # noqa: E402
from portal.people import users  # noqa: E402
from portal.roll import budgets, roll  # noqa: E402
from portal.roll.budgets import LineInput  # noqa: E402

TODAY = date(2026, 11, 30)
PG_SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


class Counter:
    def __init__(self, engine):
        self.engine, self.n = engine, 0

    def hit(self, *_a):
        self.n += 1

    def __enter__(self):
        event.listen(self.engine, "before_cursor_execute", self.hit)
        return self

    def __exit__(self, *_e):
        event.remove(self.engine, "before_cursor_execute", self.hit)


def measure(database: db.Database, runs: int, fn) -> tuple[int, float]:
    with Counter(database.engine) as c, database.unit_of_work() as uow:
        fn(uow)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        with database.unit_of_work() as uow:
            fn(uow)
        times.append(time.perf_counter() - t)
    return c.n, statistics.median(times) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--parcels", type=int, default=20000)
    ap.add_argument("--users", type=int, default=5000)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    args = ap.parse_args()
    cleanup = None
    if args.database == "sqlite":
        tmp = tempfile.TemporaryDirectory()
        url = f"sqlite:///{Path(tmp.name) / 'bench.db'}"
    else:
        name = f"portal_bench_{uuid.uuid4().hex[:8]}"
        admin = create_engine(PG_SERVER, isolation_level="AUTOCOMMIT")
        with admin.connect() as c:
            c.execute(text(f'CREATE DATABASE "{name}"'))
        url = PG_SERVER.rsplit("/", 1)[0] + f"/{name}"

        def cleanup() -> None:
            with admin.connect() as c:
                c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    try:
        db.upgrade(url)
        database = db.Database(url)
        t = time.process_time()
        with clock.fixed(TODAY):  # the demo placed around the day the bench reads it on
            result = district.load(database, parcels_n=args.parcels, users_n=args.users)
        print(f"demo: {result.parcels} parcels, {result.users} users loaded in "
              f"{result.seconds:.1f} s ({time.process_time() - t:.1f} s CPU) on {args.database}")
        clock.set_fixed(TODAY)
        with database.unit_of_work() as uow:
            owner = users.find_by_email(uow, "owner@demo.pr")
            generic = users.find_by_email(uow, "user00001@demo.pr") or owner
            lender = users.find_by_email(uow, "lender@demo.pr")
            staff = users.find_by_email(uow, "staff@demo.pr")
            shop = statements.dashboard(uow, owner)[1].parcel.id
        print(f"{'what':<42}{'SQL':>5}{'median ms':>12}")
        for label, fn in (
            ("dashboard, demo owner (3 parcels)", lambda u: statements.dashboard(u, owner)),
            ("dashboard, generic owner", lambda u: statements.dashboard(u, generic)),
            ("parcel page (statement_for), delinquent",
             lambda u: statements.statement_for(u, owner, shop, with_payments=False, rows=True)),
            ("lender portfolio (50 loans)",
             lambda u: statements.lender_portfolio(u, lender, offset=0, limit=50)),
            ("load_user", lambda u: users.load_user(u, owner.id)),
        ):
            n, ms = measure(database, args.runs, fn)
            print(f"{label:<42}{n:>5}{ms:>12.2f}")
        # The roll of an amendment over every parcel: a staff batch, all or nothing.
        with database.unit_of_work() as uow:
            fy = uow.session.scalar(select(FiscalYear))
            v1 = uow.session.scalar(select(BudgetVersion).join(Budget)
                                    .where(Budget.fiscal_year_id == fy.id))
            lines = [LineInput(ln.kind, ln.description_es, ln.description_en, ln.amount,
                               ln.financed_by_assessments) for ln in budgets.lines(uow, v1.id)]
            v2 = budgets.draft(uow, staff, fy, lines, "bench", effective_on=TODAY)
            budgets.adopt(uow, staff, v2.id, TODAY)
            v2_id = v2.id
        t = time.perf_counter()
        with database.unit_of_work() as uow:
            r = roll.compute(uow, staff, v2_id)
            n_lines = r.assessed_count + r.exempt_count
        print(f"roll.compute over {n_lines} parcels: {time.perf_counter() - t:.2f} s")
        with database.unit_of_work() as uow:
            assert uow.session.scalar(select(AssessmentRoll).where(
                AssessmentRoll.budget_version_id == v2_id)).status == "computed"
        database.dispose()
    finally:
        clock.set_fixed(None)
        if cleanup is not None:
            cleanup()


if __name__ == "__main__":
    main()
