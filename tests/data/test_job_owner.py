"""Jobs that know their owner (portal.jobs.runner): a claim carries a worker token and a
heartbeat; a dead worker's job is taken over within 30 s; a worker paused past the takeover
writes nothing (neither its batch's progress nor a failure); `portal worker` ends the batch
at hand on SIGTERM, queues the job again and exits."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select

from portal import clock
from portal.accounts import audit
from portal.accounts.errors import ServiceError
from portal.db import Database, UnitOfWork
from portal.jobs import queue, runner
from portal.models import AuditRecord, Job
from tests.support import schema

ROOT = Path(__file__).resolve().parents[2]


class Counting:
    """A job of `n` one-item batches, each an audit row naming its run; `during(k)` is
    called inside batch k (the test's hook)."""

    def __init__(self, name: str, n: int = 3, during=None):  # noqa: ANN001
        self.name, self.n, self.k, self.during = name, n, 0, during

    def begin(self, uow) -> int:  # noqa: ANN001
        return self.n

    def step(self, uow) -> int:  # noqa: ANN001
        if self.k == self.n:
            return 0
        self.k += 1
        if self.during is not None:
            self.during(self.k)
        audit.record(uow, None, "test.batch", object_type="jobs", object_id=0,
                     after={"run": self.name, "k": self.k})
        return 1

    def finish(self, uow):  # noqa: ANN001, ANN201
        return None


def _job(database: Database) -> int:
    with UnitOfWork(database) as uow:
        job = Job(kind="test.count", params={}, input_checksum="x" * 64, active_key="x" * 64,
                  status="queued", done=0, attempts=0)
        uow.session.add(job)
        uow.session.flush()
        return job.id


def _batches(database: Database, name: str) -> int:
    with UnitOfWork(database) as uow:
        rows = uow.session.scalars(select(AuditRecord.after).where(
            AuditRecord.action == "test.batch"))
        return sum(1 for a in rows if a["run"] == name)


def _get(database: Database, job_id: int) -> Job:
    with UnitOfWork(database) as uow:
        job = uow.session.get(Job, job_id)
        uow.session.expunge(job)
        return job


def test_a_dead_workers_job_is_taken_over_within_30_seconds(database, monkeypatch):
    monkeypatch.setitem(runner.KINDS, "test.count", lambda user, p: Counting("second"))
    assert runner.STALE + queue.RECOVER_EVERY <= timedelta(seconds=30)
    job_id = _job(database)
    died = clock.now()
    with UnitOfWork(database) as uow:
        assert runner._claim(uow, job_id, "dead-worker") is not None  # then it is killed
    with clock.fixed(died + runner.STALE - timedelta(seconds=1)):  # may be alive: left alone
        assert runner.recover(database) == []
        assert runner.run(database, job_id) is None
    with clock.fixed(died + runner.STALE + timedelta(seconds=1)):
        assert runner.recover(database) == [job_id]
        job = runner.run(database, job_id)
    assert (job.status, job.done, job.attempts, job.worker_token) == ("succeeded", 3, 2, None)


def test_a_live_heartbeat_keeps_the_job(database):
    job_id = _job(database)
    start = clock.now()
    with UnitOfWork(database) as uow:
        runner._claim(uow, job_id, "alive")
    with clock.fixed(start + runner.STALE):  # it beats, so it is not stale later on
        assert runner.heartbeat(database, job_id, "alive") is True
    with clock.fixed(start + runner.STALE + timedelta(seconds=5)):
        assert runner.recover(database) == []
    assert runner.heartbeat(database, job_id, "someone-else") is False


def test_a_paused_worker_writes_nothing_after_the_takeover(database, monkeypatch):
    """Worker A is paused inside its second batch; B takes the job over and finishes it;
    A resumes: its batch rolls back and it cannot mark the job failed."""
    job_id = _job(database)
    paused = clock.now()

    def pause(k: int) -> None:
        if k == 2:  # A stops here; B runs once A's heartbeat is stale
            monkeypatch.setitem(runner.KINDS, "test.count", lambda u, p: Counting("B"))
            with clock.fixed(paused + runner.STALE + timedelta(seconds=1)):
                assert runner.run(database, job_id).status == "succeeded"

    monkeypatch.setitem(runner.KINDS, "test.count", lambda u, p: Counting("A", during=pause))
    job = runner.run(database, job_id)  # A, resumed after B: stops on its lost claim
    assert (job.status, job.error_code, job.done) == ("succeeded", None, 3)
    assert _batches(database, "A") == 1  # its first batch; the second rolled back
    assert _batches(database, "B") == 3
    # A's last words, whatever they are, are refused: the record stays B's
    assert runner._end(database, job_id, "A-token", "failed",
                       error=ServiceError(runner.UNEXPECTED)) is False
    with UnitOfWork(database) as uow, pytest.raises(runner.Lost):
        runner._progress(uow, job_id, "A-token", 1, 3)
    job = _get(database, job_id)
    assert (job.status, job.error_code) == ("succeeded", None)
    with UnitOfWork(database) as uow:
        assert uow.session.scalar(select(func.count()).select_from(AuditRecord).where(
            AuditRecord.action == "job.failed")) == 0


def test_stopping_ends_the_run_after_the_batch_at_hand(database, monkeypatch):
    job_id = _job(database)
    monkeypatch.setitem(runner.KINDS, "test.count",
                        lambda u, p: Counting("A", n=5, during=lambda k: k == 2 and
                                              runner.STOPPING.set()))
    try:
        job = runner.run(database, job_id)
    finally:
        runner.STOPPING.clear()
    assert (job.status, job.done, job.worker_token) == ("queued", 2, None)
    assert _batches(database, "A") == 2


WORKER = """
import pathlib, sys, time
from portal.jobs import queue, runner
flag = pathlib.Path(sys.argv[1])
class Slow:
    k = 0
    def begin(self, uow): return 3
    def step(self, uow):
        if self.k == 3: return 0
        self.k += 1
        (flag.parent / f"batch-{self.k}").touch()
        while not flag.exists(): time.sleep(0.05)
        return 1
    def finish(self, uow): return None
runner.register("test.count", lambda u, p: Slow(), lambda *a: None)
queue.worker()
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.skipif("faketime" in os.environ.get("LD_PRELOAD", ""),
                    reason="under libfaketime a timed wait never ends (.ci/run), and the "
                           "worker's graceful stop joins its heartbeat thread with one")
def test_sigterm_finishes_the_batch_at_hand_then_exits(tmp_path, schema_template):
    database = schema.sqlite_database(schema_template, tmp_path)
    job_id = _job(database)
    flag = tmp_path / "go"
    (tmp_path / "instance").mkdir()
    env = {**os.environ, "PORTAL_INSTANCE": str(tmp_path / "instance"),
           "DATABASE_URL": database.url, "OUTBOX_DIR": str(tmp_path / "outbox")}
    env.pop("REDIS_URL", None)
    proc = subprocess.Popen([sys.executable, "-c", WORKER, str(flag)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120
        while not (tmp_path / "batch-1").exists():  # the worker is inside its first batch
            assert proc.poll() is None and time.monotonic() < deadline, proc.stdout.read()
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        time.sleep(0.5)  # the signal is handled while the batch waits
        flag.touch()  # the batch at hand ends
        out, _ = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()  # reaped, its pipe closed
    assert proc.returncode == 0, out.decode()
    assert not (tmp_path / "batch-2").exists(), "it started another batch after SIGTERM"
    job = _get(database, job_id)
    assert (job.status, job.done, job.worker_token) == ("queued", 1, None)
    database.dispose()
