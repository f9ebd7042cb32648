"""Background jobs' records and the runner that does their work (DESIGN.md 7).

A job's work is a batched work object (`roll.Computation`, `roll.Publication`): `begin(uow)`
returns how many items there are, each `step(uow)` does the next batch and returns how many
items it did (0: nothing left), `finish(uow)` ends it. `run` gives `begin`, each `step` and
`finish` a unit of work of their own and writes the job's progress in the same transaction
as its batch, so:

- all or nothing per batch: a batch and the progress that counts it commit together;
- a job killed midway leaves only whole batches, and `done` says how many items they hold;
- safe to re-run: the works skip what is already done (publishing) or start over
  (computing), so running a job again, or the same input twice, changes nothing more;
- each run knows its owner: the claim writes a worker token of its own and a heartbeat
  (`heartbeat_at`, every `HEARTBEAT` by a thread while the job runs); a job whose heartbeat
  is older than `STALE` is taken over by another worker (`recover`), and every write of a
  run (its progress with each batch, the end) is conditioned on its token, so a worker that
  was paused and resumed after a takeover writes nothing: its batch rolls back (`Lost`);
- stopping (`STOPPING`, set by the worker on SIGTERM) ends the run after the batch at hand:
  the job goes back to queued, its committed batches kept, for the next worker;
- a work whose one step is one long transaction (all or nothing: a checkout of many
  accounts) may say how far it is inside it: when it has a `report` attribute the runner
  sets it to a function `report(done)` that writes the progress on a connection of its own
  (`report_aside`; on SQLite, one writer at a time, it writes nothing until the step ends).

Submitting the input of a job still queued or running gives that job (`Job.active_key` is
unique): the second click starts nothing. The queue (`portal.jobs.queue`) only carries job
ids. This module imports no domain: each registers its kinds (`register`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import threading
from collections.abc import Callable, Iterable
from datetime import date, timedelta
from typing import Any, Protocol

from sqlalchemy import Integer, and_, bindparam, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from portal import clock
from portal.accounts import access, audit
from portal.accounts.errors import InvalidInput, NotFound, ServiceError
from portal.db import Database, UnitOfWork
from portal.models import Job, User

log = logging.getLogger(__name__)

#: How often a running job's worker says it is alive (`heartbeat_at`).
HEARTBEAT = timedelta(seconds=5)
#: A running job whose worker has not said so for this long is taken for dead and may be
#: started again (`recover`, every `queue.RECOVER_EVERY`): taken over within 30 s.
STALE = timedelta(seconds=20)
#: Set by the worker on SIGTERM: each run stops after the batch at hand (module docstring).
STOPPING = threading.Event()
#: The error code of a failure that is not a domain error (the log has the traceback).
UNEXPECTED = "job_failed"

Progress = Callable[[int, int], None] | None


class Work(Protocol):
    def begin(self, uow: UnitOfWork) -> int: ...
    def step(self, uow: UnitOfWork) -> int: ...
    def finish(self, uow: UnitOfWork) -> Any: ...


#: What each kind of job does, from its staff user and its input; what `submit` checks before
#: queueing one (the work checks it again when it runs: a missing version or roll, or one in
#: the wrong state, is refused at once); the kinds a lender's user starts (not staff: their
#: check says who may). Each domain registers its kinds (`register`) when it is imported;
#: `portal.domains` imports them all for the web app and the worker.
KINDS: dict[str, Callable[[Any, dict[str, Any]], Work]] = {}
CHECKS: dict[str, Callable[[UnitOfWork, Any, dict[str, Any]], Any]] = {}
LENDER_KINDS: set[str] = set()


def register(kind: str, work: Callable[[Any, dict[str, Any]], Work],
             check: Callable[[UnitOfWork, Any, dict[str, Any]], Any], *,
             lender: bool = False) -> None:
    """Make `kind` a job: `work(user, params)` builds its work, `check(uow, user, params)`
    refuses input it would refuse; `lender`: a lender's user starts it, not staff."""
    KINDS[kind] = work
    CHECKS[kind] = check
    if lender:
        LENDER_KINDS.add(kind)


def optional_date(value: str | None) -> date | None:
    """A job parameter that is a date or empty."""
    return date.fromisoformat(value) if value else None


def checksum(kind: str, params: dict[str, Any]) -> str:
    """SHA-256 of the kind and the input (keys sorted): the same input, the same checksum."""
    text = json.dumps([kind, params], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def submit(uow: UnitOfWork, user: Any, kind: str, params: dict[str, Any]) -> Job:
    """A job for `kind` over `params`, queued; the job already queued or running for the
    same input if there is one. The caller enqueues its id once this unit of work commits.
    Raises what `CHECKS` raises (NotFound, Conflict) for input the job would refuse."""
    if kind not in LENDER_KINDS:
        access.require_staff(user)
    return _submit(uow, user, kind, params)


def submit_scheduled(uow: UnitOfWork, kind: str, params: dict[str, Any]) -> Job:
    """A job the portal starts itself (the day's work, `portal.jobs.daily`: the collections
    run the day after each month's day G): no one's, `created_by_id` null (the audit log's
    "system"); otherwise as `submit`, the job already queued or running for the same input
    if there is one. Its check is called with no user."""
    return _submit(uow, None, kind, params)


def _submit(uow: UnitOfWork, user: Any, kind: str, params: dict[str, Any]) -> Job:
    if kind not in KINDS:
        raise InvalidInput("invalid", field="kind")
    CHECKS[kind](uow, user, params)
    key = checksum(kind, params)
    existing = uow.session.scalar(select(Job).where(Job.active_key == key))
    if existing is not None:
        return existing
    job = Job(kind=kind, params=params, input_checksum=key, active_key=key, status="queued",
              done=0, attempts=0, created_by_id=getattr(user, "id", None))
    try:
        with uow.session.begin_nested():  # two clicks at once: one job, the other gets it
            uow.session.add(job)
            uow.session.flush()
    except IntegrityError:
        existing = uow.session.scalar(select(Job).where(Job.active_key == key))
        if existing is None:
            raise
        return existing
    audit.record(uow, user, "job.queued", job, after={"kind": kind, "params": params})
    return job


def _with_starter(rows: Any) -> list[Job]:
    """Jobs with `started_by` set: the email of who started each (or "")."""
    out = []
    for job, email in rows:
        job.started_by = email or ""
        out.append(job)
    return out


_WITH_STARTER = select(Job, User.email).outerjoin(User, User.id == Job.created_by_id)


def get(uow: UnitOfWork, user: Any, job_id: int) -> Job:
    """A job with `started_by` (who started it), for staff (NotFound for anyone else, as
    for an unknown id)."""
    access.require_staff(user)
    found = _with_starter(uow.session.execute(_WITH_STARTER.where(Job.id == int(job_id))))
    if not found:
        raise NotFound()
    return found[0]


def recent(uow: UnitOfWork, user: Any, limit: int = 20,
           kinds: Iterable[str] | None = None) -> list[Job]:
    """The latest jobs (only of `kinds`, if given), newest first, with `started_by`
    (staff)."""
    access.require_staff(user)
    if kinds is None:
        return _with_starter(uow.session.execute(_RECENT, {"limit": limit}))
    return _with_starter(uow.session.execute(_RECENT_OF, {"limit": limit,
                                                         "kinds": list(kinds)}))


#: `recent`'s statements, built once (bound by :limit, and the :kinds asked for).
_RECENT = _WITH_STARTER.order_by(Job.id.desc()).limit(bindparam("limit", type_=Integer))
_RECENT_OF = (_WITH_STARTER.where(Job.kind.in_(bindparam("kinds", expanding=True)))
              .order_by(Job.id.desc()).limit(bindparam("limit", type_=Integer)))


class Lost(Exception):
    """This run's claim is gone (the job was taken over): what it was writing rolls back."""


def _claimable(now: Any) -> Any:
    return or_(Job.status == "queued", and_(
        Job.status == "running",
        func.coalesce(Job.heartbeat_at, Job.updated_at) < now - STALE))


def _claim(uow: UnitOfWork, job_id: int, token: str) -> Job | None:
    """Mark the job running for `token` if it is queued, or running but its worker's
    heartbeat is stale (the worker died); None when another worker has it or it has ended."""
    now = clock.now()
    claimed = uow.session.execute(
        update(Job).where(Job.id == job_id, _claimable(now))
        .values(status="running", attempts=Job.attempts + 1, started_at=now, updated_at=now,
                heartbeat_at=now, worker_token=token, done=0)
        .execution_options(synchronize_session=False))
    if claimed.rowcount != 1:
        return None
    return uow.session.get(Job, job_id, populate_existing=True)


def _mine(uow: UnitOfWork, job_id: int, token: str, **values: Any) -> None:
    """Write `values` on the job (and a heartbeat) if `token` still holds it; else `Lost`."""
    now = clock.now()
    done = uow.session.execute(
        update(Job).where(Job.id == job_id, Job.worker_token == token,
                          Job.status == "running")
        .values(**{"heartbeat_at": now, **values})
        .execution_options(synchronize_session=False))
    if done.rowcount != 1:
        raise Lost(job_id)


def _progress(uow: UnitOfWork, job_id: int, token: str, done: int, total: int) -> None:
    _mine(uow, job_id, token, done=done, total=total, updated_at=clock.now())


def report_aside(database: Database, job_id: int, token: str, total: int
                 ) -> Callable[[int], None]:
    """`report(done)` for a work inside one long transaction: each call writes the job's
    progress in a unit of work of its own, if `token` still holds the job (a lost claim is
    the step's to find when it ends). Nothing on SQLite: the step's transaction holds its
    only writer."""
    if database.engine.dialect.name == "sqlite":
        return lambda _done: None

    def report(done: int) -> None:
        try:
            with UnitOfWork(database) as uow:
                _progress(uow, job_id, token, done, max(total, done))
        except Lost:
            pass
        except Exception:  # a busy database: the next report or the step's end says it
            log.warning("job %s: progress not written", job_id, exc_info=True)

    return report


def heartbeat(database: Database, job_id: int, token: str) -> bool:
    """Say the run of `token` is alive; False when the job is no longer its own."""
    try:
        with UnitOfWork(database) as uow:
            _mine(uow, job_id, token)
    except Lost:
        return False
    return True


class _Heartbeat(threading.Thread):
    """Beats every `HEARTBEAT` while a run works (its own connection); stops at `stop()`."""

    def __init__(self, database: Database, job_id: int, token: str):
        super().__init__(name=f"heartbeat-{job_id}", daemon=True)
        self.args_ = (database, job_id, token)
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(HEARTBEAT.total_seconds()):
            try:
                if not heartbeat(*self.args_):
                    return
            except Exception:  # a busy database: the next beat tries again
                log.warning("job %s: heartbeat not written", self.args_[1], exc_info=True)

    def stop(self) -> None:
        self.done.set()
        if self.is_alive():
            self.join()


def _end(database: Database, job_id: int, token: str, status: str, *,
         result: dict | None = None, error: ServiceError | None = None) -> bool:
    """End the job if this run still holds it (True); a stale run's end writes nothing."""
    try:
        with UnitOfWork(database) as uow:
            now = clock.now()
            values: dict[str, Any] = {
                "status": status, "active_key": None, "finished_at": now, "updated_at": now,
                "result": result, "worker_token": None}
            if error is not None:
                values["error_code"] = error.code
                values["error_params"] = json.loads(json.dumps(error.params, default=str))
            _mine(uow, job_id, token, **values)
            job = uow.session.get(Job, job_id, populate_existing=True)
            audit.record(uow, job.created_by_id, f"job.{status}", job,
                         after={"kind": job.kind, "done": job.done, "total": job.total,
                                "error": job.error_code})
    except Lost:
        log.warning("job %s: taken over by another worker; this run's end is not written",
                    job_id)
        return False
    return True


def _release(database: Database, job_id: int, token: str) -> None:
    """Give the job back to the queue (the worker is stopping): its batches stay done."""
    try:
        with UnitOfWork(database) as uow:
            _mine(uow, job_id, token, status="queued", worker_token=None, heartbeat_at=None)
    except Lost:
        pass


def _result(value: Any) -> dict[str, Any]:
    if hasattr(value, "job_result"):  # collections.run
        return value.job_result()
    if getattr(value, "__tablename__", None) == "assessment_rolls":
        return {"roll_id": value.id, "status": value.status}
    if getattr(value, "__tablename__", None) == "roll_imports":
        return {"import_id": value.id, "status": value.status}
    return {}


def run(database: Database, job_id: int, *, progress: Progress = None) -> Job | None:
    """Do the job's work, a batch per transaction (see the module's docstring); None when it
    is not this worker's to run (another has it, or it has ended)."""
    token = secrets.token_hex(16)
    with UnitOfWork(database) as uow:
        job = _claim(uow, int(job_id), token)
        if job is None:
            return None
        staff = uow.session.get(User, job.created_by_id) if job.created_by_id else None
        kind, params = job.kind, dict(job.params)
    beat = _Heartbeat(database, job_id, token)
    beat.start()
    try:
        _work(database, job_id, token, kind, staff, params, progress)
    except Lost:
        log.warning("job %s: taken over by another worker; this run stops", job_id)
    finally:
        beat.stop()
    with UnitOfWork(database) as uow:
        return uow.session.get(Job, job_id)


def _work(database: Database, job_id: int, token: str, kind: str, staff: Any,
          params: dict[str, Any], progress: Progress) -> None:
    try:
        work = KINDS[kind](staff, params)
        with UnitOfWork(database) as uow:
            total = work.begin(uow)
            _progress(uow, job_id, token, getattr(work, "resumed", 0), total)
        if hasattr(work, "report"):
            work.report = report_aside(database, job_id, token, total)
        done = getattr(work, "resumed", 0)  # what a stopped run of it committed
        if progress is not None:
            progress(done, total)
        while True:
            with UnitOfWork(database) as uow:
                n = work.step(uow)
                if n:
                    done += n
                    _progress(uow, job_id, token, done, max(total, done))
            if not n:
                break
            if progress is not None:
                progress(done, max(total, done))
            if STOPPING.is_set():
                _release(database, job_id, token)
                log.info("job %s: stopped after a batch (%s done); queued again", job_id,
                         done)
                return
        with UnitOfWork(database) as uow:
            value = work.finish(uow)
            _mine(uow, job_id, token)
        _end(database, job_id, token, "succeeded", result=_result(value))
    except Lost:
        raise
    except ServiceError as exc:
        _end(database, job_id, token, "failed", error=exc)
    except Exception:
        log.exception("job %s (%s) failed", job_id, kind)
        _end(database, job_id, token, "failed", error=ServiceError(UNEXPECTED))


def run_here(uow: UnitOfWork, user: Any, kind: str, params: dict[str, Any], *,
             progress: Progress = None) -> tuple[Job, Any]:
    """Do a job's work inside this unit of work (one transaction, all or nothing: the demo
    loads so), recorded as a job like one a worker ran; (the job, the work's result)."""
    job = submit(uow, user, kind, params)
    work = KINDS[kind](user, params)
    job.status, job.attempts, job.started_at = "running", job.attempts + 1, clock.now()
    total = work.begin(uow)
    done = getattr(work, "resumed", 0)
    while n := work.step(uow):
        done += n
        if progress is not None:
            progress(done, max(total, done))
    value = work.finish(uow)
    job.status, job.active_key, job.done, job.total = "succeeded", None, done, max(total, done)
    job.updated_at = job.finished_at = clock.now()
    job.result = _result(value)
    audit.record(uow, user, "job.succeeded", job,
                 after={"kind": kind, "done": job.done, "total": job.total, "error": None})
    return job, value


def recover(database: Database) -> list[int]:
    """The jobs to enqueue again: queued ones (their message may be lost) and running ones
    whose worker has not beaten for `STALE` (it died). Running one twice is harmless: only
    one worker claims it."""
    with UnitOfWork(database) as uow:
        return list(uow.session.scalars(select(Job.id).where(_claimable(clock.now()))
                                        .order_by(Job.id)))


class Figures:
    """A job's progress as a page or a progress bar shows it: the share done, the rate
    (items per second) and the time left (seconds), from its start to its last batch."""

    def __init__(self, job: Job):
        self.done, self.total = job.done, job.total
        elapsed = ((job.updated_at - job.started_at).total_seconds()
                   if job.started_at and job.updated_at else 0.0)
        self.elapsed = elapsed
        self.rate = job.done / elapsed if elapsed > 0 and job.done else None
        self.percent = (100 * job.done // job.total) if job.total else (
            100 if job.status == "succeeded" else 0)
        left = (job.total or 0) - job.done
        self.seconds_left = (left / self.rate) if self.rate and job.active else None
