"""Web benchmark: SQL queries and median time of the dashboard and the parcel page.

    .venv/bin/python bench/web_bench.py [--parcels 20000] [--users 5000] [--runs 300]
                                        [--bank-loans 2000] [--postgres [SERVER_URL]]

Builds a fresh database (SQLite in a temporary folder; with `--postgres`, a throwaway database
on that server, dropped afterwards), migrates it, loads the demo District scaled to `--parcels`
parcels and `--users` users (`portal demo --parcels N --users M`), then signs in as the demo
owner and as the demo lender and measures, through the Flask test client:
- the SQL statements each page runs (counted with SQLAlchemy's `before_cursor_execute`
  event; target at most 10, and the same at any number of parcels);
- the median time of each page as a ratio to a trivial page of the same app in the same run
  (the home page, signed in: same session loading; target at most 3x). Each page is timed
  in blocks of its own that take turns over thirty rounds; the ratio is the median of the
  rounds' ratios, each between blocks run a fraction of a second apart (see `measure`), with
  its quartiles over the rounds.
Then it gives the demo bank `--bank-loans` active loans in all (no target: the lender's pages
must not grow with the portfolio) and times its dashboard and the first and last pages of its
list of loans the same way.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime
from pathlib import Path

from sqlalchemy import event, text

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from portal import clock  # noqa: E402
from portal.accounts import statements  # noqa: E402
from portal.app import create_app  # noqa: E402
from portal.db import UnitOfWork, get_database, reset_databases, upgrade  # noqa: E402
from portal.demo import district  # noqa: E402
from portal.people import users  # noqa: E402

TODAY = date(2026, 11, 30)  # the demo's fiscal year 2026-2027


def owner_parcel(url: str, statuses: tuple[str, ...]) -> int:
    """The first of the owner's parcels with one of these statuses ("overdue": the
    delinquent one, with late fees, interest, a certified-mail cost and a demand)."""
    with UnitOfWork(get_database(url)) as w:
        owner = users.find_by_email(w, "owner@demo.pr")
        return next(s.parcel.id for s in statements.dashboard(w, owner, TODAY)
                    if s.status in statuses)


class Counter:
    def __init__(self, engine) -> None:  # noqa: ANN001
        self.n = 0
        event.listen(engine, "before_cursor_execute", self._count)

    def _count(self, *_args) -> None:  # noqa: ANN002
        self.n += 1


def csrf(html: str) -> str:
    return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html).group(1)


def sign_in(app, email: str, password: str):  # noqa: ANN001, ANN201
    client = app.test_client()
    page = client.get("/cuenta/entrar").get_data(as_text=True)
    r = client.post("/cuenta/entrar", data={"csrf_token": csrf(page), "email": email,
                                            "password": password})
    assert r.status_code == 303, f"sign-in failed for {email}: {r.status_code}"
    return client


def count_queries(client, counter: Counter, url: str) -> int:  # noqa: ANN001
    client.get(url)  # warm up (templates, caches)
    counter.n = 0
    r = client.get(url)
    assert r.status_code == 200, (url, r.status_code)
    return counter.n


#: Untimed requests before each block: measured, the first four or five requests of a page after
#: another are up to 25 % slower; from the fifth on they are steady.
WARM_UP = 5


def measure(pages: list, runs: int, rounds: int = 30) -> tuple[list[float], list[list[float]]]:
    """Each page's median time over `runs` requests, and its ratios to the trivial page (the
    first), one per round. Each page is requested in blocks of its own, after `WARM_UP`
    requests that are not timed (its steady state: the first few requests after a heavier
    page pay for that one's garbage and caches, which would flatter the ratio). In every
    round each page has one block, in an order that turns from round to round, and the
    round's ratio is the median of the page's block over the median of the trivial page's
    block of the same round. This machine's speed moves by 10-20 % over seconds (a shared
    host): comparing blocks run a fraction of a second apart, and taking the median over the
    rounds, keeps a slow moment from weighing on one page only."""
    block = max(1, runs // rounds)
    times: list[list[float]] = [[] for _ in pages]
    per_round: list[list[float]] = [[] for _ in pages]
    for r in range(rounds):
        order = list(range(len(pages)))
        order = order[r % len(pages):] + order[:r % len(pages)]
        for k in order:
            _name, client, path = pages[k]
            for _ in range(WARM_UP):  # back to this page's steady state
                client.get(path).get_data()
            ts = []
            for _ in range(block):
                t0 = time.perf_counter()
                client.get(path).get_data()
                ts.append(time.perf_counter() - t0)
            times[k].extend(ts)
            per_round[k].append(statistics.median(ts))
    ratios = [[p / t for p, t in zip(page, per_round[0])] for page in per_round]
    return [statistics.median(t) for t in times], ratios


def run(parcels: int, users_n: int, runs: int, bank_loans: int = 0, server: str | None = None
        ) -> list[tuple[str, int, float, list[float]]]:
    """Load a demo of that size in a fresh database (SQLite in a temporary folder, or a
    throwaway database on the PostgreSQL `server`); (page, SQL statements, median s, ratios
    to the trivial page, one per round)."""
    tmp = Path(tempfile.mkdtemp(prefix="web-bench-"))
    try:
        if server is None:
            return _run_in(f"sqlite:///{tmp / 'bench.db'}", tmp, parcels, users_n, runs,
                           bank_loans)
        with _postgres_database(server) as url:
            return _run_in(url, tmp, parcels, users_n, runs, bank_loans)
    finally:  # the database is ~60 MB at 20,000 parcels
        reset_databases()
        shutil.rmtree(tmp, ignore_errors=True)


@contextmanager
def _postgres_database(server: str) -> Iterator[str]:
    """A database of its own on the server (created, then dropped): its URL."""
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url
    name = f"portal_web_bench_{os.getpid()}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield make_url(server).set(database=name).render_as_string(hide_password=False)
    finally:
        reset_databases()
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


def _run_in(url: str, tmp: Path, parcels: int, users_n: int, runs: int, bank_loans: int
            ) -> list[tuple[str, int, float, list[float]]]:
    upgrade(url, "head")
    t0 = time.perf_counter()
    # The demo placed around the day the bench reads it on (its dates follow the load day).
    env = {**os.environ, "DATABASE_URL": url, "PORTAL_TODAY": TODAY.isoformat()}
    subprocess.run([sys.executable, "-m", "portal.cli", "demo", "--parcels", str(parcels),
                    "--users", str(users_n)], check=True, env=env, cwd=ROOT,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    print(f"demo: {parcels} parcels, {users_n} users loaded in "
          f"{time.perf_counter() - t0:.1f} s")
    # Planner statistics, as PostgreSQL's autovacuum keeps them (docs/DATA.md).
    with get_database(url).engine.begin() as conn:
        conn.exec_driver_sql("ANALYZE")
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": url, "RATELIMIT_ENABLED": False,
                      "INSTANCE_PATH": str(tmp / "instance"), "OUTBOX_DIR": str(tmp / "out")})
    counter = Counter(get_database(url).engine)
    clock.set_fixed(TODAY)
    owner = sign_in(app, "owner@demo.pr", district.DEMO_PASSWORD)
    lender = sign_in(app, "lender@demo.pr", district.DEMO_PASSWORD)
    parcel_id = owner_parcel(url, ("overdue",))
    current_id = owner_parcel(url, ("current", "pending"))
    pages = [
        ("trivial page (home, signed in)", owner, "/"),
        ("dashboard (owner, 3 parcels)", owner, "/mis-propiedades"),
        ("parcel page (delinquent parcel)", owner, f"/propiedad/{parcel_id}"),
        ("parcel page (a parcel up to date)", owner, f"/propiedad/{current_id}"),
        ("dashboard (lender, 50 loans)", lender, "/mis-propiedades"),
        ("lender's loans (50 loans)", lender, "/prestamista/prestamos"),
    ]
    out = _time(pages, counter, runs)
    if bank_loans:
        out += _big_portfolio(url, counter, pages[0], lender, bank_loans, runs)
    return out


def _big_portfolio(url: str, counter: Counter, trivial: tuple, lender, loans: int,  # noqa: ANN001
                   runs: int) -> list[tuple[str, int, float, list[float]]]:
    """The demo bank's loans raised to `loans` (on parcels it holds none on, several loans
    a parcel if need be), then its pages timed as above, the trivial page first."""
    with get_database(url).engine.begin() as conn:
        have = conn.execute(text("SELECT count(*) FROM loans")).scalar()
        free = list(conn.execute(text(
            "SELECT id FROM parcels WHERE id NOT IN (SELECT parcel_id FROM loans) ORDER BY id"
        )).scalars())
        lender_id = conn.execute(text("SELECT lender_id FROM loans LIMIT 1")).scalar()
        conn.execute(text(
            "INSERT INTO loans (lender_id, parcel_id, loan_number, starts_on, created_at) "
            "VALUES (:lender, :parcel, :number, :starts, :created)"),
            [{"lender": lender_id, "parcel": free[k % len(free)], "number": f"BENCH-{k:06d}",
              "starts": date(2024, 1, 1), "created": datetime(2026, 1, 1)}
             for k in range(loans - have)])
        conn.execute(text("ANALYZE"))
    last = -(-loans // 50)
    pages = [trivial,
             (f"dashboard (lender, {loans:,} loans)", lender, "/mis-propiedades"),
             (f"lender's loans ({loans:,}), page 1", lender, "/prestamista/prestamos"),
             (f"lender's loans ({loans:,}), page {last}", lender,
              f"/prestamista/prestamos?page={last}")]
    return _time(pages, counter, max(30, runs // 5))[1:]


def _time(pages: list, counter: Counter, runs: int) -> list[tuple[str, int, float, list[float]]]:
    """(page, SQL statements, median s, ratios to the first page, one per round)."""
    queries = [count_queries(client, counter, path) for _name, client, path in pages]
    medians, ratios = measure(pages, runs)
    return [(name, q, m, r) for (name, _c, _p), q, m, r in zip(pages, queries, medians, ratios)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parcels", type=int, default=20000)
    ap.add_argument("--users", type=int, default=5000)
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("--bank-loans", type=int, default=2000)
    ap.add_argument("--postgres", metavar="SERVER_URL", nargs="?",
                    const="postgresql+psycopg://postgres@127.0.0.1:5432/test",
                    help="run on a throwaway database on this PostgreSQL server (default: "
                         "%(const)s) instead of SQLite")
    args = ap.parse_args()
    print(f"database: {'PostgreSQL' if args.postgres else 'SQLite'}")
    small = run(240, 4, 30, min(args.bank_loans, 100), args.postgres)
    large = run(args.parcels, args.users, args.runs, args.bank_loans, args.postgres)
    print(f"\n{'page':34} {'SQL@240':>8} {'SQL@' + str(args.parcels):>10} {'median ms':>10} "
          f"{'x trivial':>10} {'(quartiles)':>12}")
    for (_, q_small, *_), (name, q_large, median, ratios) in zip(small, large):
        q1, q2, q3 = statistics.quantiles(ratios, n=4)
        print(f"{name:34} {q_small:>8} {q_large:>10} {median * 1000:>10.1f} "
              f"{statistics.median(ratios):>10.2f} {q1:>6.2f}-{q3:.2f}")
    targets = large[1:3]  # the owner's dashboard and the (heaviest) parcel page
    print(f"\nSQL per page: at most {max(row[1] for row in large)} (target <= 10); "
          f"growing with parcels: {any(a[1] != b[1] for a, b in zip(small, large))}")
    print("median vs the trivial page (the median of the rounds' ratios): " + ", ".join(
        f"{name.split(' (')[0]} {statistics.median(r):.2f}x" for name, _, _, r in targets)
        + " (target <= 3x)")


if __name__ == "__main__":
    main()
