"""Documents per CPU second, for each kind of PDF the portal serves (issue #30, item 5).

    .venv/bin/python bench/document_bench.py [--seconds 1.0]

Loads the demo District into a throwaway SQLite database, signs in as the demo owner, the
lessee and the staff administrator (two-factor code included), and finds every PDF their
pages link to by following the links of their pages (GETs only, at most 80 pages each; a GET
changes nothing in this portal). The links are grouped by route (the numbers in the path
replaced by N): one document of each kind. Each is fetched through the app (the Flask test
client: the route, its view model and the render) in blocks of at least `--seconds` of this
process's CPU, `time.process_time`, so the other processes on the machine change the figures
less; the load average is printed beside them. For each kind it prints the CPU per document,
documents per CPU second, the part of it spent in `portal.pdf.render` (the documents built by
the shared tagged renderer; the notices, letters and certificates have renderers of their
own, whose time counts under "rest"), and the hours one core needs for 1,500,000 of them:
each document drawn (`forget`: `portal.pdf.cache` and the QR codes' caches emptied before
each request: a first download, a night's batch of statements). Then the same document asked
for again ("again": the statement and the receipt are found in `portal.pdf.cache` while
nothing they show changes; the other kinds are drawn each time or served as stored).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from portal import clock, domains, pdf  # noqa: E402, F401 - domains: every renderer
from portal.app import create_app  # noqa: E402
from portal.db import Database, reset_databases, upgrade  # noqa: E402
from portal.demo import district  # noqa: E402
from portal.pdf import cache, qr  # noqa: E402

TODAY = date(2026, 11, 30)
ISLAND = 1_500_000
HREF = re.compile(r'href="(/[^"]*)"')
SKIP = re.compile(r"salir|cerrar|idioma|/static/|\.csv$|\.json$|/api/")


def sign_in(app, email: str):  # noqa: ANN001, ANN201
    """A test client signed in as `email` (staff through the second step, with the demo's
    authenticator secret: `tests.support.pages.login`)."""
    from tests.support.pages import login
    return login(app, email, district.DEMO_PASSWORD)


def documents(client, start: list[str], limit: int = 80) -> dict[str, str]:  # noqa: ANN001
    """route (numbers as N) -> the first PDF of that route the pages starting at `start`
    link to."""
    seen, queue, found = set(), list(start), {}
    while queue and len(seen) < limit:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        r = client.get(url)
        if r.status_code != 200 or not r.content_type.startswith("text/html"):
            continue
        for href in HREF.findall(r.get_data(as_text=True)):
            path = urlsplit(href.replace("&amp;", "&")).path
            if SKIP.search(path):
                continue
            if path.endswith(".pdf"):
                found.setdefault(re.sub(r"\d+", "N", path), path)
            elif path not in seen:
                queue.append(path)
    return found


class RenderClock:
    """CPU seconds spent inside `portal.pdf.render` (the module attribute, which the
    documents call)."""

    def __init__(self) -> None:
        self.spent = 0.0
        self.original = pdf.render

    def __enter__(self) -> RenderClock:
        def timed(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            start = time.process_time()
            try:
                return self.original(*args, **kwargs)
            finally:
                self.spent += time.process_time() - start
        pdf.render = timed
        return self

    def __exit__(self, *exc: object) -> None:
        pdf.render = self.original


def forget() -> None:
    """Every document drawn anew: `portal.pdf.cache` emptied, and the QR codes' modules and
    squares too (kept per address: the bench's clock is fixed, so its links would be found
    again, where each parcel of a night's batch has its own)."""
    cache.clear()
    qr.modules.cache_clear()
    qr._fills.cache_clear()  # noqa: SLF001


def block(client, url: str, seconds: float, drawn: bool = False  # noqa: ANN001
          ) -> tuple[float, float, int]:
    """(CPU per request, CPU in pdf.render per request, bytes) over at least `seconds`;
    `drawn`: every document drawn anew (`forget` before each request)."""
    n, size = 0, 0
    with RenderClock() as rc:
        start = time.process_time()
        while True:
            if drawn:
                forget()
            r = client.get(url)
            assert r.status_code == 200, f"{url}: {r.status_code}"
            size = len(r.data)
            n += 1
            elapsed = time.process_time() - start
            if elapsed >= seconds:
                return elapsed / n, rc.spent / n, size


def demo_app(folder: Path):  # noqa: ANN201
    """The app on a throwaway SQLite database in `folder` with the demo District loaded."""
    url = f"sqlite:///{folder / 'bench.db'}"
    upgrade(url, "head")
    database = Database(url)
    district.load(database, users_n=len(district.SIGN_INS) + 2)
    database.dispose()
    return create_app({"TESTING": True, "SECRET_KEY": "bench", "DATABASE_URL": url,
                       "INSTANCE_PATH": str(folder / "instance"), "MAIL_SERVER": None,
                       "OUTBOX_DIR": str(folder / "outbox"), "RATELIMIT_ENABLED": False})


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    clock.set_fixed(TODAY)
    with tempfile.TemporaryDirectory() as tmp:
        app = demo_app(Path(tmp))
        kinds: list[tuple[str, str, object]] = []
        for email, start in (("owner@demo.pr", ["/", "/cuenta", "/pagos"]),
                             ("lessee@demo.pr", ["/"]),
                             ("staff@demo.pr", ["/personal", "/personal/cobros",
                                                "/personal/tasacion"])):
            client = sign_in(app, email)
            for route, path in sorted(documents(client, start).items()):
                if route not in {k[0] for k in kinds}:
                    kinds.append((route, path, client))
        load = os.getloadavg()
        print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
              f"({os.cpu_count()} CPUs); CPU time of this process, through the app")
        print(f"{'document (route)':58} {'ms CPU':>8} {'docs/CPU s':>10} {'render':>7} "
              f"{'KiB':>6} {'h/1.5M/core':>11} {'again ms':>9} {'again/s':>8}")
        for route, path, client in kinds:
            client.get(path)  # warm up (fonts, templates)
            per, render, size = block(client, path, args.seconds, drawn=True)
            again, _render, _size = block(client, path, args.seconds)
            print(f"{route:58} {per * 1000:8.1f} {1 / per:10.1f} {render / per:6.0%} "
                  f"{size / 1024:6.0f} {ISLAND * per / 3600:11.1f} {again * 1000:9.1f} "
                  f"{1 / again:8.1f}")
        print(f"{len(kinds)} kinds of document")
        reset_databases()


if __name__ == "__main__":
    main()
