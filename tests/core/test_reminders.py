"""portal.core.reminders: which reminders an account is due on a day, with the offer's
amounts. Each test names its days: the core takes the day, never the clock."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from portal.core import reminders as r
from portal.core.collection import Demand
from portal.core.installments import schedule
from portal.core.offer import Account, offer
from portal.core.statement import Payment, StatementRules

FY = date(2026, 7, 1)
INSTALLMENTS = schedule(Decimal("1200.00"), FY, 12)


RULES = StatementRules(lump_sum_discount_rate=Decimal("0.02"))


def account(*payments: Payment) -> Account:
    return Account("1", "1", "060-000-001-01", "2026-2027", INSTALLMENTS, list(payments),
                   rules=RULES)


def kinds(reminders: list[r.Reminder]) -> list[tuple[str, date]]:
    return [(x.kind, x.day) for x in reminders]


def test_installment_due_from_days_before_through_the_last_timely_day():
    a = account(Payment(date(2026, 7, 5), Decimal("400.00")))  # 1-4 paid
    last = date(2026, 11, 10)  # installment 5's last timely day (R-A6)
    assert r.due(a, date(2026, 11, 2)) == []
    for day in (date(2026, 11, 3), last):
        (one,) = r.due(a, day)
        assert (one.kind, one.day, one.numbers) == (r.INSTALLMENT_DUE, last, (5,))
        # the offer's figure for that day: what pays installment 5 through on 10 November
        assert one.amount == offer(a, last).installments[0].amount_through == Decimal("100.00")
    assert kinds(r.due(a, date(2026, 10, 27), days_before=14)) == [(r.INSTALLMENT_DUE, last)]
    assert r.due(a, date(2026, 10, 27), days_before=7) == []


def test_nothing_for_what_is_paid():
    a = account(Payment(date(2026, 7, 5), Decimal("500.00")))  # 1-5 paid
    assert r.due(a, date(2026, 11, 5)) == []
    assert r.due(a, date(2026, 11, 11)) == []


def test_late_installment_says_what_was_added():
    a = account(Payment(date(2026, 7, 5), Decimal("400.00")))
    (late,) = r.due(a, date(2026, 11, 11))
    assert (late.kind, late.day, late.numbers) == (r.INSTALLMENT_LATE, date(2026, 11, 11), (5,))
    assert late.last_timely_day == date(2026, 11, 10)
    assert late.late_fee == Decimal("5.00") and late.late_fee_rate == Decimal("0.05")
    st = offer(a, date(2026, 11, 11))
    assert late.amount == st.installments[0].amount_through  # fee and interest to today
    # within the window (a day the job did not run), then no more
    assert kinds(r.due(a, date(2026, 11, 13))) == [(r.INSTALLMENT_LATE, date(2026, 11, 11))]
    assert [x for x in r.due(a, date(2026, 11, 14)) if x.kind == r.INSTALLMENT_LATE] == []


def test_lump_sum_deadline_while_the_discount_is_offered():
    a = account()
    (lump,) = [x for x in r.due(a, date(2026, 6, 28)) if x.kind == r.LUMP_SUM_DEADLINE]
    o = offer(a, lump.day)
    assert lump.amount == o.lump_sum.amount and lump.discount == o.lump_sum.discount > 0
    paid = account(Payment(date(2026, 6, 27), Decimal("100.00")))  # not the first any more
    assert [x for x in r.due(paid, date(2026, 6, 28)) if x.kind == r.LUMP_SUM_DEADLINE] == []


def test_demand_last_day_gives_the_amount_that_stops_the_claim():
    a = account()  # nothing paid: 1 and 2 delinquent by the mailing
    demand = Demand(date(2026, 8, 20), Decimal("210.00"), None)
    o = offer(a, date(2026, 8, 30), demand=demand)
    last = o.stop.last_day
    (stop,) = [x for x in r.due(a, last, demand=demand) if x.kind == r.DEMAND_LAST_DAY]
    assert stop.day == last and stop.amount == offer(a, last, demand=demand).stop.by_last_day
    assert stop.court_claim_from == o.stop.court_claim_from
    # paid in full: nothing
    paid = account(Payment(date(2026, 8, 25), Decimal("1300.00")))
    assert [x for x in r.due(paid, last, demand=demand) if x.kind == r.DEMAND_LAST_DAY] == []


def test_covered_installments_are_left_out():
    a = account(Payment(date(2026, 7, 5), Decimal("400.00")))
    due = r.due(a, date(2026, 11, 5))
    assert r.without(due, {5}) == []
    assert r.without(due, {6}) == due


def test_calendar_lists_every_last_timely_day_and_the_deadline():
    a = account(Payment(date(2026, 7, 5), Decimal("100.00")))
    days = r.calendar(a, date(2026, 7, 6))
    installment_days = [d for d in days if d.kind == r.INSTALLMENT_DUE]
    assert len(installment_days) == 12
    assert installment_days[0].amount == 0  # paid
    assert installment_days[1].day == date(2026, 8, 10)
    assert [d.kind for d in days].count(r.LUMP_SUM_DEADLINE) == 1
