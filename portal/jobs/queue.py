"""The task queue: Huey, on SQLite in the instance folder by default (`jobs-queue.db`:
nothing to install or start, `make run` works as it is) and on Redis when `REDIS_URL` is set
(several web processes and workers on several machines). Why Huey: docs/JOBS.md.

- `enqueue(job_id)`: after the unit of work that wrote the job commits, the web puts its id
  on the queue; a worker runs `jobs.runner.run` on it.
- `worker()`: the consumer (`portal worker`); every `RECOVER_EVERY` it also enqueues again
  the jobs whose message was lost or whose worker died (`jobs.runner.recover`: taken over
  within 30 s), and every minute it sends the outbox's due mail (`portal.outbox`; a unit of
  work that queued mail also puts a `portal.send_mail` task on the queue once it commits, so
  mail leaves at once) and posts the lenders' due webhooks (`portal.webhooks`); every hour
  it runs the day's work (`portal.jobs.daily`: each task is idempotent for its day).
  SIGTERM (a deploy, systemd) and SIGINT both stop it gracefully:
  each running job ends after the batch at hand and goes back to queued (`runner.STOPPING`),
  the consumer waits for its tasks, then exits.
- `use_immediate(database)`: tests run each task at once, in-process (Huey's immediate
  mode), on their database.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from huey import Huey, RedisHuey, SqliteHuey, crontab

from portal import clock, config, mail, outbox, webhooks
from portal.db import Database, get_database
from portal.jobs import daily, runner

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
    _queue["send_mail"] = huey.task(name="portal.send_mail")(_send_mail)
    _queue["mail_sweep"] = huey.periodic_task(crontab(minute="*"),
                                              name="portal.mail_sweep")(_send_mail)
    _queue["daily"] = huey.periodic_task(crontab(minute="7"), name="portal.daily")(_daily)
    _queue["webhooks"] = huey.periodic_task(crontab(minute="*"),
                                            name="portal.webhooks")(_deliver_webhooks)
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


def _send_mail() -> None:
    counts = outbox.send_all(_database(), _mail_config())
    if any(counts.values()):
        log.info("mail: %(sent)s sent, %(retry)s to retry, %(failed)s failed", counts)


def _deliver_webhooks() -> None:
    """The lenders' webhooks due now (`portal.webhooks`): every minute, so an event is
    posted within a minute of its commit and a retry within a minute of its time."""
    counts = webhooks.deliver_all(_database())
    if any(counts.values()):
        log.info("webhooks: %(delivered)s delivered, %(retry)s to retry, %(failed)s failed",
                 counts)


def _daily() -> None:
    daily.run_all(_database(), clock.today())


def _mail_config() -> Mapping[str, Any]:
    return _queue.get("mail_config") or config.mail_settings()


def _kick(url: str, settings: Mapping[str, Any]) -> None:
    """After a unit of work that queued mail commits: a `portal.send_mail` task, so the
    worker sends it now (with `MAIL_INLINE` the process sends it itself: `portal.outbox`).
    A queue that is down changes nothing: the worker's sweep sends it within a minute."""
    if settings.get("MAIL_INLINE"):
        return
    try:
        queue()
        _queue["send_mail"]()
    except Exception:
        log.warning("mail: the send task was not enqueued (the sweep will send it)",
                    exc_info=True)


mail.on_committed(_kick)

#: How often the worker looks for jobs to take over (a dead worker's, a lost message's).
RECOVER_EVERY = timedelta(seconds=5)


def _recovering(stop: threading.Event) -> None:
    while not stop.wait(RECOVER_EVERY.total_seconds()):
        try:
            _recover()
        except Exception:
            log.warning("jobs: recovery pass failed", exc_info=True)


def worker(workers: int = 1) -> None:
    """Consume the queue until SIGTERM or SIGINT (Ctrl-C): both are graceful, each running
    job stops after the batch at hand (`runner.STOPPING`) and is queued again with its
    committed batches kept; the consumer waits for its tasks, then the process exits."""
    huey = queue()
    _recover()
    runner.STOPPING.clear()
    consumer = huey.create_consumer(workers=workers, worker_type="thread", periodic=True,
                                    graceful_signal="TERM")
    consumer._signal_actions[signal.SIGINT] = (False, True)  # (restart, graceful): Ctrl-C too
    handle = consumer._handle_signal

    def stopping(signum: int, frame: Any) -> None:
        if signum in (signal.SIGTERM, signal.SIGINT):
            runner.STOPPING.set()  # each running job: after the batch at hand
        handle(signum, frame)

    consumer._handle_signal = stopping  # type: ignore[method-assign]
    stop = threading.Event()
    recovering = threading.Thread(target=_recovering, args=(stop,), daemon=True,
                                  name="jobs-recovery")
    recovering.start()
    try:
        consumer.run()
    finally:
        stop.set()
