"""A bank's bill file at scale: made for N loans, read by page, streamed as CSV,
and its exceptions report computed over every line, each with its wall and CPU seconds, the
resident and peak memory, and the load average. A script that prints figures, not a timed
test.

    .venv/bin/python bench/bill_file_bench.py [--loans 10000] [--postgres [SERVER_URL]]

Builds a fresh database (SQLite in a temporary folder by default, or a throwaway PostgreSQL
database) as bench/aging_bench.py does (N parcels, each assessed $1,200.00 in twelve
installments from 1 July 2026; a third with a posted payment), then a bank with a loan on
every parcel (INSERT … SELECT); on 30 November 2026:

- `make`: the bill file of fiscal year 2026-2027 (`lenders.bills.make`: the loans read by
  id 500 at a time, their facts in a few statements a batch, the lines in one);
- `page`: the file's first page with its aggregates (`lines_page`);
- `csv`: every line streamed (`lines_csv`, 500 at a time);
- `exceptions`: every owed line computed again with the payments since (`to_pay`, what the
  pay button does for an unfiltered file);
- `prepare`: one payment of the whole file, its items and exceptions report written 500
  lines at a time (`prepare`); `start`: its checkout, each item checked again against
  today's offer and its payments written 500 at a time (`start`, a provider answering at
  once);
- the same `make` for a due date (only what falls due by 15 December 2026);
- with `--api`, the API in one run (the app's test client, a token of the bank): the
  median of `--runs` calls of `GET /api/v1/bills` (the day's file made by `POST /bills`,
  kept: a page of lines),
  `GET /api/v1/loans` (the portfolio's list, after one call computing the day's figures)
  and a trivial call (`GET /api/v1/loan-changes`, an empty list), as ratios to it.

Memory should stay flat as N grows (the batches are expunged); compare `--loans 10000` with
`--loans 50000`.

At the island's scale (`--island`: PostgreSQL, a roll of 1.5 M parcels generated in SQL, a
bank servicing 100,000 of them spread over it, and the aging report over the whole roll
first) each stage prints its own peak memory (the process's VmHWM reset before it). Run it
with `nice -n 19` on a shared machine; docs/LENDERS.md has a run's figures.
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from aging_bench import _timed, aging, build  # noqa: E402
from roll_bench import _sqlite_database  # noqa: E402
from sqlalchemy import text  # noqa: E402
from web_bench import _postgres_database  # noqa: E402

from portal import clock  # noqa: E402
from portal.db import Database, UnitOfWork, upgrade  # noqa: E402

TODAY = date(2026, 11, 30)


def _bank(database: Database, loans: int, parcels: int) -> int:
    """A bank, its administrator, and `loans` loans in force spread over the roll of
    `parcels` (every k-th parcel; every parcel when they are as many): the user's id."""
    from portal.models import Lender, Party, PartyMember, User
    with UnitOfWork(database) as uow:
        s = uow.session
        user = User(email="banco@bench.pr", password_hash="x", name="Oficial")
        bank = Party(kind="organisation", name="Banco de Prueba")
        s.add_all([user, bank])
        s.flush()
        lender = Lender(party_id=bank.id, code="BNK")
        s.add(lender)
        s.flush()
        s.add(PartyMember(party_id=bank.id, user_id=user.id, role="administrator"))
        s.execute(text(
            "INSERT INTO loans (lender_id, parcel_id, loan_number, starts_on, escrow, "
            "created_at) SELECT :lender, id, 'BNK-' || id, :start, :yes, :at FROM parcels "
            "WHERE id % :every = 0 ORDER BY id LIMIT :loans"),
            {"lender": lender.id, "start": date(2020, 1, 1), "yes": True, "at": clock.now(),
             "every": max(1, parcels // loans), "loans": loans})
        s.execute(text("ANALYZE loans"))
        return user.id


def _median(name: str, call, runs: int) -> float:  # noqa: ANN001
    import statistics
    import time
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        r = call()
        times.append(time.perf_counter() - t)
        assert r.status_code == 200, r.get_data(as_text=True)[:300]
    m = statistics.median(times)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{name:<32} median {m * 1000:8.1f} ms ({runs} runs)   load {load}", flush=True)
    return m


def api(database: Database, url: str, uid: int, runs: int) -> None:
    import tempfile

    from portal.app import create_app
    from portal.lenders import tokens
    from portal.models import Lender, User
    from portal.web.lenders_api import routes
    routes.PER_TOKEN = routes.PER_ADDRESS = (1_000_000, 60)  # the bench is one client
    with UnitOfWork(database) as uow:
        user = uow.session.get(User, uid)
        lender = uow.session.query(Lender).one()
        _tok, secret = tokens.create_token(uow, user, lender.id, "bench", "write", 30)
    tmp = Path(tempfile.mkdtemp(prefix="bill-bench-"))
    os.environ["PORTAL_INSTANCE"] = str(tmp)
    os.environ.pop("REDIS_URL", None)
    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "DATABASE_URL": url,
                      "INSTANCE_PATH": str(tmp), "SERVER_NAME": "localhost",
                      "MAIL_SERVER": None, "OUTBOX_DIR": str(tmp / "outbox"),
                      "RATELIMIT_ENABLED": False})
    c = app.test_client()
    auth = {"Authorization": f"Bearer {secret}"}
    _timed("api: POST /bills, the day's file (made above: the same)",
           lambda: c.post("/api/v1/bills", headers={**auth, "Content-Type": "application/json"},
                          data="{}"))
    _timed("api: GET /loans, the day's figures", lambda: c.get("/api/v1/loans", headers=auth))
    trivial = _median("GET /loan-changes (trivial)",
                      lambda: c.get("/api/v1/loan-changes", headers=auth), runs)
    bills_ = _median("GET /bills (page 1)", lambda: c.get("/api/v1/bills", headers=auth), runs)
    last = _median("GET /bills?page=last", lambda: c.get(
        f"/api/v1/bills?page={-(-_lines(database) // 50)}", headers=auth), runs)
    loans = _median("GET /loans (page 1)", lambda: c.get("/api/v1/loans", headers=auth), runs)
    print(f"ratios to the trivial call: /bills {bills_ / trivial:.1f}x, /bills last page "
          f"{last / trivial:.1f}x, /loans {loans / trivial:.1f}x", flush=True)


class _Gateway:
    """A provider that answers at once (the bench times the portal, not the network)."""

    name = "sandbox"

    def create_checkout(self, req):  # noqa: ANN001, ANN201
        from portal.payments.gateway import CheckoutSession
        return CheckoutSession(id=f"cs_bench_{req.payment_id}", url="https://pay.example/x",
                               status="open", payment_status="unpaid", amount=req.amount,
                               currency=req.currency, client_reference_id=req.payment_id,
                               metadata=req.metadata())


def _lines(database: Database) -> int:
    from portal.models import BillFile
    with UnitOfWork(database) as uow:
        return uow.session.query(BillFile).order_by(BillFile.id).first().lines


def run(url: str, n: int, *, parcels: int | None = None, with_aging: bool = False,
        with_api: bool = False, runs: int = 10, island: bool = False) -> None:
    from portal.lenders import bill_jobs, bills
    from portal.models import User
    from portal.payments.service import start_many
    parcels = parcels or n
    upgrade(url, "head")
    database = Database(url)
    build(database, parcels)
    if with_aging:
        aging(database, parcels)
    with clock.fixed(TODAY):
        uid = _timed(f"bank with {n:,} loans", lambda: _bank(database, n, parcels))
        with UnitOfWork(database) as uow:
            user = uow.session.get(User, uid)
            _timed("click: the file's size (above 1,000: a job)",
                   lambda: bill_jobs.file_size(uow, user))
            f = _timed("make: the bill file", lambda: bills.make(uow, user))
            fid = f.id
            print(f"         {f.lines:,} lines, total {f.total}", flush=True)
        with UnitOfWork(database) as uow:
            user = uow.session.get(User, uid)
            page = _timed("page: the first 50 lines", lambda: bills.lines_page(
                uow, user, fid, bills.Filters(owed=True)))
            print(f"         {page.count:,} lines owed, {page.total}", flush=True)
            size = _timed("csv: every line streamed", lambda: sum(
                len(line) for line in bills.lines_csv(uow, user, fid, bills.Filters(), "es")))
            print(f"         {size / 1e6:.2f} MB", flush=True)
            if not island:  # in memory (prepare writes the same a batch at a time)
                report = _timed("exceptions: every owed line", lambda: bills.to_pay(
                    uow, user, fid, bills.Filters()))
                print(f"         {len(report.choices):,} to pay, {len(report.exceptions):,} "
                      f"exceptions, total {report.total}", flush=True)
                del report
        with UnitOfWork(database) as uow:
            user = uow.session.get(User, uid)
            _timed("click: the payment's size (above 1,000: a job)",
                   lambda: bill_jobs.prepare_size(uow, user, fid, bills.Filters()))
            pay = _timed("prepare: one payment of the whole file", lambda: bills.prepare(
                uow, user, fid, bills.Filters()))
            pid, total = pay.id, pay.total
            print(f"         {pay.items:,} items, {pay.exceptions:,} exceptions kept, "
                  f"total {total}", flush=True)
        with UnitOfWork(database) as uow:
            user = uow.session.get(User, uid)
            uow.session.expunge(user)
        plan = bills.to_start(database, user, fid, pid, expected_total=total)
        started = _timed("start: its checkout, every item checked again", lambda: start_many(
            database, user=user, key=plan.key, total=plan.total, batches=plan.batches,
            created=plan.created, language="es", gateway=_Gateway(), description="bench",
            success_url=str, cancel_url=str))
        print(f"         checkout {started.checkout_id}", flush=True)
        if island:
            database.dispose()
            return
        with UnitOfWork(database) as uow:
            user = uow.session.get(User, uid)
            g = _timed("make: due by 15 December 2026", lambda: bills.make(
                uow, user, due_by=date(2026, 12, 15)))
            print(f"         {g.lines:,} lines, total {g.total}", flush=True)
        if with_api:
            api(database, url, uid, runs)
    database.dispose()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--loans", type=int, default=10_000)
    ap.add_argument("--parcels", type=int, default=None,
                    help="the roll's size (default: as many as the loans; the loans are "
                         "then spread over it)")
    ap.add_argument("--aging", action="store_true",
                    help="also time the aging report over the whole roll (bench/aging_bench)")
    ap.add_argument("--island", action="store_true",
                    help="the island's scale: --postgres --parcels 1500000 --loans 100000 "
                         "--aging, without the in-memory exceptions and the due-date file")
    ap.add_argument("--postgres", metavar="SERVER_URL", nargs="?",
                    const="postgresql+psycopg://postgres@127.0.0.1:5432/test",
                    help="run on a throwaway database on this PostgreSQL server")
    ap.add_argument("--api", action="store_true",
                    help="also time the API's bill and loan lists against a trivial call")
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()
    if args.island:
        args.postgres = args.postgres or "postgresql+psycopg://postgres@127.0.0.1:5432/test"
        args.parcels = args.parcels or 1_500_000
        args.loans = args.loans if args.loans != 10_000 else 100_000
        args.aging = True
    print(f"database: {'PostgreSQL' if args.postgres else 'SQLite'}, "
          f"{args.parcels or args.loans:,} parcels, {args.loans:,} loans; "
          f"CPUs {os.cpu_count()}; nice {os.nice(0)}", flush=True)
    with (_postgres_database(args.postgres) if args.postgres else _sqlite_database()) as url:
        run(url, args.loans, parcels=args.parcels, with_aging=args.aging, with_api=args.api,
            runs=args.runs, island=args.island)


if __name__ == "__main__":
    main()
