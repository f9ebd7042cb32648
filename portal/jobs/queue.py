"""The task queue: Huey, on SQLite in the instance folder by default (`jobs-queue.db`:
nothing to install or start, `make run` works as it is) and on Redis when `REDIS_URL` is set
(several web processes and workers on several machines). Why Huey: docs/JOBS.md.

- `enqueue(job_id)`: after the unit of work that wrote the job commits, the web puts its id
  on the queue; a worker runs `jobs.runner.run` on it.
- `worker()`: the consumer (`portal worker`); every minute it also enqueues again the jobs
  whose message was lost or whose worker died (`jobs.runner.recover`).
- `use_immediate(database)`: tests run each task at once, in-process (Huey's immediate
  mode), on their database.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from huey import Huey, RedisHuey, SqliteHuey, crontab

from portal import config
from portal.db import Database, get_database
from portal.jobs import runner

log = logging.getLogger(__name__)

_lock = threading.Lock()
_queue: dict[str, Any] = {}


def _make(settings: dict[str, Any], immediate: bool = False) -> Huey:
    if immediate:  # in memory: no file, no server
        return Huey("portal-jobs", immediate=True)
    if settings.get("REDIS_URL"):
        return RedisHuey("portal-jobs", url=settings["REDIS_URL"])
    return SqliteHuey("portal-jobs", filename=settings["JOBS_QUEUE_FILE"])


def _install(huey: Huey, database: Database | None = None) -> Huey:
    _queue["huey"] = huey
    _queue["database"] = database
    _queue["run"] = huey.task(name="portal.run_job")(_run_job)
    _queue["recover"] = huey.periodic_task(crontab(minute="*"),
                                           name="portal.recover_jobs")(_recover)
    return huey


def queue() -> Huey:
    """The process's queue, made on first use from the configuration (with its tasks)."""
    with _lock:
        if "huey" not in _queue:
            _install(_make(config.settings(with_key=False)))
        return _queue["huey"]


def use_immediate(database: Database) -> None:
    """Tests: each task runs at once in the calling thread (Huey's immediate mode, in
    memory), on `database`."""
    with _lock:
        _queue.clear()
        _install(_make({}, immediate=True), database)


def reset() -> None:
    """Forget the queue (tests, or after changing the configuration)."""
    with _lock:
        _queue.clear()


def enqueue(job_id: int) -> None:
    """Put the job on the queue (after the unit of work that wrote it has committed)."""
    queue()
    _queue["run"](int(job_id))


def enqueue_or_leave(job_id: int) -> None:
    """`enqueue` from a request: if the queue is down, the job stays queued in the database
    and the worker's recovery (every minute, `jobs.runner.recover`) enqueues it again, so
    the request still answers with the job's page."""
    try:
        enqueue(job_id)
    except Exception:
        log.exception("job %s: not enqueued", job_id)


def _database() -> Database:
    return _queue.get("database") or get_database()


def _run_job(job_id: int) -> None:
    job = runner.run(_database(), job_id)
    if job is not None:
        log.info("job %s %s: %s (%s/%s)", job.id, job.kind, job.status, job.done, job.total)


def _recover() -> None:
    for job_id in runner.recover(_database()):
        enqueue(job_id)


def worker(workers: int = 1) -> None:
    """Consume the queue until interrupted (Ctrl-C or SIGTERM end it after the task at hand;
    a job stopped midway keeps its committed batches and runs again from there)."""
    huey = queue()
    _recover()
    consumer = huey.create_consumer(workers=workers, worker_type="thread", periodic=True)
    consumer.run()
