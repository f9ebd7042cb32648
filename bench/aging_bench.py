"""The aging report at scale: how long its figures and its whole CSV take on a
roll of N parcels, with the CPU time, the memory and the machine's load average. A script
that prints figures, not a timed test.

    .venv/bin/python bench/aging_bench.py [--parcels 50000] [--postgres [SERVER_URL]]

Builds a fresh database (SQLite in a temporary folder by default, or a throwaway PostgreSQL
database), imports N generated parcels (bench/roll_bench.py's), writes one published
assessment of $1,200.00 per parcel in twelve installments of $100.00 from 1 July 2026 and,
for every third parcel, a posted payment whose principal paid installments 1 to 3, all in
INSERT … SELECT statements; then, on 30 November 2026, times the report's figures
(`reports.figures`: one aggregate query) and every row streamed (`reports.rows`, as the
CSV), each line with its wall and CPU seconds, the resident and peak memory, and the load
average. The figures are checked against the data: every parcel owes installments 4 or 1
to 5, so the totals are known.
"""

from __future__ import annotations

import argparse
import os
import resource
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
from portal.accounts import bulk  # noqa: E402
from portal.db import Database, UnitOfWork, upgrade  # noqa: E402
from portal.models import (  # noqa: E402
    AssessmentRoll,
    Budget,
    BudgetVersion,
    FiscalYear,
    Parcel,
    User,
)
from portal.reports import reports  # noqa: E402

FY_START = date(2026, 7, 1)
TODAY = date(2026, 11, 30)
DUE = [date(2026 + (6 + k) // 12, (6 + k) % 12 + 1, 1) for k in range(12)]


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _timed(label: str, call):  # noqa: ANN001, ANN202
    wall, cpu = time.perf_counter(), _cpu()
    result = call()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{label:<32} {time.perf_counter() - wall:8.2f} s wall {_cpu() - cpu:8.2f} s CPU   "
          f"RSS {_rss_mib():6.0f} MiB  peak {_peak_mib():6.0f} MiB   load {load}", flush=True)
    return result


def _date(uow: UnitOfWork, day: date) -> str:
    return f"DATE '{day.isoformat()}'" if uow.session.get_bind().dialect.name == "postgresql" \
        else f"'{day.isoformat()}'"


def build(database: Database, n: int) -> None:
    def import_parcels() -> None:
        for batch in _batches(_parcels(n), IMPORT_BATCH):
            with UnitOfWork(database) as uow:
                bulk.insert_rows(uow, Parcel, batch)

    _timed(f"import {n:,} parcels", import_parcels)
    with clock.fixed(date(2026, 6, 10)), UnitOfWork(database) as uow:
        s = uow.session
        fy = FiscalYear(label="2026-2027", starts_on=FY_START, ends_on=date(2027, 6, 30))
        s.add(fy)
        s.flush()
        budget = Budget(fiscal_year_id=fy.id)
        s.add(budget)
        s.flush()
        total = Decimal(n) * Decimal("1200.00")
        version = BudgetVersion(budget_id=budget.id, version=1, status="adopted",
                                adopted_on=date(2026, 5, 15), total_to_assess=total)
        s.add(version)
        s.flush()
        roll = AssessmentRoll(budget_version_id=version.id, fiscal_year_id=fy.id,
                              status="published", total=total, published_at=clock.now())
        s.add(roll)
        s.flush()
        ids = {"fy": fy.id, "version": version.id, "roll": roll.id, "at": clock.now()}

    def write() -> None:
        with UnitOfWork(database) as uow:
            s = uow.session
            s.execute(text(
                "INSERT INTO assessments (parcel_id, fiscal_year_id, budget_version_id, roll_id, "
                "annual_amount, benefit_units, payer, notified_on, credit, created_at) "
                "SELECT id, :fy, :version, :roll, 1200.00, benefit_units, 'owner', :notified, "
                "0, :at FROM parcels"), {**ids, "notified": date(2026, 6, 10)})
            months = " UNION ALL ".join(f"SELECT {k + 1} AS n, {_date(uow, d)} AS due"
                                        for k, d in enumerate(DUE))
            s.execute(text(
                "INSERT INTO installments (assessment_id, number, due_date, amount) "
                f"SELECT a.id, m.n, m.due, 100.00 FROM assessments a CROSS JOIN ({months}) m"))
            s.execute(text(
                "INSERT INTO payments (parcel_id, fiscal_year_id, status, method, amount, "
                "lump_sum, purpose, idempotency_key, provider, refunded_amount, created_at, "
                "completed_at) SELECT id, :fy, 'succeeded', 'card', 300.00, :no, 'due_now', "
                "'bench-' || id, 'sandbox', 0, :at, :at FROM parcels WHERE id % 3 = 0"),
                {**ids, "no": False})
            s.execute(text(
                "INSERT INTO payment_allocations (payment_id, position, kind, amount, "
                "installment_number, rule) SELECT p.id, m.n, 'principal', 100.00, m.n, "
                "'R-A10' FROM payments p CROSS JOIN (SELECT 1 AS n UNION ALL SELECT 2 "
                "UNION ALL SELECT 3) m"))
            for table in ("assessments", "installments", "payments", "payment_allocations"):
                s.execute(text(f"ANALYZE {table}"))

    _timed("assessments, installments, payments", write)


def run(url: str, n: int) -> None:
    upgrade(url, "head")
    database = Database(url)
    build(database, n)
    with UnitOfWork(database) as uow:
        staff = User(email="staff@bench.pr", password_hash="x", name="Staff", is_staff=True)
        uow.session.add(staff)
    p = reports.Params(today=TODAY)
    with UnitOfWork(database) as uow:
        staff = uow.session.get(User, staff.id)
        figs = _timed("aging: figures", lambda: {
            f.code: f.value for f in reports.figures(uow, staff, "morosidad", p)})
        streamed = _timed("aging: every row streamed", lambda: sum(
            1 for _ in reports.rows(uow, staff, "morosidad", p)))
    paid = n // 3  # parcel ids 3, 6, ... (ids start at 1)
    expected = Decimal(n - paid) * 500 + Decimal(paid) * 200
    print(f"{figs['count']:,} parcels past due, {streamed:,} rows streamed; "
          f"0-30 {figs['d0_30']}, 31-90 {figs['d31_90']}, 91-365 {figs['d91_365']}, "
          f"over 365 {figs['over_365']}; total {figs['total']} (expected {expected})",
          flush=True)
    assert figs["total"] == expected and streamed == figs["count"] == n
    database.dispose()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parcels", type=int, default=50_000)
    ap.add_argument("--postgres", metavar="SERVER_URL", nargs="?",
                    const="postgresql+psycopg://postgres@127.0.0.1:5432/test",
                    help="run on a throwaway database on this PostgreSQL server")
    args = ap.parse_args()
    print(f"database: {'PostgreSQL' if args.postgres else 'SQLite'}, "
          f"{args.parcels:,} parcels; CPUs {os.cpu_count()}", flush=True)
    with (_postgres_database(args.postgres) if args.postgres else _sqlite_database()) as url:
        run(url, args.parcels)


if __name__ == "__main__":
    main()
