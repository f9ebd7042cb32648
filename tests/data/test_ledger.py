"""Money facts: append-only, posted once, allocated by the core; the invariant of DESIGN.md 1."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import func, select, update

from portal import clock
from portal.accounts import facts, ledger, statements
from portal.accounts.errors import Conflict, InvalidInput
from portal.core import payment_states as states
from portal.core.statement import Cost, Refund
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
from portal.payments import service as payment_service
from tests.support.clock import at
from tests.support.world import fail_debit, pay


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
        view = statements.statement_for(uow, world.alice, world.parcel["A"],
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
        # A refund is dated when it is made, even on the day of a posted payment: the core
        # takes it from the credit after that day's payments.
        refund = uow.session.scalar(select(LedgerEntry).where(LedgerEntry.kind == "refund"))
        assert refund.legal_date == date(2026, 11, 3)
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
        view = statements.statement_for(uow, world.alice, world.parcel["A"])
        reversals = uow.session.scalars(select(LedgerEntry).where(
            LedgerEntry.kind == "reversal").order_by(LedgerEntry.id)).all()
        assert [(r.amount, r.legal_date) for r in reversals] == \
            [(Decimal("980.00"), date(2026, 7, 2)), (Decimal("20.00"), date(2026, 7, 2))]
        assert view.statement.payoff == Decimal("1000.00")
        assert ledger.verify_allocations(uow, world.parcel["A"], world.fy_id) == []


# --- corrections: failed debits, adjustments, refunds, reversals (RULES.md D, DESIGN.md 1) --

FIGURES = ("interest", "late_fees", "costs", "credit", "total_due_now", "payoff")


def _figures(st):
    return {name: getattr(st, name) for name in FIGURES}


def _account(uow, world, key):
    from portal.models import FiscalYear
    return facts.load(uow, world.parcel[key], uow.session.get(FiscalYear, world.fy_id))


def _without(world, key, day, payment_id=None, entry_id=None):
    """The statement as of `day` over the facts as if the payment (or the ledger entry) had
    never been: what "never received" / "never recorded" must give."""
    from portal.core.statement import evaluate
    with world.uow() as uow:
        f = _account(uow, world, key)
        c = f.core(day)

        def kept(values, rows):
            return [v for v, e in zip(values, rows)
                    if e.payment_id != payment_id and e.id != entry_id]
        return evaluate(day, f.installments, kept(c.payments, c.payment_entries),
                        kept(c.costs, c.cost_entries), f.rules, f.annual,
                        adjustments=kept(c.adjustments, c.adjustment_entries),
                        refunds=c.refunds)


def _pages(world, key, user, day):
    """What every page says on `day` (the clock set to 18:00 that day): the parcel page
    (both reads), the dashboard and the pay page; they must agree. Returns the figures."""
    pid = world.parcel[key]
    with clock.fixed(at(day, 18)), world.uow() as uow:
        views = [statements.statement_for(uow, user, pid, rows=rows) for rows in (False, True)]
        [row] = [s for s in statements.dashboard(uow, user) if s.parcel.id == pid]
        [pay_page] = [a for a in payment_service.payable_accounts(uow, user, parcel_id=pid)
                      if a.fiscal_year.id == world.fy_id]
    got = [_figures(v.statement) for v in views] + [_figures(row.statement),
                                                    _figures(pay_page.offer.statement)]
    assert all(g == got[0] for g in got), got
    assert pay_page.offer.payoff == views[0].statement.payoff == views[1].statement.payoff
    assert pay_page.offer.payoff_through_amount == views[1].payoff_amount
    return got[0]


def test_a_failed_debit_counts_until_the_day_the_failure_is_known(world):
    """A bank debit made on August 5 fails, known on August 20 (DESIGN.md 1): until the 19th
    every page counts it; from the 20th (not the 21st) it was never received (R-A6), so
    August's late fee and interest run as if it had not been made."""
    pay(world, "A", "83.34", date(2026, 7, 2))
    ach = pay(world, "A", "83.34", date(2026, 8, 5))
    before = _pages(world, "A", world.alice, date(2026, 8, 19))
    assert before["late_fees"] == 0 and before["total_due_now"] == 0
    rev_id = fail_debit(world, ach, date(2026, 8, 20), hh=9)
    with world.uow() as uow:
        rev = uow.session.get(LedgerEntry, rev_id)
        entry = ledger.posted_entry(uow, ach)
        assert (rev.kind, rev.direction, rev.amount, rev.legal_date, rev.reverses_id) == \
            ("reversal", "debit", Decimal("83.34"), date(2026, 8, 20), entry.id)
        f = _account(uow, world, "A")
        assert [p.reversed_on for p in f.payments] == [None, date(2026, 8, 20)]
        assert f.costs == []  # a reversal is not a cost
        assert ledger.verify_allocations(uow, world.parcel["A"], world.fy_id) == []
        assert len(ledger.allocation_lines(uow, ach)) == 1  # its receipt stays as issued
    after = _pages(world, "A", world.alice, date(2026, 8, 20))
    assert after == _figures(_without(world, "A", date(2026, 8, 20), payment_id=ach))
    assert after["late_fees"] > 0 and after["interest"] > 0
    assert after["payoff"] == before["payoff"] + Decimal("83.34") + after["late_fees"] + \
        after["interest"]
    # Looked at as of a day before the failure, the debit still counts.
    with clock.fixed(at(date(2026, 8, 25))), world.uow() as uow:
        past = statements.statement_for(uow, world.alice, world.parcel["A"],
                                      as_of=date(2026, 8, 19))
    assert _figures(past.statement) == before


@pytest.mark.parametrize("failure_first", [False, True])
def test_a_failure_known_the_day_of_a_later_payment(world, failure_first):
    """On August 20 a card payment is posted and the August 5 bank debit is known to have
    failed, in either order. Each payment's receipt is what the core said when it was posted
    (the failure counts from its own posting on), and the replay reproduces both."""
    pay(world, "A", "83.34", date(2026, 7, 2))
    ach = pay(world, "A", "83.34", date(2026, 8, 5))
    if failure_first:
        fail_debit(world, ach, date(2026, 8, 20), hh=9)
    card = pay(world, "A", "100.00", date(2026, 8, 20), hh=10)
    if not failure_first:
        fail_debit(world, ach, date(2026, 8, 20), hh=15)
    with world.uow() as uow:
        lines = [(ln.kind, ln.installment_number) for ln in ledger.allocation_lines(uow, card)]
        assert ledger.verify_allocations(uow, world.parcel["A"], world.fy_id) == []
    if failure_first:  # August is owed again: interest and its late fee first (R-A10)
        assert lines == [("interest", 2), ("late_fee", 2), ("principal", 2), ("principal", 3)]
    else:  # posted while the debit still counted: September and October
        assert lines == [("principal", 3), ("principal", 4)]
    after = _pages(world, "A", world.alice, date(2026, 8, 20))
    assert after == _figures(_without(world, "A", date(2026, 8, 20), payment_id=ach))


def test_a_bounced_lump_sum_on_the_day_of_the_failure_owes_the_whole_year(world):
    pid = pay(world, "A", "980.00", date(2026, 6, 25), lump_sum=True)
    fail_debit(world, pid, date(2026, 6, 28))
    figures = _pages(world, "A", world.alice, date(2026, 6, 28))
    assert figures["payoff"] == Decimal("1000.00")
    with world.uow() as uow:  # its discount entry is reversed with it, the same day
        back = uow.session.scalars(select(LedgerEntry).where(
            LedgerEntry.kind == "reversal", LedgerEntry.rule == "R-A11",
            LedgerEntry.reverses_id.isnot(None))).all()
        assert {(r.amount, r.legal_date) for r in back} >= {(Decimal("20.00"),
                                                               date(2026, 6, 28))}
        assert ledger.verify_allocations(uow, world.parcel["A"], world.fy_id) == []


def test_a_credit_adjustment_is_not_principal_paid_for_the_lump_sum(world):
    """A correction credited before the year starts is applied like a payment, yet the lump
    sum paid afterwards still earns R-A11's discount (no principal was paid before it)."""
    with clock.fixed(at(date(2026, 6, 20))), world.uow() as uow:
        adj = ledger.record_adjustment(uow, _staff(uow, world), world.parcel["A"], world.fy_id,
                                       Decimal("30.00"), "credit", "valuation corrected")
        assert (adj.legal_date, adj.direction) == (date(2026, 6, 20), "credit")
        f = _account(uow, world, "A")
        assert [a.amount for a in f.adjustments] == [Decimal("30.00")] and f.payments == []
    assert _pages(world, "A", world.alice, date(2026, 6, 20))["payoff"] == Decimal("970.00")
    pid = pay(world, "A", "950.00", date(2026, 6, 25), lump_sum=True)  # 1000 - 20 - 30
    with world.uow() as uow:
        kinds = {ln.kind for ln in ledger.allocation_lines(uow, pid)}
        assert "discount" in kinds
        assert ledger.verify_allocations(uow, world.parcel["A"], world.fy_id) == []
    assert _pages(world, "A", world.alice, date(2026, 6, 25))["payoff"] == 0


def test_an_adjustment_on_the_day_of_a_posted_payment_takes_the_next_day(world):
    """The core applies a day's costs and adjustments before its payments: a correction made
    after a payment was posted today is dated tomorrow, never before that payment."""
    pay(world, "B", "250.00", date(2026, 7, 3))
    with clock.fixed(at(date(2026, 7, 3), 15)), world.uow() as uow:
        staff = _staff(uow, world)
        credit = ledger.record_adjustment(uow, staff, world.parcel["B"], world.fy_id,
                                          Decimal("10.00"), "credit", "overbilled")
        debit = ledger.record_adjustment(uow, staff, world.parcel["B"], world.fy_id,
                                         Decimal("4.00"), "debit", "underbilled")
        assert credit.legal_date == debit.legal_date == date(2026, 7, 4)
    with clock.fixed(at(date(2026, 7, 5))), world.uow() as uow:
        f = _account(uow, world, "B")
        assert [c.amount for c in f.costs] == [Decimal("4.00")]  # a debit stays a cost
        assert [a.amount for a in f.adjustments] == [Decimal("10.00")]
        assert ledger.verify_allocations(uow, world.parcel["B"], world.fy_id) == []
    figures = _pages(world, "B", world.bob, date(2026, 7, 5))
    assert figures["payoff"] == Decimal("3000.00") - 250 - 10 + 4


def test_a_refund_of_credit_is_taken_after_the_days_payments(world):
    """Paid $50 more than the year on July 3 and given back the same day: the refund is dated
    that day (not the next), taken from the credit after the day's payments; every page
    agrees."""
    pid = pay(world, "B", "3050.00", date(2026, 7, 3), hh=9)
    assert _pages(world, "B", world.bob, date(2026, 7, 3))["credit"] == Decimal("50.00")
    with clock.fixed(at(date(2026, 7, 3), 15)), world.uow() as uow:
        refund = ledger.record_refund(uow, _staff(uow, world), pid, Decimal("50.00"),
                                      "overpaid")
        assert refund.legal_date == date(2026, 7, 3)
        f = _account(uow, world, "B")
        assert f.refunds == [Refund(date(2026, 7, 3), Decimal("50.00"))] and f.costs == []
    figures = _pages(world, "B", world.bob, date(2026, 7, 3))
    assert (figures["credit"], figures["payoff"]) == (0, 0)
    # A later payment the same day is applied before that day's refunds: it is credit.
    pay(world, "B", "20.00", date(2026, 7, 3), hh=16)
    assert _pages(world, "B", world.bob, date(2026, 7, 3))["credit"] == Decimal("20.00")
    with world.uow() as uow:
        assert ledger.verify_allocations(uow, world.parcel["B"], world.fy_id) == []


def test_a_refund_beyond_the_credit_is_owed_again_from_the_next_day(world):
    """$100 of a payment that paid installments is given back (at the provider): there is no
    credit to take it from, so it is owed again, as a cost dated the next day."""
    pid = pay(world, "B", "250.00", date(2026, 7, 3))
    with clock.fixed(at(date(2026, 7, 6))), world.uow() as uow:
        entry = ledger.record_refund(uow, None, pid, Decimal("100.00"), "refunded at the bank")
        f = _account(uow, world, "B")
        assert f.refunds == [] and f.costs == [Cost(date(2026, 7, 7), Decimal("100.00"),
                                                     "refund")]
        assert f.debits == [entry]  # the row behind that cost
    assert _pages(world, "B", world.bob, date(2026, 7, 6))["payoff"] == Decimal("2750.00")
    figures = _pages(world, "B", world.bob, date(2026, 7, 7))
    assert (figures["costs"], figures["payoff"]) == (Decimal("100.00"), Decimal("2850.00"))
    later = pay(world, "B", "100.00", date(2026, 7, 8))
    with world.uow() as uow:
        [line] = ledger.allocation_lines(uow, later)
        assert (line.kind, line.cost_entry_id) == ("cost", entry.id)
        assert ledger.verify_allocations(uow, world.parcel["B"], world.fy_id) == []


def test_a_failed_debit_after_a_refund_of_the_credit_it_made(world):
    """A bank debit pays the whole year; a card payment then becomes credit and is refunded;
    then the bank debit fails. The card payment now paid July, so the refund is no longer of
    a credit: it is owed again, and no page fails."""
    ach = pay(world, "A", "1000.00", date(2026, 7, 2))
    card = pay(world, "A", "100.00", date(2026, 7, 3))
    with clock.fixed(at(date(2026, 7, 4))), world.uow() as uow:
        ledger.record_refund(uow, _staff(uow, world), card, Decimal("100.00"), "credit")
    assert _pages(world, "A", world.alice, date(2026, 7, 4))["payoff"] == 0
    fail_debit(world, ach, date(2026, 7, 8))
    figures = _pages(world, "A", world.alice, date(2026, 7, 8))
    assert (figures["costs"], figures["payoff"]) == (Decimal("100.00"), Decimal("1000.00"))
    with world.uow() as uow:
        assert ledger.verify_allocations(uow, world.parcel["A"], world.fy_id) == []


def test_a_reversed_cost_or_adjustment_drops_out_from_the_reversal_date(world):
    """A cost recorded by mistake and a credit adjustment made by mistake, each reversed:
    from the reversal's date the statement is the one without them (as if never recorded);
    before it they count. Receipts issued meanwhile stay as issued."""
    b = world.parcel["B"]
    with clock.fixed(at(date(2026, 9, 22))), world.uow() as uow:
        cost = ledger.record_cost(uow, _staff(uow, world), b, world.fy_id, Decimal("25.00"),
                                  date(2026, 9, 22), "attorney_fees")
    pid = pay(world, "B", "300.00", date(2026, 9, 25))
    with world.uow() as uow:
        assert ("cost", Decimal("25.00")) in [(ln.kind, ln.amount)
                                              for ln in ledger.allocation_lines(uow, pid)]
    with clock.fixed(at(date(2026, 9, 28))), world.uow() as uow:
        ledger.reverse_entry(uow, _staff(uow, world), cost.id, "recorded by mistake")
    figures = _pages(world, "B", world.bob, date(2026, 9, 28))
    assert figures == _figures(_without(world, "B", date(2026, 9, 28), entry_id=cost.id))
    with clock.fixed(at(date(2026, 9, 29))), world.uow() as uow:
        assert _account(uow, world, "B").debits == []
        # The receipt issued before still names the cost it paid.
        from portal.models import Payment as PaymentRow
        from portal.payments import receipts
        receipt = receipts.build_for_payment(uow, uow.session.get(PaymentRow, pid))
        assert receipt.parts[0].cost_descriptions == {cost.id: "attorney_fees"}
        st = statements.statement_for(uow, world.bob, b).statement
        assert all(ln.kind != "cost" for a in st.applications for ln in a.lines)
        adj = ledger.record_adjustment(uow, _staff(uow, world), b, world.fy_id,
                                       Decimal("40.00"), "credit", "typed twice")
    counted = _pages(world, "B", world.bob, date(2026, 9, 30))
    with clock.fixed(at(date(2026, 10, 1))), world.uow() as uow:
        ledger.reverse_entry(uow, _staff(uow, world), adj.id, "typed twice")
    gone = _pages(world, "B", world.bob, date(2026, 10, 1))
    assert gone == _figures(_without(world, "B", date(2026, 10, 1), entry_id=adj.id))
    unmade = _figures(_without(world, "B", date(2026, 9, 30), entry_id=adj.id))
    # It counted before its reversal: $40 less, and a cent of interest less with it (R-A8).
    assert Decimal("40.00") <= unmade["payoff"] - counted["payoff"] <= Decimal("40.05")
    pay(world, "B", "50.00", date(2026, 10, 2))
    with world.uow() as uow:
        assert ledger.verify_allocations(uow, b, world.fy_id) == []
