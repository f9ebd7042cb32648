"""`portal roll compute|publish`: the roll's jobs in the foreground, with a progress bar;
each run is a job recorded like one started from the staff's page."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from click.testing import CliRunner
from sqlalchemy import func, select

from portal import clock
from portal.cli import main
from portal.db import reset_databases
from portal.models import Assessment, Job, User
from portal.roll import budgets
from portal.roll.budgets import LineInput
from tests.support.clock import at
from tests.support.world import build


def test_compute_and_publish_from_the_command_line(sqlite_database, monkeypatch):
    world = build(sqlite_database)
    with clock.fixed(at(date(2026, 12, 15))), world.uow() as uow:
        staff = uow.session.get(User, world.staff.id)
        fy = uow.session.get(budgets.FiscalYear, world.fy_id)
        v = budgets.draft(uow, staff, fy, [LineInput("project", "Proyecto", "Project",
                                                     Decimal("9000.00"), Decimal("9000.00"))],
                          reference="Res. 2", effective_on=date(2026, 12, 15))
        budgets.adopt(uow, staff, v.id, date(2026, 12, 15))
        version_id = v.id
    monkeypatch.setenv("DATABASE_URL", str(sqlite_database.engine.url))
    runner = CliRunner()
    try:
        with clock.fixed(at(date(2026, 12, 15))):
            r = runner.invoke(main, ["roll", "compute", str(version_id), "--staff",
                                     "staff@test.pr"])
            assert r.exit_code == 0, r.output
            assert "succeeded" in r.output and "5/5" in r.output  # the bar's done/total
            with world.uow() as uow:
                roll_id = uow.session.scalar(select(Job.result).where(
                    Job.kind == "roll.compute")).get("roll_id")
            r = runner.invoke(main, ["roll", "publish", str(roll_id), "--staff",
                                     "staff@test.pr", "--notice-date", "2026-12-15"])
            assert r.exit_code == 0, r.output
            assert "roll.notify queued" in r.output  # the notices' job the publication started
            r = runner.invoke(main, ["roll", "publish", str(roll_id), "--staff",
                                     "alice@test.pr"])
            assert r.exit_code == 2 and "no staff account" in r.output
            r = runner.invoke(main, ["roll", "publish", "999", "--staff", "staff@test.pr"])
            assert r.exit_code == 1 and "not_found" in r.output
    finally:
        reset_databases()
    with world.uow() as uow:
        # The factory's publication and this one each started their notices' job.
        assert list(uow.session.scalars(select(Job.kind).order_by(Job.id))) == [
            "roll.notify", "roll.compute", "roll.publish", "roll.notify"]
        current = uow.session.scalar(select(func.count()).select_from(Assessment).where(
            Assessment.budget_version_id == version_id))
        assert current == 4  # the four assessed parcels amended (E stays exempt)
