"""Cluster benchmark: the CPU one request costs through the balancer, with one and with three
web instances, in one run.

    .venv/bin/python bench/cluster_bench.py [--parcels 300] [--requests 600] [--clients 6]

Starts the portal in production's shape twice (`tests/support/cluster.py`, as
`tests/test_cluster.py` does: HAProxy, gunicorn instances in production mode each with one
worker of 4 threads, a throwaway PostgreSQL database, Redis, moto's S3), first with one web
instance, then with three. Each time `--clients` clients, each signed in as the demo owner
through the balancer, ask for the owner's parcel pages in turn (a page that reads the
account's facts: several statements) until `--requests` were answered, after a warm-up of
one round per client. It measures from /proc, over the measured requests only:
- the CPU time (user + system) of every gunicorn process (masters and workers) and of every
  PostgreSQL backend serving the cluster's database (`pg_stat_activity`), per request;
- the wall time, and the load average beside it (the machine is shared);
- the same CPU with no request for a few seconds (the balancer's health checks, `/readyz`
  each second on each instance, and the masters), whose rate times the wall time is shown
  set apart ("less idle"): three instances are checked three times as often.

The figure to read is the ratio of three instances' CPU per request to one's: about 1 means
nothing but the database is shared (each instance does the same work per request), so more
machines give proportionally more throughput; the throughput itself on one 2-core machine
says nothing about several machines. Every request must answer 200.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support import cluster as cluster_support  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
#: Seconds of no requests over which the cluster's idle CPU rate is measured.
IDLE_SECONDS = 5.0


def cpu_seconds(pid: int) -> float:
    """utime + stime of `pid` (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


def group_pids(pgid: int) -> set[int]:
    """The processes of a process group (a gunicorn master and the workers it forked)."""
    out = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid:
                out.add(int(entry.name))
    return out


def backend_pids(c: cluster_support.Cluster) -> set[int]:
    import psycopg
    with psycopg.connect(cluster_support.PG_ADMIN, autocommit=True) as conn:
        return {r[0] for r in conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s", (c.db_name,))}


def snapshot(c: cluster_support.Cluster) -> dict[str, dict[int, float]]:
    web = set().union(*(group_pids(p.pid) for p in c.web))
    return {"web": {p: cpu_seconds(p) for p in web},
            "db": {p: cpu_seconds(p) for p in backend_pids(c)}}


def used(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds between two snapshots (a process new in `after` counts whole)."""
    return sum(t - before.get(p, 0.0) for p, t in after.items())


def run_once(instances: int, parcels: int, requests_n: int, clients_n: int) -> dict:
    from tests.support.cluster_client import Client
    with tempfile.TemporaryDirectory(prefix="cluster-bench-") as tmp:
        c = cluster_support.Cluster(Path(tmp), web_n=instances)
        try:
            c.start(parcels=parcels, users=4)
            clients = []
            for n in range(clients_n):
                cl = Client(c.url, source=f"127.0.0.{2 + n}")
                cl.sign_in("owner@demo.pr")
                clients.append(cl)
            dash = clients[0].get("/mis-propiedades").text
            pages = sorted(set(re.findall(r'href="(/propiedad/\d+)"', dash)))
            assert pages, "the owner's dashboard lists no parcel"
            for _round in range(3):  # warm-up: every instance's worker serves the page
                for cl in clients:
                    for page in pages:
                        assert cl.get(page).status_code == 200
            # idle: the balancer's health checks (/readyz each second on each instance) and
            # the gunicorn masters cost CPU with no request; its rate, to set apart
            idle0, i0 = snapshot(c), time.perf_counter()
            time.sleep(IDLE_SECONDS)
            idle1 = snapshot(c)
            idle_rate = (used(idle0["web"], idle1["web"]) + used(idle0["db"], idle1["db"])) / (
                time.perf_counter() - i0)
            left = [requests_n]
            lock = threading.Lock()
            failures: list[str] = []

            def work(cl: Client) -> None:
                i = 0
                while True:
                    with lock:
                        if left[0] <= 0:
                            return
                        left[0] -= 1
                    r = cl.get(pages[i % len(pages)])
                    i += 1
                    if r.status_code != 200:
                        with lock:
                            failures.append(f"{r.status_code}")

            before, load0 = snapshot(c), os.getloadavg()
            t0 = time.perf_counter()
            threads = [threading.Thread(target=work, args=(cl,)) for cl in clients]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            wall = time.perf_counter() - t0
            after, load1 = snapshot(c), os.getloadavg()
            assert not failures, f"{len(failures)} requests failed: {failures[:5]}"
            return {"instances": instances, "requests": requests_n, "wall": wall,
                    "web": used(before["web"], after["web"]),
                    "db": used(before["db"], after["db"]), "idle": idle_rate * wall,
                    "load": (load0[0], load1[0])}
        finally:
            c.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--parcels", type=int, default=300)
    ap.add_argument("--requests", type=int, default=600)
    ap.add_argument("--clients", type=int, default=6)
    args = ap.parse_args()
    why = cluster_support.missing()
    if why:
        sys.exit(f"cluster bench: {why}")
    rows = [run_once(n, args.parcels, args.requests, args.clients) for n in (1, 3)]
    print(f"{args.requests} parcel pages through HAProxy, {args.clients} clients, "
          f"{args.parcels} parcels; CPU from /proc (gunicorn masters and workers; PostgreSQL "
          "backends of the cluster's database)")
    print(f"{'instances':>9} {'wall s':>7} {'req/s':>6} {'web ms/req':>10} {'db ms/req':>9} "
          f"{'total ms/req':>12} {'less idle':>9}  load average (1 min, start-end)")
    for r in rows:
        n = r["requests"]
        total = r["web"] + r["db"]
        print(f"{r['instances']:>9} {r['wall']:>7.1f} {n / r['wall']:>6.1f} "
              f"{1000 * r['web'] / n:>10.2f} {1000 * r['db'] / n:>9.2f} "
              f"{1000 * total / n:>12.2f} {1000 * (total - r['idle']) / n:>9.2f}  "
              f"{r['load'][0]:.2f}-{r['load'][1]:.2f}")
    one, three = ((r["web"] + r["db"]) / r["requests"] for r in rows)
    one_net, three_net = ((r["web"] + r["db"] - r["idle"]) / r["requests"] for r in rows)
    print(f"CPU per request, three instances / one: {three / one:.2f}; less the idle CPU "
          f"(health checks, masters): {three_net / one_net:.2f} (about 1: nothing shared but "
          "the database)")

if __name__ == "__main__":
    main()
