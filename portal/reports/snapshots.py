"""The reports that read the whole District, as snapshots (docs/REPORTS.md, "Snapshots").

Payments by day and method, the assessment register (for every fiscal year and for each
one), the aging and the court list read every payment, assessment, installment or demand of
the District: at 1.5 million parcels, minutes. Their pages read a snapshot instead:

- the worker computes it (the job `reports.snapshot`): the report's own figures and rows
  (`reports.REPORTS[name].figures` and `.rows`: the same functions the pages read through
  `reports.figures` and `reports.rows`, which check staff; the court list's each row's
  status from the core), the rows streamed and written 2,000 at a time, in constant memory,
  all in one transaction with the snapshot's figures; then the older snapshots of the same
  report and parameters are deleted. A page sees a whole snapshot, never half of one;
- once a day (the daily task `reports.snapshots`, which submits the jobs, run by the
  worker) and when staff ask for a fresh one (the page's button: the same job; asking again
  while one is queued or running is that job);
- the page reads the latest snapshot's figures (one statement) and its page of rows by key
  (`seq`, one statement), and says the day and time it was computed. The CSV streams the
  same rows.

A value is stored as JSON with a tag where JSON has no type of its own: `{"$": "12.34"}` an
amount (Decimal), `{"d": "2026-11-30"}` a day.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import bindparam, delete, insert, select

from portal import clock
from portal.accounts import access
from portal.db import Database, UnitOfWork
from portal.jobs import daily, runner
from portal.models import FiscalYear, Job, ReportSnapshot, ReportSnapshotRow
from portal.reports import reports

KIND = "reports.snapshot"
DAILY = "reports.snapshots"
#: The reports read from snapshots (the others read little: the demands and the filed
#: certifications, computed when the page is read).
SNAPSHOT = ("pagos", "registro", "morosidad", "tribunal")
#: Rows written per statement.
BATCH = 2000


def encode(value: Any) -> Any:
    if isinstance(value, Decimal):
        return {"$": str(value)}
    if isinstance(value, date):
        return {"d": value.isoformat()}
    return value


def decode(value: Any) -> Any:
    if isinstance(value, dict):
        if "$" in value:
            return Decimal(value["$"])
        return date.fromisoformat(value["d"])
    return value


def key_of(name: str, p: reports.Params) -> str | None:
    """The snapshot's key for these parameters; None when the page computes the report
    itself (a report not snapshotted, or a range of days of a report whose rows are not
    by day). A range of days of payments reads the snapshot of every day (`in_range`)."""
    if name not in SNAPSHOT:
        return None
    if p.start or p.end:
        return "" if reports.REPORTS[name].figures_of is not None else None
    return f"ano={p.fiscal_year_start.isoformat()}" if p.fiscal_year_start else ""


def _params(key: str, today: date) -> reports.Params:
    fy = date.fromisoformat(key.removeprefix("ano=")) if key else None
    return reports.Params(today=today, fiscal_year_start=fy)


def job_params(name: str, key: str) -> dict[str, str]:
    return {"name": name, "key": key}


@dataclass(frozen=True)
class Snapshot:
    id: int
    day: date
    computed_at: datetime
    figures: list[reports.Figure]
    row_count: int


def latest(uow: UnitOfWork, staff: Any, name: str, key: str) -> Snapshot | None:
    """The report's latest snapshot for these parameters (None: not computed yet)."""
    return latest_and_pending(uow, staff, name, key)[0]


#: The latest snapshot of a report and key, with the id of a computation of it queued or
#: running: built once, bound per request, run on the connection (a page's two reads).
_LATEST = (
    select(ReportSnapshot.id, ReportSnapshot.day, ReportSnapshot.computed_at,
           ReportSnapshot.figures, ReportSnapshot.row_count,
           select(Job.id).where(Job.active_key == bindparam("active")).scalar_subquery()
           .label("job"))
    .where(ReportSnapshot.name == bindparam("name"),
           ReportSnapshot.params_key == bindparam("key"))
    .order_by(ReportSnapshot.id.desc()).limit(1))
_PAGE = (select(ReportSnapshotRow.cells)
         .where(ReportSnapshotRow.snapshot_id == bindparam("snapshot"),
                ReportSnapshotRow.seq > bindparam("first"),
                ReportSnapshotRow.seq <= bindparam("last"))
         .order_by(ReportSnapshotRow.seq))


def latest_and_pending(uow: UnitOfWork, staff: Any, name: str, key: str
                       ) -> tuple[Snapshot | None, bool]:
    """The latest snapshot (None: not computed yet) and whether a computation of it is
    queued or running, in one statement when there is a snapshot."""
    access.require_staff(staff)
    active = runner.checksum(KIND, job_params(name, key))
    s = uow.connection().execute(
        _LATEST, {"active": active, "name": name, "key": key}).first()
    if s is None:
        return None, pending(uow, name, key)
    figures = [reports.Figure(f["label"], decode(f["value"]), f["money"], f["code"])
               for f in s.figures]
    return Snapshot(s.id, s.day, s.computed_at, figures, s.row_count), s.job is not None


def pending(uow: UnitOfWork, name: str, key: str) -> bool:
    """Whether a computation of it is queued or running."""
    active = runner.checksum(KIND, job_params(name, key))
    return uow.session.scalar(select(Job.id).where(Job.active_key == active)) is not None


def page(uow: UnitOfWork, snapshot: Snapshot, number: int) -> tuple[list[tuple], bool]:
    """The rows of page `number` (1-based), by key, and whether there is a next one."""
    start = (number - 1) * reports.PAGE
    cells = uow.connection().execute(
        _PAGE, {"snapshot": snapshot.id, "first": start, "last": start + reports.PAGE}
    ).scalars().all()
    return ([tuple(decode(v) for v in c) for c in cells],
            start + reports.PAGE < snapshot.row_count)


def rows(uow: UnitOfWork, snapshot: Snapshot) -> Iterator[tuple]:
    """Every row of the snapshot, streamed."""
    stmt = (select(ReportSnapshotRow.cells)
            .where(ReportSnapshotRow.snapshot_id == snapshot.id)
            .order_by(ReportSnapshotRow.seq).execution_options(yield_per=reports.STREAM))
    for cells in uow.session.scalars(stmt):
        yield tuple(decode(v) for v in cells)


def in_range(uow: UnitOfWork, snapshot: Snapshot, start: date | None, end: date | None
             ) -> list[tuple]:
    """The rows of a snapshot of a report by day (payments: a row a day and method, at most
    1,830 a year) whose day is from `start` to `end`, in order: chosen by the database from
    the first cell (an ISO day, so its text sorts as the day does)."""
    day = ReportSnapshotRow.cells[0]["d"].as_string()
    where = [ReportSnapshotRow.snapshot_id == snapshot.id]
    if start:
        where.append(day >= start.isoformat())
    if end:
        where.append(day <= end.isoformat())
    cells = uow.connection().execute(
        select(ReportSnapshotRow.cells).where(*where).order_by(ReportSnapshotRow.seq)
    ).scalars()
    return [tuple(decode(v) for v in c) for c in cells]


def compute(uow: UnitOfWork, staff: Any, name: str, key: str, *,
            job_id: int | None = None) -> int:
    """Compute the report for today into a new snapshot (its rows streamed and written a
    batch at a time), then delete the older ones of the same report and key; its id.
    `staff`: who asked for it, or None for the portal itself (the day's task's job, which
    no one started, and the demo's load): the system, as the jobs' audit records name it
    (`runner.submit_scheduled`, `created_by_id` null), never a stand-in staff member."""
    if staff is not None:
        access.require_staff(staff)
    if name not in SNAPSHOT:
        raise KeyError(name)
    report = reports.REPORTS[name]
    p = _params(key, clock.today())
    figures = [{"label": f.label, "value": encode(f.value), "money": f.money,
                "code": f.code} for f in report.figures(uow, p)]
    snap = ReportSnapshot(name=name, params_key=key, day=p.today, computed_at=clock.now(),
                          figures=figures, row_count=0, job_id=job_id)
    uow.session.add(snap)
    uow.session.flush()
    snap_id = snap.id
    count, batch = 0, []
    for row in report.rows(uow, p):
        count += 1
        batch.append({"snapshot_id": snap_id, "seq": count,
                      "cells": [encode(v) for v in row]})
        if len(batch) == BATCH:
            uow.session.execute(insert(ReportSnapshotRow), batch)
            batch = []
    if batch:
        uow.session.execute(insert(ReportSnapshotRow), batch)
    snap = uow.session.get(ReportSnapshot, snap_id)  # the court list expunges as it reads
    snap.row_count = count
    snap.computed_at = clock.now()
    uow.session.flush()
    older = select(ReportSnapshot.id).where(ReportSnapshot.name == name,
                                            ReportSnapshot.params_key == key,
                                            ReportSnapshot.id < snap_id)
    uow.session.execute(delete(ReportSnapshotRow)
                        .where(ReportSnapshotRow.snapshot_id.in_(older)))
    uow.session.execute(delete(ReportSnapshot).where(ReportSnapshot.id.in_(older))
                        .execution_options(synchronize_session=False))
    return snap_id


# --- the job and the day's task ----------------------------------------------------------

class _Done:
    def __init__(self, snapshot_id: int) -> None:
        self.snapshot_id = snapshot_id

    def job_result(self) -> dict[str, int]:
        return {"snapshot_id": self.snapshot_id}


class Computation:
    """The job's work: one step, one transaction (a snapshot is whole or absent)."""

    def __init__(self, staff: Any, params: dict[str, Any]) -> None:
        self.staff = staff  # None: the system (a job of the day's task: no one started it)
        self.name, self.key = params["name"], params.get("key", "")
        self.snapshot_id: int | None = None

    def begin(self, uow: UnitOfWork) -> int:
        return 1

    def step(self, uow: UnitOfWork) -> int:
        if self.snapshot_id is not None:
            return 0
        job_id = uow.session.scalar(select(Job.id).where(
            Job.active_key == runner.checksum(KIND, job_params(self.name, self.key))))
        self.snapshot_id = compute(uow, self.staff, self.name, self.key, job_id=job_id)
        return 1

    def finish(self, uow: UnitOfWork) -> _Done:
        return _Done(self.snapshot_id or 0)


def _check(uow: UnitOfWork, user: Any, params: dict[str, Any]) -> None:
    from portal.accounts.errors import InvalidInput
    if params.get("name") not in SNAPSHOT:
        raise InvalidInput("invalid", field="name")
    key = params.get("key", "")
    if key and (params["name"] != "registro" or not key.startswith("ano=")):
        raise InvalidInput("invalid", field="key")


def request_fresh(uow: UnitOfWork, staff: Any, name: str, key: str) -> int:
    """Staff ask for a fresh snapshot: the job's id (the one queued or running if any). The
    caller enqueues it once this unit of work commits."""
    return runner.submit(uow, staff, KIND, job_params(name, key)).id


def keys(uow: UnitOfWork) -> list[tuple[str, str]]:
    """Every snapshot the day's task keeps: each report without parameters, and the
    register for each fiscal year."""
    years = uow.session.scalars(select(FiscalYear.starts_on).order_by(FiscalYear.starts_on))
    return ([(name, "") for name in SNAPSHOT]
            + [("registro", f"ano={y.isoformat()}") for y in years])


def compute_all(uow: UnitOfWork) -> int:
    """Every snapshot the day's task keeps, computed here, in this unit of work (the demo
    loads so: its District as the worker leaves it each morning); how many."""
    done = 0
    for name, key in keys(uow):
        compute(uow, None, name, key)
        done += 1
    return done


def schedule(database: Database, day: date) -> dict[str, int]:
    """The daily task: a job for each snapshot not yet computed for `day` (the worker's
    recovery pass runs them); a second call finds them computed, queued or running."""
    submitted = 0
    with UnitOfWork(database) as uow:
        have = {(n, k) for n, k in uow.session.execute(
            select(ReportSnapshot.name, ReportSnapshot.params_key)
            .where(ReportSnapshot.day >= day))}
        for name, key in keys(uow):
            if (name, key) not in have and not pending(uow, name, key):
                runner.submit_scheduled(uow, KIND, job_params(name, key))
                submitted += 1
    return {"submitted": submitted}


runner.register(KIND, Computation, _check)
daily.register(DAILY, schedule)
