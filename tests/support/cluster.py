"""The portal in production's shape on one machine, for `tests/test_cluster.py`: Debian's
HAProxy in front of three gunicorn instances, two `portal worker` processes, each with an
instance folder of its own (as separate hosts have), a throwaway PostgreSQL database, a Redis
database number of its own, moto's S3 server and an SMTP relay (aiosmtpd), all on free ports
in the test's folder, stopped and removed afterwards.

`missing()` says what this machine lacks (the module then skips, saying so).
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.support.relay import Handler

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS = "redis://127.0.0.1:6379/{db}"
#: The Redis database the cluster uses (emptied before and after); other tests use 15.
REDIS_DB = 11
BUCKET = "portal-cluster"
BASE_URL = "https://portal.example.pr"
BIN = Path(sys.executable).parent
#: How long a process has to become ready (a readiness wait, not a timed assertion).
READY_WITHIN = 120.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def haproxy() -> str | None:
    return shutil.which("haproxy") or next(
        (p for p in ("/usr/sbin/haproxy", "/usr/local/sbin/haproxy") if Path(p).exists()), None)


def missing(balancer: bool = True) -> str | None:
    """Why the cluster cannot run here, or None (`balancer`: HAProxy is needed too)."""
    if balancer and haproxy() is None:
        return "HAProxy is not installed (apt-get install haproxy)"
    try:
        from moto.server import ThreadedMotoServer  # noqa: F401
    except ImportError:
        return "moto's S3 server is not installed (pip install 'moto[server]')"
    if not (BIN / "gunicorn").exists():
        return "gunicorn is not installed (pip install -e .)"
    try:
        import psycopg
        with psycopg.connect(PG_ADMIN, connect_timeout=2):
            pass
    except Exception as exc:  # noqa: BLE001 - any reason: say it
        return f"PostgreSQL at 127.0.0.1:5432 is not reachable ({type(exc).__name__})"
    try:
        import redis
        redis.Redis.from_url(REDIS.format(db=REDIS_DB), socket_connect_timeout=1).ping()
    except Exception as exc:  # noqa: BLE001
        return f"Redis at 127.0.0.1:6379 is not reachable ({type(exc).__name__})"
    return None


def _wait(what: str, ready: Any, proc: subprocess.Popen | None = None,
          log: Path | None = None, within: float = READY_WITHIN) -> None:
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            if ready():
                return
        except OSError:
            pass
        if proc is not None and proc.poll() is not None:
            tail = log.read_text(errors="replace")[-3000:] if log else ""
            raise RuntimeError(f"{what} ended (exit {proc.returncode}):\n{tail}")
        time.sleep(0.1)
    tail = log.read_text(errors="replace")[-3000:] if log else ""
    raise RuntimeError(f"{what} not ready within {within:.0f} s:\n{tail}")


def _get(url: str, timeout: float = 2.0) -> int:
    import urllib.request
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=timeout) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


class Process:
    """A child process in a session of its own (stopped with everything it forked)."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], log: Path):
        self.name, self.argv, self.env, self.log = name, argv, env, log
        self.proc: subprocess.Popen | None = None

    def start(self) -> Process:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(self.argv, env=self.env, stdout=out, stderr=out,
                                         stdin=subprocess.DEVNULL, start_new_session=True)
        return self

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def send(self, signum: int) -> None:
        if self.alive():
            os.kill(self.pid, signum)

    def wait(self, timeout: float) -> int | None:
        assert self.proc is not None
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self, signum: int = signal.SIGTERM, timeout: float = 15) -> None:
        if self.proc is None:
            return
        self.send(signum)
        self.wait(timeout)
        with contextlib.suppress(ProcessLookupError):  # whatever it forked, too
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()


class Relay:
    """The SMTP relay (aiosmtpd, in this process) on a fixed port: `down()` then `up()`
    again on the same port; `handler.accepted` keeps every message it took."""

    def __init__(self) -> None:
        self.handler = Handler()
        self.port = free_port()
        self.controller: Any = None
        self.transports: set[Any] = set()  # the connections open to it (its loop's thread)

    def up(self) -> None:
        from aiosmtpd.controller import Controller
        transports = self.transports

        class Tracked(Controller):
            def factory(self) -> Any:  # each connection's transport, to close at `down`
                smtp = super().factory()
                made = smtp.connection_made

                def connection_made(transport: Any) -> None:
                    transports.add(transport)
                    made(transport)
                smtp.connection_made = connection_made
                return smtp

        self.controller = Tracked(self.handler, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def down(self) -> None:
        """Stop it, closing the connections a worker has open to it: aiosmtpd's `stop` leaves
        them to the garbage collector, whose "unclosed transport" warning then fails
        whichever test it falls in."""
        if self.controller is not None:
            self.controller.loop.call_soon_threadsafe(self._close_transports)
            self.controller.stop()
            self.controller = None

    def _close_transports(self) -> None:
        for transport in list(self.transports):
            transport.abort()
        self.transports.clear()


class Cluster:
    """Every piece; `start()` brings them up in production's order, `close()` stops them."""

    def __init__(self, root: Path, web_n: int = 3, workers_n: int = 2):
        self.root = root
        self.web_n, self.workers_n = web_n, workers_n
        self.db_name = f"portal_cluster_{os.getpid()}_{secrets.token_hex(3)}"
        self.database_url = f"postgresql+psycopg://postgres@127.0.0.1:5432/{self.db_name}"
        self.redis_url = REDIS.format(db=REDIS_DB)
        self.relay = Relay()
        self.moto: Any = None
        self.s3_port = free_port()
        self.web: list[Process] = []
        self.web_ports: list[int] = []
        self.workers: list[Process] = []
        self.haproxy: Process | None = None
        self.lb_port = free_port()
        self._db_created = False

    # --- the environment every portal process gets ------------------------------------------

    @property
    def s3_endpoint(self) -> str:
        return f"http://127.0.0.1:{self.s3_port}"

    def env(self, instance: Path, **extra: str) -> dict[str, str]:
        instance.mkdir(parents=True, exist_ok=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PORTAL_", "MAIL_"))
               and k not in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "STORAGE_S3_BUCKET",
                             "STORAGE_S3_ENDPOINT_URL", "OUTBOX_DIR", "TRUSTED_PROXIES")}
        env.update({
            "PORTAL_ENV": "production",
            "PORTAL_INSTANCE": str(instance),
            "SECRET_KEY": "cluster-" + "k" * 40,
            "DATABASE_URL": self.database_url,
            "PORTAL_BASE_URL": BASE_URL,
            "REDIS_URL": self.redis_url,
            "STORAGE_S3_BUCKET": BUCKET,
            "STORAGE_S3_ENDPOINT_URL": self.s3_endpoint,
            "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
            "AWS_DEFAULT_REGION": "us-east-1",
            "MAIL_SERVER": "127.0.0.1", "MAIL_PORT": str(self.relay.port),
            "MAIL_USE_TLS": "0", "MAIL_FROM": "Portal <no-reply@portal.example.pr>",
            # plain HTTP between the test's clients and the balancer (no TLS terminator here)
            "SESSION_COOKIE_SECURE": "0",
            "TRUSTED_PROXIES": "1",  # HAProxy appends the client's address
            "FORWARDED_ALLOW_IPS": "127.0.0.1",
            "RATELIMIT_SIGNIN": "5 per minute;50 per hour",
            "LOG_FORMAT": "json",
            "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost",
        })
        for k in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY"):
            env.pop(k, None)
        env.update(extra)
        return env

    def s3_client(self) -> Any:
        import boto3
        return boto3.client("s3", endpoint_url=self.s3_endpoint, region_name="us-east-1",
                            aws_access_key_id="testing", aws_secret_access_key="testing")

    # --- bringing it up ---------------------------------------------------------------------

    def start(self, parcels: int = 240, users: int = 4) -> None:
        """The services, the migrations, the demo District (its roll published, the notices'
        job left queued for the workers), then the web instances and the balancer."""
        self._services()
        env = self.env(self.root / "migrate")
        for argv in (["db", "upgrade"], ["demo", "--no-migrate", "--parcels", str(parcels),
                                         "--users", str(users)]):
            done = subprocess.run([str(BIN / "portal"), *argv], env=env, capture_output=True)
            if done.returncode:
                raise RuntimeError(f"portal {' '.join(argv)}: {done.stderr.decode()[-3000:]}")
        for n in range(self.web_n):
            self.start_web(n)
        for n in range(self.web_n):
            self.wait_web(n)
        self._balancer()

    def _services(self) -> None:
        import psycopg
        import redis
        from moto.server import ThreadedMotoServer
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.db_name}"')
        self._db_created = True
        redis.Redis.from_url(self.redis_url).flushdb()
        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # moto's server: a line a request
        self.moto = ThreadedMotoServer(ip_address="127.0.0.1", port=self.s3_port, verbose=False)
        self.moto.start()
        self.s3_client().create_bucket(Bucket=BUCKET)
        self.relay.up()

    def start_web(self, n: int) -> Process:
        """Instance `n` (its port kept across restarts)."""
        name = f"web-{'abcdefgh'[n]}"
        if n >= len(self.web_ports):
            self.web_ports.append(free_port())
        port = self.web_ports[n]
        env = self.env(self.root / name, PORTAL_BIND=f"127.0.0.1:{port}",
                       WEB_CONCURRENCY="1", PORTAL_THREADS="4",
                       PORTAL_GRACEFUL_TIMEOUT="10")
        proc = Process(name, [str(BIN / "gunicorn"), "-c", "python:portal.gunicorn_conf",
                              "portal.app:create_app()"], env, self.root / f"{name}.log").start()
        if n < len(self.web):
            self.web[n] = proc
        else:
            self.web.append(proc)
        return proc

    def web_url(self, n: int) -> str:
        return f"http://127.0.0.1:{self.web_ports[n]}"

    def wait_web(self, n: int) -> None:
        proc = self.web[n]
        _wait(proc.name, lambda: _get(self.web_url(n) + "/readyz") == 200, proc.proc,
              proc.log)

    def _balancer(self) -> None:
        servers = "\n".join(f"  server {p.name} 127.0.0.1:{port} check"
                            for p, port in zip(self.web, self.web_ports, strict=True))
        cfg = self.root / "haproxy.cfg"
        cfg.write_text(f"""global
  maxconn 512
  stats socket {self.root / "haproxy.sock"} mode 600 level user

defaults
  mode http
  timeout connect 2s
  timeout client 30s
  timeout server 30s
  timeout queue 10s
  option http-server-close
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response response-timeout

frontend portal
  bind 127.0.0.1:{self.lb_port}
  option forwardfor
  default_backend instances

backend instances
  balance roundrobin
  option httpchk
  http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host 127.0.0.1
  timeout check 5s
  default-server inter 1s fall 2 rise 1
{servers}
""")
        self.haproxy = Process("haproxy", [haproxy(), "-db", "-f", str(cfg)],
                               self.env(self.root / "haproxy"), self.root / "haproxy.log")
        self.haproxy.start()
        _wait("haproxy", lambda: _get(self.url + "/healthz") == 200, self.haproxy.proc,
              self.haproxy.log)

    def wait_in_balancer(self, n: int) -> None:
        """Until HAProxy sends requests to instance `n` again (its health check passed)."""
        name = self.web[n].name

        def up() -> bool:
            with socket.socket(socket.AF_UNIX) as s:
                s.connect(str(self.root / "haproxy.sock"))
                s.sendall(b"show stat\n")
                data = b""
                while chunk := s.recv(65536):
                    data += chunk
            return any(line.split(",")[1] == name and line.split(",")[17] == "UP"
                       for line in data.decode().splitlines()
                       if line.startswith("instances,"))
        _wait(f"{name} back in the balancer", up)

    @property
    def url(self) -> str:
        """The balancer's address (what the clients use)."""
        return f"http://127.0.0.1:{self.lb_port}"

    def start_worker(self, n: int) -> Process:
        name = f"worker-{n + 1}"
        env = self.env(self.root / name, PORTAL_DB_APPLICATION_NAME=f"portal-{name}")
        proc = Process(name, [str(BIN / "portal"), "worker"], env,
                       self.root / f"{name}.log").start()
        if n < len(self.workers):
            self.workers[n] = proc
        else:
            self.workers.append(proc)
        return proc

    # --- taking it down ---------------------------------------------------------------------

    def close(self) -> None:
        # nothing to finish gracefully here: every process group killed outright
        for proc in [*self.workers, *self.web]:
            with contextlib.suppress(Exception):
                proc.stop(signal.SIGKILL, timeout=10)
        if self.haproxy is not None:
            with contextlib.suppress(Exception):
                self.haproxy.stop(signal.SIGTERM, timeout=5)
        with contextlib.suppress(Exception):
            self.relay.down()
        if self.moto is not None:
            with contextlib.suppress(Exception):
                self.moto.stop()
        with contextlib.suppress(Exception):
            import redis
            redis.Redis.from_url(self.redis_url).flushdb()
        if self._db_created:
            import psycopg
            with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')

    def logs(self) -> str:
        """The tail of every log (a failure's message)."""
        out = []
        for log in sorted(self.root.glob("*.log")):
            out.append(f"--- {log.name}\n{log.read_text(errors='replace')[-1500:]}")
        return "\n".join(out)


@contextlib.contextmanager
def running(root: Path) -> Iterator[Cluster]:
    cluster = Cluster(root)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.close()
