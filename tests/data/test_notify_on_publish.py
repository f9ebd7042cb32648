"""Publishing a roll sends its notices (J8): the publication, in the unit of work that marks
the roll published, submits the "roll.notify" job of that roll; the job runs and records the
deliveries; publishing again starts no second one; a publication that fails starts none.
Every test runs on SQLite and on PostgreSQL (the `database` fixture)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from portal import clock, storage
from portal.jobs import runner
from portal.models import Assessment, AssessmentRoll, Job, Notice, NoticeDelivery, User
from portal.roll import budgets, notices
from portal.roll.budgets import LineInput
from tests.support.clock import at
from tests.support.world import build

DAY = date(2026, 12, 15)
BASE = "http://127.0.0.1:5000"


@pytest.fixture
def world(database, tmp_path, monkeypatch):
    config = {"MAIL_FROM": "Portal <portal@example.pr>", "OUTBOX_DIR": str(tmp_path / "outbox"),
              "PORTAL_BASE_URL": BASE, "MAIL_SERVER": None}
    monkeypatch.setattr(notices, "mail_settings", lambda: config)  # the worker's
    storage.use(storage.FolderStore(tmp_path / "files"))
    w = build(database)
    yield w
    storage.use(None)


def _amendment(world) -> int:
    """A second budget version adopted and its roll computed by the job: the roll's id."""
    with clock.fixed(at(DAY)), world.uow() as uow:
        staff = uow.session.get(User, world.staff.id)
        fy = uow.session.get(budgets.FiscalYear, world.fy_id)
        v = budgets.draft(uow, staff, fy, [
            LineInput("project", "Proyecto", "Project", Decimal("30000.00"),
                      Decimal("21000.00"))], reference="Res. 2", effective_on=DAY)
        budgets.adopt(uow, staff, v.id, DAY)
        version_id = v.id
    with clock.fixed(at(DAY)):
        return runner.run(world.database, _submit(world, "roll.compute",
                                                version_id=version_id)).result["roll_id"]


def _submit(world, kind: str, **params) -> int:
    with world.uow() as uow:
        return runner.submit(uow, uow.session.get(User, world.staff.id), kind, params).id


def _notify_jobs(world, roll_id: int) -> list[Job]:
    with world.uow() as uow:
        jobs_ = list(uow.session.scalars(select(Job).where(Job.kind == "roll.notify")
                                         .order_by(Job.id)))
        uow.session.expunge_all()
    return [j for j in jobs_ if j.params == {"roll_id": roll_id}]


def _deliveries(world, roll_id: int) -> int:
    with world.uow() as uow:
        return uow.session.scalar(select(func.count()).select_from(NoticeDelivery).join(
            Notice, Notice.id == NoticeDelivery.notice_id).join(
            Assessment, Assessment.id == Notice.assessment_id).where(
            Assessment.roll_id == roll_id))


def test_publishing_starts_the_notices_job_which_sends_them(world):
    roll_id = _amendment(world)
    assert _notify_jobs(world, roll_id) == []
    with clock.fixed(at(DAY)):
        published = runner.run(world.database, _submit(world, "roll.publish", roll_id=roll_id))
    assert published.status == "succeeded"
    [notify] = _notify_jobs(world, roll_id)
    assert (notify.status, notify.created_by_id) == ("queued", world.staff.id)
    # The worker's recovery pass finds it (the queue carries only ids).
    with clock.fixed(at(DAY)):
        assert notify.id in runner.recover(world.database)
        done = runner.run(world.database, notify.id)
    assert done.status == "succeeded" and done.result["roll_id"] == roll_id
    assert done.result["printed"] > 0 and _deliveries(world, roll_id) >= done.result["printed"]
    with world.uow() as uow:  # the pages find it
        staff = uow.session.get(User, world.staff.id)
        shown = notices.notify_jobs(uow, staff, [roll_id, world.roll_id])
        assert shown[roll_id].id == notify.id


def test_publishing_again_starts_no_second_notices_job(world):
    roll_id = _amendment(world)
    with clock.fixed(at(DAY)):
        runner.run(world.database, _submit(world, "roll.publish", roll_id=roll_id))
        again = runner.run(world.database, _submit(world, "roll.publish", roll_id=roll_id))
    assert again.status == "succeeded"
    [notify] = _notify_jobs(world, roll_id)
    with clock.fixed(at(DAY)):
        runner.run(world.database, notify.id)
        runner.run(world.database, _submit(world, "roll.publish", roll_id=roll_id))
    assert [j.id for j in _notify_jobs(world, roll_id)] == [notify.id]  # done: still the one
    # A publication's finish run again finds the job (queued, running or done): nothing new.
    with clock.fixed(at(DAY)), world.uow() as uow:
        staff = uow.session.get(User, world.staff.id)
        r = uow.session.get(AssessmentRoll, roll_id)
        assert notices.start_after_publication(uow, staff, r).id == notify.id
    assert len(_notify_jobs(world, roll_id)) == 1


def test_the_one_transaction_publication_starts_it_too(world):
    """`roll.publish` (a command, the demo, the tests' factory) runs the same work."""
    [notify] = _notify_jobs(world, world.roll_id)  # the factory's publication
    assert notify.status == "queued"


def test_a_publication_that_fails_starts_nothing(world, monkeypatch):
    roll_id = _amendment(world)
    real = notices.start_after_publication

    def then_fails(uow, staff, r):  # noqa: ANN001, ANN202 - the job is written, then
        real(uow, staff, r)  # the publication's last step fails: all of it rolls back
        raise RuntimeError("disk full")

    monkeypatch.setattr(notices, "start_after_publication", then_fails)
    with clock.fixed(at(DAY)):
        failed = runner.run(world.database, _submit(world, "roll.publish", roll_id=roll_id))
    assert (failed.status, failed.error_code) == ("failed", runner.UNEXPECTED)
    assert _notify_jobs(world, roll_id) == []
    with world.uow() as uow:
        assert uow.session.get(AssessmentRoll, roll_id).status != "published"
    monkeypatch.setattr(notices, "start_after_publication", real)
    with clock.fixed(at(DAY)):  # run again, it publishes and starts the job once
        assert runner.run(world.database, failed.id) is None  # ended
        runner.run(world.database, _submit(world, "roll.publish", roll_id=roll_id))
    assert len(_notify_jobs(world, roll_id)) == 1


def test_an_incomplete_roll_is_not_published_and_starts_nothing(world, monkeypatch):
    roll_id = _amendment(world)
    with world.uow() as uow:  # a computation stopped midway: fewer lines than its counts
        uow.session.get(AssessmentRoll, roll_id).exempt_count += 1
    with clock.fixed(at(DAY)):
        failed = runner.run(world.database, _submit(world, "roll.publish", roll_id=roll_id))
    assert (failed.status, failed.error_code) == ("failed", "roll_incomplete")
    assert _notify_jobs(world, roll_id) == []
