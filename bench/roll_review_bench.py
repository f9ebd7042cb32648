"""The roll's review at scale: how long the review page's figures and an amendment's
differences take on a roll of N parcels, and the memory they use. A script that prints
figures, not a timed test.

    .venv/bin/python bench/roll_review_bench.py [--parcels 200000] [--postgres [SERVER_URL]]

Builds a fresh database (as bench/roll_bench.py: SQLite in a temporary folder, or a throwaway
PostgreSQL database), imports N generated parcels, computes version 1's roll, writes its
assessments straight from the roll's lines in one INSERT … SELECT (a stand-in for publishing,
which bench/roll_bench.py measures: the review reads only the assessments' amounts), then
computes an amendment (version 2, the total 5 % higher; its computation keeps the review's
figures, `review.keep`) and times each of the review's reads: `review` of both rolls (the
kept figures and the fixed amounts; version 1's amendment part is read again, since
assessments were written after its computation), the amendment's `differences` (totals),
its first and a deep page, the whole CSV's rows streamed (`all_differences`), and last the
first view of a roll without kept figures (as one computed before they were kept: every
aggregate over its lines, once). Each line prints its seconds and the resident memory at its
end.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import date
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from roll_bench import (  # noqa: E402
    IMPORT_BATCH,
    _batches,
    _parcels,
    _peak_mib,
    _rss_mib,
    _sqlite_database,
)
from sqlalchemy import text  # noqa: E402
from web_bench import _postgres_database  # noqa: E402

from portal import clock  # noqa: E402
from portal.accounts import bulk
from portal.db import Database, UnitOfWork, upgrade  # noqa: E402
from portal.models import Assessment, Parcel, User  # noqa: E402
from portal.people import users  # noqa: E402
from portal.roll import budgets, review, roll
from portal.roll.budgets import LineInput  # noqa: E402

FY_START = date(2026, 7, 1)
PER_PAGE = 50


def _timed(label: str, call):  # noqa: ANN001, ANN202
    wall = time.perf_counter()
    result = call()
    print(f"{label:<34} {time.perf_counter() - wall:8.2f} s   RSS {_rss_mib():6.0f} MiB  "
          f"peak {_peak_mib():6.0f} MiB", flush=True)
    return result


def _version(uow: UnitOfWork, staff, total: Decimal, on: date,  # noqa: ANN001
             **kw) -> int:  # noqa: ANN003
    fy = budgets.ensure_fiscal_year(uow, FY_START)
    v = budgets.draft(uow, staff, fy, [LineInput("project", "Proyecto", "Project", total,
                                                 total)], reference="bench", **kw)
    budgets.adopt(uow, staff, v.id, on)
    return v.id


def run(url: str, n: int) -> None:
    upgrade(url, "head")
    database = Database(url)
    total = Decimal(n) * Decimal("420.00")
    with clock.fixed(date(2026, 5, 20)), UnitOfWork(database) as uow:
        staff = users.register(uow, "staff@bench.pr", "Quetzal-Orchid-7491-Lantern", "Staff")
        staff.is_staff = True
        v1 = _version(uow, staff, total, date(2026, 5, 20))
        staff_id = staff.id

    def import_parcels() -> None:
        for batch in _batches(_parcels(n), IMPORT_BATCH):
            with UnitOfWork(database) as uow:
                bulk.insert_rows(uow, Parcel, batch)
        with UnitOfWork(database) as uow:
            bulk.analyze(uow, Parcel)

    _timed(f"import {n:,} parcels", import_parcels)

    def compute(version_id: int) -> int:
        with clock.fixed(date(2026, 6, 10)), UnitOfWork(database) as uow:
            return roll.compute(uow, uow.session.get(User, staff_id), version_id).id

    first = _timed("compute version 1", lambda: compute(v1))

    def publish_stand_in() -> None:
        with UnitOfWork(database) as uow:
            uow.session.execute(text(
                "INSERT INTO assessments (parcel_id, fiscal_year_id, budget_version_id, "
                "roll_id, annual_amount, benefit_units, payer, notified_on, credit, "
                "created_at) SELECT l.parcel_id, r.fiscal_year_id, r.budget_version_id, r.id, "
                "l.amount, l.benefit_units, l.payer, :on, 0, :at FROM roll_lines l "
                "JOIN assessment_rolls r ON r.id = l.roll_id "
                "WHERE l.roll_id = :roll AND NOT l.exempt"),
                {"on": date(2026, 6, 10), "at": clock.now(), "roll": first})
            uow.session.execute(text(
                "UPDATE assessment_rolls SET status = 'published', published_at = :at "
                "WHERE id = :roll"), {"at": clock.now(), "roll": first})
        with UnitOfWork(database) as uow:
            bulk.analyze(uow, Assessment)

    _timed("assessments of version 1 written", publish_stand_in)
    with clock.fixed(date(2026, 11, 30)), UnitOfWork(database) as uow:
        v2 = _version(uow, uow.session.get(User, staff_id), total * Decimal("1.05"),
                      date(2026, 11, 30), effective_on=date(2026, 11, 30))
    second = _timed("compute version 2 (the amendment)", lambda: compute(v2))

    with UnitOfWork(database) as uow:
        staff = users.find_by_email(uow, "staff@bench.pr")
        r1 = _timed("review, version 1", lambda: review.review(uow, staff, first))
        r2 = _timed("review, version 2", lambda: review.review(uow, staff, second))
        d = _timed("differences: totals", lambda: review.differences(uow, staff, second))
        _timed("differences: first page", lambda: review.differences_page(
            uow, staff, second, limit=PER_PAGE, offset=0))
        deep = max(0, (d.changed // PER_PAGE - 1) * PER_PAGE)
        _timed("differences: last page", lambda: review.differences_page(
            uow, staff, second, limit=PER_PAGE, offset=deep))
        rows = _timed("differences: every row streamed",
                      lambda: sum(1 for _ in review.all_differences(uow, staff, second)))
    with UnitOfWork(database) as uow:
        review.forget(uow, second)
    with UnitOfWork(database) as uow:
        staff = users.find_by_email(uow, "staff@bench.pr")
        _timed("review, version 2, figures not kept",
               lambda: review.review(uow, staff, second))
        _timed("review, version 2, kept on that view",
               lambda: review.review(uow, staff, second))
    print(f"version 1: {r1.assessed:,} assessed, {r1.exempt:,} exempt, balanced "
          f"{r1.balanced}, {len(r1.bins)} bins; version 2: balanced {r2.balanced}; "
          f"{d.changed:,} parcels changed ({rows:,} rows streamed), +{d.increases} "
          f"-{d.decreases}", flush=True)
    database.dispose()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parcels", type=int, default=200_000)
    ap.add_argument("--postgres", metavar="SERVER_URL", nargs="?",
                    const="postgresql+psycopg://postgres@127.0.0.1:5432/test",
                    help="run on a throwaway database on this PostgreSQL server")
    args = ap.parse_args()
    print(f"database: {'PostgreSQL' if args.postgres else 'SQLite'}, "
          f"{args.parcels:,} parcels", flush=True)
    with (_postgres_database(args.postgres) if args.postgres else _sqlite_database()) as url:
        run(url, args.parcels)


if __name__ == "__main__":
    main()
