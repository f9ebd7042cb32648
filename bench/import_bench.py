"""The parcel roll's import at scale: write an N-parcel CSV file,
streaming, then import it as the staff's jobs run it, then compute and publish the roll.
A script that prints figures, not a timed test.

    .venv/bin/python bench/import_bench.py [--parcels 100000[,500000]] [--postgres [SERVER_URL]]
        [--no-roll] [--no-again] [--trace compute]

With two sizes or more (`--parcels 300000,1500000`), each size runs on its own fresh database
in a process of its own (so each has its own peak memory), and a last table gives each
stage's CPU per parcel (this process's, and the PostgreSQL server's) at every size, the
ratio of the largest size's to the smallest's (1.0 is linear: the same CPU per parcel), and
each size's peak resident memory (flat is constant memory).

Stages (each prints parcels/s, CPU seconds, the resident memory at its end and the process's
peak so far), on a fresh database (SQLite in a temporary folder; with `--postgres` a
throwaway database on the server, dropped afterwards):

- `write`: the CSV (Windows-1252, semicolons, CRLF, as Excel in Puerto Rico saves it; 90 %
  private parcels with one or two owners with emails, 7 % Authority land of which 40 % is
  transferred and leased, 3 % municipal), one row at a time to disk;
- `check`: the `roll.import` dry run (`jobs.runner.run`): pass 1 reads, checks and stages
  every row, a batch of `roll_import.BATCH` per transaction, and counts what would change;
- `import`: the `roll.import` job of the same import, as the staff's page starts it after
  the check: the file's checksum verified, then pass 2 writes parcels, owners' parties,
  shares and leases a batch per transaction, each batch compared with the roll as it is
  (with `--fresh`, a new upload of the file imported without a check: pass 1, then pass 2);
- `again`: the same file uploaded and imported a second time (pass 1 finds everything
  "same": nothing written);
- `compute`, `publish` (unless `--no-roll`): the adopted budget's roll as in
  bench/roll_bench.py, without the notices' PDFs.

The last line adds up the whole path: check + import + compute + publish.

`import_bench.py` is a script of its own beside `roll_bench.py` (whose import stage writes
generated rows straight into `parcels`, to time the roll alone): this one times the CSV path.
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing
import os
import random
import sys
import time
from datetime import date
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from roll_bench import (  # noqa: E402
    FY_START,
    SERVER,
    STAGES,
    TRACE,
    Stage,
    _job,
    _peak_mib,
    _rss_mib,
    _sqlite_database,
)
from sqlalchemy import func, select  # noqa: E402
from web_bench import _postgres_database  # noqa: E402

from portal import clock  # noqa: E402
from portal.db import Database, UnitOfWork, upgrade  # noqa: E402
from portal.models import Lease, OwnershipShare, Parcel, Party, RollImport, User  # noqa: E402
from portal.people import users  # noqa: E402
from portal.roll import budgets, roll_import
from portal.roll import roll_csv as ri  # noqa: E402
from portal.roll.budgets import LineInput  # noqa: E402


def write_csv(path: Path, n: int) -> None:
    """N parcels' rows, written one at a time (never a list of N rows)."""
    rng = random.Random(20262027)
    with open(path, "w", encoding="cp1252", newline="") as fh:
        out = csv.writer(fh, delimiter=";", lineterminator="\r\n")
        out.writerow([c.es for c in ri.COLUMNS])
        for i in range(n):
            r = rng.random()
            kind = "privado" if r < 0.90 else "autoridad" if r < 0.97 else "publico"
            transferred = kind == "autoridad" and rng.random() < 0.4
            owners = emails = ""
            if kind == "privado":
                if rng.random() < 0.3:
                    owners = f"Dueña {i} Rivera|Dueño {i} Colón"
                    emails = f"d{i}a@example.pr|d{i}b@example.pr"
                else:
                    owners, emails = f"Dueño {i} Pérez", f"d{i}@example.pr"
            lease = (["Café del Puerto LLC", "cafe@example.pr", "sí", f"C-{i}", "2026-07-01",
                      ""] if transferred else [""] * 6)
            out.writerow([f"{i // 10_000_000:03d}-{(i // 10_000) % 1000:03d}-"
                          f"{(i // 100) % 100:03d}-{i % 100:02d}",
                          f"Calle {i % 997} #{i % 1900 + 1}", "San Juan", "urbana", "0.25",
                          "60000.00", "85000.00", kind, "sí" if transferred else "no", "no",
                          str(Decimal(rng.randint(400, 15000)) / 100), owners, emails, "",
                          *lease])


def _import(database: Database, staff_id: int, path: Path, folder: Path, name: str,
            dry_run: bool, n: int, import_id: int | None = None) -> RollImport:
    """One `roll.import` job: of a new upload of the file, or of `import_id`."""
    if import_id is None:
        with UnitOfWork(database) as uow:
            staff = uow.session.get(User, staff_id)
            import_id = roll_import.register_path(uow, staff, path, folder).id
    _job(database, staff_id, "roll.import", {"import_id": import_id, "dry_run": dry_run}, n,
         name)
    with UnitOfWork(database) as uow:
        imp = uow.session.get(RollImport, import_id)
        uow.session.expunge(imp)
    print(f"         {imp.status}: {imp.rows:,} rows, {imp.errors:,} errors, new "
          f"{imp.new_count:,}, changed {imp.changed_count:,}, same {imp.same_count:,}",
          flush=True)
    return imp


def run(url: str, n: int, folder: Path, roll: bool, fresh: bool = False,
        again: bool = True) -> None:
    SERVER.watch(url)
    upgrade(url, "head")
    database = Database(url)
    with clock.fixed(date(2026, 5, 20)), UnitOfWork(database) as uow:
        staff = users.register(uow, "staff@bench.pr", "Quetzal-Orchid-7491-Lantern", "Staff")
        staff.is_staff = True
        fy = budgets.ensure_fiscal_year(uow, FY_START)
        total = Decimal(n) * Decimal("420.00")
        v = budgets.draft(uow, staff, fy, [LineInput("project", "Proyecto", "Project", total,
                                                     total)], reference="bench")
        budgets.adopt(uow, staff, v.id, date(2026, 5, 20))
        version_id, staff_id = v.id, staff.id
    path = folder / "padron.csv"
    print(f"start    RSS {_rss_mib():.0f} MiB, peak {_peak_mib():.0f} MiB", flush=True)
    with Stage("write", n):
        write_csv(path, n)
    print(f"         {path.stat().st_size / 2 ** 20:,.1f} MiB", flush=True)
    started = time.perf_counter()
    with clock.fixed(date(2026, 5, 21)):
        checked = _import(database, staff_id, path, folder, "check", True, n)
        _import(database, staff_id, path, folder, "import", False, n,
                None if fresh else checked.id)
        imported = time.perf_counter() - started
        if again:
            _import(database, staff_id, path, folder, "again", False, n)
    again_s = time.perf_counter() - started - imported
    with UnitOfWork(database) as uow:
        s = uow.session
        counts = {m.__tablename__: s.scalar(select(func.count()).select_from(m))
                  for m in (Parcel, Party, OwnershipShare, Lease)}
    print(f"         written: {counts}", flush=True)
    roll_seconds = 0.0
    if roll:
        t = time.perf_counter()
        with clock.fixed(date(2026, 6, 10)):
            computed = _job(database, staff_id, "roll.compute", {"version_id": version_id}, n)
            _job(database, staff_id, "roll.publish",
                 {"roll_id": computed["roll_id"], "notice_date": "2026-06-10"}, n)
        roll_seconds = time.perf_counter() - t
    print(f"total    {n:>10,} parcels: check + import {imported:.1f} s, compute + publish "
          f"{roll_seconds:.1f} s, so the whole path (check + import + compute + publish) "
          f"{imported + roll_seconds:.1f} s (the second import, a no-op: {again_s:.1f} s); "
          f"peak RSS {_peak_mib():.0f} MiB", flush=True)
    database.dispose()


def one_size(args: argparse.Namespace, n: int) -> None:
    print(f"database: {'PostgreSQL' if args.postgres else 'SQLite'}, {n:,} parcels", flush=True)
    with _sqlite_database() as sqlite_url:  # the temporary folder holds the file too
        folder = Path(sqlite_url.removeprefix("sqlite:///")).parent
        if args.postgres:
            with _postgres_database(args.postgres) as pg_url:
                run(pg_url, n, folder, not args.no_roll, args.fresh, not args.no_again)
            return
        run(sqlite_url, n, folder, not args.no_roll, args.fresh, not args.no_again)


def _child(args: argparse.Namespace, n: int, out: multiprocessing.Queue) -> None:
    one_size(args, n)
    out.put((list(STAGES), _peak_mib()))


def compare(args: argparse.Namespace, sizes: list[int]) -> None:
    """Each size in a process of its own, then CPU per parcel by stage across the sizes."""
    results: dict[int, tuple[list, float]] = {}
    ctx = multiprocessing.get_context("fork")
    for n in sizes:
        out = ctx.Queue()
        child = ctx.Process(target=_child, args=(args, n, out))
        child.start()
        results[n] = out.get()
        child.join()
        assert child.exitcode == 0, f"{n:,} parcels: exit {child.exitcode}"
    load = os.getloadavg()
    print(f"\nCPU per parcel by stage (µs; client = this process, server = PostgreSQL's "
          f"backends); load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
          f"({os.cpu_count()} CPUs)")
    head = "".join(f"{f'{n:,}':>22}" for n in sizes)
    print(f"{'stage':<9}{head}   {'ratio largest/smallest':>24}")
    names = [name for name, *_ in results[sizes[0]][0]]
    for i, name in enumerate(names):
        cells, per = [], []
        for n in sizes:
            _, parcels, cpu, server = results[n][0][i]
            c, srv = cpu / parcels * 1e6, (server or 0.0) / parcels * 1e6
            per.append((c, srv))
            cells.append(f"{c:9.1f} + {srv:6.1f} srv " if server is not None else f"{c:20.1f}  ")
        (c0, s0), (c1, s1) = per[0], per[-1]
        ratio = f"client {c1 / c0:4.2f}x" if c0 else "client  -  "
        if args.postgres:
            ratio += f", server {s1 / s0:4.2f}x" if s0 else ", server  -  "
        print(f"{name:<9}{''.join(cells)}   {ratio:>24}")
    print(f"{'peak RSS':<9}" + "".join(f"{results[n][1]:>18,.0f} MiB" for n in sizes))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parcels", default="100000",
                    help="parcels, or several sizes separated by commas (300000,1500000)")
    ap.add_argument("--postgres", metavar="SERVER_URL", nargs="?",
                    const="postgresql+psycopg://postgres@127.0.0.1:5432/test",
                    help="run on a throwaway database on this PostgreSQL server")
    ap.add_argument("--no-roll", action="store_true", help="only write and import the file")
    ap.add_argument("--no-again", action="store_true",
                    help="skip the second import of the same file (the no-op)")
    ap.add_argument("--fresh", action="store_true",
                    help="import a new upload of the file (pass 1 again), not the checked one")
    ap.add_argument("--trace", action="append", default=[], metavar="STAGE",
                    help="trace this stage's Python allocations (its CPU is then not comparable)")
    args = ap.parse_args()
    TRACE.update(args.trace)
    sizes = [int(x) for x in str(args.parcels).split(",") if x.strip()]
    if len(sizes) == 1:
        one_size(args, sizes[0])
    else:
        compare(args, sorted(sizes))


if __name__ == "__main__":
    main()
