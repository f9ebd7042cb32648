"""Properties of the one offer (portal/core/offer.py) over generated accounts (hypothesis).

Accounts with fixed-date and first-installment lump-sum deadlines, payments (some reversed
later, R-A6), costs (R-A9), credits, adjustments (a decrease by amendment) and an amendment's
added installment (R-A5). For each: every figure the pages show is what the pay page charges
and pays what it says — due now leaves nothing due now, "through N" pays N, the payoff leaves
nothing, the payoff good through a later day leaves nothing on that day, the quoted lump sum
earns the discount (R-A11), and the amount that stops the court claim leaves nothing owed on
the demanded items (R-A18) while one cent less does not.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from portal.core.collection import Demand
from portal.core.installments import Installment, schedule
from portal.core.offer import Account, Choice, ChoiceError, offer, price
from portal.core.statement import Adjustment, Cost, Payment, StatementRules

CENT = Decimal("0.01")
FY = date(2026, 7, 1)
SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def money(lo: int, hi: int) -> st.SearchStrategy[Decimal]:
    return st.integers(lo, hi).map(lambda n: Decimal(n).scaleb(-2))


def day(lo: date, hi: date) -> st.SearchStrategy[date]:
    return st.integers(0, max(0, (hi - lo).days)).map(lambda n: lo + timedelta(days=n))


@st.composite
def accounts(draw: st.DrawFn) -> tuple[Account, date]:
    annual = draw(money(1, 600_000))
    notice = draw(st.none() | day(date(2026, 6, 1), date(2026, 12, 15)))
    installments = list(schedule(annual, FY, 12, notice))
    if draw(st.booleans()):  # an amendment's increase after the year's installments
        last = max(i.number for i in installments)
        installments.append(Installment(last + 1, date(2027, 6, 1), draw(money(1, 50_000))))
    rules = StatementRules(
        grace_day=draw(st.integers(1, 28)),
        late_fee_rate=draw(st.sampled_from([Decimal("0"), Decimal("0.05")])),
        interest_rate=draw(st.sampled_from([Decimal("0"), Decimal("0.085"), Decimal("0.10")])),
        lump_sum_discount_rate=draw(st.sampled_from([Decimal("0"), Decimal("0.02")])),
        lump_sum_deadline=draw(st.none() | day(date(2026, 7, 1), date(2027, 1, 31))),
        late_fee_base=draw(st.sampled_from(["installment", "unpaid"])))
    on = draw(day(date(2026, 6, 15), date(2027, 7, 15)))
    payments = []
    for _ in range(draw(st.integers(0, 3))):
        paid = draw(day(date(2026, 6, 15), on))
        reversed_on = draw(st.none() | day(paid, on + timedelta(days=20)))
        payments.append(Payment(paid, draw(money(1, 80_000)), draw(st.booleans()),
                                reversed_on))
    payments.sort(key=lambda p: p.date)
    costs = [Cost(draw(day(min(on, date(2026, 8, 1)), on)), draw(money(1, 2_000)), "certified_mail")
             for _ in range(draw(st.integers(0, 2)))]
    costs.sort(key=lambda c: c.date)
    # a credit already on the account by `on` (one dated later would lower the figures of a
    # later day below today's, as it should: not what these properties are about)
    adjustments = [Adjustment(draw(day(min(on, date(2026, 7, 1)), on)), draw(money(1, 20_000)),
                              "decrease")
                   for _ in range(draw(st.integers(0, 1)))]
    return Account("A", "1", "060-000-001-01", "2026-2027", installments, payments, costs,
                   rules, annual, adjustments), on


@SETTINGS
@given(accounts())
def test_every_quoted_figure_is_what_paying_it_does(case: tuple[Account, date]) -> None:
    account, on = case
    o = offer(account, on)
    st_ = o.statement
    assert o.payoff == st_.payoff and o.due_now == st_.total_due_now
    assert o.arrears == max(Decimal(0), st_.interest + st_.late_fees + st_.costs
                            + st_.delinquent_principal - st_.credit)
    if o.due_now > 0:
        part = price(o, Choice("A", "due_now"))
        assert part.amount == o.due_now and part.after.total_due_now == 0
    for opt in o.installments:
        if opt.amount_through > 0:
            part = price(o, Choice("A", "installments", through=opt.number))
            assert part.amount == opt.amount_through
            done = next(i for i in part.after.installments if i.number == opt.number)
            assert done.status == "paid"
    if o.payoff > 0:
        part = price(o, Choice("A", "amount", amount=o.payoff))
        assert part.after.payoff == 0 and part.after.credit == 0
    # The payoff good through a later day, paid on that day, leaves nothing.
    later = o.payoff_statement
    assert o.payoff_through >= on and later.as_of == o.payoff_through
    if later.payoff > 0:
        after = account.statement(o.payoff_through, [Payment(o.payoff_through, later.payoff)])
        assert after.payoff == 0 and after.credit == 0


@SETTINGS
@given(accounts())
def test_the_quoted_lump_sum_earns_the_discount(case: tuple[Account, date]) -> None:
    account, on = case
    lump = offer(account, on).lump_sum
    if not lump.eligible:
        with_lump = Choice("A", "lump_sum")
        try:
            price(offer(account, on), with_lump)
        except ChoiceError as exc:
            assert exc.code == "lump_sum_unavailable"
        else:
            raise AssertionError("an unavailable lump sum was priced")
        return
    part = price(offer(account, on), Choice("A", "lump_sum"))
    assert part.amount == lump.amount and part.application.lump_sum == "granted"
    assert part.after.discount == lump.discount > 0
    # Nothing of the year as notified stays owed; only an amendment's later increase may.
    notified = {i.number for i in account.installments[:12]}
    assert all(i.principal == 0 for i in part.after.installments if i.number in notified)
    if lump.amount > 0:  # a cent less is short: the quote is the least that earns it
        short = account.statement(on, [Payment(on, lump.amount - CENT, True)])
        assert short.applications[-1].lump_sum == "short"


@SETTINGS
@given(accounts(), st.integers(1, 40))
def test_the_amount_that_stops_the_claim_clears_what_the_demand_listed(
        case: tuple[Account, date], back: int) -> None:
    account, on = case
    mailed = on - timedelta(days=back % 16)
    o = offer(account, on, demand=Demand(mailed, Decimal("1.00")))
    stop = o.stop
    assert stop is not None
    assume(stop.today > 0)
    assert stop.by_last_day >= stop.today
    for when, amount in ((on, stop.today), (stop.last_day, stop.by_last_day)):
        if when < on:
            continue
        after = account.statement(when, [Payment(when, amount)])
        left = [i for i in after.installments if i.number in stop.demanded
                and i.principal + i.late_fee + i.interest > 0]
        assert left == []
        assert all(c.owed == 0 for c in after.cost_items if c.cost.date <= mailed)
        less = account.statement(when, [Payment(when, amount - CENT)])
        owed = sum((i.principal + i.late_fee + i.interest for i in less.installments
                    if i.number in stop.demanded), Decimal(0)) + sum(
            (c.owed for c in less.cost_items if c.cost.date <= mailed), Decimal(0))
        assert owed > 0
