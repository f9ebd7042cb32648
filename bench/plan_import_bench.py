"""The CRIM's file of plan payments: memory and time of importing N rows.

    .venv/bin/python bench/plan_import_bench.py [--rows 2000,20000]

A throwaway SQLite database holds one reviewer and one approved plan; the file has N rows
on it, three in four good (each its own receipt) and one in four refused (a date written
15/01/2027). Each file is imported twice (`plan_import.import_file`: the second records
nothing new). Prints, for each N: the peak of Python's allocations during the first import
(`tracemalloc`), the CPU time per row of each import, and the ratio of the largest N's peak
to the smallest's with the load average: a ratio near 1 while N grows tenfold means the file
is read one record at a time and the report is bounded.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import tracemalloc
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from portal import clock  # noqa: E402
from portal.db import Database, UnitOfWork  # noqa: E402
from portal.exemptions import plan_import  # noqa: E402
from portal.models import Base, ExemptionCertification, Parcel, User  # noqa: E402


def scene(db: Database) -> tuple[User, str]:
    with UnitOfWork(db) as w:
        staff = User(email="reviewer@bench.pr", password_hash="x", is_staff=True,
                     staff_role="reviewer")
        parcel = Parcel(catastro="040-000-000-01", address="Calle Luna 1",
                        municipality="San Juan", owner_kind="private")
        w.session.add_all([staff, parcel])
        w.session.flush()
        cert = ExemptionCertification(parcel_id=parcel.id, fiscal_year_start=date(2026, 7, 1),
                                      status="approved", created_by_id=staff.id,
                                      filing_number="EXR-2026-000001",
                                      filed_on=date(2026, 11, 30), plan_payments=12,
                                      plan_first_due=date(2027, 1, 15))
        w.session.add(cert)
        w.session.flush()
        w.session.expunge(staff)
        return staff, cert.filing_number


def write(path: Path, number: str, rows: int) -> None:
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write("numero_radicacion,tipo,fecha,cantidad,recibo\r\n")
        for k in range(rows):
            day = "15/01/2027" if k % 4 == 3 else "2027-01-15"
            fh.write(f"{number},pago,{day},1.00,CRIM-{k:07d}\r\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", default="2000,20000")
    args = parser.parse_args()
    peaks = []
    for n in (int(x) for x in args.rows.split(",")):
        with tempfile.TemporaryDirectory() as tmp, clock.fixed(date(2027, 2, 17)):
            db = Database(f"sqlite:///{tmp}/bench.db")
            Base.metadata.create_all(db.engine)
            staff, number = scene(db)
            path = Path(tmp) / "crim.csv"
            write(path, number, n)
            tracemalloc.start()
            t0 = time.process_time()
            with UnitOfWork(db) as w:
                first = plan_import.import_file(w, staff, path)
            cpu1 = time.process_time() - t0
            _now, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            t0 = time.process_time()
            with UnitOfWork(db) as w:
                second = plan_import.import_file(w, staff, path)
            cpu2 = time.process_time() - t0
            peaks.append(peak)
            print(f"rows {n:>7}: recorded {first.recorded}, refused {first.refused}, listed "
                  f"{len(first.problems)}; again: already {second.already}, recorded "
                  f"{second.recorded}; peak {peak / 2**20:.1f} MiB; CPU "
                  f"{cpu1 / n * 1e3:.2f} ms/row first, {cpu2 / n * 1e3:.2f} ms/row again")
            db.engine.dispose()
    print(f"peak ratio largest/smallest: {peaks[-1] / peaks[0]:.2f} "
          f"(load average {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
