"""The collection timeline's own helpers (the law cases are tests/cases/collection_timeline.yaml):
R-A17's mailing deadline and run days, the interest per day, and the trace's sentences."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from portal.core.collection_timeline import interest_per_day, mail_by, next_run_day
from portal.core.installments import Installment
from portal.core.offer import Account
from portal.core.statement import Payment, StatementRules


def test_a_queued_demand_is_mailed_within_five_working_days():
    """R-A17 (policy): from Wednesday 2026-11-18, Thursday 11-19 is Puerto Rican Identity Day,
    so the five working days are 11-20, 11-23, 11-24, 11-25, 11-27 (11-26 Thanksgiving)."""
    assert mail_by(date(2026, 11, 18)) == date(2026, 11, 27)
    assert mail_by(date(2026, 11, 18), frozenset({date(2026, 11, 20)})) == date(2026, 11, 30)


def test_the_run_day_is_the_day_after_a_rolled_day_g():
    """R-A6, R-A17: October's day G (10-10 Sat, 10-12 Columbus Day) rolls to 10-13: the run
    is on 10-14, and on the run day itself it is that day (revision 3: a demand is queued the
    day after each month's rolled day G); the day after, the next run is November's (11-10
    Tue: 11-11)."""
    assert next_run_day(date(2026, 10, 2), 10) == date(2026, 10, 14)
    assert next_run_day(date(2026, 10, 14), 10) == date(2026, 10, 14)
    assert next_run_day(date(2026, 10, 15), 10) == date(2026, 11, 11)
    assert next_run_day(date(2026, 11, 11), 10) == date(2026, 11, 11)
    # January 2027's day G is Sunday 1-10: it rolls to Monday 1-11 (a working day in the
    # `holidays` calendar of Puerto Rico), so the run is 1-12.
    assert next_run_day(date(2026, 12, 20), 10) == date(2027, 1, 12)


def test_interest_per_day_is_the_rate_on_delinquent_principal_over_365():
    """R-A8, R-A17: 300.00 delinquent at 10 %: 30.00 a year, 0.0822 a day: 0.08."""
    items = [Installment(n, date(2026, m, 1), Decimal("100.00")) for n, m in
             zip(range(1, 6), range(8, 13))]
    acct = Account("k", "p", "l", "2026-2027", items, [Payment(date(2026, 8, 5),
                                                                Decimal("100.00"))],
                   rules=StatementRules())
    st = acct.statement(date(2026, 11, 30))
    assert st.delinquent_principal == Decimal("300.00")
    assert interest_per_day(st) == Decimal("0.08")
