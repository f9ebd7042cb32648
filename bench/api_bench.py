"""The lenders' API answering a batch of 1,000 certifications (J7): a script that prints
figures, not a timed test.

    .venv/bin/python bench/api_bench.py [--rows 1000] [--runs 10] [--postgres [SERVER_URL]]

On a fresh database (SQLite in a temporary folder; with `--postgres` a throwaway database on
the server) with a lender of `--rows` loans (bench/lender_batch_bench.py's world) and a write
token, through the Flask test client:

- `POST /api/v1/certification-batches` with `--rows` rows and a new Idempotency-Key each
  time: answered 202, the rows recorded and the job queued (the processing is the
  background job's: bench/lender_batch_bench.py);
- the same POST again with the same key and body: the same batch (200);
- a trivial GET of the same API in the same run (the batch's status: the token checked,
  one row read), as the yardstick.

Prints the median and quartiles of each, and the ratio of the POST to the GET. Target: the
POST answered in under 1 s on the development machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from lender_batch_bench import TODAY, _world  # noqa: E402
from web_bench import _postgres_database  # noqa: E402

from portal import clock  # noqa: E402
from portal.db import Database, UnitOfWork, reset_databases, upgrade  # noqa: E402


def _rows(n: int) -> list[dict[str, str]]:
    return [{"loan_number": f"BNK-{i:06d}",
             "catastro": f"{i // 1_000_000:03d}-{(i // 1000) % 1000:03d}-{i % 1000:03d}-01",
             "fiscal_year": "2026-2027", "owners": f"Dueña Número {i:05d}",
             "delivery_date": TODAY.isoformat(), "rent": "no",
             "residential_use": "yes", "veteran_amount": "0",
             "officer_name": "Oficial de Plica", "officer_attests": "yes"} for i in range(n)]


def _token(database: Database) -> str:
    from portal.lenders import tokens
    from portal.models import Lender, PartyMember, User
    with UnitOfWork(database) as uow:
        s = uow.session
        user = s.query(User).filter_by(email="banco@bench.pr").one()
        s.query(PartyMember).filter_by(user_id=user.id).update({"role": "administrator"})
        lender = s.query(Lender).one()
        _tok, secret = tokens.create_token(uow, user, lender.id, "bench", "write", 30)
    return secret


def _summary(name: str, times: list[float]) -> float:
    q = statistics.quantiles(times, n=4) if len(times) > 1 else [times[0]] * 3
    print(f"{name:28s} median {q[1] * 1000:8.1f} ms  (quartiles {q[0] * 1000:.1f}–"
          f"{q[2] * 1000:.1f} ms, {len(times)} runs)", flush=True)
    return q[1]


def run(url: str, tmp: Path, n: int, runs: int) -> None:
    from portal.app import create_app
    from portal.web.lenders_api import routes
    routes.PER_TOKEN = routes.PER_ADDRESS = (1_000_000, 60)  # the bench is one client
    upgrade(url, "head")
    database = Database(url)
    with clock.fixed(TODAY):
        _world(database, n)
        secret = _token(database)
        (tmp / "instance").mkdir(exist_ok=True)  # the job queue's file (nothing consumes it)
        os.environ["PORTAL_INSTANCE"] = str(tmp / "instance")
        os.environ.pop("REDIS_URL", None)
        app = create_app({"TESTING": True, "SECRET_KEY": "bench", "DATABASE_URL": url,
                          "INSTANCE_PATH": str(tmp / "instance"), "SERVER_NAME": "localhost",
                          "MAIL_SERVER": None, "OUTBOX_DIR": str(tmp / "outbox"),
                          "RATELIMIT_ENABLED": False})
        api = app.test_client()
        auth = {"Authorization": f"Bearer {secret}"}
        body = {"rows": _rows(n)}
        posts, agains, gets = [], [], []
        location = ""
        for k in range(runs):
            t = time.perf_counter()
            r = api.post("/api/v1/certification-batches", json=body,
                         headers={**auth, "Idempotency-Key": f"bench-{k}"})
            posts.append(time.perf_counter() - t)
            assert r.status_code == 202, r.get_data(as_text=True)[:300]
            location = r.headers["Location"]
            t = time.perf_counter()
            r = api.post("/api/v1/certification-batches", json=body,
                         headers={**auth, "Idempotency-Key": f"bench-{k}"})
            agains.append(time.perf_counter() - t)
            assert r.status_code == 200
            for _ in range(5):
                t = time.perf_counter()
                r = api.get(location, headers=auth)
                gets.append(time.perf_counter() - t)
                assert r.status_code == 200
    print(f"database: {url.split(':', 1)[0]}; {n} rows a batch "
          f"({len(str(body)) / 1e6:.2f} MB of JSON)", flush=True)
    post = _summary(f"POST {n} rows (202)", posts)
    again = _summary("POST again, same key (200)", agains)
    get = _summary("GET the batch's status", gets)
    print(f"ratio POST / GET {post / get:6.1f}x; again / GET {again / get:6.1f}x; "
          f"target: POST under 1 s ({'met' if post < 1 else 'NOT met'})", flush=True)
    database.dispose()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--postgres", metavar="SERVER_URL", nargs="?",
                    const="postgresql+psycopg://postgres@127.0.0.1:5432/test",
                    help="run on a throwaway database on this PostgreSQL server")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="api_bench_"))
    try:
        if args.postgres:
            with _postgres_database(args.postgres) as url:
                run(url, tmp, args.rows, args.runs)
        else:
            run(f"sqlite:///{tmp / 'portal.db'}", tmp, args.rows, args.runs)
    finally:
        reset_databases()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
