"""R-B16's schedule and state, as properties over many plans (hypothesis): the payments sum to
the debt; after the down payment they differ by at most one cent, the larger first; each
last day is a working day on or after its due date, within the days a roll-over can take;
and a plan whose payments are each paid on its last day is never in default."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from portal.core.calendar import is_working_day
from portal.core.payment_plan import plan_status, schedule

debts = st.integers(min_value=1, max_value=10**9).map(lambda c: Decimal(c) / 100)
days = st.dates(min_value=date(2026, 1, 1), max_value=date(2030, 12, 31))
rates = st.sampled_from([Decimal(0), Decimal("0.05"), Decimal("0.10"), Decimal("0.333")])


@settings(max_examples=200, deadline=None)
@given(debt=debts, count=st.integers(min_value=1, max_value=36), first=days, rate=rates)
def test_the_schedule_sums_to_the_debt_and_rolls_to_working_days(debt, count, first, rate):
    plan = schedule(debt, count, first, rate)
    amounts = [p.amount for p in plan.payments]
    assert sum(amounts) == debt and len(amounts) == count
    rest = amounts[1:] if plan.down_payment > 0 else amounts
    assert max(rest) - min(rest) <= Decimal("0.01")
    assert rest == sorted(rest, reverse=True)  # the extra cents to the earliest
    for p in plan.payments:
        assert p.due_date <= p.last_day <= p.due_date + timedelta(days=5)
        assert is_working_day(p.last_day)
        assert p.due_date == p.last_day or not is_working_day(p.due_date)


@settings(max_examples=100, deadline=None)
@given(debt=debts, count=st.integers(min_value=1, max_value=24), first=days, rate=rates)
def test_paying_each_payment_on_its_last_day_keeps_the_plan(debt, count, first, rate):
    plan = schedule(debt, count, first, rate)
    paid = [(p.last_day, p.amount) for p in plan.payments]
    end = plan.payments[-1].last_day + timedelta(days=1)
    st_ = plan_status(plan, paid, end)
    assert st_.state == "completed" and st_.balance == 0
    short = [*paid[:-1], (paid[-1][0], paid[-1][1] - Decimal("0.01"))] \
        if paid[-1][1] > 0 else paid
    if short != paid:
        missed = plan_status(plan, short, end, Decimal("12.00"))
        assert missed.state == "defaulted" and missed.missed == count
        assert missed.due_now == Decimal("0.01") + Decimal("12.00")


def test_calc_help_lists_payment_plan_with_its_rule_ids():
    """`portal calc --help` names payment_plan with R-B16 and R-B11 on its line."""
    from click.testing import CliRunner

    from portal.cli import main
    text = CliRunner().invoke(main, ["calc", "--help"]).output
    line = next(ln for ln in text.splitlines() if ln.strip().startswith("payment_plan"))
    assert "R-B16" in line and "R-B11" in line, line
