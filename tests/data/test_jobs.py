"""Background jobs: the roll computed and published as jobs, a batch per transaction with its
progress; the same input twice is one job; a failure is recorded by its message id; a job
killed midway leaves only whole batches and runs again from there. The worker runs
in-process (Huey's immediate mode, or `jobs.run` itself): nothing here waits on time."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from sqlalchemy import func, select, update

from portal import clock
from portal.accounts import bulk
from portal.accounts.errors import Conflict, Forbidden, NotFound
from portal.jobs import queue, runner
from portal.models import Assessment, AssessmentRoll, Installment, Job, Parcel, RollLine, User
from portal.roll import budgets, roll
from portal.roll.budgets import LineInput
from tests.support.clock import at
from tests.support.world import build

EFFECTIVE = date(2026, 12, 15)
EXTRA = 25


@pytest.fixture
def world(database, monkeypatch):
    monkeypatch.setattr(roll, "CHUNK", 10)  # a few batches of a small roll
    w = build(database)
    with w.uow() as uow:
        bulk.insert_rows(uow, Parcel, [
            {"catastro": f"042-{k:03d}-000-00", "address": f"Calle {k}", "municipality":
             "San Juan", "owner_kind": "private", "transferred": False,
             "tax_incentive_exempt": False, "benefit_units": Decimal(3 + k % 5)}
            for k in range(EXTRA)])
    return w


def _version(world, adopt: bool = True) -> int:
    with clock.fixed(at(EFFECTIVE)), world.uow() as uow:
        staff = uow.session.get(User, world.staff.id)
        fy = uow.session.get(budgets.FiscalYear, world.fy_id)
        v = budgets.draft(uow, staff, fy, [
            LineInput("project", "Proyecto", "Project", Decimal("30000.00"),
                      Decimal("21000.00"))], reference="Res. 2", effective_on=EFFECTIVE)
        if adopt:
            budgets.adopt(uow, staff, v.id, EFFECTIVE)
        return v.id


def _submit(world, kind: str, **params) -> int:
    with world.uow() as uow:
        return runner.submit(uow, uow.session.get(User, world.staff.id), kind, params).id


def _count(world, model, *where) -> int:
    with world.uow() as uow:
        return uow.session.scalar(select(func.count()).select_from(model).where(*where))


def test_compute_and_publish_as_jobs_with_progress(world):
    version_id = _version(world)
    seen: list[tuple[int, int]] = []
    with clock.fixed(at(EFFECTIVE)):
        job = runner.run(world.database, _submit(world, "roll.compute", version_id=version_id),
                       progress=lambda d, t: seen.append((d, t)))
    parcels = 5 + EXTRA
    assert (job.status, job.done, job.total, job.error_code) == ("succeeded", parcels, parcels,
                                                                 None)
    assert seen == [(0, parcels), (10, parcels), (20, parcels), (30, parcels)]
    assert job.active_key is None and job.finished_at is not None and job.attempts == 1
    roll_id = job.result["roll_id"]
    assert _count(world, RollLine, RollLine.roll_id == roll_id) == parcels
    with clock.fixed(at(EFFECTIVE)):
        job = runner.run(world.database, _submit(world, "roll.publish", roll_id=roll_id))
    assert (job.status, job.done, job.total) == ("succeeded", parcels, parcels)
    assessments, installments = _count(world, Assessment), _count(world, Installment)
    assert assessments == 4 + 4 + EXTRA  # v1's four, their amendments, the new parcels
    with world.uow() as uow:
        assert uow.session.get(AssessmentRoll, roll_id).status == "published"
        shown = runner.Figures(uow.session.get(Job, job.id))
        assert shown.percent == 100 and shown.seconds_left is None
    # Publishing again (a new job for the same input: the first has ended) changes nothing.
    with clock.fixed(at(EFFECTIVE)):
        again = runner.run(world.database, _submit(world, "roll.publish", roll_id=roll_id))
    assert again.status == "succeeded" and again.id != job.id
    assert (_count(world, Assessment), _count(world, Installment)) == (assessments,
                                                                        installments)


def test_the_same_input_while_queued_is_one_job_and_only_staff_start_one(world):
    version_id = _version(world)
    first = _submit(world, "roll.compute", version_id=version_id)
    assert _submit(world, "roll.compute", version_id=version_id) == first
    with pytest.raises(NotFound):
        _submit(world, "roll.compute", version_id=version_id + 1000)
    with world.uow() as uow, pytest.raises(Forbidden):
        runner.submit(uow, uow.session.get(User, world.alice.id), "roll.compute",
                    {"version_id": version_id})
    with clock.fixed(at(EFFECTIVE)):
        assert runner.run(world.database, first).status == "succeeded"
        assert runner.run(world.database, first) is None  # ended: nobody runs it again


def test_two_starts_at_the_same_instant_are_one_job(world, monkeypatch):
    """The second start does not see the first's row (it commits in between its look-up
    and its insert): the unique key refuses the insert, and it gets the first's job."""
    version_id = _version(world)
    first = _submit(world, "roll.compute", version_id=version_id)
    real = runner.select
    calls = {"n": 0}

    def blind_once(*args):  # noqa: ANN002, ANN202 - the look-up misses the first time
        calls["n"] += 1
        stmt = real(*args)
        return stmt.where(Job.id < 0) if calls["n"] == 1 and args == (Job,) else stmt

    monkeypatch.setattr(runner, "select", blind_once)
    assert _submit(world, "roll.compute", version_id=version_id) == first
    assert _count(world, Job, Job.kind == "roll.compute") == 1


def test_input_the_job_would_refuse_is_refused_and_a_failure_is_recorded(world):
    version_id = _version(world)
    with pytest.raises(Conflict) as err:
        _submit(world, "roll.compute", version_id=_version(world, adopt=False))
    assert err.value.code == "budget_not_adopted"
    job_id = _submit(world, "roll.compute", version_id=version_id)
    with clock.fixed(at(EFFECTIVE)), world.uow() as uow:  # published before the job runs
        staff = uow.session.get(User, world.staff.id)
        roll.publish(uow, staff, roll.compute(uow, staff, version_id).id)
    with clock.fixed(at(EFFECTIVE)):
        job = runner.run(world.database, job_id)
    assert (job.status, job.error_code, job.active_key) == ("failed", "roll_published", None)


class Killed(BaseException):
    """The worker's process ending mid-batch (not an error the runner handles)."""


def _killed_at_insert(world, monkeypatch, job_id: int, nth: int) -> None:
    """Run the job until its `nth` bulk insert, where its process "dies"."""
    real, calls = bulk.insert_rows, {"n": 0}

    def dies(uow, model, rows, **kwargs):
        calls["n"] += 1
        if calls["n"] == nth:
            raise Killed()
        return real(uow, model, rows, **kwargs)

    monkeypatch.setattr(bulk, "insert_rows", dies)
    with clock.fixed(at(EFFECTIVE)), pytest.raises(Killed):
        runner.run(world.database, job_id)
    monkeypatch.setattr(bulk, "insert_rows", real)


def test_a_job_killed_midway_leaves_whole_batches_and_runs_again(world, monkeypatch):
    version_id = _version(world)
    with clock.fixed(at(EFFECTIVE)):
        roll_id = runner.run(world.database, _submit(world, "roll.compute",
                                                   version_id=version_id)).result["roll_id"]
    job_id = _submit(world, "roll.publish", roll_id=roll_id)
    # The 6th insert is the second batch's installments: its assessments are written.
    _killed_at_insert(world, monkeypatch, job_id, 6)
    with world.uow() as uow:
        job = uow.session.get(Job, job_id)
        assert (job.status, job.done) == ("running", 10)
        # The first batch's ten parcels and nothing of the second: v1's four, then of the
        # batch four amended, one exempt (E), five new.
        assert _count(world, Assessment) == 4 + 9
        assert _count(world, Installment) == 12 * (4 + 9)
    # Another worker does not take it while it may be alive; once stale it is recovered
    # (beside the notices' job the factory's publication queued).
    with world.uow() as uow:
        queued = list(uow.session.scalars(select(Job.id).where(Job.kind == "roll.notify")))
    with clock.fixed(at(EFFECTIVE)):
        assert runner.recover(world.database) == queued
        assert runner.run(world.database, job_id) is None
    later = at(EFFECTIVE) + runner.STALE + timedelta(seconds=1)
    with clock.fixed(later):
        assert runner.recover(world.database) == [*queued, job_id]
        job = runner.run(world.database, job_id)
    assert (job.status, job.done, job.attempts) == ("succeeded", 5 + EXTRA, 2)
    assert _count(world, Assessment) == 4 + 4 + EXTRA
    assert _count(world, Installment) == 12 * (4 + 4 + EXTRA)


def test_a_computation_stopped_midway_is_not_published(world, monkeypatch):
    version_id = _version(world)
    _killed_at_insert(world, monkeypatch, _submit(world, "roll.compute",
                                                  version_id=version_id), 2)
    with world.uow() as uow:
        r = uow.session.scalar(select(AssessmentRoll).where(
            AssessmentRoll.budget_version_id == version_id))
        roll_id = r.id
    assert _count(world, RollLine, RollLine.roll_id == roll_id) == 10
    with clock.fixed(at(EFFECTIVE)):
        job = runner.run(world.database, _submit(world, "roll.publish", roll_id=roll_id))
    assert (job.status, job.error_code) == ("failed", "roll_incomplete")
    assert _count(world, Assessment) == 4


def _changed_after_the_first_batch(monkeypatch, change) -> None:
    """The roll's computation with `change(uow)` committed with its first batch: parcels
    changed between `begin` and the steps, as an import committing meanwhile would."""
    real = roll.Computation.step

    def step(self, uow):
        first = self.after == 0
        n = real(self, uow)
        if first:
            change(uow)
        return n

    monkeypatch.setattr(roll.Computation, "step", step)


def _last_parcel(uow, *where) -> int:
    return uow.session.scalar(select(func.max(Parcel.id)).where(*where))


@pytest.mark.parametrize("values", [
    {"benefit_units": Decimal(3)},  # another parcel's units: found at the last batch
    {"benefit_units": Decimal("99.5")},  # units the apportionment never saw: at once
    {"owner_kind": "public"},  # exempt now (R-A2)
], ids=["units", "new units", "exempt"])
def test_a_computation_whose_parcels_changed_midway_is_refused(world, monkeypatch, values):
    version_id = _version(world)

    def change(uow):  # the last parcel (7 units, private) changed in the last batch
        uow.session.execute(update(Parcel).where(Parcel.id == _last_parcel(
            uow, Parcel.benefit_units == Decimal(7))).values(**values))

    _changed_after_the_first_batch(monkeypatch, change)
    with clock.fixed(at(EFFECTIVE)):
        job = runner.run(world.database, _submit(world, "roll.compute", version_id=version_id))
    assert (job.status, job.error_code) == ("failed", "roll_parcels_changed")
    with world.uow() as uow:
        r = uow.session.scalar(select(AssessmentRoll).where(
            AssessmentRoll.budget_version_id == version_id))
        roll_id, counted = r.id, r.assessed_count + r.exempt_count
    assert _count(world, RollLine, RollLine.roll_id == roll_id) < counted
    with clock.fixed(at(EFFECTIVE)):
        job = runner.run(world.database, _submit(world, "roll.publish", roll_id=roll_id))
    assert (job.status, job.error_code) == ("failed", "roll_incomplete")
    monkeypatch.undo()  # computing again apportions the parcels as they are now
    monkeypatch.setattr(roll, "CHUNK", 10)
    with clock.fixed(at(EFFECTIVE)):
        job = runner.run(world.database, _submit(world, "roll.compute", version_id=version_id))
    assert job.status == "succeeded"
    assert _count(world, RollLine, RollLine.roll_id == roll_id) == 5 + EXTRA
    with world.uow() as uow:
        assert uow.session.scalar(select(func.sum(RollLine.amount)).where(
            RollLine.roll_id == roll_id)) == Decimal("21000.00")


def test_a_parcel_added_midway_is_left_to_the_next_computation(world, monkeypatch):
    version_id = _version(world)

    def add(uow):
        bulk.insert_rows(uow, Parcel, [
            {"catastro": "042-999-000-00", "address": "Calle Nueva", "municipality": "San Juan",
             "owner_kind": "private", "transferred": False, "tax_incentive_exempt": False,
             "benefit_units": Decimal(4)}])

    _changed_after_the_first_batch(monkeypatch, add)
    with clock.fixed(at(EFFECTIVE)):
        job = runner.run(world.database, _submit(world, "roll.compute", version_id=version_id))
    assert job.status == "succeeded"
    roll_id = job.result["roll_id"]
    with world.uow() as uow:
        added = _last_parcel(uow)
        lines = dict(uow.session.execute(select(RollLine.parcel_id, RollLine.amount).where(
            RollLine.roll_id == roll_id)).all())
    assert len(lines) == 5 + EXTRA and added not in lines
    assert sum(lines.values()) == Decimal("21000.00")


def test_the_queue_runs_a_job_in_immediate_mode(world):
    version_id = _version(world)
    queue.use_immediate(world.database)
    try:
        job_id = _submit(world, "roll.compute", version_id=version_id)
        with clock.fixed(at(EFFECTIVE)):
            queue.enqueue(job_id)
    finally:
        queue.reset()
    with world.uow() as uow:
        assert uow.session.get(Job, job_id).status == "succeeded"


def test_a_job_a_request_cannot_enqueue_stays_queued_for_recovery(world, monkeypatch):
    """The queue down (Redis unreachable): the request goes on, the job stays queued, and
    the worker's recovery names it to enqueue again."""
    version_id = _version(world)
    job_id = _submit(world, "roll.compute", version_id=version_id)

    def down(_job_id: int) -> None:
        raise ConnectionError("queue down")

    monkeypatch.setattr(queue, "enqueue", down)
    queue.enqueue_or_leave(job_id)  # does not raise
    with world.uow() as uow:
        assert uow.session.get(Job, job_id).status == "queued"
    assert job_id in runner.recover(world.database)


def test_a_years_first_publication_killed_midway_goes_on_after_its_last_parcel(world,
                                                                               monkeypatch):
    """No other roll of the year: nothing to look up; it resumes after its own last
    parcel, and its progress counts what the stopped run committed."""
    day = date(2025, 6, 1)
    with clock.fixed(at(day)), world.uow() as uow:
        staff = uow.session.get(User, world.staff.id)
        fy = budgets.ensure_fiscal_year(uow, date(2025, 7, 1))
        v = budgets.draft(uow, staff, fy, [LineInput("project", "Proyecto", "Project",
                                                     Decimal("9000.00"), Decimal("9000.00"))],
                          reference="Res. 2025")
        budgets.adopt(uow, staff, v.id, date(2025, 5, 20))
        version_id, fy_id = v.id, fy.id
    with clock.fixed(at(day)):
        roll_id = runner.run(world.database, _submit(world, "roll.compute",
                                                   version_id=version_id)).result["roll_id"]
    job_id = _submit(world, "roll.publish", roll_id=roll_id, notice_date="2025-06-10")
    _killed_at_insert(world, monkeypatch, job_id, 6)  # in the second batch
    year = (Assessment.fiscal_year_id == fy_id,)
    assert _count(world, Assessment, *year) == 9  # the first batch: ten parcels, E exempt
    with clock.fixed(at(EFFECTIVE) + runner.STALE + timedelta(seconds=1)):  # (the kill's day)
        seen = []
        job = runner.run(world.database, job_id, progress=lambda d, t: seen.append(d))
    assert seen[0] == 10 and job.done == job.total == 5 + EXTRA
    assert _count(world, Assessment, *year) == 4 + EXTRA
    with world.uow() as uow:
        amounts = uow.session.scalars(select(Assessment.annual_amount).where(*year)).all()
    assert sum(amounts) == Decimal("9000.00")
