"""Web benchmark: SQL statements and CPU per request of each kind of page, to the trivial page.

    .venv/bin/python bench/web_bench.py [--parcels 20000] [--users 5000] [--runs 300]
                                        [--bank-loans 2000] [--only WORD]
                                        [--postgres [SERVER_URL]]

Builds a fresh database (SQLite in a temporary folder; with `--postgres`, a throwaway database
on that server, dropped afterwards), migrates it, loads the demo District scaled to `--parcels`
parcels and `--users` users (`portal demo --parcels N --users M`), then signs in as the demo
owner, lender and staff (with the second step) and gives the demo bank a read token for its
API, and measures, through the Flask test client, 46 pages (`all_pages`: the owner's
dashboard, parcel pages, payments, receipt and statement PDFs, account pages; the lender's
dashboard, list, loan, bills; the lenders' API; the staff's lookup, audit, collections,
court list, exemptions, office payment, roll, roll review and the six reports, payments for
a range of days too):
- the SQL statements each page runs (counted with SQLAlchemy's `before_cursor_execute`
  event; target at most 10, and the same at 240 parcels as at `--parcels`);
- its CPU per request: the process's (`time.process_time`) and, on PostgreSQL, the server
  processes' of the bench's database (/proc), as a ratio to the trivial page's (the home
  page, signed in) in the same run. Each page is timed in blocks of its own that take turns
  over thirty rounds; the ratio is the median of the rounds' ratios, each between blocks run
  a fraction of a second apart (see `measure`), with its quartiles over the rounds. Target:
  the owner's dashboard and parcel page at most 4x, every other page at most 5x.
A page over a target is flagged OVER (SQL, CPU). Then it gives the demo bank `--bank-loans`
active loans in all and times its dashboard and the first and last pages of its list of
loans the same way (the lender's pages must not grow with the portfolio). `--only WORD`
times only the pages whose name holds WORD (and the trivial page), the bank's among them.
The load average is printed before and after: the host is shared.
"""

from __future__ import annotations

import argparse
import os
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


def count_queries(client, counter: Counter, url: str) -> int:  # noqa: ANN001
    client.get(url)  # warm up (templates, caches)
    counter.n = 0
    r = client.get(url)
    assert r.status_code == 200, (url, r.status_code)
    return counter.n


#: Untimed requests before each block: measured, the first four or five requests of a page after
#: another are up to 25 % slower; from the fifth on they are steady.
WARM_UP = 5


def _backend_pids(url: str) -> list[int]:
    """PostgreSQL: the server processes of the bench's database (read through a connection
    of their own, not counted); SQLite: none (its work is the process's own CPU)."""
    if not url.startswith("postgresql"):
        return []
    db = get_database(url)
    name = db.engine.url.database
    with _admin(url).connect() as conn:
        return list(conn.execute(text(
            "SELECT pid FROM pg_stat_activity WHERE datname = :d AND pid <> pg_backend_pid()"),
            {"d": name}).scalars())


_ADMIN: dict[str, object] = {}


def _admin(url: str):  # noqa: ANN202
    from sqlalchemy import create_engine
    if url not in _ADMIN:
        _ADMIN[url] = create_engine(url, pool_size=1)
    return _ADMIN[url]


_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _server_cpu(pids: list[int]) -> float:
    """The CPU seconds the server processes have used: /proc/PID/schedstat's time on the CPU,
    in nanoseconds (the clock ticks of /proc/PID/stat, 10 ms, are as long as a block of
    requests: a page's ratio moved by a quarter from one round to the next), else
    utime + stime."""
    total = 0.0
    for pid in pids:
        try:
            total += int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9
            continue
        except (OSError, ValueError, IndexError):
            pass
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / _TICK
    return total


def measure(pages: list, runs: int, url: str, rounds: int = 30
            ) -> tuple[list[float], list[float], list[list[float]]]:
    """Each page's median time and its CPU per request (the process's, plus the PostgreSQL
    server processes' of the bench's database, read from /proc), and its CPU ratios to the
    trivial page (the first), one per round. Each page is requested in blocks of its own,
    after `WARM_UP` requests that are not timed (its steady state: the first few requests
    after a heavier page pay for that one's garbage and caches, which would flatter the
    ratio). In every round each page has one block, in an order that turns from round to
    round, and the round's ratio is the page's CPU per request in its block over the trivial
    page's in the same round. This machine's speed moves by 10-20 % over seconds (a shared
    host): comparing blocks run a fraction of a second apart, and taking the median over the
    rounds, keeps a slow moment from weighing on one page only."""
    block = max(1, runs // rounds)
    times: list[list[float]] = [[] for _ in pages]
    cpu: list[float] = [0.0 for _ in pages]
    per_round: list[list[float]] = [[] for _ in pages]
    for r in range(rounds):
        order = list(range(len(pages)))
        order = order[r % len(pages):] + order[:r % len(pages)]
        pids = _backend_pids(url)
        for k in order:
            client, path = pages[k][1], pages[k][2]
            for _ in range(WARM_UP):  # back to this page's steady state
                client.get(path).get_data()
            ts = []
            c0, s0 = time.process_time(), _server_cpu(pids)
            for _ in range(block):
                t0 = time.perf_counter()
                client.get(path).get_data()
                ts.append(time.perf_counter() - t0)
            used = (time.process_time() - c0) + (_server_cpu(pids) - s0)
            times[k].extend(ts)
            cpu[k] += used
            per_round[k].append(used / block)
    ratios = [[p / t if t else float("nan") for p, t in zip(page, per_round[0])]
              for page in per_round]
    return ([statistics.median(t) for t in times], [c / (block * rounds) for c in cpu],
            ratios)


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
        for engine in _ADMIN.values():  # their connections go with the database
            engine.dispose()
        _ADMIN.clear()
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
    clock.set_fixed(datetime(TODAY.year, TODAY.month, TODAY.day, 10, 0))
    everything = all_pages(app, url)
    pages = [p for p in everything if p[3] == 1.0 or ONLY[0].lower() in p[0].lower()]
    out = _time(pages, counter, runs, url)
    if bank_loans and (not ONLY[0] or any(ONLY[0].lower() in n.lower() for n in BANK_PAGES)):
        lender = next(c for n, c, _p, _t in everything if n.startswith("lender:"))
        out += _big_portfolio(url, counter, pages[0], lender, bank_loans, runs)
    return out


#: The demo bank's pages timed again with `--bank-loans` loans (`--only` picks among them too).
BANK_PAGES = ("lender: dashboard (bank's loans)", "lender: loans, page 1 (bank's)",
              "lender: loans, last page (bank's)")


#: Targets (docs/WEB.md): the owner's dashboard and parcel page at most 4x the trivial page's
#: CPU, every other page at most 5x; every page at most 10 SQL statements.
OWNER_TARGET, OTHER_TARGET, SQL_TARGET = 4.0, 5.0, 10


def _ids(url: str) -> dict[str, object]:
    """The demo's rows the pages open (the first of each kind)."""
    q = {
        "payment": "SELECT p.id FROM payments p JOIN users u ON u.id = p.user_id "
                   "WHERE u.email = 'owner@demo.pr' AND p.status = 'succeeded' ORDER BY p.id",
        "loan": "SELECT id FROM loans ORDER BY id",
        "loan_number": "SELECT loan_number FROM loans ORDER BY id",
        "loan_catastro": "SELECT pa.catastro FROM loans l JOIN parcels pa ON pa.id = l.parcel_id "
                         "ORDER BY l.id",
        "demand": "SELECT notice_id FROM demand_letters ORDER BY id",
        "roll": "SELECT id FROM assessment_rolls ORDER BY id",
        "person": "SELECT id FROM users WHERE email = 'owner@demo.pr'",
    }
    out: dict[str, object] = {}
    with get_database(url).engine.connect() as conn:
        for k, sql in q.items():
            out[k] = conn.execute(text(sql)).scalars().first()
    return out


def _api_token(url: str) -> str:
    from portal.lenders import tokens
    from portal.models import Lender, PartyMember
    with UnitOfWork(get_database(url)) as w:
        user = users.find_by_email(w, "lender@demo.pr")
        party_id = w.session.query(PartyMember).filter_by(user_id=user.id).first().party_id
        lender = w.session.query(Lender).filter_by(party_id=party_id).one()
        _tok, secret = tokens.create_token(w, user, lender.id, "bench", "read", 30)
    return secret


class _Api:
    """A test client that sends the API's Bearer token."""

    def __init__(self, app, secret: str) -> None:  # noqa: ANN001
        self.client, self.headers = app.test_client(), {"Authorization": f"Bearer {secret}"}

    def get(self, path: str):  # noqa: ANN201
        return self.client.get(path, headers=self.headers)


def all_pages(app, url: str) -> list[tuple[str, object, str, float]]:  # noqa: ANN001
    """(name, signed-in client, path, CPU target vs the trivial page): the trivial page first,
    then the owner's, the lender's, the API's and the staff's pages and documents."""
    from tests.support.pages import login
    owner, lender, staff = login(app, "owner"), login(app, "lender"), login(app, "staff")
    api = _Api(app, _api_token(url))
    late = owner_parcel(url, ("overdue",))
    current = owner_parcel(url, ("current", "pending"))
    i = _ids(url)
    o, x = OWNER_TARGET, OTHER_TARGET
    pages = [
        ("trivial page (home, signed in)", owner, "/", 1.0),
        ("owner: dashboard (3 parcels)", owner, "/mis-propiedades", o),
        ("owner: parcel (delinquent)", owner, f"/propiedad/{late}", o),
        ("owner: parcel (up to date)", owner, f"/propiedad/{current}", o),
        ("owner: payments history", owner, f"/propiedad/{late}/pagos", x),
        ("owner: statement PDF", owner, f"/propiedad/{late}/estado-de-cuenta.pdf", x),
        ("owner: receipt", owner, f"/pagos/pago/{i['payment']}/recibo", x),
        ("owner: receipt PDF", owner, f"/pagos/pago/{i['payment']}/recibo.pdf", x),
        ("owner: account", owner, "/cuenta", x),
        ("owner: paperless", owner, "/cuenta/sin-papel", x),
        ("owner: reminders", owner, "/cuenta/recordatorios", x),
        ("owner: certificates", owner, f"/propiedad/{late}/certificados", x),
        ("owner: pay (choose)", owner, "/pagar", x),
        ("owner: calendar .ics", owner, f"/propiedad/{current}/calendario.ics", x),
        ("owner: exemption start", owner, f"/propiedad/{current}/exoneracion", x),
        ("lender: dashboard (50 loans)", lender, "/mis-propiedades", x),
        ("lender: loans (50)", lender, "/prestamista/prestamos", x),
        ("lender: loan", lender, f"/prestamista/prestamos/{i['loan']}", x),
        ("lender: loan parcel", lender, f"/propiedad/{_loan_parcel(url)}", x),
        ("lender: bills", lender, "/prestamista/facturas", x),
        ("lender: exemptions", lender, "/prestamista/exoneraciones", x),
        ("lender: organisation", lender, "/prestamista/organizacion", x),
        ("API: loans (50)", api, "/api/v1/loans", x),
        ("API: loan", api, f"/api/v1/loans/{i['loan_number']}", x),
        ("API: loan changes", api, "/api/v1/loan-changes", x),
        ("API: certifications", api,
         f"/api/v1/parcels/{i['loan_catastro']}/certifications", x),
        ("staff: search", staff, "/personal/buscar?q=1", x),
        ("staff: audit", staff, "/personal/auditoria", x),
        ("staff: person", staff, f"/personal/persona/{i['person']}", x),
        ("staff: collections", staff, "/personal/cobros", x),
        ("staff: demand", staff, f"/personal/cobros/{i['demand']}", x),
        ("staff: demand letter PDF", staff, f"/cobros/requerimiento/{i['demand']}.pdf", x),
        ("staff: court list", staff, "/personal/cobros/tribunal", x),
        ("staff: attachments", staff, "/personal/embargos", x),
        ("staff: exemptions queue", staff, "/personal/exoneraciones", x),
        ("staff: office payment", staff, f"/personal/pagos/oficina/{late}", x),
        ("staff: roll", staff, "/personal/tasacion", x),
        ("staff: roll review", staff, f"/personal/tasacion/{i['roll']}/revision", x),
        ("staff: reports", staff, "/personal/informes", x),
    ] + [(f"staff: report {r}", staff, f"/personal/informes/{r}", x)
         for r in ("pagos", "registro", "morosidad", "tribunal", "demandas", "exoneraciones")
         ] + [("staff: report pagos (a range)", staff,
               "/personal/informes/pagos?desde=2026-07-01&hasta=2026-11-30", x)]
    return pages


def _loan_parcel(url: str) -> int:
    with get_database(url).engine.connect() as conn:
        return conn.execute(text("SELECT parcel_id FROM loans ORDER BY id")).scalars().first()


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
        if loans > have:  # (the demo's own loans: none to add)
            conn.execute(text(
                "INSERT INTO loans (lender_id, parcel_id, loan_number, starts_on, created_at) "
                "VALUES (:lender, :parcel, :number, :starts, :created)"),
                [{"lender": lender_id, "parcel": free[k % len(free)],
                  "number": f"BENCH-{k:06d}", "starts": date(2024, 1, 1),
                  "created": datetime(2026, 1, 1)} for k in range(loans - have)])
        conn.execute(text("ANALYZE"))
    last = -(-loans // 50)
    pages = [trivial] + [
        p for p in ((BANK_PAGES[0], lender, "/mis-propiedades", OTHER_TARGET),
                    (BANK_PAGES[1], lender, "/prestamista/prestamos", OTHER_TARGET),
                    (BANK_PAGES[2], lender, f"/prestamista/prestamos?page={last}",
                     OTHER_TARGET))
        if ONLY[0].lower() in p[0].lower()]
    return _time(pages, counter, max(30, runs // 5), url)[1:]


def _time(pages: list, counter: Counter, runs: int, url: str
          ) -> list[tuple[str, int, float, float, list[float], float]]:
    """(page, SQL statements, median s, CPU s per request, CPU ratios to the first page, one
    per round, the page's target)."""
    queries = [count_queries(client, counter, path) for _name, client, path, _t in pages]
    medians, cpu, ratios = measure(pages, runs, url)
    return [(name, q, m, c, r, target) for (name, _c, _p, target), q, m, c, r
            in zip(pages, queries, medians, cpu, ratios)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parcels", type=int, default=20000)
    ap.add_argument("--users", type=int, default=5000)
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("--bank-loans", type=int, default=2000)
    ap.add_argument("--only", metavar="WORD", default="",
                    help="time only the pages whose name holds WORD (and the trivial page)")
    ap.add_argument("--postgres", metavar="SERVER_URL", nargs="?",
                    const="postgresql+psycopg://postgres@127.0.0.1:5432/test",
                    help="run on a throwaway database on this PostgreSQL server (default: "
                         "%(const)s) instead of SQLite")
    args = ap.parse_args()
    ONLY[0] = args.only
    print(f"database: {'PostgreSQL' if args.postgres else 'SQLite'}; "
          f"load average before: {os.getloadavg()[0]:.2f}")
    small = run(240, 4, 30, min(args.bank_loans, 100), args.postgres) \
        if args.parcels != 240 else None
    large = run(args.parcels, args.users, args.runs, args.bank_loans, args.postgres)
    small = small or large
    print(f"\n{'page':34} {'SQL@240':>7} {'SQL@' + str(args.parcels):>9} {'ms':>7} "
          f"{'CPU ms':>7} {'x trivial':>9} {'(quartiles)':>11}  target")
    for (_, q_small, *_), (name, q_large, median, cpu, ratios, target) in zip(small, large):
        q1, q2, q3 = statistics.quantiles(ratios, n=4)
        ratio = statistics.median(ratios)
        over = []
        if q_large > SQL_TARGET or q_small != q_large:
            over.append("SQL")
        if ratio > target:
            over.append("CPU")
        flag = ("OVER: " + "+".join(over)) if over and target > 1 else ""
        print(f"{name[:34]:34} {q_small:>7} {q_large:>9} {median * 1000:>7.1f} "
              f"{cpu * 1000:>7.2f} {ratio:>9.2f} {q1:>5.2f}-{q3:<5.2f}  "
              f"{'' if target == 1 else f'<={target:g}x'} {flag}")
    print(f"\nload average after: {os.getloadavg()[0]:.2f}; SQL target <= {SQL_TARGET} and the "
          "same at 240 parcels; CPU per request (the process's and the database server's) "
          "as a ratio to the trivial page's in the same round, the median over the rounds")


#: --only
ONLY = [""]


if __name__ == "__main__":
    main()
