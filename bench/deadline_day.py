"""Deadline day: many owners sign in, look at their parcels and pay at once, as on the morning
of an installment's due date. A load bench with locust (headless, bounded in time), not a test.

    .venv/bin/python bench/deadline_day.py [--owners 40] [--seconds 30] [--spawn-rate 10]
        [--postgres SERVER_URL | --sqlite]

What it does, in one run on this machine:
- a throwaway database (PostgreSQL on 127.0.0.1:5432 by default, created and dropped; or
  SQLite in a temporary folder) with the demo District and `--owners` generated owners
  (`portal demo --users`: user00000@demo.pr ..., each with parcels and a balance); the
  sign-in limit per address raised (every virtual owner comes from 127.0.0.1);
- the portal under gunicorn as shipped (portal/gunicorn_conf.py: 2 gthread workers x 4
  threads) on 127.0.0.1, payments in the sandbox (no provider configured);
- locust, headless, `--owners` virtual owners for `--seconds`: each signs in as an owner of its
  own, opens the dashboard and its first parcel's page, pays the next installment of one
  parcel in the sandbox (the payment page, the review, the confirmation, the sandbox's card
  that succeeds, the success page, the receipt), then keeps reading its dashboard and parcel
  pages until the time is up (a wait of 1-3 s between pages);
- prints locust's figures for each step and in all: requests, failures, throughput
  (requests/s), p50, p95 and p99 latency (ms), with the load average;
- then checks the database: the payments that succeeded during the run, and that none is a
  duplicate (no owner paid the same parcel twice; no provider payment recorded twice), beside
  the receipts the owners saw (fewer when the time ran out between an owner's payment and
  its receipt: the payments that succeeded are counted from the database, the receipts from
  locust's figures). Exit status 1 when a request failed or a payment is duplicated.

locust is in the [dev] extras (docs/WEB.md, "Deadline day", says why). The figures depend on the
machine and what else runs on it: compare runs on the same machine, at the same load.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from locust import HttpUser, between, task

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
#: Each virtual owner takes the next generated account (user00000@demo.pr, ...).
_accounts = itertools.count()
_accounts_lock = threading.Lock()


def _token(html: str) -> str:
    m = CSRF.search(html)
    return m.group(1) if m else ""


class Owner(HttpUser):
    """One owner on deadline morning (the steps are named for locust's figures)."""

    wait_time = between(1, 3)

    def on_start(self) -> None:
        with _accounts_lock:
            k = next(_accounts)
        self.email = f"user{k:05d}@demo.pr"
        self.parcel: str | None = None
        self.paid = False
        page = self.client.get("/cuenta/entrar", name="sign-in page")
        self.client.post("/cuenta/entrar", name="sign in", allow_redirects=False, data={
            "csrf_token": _token(page.text), "email": self.email,
            "password": os.environ["DEADLINE_PASSWORD"]})

    @task
    def morning(self) -> None:
        dash = self.client.get("/mis-propiedades", name="dashboard")
        parcels = re.findall(r'href="/propiedad/(\d+)"', dash.text)
        if parcels:
            self.parcel = parcels[0]
            self.client.get(f"/propiedad/{self.parcel}", name="parcel page")
        if not self.paid:
            self.pay()

    def pay(self) -> None:
        self.paid = True  # once per owner, whatever happens: a retry would be a new payment
        page = self.client.get("/pagar", name="pay page")
        tok = _token(page.text)
        first = re.search(r'name="(choice-[^"]+)" value="(through-\d+)"', page.text)
        if first is None:
            return  # nothing left to pay
        review = self.client.post("/pagar/revisar", name="review", data={
            "csrf_token": tok, first.group(1): first.group(2)})
        expected = re.search(r'name="expected_total" value="([^"]+)"', review.text)
        if expected is None:
            return
        hidden = dict(re.findall(r'<input type="hidden" name="((?:choice|through|amount)-[^"]+)"'
                                 r' value="([^"]*)"', review.text))
        with self.client.post("/pagar/confirmar", name="confirm", allow_redirects=False,
                              catch_response=True, data={
                                  "csrf_token": tok, "expected_total": expected.group(1),
                                  **hidden}) as r:
            if r.status_code != 303:
                r.failure(f"confirm: {r.status_code}")
                return
            sandbox = r.headers["Location"]
        self.client.get(sandbox, name="sandbox checkout")
        with self.client.post(sandbox, name="sandbox pays", allow_redirects=False,
                              catch_response=True,
                              data={"csrf_token": tok, "outcome": "card_succeeds"}) as r:
            if r.status_code != 303:
                r.failure(f"sandbox: {r.status_code}")
                return
            success = r.headers["Location"]
        with self.client.get(success, name="success page", allow_redirects=False,
                             catch_response=True) as r:
            if r.status_code != 303:
                r.failure(f"success page: {r.status_code}")
                return
            receipt = r.headers["Location"]
        self.client.get(receipt, name="receipt")


# --- the run: database, server, locust, the check ------------------------------------------

def _free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _summary(prefix: Path) -> list[dict[str, str]]:
    with open(f"{prefix}_stats.csv", newline="") as fh:
        return list(csv.DictReader(fh))


def _check_payments(url: str, before: int) -> tuple[int, list[str]]:
    """The payments that succeeded after id `before`, and what is duplicated among them."""
    from sqlalchemy import func, select

    from portal.core.payment_states import SUCCEEDED
    from portal.db import Database, UnitOfWork
    from portal.models import Payment
    database = Database(url)
    with UnitOfWork(database) as uow:
        s = uow.session
        new = (Payment.id > before, Payment.status == SUCCEEDED)
        count = s.scalar(select(func.count()).select_from(Payment).where(*new)) or 0
        twice = s.execute(select(Payment.user_id, Payment.parcel_id, func.count())
                          .where(*new).group_by(Payment.user_id, Payment.parcel_id)
                          .having(func.count() > 1)).all()
        same_provider = s.execute(select(Payment.provider_payment_id, func.count())
                                  .where(*new, Payment.provider_payment_id.is_not(None))
                                  .group_by(Payment.provider_payment_id)
                                  .having(func.count() > 1)).all()
    database.dispose()
    problems = [f"user {u} paid parcel {p} {n} times" for u, p, n in twice]
    problems += [f"provider payment {pid} recorded {n} times" for pid, n in same_provider]
    return count, problems


def _max_payment_id(url: str) -> int:
    from sqlalchemy import func, select

    from portal.db import Database, UnitOfWork
    from portal.models import Payment
    database = Database(url)
    with UnitOfWork(database) as uow:
        top = uow.session.scalar(select(func.max(Payment.id))) or 0
    database.dispose()
    return top


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--owners", type=int, default=40, help="virtual owners (one account each)")
    ap.add_argument("--seconds", type=int, default=30)
    ap.add_argument("--spawn-rate", type=float, default=10, help="owners started per second")
    ap.add_argument("--postgres", default="postgresql+psycopg://postgres@127.0.0.1:5432/test",
                    metavar="SERVER_URL", help="a throwaway database on this server")
    ap.add_argument("--sqlite", action="store_true", help="SQLite in a temporary folder")
    a = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    from contextlib import nullcontext

    from web_bench import _postgres_database

    from portal.demo.district import DEMO_PASSWORD

    tmp = Path(tempfile.mkdtemp(prefix="deadline-day-"))
    db = nullcontext(f"sqlite:///{tmp / 'portal.db'}") if a.sqlite else \
        _postgres_database(a.postgres)
    with db as url:
        port = _free_port()
        env = {**os.environ, "PORTAL_INSTANCE": str(tmp), "SECRET_KEY": "d" * 40,
               "DATABASE_URL": url, "SESSION_COOKIE_SECURE": "0", "PORTAL_TODAY": "2026-11-30",
               "PORTAL_BASE_URL": f"http://127.0.0.1:{port}", "PORTAL_BIND": f"127.0.0.1:{port}",
               "PORTAL_CONTROL_SOCKET": str(tmp / "gunicorn.ctl"), "WEB_CONCURRENCY": "2",
               "PORTAL_THREADS": "4", "RATELIMIT_SIGNIN": "100000 per minute", "LOG_FORMAT": "json",
               "DEADLINE_PASSWORD": DEMO_PASSWORD}
        for name in ("REDIS_URL", "PROMETHEUS_MULTIPROC_DIR", "STRIPE_SECRET_KEY"):
            env.pop(name, None)
        subprocess.run([str(BIN / "portal"), "demo", "--users", str(a.owners + 4)], env=env,
                       check=True, capture_output=True)
        before = _max_payment_id(url)
        log = tmp / "gunicorn.log"
        with log.open("ab") as out:
            server = subprocess.Popen([str(BIN / "gunicorn"), "-c", "python:portal.gunicorn_conf",
                                       "portal.app:create_app()"], env=env, stdout=out,
                                      stderr=out, start_new_session=True)
        try:
            _wait(port, server, log)
            prefix = tmp / "locust"
            subprocess.run([str(BIN / "locust"), "-f", __file__, "--headless", "--only-summary",
                            "-u", str(a.owners), "-r", str(a.spawn_rate),
                            "-t", f"{a.seconds}s", "--host", f"http://127.0.0.1:{port}",
                            "--csv", str(prefix), "--loglevel", "WARNING"],
                           env=env, check=False, capture_output=True)
            load = os.getloadavg()
        finally:
            server.terminate()
            server.wait(timeout=30)
        rows = _summary(prefix)
        payments, problems = _check_payments(url, before)
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} CPUs); "
          f"{a.owners} owners for {a.seconds} s; gunicorn 2 gthread workers x 4 threads, "
          f"{'SQLite' if a.sqlite else 'PostgreSQL'}, payments in the sandbox")
    print(f"{'step':20} {'requests':>9} {'failures':>9} {'req/s':>7} {'p50 ms':>7} "
          f"{'p95 ms':>7} {'p99 ms':>7}")
    failures = receipts = 0
    for r in rows:
        name = r["Name"] if r["Name"] != "Aggregated" else "ALL"
        print(f"{name:20} {r['Request Count']:>9} {r['Failure Count']:>9} "
              f"{float(r['Requests/s']):7.1f} {r['50%']:>7} {r['95%']:>7} {r['99%']:>7}")
        if r["Name"] == "Aggregated":
            failures = int(r["Failure Count"])
        if r["Name"] == "receipt":
            receipts = int(r["Request Count"]) - int(r["Failure Count"])
    print(f"payments that succeeded: {payments}; receipts seen: {receipts}; "
          f"duplicates: {len(problems)}")
    for p in problems:
        print("  DUPLICATE:", p)
    if failures or problems:
        sys.exit(1)


def _wait(port: int, server: subprocess.Popen, log: Path) -> None:
    import http.client
    import time
    for _ in range(300):
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            c.request("GET", "/")
            c.getresponse().read()
            return
        except OSError:
            if server.poll() is not None:
                sys.exit(log.read_text()[-3000:])
            time.sleep(0.1)
    sys.exit("gunicorn did not answer")


if __name__ == "__main__":
    main()
