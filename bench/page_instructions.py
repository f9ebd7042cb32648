"""Instructions a request of the owner's pages and of the trivial page, counted by valgrind's
callgrind, and each page's count as a ratio to the trivial page's. A script.

    .venv/bin/python bench/page_instructions.py [--parcels 2000] [--requests 40]

`bench/web_bench.py` times pages as CPU per request in one run, which the shared host's load
moves: on 7 December 2026 the same code gave the delinquent parcel page 4.4x the trivial page
in one run and 5.8x in another 45 minutes later (its neighbours' use of the caches slows
a large page more than a small one). A count of instructions does not move with the load: a
change of 1 % shows. The demo is loaded once on SQLite (at `--parcels`, ANALYZE after, as
web_bench does); then, for each page, this script runs under `valgrind --tool=callgrind`
(two at a time, each on a copy of the database, PYTHONHASHSEED=0, the clock fixed on the
demo's day): the app made and signed in, `--warm` requests of the page, then `--requests`
more, and only these are counted (`sys.call_tracing` wraps them and valgrind collects only
inside it). Counting a whole run and taking off a run without the requests, as this script
once did, moved the ratio between 3.9x and 4.7x on the same code: the set-up's count
differs by millions of instructions from one run to the next. About four minutes on this
machine (two cores). Instructions are not time (a cache miss costs more than an
instruction).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from datetime import date, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TODAY = date(2026, 11, 30)  # the demo's day (as web_bench)
PAGES = ("trivial", "dashboard", "parcel-delinquent", "parcel-up-to-date")


def run_page(page: str, url: str, warm: int, requests: int, tmp: str) -> None:
    """The inner run (under valgrind): the app, the owner signed in, `warm` requests of the
    page, then `requests` more."""
    sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
    from web_bench import owner_parcel

    from portal import clock
    from portal.app import create_app
    from tests.support.pages import login

    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": url, "RATELIMIT_ENABLED": False,
                      "INSTANCE_PATH": str(Path(tmp) / "instance"),
                      "OUTBOX_DIR": str(Path(tmp) / "out")})
    clock.set_fixed(datetime(TODAY.year, TODAY.month, TODAY.day, 10, 0))
    owner = login(app, "owner")
    path = {"trivial": lambda: "/", "dashboard": lambda: "/mis-propiedades",
            "parcel-delinquent": lambda: f"/propiedad/{owner_parcel(url, ('overdue',))}",
            "parcel-up-to-date": lambda: f"/propiedad/{owner_parcel(url, ('current', 'pending'))}",
            }[page]()
    for _ in range(warm):
        assert owner.get(path).status_code == 200

    def measured() -> None:
        for _ in range(requests):
            owner.get(path).get_data()

    # Only this call is counted (`--toggle-collect=sys_call_tracing`: valgrind collects while
    # CPython's C function of `sys.call_tracing` runs, which nothing else here calls).
    sys.call_tracing(measured, ())


def _load_demo(tmp: Path, parcels: int, users: int) -> str:
    from sqlalchemy import create_engine, text

    from portal.db import upgrade

    url = f"sqlite:///{tmp / 'bench.db'}"
    upgrade(url, "head")
    env = {**os.environ, "DATABASE_URL": url, "PORTAL_TODAY": TODAY.isoformat()}
    subprocess.run([sys.executable, "-m", "portal.cli", "demo", "--parcels", str(parcels),
                    "--users", str(users)], check=True, env=env, cwd=ROOT,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("ANALYZE"))
    engine.dispose()
    return url


def _count(page: str, n: int, url: str, warm: int, tmp: Path) -> int:
    """The instructions of one inner run, on a copy of the demo's database of its own: two
    runs at once on one file would wait on each other's locks (the sign-in writes), and
    SQLite's busy handler's instructions would count."""
    out = tmp / f"{page}.{n}.out"
    own = tmp / f"{page}.{n}.db"
    shutil.copyfile(url.removeprefix("sqlite:///"), own)
    url = f"sqlite:///{own}"
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", "--collect-atstart=no",
         "--toggle-collect=sys_call_tracing", f"--callgrind-out-file={out}", sys.executable,
         __file__, "--inner", page, "--db", url, "--warm", str(warm), "--requests", str(n),
         "--tmp", str(tmp)], env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    found = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.M) \
        if out.exists() else None
    if proc.returncode or found is None:
        raise SystemExit(f"{page}: valgrind failed ({proc.returncode})")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--parcels", type=int, default=2000)
    ap.add_argument("--users", type=int, default=500)
    ap.add_argument("--requests", type=int, default=40)
    ap.add_argument("--warm", type=int, default=20)
    ap.add_argument("--pages", nargs="+", choices=PAGES, default=list(PAGES))
    ap.add_argument("--inner", help=argparse.SUPPRESS)
    ap.add_argument("--db", help=argparse.SUPPRESS)
    ap.add_argument("--tmp", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.inner:
        run_page(args.inner, args.db, args.warm, args.requests, args.tmp)
        return 0
    pages = ["trivial"] + [p for p in args.pages if p != "trivial"]
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        url = _load_demo(tmp, args.parcels, args.users)
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            found = dict(zip(pages, pool.map(
                lambda p: _count(p, args.requests, url, args.warm, tmp), pages)))
    per = {p: found[p] / args.requests for p in pages}
    print(f"{'page':20} {'instructions':>14} {'x trivial':>9}")
    for p in pages:
        print(f"{p:20} {per[p]:14,.0f} {per[p] / per['trivial']:9.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
