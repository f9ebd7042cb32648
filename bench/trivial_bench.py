"""What a request costs the server: the portal's pages against a bare Flask "ok", both under
gunicorn as shipped (portal/gunicorn_conf.py: 2 gthread workers x 4 threads), in one run.

    .venv/bin/python bench/trivial_bench.py [--requests 400] [--rounds 5] [--clients 8]
                                            [--baseline /work/main]

The targets: the trivial signed-in page at most 4x a bare Flask response, and the dashboard
and the parcel page at most 4x the trivial page, as CPU per request: the CPU of the gunicorn
master and workers' threads, read from /proc (the scheduler's nanoseconds, `schedstat`)
before and after each block of requests, divided by the requests (the client's own CPU is
not counted; the load of other processes on the machine changes the wall clock, much less the
CPU a request takes).
Each round serves a block of each page in turn (bare, trivial, dashboard, parcel page); the
ratio is the median of the rounds' ratios, with their spread. The load average is printed
beside the figures. A script that prints figures, not a timed test.

The portal: a fresh instance folder, SQLite, the demo District (`portal demo`, 240 parcels),
signed in as the demo owner (cookie over plain HTTP: SESSION_COOKIE_SECURE=0); the trivial
page is the home page (`/`), signed in. The bare app: bench/bare_app.py.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
TICK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def group_cpu(pgid: int) -> float:
    """CPU seconds of every live process in the process group (the gunicorn master and its
    workers; the workers and their threads live for the whole run, so nothing is lost): the
    scheduler's nanoseconds on CPU of each thread (/proc/PID/task/TID/schedstat), not the
    stat file's clock ticks, which are 10 ms each (a block of the bare app is a few ticks)."""
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[2]) != pgid:  # field 5 of stat: the process group
            continue
        try:
            total += sum(int(Path(f"/proc/{entry}/task/{tid}/schedstat").read_text().split()[0])
                         for tid in os.listdir(f"/proc/{entry}/task")) / 1e9
        except (OSError, ValueError):  # no schedstat (a kernel without it): the ticks
            total += (int(fields[11]) + int(fields[12])) / TICK  # utime, stime
    return total


def serve(app: str, env: dict[str, str], port: int, log: Path, chdir: Path | None = None,
          cwd: Path | None = None) -> subprocess.Popen:
    """gunicorn as shipped serving `app`; `cwd`: the checkout whose `portal` it imports
    (gunicorn puts its starting folder first on the path before it reads its settings, which
    import `portal`: a later --chdir comes too late for that)."""
    args = [str(BIN / "gunicorn"), "-c", "python:portal.gunicorn_conf", app]
    if chdir:
        args[1:1] = ["--chdir", str(chdir)]
    with log.open("ab") as out:
        proc = subprocess.Popen(args, env={**env, "PORTAL_BIND": f"127.0.0.1:{port}",
                                           "PORTAL_CONTROL_SOCKET": str(log) + ".ctl"},
                                stdout=out, stderr=out, start_new_session=True, cwd=cwd)
    for _ in range(300):
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            c.request("GET", "/")
            c.getresponse().read()
            return proc
        except OSError:
            if proc.poll() is not None:
                sys.exit(log.read_text()[-3000:])
            time.sleep(0.1)
    sys.exit("gunicorn did not answer")


def stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def sign_in(port: int, email: str, password: str) -> str:
    """The session cookie of a signed-in client ("name=value")."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.request("GET", "/cuenta/entrar")
    r = c.getresponse()
    page = r.read().decode()
    cookie = r.getheader("Set-Cookie").split(";")[0]
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
    body = urllib.parse.urlencode({"csrf_token": token, "email": email, "password": password})
    c.request("POST", "/cuenta/entrar", body=body, headers={
        "Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"})
    r = c.getresponse()
    r.read()
    assert r.status == 303, f"sign-in: {r.status}"
    return r.getheader("Set-Cookie").split(";")[0]


def block(port: int, path: str, cookie: str | None, n: int, clients: int) -> int:
    """`n` GETs of `path` over `clients` keep-alive connections; how many answered 200."""
    ok = [0] * clients

    def run(i: int) -> None:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {"Cookie": cookie} if cookie else {}
        for _ in range(n // clients):
            c.request("GET", path, headers=headers)
            r = c.getresponse()
            r.read()
            ok[i] += r.status == 200
        c.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(ok)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=400, help="requests per page per round")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--baseline", type=Path, default=None,
                    help="another checkout (e.g. /work/main) served beside on the same data: "
                         "its trivial and anonymous pages measured in the same rounds")
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="trivial-bench-"))
    env = {**os.environ, "PORTAL_INSTANCE": str(tmp), "SECRET_KEY": "b" * 40,
           "DATABASE_URL": f"sqlite:///{tmp / 'portal.db'}", "SESSION_COOKIE_SECURE": "0",
           "PORTAL_TODAY": "2026-11-30", "WEB_CONCURRENCY": "2", "PORTAL_THREADS": "4"}
    env.pop("REDIS_URL", None)
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    subprocess.run([sys.executable, "-m", "portal.cli", "demo"], env=env, check=True,
                   capture_output=True, cwd=ROOT)
    bare_port, portal_port = free_port(), free_port()
    env["PORTAL_BASE_URL"] = f"http://127.0.0.1:{portal_port}"
    log = tmp / "gunicorn.log"
    bare = serve("bare_app:app", env, bare_port, log, chdir=ROOT / "bench")
    portal = serve("portal.app:create_app()", env, portal_port, log, cwd=ROOT)
    baseline = None
    if a.baseline is not None:
        base_port = free_port()
        baseline = serve("portal.app:create_app()", env, base_port, log,
                         cwd=a.baseline.resolve())
    try:
        sys.path.insert(0, str(ROOT))
        from portal.demo.district import DEMO_PASSWORD
        cookie = sign_in(portal_port, "owner@demo.pr", DEMO_PASSWORD)
        c = http.client.HTTPConnection("127.0.0.1", portal_port)
        c.request("GET", "/mis-propiedades", headers={"Cookie": cookie})
        dash = c.getresponse().read().decode()
        parcels = sorted(set(re.findall(r'href="/propiedad/(\d+)"', dash)))
        pages = {"bare Flask ok": (bare, bare_port, "/", None),
                 "trivial page (/, signed in)": (portal, portal_port, "/", cookie),
                 "anonymous / (no cookie)": (portal, portal_port, "/", None),
                 "dashboard": (portal, portal_port, "/mis-propiedades", cookie)}
        if baseline is not None:
            pages[f"{a.baseline.name}: trivial page"] = (baseline, base_port, "/", cookie)
            pages[f"{a.baseline.name}: anonymous /"] = (baseline, base_port, "/", None)
        for pid in (parcels[0], parcels[-1]):  # (the demo owner's first is the delinquent one)
            pages[f"parcel page {pid}"] = (portal, portal_port, f"/propiedad/{pid}", cookie)
        for _proc, port, path, ck in pages.values():  # warm: imports, catalogs, caches
            block(port, path, ck, a.clients * 20, a.clients)
        per: dict[str, list[float]] = {name: [] for name in pages}
        for _ in range(a.rounds):
            for name, (proc, port, path, ck) in pages.items():
                before = group_cpu(proc.pid)
                ok = block(port, path, ck, a.requests, a.clients)
                spent = group_cpu(proc.pid) - before
                assert ok == a.requests // a.clients * a.clients, f"{name}: {ok} answered 200"
                per[name].append(spent / ok)
        load = os.getloadavg()
        print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} CPUs); "
              f"{a.rounds} rounds x {a.requests} requests per page, {a.clients} clients; "
              "gunicorn 2 gthread workers x 4 threads, SQLite, the demo District")
        print(f"{'page':32} {'CPU ms/request':>15} {'vs bare':>14} {'vs trivial':>14}")
        for name, cpu in per.items():
            vs_bare = [c / b for c, b in zip(cpu, per["bare Flask ok"], strict=True)]
            vs_triv = [c / t for c, t in zip(cpu, per["trivial page (/, signed in)"],
                                             strict=True)]
            print(f"{name:32} {statistics.median(cpu) * 1000:15.3f} "
                  f"{statistics.median(vs_bare):6.2f}x ({min(vs_bare):.1f}-{max(vs_bare):.1f}) "
                  f"{statistics.median(vs_triv):6.2f}x ({min(vs_triv):.1f}-{max(vs_triv):.1f})")
        print("targets: trivial <= 4x bare; dashboard and parcel page <= 4x trivial")
    finally:
        stop(bare)
        stop(portal)
        if baseline is not None:
            stop(baseline)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
