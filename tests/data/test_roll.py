"""The roll: computed from an adopted budget, re-runnable, all or nothing; amendments (R-A5)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from portal import clock
from portal.accounts import bulk, ledger, statements
from portal.accounts.errors import Conflict, Forbidden
from portal.core.installments import Installment as CoreInstallment
from portal.core.installments import amend
from portal.models import (
    Assessment,
    AssessmentRoll,
    Installment,
    LedgerEntry,
    Notice,
    RollLine,
    User,
)
from portal.roll import budgets, roll
from portal.roll.budgets import LineInput
from tests.support.clock import at
from tests.support.world import FY_START, RATES, adopt_rates, pay


def _count(uow, model, *where):
    return uow.session.scalar(select(func.count()).select_from(model).where(*where))


def test_published_roll_wrote_the_facts(world):
    with world.uow() as uow:
        r = uow.session.get(AssessmentRoll, world.roll_id)
        assert (r.status, r.assessed_count, r.exempt_count) == ("published", 4, 1)
        assert r.total == Decimal("12000.00") and r.notice_date == date(2026, 6, 10)
        assert _count(uow, Assessment) == 4
        assert _count(uow, Installment) == 48
        assert _count(uow, Notice, Notice.kind == "assessment") == 4
        charged = uow.session.scalar(select(func.sum(LedgerEntry.amount))
                                     .where(LedgerEntry.kind == "charge"))
        assert charged == Decimal("12000.00")
        dues = uow.session.scalars(select(Installment.due_date).distinct()
                                   .order_by(Installment.due_date)).all()
        assert dues[0] == FY_START and len(dues) == 12
        # Publishing again does nothing; recomputing a published roll is refused.
        staff = uow.session.get(User, world.staff.id)
        roll.publish(uow, staff, world.roll_id)
        assert _count(uow, Assessment) == 4
        with pytest.raises(Conflict) as err:
            roll.compute(uow, staff, world.version_id)
        assert err.value.code == "roll_published"
        with pytest.raises(Forbidden):
            roll.compute(uow, uow.session.get(User, world.alice.id), world.version_id)


def _amendment(world, uow, total: str, effective: date):
    staff = uow.session.get(User, world.staff.id)
    fy = uow.session.get(statements.FiscalYear, world.fy_id)
    v2 = budgets.draft(uow, staff, fy, [
        LineInput("project", "Proyecto", "Project", Decimal("15000.00"), Decimal(total)),
        LineInput("maintenance", "Mantenimiento", "Maintenance", Decimal("2000.00"),
                  Decimal("2000.00")),
    ], reference="Res. 2", effective_on=effective)
    budgets.adopt(uow, staff, v2.id, effective)
    return staff, v2


def test_recompute_replaces_the_preview_and_publishing_is_all_or_nothing(world, monkeypatch):
    with clock.fixed(at(date(2026, 12, 15))), world.uow() as uow:
        staff, v2 = _amendment(world, uow, "12400.00", date(2026, 12, 15))
        r2 = roll.compute(uow, staff, v2.id)
        r2_id, v2_id = r2.id, v2.id
    with clock.fixed(at(date(2026, 12, 15))), world.uow() as uow:
        staff = uow.session.get(User, world.staff.id)
        again = roll.compute(uow, staff, v2_id)
        assert again.id == r2_id and _count(uow, RollLine, RollLine.roll_id == r2_id) == 5
        assert again.total == Decimal("14400.00")
    calls = {"n": 0}
    real = bulk.insert_rows

    def failing(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("disk full")
        return real(*args, **kwargs)

    monkeypatch.setattr(bulk, "insert_rows", failing)
    with pytest.raises(RuntimeError), clock.fixed(at(date(2026, 12, 15))), \
            world.uow() as uow:
        roll.publish(uow, uow.session.get(User, world.staff.id), r2_id)
    with world.uow() as uow:
        assert _count(uow, Assessment) == 4
        assert uow.session.get(AssessmentRoll, r2_id).status == "computed"


def test_amendment_supersedes_and_keeps_paid_installments(world):
    """R-A5: a mid-year increase is spread over the unpaid installments due after the
    effective date; paid ones are untouched; nothing is rewritten."""
    for day in (date(2026, 7, 2), date(2026, 8, 3), date(2026, 9, 2)):
        pay(world, "A", "83.34", day)
    eff = date(2026, 12, 15)
    with clock.fixed(at(eff)), world.uow() as uow:
        before = statements.statement_for(uow, world.alice, world.parcel["A"])
        old = [CoreInstallment(i.number, i.due_date, i.amount, st.status == "paid")
               for i, st in zip(before.installments, before.statement.installments)]
        staff, v2 = _amendment(world, uow, "12400.00", eff)
        r2 = roll.compute(uow, staff, v2.id)
        roll.publish(uow, staff, r2.id)
    with clock.fixed(at(eff)), world.uow() as uow:
        after = statements.statement_for(uow, world.alice, world.parcel["A"])
        assert after.assessment.supersedes_id == before.assessment.id
        assert [a.id for a in after.history] == [before.assessment.id]
        assert after.budget_version.version == 2
        # 14,400 by units 10/120 -> 1,200 (was 1,000): +200 over January..June.
        assert after.annual == Decimal("1200.00")
        expected = amend(old, Decimal("1200.00"), eff).installments
        assert [(i.number, i.due_date, i.amount) for i in after.installments] == \
            [(i.number, i.due_date, i.amount) for i in expected]
        assert [i.amount for i in after.installments][:6] == \
            [i.amount for i in before.installments][:6]
        assert sum(i.amount for i in after.installments) == Decimal("1200.00")
        assert _count(uow, Installment) == 48 + 12 * 4  # every parcel changed; none rewritten
        assert ledger.verify_allocations(uow, world.parcel["A"], world.fy_id) == []


def test_a_decrease_never_cuts_below_what_was_paid_ahead(world):
    """R-A5 with a decrease after a payment ahead: the receipts stay true (DESIGN.md 1)."""
    pay(world, "A", "83.34", date(2026, 7, 2))
    pay(world, "A", "300.00", date(2026, 8, 3))  # August, and ahead into Sept..Nov
    eff = date(2026, 8, 20)
    with clock.fixed(at(eff)), world.uow() as uow:
        staff, v2 = _amendment(world, uow, "0.00", eff)  # only maintenance: 2,000 in all
        r2 = roll.compute(uow, staff, v2.id)
        roll.publish(uow, staff, r2.id)
    with clock.fixed(at(eff)), world.uow() as uow:
        view = statements.statement_for(uow, world.alice, world.parcel["A"])
        assert view.annual == Decimal("166.67")
        assert ledger.verify_allocations(uow, world.parcel["A"], world.fy_id) == []
        # What could not be absorbed is a credit on the account (R-A5), an adjustment.
        credit = uow.session.scalar(select(LedgerEntry).where(LedgerEntry.rule == "R-A5"))
        assert credit is not None and credit.direction == "credit"
        assert view.statement.payoff == 0 and view.statement.credit > 0


def test_an_increase_after_a_lump_sum_keeps_its_discount(world):
    """R-A11: a lump sum is measured against the year as notified when it was paid (section
    D, `annual`); a later increase is billed without discount (R-A5: one installment, the
    1st of the next month), and the discount already granted stays granted."""
    pay(world, "A", "980.00", date(2026, 6, 25), lump_sum=True)  # 1,000 less 2 %
    eff = date(2026, 12, 15)
    with clock.fixed(at(eff)), world.uow() as uow:
        before = statements.statement_for(uow, world.alice, world.parcel["A"])
        assert before.statement.discount == Decimal("20.00") and before.statement.payoff == 0
        staff, v2 = _amendment(world, uow, "12400.00", eff)
        roll.publish(uow, staff, roll.compute(uow, staff, v2.id).id)
    with clock.fixed(at(eff)), world.uow() as uow:
        for rows in (False, True):
            after = statements.statement_for(uow, world.alice, world.parcel["A"], rows=rows)
            assert after.annual == Decimal("1200.00")
            st = after.statement
            assert st.applications[0].lump_sum == "granted" and st.discount == Decimal("20.00")
            assert st.payoff == Decimal("200.00")  # the increase, in full
            assert [i.number for i in st.installments if i.status != "paid"] == [13]
        assert ledger.verify_allocations(uow, world.parcel["A"], world.fy_id) == []
        (summary,) = [s for s in statements.dashboard(uow, world.alice)
                      if s.parcel.id == world.parcel["A"]]
        assert summary.payoff == Decimal("200.00")


def test_a_decrease_on_the_day_of_a_payment_is_credited_the_next_day(world):
    """R-A5's credit is a correction: the core applies a day's adjustments before its
    payments, so one made on the day of a posted payment takes the next day and every
    stored allocation still replays (DESIGN.md 1)."""
    eff = date(2026, 8, 20)
    pay(world, "A", "300.00", eff)
    with clock.fixed(at(eff, 15)), world.uow() as uow:
        staff, v2 = _amendment(world, uow, "0.00", eff)
        roll.publish(uow, staff, roll.compute(uow, staff, v2.id).id)
    with clock.fixed(at(eff, 16)), world.uow() as uow:
        credit = uow.session.scalar(select(LedgerEntry).where(LedgerEntry.rule == "R-A5"))
        assert credit is not None and credit.legal_date == date(2026, 8, 21)
        assert ledger.verify_allocations(uow, world.parcel["A"], world.fy_id) == []


def _next_year_budget(uow, staff):  # noqa: ANN001, ANN202
    """FY 2027-2028's budget, adopted on 20 May 2027 (the clock on that day): its version and
    fiscal year."""
    fy = budgets.ensure_fiscal_year(uow, date(2027, 7, 1))
    v = budgets.draft(uow, staff, fy, [
        LineInput("project", "Proyecto", "Project", Decimal("15000.00"),
                  Decimal("10000.00"))], reference="Res. 9")
    budgets.adopt(uow, staff, v.id, date(2027, 5, 20))
    return v, fy


def test_publication_writes_the_number_of_installments_the_board_adopted(world):
    """R-A4: "payable in equal monthly installments or as otherwise determined by the Board"
    (§ 6432(d)): a count the Board adopted for a year before its roll is written is the
    number of installments its publication writes; the year before keeps the statute's 12."""
    from portal.roll import board_parameters

    fy_start = date(2027, 7, 1)
    with clock.fixed(at(date(2027, 5, 20))), world.uow() as uow:
        staff = uow.session.get(User, world.staff.id)
        v, fy = _next_year_budget(uow, staff)
        board_parameters.adopt(uow, staff, fy_start, "installment_count", "10",
                               date(2027, 5, 20), "2027-3", date(2027, 5, 19))
        adopt_rates(uow, staff, fy_start)
        version_id, fy_id = v.id, fy.id
    with clock.fixed(at(date(2027, 6, 10))), world.uow() as uow:
        staff = uow.session.get(User, world.staff.id)
        r = roll.compute(uow, staff, version_id)
        roll.publish(uow, staff, r.id, date(2027, 6, 10))
        new = select(Assessment.id).where(Assessment.budget_version_id == version_id)
        counts = uow.session.execute(
            select(Installment.assessment_id, func.count()).where(
                Installment.assessment_id.in_(new)).group_by(Installment.assessment_id)).all()
        assert len(counts) == 4 and {n for _, n in counts} == {10}
        total = uow.session.scalar(select(func.sum(Installment.amount)).where(
            Installment.assessment_id.in_(new)))
        assert total == Decimal("10000.00")
        old = select(Assessment.id).where(Assessment.budget_version_id == world.version_id)
        assert _count(uow, Installment, Installment.assessment_id.in_(old)) == 48
        assert fy_id != world.fy_id


def test_a_roll_is_published_only_with_every_parameter_its_year_needs(world):
    """Before publishing FY 2027-2028 (on 10 June 2027): without its rates the roll is
    refused, naming each missing one (the notices and every statement of the year would fail
    without them); with the rates recorded effective 1 July 2027, they are that year's
    already, and the roll is published and its statements read them."""
    from portal.accounts import in_force

    fy_start = date(2027, 7, 1)
    with clock.fixed(at(date(2027, 5, 20))), world.uow() as uow:
        staff = uow.session.get(User, world.staff.id)
        v, fy = _next_year_budget(uow, staff)
        version_id = v.id
    with clock.fixed(at(date(2027, 6, 10))), world.uow() as uow:
        staff = uow.session.get(User, world.staff.id)
        r = roll.compute(uow, staff, version_id)
        roll_id = r.id
        assert roll.missing_parameters(uow, fy_start) == list(RATES)
    with pytest.raises(Conflict) as info, clock.fixed(at(date(2027, 6, 10))), \
            world.uow() as uow:
        roll.publish(uow, uow.session.get(User, world.staff.id), roll_id, date(2027, 6, 10))
    assert info.value.code == "parameters_missing"
    assert info.value.params == {"missing": list(RATES), "fiscal_year": "2027-2028"}
    with clock.fixed(at(date(2027, 6, 10))), world.uow() as uow:
        assert _count(uow, Assessment, Assessment.budget_version_id == version_id) == 0
        staff = uow.session.get(User, world.staff.id)
        adopt_rates(uow, staff, fy_start)
    with clock.fixed(at(date(2027, 6, 10))), world.uow() as uow:
        staff = uow.session.get(User, world.staff.id)
        assert roll.missing_parameters(uow, fy_start) == []
        rules = in_force.rules_for(uow, fy_start)
        assert (rules.late_fee_rate, rules.interest_rate) == (Decimal("0.05"),
                                                             Decimal("0.10"))
        assert in_force.rules_for(uow, FY_START).late_fee_rate == Decimal("0.05")
        roll.publish(uow, staff, roll_id, date(2027, 6, 10))
        assert _count(uow, Assessment, Assessment.budget_version_id == version_id) == 4


def test_a_rate_effective_later_in_the_year_waits_for_its_day(world):
    """R-A7: a rate adopted for the current year effective on a later day is not in force
    before that day (only a value effective by its year's first day is in force early)."""
    from portal.accounts import in_force
    from portal.roll import board_parameters

    with world.uow() as uow:  # today: 30 November 2026
        staff = uow.session.get(User, world.staff.id)
        board_parameters.adopt(uow, staff, FY_START, "late_fee_rate", "0.07",
                               date(2026, 12, 15), "2026-40", date(2026, 11, 20))
    with world.uow() as uow:
        assert in_force.rules_for(uow, FY_START).late_fee_rate == Decimal("0.05")
    with clock.fixed(at(date(2026, 12, 15))), world.uow() as uow:
        assert in_force.rules_for(uow, FY_START).late_fee_rate == Decimal("0.07")
