"""Budget versions from the back office (R-A1, R-A3): draft, edit a draft, adopt (a warning
when the fiscal year has begun), amend (a new version; the adopted one unchanged), compare
two versions; only an administrator changes a budget; every change is audit-logged."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import select

from portal import clock
from portal.accounts.errors import Conflict, Forbidden, InvalidInput
from portal.db import UnitOfWork
from portal.models import AuditRecord, BudgetLine, BudgetVersion, ImmutableRowError, User
from portal.roll import budgets
from portal.roll.budgets import FixedInput, LineInput
from tests.support.clock import at
from tests.support.world import adopt_rates

D = Decimal
LINES = [LineInput("project", "Paseo", "Promenade", D("1000.00"), D("800.00")),
         LineInput("operation", "Operación", "Operation", D("500.00"), D("500.00"))]


def _staff(uow: UnitOfWork, world, role: str | None = None) -> User:
    staff = uow.session.get(User, world.staff.id)
    if role is not None:
        staff.staff_role = role
    return staff


def _draft(world, fy_start=date(2027, 7, 1), **kw):
    with clock.fixed(at(date(2027, 3, 1))), world.uow() as uow:
        staff = _staff(uow, world)
        fy = budgets.ensure_fiscal_year(uow, fy_start)
        return budgets.draft(uow, staff, fy, LINES, reference="Res. 2027-1", **kw).id


def test_draft_total_is_the_financed_part_and_is_audited(world):
    vid = _draft(world)
    with world.uow() as uow:
        v = uow.session.get(BudgetVersion, vid)
        assert (v.version, v.status, v.total_to_assess) == (1, "draft", D("1300.00"))
        rec = uow.session.scalar(select(AuditRecord).where(
            AuditRecord.action == "budget.drafted", AuditRecord.object_id == str(vid)))
        assert rec.actor_id == world.staff.id
        assert [ln["description_es"] for ln in rec.after["lines"]] == ["Paseo", "Operación"]


def test_edit_a_draft_replaces_its_lines_and_fixed_amounts(world):
    vid = _draft(world)
    with clock.fixed(at(date(2027, 3, 2))), world.uow() as uow:
        staff = _staff(uow, world)
        budgets.update_draft(uow, staff, vid, LINES[:1], reference="Res. 2027-2",
                             fixed=[FixedInput("040-000-000-01", D("300.00"), "convenio")])
    with world.uow() as uow:
        view = budgets.get(uow, _staff(uow, world), vid)
        assert [ln.description_es for ln in view.lines] == ["Paseo"]
        assert view.version.total_to_assess == D("800.00")
        assert [(c, f.amount, f.reason) for f, c in view.fixed] == [
            ("040-000-000-01", D("300.00"), "convenio")]
        assert uow.session.scalar(select(AuditRecord.before).where(
            AuditRecord.action == "budget.edited"))["reference"] == "Res. 2027-1"


@pytest.mark.parametrize("fixed, code", [
    ([FixedInput("999-999-999-99", D("1.00"))], "fixed_unknown_parcel"),
    ([FixedInput("040-000-000-05", D("1.00"))], "fixed_exempt_parcel"),  # R-A2: exempt
    ([FixedInput("040-000-000-01", D("1.00")), FixedInput("040-000-000-01", D("2.00"))],
     "fixed_twice"),
    ([FixedInput("040-000-000-01", D("1300.01"))], "fixed_over_total"),  # R-A3
])
def test_fixed_amounts_are_checked(world, fixed, code):
    with pytest.raises(InvalidInput) as err:
        _draft(world, fixed=fixed)
    assert err.value.code == code
    with world.uow() as uow:  # nothing written
        assert budgets.overview(uow, _staff(uow, world))[0][1][0].id == world.version_id


def test_fixed_amounts_up_to_the_total_are_kept(world):
    vid = _draft(world, fixed=[FixedInput("040-000-000-01", D("1300.00"))])
    with world.uow() as uow:
        [(f, catastro)] = budgets.get(uow, _staff(uow, world), vid).fixed
        assert (catastro, f.amount) == ("040-000-000-01", D("1300.00"))


def test_adopt_before_the_year_needs_no_confirmation(world):
    vid = _draft(world)
    with clock.fixed(at(date(2027, 6, 30))), world.uow() as uow:
        v = budgets.adopt(uow, _staff(uow, world), vid, date(2027, 6, 30))
        assert (v.status, v.adopted_on) == ("adopted", date(2027, 6, 30))


def test_adopt_after_the_year_began_warns_then_records_when_confirmed(world):
    """R-A1: adopted before the fiscal year starts; on or after its first day the service
    refuses until the staff confirm the warning, and the audit record says it was late."""
    vid = _draft(world)
    with clock.fixed(at(date(2027, 7, 1))), world.uow() as uow:
        fy = budgets.get(uow, _staff(uow, world), vid).fiscal_year
        assert budgets.is_late(fy, uow.session.get(BudgetVersion, vid), date(2027, 7, 1))
        assert not budgets.is_late(fy, uow.session.get(BudgetVersion, vid), date(2027, 6, 30))
        with pytest.raises(Conflict) as err:
            budgets.adopt(uow, _staff(uow, world), vid, date(2027, 7, 1))
        assert err.value.code == "budget_late"
        assert err.value.params["starts_on"] == date(2027, 7, 1)
    with world.uow() as uow:
        assert uow.session.get(BudgetVersion, vid).status == "draft"
    with clock.fixed(at(date(2027, 7, 2))), world.uow() as uow:
        budgets.adopt(uow, _staff(uow, world), vid, date(2027, 7, 1), late=True)
    with world.uow() as uow:
        assert uow.session.get(BudgetVersion, vid).status == "adopted"
        rec = uow.session.scalar(select(AuditRecord).where(
            AuditRecord.action == "budget.adopted", AuditRecord.object_id == str(vid)))
        assert rec.after["late"] is True and rec.before["status"] == "draft"


def test_amend_is_a_new_draft_copied_and_the_adopted_version_stays(world):
    with clock.fixed(at(date(2026, 11, 1))), world.uow() as uow:
        staff = _staff(uow, world)
        new = budgets.amend(uow, staff, world.version_id)
        new_id = new.id
        assert (new.version, new.status, new.total_to_assess) == (2, "draft", D("12000.00"))
        with pytest.raises(Conflict) as err:  # one draft at a time
            budgets.amend(uow, staff, world.version_id)
        assert err.value.code == "budget_draft_exists"
    with clock.fixed(at(date(2026, 11, 2))), world.uow() as uow:
        staff = _staff(uow, world)
        budgets.update_draft(uow, staff, new_id, [
            LineInput("project", "Proyecto", "Project", D("15000.00"), D("11000.00")),
            LineInput("center", "Centro", "Center", D("900.00"), D("450.00"))])
        with pytest.raises(Conflict):  # an adopted version is never edited (R-A1)
            budgets.update_draft(uow, staff, world.version_id, LINES)
    with clock.fixed(at(date(2026, 11, 3))), world.uow() as uow:
        budgets.adopt(uow, _staff(uow, world), new_id, date(2026, 11, 3))
    with world.uow() as uow:
        old = budgets.get(uow, _staff(uow, world), world.version_id)
        assert [(ln.description_es, ln.amount) for ln in old.lines] == [
            ("Proyecto", D("15000.00")), ("Mantenimiento", D("2000.00"))]
        assert old.version.total_to_assess == D("12000.00")
        ln = uow.session.scalar(select(BudgetLine).where(
            BudgetLine.version_id == world.version_id))
        ln.amount = D("1.00")
        with pytest.raises(ImmutableRowError):
            uow.session.flush()
        uow.session.rollback()


def test_compare_two_versions_line_by_line_and_totals(world):
    with clock.fixed(at(date(2026, 11, 1))), world.uow() as uow:
        staff = _staff(uow, world)
        new_id = budgets.amend(uow, staff, world.version_id).id
        budgets.update_draft(uow, staff, new_id, [
            LineInput("center", "Centro", "Center", D("900.00"), D("450.00")),
            LineInput("project", "Proyecto", "Project", D("15000.00"), D("11000.00"))],
            fixed=[FixedInput("040-000-000-02", D("100.00"))])
    with world.uow() as uow:
        _old, _new, cmp = budgets.compare(uow, _staff(uow, world), world.version_id, new_id)
    rows = [(ln.description_es, ln.status, ln.amount.old, ln.amount.new, ln.financed.old,
             ln.financed.new, ln.financed.change) for ln in cmp.lines]
    assert rows == [
        ("Centro", "added", D("0.00"), D("900.00"), D("0.00"), D("450.00"), D("450.00")),
        ("Proyecto", "changed", D("15000.00"), D("15000.00"), D("10000.00"), D("11000.00"),
         D("1000.00")),
        ("Mantenimiento", "removed", D("2000.00"), D("0.00"), D("2000.00"), D("0.00"),
         D("-2000.00")),
    ]
    assert (cmp.total_cost.old, cmp.total_cost.new, cmp.total_cost.change) == (
        D("17000.00"), D("15900.00"), D("-1100.00"))
    assert (cmp.total_to_assess.old, cmp.total_to_assess.new, cmp.total_to_assess.change) == (
        D("12000.00"), D("11450.00"), D("-550.00"))
    assert [(f.parcel, f.old, f.new, f.change) for f in cmp.fixed] == [
        ("040-000-000-02", None, D("100.00"), D("100.00"))]
    assert cmp.changed


@pytest.mark.parametrize("role", ["reviewer", "cashier", "read_only"])
def test_only_an_administrator_changes_a_budget(world, role):
    """docs/STAFF.md: budgets are the administrator's; the others may read them."""
    vid = _draft(world)
    with clock.fixed(at(date(2027, 3, 1))), world.uow() as uow:
        staff = _staff(uow, world, role)
        fy = budgets.get(uow, staff, vid).fiscal_year  # reading is allowed
        for attempt in (lambda: budgets.draft(uow, staff, fy, LINES),
                        lambda: budgets.update_draft(uow, staff, vid, LINES),
                        lambda: budgets.adopt(uow, staff, vid, date(2027, 3, 1)),
                        lambda: budgets.amend(uow, staff, world.version_id)):
            with pytest.raises(Forbidden):
                attempt()
    with world.uow() as uow:
        assert uow.session.get(BudgetVersion, vid).status == "draft"


def test_a_version_with_fixed_amounts_is_computed_with_them(world):
    """R-A3: the fixed parcel gets the Board's amount; the rest is shared by units."""
    from sqlalchemy import select

    from portal.models import AssessmentRoll, Parcel, RollLine
    from portal.roll import roll
    vid = _draft(world, fixed=[FixedInput("040-000-000-01", D("100.00"))])
    with clock.fixed(at(date(2027, 6, 1))), world.uow() as uow:
        budgets.adopt(uow, _staff(uow, world), vid, date(2027, 6, 1))
        adopt_rates(uow, _staff(uow, world), date(2027, 7, 1))  # a roll needs its rates
    with clock.fixed(at(date(2027, 6, 2))), world.uow() as uow:
        roll.compute(uow, _staff(uow, world), vid)
    with world.uow() as uow:
        r = uow.session.scalar(select(AssessmentRoll).where(
            AssessmentRoll.budget_version_id == vid))
        lines = {c: (amount, units) for c, amount, units in uow.session.execute(
            select(Parcel.catastro, RollLine.amount, RollLine.benefit_units)
            .join(RollLine, RollLine.parcel_id == Parcel.id)
            .where(RollLine.roll_id == r.id, RollLine.exempt.is_(False)))}
        assert lines["040-000-000-01"][0] == D("100.00")
        assert sum(a for a, _ in lines.values()) == r.total
        others = {c: v for c, v in lines.items() if c != "040-000-000-01"}
        assert r.total_units == sum(u for _, u in others.values())  # the units sharing the rest
        pool = r.total - D("100.00")
        for amount, units in others.values():  # each within a cent of its share of the rest
            assert abs(amount - pool * units / r.total_units) < D("0.01")
        roll_id = r.id
        fixed_id = uow.session.scalar(select(Parcel.id).where(Parcel.catastro == "040-000-000-01"))
        shared_id = uow.session.scalar(select(Parcel.id).where(
            Parcel.catastro == next(iter(others))))
    with clock.fixed(at(date(2027, 6, 2))), world.uow() as uow:
        roll.publish(uow, _staff(uow, world), roll_id)
    from portal.accounts import statements
    from portal.models import Assessment
    views = {}
    with world.uow() as uow:  # the parcel page's "why this amount?" (its budget part)
        for pid in (fixed_id, shared_id):
            a = uow.session.scalar(select(Assessment).where(
                Assessment.parcel_id == pid, Assessment.budget_version_id == vid))
            view = statements.AccountView(parcel=uow.session.get(Parcel, pid), relation="staff",
                                        as_of=date(2027, 7, 2), fiscal_year=None, assessment=a)
            statements._budget(uow, view, a, rows=False)
            views[pid] = view
    assert views[fixed_id].fixed_amount == D("100.00") and views[fixed_id].share is None
    assert "fixed" in views[fixed_id].share_trace.steps[0].message
    assert views[shared_id].fixed_amount is None and views[shared_id].pool == pool
    assert views[shared_id].share_trace.steps[0].params["pool"] == pool


def test_discard_a_draft_and_its_budget_when_it_was_the_only_version(world):
    vid = _draft(world, fixed=[FixedInput("040-000-000-01", D("100.00"))])
    with world.uow() as uow:
        fy = budgets.discard_draft(uow, _staff(uow, world), vid)
        assert fy.starts_on == date(2027, 7, 1)
    with world.uow() as uow:
        assert uow.session.get(BudgetVersion, vid) is None
        years = dict((fy.label, vs) for fy, vs in budgets.overview(uow, _staff(uow, world)))
        assert years["2027-2028"] == []  # the budget went with its only version
        with pytest.raises(Conflict):  # an adopted version is never deleted (R-A1)
            budgets.discard_draft(uow, _staff(uow, world), world.version_id)
    again = _draft(world)  # the year can be drafted again
    with world.uow() as uow:
        with pytest.raises(Forbidden):
            budgets.discard_draft(uow, _staff(uow, world, "read_only"), again)
