"""A bill file's line (portal.core.bill): read from the account's offer — the amount through
the last installment covered is the offer's `amount_through` (what the payments charge for
"installments through N"), the last timely day, the lump sum only when eligible — and the
exceptions a payment later reports."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from portal.core import bill
from portal.core.installments import schedule
from portal.core.offer import Account, Choice, offer, price
from portal.core.statement import Payment, StatementRules

FY = date(2026, 7, 1)
RULES = StatementRules(lump_sum_discount_rate=Decimal("0.02"))


def account(payments: list[Payment] | None = None) -> Account:
    return Account("k", "1", "A", "2026-2027", schedule(Decimal("1200.00"), FY, 12, None),
                   tuple(payments or ()), rules=RULES)


def test_the_whole_year_before_anything_is_due() -> None:
    o = offer(account(), date(2026, 6, 20))
    ln = bill.line(o)
    assert ln.through == 12 and ln.installments == tuple(range(1, 13))
    assert ln.amount == Decimal("1200.00")
    assert ln.last_timely_day == min(i.last_timely_day for i in o.installments)
    assert o.lump_sum.eligible and (ln.lump_sum, ln.lump_sum_by) == (
        o.lump_sum.amount, o.lump_sum.deadline)
    # paying the line is the payments' own "installments through 12", at the same amount
    assert price(o, Choice("k", "installments", through=12)).amount == ln.amount


def test_up_to_a_due_date() -> None:
    o = offer(account(), date(2026, 6, 20))
    ln = bill.line(o, date(2026, 9, 1))
    assert ln.through == 3 and ln.amount == Decimal("300.00")
    assert ln.amount == next(i for i in o.installments if i.number == 3).amount_through


def test_late_installments_are_due_today_and_included() -> None:
    o = offer(account(), date(2026, 11, 30))
    ln = bill.line(o, date(2026, 12, 15))
    assert ln.through == 6 and ln.last_timely_day == date(2026, 11, 30)
    assert ln.lump_sum is None  # late: no discount
    assert ln.amount == next(i for i in o.installments if i.number == 6).amount_through
    assert ln.amount > Decimal("600.00")  # late fees and interest first (R-A7, R-A8, R-A10)


def test_nothing_owed() -> None:
    paid = account([Payment(date(2026, 7, 1), Decimal("1200.00"))])
    ln = bill.line(offer(paid, date(2026, 8, 1)))
    assert not ln.owed and ln.through is None and ln.amount == 0


def test_exceptions() -> None:
    now = bill.line(offer(account(), date(2026, 6, 20)))
    nothing = bill.Line(None, Decimal("0.00"), None, (), None, None)
    assert bill.exception(now.amount, now.through, now, paid_by_you=False,
                          paid_by_other=False) is None
    assert bill.exception(now.amount + 1, now.through, now, paid_by_you=False,
                          paid_by_other=False) == "changed"
    assert bill.exception(now.amount, now.through, nothing, paid_by_you=True,
                          paid_by_other=False) == "paid_by_you"
    assert bill.exception(now.amount, now.through, nothing, paid_by_you=False,
                          paid_by_other=True) == "paid_by_owner"
    assert bill.exception(now.amount, now.through, nothing, paid_by_you=False,
                          paid_by_other=False) == "paid"
    # part paid by the owner since: left out, not paid twice
    assert bill.exception(now.amount, now.through, now, paid_by_you=False,
                          paid_by_other=True) == "paid_by_owner"
