"""R-A17 as written: the collections run starts by itself on the day after each month's
rolled day G (23 LPRA § 6432(d); revision 3).

`run_due(database, day)` is a daily task (`portal.jobs.daily`: the worker calls it every
hour, `portal daily --on DAY` by hand). On a run day (`core.deadlines.demand_run_day`, the
same function the owner's timeline and `portal calc deadline` kind `demand_queue` read, with
the fiscal year's grace day and the Board's closed days) it records the day's scheduled run
(`DemandSchedule`, one per day: a unique key) and submits the collections run as a job of
no one's (`runner.submit_scheduled`), in one transaction, then runs it here
(`runner.run`: a worker that finds it queued first runs it instead; only one claims it).
A second call the same day, or two workers at once, find the day's row and start nothing.
On any other day it does nothing. Staff still start a run by hand on
`/personal/cobros`: the same job kind and the same `Run` (one letter per account and day).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from sqlalchemy import bindparam, select
from sqlalchemy.exc import IntegrityError

from portal.accounts import facts
from portal.collections import demands
from portal.core.deadlines import demand_run_day
from portal.db import Database, UnitOfWork
from portal.jobs import daily, runner
from portal.models import DemandSchedule, FiscalYear

NAME = "collections.demands"


def is_run_day(uow: UnitOfWork, day: date) -> bool:
    """R-A17: whether demands are queued on `day`: the day after some month's rolled day G
    (the fiscal year's grace day and closed days), as the timeline counts it."""
    fy = uow.session.scalar(select(FiscalYear).where(FiscalYear.starts_on <= day,
                                                     FiscalYear.ends_on >= day))
    if fy is None:
        return False
    rules = facts.rules_for(fy.starts_on, uow)
    return demand_run_day(day, rules.grace_day, frozenset(rules.closed_days)) == day


#: The fiscal year containing :day (built once: the collections page asks it on every request).
_FY_OF_DAY = select(FiscalYear).where(FiscalYear.starts_on <= bindparam("day"),
                                      FiscalYear.ends_on >= bindparam("day"))


def next_run(uow: UnitOfWork, today: date) -> date | None:
    """R-A17: the next day the run starts by itself, today included (None: no fiscal year)."""
    fy = uow.session.scalar(_FY_OF_DAY, {"day": today})
    if fy is None:
        return None
    rules = facts.rules_for(fy.starts_on, uow)
    return demand_run_day(today, rules.grace_day, frozenset(rules.closed_days))


def schedule(database: Database, day: date) -> int | None:
    """The scheduled run's job for `day`, submitted once (None: not a run day, or already
    scheduled by an earlier call)."""
    try:
        with UnitOfWork(database) as uow:
            if not is_run_day(uow, day):
                return None
            if uow.session.scalar(select(DemandSchedule.id).where(
                    DemandSchedule.run_on == day)) is not None:
                return None
            row = DemandSchedule(run_on=day)
            uow.session.add(row)
            uow.session.flush()  # two workers at once: the second stops here (unique day)
            job = runner.submit_scheduled(uow, demands.KIND, {"run_on": day.isoformat()})
            row.job_id = job.id
            return job.id
    except IntegrityError:
        return None


def run_due(database: Database, day: date) -> Mapping[str, int]:
    """The daily task (module docstring): the day's scheduled run, once."""
    job_id = schedule(database, day)
    if job_id is None:
        return {"runs": 0, "demands": 0}
    job = runner.run(database, job_id)
    demanded = int((job.result or {}).get("demands", 0)) if job is not None else 0
    return {"runs": 1, "demands": demanded}


daily.register(NAME, run_due)
