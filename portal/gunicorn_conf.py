"""gunicorn's settings for the portal in production:

    gunicorn -c python:portal.gunicorn_conf "portal.app:create_app()"

with `portal worker` running apart for the background jobs. Web workers are stateless (the
sessions, the throttle and the jobs are in the database, or Redis with REDIS_URL), so any
number of them may serve. Settings from the environment: PORTAL_BIND (default
127.0.0.1:8000), WEB_CONCURRENCY (workers, default 2), PORTAL_THREADS (threads per worker,
default 4), FORWARDED_ALLOW_IPS (the proxy in
front, whose X-Forwarded-Proto makes `request.is_secure` true: HSTS and the `__Host-`
cookie then follow).

No `Server: gunicorn/<version>`: gunicorn writes that header itself, after the app; the
portal's responses say `Server: portal`, as `portal serve` does (`app.QuietHandler`).
"""

from __future__ import annotations

import os

import gunicorn.http.wsgi

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
accesslog = "-"
timeout = 60
