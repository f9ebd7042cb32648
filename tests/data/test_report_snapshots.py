"""The reports read from snapshots (portal/reports/snapshots.py): a snapshot holds the
report's own figures and rows for its day (the same as computing the report), a page of
its rows by key, the newest replaces the older, the day's task submits each one once and
the job computes it; staff only."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from portal import clock
from portal.accounts.errors import Forbidden
from portal.collections import demands
from portal.jobs import runner
from portal.models import Job, Notice, ReportSnapshot, ReportSnapshotRow, User
from portal.reports import reports, snapshots
from tests.support.clock import TODAY, at
from tests.support.world import pay


def _busy(world) -> None:  # noqa: ANN001
    """Payments on two days, the demands run and one mailed (the court list has a row)."""
    pay(world, "A", "100.00", date(2026, 11, 2), hh=23)
    pay(world, "B", "250.00", date(2026, 11, 2), hh=9)
    pay(world, "C", "500.00", date(2026, 11, 3))
    with clock.fixed(at(date(2026, 11, 3))), world.uow() as w:
        demands.run(w, w.session.get(User, world.staff.id))
    with world.uow() as w:
        staff = w.session.get(User, world.staff.id)
        a = w.session.scalar(select(Notice).where(Notice.parcel_id == world.parcel["A"],
                                                  Notice.kind == "demand"))
        demands.record_mailing(w, staff, a.id, date(2026, 11, 4), "9400 1000 0000 0000 0001")


def _live(w, staff, name: str, key: str):  # noqa: ANN001, ANN202
    p = reports.Params(today=TODAY, fiscal_year_start=date.fromisoformat(key[4:])
                       if key else None)
    return reports.figures(w, staff, name, p), list(reports.rows(w, staff, name, p))


@pytest.mark.parametrize("name,key", [(n, "") for n in snapshots.SNAPSHOT]
                         + [("registro", "ano=2026-07-01"), ("registro", "ano=2027-07-01")])
def test_a_snapshot_is_the_report_of_its_day(world, name, key):
    _busy(world)
    with clock.fixed(at(TODAY, 6)), world.uow() as w:
        staff = w.session.get(User, world.staff.id)
        snapshots.compute(w, staff, name, key)
    with clock.fixed(at(TODAY, 9)), world.uow() as w:
        staff = w.session.get(User, world.staff.id)
        figures, rows = _live(w, staff, name, key)
        snap = snapshots.latest(w, staff, name, key)
        assert snap.day == TODAY and snap.row_count == len(rows)
        assert snap.figures == figures  # labels, values (Decimal, int), money, codes
        assert list(snapshots.rows(w, snap)) == rows  # dates, amounts, codes, in order
        assert snapshots.page(w, snap, 1) == (rows[:reports.PAGE], False)
    if name != "registro" or key != "ano=2027-07-01":
        assert rows, "the world should give this report rows"


@pytest.mark.parametrize("start,end,days", [
    (date(2026, 11, 2), date(2026, 11, 2), 1), (date(2026, 11, 3), None, 1),
    (date(2026, 11, 2), date(2026, 11, 3), 2), (date(2026, 11, 4), date(2026, 11, 30), 0),
    (None, date(2026, 11, 2), None)])
def test_a_range_of_days_of_payments_reads_the_days_of_the_snapshot(world, start, end,
                                                                    days):
    """Payments for a range of days: the rows of those days from the snapshot of every day
    and the figures added up from them equal the report computed on the spot for the
    range (a payment at 23:00 on the 2nd, Puerto Rico time, is the 2nd's)."""
    _busy(world)
    assert snapshots.key_of("pagos", reports.Params(TODAY, start, end)) == ""
    with clock.fixed(at(TODAY, 6)), world.uow() as w:
        snapshots.compute(w, w.session.get(User, world.staff.id), "pagos", "")
    with clock.fixed(at(TODAY, 9)), world.uow() as w:
        staff = w.session.get(User, world.staff.id)
        p = reports.Params(today=TODAY, start=start, end=end)
        rows = list(reports.rows(w, staff, "pagos", p))
        snap = snapshots.latest(w, staff, "pagos", "")
        found = snapshots.in_range(w, snap, start, end)
        assert found == rows
        assert reports.REPORTS["pagos"].figures_of(found) == reports.figures(w, staff, "pagos",
                                                                             p)
        assert len(found) == days if days is not None else found  # a row a day and method
    assert snapshots.key_of("demandas", reports.Params(TODAY, start, end)) is None


def test_pages_by_key_and_the_newest_replaces_the_older(world, monkeypatch):
    monkeypatch.setattr(reports, "PAGE", 2)
    with clock.fixed(at(TODAY, 6)), world.uow() as w:
        staff = w.session.get(User, world.staff.id)
        snapshots.compute(w, staff, "registro", "")
        first = snapshots.compute(w, staff, "registro", "")  # again: the older one goes
    with world.uow() as w:
        staff = w.session.get(User, world.staff.id)
        snap = snapshots.latest(w, staff, "registro", "")
        assert snap.id == first
        assert w.session.scalar(select(func.count(ReportSnapshot.id))) == 1
        assert w.session.scalar(select(func.count()).select_from(ReportSnapshotRow)) == 4
        every = list(snapshots.rows(w, snap))
        assert snapshots.page(w, snap, 1) == (every[:2], True)
        assert snapshots.page(w, snap, 2) == (every[2:], False)
        assert snapshots.page(w, snap, 3) == ([], False)


def test_the_days_task_submits_each_once_and_the_job_computes_it(world, database):
    with clock.fixed(at(TODAY, 0, 7)):
        done = snapshots.schedule(database, TODAY)
        with world.uow() as w:
            expected = len(snapshots.keys(w))
        assert done == {"submitted": expected} and expected == len(snapshots.SNAPSHOT) + 1
        assert snapshots.schedule(database, TODAY) == {"submitted": 0}  # queued: that job
        with world.uow() as w:
            staff = w.session.get(User, world.staff.id)
            assert snapshots.latest_and_pending(w, staff, "morosidad", "") == (None, True)
        with world.uow() as w:
            ids = list(w.session.scalars(select(Job.id).where(Job.kind == snapshots.KIND)))
        for job_id in ids:
            job = runner.run(database, job_id)
            assert job.status == "succeeded" and job.result["snapshot_id"], job.error_code
        assert snapshots.schedule(database, TODAY) == {"submitted": 0}  # computed today
    with world.uow() as w:
        staff = w.session.get(User, world.staff.id)
        morosidad = snapshots.latest(w, staff, "morosidad", "")
        assert morosidad.day == TODAY and not snapshots.pending(w, "morosidad", "")
        snapshots.request_fresh(w, staff, "morosidad", "")  # staff ask again: queued
        assert snapshots.latest_and_pending(w, staff, "morosidad", "")[1] is True
        total = {f.code: f.value for f in morosidad.figures}["total"]
        assert isinstance(total, Decimal) and total > 0
    # The next day: each again, but the one staff asked for, still queued (that job).
    assert snapshots.schedule(database, date(2026, 12, 1)) == {"submitted": expected - 1}


def test_staff_only(world):
    with world.uow() as w:
        alice = w.session.get(User, world.alice.id)
        with pytest.raises(Forbidden):
            snapshots.latest(w, alice, "pagos", "")
        with pytest.raises(Forbidden):
            snapshots.request_fresh(w, alice, "pagos", "")
        with pytest.raises(Forbidden):
            snapshots.compute(w, alice, "pagos", "")


def test_values_keep_their_types():
    for v in (Decimal("12.30"), date(2026, 11, 30), 3, "card", None, True):
        back = snapshots.decode(snapshots.encode(v))
        assert back == v and type(back) is type(v)
    assert snapshots.key_of("pagos", reports.Params(today=TODAY)) == ""
    assert snapshots.key_of("pagos", reports.Params(today=TODAY, start=TODAY)) == ""  # its days
    assert snapshots.key_of("demandas", reports.Params(today=TODAY, start=TODAY)) is None
    assert snapshots.key_of("demandas", reports.Params(today=TODAY)) is None
    assert snapshots.key_of("registro", reports.Params(
        today=TODAY, fiscal_year_start=date(2026, 7, 1))) == "ano=2026-07-01"


def test_the_days_snapshots_are_the_systems_and_staffs_are_theirs(world, database,
                                                                   monkeypatch):
    """The day's task's jobs (no one started them) compute as the system, as every job no
    one started does (`runner.submit_scheduled`): no stand-in staff member is asked to read
    anything, and the audit log names the system (no actor) for each job queued and done;
    a snapshot staff ask for is computed as that staff member, and named so. The court
    list (the collections' list) is read either way and is the report staff read."""
    from portal.accounts import access
    from portal.models import AuditRecord
    _busy(world)
    asked: list = []
    real = access.is_staff
    monkeypatch.setattr(access, "is_staff", lambda user: asked.append(user) or real(user))
    with clock.fixed(at(TODAY, 0, 7)):
        snapshots.schedule(database, TODAY)
        with world.uow() as w:
            ids = list(w.session.scalars(select(Job.id).where(Job.kind == snapshots.KIND)))
        for job_id in ids:
            assert runner.run(database, job_id).status == "succeeded"
    assert asked == []  # the system reads as itself, not as a made-up staff member
    with world.uow() as w:
        staff = w.session.get(User, world.staff.id)
        court = snapshots.latest(w, staff, "tribunal", "")
        assert court.row_count == 1 and court.figures == _live(w, staff, "tribunal", "")[0]
        records = list(w.session.scalars(select(AuditRecord).where(
            AuditRecord.object_type == "jobs", AuditRecord.object_id.in_(map(str, ids)))))
        assert sorted(r.action for r in records) == sorted(
            ["job.queued", "job.succeeded"] * len(ids))
        assert {r.actor_id for r in records} == {None}
        fresh = snapshots.request_fresh(w, staff, "tribunal", "")
    with clock.fixed(at(TODAY, 9)):
        assert runner.run(database, fresh).status == "succeeded"
    assert any(getattr(u, "id", None) == world.staff.id for u in asked)
    with world.uow() as w:
        assert {r.actor_id for r in w.session.scalars(select(AuditRecord).where(
            AuditRecord.object_type == "jobs", AuditRecord.object_id == str(fresh)))} == {
            world.staff.id}
