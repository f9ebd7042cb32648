"""How long the notices job ("roll.notify") holds SQLite's write lock, per batch size.

    .venv/bin/python bench/notice_lock_bench.py [--parcels 1000] [--chunks 50,100,200,400]

Loads the demo District (`--parcels`) into a throwaway SQLite database and, for each batch
size, runs the queued notices job on a copy of it through the worker's own runner
(`jobs.runner.run`: a transaction per batch, its progress in it), with the emails composed
and queued in the outbox as the worker does. The write lock is held from a transaction's
first statement that writes (the driver begins it there) to its commit or rollback: the
engine's events time each such stretch, from the end of that first statement (so a wait
for another connection's lock is not counted as holding it; the first statement's own few
milliseconds are left out). Prints, per batch size, the longest and the median
hold over the job's batches, the job's wall time, and the load average (the machine may be
shared: a batch's hold grows with the load). SQLite's busy timeout is 5 s (`portal.db`).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import event, select  # noqa: E402

import portal.domains  # noqa: E402, F401  (every domain and document registered, as the worker)
from portal import clock, storage  # noqa: E402
from portal.db import Database, UnitOfWork, upgrade  # noqa: E402
from portal.demo import district  # noqa: E402
from portal.jobs import runner  # noqa: E402
from portal.models import Job  # noqa: E402
from portal.roll import notices  # noqa: E402

TODAY = date(2026, 11, 30)
WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


def holds(database: Database) -> list[float]:
    """The write lock's holds on `database` (seconds), appended as they end."""
    out: list[float] = []
    started: dict[int, float] = {}

    @event.listens_for(database.engine, "after_cursor_execute")
    def _write(conn, _cursor, statement, *_args):  # noqa: ANN001, ANN202
        if statement.lstrip().upper().startswith(WRITES):  # it ran: the lock is had
            started.setdefault(id(conn.connection.dbapi_connection), time.perf_counter())

    def _end(conn):  # noqa: ANN001, ANN202
        t = started.pop(id(conn.connection.dbapi_connection), None)
        if t is not None:
            out.append(time.perf_counter() - t)

    event.listen(database.engine, "commit", _end)
    event.listen(database.engine, "rollback", _end)
    return out


def demo(path: Path, parcels: int) -> None:
    """The demo District of `parcels` in a new SQLite file, its notices' job queued."""
    upgrade(f"sqlite:///{path}", "head")
    database = Database(f"sqlite:///{path}")
    try:
        district.load(database, parcels_n=parcels, users_n=len(district.SIGN_INS) + 2)
    finally:
        database.dispose()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--parcels", type=int, default=1000)
    parser.add_argument("--chunks", default="50,100,200,400")
    args = parser.parse_args()
    clock.set_fixed(TODAY)
    print("load average at the start: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        demo(folder / "bench.db", args.parcels)
        storage.use(storage.FolderStore(folder / "files"))
        for chunk in (int(c) for c in args.chunks.split(",")):
            copy = folder / f"chunk{chunk}.db"
            shutil.copyfile(folder / "bench.db", copy)
            db_copy = Database(f"sqlite:///{copy}")
            with UnitOfWork(db_copy) as uow:
                job_id = uow.session.scalar(select(Job.id).where(
                    Job.kind == notices.KIND, Job.status == "queued"))
            seen = holds(db_copy)
            notices.CHUNK = chunk
            t0 = time.perf_counter()
            job = runner.run(db_copy, job_id)
            wall = time.perf_counter() - t0
            batches = job.done and -(-job.done // chunk)
            print(f"CHUNK {chunk:4d}: {job.status}, {job.done} notices in {batches} batches, "
                  f"{wall:.1f} s; write lock held at most {max(seen) * 1000:.0f} ms "
                  f"(median {statistics.median(seen) * 1000:.0f} ms over {len(seen)} "
                  f"transactions that wrote); load {os.getloadavg()[0]:.2f}")
            db_copy.dispose()
        storage.use(None)
    print("load average at the end: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
