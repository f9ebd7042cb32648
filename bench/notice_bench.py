"""Assessment notice benchmark: notices rendered per second on one core (target >= 50/s).

    .venv/bin/python bench/notice_bench.py [--notices 200] [--rounds 3]

Loads the demo District into a throwaway SQLite database, reads the facts of the first
`--notices` notices of its published roll as the job "roll.notify" does (one batch:
`roll.notices._facts`), words each in its payer's language, then times, in this one
process (one core; CPU time, so the other work on a shared machine counts little):

- each notice alone as its own PDF (`render_notice`: what the staff's and the owner's
  downloads do, less the reading);
- the batch as one print file (`render_print_file`: what the job writes);
- one whole step of the job (read, word, issue no code, render the print file, store it,
  record the deliveries; no email is sent) on a copy of the database.

Prints notices per second (CPU) for each, the best of `--rounds`, and the load average at
the start and the end (the machine may be shared: CPU time moves less than the wall clock,
but not nothing).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import select  # noqa: E402

from portal import clock, storage  # noqa: E402
from portal.db import Database, UnitOfWork, upgrade  # noqa: E402
from portal.demo import district  # noqa: E402
from portal.i18n import use_language  # noqa: E402
from portal.models import AssessmentRoll, Notice, User  # noqa: E402
from portal.pdf.assessment_notice import render_notice, render_print_file  # noqa: E402
from portal.roll import notices  # noqa: E402

TODAY = date(2026, 11, 30)
TARGET = 50.0
BASE = "http://127.0.0.1:5000"


def cpu(work: object) -> float:
    start = time.process_time()
    work()  # type: ignore[operator]
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--notices", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    clock.set_fixed(TODAY)
    print("load average at the start: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        url = f"sqlite:///{folder / 'bench.db'}"
        upgrade(url, "head")
        database = Database(url)
        t0 = time.perf_counter()
        district.load(database, users_n=len(district.SIGN_INS) + 2)
        print(f"demo loaded in {time.perf_counter() - t0:.1f} s")
        with UnitOfWork(database) as uow:
            roll = uow.session.scalar(select(AssessmentRoll).where(
                AssessmentRoll.status == "published").order_by(AssessmentRoll.id))
            rows = uow.session.execute(notices._notice_rows(roll.id)
                                       .order_by(Notice.parcel_id).limit(args.notices)).all()
            facts = notices._facts(uow, notices._Roll(uow, roll), rows)
            staff = uow.session.scalar(select(User).where(User.email == "staff@demo.pr"))
            staff_id, roll_id = staff.id, roll.id
        n = len(facts)
        docs = []
        for f in facts:
            with use_language(f.language):
                docs.append((notices.document(f, BASE, "claimed"), f.language))
        langs = {lang for _, lang in docs}
        first = cpu(lambda: render_notice(*docs[0]))
        print(f"{n} notices ({', '.join(sorted(langs))}); the first render (fonts read, "
              f"shared subset made): {first * 1000:.0f} ms")
        singles = min(cpu(lambda: [render_notice(d, lang) for d, lang in docs])
                      for _ in range(args.rounds))
        sizes = [len(render_notice(d, lang)) for d, lang in docs[:20]]
        print(f"each notice as its own PDF: {n / singles:.0f} notices/s per core "
              f"({singles / n * 1000:.1f} ms each, about {sum(sizes) // len(sizes) // 1024} "
              f"KiB; target >= {TARGET:.0f}/s)")
        batch = min(cpu(lambda: render_print_file(docs)) for _ in range(args.rounds))
        size = len(render_print_file(docs))
        print(f"the batch as one print file: {n / batch:.0f} notices/s per core "
              f"({batch:.2f} s for {n}, {size // 1024} KiB)")
        storage.use(storage.FolderStore(folder / "files"))
        best = None
        for k in range(args.rounds):
            copy = folder / f"step{k}.db"
            shutil.copyfile(folder / "bench.db", copy)
            db_copy = Database(f"sqlite:///{copy}")
            with UnitOfWork(db_copy) as uow:
                work = notices.Notification(uow.session.get(User, staff_id), roll_id,
                                                 {"PORTAL_BASE_URL": BASE})
                work.begin(uow)
                work._email = lambda *a, **k: None  # no email: the rendering is measured
                spent = cpu(lambda step=work.step, u=uow: step(u))
                codes = work.counts["codes"]
                uow.rollback()
            db_copy.dispose()
            best = spent if best is None else min(best, spent)
        print(f"one step of the job (a batch of {min(n, notices.CHUNK)}, with "
              f"{codes} new access codes): "
              f"{min(n, notices.CHUNK) / best:.0f} notices/s per core")
        storage.use(None)
        database.dispose()
    print("load average at the end: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
