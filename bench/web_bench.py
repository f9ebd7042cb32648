"""Web benchmark: SQL queries and median time of the dashboard and the parcel page.

    .venv/bin/python bench/web_bench.py [--parcels 20000] [--users 5000] [--runs 30]

Builds a fresh SQLite database in a temporary folder, migrates it, loads the demo District
scaled to `--parcels` parcels and `--users` users (`portal demo --parcels N --users M`), then
signs in as the demo owner and as the demo lender and measures, through the Flask test client:
- the SQL statements each page runs (counted with SQLAlchemy's `before_cursor_execute`
  event; target at most 10, and the same at any number of parcels);
- the median time of each page as a ratio to a trivial page of the same app in the same run
  (the home page, signed in: same session loading; target at most 3x). Each page is timed
  in blocks of its own that take turns over five rounds (see `measure`).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from sqlalchemy import event

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from portal import clock  # noqa: E402
from portal.app import create_app  # noqa: E402
from portal.db import UnitOfWork, get_database, upgrade  # noqa: E402
from portal.services import accounts, demo, users  # noqa: E402

TODAY = date(2026, 11, 30)  # the demo's fiscal year 2026-2027


def owner_parcel(url: str, statuses: tuple[str, ...]) -> int:
    """The first of the owner's parcels with one of these statuses ("overdue": the
    delinquent one, with late fees, interest, a certified-mail cost and a demand)."""
    with UnitOfWork(get_database(url)) as w:
        owner = users.find_by_email(w, "owner@demo.pr")
        return next(s.parcel.id for s in accounts.dashboard(w, owner, TODAY)
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


def measure(pages: list, runs: int, rounds: int = 5) -> list[float]:
    """The median time of each page over `runs` requests. Each page is requested in a block
    of its own (its steady state: a page right after a heavier one would pay for that one's
    garbage), and the blocks take turns over `rounds` rounds, so that a slower moment of
    the machine weighs on every page alike."""
    times: list[list[float]] = [[] for _ in pages]
    for _ in range(rounds):
        for k, (_name, client, path) in enumerate(pages):
            client.get(path).get_data()  # back to this page's steady state
            for _ in range(max(1, runs // rounds)):
                t0 = time.perf_counter()
                client.get(path).get_data()
                times[k].append(time.perf_counter() - t0)
    return [statistics.median(t) for t in times]


def run(parcels: int, users_n: int, runs: int) -> list[tuple[str, int, float]]:
    """Load a demo of that size in a fresh database; (page, SQL statements, median s)."""
    tmp = Path(tempfile.mkdtemp(prefix="web-bench-"))
    url = f"sqlite:///{tmp / 'bench.db'}"
    upgrade(url, "head")
    t0 = time.perf_counter()
    env = {**os.environ, "DATABASE_URL": url}
    subprocess.run([sys.executable, "-m", "portal.cli", "demo", "--parcels", str(parcels),
                    "--users", str(users_n)], check=True, env=env, cwd=ROOT,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    print(f"demo: {parcels} parcels, {users_n} users loaded in "
          f"{time.perf_counter() - t0:.1f} s")
    # Planner statistics, as PostgreSQL's autovacuum keeps them (docs/REQUESTS.md, web 6).
    with get_database(url).engine.begin() as conn:
        conn.exec_driver_sql("ANALYZE")
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": url, "RATELIMIT_ENABLED": False,
                      "INSTANCE_PATH": str(tmp / "instance"), "OUTBOX_DIR": str(tmp / "out")})
    counter = Counter(get_database(url).engine)
    clock.set_fixed(TODAY)
    owner = sign_in(app, "owner@demo.pr", demo.DEMO_PASSWORD)
    lender = sign_in(app, "lender@demo.pr", demo.DEMO_PASSWORD)
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
    queries = [count_queries(client, counter, path) for _name, client, path in pages]
    medians = measure(pages, runs)
    return [(name, q, m) for (name, _c, _p), q, m in zip(pages, queries, medians)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parcels", type=int, default=20000)
    ap.add_argument("--users", type=int, default=5000)
    ap.add_argument("--runs", type=int, default=300)
    args = ap.parse_args()
    small = run(240, 4, 3)
    large = run(args.parcels, args.users, args.runs)
    base = large[0][2]
    print(f"\n{'page':34} {'SQL@240':>8} {'SQL@' + str(args.parcels):>10} {'median ms':>10} "
          f"{'x trivial':>10}")
    for (name, q_small, _), (_, q_large, median) in zip(small, large):
        print(f"{name:34} {q_small:>8} {q_large:>10} {median * 1000:>10.1f} "
              f"{median / base:>10.2f}")
    targets = large[1:3]  # the owner's dashboard and the (heaviest) parcel page
    print(f"\nSQL per page: at most {max(q for _, q, _ in large)} (target <= 10); "
          f"growing with parcels: {any(a[1] != b[1] for a, b in zip(small, large))}")
    print("median vs the trivial page: " + ", ".join(
        f"{name.split(' (')[0]} {m / base:.1f}x" for name, _, m in targets) + " (target <= 3x)")


if __name__ == "__main__":
    main()
