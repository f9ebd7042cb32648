"""Money facts: append-only, posted once, allocated by the core; the invariant of DESIGN.md 1."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import func, select, update

from portal import clock
from portal.core import payment_states as states
from portal.models import (
    Assessment,
    AuditRecord,
    BudgetLine,
    BudgetVersion,
    ImmutableRowError,
    Installment,
    LedgerEntry,
    Payment,
    PaymentAllocation,
    User,
)
from portal.services import accounts, ledger
from portal.services.errors import Conflict, InvalidInput

from .factory import at, build, pay


@pytest.fixture
def world(database):
    return build(database)


def _staff(uow, world):
    return uow.session.get(User, world.staff.id)


def test_append_only_tables_refuse_update_and_delete(world):
    pay(world, "A", "83.34", date(2026, 7, 2))
    for model, column, value in ((LedgerEntry, "amount", Decimal("1.00")),
                                 (PaymentAllocation, "amount", Decimal("1.00")),
                                 (Installment, "amount", Decimal("0.00")),
                                 (Assessment, "annual_amount", Decimal("1.00")),
                                 (AuditRecord, "action", "x")):
        with pytest.raises(ImmutableRowError) as err, world.uow() as uow:
            row = uow.session.scalars(select(model)).first()
            setattr(row, column, value)
            uow.session.flush()
        assert err.value.code == "immutable_row" and err.value.operation == "update"
        with pytest.raises(ImmutableRowError), world.uow() as uow:
            uow.session.delete(uow.session.scalars(select(model)).first())
            uow.session.flush()
    with world.uow() as uow:  # nothing changed
        assert uow.session.scalar(select(func.min(LedgerEntry.amount))) > Decimal("1.00")


def test_adopted_budget_version_is_never_edited(world):
    with pytest.raises(ImmutableRowError), world.uow() as uow:
        uow.session.get(BudgetVersion, world.version_id).reference = "changed"
        uow.session.flush()
    with pytest.raises(ImmutableRowError), world.uow() as uow:
        line = uow.session.scalars(select(BudgetLine)).first()
        line.amount = Decimal("1.00")
        uow.session.flush()
    with pytest.raises(ImmutableRowError), world.uow() as uow:
        uow.session.add(BudgetLine(version_id=world.version_id, position=9, kind="project",
                                   description_es="x", description_en="x",
                                   amount=Decimal(1), financed_by_assessments=Decimal(1)))
        uow.session.flush()


def test_payment_status_moves_forward_only(world):
    pid = pay(world, "A", "83.34", date(2026, 7, 2))
    with pytest.raises(ImmutableRowError), world.uow() as uow:
        uow.session.get(Payment, pid).status = states.PENDING
        uow.session.flush()
    with pytest.raises(ImmutableRowError), world.uow() as uow:
        uow.session.get(Payment, pid).amount = Decimal("1.00")
        uow.session.flush()
    with world.uow() as uow:
        uow.session.get(Payment, pid).status = states.PARTIALLY_REFUNDED
    with world.uow() as uow:
        assert uow.session.get(Payment, pid).status == states.PARTIALLY_REFUNDED


def test_post_payment_is_idempotent_and_stores_the_core_allocation(world):
    pid = pay(world, "B", "250.00", date(2026, 7, 3))
    with world.uow() as uow:
        again = ledger.post_payment(uow, pid)
        assert uow.session.scalar(select(func.count()).select_from(LedgerEntry).where(
            LedgerEntry.kind == "payment")) == 1
        lines = ledger.allocation_lines(uow, pid)
        assert again.legal_date == date(2026, 7, 3)
    assert [(ln.kind, ln.amount, ln.installment_number, ln.rule) for ln in lines] == \
        [("principal", Decimal("250.00"), 1, "R-A10")]
    with world.uow() as uow:
        p = Payment(parcel_id=world.parcel["A"], fiscal_year_id=world.fy_id,
                    status=states.PENDING, amount=Decimal("5.00"), idempotency_key="pending-1")
        uow.session.add(p)
        uow.session.flush()
        with pytest.raises(Conflict) as err:
            ledger.post_payment(uow, p.id)
        assert err.value.code == "payment_not_applied"


def test_a_payment_at_2330_on_day_g_is_timely(world):
    """23:30 on August 10 in San Juan is the 11th in UTC, yet the payment is timely (R-A6)."""
    pay(world, "A", "83.34", date(2026, 7, 2))
    pid = pay(world, "A", "83.34", date(2026, 8, 10), hh=23)
    with world.uow() as uow:
        p = uow.session.get(Payment, pid)
        assert p.completed_at.tzinfo is not None
        assert p.completed_at.date() == date(2026, 8, 11)  # UTC
        assert ledger.posted_entry(uow, pid).legal_date == date(2026, 8, 10)
        view = accounts.statement_for(uow, world.alice, world.parcel["A"],
                                      as_of=date(2026, 8, 31))
    assert view.statement.late_fees == 0 and view.statement.installments[1].status == "paid"


def test_costs_are_never_back_dated_before_a_posted_payment(world):
    pay(world, "B", "250.00", date(2026, 9, 5))
    with world.uow() as uow:
        with pytest.raises(InvalidInput) as err:
            ledger.record_cost(uow, _staff(uow, world), world.parcel["B"], world.fy_id,
                               Decimal("10.35"), date(2026, 9, 5), "certified_mail")
        assert err.value.code == "cost_before_posted_payment"
        assert err.value.params["last"] == date(2026, 9, 5)
        with pytest.raises(InvalidInput):  # not in the future either
            ledger.record_cost(uow, _staff(uow, world), world.parcel["B"], world.fy_id,
                               Decimal("10.35"), date(2026, 12, 5), "certified_mail")
        entry = ledger.record_cost(uow, _staff(uow, world), world.parcel["B"], world.fy_id,
                                   Decimal("10.35"), date(2026, 9, 6), "certified_mail")
        assert entry.rule == "R-A9" and entry.direction == "debit"


def test_a_late_posting_is_not_back_dated(world):
    """A payment completed on the 5th but posted after one of the 8th is posted on the 8th."""
    pay(world, "B", "250.00", date(2026, 7, 8))
    with world.uow() as uow:
        p = Payment(parcel_id=world.parcel["B"], fiscal_year_id=world.fy_id,
                    status=states.SUCCEEDED, amount=Decimal("100.00"),
                    idempotency_key="late-1", completed_at=at(date(2026, 7, 5)))
        uow.session.add(p)
        uow.session.flush()
        entry = ledger.post_payment(uow, p.id)
        assert entry.legal_date == date(2026, 7, 8)
        rec = uow.session.scalars(select(AuditRecord).where(
            AuditRecord.action == "payment.posted").order_by(AuditRecord.id.desc())).first()
        assert rec.after["late_posting"] is True
        assert ledger.verify_allocations(uow, world.parcel["B"], world.fy_id) == []


def test_invariant_holds_over_a_busy_account(world):
    """DESIGN.md 1: after payments (late, partial, early), costs, adjustments, a reversal and
    a refund, recomputing the statement reproduces every stored allocation."""
    b = world.parcel["B"]
    pay(world, "B", "250.00", date(2026, 7, 3))
    pay(world, "B", "100.00", date(2026, 8, 20))  # late and partial
    with clock.fixed(at(date(2026, 9, 22))), world.uow() as uow:
        ledger.record_cost(uow, _staff(uow, world), b, world.fy_id, Decimal("10.35"),
                           date(2026, 9, 22), "certified_mail")
    pid = pay(world, "B", "700.00", date(2026, 10, 2))  # pays arrears and ahead
    with clock.fixed(at(date(2026, 10, 15))), world.uow() as uow:
        cost = ledger.record_cost(uow, _staff(uow, world), b, world.fy_id, Decimal("25.00"),
                                  date(2026, 10, 15), "attorney_fees")
        cost_id = cost.id
    with clock.fixed(at(date(2026, 10, 16))), world.uow() as uow:
        ledger.reverse_entry(uow, _staff(uow, world), cost_id, "recorded by mistake")
        with pytest.raises(Conflict):
            ledger.reverse_entry(uow, _staff(uow, world), cost_id, "twice")
    with clock.fixed(at(date(2026, 10, 20))), world.uow() as uow:
        ledger.record_adjustment(uow, _staff(uow, world), b, world.fy_id, Decimal("5.00"),
                                 "credit", "goodwill")
    pay(world, "B", "50.00", date(2026, 11, 3))
    with clock.fixed(at(date(2026, 11, 3, ))), world.uow() as uow:
        ledger.record_refund(uow, _staff(uow, world), pid, Decimal("20.00"), "overpaid")
        assert uow.session.get(Payment, pid).status == states.PARTIALLY_REFUNDED
    pay(world, "B", "300.00", date(2026, 11, 25))
    with world.uow() as uow:
        assert ledger.verify_allocations(uow, b, world.fy_id) == []
        stored = uow.session.scalar(select(func.count()).select_from(PaymentAllocation))
        assert stored >= 6
        kinds = set(uow.session.scalars(select(PaymentAllocation.kind)))
        assert {"interest", "late_fee", "cost", "principal"} <= kinds
        # The refund made on the day of a posted payment is dated the next day.
        refund = uow.session.scalar(select(LedgerEntry).where(LedgerEntry.kind == "refund"))
        assert refund.legal_date == date(2026, 11, 4)
        assert uow.session.scalar(select(func.count()).select_from(AuditRecord).where(
            AuditRecord.action.in_(["payment.posted", "cost.recorded", "entry.reversed",
                                    "adjustment.recorded", "payment.refunded"]))) == 10


def test_the_invariant_check_is_not_vacuous(world):
    pid = pay(world, "B", "250.00", date(2026, 7, 3))
    with world.uow() as uow:  # tamper below the ORM (the guard protects the ORM only)
        uow.session.execute(update(PaymentAllocation).where(PaymentAllocation.payment_id == pid)
                            .values(installment_number=2))
    with world.uow() as uow:
        problems = ledger.verify_allocations(uow, world.parcel["B"], world.fy_id)
    assert len(problems) == 1 and f"payment {pid}" in problems[0]


def test_office_payment_is_recorded_and_posted(world):
    with clock.fixed(at(date(2026, 7, 6))), world.uow() as uow:
        p = ledger.record_office_payment(uow, _staff(uow, world), world.parcel["A"],
                                         world.fy_id, Decimal("83.34"), "check",
                                         reference="1234")
        assert p.provider == "office" and ledger.posted_entry(uow, p.id) is not None
        assert uow.session.scalar(select(func.count()).select_from(AuditRecord).where(
            AuditRecord.action == "payment.recorded_at_office")) == 1


def test_a_bounced_lump_sum_takes_its_discount_with_it(world):
    """A failed bank debit is a reversal dated when it fails (DESIGN.md 1): the lump sum's
    R-A11 discount is reversed with it, so the whole year is owed again."""
    pid = pay(world, "A", "980.00", date(2026, 6, 25), lump_sum=True)
    with clock.fixed(at(date(2026, 7, 2))), world.uow() as uow:
        entry = ledger.posted_entry(uow, pid)
        ledger.reverse_entry(uow, None, entry.id, "ach_failed")
    with clock.fixed(at(date(2026, 7, 2))), world.uow() as uow:
        view = accounts.statement_for(uow, world.alice, world.parcel["A"])
        reversals = uow.session.scalars(select(LedgerEntry).where(
            LedgerEntry.kind == "reversal").order_by(LedgerEntry.id)).all()
        assert [(r.amount, r.legal_date) for r in reversals] == \
            [(Decimal("980.00"), date(2026, 7, 2)), (Decimal("20.00"), date(2026, 7, 2))]
        assert view.statement.payoff == Decimal("1000.00")
        assert ledger.verify_allocations(uow, world.parcel["A"], world.fy_id) == []
