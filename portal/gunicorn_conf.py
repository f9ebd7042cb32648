"""gunicorn's settings for the portal in production:

    gunicorn -c python:portal.gunicorn_conf "portal.app:create_app()"

with `portal worker` running apart for the background jobs. Web workers are stateless (the
sessions, the throttle and the jobs are in the database, or Redis with REDIS_URL), so any
number of them may serve. Settings from the environment: PORTAL_BIND (default
127.0.0.1:8000), WEB_CONCURRENCY (workers, default 2), PORTAL_THREADS (threads per worker,
default 4), FORWARDED_ALLOW_IPS (the proxy in
front, whose X-Forwarded-Proto makes `request.is_secure` true: HSTS and the `__Host-`
cookie then follow).

Running as a service (docs/OPERATIONS.md):
- `preload_app`: the master imports the app once, so a reload (SIGHUP) forks new workers that
  are ready at once while the old ones finish their requests within `graceful_timeout`
  (PORTAL_GRACEFUL_TIMEOUT, default 30 s); a new release is a rolling SIGTERM + start, one
  instance at a time, each taken out of the balancer by its failing `/readyz` meanwhile.
- The control socket (`gunicornc`) is per instance: PORTAL_CONTROL_SOCKET, default
  `<instance folder>/gunicorn.ctl` (each host or instance has its own PORTAL_INSTANCE).
- Logs: the portal writes one JSON line per request itself (`portal.request`), so gunicorn's
  own access log is off; its error log is JSON too (LOG_FORMAT=json, production's default).
- Metrics: with PROMETHEUS_MULTIPROC_DIR, a dead worker's values are marked (`child_exit`).

No `Server: gunicorn/<version>`: gunicorn writes that header itself, after the app; the
portal's responses say `Server: portal`, as `portal serve` does (`app.QuietHandler`).
"""

from __future__ import annotations

import os

import gunicorn.http.wsgi

from portal import config as _config
from portal.operations import logs as _logs
from portal.operations import metrics as _metrics

gunicorn.http.wsgi.SERVER = "portal"  # read by every gunicorn Response when it is made

bind = os.environ.get("PORTAL_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# Threads, not gunicorn's sync workers: a sync worker waits for a slow or idle client's
# request to arrive and serves nobody else meanwhile (two scanners' idle connections held
# both workers and every page took 10-30 s); a thread waits instead. The app is
# thread-safe (`portal serve` is threaded too).
worker_class = "gthread"
threads = int(os.environ.get("PORTAL_THREADS", "4"))
keepalive = 5
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
timeout = 60
graceful_timeout = int(os.environ.get("PORTAL_GRACEFUL_TIMEOUT", "30"))
preload_app = _config.flag(os.environ.get("PORTAL_PRELOAD"), True)
control_socket = (os.environ.get("PORTAL_CONTROL_SOCKET")
                  or str(_config.instance_path() / "gunicorn.ctl"))
_production = (os.environ.get("PORTAL_ENV") or "").strip() == "production"
if (os.environ.get("LOG_FORMAT") or ("json" if _production else "")) == "json":
    logconfig_dict = _logs.gunicorn_logconfig()
    accesslog = None
else:
    accesslog = "-"  # development: gunicorn's text access log beside the portal's


def post_fork(server, worker) -> None:  # noqa: ANN001, ARG001 - gunicorn's hook
    """A worker starts with no database connection inherited from the master (preload)."""
    from portal import db

    db.forget_inherited_connections()


def child_exit(server, worker) -> None:  # noqa: ANN001, ARG001 - gunicorn's hook
    _metrics.worker_exited(worker.pid)
