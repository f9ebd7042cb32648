"""The roll at island scale: import, compute and publish N parcels; parcels/s per stage and
peak memory. A script that prints figures, not a timed test.

    .venv/bin/python bench/roll_bench.py [--parcels 100000] [--postgres [SERVER_URL]]
        [--trace compute] [--no-publish]

Builds a fresh database (SQLite in a temporary folder; with `--postgres`, a throwaway
database on the server, dropped afterwards), then:

- import: N generated parcels (90 % private, 7 % Authority land of which 40 % transferred,
  3 % municipal) streamed into `parcels` a batch of 5,000 per transaction with
  `bulk.insert_rows` (COPY on PostgreSQL), never a list of N rows; the CSV reader of item 4
  is not built yet, so this stage times the writing only;
- compute and publish: the budget's roll run as the background jobs run them
  (`jobs.runner.run`: `roll.Computation`, `roll.Publication`, a batch of `roll.CHUNK`
  parcels per transaction with the job's progress), without the notices' PDFs
  (`--no-publish`: compute only).

Each stage prints its parcels/s (wall clock), its CPU seconds, the PostgreSQL server's CPU
seconds for the bench's database (its backends, read from /proc: the server runs on this
machine; "-" on SQLite), the resident memory at its end and the process's peak so far
(`ru_maxrss`); `--trace compute` adds the stage's traced peak of Python allocations
(tracemalloc, which slows it: that stage's CPU is then not comparable). On a machine shared
with other work the wall clock varies with the load; the two CPU figures do not, and their
sum bounds what the stage costs on two idle cores.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import func, select  # noqa: E402
from web_bench import _postgres_database  # noqa: E402

from portal import clock  # noqa: E402
from portal.accounts import bulk
from portal.db import Database, UnitOfWork, reset_databases, upgrade  # noqa: E402
from portal.jobs import runner
from portal.models import Assessment, Installment, Parcel, User  # noqa: E402
from portal.people import users  # noqa: E402
from portal.roll import budgets
from portal.roll import roll as _roll  # noqa: F401 (registers the roll's jobs)
from portal.roll.budgets import LineInput  # noqa: E402

IMPORT_BATCH = 5000
FY_START = date(2026, 7, 1)


class Server:
    """CPU seconds the PostgreSQL server's processes spent on the bench's database (each
    backend's user + system time from /proc; a backend that ended counts what it was last
    seen with)."""

    def __init__(self) -> None:
        self.conninfo: str | None = None
        self.seen: dict[int, int] = {}

    def watch(self, url: str) -> None:
        from sqlalchemy.engine import make_url
        u = make_url(url)
        if u.get_backend_name() == "postgresql":
            self.conninfo = u.set(drivername="postgresql").render_as_string(
                hide_password=False)

    def seconds(self) -> float | None:
        if self.conninfo is None:
            return None
        import psycopg
        with psycopg.connect(self.conninfo) as conn:
            pids = [r[0] for r in conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid()")]
        for pid in pids:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # not on this machine, or just ended
            self.seen[pid] = int(fields[11]) + int(fields[12])  # utime, stime
        return sum(self.seen.values()) / os.sysconf("SC_CLK_TCK")


SERVER = Server()
#: Each stage's (name, parcels, CPU seconds of this process, the server's CPU seconds or
#: None), in the order they ran: bench/import_bench.py compares them across sizes.
STAGES: list[tuple[str, int, float, float | None]] = []
#: Stages whose Python allocations are traced (`--trace compute`): each prints its traced peak
#: (tracemalloc, which slows the stage: its CPU figures are not comparable with an untraced run).
TRACE: set[str] = set()


def _rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _parcels(n: int) -> Iterator[dict]:
    rng = random.Random(20262027)
    for i in range(n):
        r = rng.random()
        owner = "private" if r < 0.90 else "authority" if r < 0.97 else "public"
        yield {"catastro": f"{i // 1_000_000:03d}-{(i // 1000) % 1000:03d}-{i % 1000:03d}-00",
               "address": f"Calle {i % 997} #{i % 1900 + 1}", "municipality": "San Juan",
               "zone": "urban", "land_area_cuerdas": Decimal("0.250000"),
               "land_valuation": Decimal("60000.00"), "structure_valuation": Decimal("0.00"),
               "owner_kind": owner, "transferred": owner == "authority" and rng.random() < 0.4,
               "tax_incentive_exempt": False,
               "benefit_units": Decimal(rng.randint(400, 15000)) / 100}


def _batches(rows: Iterator[dict], size: int) -> Iterator[list[dict]]:
    batch: list[dict] = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


class Stage:
    def __init__(self, name: str, parcels: int):
        self.name, self.parcels = name, parcels

    def __enter__(self) -> Stage:
        self.server = SERVER.seconds()
        if self.name in TRACE:
            tracemalloc.start()
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        wall = time.perf_counter() - self.wall
        cpu = time.process_time() - self.cpu
        server = SERVER.seconds()
        self.seconds = wall
        used_s = server - self.server if server is not None else None
        STAGES.append((self.name, self.parcels, cpu, used_s))
        used = f"{used_s:7.1f} s" if used_s is not None else "      -  "
        traced = ""
        if tracemalloc.is_tracing():
            traced = f"  traced peak {tracemalloc.get_traced_memory()[1] / 2 ** 20:.1f} MiB"
            tracemalloc.stop()
        print(f"{self.name:<8} {self.parcels:>10,} parcels {wall:8.1f} s "
              f"{self.parcels / wall:>10,.0f} parcels/s  CPU {cpu:7.1f} s  server {used}  "
              f"RSS {_rss_mib():7.0f} MiB  peak {_peak_mib():7.0f} MiB{traced}", flush=True)


def _job(database: Database, staff_id: int, kind: str, params: dict, n: int,
         label: str | None = None) -> dict:
    """Submit and run one job as the worker runs it, timed as a stage (named `label`, else
    the kind's last word); its result."""
    with UnitOfWork(database) as uow:
        job_id = runner.submit(uow, uow.session.get(User, staff_id), kind, params).id
    with Stage(label or kind.split(".")[1], n):
        job = runner.run(database, job_id)
    assert job is not None and job.status == "succeeded", (job.error_code, job.error_params)
    return job.result


def run(url: str, n: int, publish: bool = True) -> None:
    SERVER.watch(url)
    upgrade(url, "head")
    database = Database(url)
    with clock.fixed(date(2026, 5, 20)), UnitOfWork(database) as uow:
        staff = users.register(uow, "staff@bench.pr", "Quetzal-Orchid-7491-Lantern", "Staff")
        staff.is_staff = True
        fy = budgets.ensure_fiscal_year(uow, FY_START)
        total = Decimal(n) * Decimal("420.00")  # about the demo's share per parcel
        v = budgets.draft(uow, staff, fy, [LineInput("project", "Proyecto", "Project", total,
                                                     total)], reference="bench")
        budgets.adopt(uow, staff, v.id, date(2026, 5, 20))
        version_id, staff_id = v.id, staff.id
    print(f"start    RSS {_rss_mib():.0f} MiB, peak {_peak_mib():.0f} MiB", flush=True)
    started = time.perf_counter()
    with Stage("import", n):
        for batch in _batches(_parcels(n), IMPORT_BATCH):
            with UnitOfWork(database) as uow:
                bulk.insert_rows(uow, Parcel, batch)
        with UnitOfWork(database) as uow:
            bulk.analyze(uow, Parcel)
    with clock.fixed(date(2026, 6, 10)):
        computed = _job(database, staff_id, "roll.compute", {"version_id": version_id}, n)
        if publish:
            _job(database, staff_id, "roll.publish",
                 {"roll_id": computed["roll_id"], "notice_date": "2026-06-10"}, n)
    seconds = time.perf_counter() - started
    with UnitOfWork(database) as uow:
        a = uow.session.scalar(select(func.count()).select_from(Assessment))
        i = uow.session.scalar(select(func.count()).select_from(Installment))
    print(f"total    {n:>10,} parcels {seconds:8.1f} s  ({a:,} assessments, {i:,} "
          f"installments)  peak RSS {_peak_mib():.0f} MiB", flush=True)
    database.dispose()


@contextmanager
def _sqlite_database() -> Iterator[str]:
    tmp = Path(tempfile.mkdtemp(prefix="roll_bench_"))
    try:
        yield f"sqlite:///{tmp / 'portal.db'}"
    finally:
        reset_databases()
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parcels", type=int, default=100_000)
    ap.add_argument("--postgres", metavar="SERVER_URL", nargs="?",
                    const="postgresql+psycopg://postgres@127.0.0.1:5432/test",
                    help="run on a throwaway database on this PostgreSQL server")
    ap.add_argument("--trace", action="append", default=[], metavar="STAGE",
                    help="trace this stage's Python allocations (its CPU is then not comparable)")
    ap.add_argument("--no-publish", action="store_true", help="import and compute only")
    args = ap.parse_args()
    TRACE.update(args.trace)
    print(f"database: {'PostgreSQL' if args.postgres else 'SQLite'}, "
          f"{args.parcels:,} parcels", flush=True)
    with (_postgres_database(args.postgres) if args.postgres else _sqlite_database()) as url:
        run(url, args.parcels, not args.no_publish)


if __name__ == "__main__":
    main()
