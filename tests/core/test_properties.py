"""Properties of the core that must hold for every input (hypothesis).

No cent is created or lost: allocations and schedules sum exactly to their total (R-A3,
R-A4); every payment is applied in full (R-A10); the statement's totals are the sums of its
per-installment figures (section D); paying the payoff leaves nothing owed; the order of
ordinary payments within one day does not matter; interest is rounded only as a total, so
where its periods end never matters and paying more never costs more (R-A8); a reversed
payment is as if never made (R-A6); adjustments and refunds keep every cent (R-A10).

The number of examples comes from the Hypothesis profile (tests/conftest.py): the
statement properties run the profile's `max_examples`, the cheaper ones more.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from portal.core.allocation import ParcelFacts, allocate, assessment_roll
from portal.core.calendar import add_months, is_working_day
from portal.core.collection import Demand
from portal.core.deadlines import demand_mailing, demand_queue, timely_payment
from portal.core.installments import Installment, amend, schedule
from portal.core.money import ZERO
from portal.core.offer import Account, demand_stop
from portal.core.statement import (
    Adjustment,
    Cost,
    Payment,
    Refund,
    Statement,
    StatementRules,
    evaluate,
)

CENT = Decimal("0.01")
EXAMPLES = settings.default.max_examples  # the profile's (tests/conftest.py)
FAST = settings(max_examples=2 * EXAMPLES, deadline=None)
SLOW = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
CHEAP = settings(max_examples=5 * EXAMPLES, deadline=None)


def money(max_cents: int = 5_000_000, min_cents: int = 0) -> st.SearchStrategy[Decimal]:
    return st.integers(min_cents, max_cents).map(lambda n: Decimal(n).scaleb(-2))


def rate(max_units: int, places: int) -> st.SearchStrategy[Decimal]:
    return st.integers(0, max_units).map(lambda n: Decimal(n).scaleb(-places))


units = st.one_of(
    st.integers(0, 1000).map(Decimal),
    st.integers(0, 100_000).map(lambda n: Decimal(n).scaleb(-3)),
)
ids = st.text(alphabet="abcdefghij0123456789-", min_size=1, max_size=6)


# --- R-A3: allocation ----------------------------------------------------------------------

@FAST
@given(total=money(), weights=st.dictionaries(ids, units, min_size=1, max_size=30))
def test_allocation_sums_exactly_and_stays_within_a_cent_of_the_exact_share(
        total: Decimal, weights: dict[str, Decimal]) -> None:
    denominator = sum(weights.values())
    assume(denominator > 0 or total == 0)
    shares = allocate(total, weights)
    assert set(shares) == set(weights)
    assert sum(shares.values(), ZERO) == total
    for k, share in shares.items():
        assert share >= 0 and share == share.quantize(CENT)
        if denominator:
            exact = total * weights[k] / denominator
            assert abs(share - exact) < CENT, (k, share, exact)
        if weights[k] == 0:
            assert share == 0


@FAST
@given(total=money(), n=st.integers(1, 40), weight=units.filter(lambda w: w > 0))
def test_equal_weights_differ_by_at_most_one_cent(total: Decimal, n: int,
                                                  weight: Decimal) -> None:
    weights = {f"p{k:03d}": weight for k in range(n)}
    shares = allocate(total, weights)
    assert max(shares.values()) - min(shares.values()) <= CENT
    assert sum(shares.values(), ZERO) == total
    # the leftover cents go to the first ids as text
    ordered = [shares[k] for k in sorted(weights)]
    assert ordered == sorted(ordered, reverse=True)


@FAST
@given(total=money(), weights=st.dictionaries(ids, units, min_size=2, max_size=20))
def test_more_units_never_means_a_smaller_share(total: Decimal,
                                                weights: dict[str, Decimal]) -> None:
    assume(sum(weights.values()) > 0)
    shares = allocate(total, weights)
    for a in weights:
        for b in weights:
            if weights[a] > weights[b]:
                assert shares[a] >= shares[b]


parcel = st.builds(
    lambda pid, u, owner, transferred, incentive, fixed: ParcelFacts(
        pid, u, owner, transferred, incentive, fixed),
    ids, units, st.sampled_from(["private", "authority", "public"]), st.booleans(),
    st.booleans(), st.one_of(st.none(), money(100_000)))


@FAST
@given(total=money(), parcels=st.lists(parcel, min_size=1, max_size=25,
                                       unique_by=lambda p: p.id))
def test_the_roll_assesses_exactly_the_total_on_the_assessable_parcels(
        total: Decimal, parcels: list[ParcelFacts]) -> None:
    assessable = [p for p in parcels if p.owner == "private" or p.transferred]
    fixed = sum((p.fixed_amount for p in assessable if p.fixed_amount is not None), ZERO)
    rest_units = sum((p.benefit_units for p in assessable if p.fixed_amount is None), ZERO)
    assume(fixed <= total and (rest_units > 0 or fixed == total))
    roll = assessment_roll(total, parcels)
    assert set(roll.assessments) == {p.id for p in assessable}
    assert set(roll.exempt) == {p.id for p in parcels} - {p.id for p in assessable}
    assert sum(roll.assessments.values(), ZERO) == total
    for p in assessable:
        if p.fixed_amount is not None:
            assert roll.assessments[p.id] == p.fixed_amount


# --- R-A4, R-A5: installments ----------------------------------------------------------------

fy_starts = st.sampled_from([date(2025, 7, 1), date(2026, 7, 1), date(2027, 7, 1)])


@FAST
@given(annual=money(), start=fy_starts, count=st.integers(1, 24),
       notice_offset=st.one_of(st.none(), st.integers(-60, 400)))
def test_installments_sum_to_the_annual_amount(annual: Decimal, start: date, count: int,
                                               notice_offset: int | None) -> None:
    notice = None if notice_offset is None else start + timedelta(days=notice_offset)
    items = schedule(annual, start, count, notice)
    amounts = [i.amount for i in items]
    assert len(items) == count
    assert [i.number for i in items] == list(range(1, count + 1))
    assert sum(amounts, ZERO) == annual
    assert max(amounts) - min(amounts) <= CENT
    assert amounts == sorted(amounts, reverse=True), "the extra cents go first"
    for k, item in enumerate(items):
        assert item.due_date.day == 1
        if notice is None:
            assert item.due_date == add_months(start, k)
        else:
            assert item.due_date > notice, "nothing falls due on or before the notice (R-A4)"
            assert item.due_date in (add_months(start, k), add_months(notice, 1))


@FAST
@given(annual=money(), new_annual=money(), count=st.integers(1, 12),
       effective_offset=st.integers(-30, 400), paid=st.lists(st.booleans(), max_size=12))
def test_an_amendment_keeps_every_cent(annual: Decimal, new_annual: Decimal, count: int,
                                       effective_offset: int, paid: list[bool]) -> None:
    start = date(2026, 7, 1)
    items = [Installment(i.number, i.due_date, i.amount,
                         paid[k] if k < len(paid) else False)
             for k, i in enumerate(schedule(annual, start, count))]
    effective = start + timedelta(days=effective_offset)
    result = amend(items, new_annual, effective)
    assert result.credit >= 0
    assert all(i.amount >= 0 for i in result.installments)
    assert sum((i.amount for i in result.installments), ZERO) == new_annual + result.credit
    before = {i.number: i for i in items}
    remaining = [i for i in items if i.due_date > effective and not i.paid]
    for new in result.installments:
        old = before.get(new.number)
        if old is None:  # an increase with nothing left: one new installment
            assert not remaining and new_annual > annual
            continue
        if old.paid or old.due_date <= effective:
            assert new == old, "a paid or past installment is never rewritten"
    if remaining and new_annual >= annual:
        changes = [after.amount - before[after.number].amount
                   for after in result.installments if after.number in before
                   and before[after.number] in remaining]
        assert max(changes) - min(changes) <= CENT
        assert result.credit == 0


# --- R-A6 to R-A11: the statement ----------------------------------------------------------

FY = date(2026, 7, 1)


@st.composite
def accounts(draw: st.DrawFn, lump_sums: bool = True) -> dict:
    annual = draw(money(2_000_000))
    count = draw(st.integers(1, 12))
    notice = draw(st.one_of(st.none(), st.integers(0, 120).map(lambda d: FY + timedelta(d))))
    items = schedule(annual, FY, count, notice)
    day = st.integers(-40, 420).map(lambda d: FY + timedelta(days=d))
    payments = draw(st.lists(st.builds(
        Payment, day, money(300_000, 1), st.booleans() if lump_sums else st.just(False)),
        max_size=6))
    costs = draw(st.lists(st.builds(Cost, day, money(50_000, 1), st.just("cost")), max_size=3))
    rules = StatementRules(
        grace_day=draw(st.integers(1, 31)),
        late_fee_rate=draw(rate(2000, 4)),
        late_fee_base=draw(st.sampled_from(["installment", "unpaid"])),
        interest_rate=draw(rate(250, 3)),
        lump_sum_discount_rate=draw(rate(100, 3)),
        lump_sum_deadline=draw(st.one_of(st.none(), day)),
        closed_days=frozenset(draw(st.lists(day, max_size=4))),
    )
    as_of = draw(day)
    use_annual = draw(st.booleans())
    return {"as_of": as_of, "installments": items, "payments": payments, "costs": costs,
            "rules": rules, "annual": annual if use_annual else None}


def run(acct: dict) -> Statement:
    return evaluate(acct["as_of"], acct["installments"], acct["payments"], acct["costs"],
                    acct["rules"], acct["annual"])


PAID_KINDS = ("interest", "late_fee", "cost", "principal")


@SLOW
@given(acct=accounts())
def test_every_payment_is_applied_in_full(acct: dict) -> None:
    s = run(acct)
    counted = [p for p in acct["payments"] if p.date <= acct["as_of"]]
    assert len([a for a in s.applications if a.payment is not None]) == len(counted)
    for app in s.applications:
        assert all(line.amount > 0 for line in app.lines)
        applied = sum((ln.amount for ln in app.lines if ln.kind in PAID_KINDS), ZERO)
        to_credit = sum((ln.amount for ln in app.lines if ln.kind == "credit"), ZERO)
        assert applied + to_credit == app.amount, app
        if app.payment is not None:
            assert app.amount == acct["payments"][app.payment].amount


@SLOW
@given(acct=accounts())
def test_no_cent_is_created_or_lost(acct: dict) -> None:
    """Payments in (+ a discount larger than the principal left, which becomes credit) are
    exactly what paid interest, fees, costs and principal, plus the final credit; and each
    installment's amount is its principal left, plus what paid it, plus its discount."""
    s = run(acct)
    lines = [ln for app in s.applications for ln in app.lines]
    paid_in = sum((p.amount for p in acct["payments"] if p.date <= acct["as_of"]), ZERO)
    discount_to_credit = sum((ln.amount for ln in lines
                              if ln.kind == "discount" and ln.installment is None), ZERO)
    paid_out = sum((ln.amount for ln in lines if ln.kind in PAID_KINDS), ZERO)
    assert paid_in + discount_to_credit == paid_out + s.credit
    assert s.discount == sum((ln.amount for ln in lines if ln.kind == "discount"), ZERO)
    by_installment: dict[int, Decimal] = defaultdict(lambda: ZERO)
    for ln in lines:
        if ln.kind in ("principal", "discount") and ln.installment is not None:
            by_installment[ln.installment] += ln.amount
    for item, status in zip(sorted(acct["installments"], key=lambda i: (i.due_date, i.number)),
                            s.installments):
        assert status.number == item.number
        assert item.amount == status.principal + by_installment[item.number]
    costs_in = sum((c.amount for c in acct["costs"] if c.date <= acct["as_of"]), ZERO)
    costs_paid = sum((ln.amount for ln in lines if ln.kind == "cost"), ZERO)
    assert costs_in == s.costs + costs_paid


@SLOW
@given(acct=accounts())
def test_totals_are_the_sums_of_the_installments(acct: dict) -> None:
    s = run(acct)
    by_status: dict[str, Decimal] = defaultdict(lambda: ZERO)
    for i in s.installments:
        by_status[i.status] += i.principal
        assert min(i.principal, i.late_fee, i.interest) >= 0
        owed = i.principal + i.late_fee + i.interest
        assert (i.status == "paid") == (owed == 0)
        if i.status == "upcoming":
            assert i.due_date > s.as_of and i.late_fee == 0 and i.interest == 0
        if i.status == "due":
            assert i.due_date <= s.as_of <= i.last_timely_day
        if i.status == "delinquent":
            assert i.last_timely_day < s.as_of
    assert s.interest == sum((i.interest for i in s.installments), ZERO)
    assert s.late_fees == sum((i.late_fee for i in s.installments), ZERO)
    assert s.delinquent_principal == by_status["delinquent"]
    assert s.due_principal == by_status["due"]
    assert s.upcoming_principal == by_status["upcoming"]
    assert s.costs == sum((c.owed for c in s.cost_items), ZERO)
    now = s.interest + s.late_fees + s.costs + s.delinquent_principal + s.due_principal
    assert s.total_due_now == max(ZERO, now - s.credit)
    assert s.payoff == max(ZERO, now + s.upcoming_principal - s.credit)
    for figure in (s.interest, s.late_fees, s.costs, s.credit, s.discount, s.total_due_now,
                   s.payoff):
        assert figure >= 0 and figure == figure.quantize(CENT)
    if s.credit:
        assert s.payoff == 0, "a credit is what is left once everything is paid"


@SLOW
@given(acct=accounts(lump_sums=False), extra=money(10_000), before=st.integers(0, 30),
       discount_rate=rate(100, 3))
def test_a_lump_sum_in_time_for_the_discounted_year_pays_the_year(
        acct: dict, extra: Decimal, before: int, discount_rate: Decimal) -> None:
    """R-A11: nothing paid before, on or before the deadline, covering the annual amount less
    cents(rate x annual): the discount is granted once and nothing is owed for the year."""
    items = acct["installments"]
    annual = sum((i.amount for i in items), ZERO)
    discount = (discount_rate * annual).quantize(CENT, rounding=ROUND_HALF_UP)
    first_due = min(i.due_date for i in items)
    day = first_due - timedelta(days=before)
    later = [p for p in acct["payments"] if p.date > first_due]
    lump = Payment(day, annual - discount + extra, lump_sum=True)
    rules = StatementRules(lump_sum_discount_rate=discount_rate,
                           closed_days=acct["rules"].closed_days)
    as_of = max(acct["as_of"], day)
    s = evaluate(as_of, items, [lump, *later], [], rules)
    assert s.applications[0].lump_sum == "granted"
    assert s.discount == discount
    assert s.payoff == 0
    assert s.credit == extra + sum((p.amount for p in later if p.date <= as_of), ZERO)


@SLOW
@given(acct=accounts())
def test_paying_the_payoff_on_the_statement_date_leaves_nothing_owed(acct: dict) -> None:
    first = run(acct)
    assume(first.payoff > 0)
    settled = dict(acct, payments=[*acct["payments"], Payment(acct["as_of"], first.payoff)])
    after = run(settled)
    assert after.payoff == 0
    assert after.total_due_now == 0
    assert after.credit == first.credit == 0  # a credit only exists when nothing is owed
    assert all(i.status == "paid" for i in after.installments)
    assert after.costs == after.interest == after.late_fees == 0
    # the payment's own accrual is the as_of accrual: it pays exactly the interest shown
    paid_interest = sum((ln.amount for ln in after.applications[-1].lines
                         if ln.kind == "interest"), ZERO)
    assert paid_interest == first.interest


@SLOW
@given(acct=accounts(lump_sums=False), data=st.data())
def test_the_order_of_payments_within_a_day_does_not_matter(acct: dict,
                                                             data: st.DataObject) -> None:
    # put several payments on the same days, then shuffle them
    same_day = data.draw(st.sampled_from([FY + timedelta(days=d) for d in (-5, 9, 12, 45)]))
    extra = data.draw(st.lists(st.builds(Payment, st.just(same_day), money(100_000, 1)),
                               min_size=1, max_size=4))
    payments = acct["payments"] + extra
    shuffled = data.draw(st.permutations(payments))
    a = run(dict(acct, payments=payments))
    b = run(dict(acct, payments=shuffled))
    assert _figures(a) == _figures(b)


# R-A8 (revision 2): with interest rounded per period, paying 0.01 on 2026-11-12 split each
# of the three delinquent installments' periods there and two of them gained a cent: the
# payoff on 2027-02-28 went from 0.65 to 0.66. Rounded as a total it goes to 0.64.
_CENT_MORE_COSTS_MORE = {
    "as_of": date(2027, 2, 28), "installments": schedule(Decimal("0.62"), FY, 3),
    "payments": [], "costs": [], "annual": None,
    "rules": StatementRules(grace_day=1, late_fee_rate=Decimal("0"),
                            interest_rate=Decimal("0.085")),
}


@SLOW
@given(acct=accounts(lump_sums=False), extra=st.one_of(money(5, 1), money(100_000, 1)),
       offset=st.integers(-40, 420))
@example(acct=_CENT_MORE_COSTS_MORE, extra=Decimal("0.01"),
         offset=(date(2026, 11, 12) - FY).days)
def test_paying_more_never_costs_more(acct: dict, extra: Decimal, offset: int) -> None:
    more = dict(acct, payments=[*acct["payments"], Payment(FY + timedelta(offset), extra)])
    a, b = run(acct), run(more)
    assert b.payoff <= a.payoff
    assert b.payoff - b.credit <= a.payoff - a.credit


def test_the_cent_that_cost_a_cent_more() -> None:
    """The example above, worked by hand (R-A8). Installments 0.21, 0.21, 0.20 due July,
    August and September 1, 2026, day G 1 (so each is delinquent from its due date), 8.5 %.
    To 2027-02-28 without the payment, principal x days: 0.21 x 242 = 50.82, 0.21 x 211 =
    44.31, 0.20 x 180 = 36.00; interest 0.085 x S / 365: 0.01183 -> 0.01, 0.01032 -> 0.01,
    0.00838 -> 0.01; payoff 0.62 + 0.03 = 0.65. With 0.01 paid on 2026-11-12: the interest
    to then, 0.21 x 134 = 28.14 -> 0.00655 -> 0.01 on installment 1 (0.21 x 103 = 21.63 ->
    0.00504 -> 0.01 and 0.20 x 72 = 14.40 -> 0.00335 -> 0.00 on the others), takes the cent:
    the principal is unchanged and the totals are as without the payment, 0.01 each, of
    which 0.01 is paid on installment 1: payoff 0.62 + 0.02 = 0.64."""
    acct = _CENT_MORE_COSTS_MORE
    more = dict(acct, payments=[Payment(date(2026, 11, 12), Decimal("0.01"))])
    a, b = run(acct), run(more)
    assert (a.payoff, b.payoff) == (Decimal("0.65"), Decimal("0.64"))
    assert [i.interest for i in b.installments] == [Decimal("0.00"), Decimal("0.01"),
                                                    Decimal("0.01")]


@st.composite
def unpaid_years(draw: st.DrawFn) -> tuple:
    """A year of installments nothing has paid, the rules, a statement date, a day and a
    payment of a few cents: the cheap setting where rounding each period's interest shows."""
    items = schedule(draw(money(2_000_000)), FY, draw(st.integers(1, 12)))
    rules = StatementRules(grace_day=draw(st.integers(1, 31)),
                           late_fee_rate=draw(rate(2000, 4)),
                           late_fee_base=draw(st.sampled_from(["installment", "unpaid"])),
                           interest_rate=draw(rate(250, 3)))
    as_of = FY + timedelta(draw(st.integers(0, 420)))
    day = FY + timedelta(draw(st.integers(0, 420)))
    return items, rules, as_of, day, draw(money(5, 0))


@CHEAP
@given(year=unpaid_years())
def test_paying_a_few_cents_never_costs_more(year: tuple) -> None:
    """R-A8: interest is rounded only as a total, so a payment of a few cents, which ends
    every delinquent installment's period on its day, never adds a cent of interest; and a
    payment of 0.00 changes no figure at all."""
    items, rules, as_of, day, amount = year
    a = evaluate(as_of, items, (), (), rules)
    b = evaluate(as_of, items, [Payment(day, amount)], (), rules)
    assert b.payoff <= a.payoff
    if amount == 0:
        assert _figures(b) == _figures(a)


@SLOW
@given(acct=accounts(), days=st.lists(st.integers(-40, 420), max_size=4))
def test_where_interest_periods_end_does_not_matter(acct: dict, days: list[int]) -> None:
    """R-A8: "the amount never depends on how many payments, costs or statements fell in
    between": payments of 0.00 on any days (each ends the delinquent periods there) change
    no figure of the statement."""
    zeros = [Payment(FY + timedelta(d), ZERO) for d in days]
    a = run(acct)
    b = run(dict(acct, payments=[*zeros, *acct["payments"]]))
    assert _figures(b) == _figures(a)


@SLOW
@given(acct=accounts(), data=st.data())
def test_a_reversed_payment_is_as_if_never_made(acct: dict, data: st.DataObject) -> None:
    """R-A6, section D: a payment reversed on or before as_of is ignored entirely; one
    reversed after as_of counts as received."""
    assume(acct["payments"])
    k = data.draw(st.integers(0, len(acct["payments"]) - 1))
    p = acct["payments"][k]
    reversed_on = p.date + timedelta(data.draw(st.integers(0, 60)))
    payments = list(acct["payments"])
    payments[k] = Payment(p.date, p.amount, p.lump_sum, reversed_on)
    with_reversal = run(dict(acct, payments=payments))
    if reversed_on <= acct["as_of"]:
        without = run(dict(acct, payments=payments[:k] + payments[k + 1:]))
        assert _figures(with_reversal) == _figures(without)
        assert with_reversal.reversed_payments == ((payments[k],) if p.date <= acct["as_of"]
                                                    else ())
    else:
        assert _figures(with_reversal) == _figures(run(acct))


@SLOW
@given(acct=accounts(), data=st.data())
def test_adjustments_and_refunds_keep_every_cent(acct: dict, data: st.DataObject) -> None:
    """R-A10: adjustments are applied in full like payments (with any credit folded in);
    a refund takes from the credit; in all, payments + adjustments (+ a discount larger
    than the principal left) = what paid interest, fees, costs and principal + the credit
    + the refunds. A refund of at most the credit at the end of its day is accepted."""
    day = st.integers(-40, 420).map(lambda d: FY + timedelta(days=d))
    adjustments = data.draw(st.lists(st.builds(Adjustment, day, money(100_000, 0),
                                               st.just("correction")), max_size=3))
    facts = dict(adjustments=adjustments)
    refunds: list[Refund] = []
    for d in sorted(data.draw(st.lists(day, max_size=2, unique=True))):
        credit = evaluate(d, acct["installments"], acct["payments"], acct["costs"],
                          acct["rules"], acct["annual"], refunds=refunds, **facts).credit
        refunds.append(Refund(d, data.draw(st.sampled_from([credit, cents_part(credit)]))))
    s = evaluate(acct["as_of"], acct["installments"], acct["payments"], acct["costs"],
                 acct["rules"], acct["annual"], refunds=refunds, **facts)
    lines = [ln for app in s.applications for ln in app.lines]
    paid_in = sum((p.amount for p in acct["payments"] if p.date <= acct["as_of"]), ZERO)
    adjusted = sum((a.amount for a in adjustments if a.date <= acct["as_of"]), ZERO)
    refunded = sum((f.amount for f in refunds if f.date <= acct["as_of"]), ZERO)
    assert refunded == sum((f.amount for f in s.refunds), ZERO)
    discount_to_credit = sum((ln.amount for ln in lines
                              if ln.kind == "discount" and ln.installment is None), ZERO)
    paid_out = sum((ln.amount for ln in lines if ln.kind in PAID_KINDS), ZERO)
    assert paid_in + adjusted + discount_to_credit == paid_out + s.credit + refunded
    for app in s.applications:
        applied = sum((ln.amount for ln in app.lines if ln.kind in PAID_KINDS), ZERO)
        assert applied + app.to_credit == app.amount
    assert len([a for a in s.applications if a.adjustment is not None]) == len(
        [a for a in adjustments if a.date <= acct["as_of"]])
    if s.credit:
        assert s.payoff == 0


def cents_part(amount: Decimal) -> Decimal:
    """About a third of an amount, in whole cents (at most the amount)."""
    return (amount / 3).quantize(CENT, rounding=ROUND_DOWN)


def _figures(s: Statement) -> tuple:
    return (s.interest, s.late_fees, s.costs, s.delinquent_principal, s.due_principal,
            s.upcoming_principal, s.discount, s.credit, s.total_due_now, s.payoff,
            [(i.number, i.status, i.principal, i.late_fee, i.interest)
             for i in s.installments])


# --- R-A13, R-A17, R-A18: what stops the court claim; the demand's days --------------------

@SLOW
@given(acct=accounts(lump_sums=False), back=st.integers(0, 60))
def test_paying_the_stop_amount_clears_what_the_demand_listed(acct: dict, back: int) -> None:
    """Section D `demand_stop`: paid on `as_of` after that day's payments, `stop_amount`
    leaves nothing owed on the installments delinquent at the mailing nor on the costs dated
    by then; a cent less leaves something owed on them."""
    on = acct["as_of"]
    mailed = on - timedelta(days=back)
    account = Account("k", "p", "l", "", acct["installments"], acct["payments"], acct["costs"],
                      acct["rules"], acct["annual"])
    stop = demand_stop(account, on, Demand(mailed, ZERO))
    assert stop.demanded == tuple(i.number for i in account.statement(mailed).installments
                                  if i.status == "delinquent")

    def owed_on_listed(amount: Decimal) -> Decimal:
        s = account.statement(on, [Payment(on, amount)] if amount > 0 else [])
        items = sum((i.principal + i.late_fee + i.interest for i in s.installments
                     if i.number in stop.demanded), ZERO)
        return items + sum((c.owed for c in s.cost_items if c.cost.date <= mailed), ZERO)

    assert owed_on_listed(stop.today) == 0
    assert (stop.today == 0) == (owed_on_listed(ZERO) == 0)
    if stop.today > 0:
        assert owed_on_listed(stop.today - CENT) > 0


@CHEAP
@given(due=st.integers(0, 3000).map(lambda d: FY + timedelta(days=d)),
       grace=st.integers(1, 31),
       closed=st.lists(st.integers(0, 3100).map(lambda d: FY + timedelta(days=d)), max_size=6))
def test_a_demand_is_queued_on_the_first_run_day_after_day_g(due: date, grace: int,
                                                             closed: list[date]) -> None:
    """R-A17, section D `demand_queue`: the day after some month's rolled day G, after the
    installment's own rolled day G, and no run day comes between them."""
    queued = demand_queue(due, grace, closed)
    late = timely_payment(due, grace, closed) + timedelta(days=1)
    runs = {timely_payment(add_months(due, k), grace, closed) + timedelta(days=1)
            for k in range(-1, 3)}
    assert queued >= late and queued in runs
    assert not any(late <= r < queued for r in runs)
    if due.day == 1:
        assert queued == late


@CHEAP
@given(queued=st.integers(0, 3000).map(lambda d: FY + timedelta(days=d)),
       closed=st.lists(st.integers(0, 3100).map(lambda d: FY + timedelta(days=d)), max_size=6))
def test_a_demand_is_mailed_by_the_fifth_working_day(queued: date, closed: list[date]) -> None:
    """R-A17, section D `demand_mailing`: a working day, the 5th after the queue day, with
    the Board's closed days not counted."""
    last = demand_mailing(queued, closed)
    days = [queued + timedelta(days=k) for k in range(1, (last - queued).days + 1)]
    assert is_working_day(last, closed)
    assert sum(is_working_day(d, closed) for d in days) == 5
