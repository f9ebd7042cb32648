"""The Board's parameters recorded as data (portal.accounts.board_parameters; R-A6, R-A7,
R-A8, R-A11), on SQLite and PostgreSQL: a change is a new row, audit-logged, and the next
unit of work of any process sees it; the rows are never updated or deleted; a refused
change writes nothing; a declared closed day moves a statement's last timely day."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from portal import clock
from portal.accounts import statements
from portal.accounts.errors import Forbidden, InvalidInput
from portal.accounts.facts import rules_for
from portal.db import Database, UnitOfWork
from portal.models import AuditRecord, BoardParameterValue, ImmutableRowError, User
from portal.roll import board_parameters
from tests.support.world import FY_START, build


def _staff(uow: UnitOfWork, world) -> User:  # noqa: ANN001
    return uow.session.get(User, world.staff.id)


def _count(uow: UnitOfWork, model, *where) -> int:  # noqa: ANN001
    return uow.session.scalar(select(func.count()).select_from(model).where(*where))


def test_a_change_is_a_new_row_audited_and_seen_by_the_next_unit_of_work(database):
    world = build(database)
    other_worker = Database(database.engine.url.render_as_string(hide_password=False))
    try:
        with UnitOfWork(other_worker) as w:  # the other worker has read the files' values
            assert rules_for(FY_START, w).late_fee_rate == Decimal("0.05")
        with world.uow() as w:
            board_parameters.adopt(w, _staff(w, world), FY_START, "late_fee_rate", "4%",
                                   date(2026, 11, 30), "2026-14", date(2026, 11, 20))
        with world.uow() as w:
            board_parameters.adopt(w, _staff(w, world), FY_START, "late_fee_rate", "0.045",
                                   date(2026, 11, 30), "2026-16", date(2026, 11, 29))
        with UnitOfWork(other_worker) as w:
            assert rules_for(FY_START, w).late_fee_rate == Decimal("0.045")
        with world.uow() as w:
            assert _count(w, BoardParameterValue) == 2
            records = w.session.scalars(select(AuditRecord).where(
                AuditRecord.action == "board_parameter.adopted").order_by(AuditRecord.id)).all()
            assert [r.before for r in records] == [{"value": "0.05"}, {"value": "0.04"}]
            assert records[-1].actor_id == world.staff.id
            view = board_parameters.year_view(w, _staff(w, world), FY_START)
            fee = next(p for p in view.parameters if p.name == "late_fee_rate")
            assert fee.value == Decimal("0.045") and fee.reference == "Resolución 2026-16"
            assert [(c.value, c.in_force) for c in fee.changes] == [
                (Decimal("0.045"), True), (Decimal("0.04"), False)]
            assert fee.changes[0].by == "staff@test.pr"
    finally:
        other_worker.dispose()


def test_the_rows_are_never_updated_or_deleted(database):
    world = build(database)
    with world.uow() as w:
        board_parameters.adopt(w, _staff(w, world), FY_START, "interest_rate", "0.08",
                               date(2026, 11, 30), "2026-14", date(2026, 11, 20))
    for change in ("update", "delete"):
        with pytest.raises(ImmutableRowError), world.uow() as w:
            row = w.session.scalars(select(BoardParameterValue)).one()
            if change == "update":
                row.value = "0.09"
            else:
                w.session.delete(row)
            w.flush()


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"text": "0.30"}, "value"), ({"text": "x"}, "value"),
    ({"resolution_number": " "}, "resolution_number"),
    ({"resolution_date": date(2026, 12, 1)}, "resolution_date"),
    ({"effective_on": date(2026, 11, 1)}, "effective_on"),
    ({"effective_on": date(2027, 7, 1)}, "effective_on"),
    ({"name": "grace_day", "text": "32"}, "value"), ({"name": "demand_payment_days"}, "name")])
def test_a_refused_change_writes_nothing(sqlite_database, kwargs, field):
    world = build(sqlite_database)
    args = {"name": "interest_rate", "text": "0.08", "effective_on": date(2026, 11, 30),
            "resolution_number": "2026-14", "resolution_date": date(2026, 11, 20), **kwargs}
    with pytest.raises(InvalidInput) as exc, world.uow() as w:
        board_parameters.adopt(w, _staff(w, world), FY_START, args.pop("name"),
                               args.pop("text"), **args)
    assert exc.value.params["field"] == field
    with world.uow() as w:
        assert _count(w, BoardParameterValue) == 0
        assert _count(w, AuditRecord, AuditRecord.action.like("board_parameter.%")) == 0


def test_only_staff_with_the_administrators_role_records(sqlite_database):
    world = build(sqlite_database)
    with pytest.raises(Forbidden), world.uow() as w:
        board_parameters.adopt(w, w.session.get(User, world.alice.id), FY_START,
                               "interest_rate", "0.08", date(2026, 11, 30), "1",
                               date(2026, 11, 20))
    with pytest.raises(Forbidden), world.uow() as w:
        board_parameters.declare_closed(w, w.session.get(User, world.alice.id),
                                        date(2026, 12, 10), None, "a", "b", "1",
                                        date(2026, 11, 20))


def test_a_declared_closed_day_moves_the_last_timely_day_at_once(database):
    """R-A6: the installment due 2026-12-01 is timely through the 10th; the Board closes the
    10th and the 11th: through Monday the 14th (the 12th and 13th are a weekend)."""
    world = build(database)

    def last_day() -> date:
        with world.uow() as w:
            acct = statements.statement_for(w, w.session.get(User, world.alice.id),
                                          world.parcel["A"], as_of=clock.today())
            return next(i.last_timely_day for i in acct.statement.installments
                        if i.due_date == date(2026, 12, 1))

    assert last_day() == date(2026, 12, 10)
    with world.uow() as w:
        rows = board_parameters.declare_closed(
            w, _staff(w, world), date(2026, 12, 10), date(2026, 12, 11), "Huracán Ernesto",
            "Hurricane Ernesto", "2026-15", date(2026, 11, 29))
        assert [r.fiscal_year for r in rows] == ["2026-2027", "2026-2027"]
    assert last_day() == date(2026, 12, 14)
    with world.uow() as w:
        assert _count(w, AuditRecord, AuditRecord.action == "board_parameter.closed_day") == 2
        with pytest.raises(InvalidInput) as exc:
            board_parameters.declare_closed(w, _staff(w, world), date(2026, 12, 11), None,
                                            "x", "y", "1", date(2026, 11, 29))
        assert exc.value.code == "already_closed"


def test_portal_params_recorded_lists_what_the_portal_uses(sqlite_database, monkeypatch):
    import json

    from click.testing import CliRunner

    from portal.cli import main
    from portal.db import reset_databases

    world = build(sqlite_database)
    with world.uow() as w:
        board_parameters.adopt(w, _staff(w, world), FY_START, "interest_rate", "8%",
                               date(2026, 11, 30), "2026-14", date(2026, 11, 20))
        board_parameters.declare_closed(w, _staff(w, world), date(2026, 12, 10), None,
                                        "Huracán Ernesto", "Hurricane Ernesto", "2026-15",
                                        date(2026, 11, 29))
    monkeypatch.setenv("DATABASE_URL", sqlite_database.engine.url.render_as_string())
    reset_databases()
    try:
        files = json.loads(CliRunner().invoke(main, ["params", "--on", "2026-12-01"]).output)
        result = CliRunner().invoke(main, ["params", "--on", "2026-12-01", "--recorded"])
    finally:
        reset_databases()
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    rate = {r["name"]: r for r in out["parameters"]}["interest_rate"]
    assert rate["value"] == "0.08" and rate["reference"] == "Resolución 2026-14"
    assert {r["name"]: r for r in files["parameters"]}["interest_rate"]["value"] == "0.10"
    assert {"day": "2026-12-10", "reason_es": "Huracán Ernesto",
            "reason_en": "Hurricane Ernesto", "reference": "Resolución 2026-15"} in \
        out["closed_days"]
