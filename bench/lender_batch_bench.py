"""The lenders' bulk certifications at scale (J7): a 10,000-row CSV submitted and processed
as the background job runs it. A script that prints figures, not a timed test.

    .venv/bin/python bench/lender_batch_bench.py [--rows 10000] [--step N] [--one-by-one]
                                                 [--postgres [SERVER_URL]]

On a fresh database (SQLite in a temporary folder; with `--postgres` a throwaway database
on the server), a lender with `--rows` active loans, each on a home with one owner and the
CRIM's facts of the open fiscal year, is written in bulk. Then, each stage printing rows/s,
the bench's CPU seconds and the rows per second of them (the wall clock depends on what
else runs on the machine), the PostgreSQL server's CPU seconds with `--postgres`, the
resident memory at its end and the process's peak:

- `submit`: the CSV (Windows-1252, semicolons, CRLF, as Excel in Puerto Rico saves it)
  decoded and recorded with its rows (`lender_batches.submit_csv`);
- `process`: the `lender.certifications` job (`jobs.runner.run`), a step of
  `lender_batches.STEP` rows per transaction, filed together (`exemptions.batch_filing`;
  `--one-by-one`: through the single filing's path, a row at a time, to compare); the
  resident memory is sampled after each step (constant memory: it should not grow with the
  rows done);
- `again`: the same file a second time (every row "duplicate": nothing filed).

Target: `process` at 1,000 rows/s or more on the development machine.
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
import time
from datetime import date
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from roll_bench import FY_START, SERVER, _peak_mib, _rss_mib, _sqlite_database  # noqa: E402
from web_bench import _postgres_database  # noqa: E402

from portal import clock  # noqa: E402
from portal.db import Database, UnitOfWork, upgrade  # noqa: E402

TODAY = date(2026, 11, 30)


def _world(database: Database, n: int) -> None:
    """A lender, its user, and `n` loans on homes with one owner and the year's facts."""
    from portal.accounts import bulk
    from portal.models import (
        ExemptionCertification,
        ExemptionOwner,
        Lender,
        LenderBatchRow,
        Loan,
        OwnershipShare,
        Parcel,
        Party,
        PartyMember,
        PropertyTaxFact,
        User,
    )
    with UnitOfWork(database) as uow:
        s = uow.session
        user = User(email="banco@bench.pr", password_hash="x", name="Oficial")
        bank = Party(kind="organisation", name="Banco de Prueba")
        s.add_all([user, bank])
        s.flush()
        lender = Lender(party_id=bank.id, code="BNK")
        s.add(lender)
        s.add(PartyMember(party_id=bank.id, user_id=user.id, role="employee"))
        s.flush()
        pids = bulk.insert_rows(uow, Parcel, [
            {"catastro": f"{i // 1_000_000:03d}-{(i // 1000) % 1000:03d}-{i % 1000:03d}-01",
             "address": f"Calle {i % 997} #{i % 1900 + 1}", "municipality": "San Juan",
             "zone": "urban", "land_area_cuerdas": Decimal("0.250000"),
             "land_valuation": Decimal("6000.00"), "structure_valuation": Decimal("14000.00"),
             "owner_kind": "private", "transferred": False, "tax_incentive_exempt": False,
             "benefit_units": Decimal("1.0000")} for i in range(n)], return_ids=True)
        owners = bulk.insert_rows(uow, Party, [
            {"kind": "person", "name": f"Dueña Número {i:05d}", "language": "es"}
            for i in range(n)], return_ids=True)
        bulk.insert_rows(uow, OwnershipShare, [
            {"parcel_id": p, "party_id": o, "share": Decimal(1), "kind": "sole",
             "starts_on": date(2015, 1, 1)} for p, o in zip(pids, owners)])
        bulk.insert_rows(uow, PropertyTaxFact, [
            {"parcel_id": p, "fiscal_year_start": FY_START, "municipality": "San Juan",
             "zone": "urban", "land_area_cuerdas": Decimal("0.250000"),
             "land_valuation": Decimal("6000.00"), "structure_valuation": Decimal("14000.00"),
             "debt_on_january_1": Decimal(0), "illustrative": True, "source": "bench"}
            for p in pids])
        bulk.insert_rows(uow, Loan, [
            {"lender_id": lender.id, "parcel_id": p, "loan_number": f"BNK-{i:06d}",
             "starts_on": date(2020, 1, 1)} for i, p in enumerate(pids)])
        # the planner's statistics, as a database in service has them
        bulk.analyze(uow, Parcel, Party, OwnershipShare, PropertyTaxFact, Loan,
                     ExemptionCertification, ExemptionOwner, LenderBatchRow)


def _csv(n: int) -> bytes:
    from portal.lenders.batches import COLUMNS, HEADERS
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=";", lineterminator="\r\n")
    w.writerow([HEADERS["es"][c] for c in COLUMNS])
    for i in range(n):
        row = {"loan_number": f"BNK-{i:06d}",
               "catastro": f"{i // 1_000_000:03d}-{(i // 1000) % 1000:03d}-{i % 1000:03d}-01",
               "fiscal_year": "2026-2027", "owners": f"Dueña Número {i:05d}",
               "delivery_date": TODAY.isoformat(), "rent": "no",
               "residential_use": "sí", "veteran_amount": "0",
               "officer_name": "Oficial de Plica", "officer_attests": "sí"}
        w.writerow([row.get(c, "") for c in COLUMNS])
    return buf.getvalue().encode("cp1252")


def _line(name: str, rows: int, wall: float, cpu: float, server: float | None) -> None:
    also = f"  server cpu {server:6.2f} s" if server is not None else ""
    print(f"{name:8s} {rows:7d} rows {wall:7.2f} s  {rows / wall:8.0f} rows/s  "
          f"cpu {cpu:6.2f} s ({rows / max(cpu, 1e-9):6.0f} rows/s){also}  "
          f"rss {_rss_mib():6.1f} MiB  peak {_peak_mib():6.1f} MiB", flush=True)


def _server_since(start: float | None) -> float | None:
    now = SERVER.seconds()
    return None if now is None or start is None else now - start


def run(url: str, n: int, *, one_by_one: bool = False) -> None:
    from portal.jobs import runner
    from portal.lenders import batches as lb
    from portal.models import LenderBatch, User
    if one_by_one:
        runner.KINDS[lb.KIND] = lambda _user, params: lb.Processing(
            int(params["batch_id"]), one_by_one=True)
    upgrade(url, "head")
    database = Database(url)
    SERVER.watch(url)
    with clock.fixed(TODAY):
        t = time.perf_counter()
        _world(database, n)
        print(f"world    {n:7d} loans {time.perf_counter() - t:7.2f} s", flush=True)
        data = _csv(n)
        print(f"csv      {len(data) / 1e6:7.2f} MB", flush=True)
        for name in ("submit+process", "again"):
            with UnitOfWork(database) as uow:
                user = uow.session.query(User).filter_by(email="banco@bench.pr").one()
                t, c, srv = time.perf_counter(), time.process_time(), SERVER.seconds()
                batch = lb.submit_csv(uow, user, data, "bench.csv")
                job_id, batch_id = batch.job_id, batch.id
            _line("submit", n, time.perf_counter() - t, time.process_time() - c,
                  _server_since(srv))
            samples: list[float] = []
            t, c, srv = time.perf_counter(), time.process_time(), SERVER.seconds()
            job = runner.run(database, job_id,
                           progress=lambda done, total, s=samples: s.append(_rss_mib()))
            wall, cpu = time.perf_counter() - t, time.process_time() - c
            assert job.status == "succeeded", (job.error_code, job.error_params)
            _line("process" if name != "again" else "again", n, wall, cpu, _server_since(srv))
            with UnitOfWork(database) as uow:
                b = uow.session.get(LenderBatch, batch_id)
                print(f"         accepted {b.accepted}, rejected {b.rejected}, "
                      f"duplicates {b.duplicates}", flush=True)
            if samples:
                q = len(samples) // 4 or 1
                print("         rss after steps: " + ", ".join(
                    f"{samples[i]:.1f}" for i in range(0, len(samples), q)) +
                    f" ... {samples[-1]:.1f} MiB", flush=True)
    database.dispose()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=10_000)
    ap.add_argument("--step", type=int, default=None,
                    help="rows per transaction (default: lender_batches.STEP)")
    ap.add_argument("--one-by-one", action="store_true",
                    help="file through the single filing's path, a row at a time")
    ap.add_argument("--postgres", metavar="SERVER_URL", nargs="?",
                    const="postgresql+psycopg://postgres@127.0.0.1:5432/test",
                    help="run on a throwaway database on this PostgreSQL server")
    args = ap.parse_args()
    if args.step:
        from portal.lenders import batches
        batches.STEP = args.step
    if args.postgres:
        with _postgres_database(args.postgres) as url:
            run(url, args.rows, one_by_one=args.one_by_one)
    else:
        with _sqlite_database() as url:
            run(url, args.rows, one_by_one=args.one_by_one)


if __name__ == "__main__":
    main()
