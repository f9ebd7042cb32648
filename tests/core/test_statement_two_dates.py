"""`statement.evaluate_two`: the statements at two dates in one walk of the days are those of
two `evaluate` calls, field by field (RULES.md "How `statement` evaluates an account").

The law cases of tests/cases/*.yaml (their `statement` inputs, read as `portal calc statement`
reads them) at several pairs of dates, then a few hundred random accounts with payments and
costs around both dates, grace days on either date, lump sums, credits and the rules varied.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from datetime import date, timedelta
from decimal import Decimal
from typing import Any, NamedTuple

import pytest

from portal.core.calc import _read_installments, _rules, read_statement_facts
from portal.core.errors import InputError
from portal.core.inputs import Reader
from portal.core.installments import Installment, schedule
from portal.core.statement import (
    Adjustment,
    Cost,
    Payment,
    Refund,
    Statement,
    StatementRules,
    _start,
    _walk,
    evaluate,
    evaluate_two,
)
from tests.support.cases import CASES, input_text


class Facts(NamedTuple):
    """An account's facts, as `evaluate` takes them."""

    installments: list[Installment]
    payments: list[Payment]
    costs: list[Cost]
    rules: StatementRules
    annual: Decimal | None
    adjustments: list[Adjustment] = []  # noqa: RUF012 - never mutated
    refunds: list[Refund] = []  # noqa: RUF012 - never mutated


def _ev(as_of: date, f: Facts) -> Statement:
    return evaluate(as_of, *f[:5], adjustments=f.adjustments, refunds=f.refunds)


def _ev2(as_of: date, through: date | Callable[[Statement], date], f: Facts
         ) -> tuple[Statement, Statement]:
    return evaluate_two(as_of, through, *f[:5], adjustments=f.adjustments, refunds=f.refunds)
OFFSETS = (0, 1, 5, 10, 31, 40)


def _facts(case: dict[str, Any]) -> tuple[date, Facts]:
    """A `statement` case's as_of and core inputs, read as calc's `statement` reads them."""
    r = Reader(json.loads(input_text(case), parse_float=Decimal))
    as_of = r.date("as_of")
    items, _ = _read_installments(r)
    payments, costs, adjustments, refunds = read_statement_facts(r)
    rules = _rules(r)
    annual = r.money("annual") if r.has("annual") else None
    return as_of, Facts(items, payments, costs, rules, annual, adjustments, refunds)


def _marked_days(facts: Facts) -> set[date]:
    """The days where something happens: due dates, rolled grace days and the day after
    each, payments and costs."""
    items, payments, costs, rules = facts[:4]
    st = evaluate(date.min, items, (), (), rules)
    days = {i.due_date for i in st.installments}
    for i in st.installments:
        days |= {i.last_timely_day, i.last_timely_day + timedelta(days=1)}
    days |= {p.reversed_on for p in payments if p.reversed_on is not None}
    days |= {e.date for e in [*facts.adjustments, *facts.refunds]}
    return days | {p.date for p in payments} | {c.date for c in costs}


def assert_two(as_of: date, through: date, facts: Facts) -> tuple[Statement, Statement]:
    """evaluate_two == (evaluate(as_of), evaluate(through)), and the two statements share no
    mutable state. A refund larger than the credit at either date: both raise."""
    try:
        expected = (_ev(as_of, facts), _ev(through, facts))
    except InputError as exc:
        assert exc.field and exc.field.startswith("refunds[")
        with pytest.raises(InputError):
            _ev2(as_of, through, facts)
        with pytest.raises(InputError):
            _ev2(as_of, lambda st: through, facts)
        return None  # type: ignore[return-value]
    first, second = _ev2(as_of, through, facts)
    assert first == expected[0], f"as_of {as_of} (through {through})"
    # `through` as a function of the first statement: every event is read, the walk stops
    assert _ev2(as_of, lambda st: through, facts) == (first, second)
    assert second == expected[1], f"through {through} (as_of {as_of})"
    assert first.as_of == as_of and second.as_of == through
    if first is not second:
        assert first.applications is not second.applications
        assert first.installments is not second.installments
        assert first.cost_items is not second.cost_items
        assert all(a is not b for a, b in zip(first.cost_items, second.cost_items))
    return first, second


_STATEMENT_CASES = [pytest.param(case, id=f"{area}: {case['name']}") for area, case in CASES
                    if case["operation"] == "statement" and "expected" in case]


def test_the_law_cases_are_found() -> None:
    assert len(_STATEMENT_CASES) >= 40


@pytest.mark.parametrize("case", _STATEMENT_CASES)
def test_law_case_at_two_dates(case: dict[str, Any]) -> None:
    """The case's as_of, through 0 to 40 days later and on every due date, grace day (and
    the day after) and event within 45 days; and the case's as_of as `through` with as_of
    that many days earlier, so the case's payments fall between the two dates."""
    as_of, facts = _facts(case)
    marked = _marked_days(facts)
    later = {as_of + timedelta(days=n) for n in OFFSETS}
    later |= {d for d in marked if as_of <= d <= as_of + timedelta(days=45)}
    earlier = {as_of - timedelta(days=n) for n in OFFSETS}
    earlier |= {d for d in marked if as_of - timedelta(days=45) <= d <= as_of}
    for through in sorted(later):
        assert_two(as_of, through, facts)
    for first in sorted(earlier):
        assert_two(first, as_of, facts)


def test_same_date_twice() -> None:
    _, facts = _facts(_STATEMENT_CASES[0].values[0])
    first, second = assert_two(date(2026, 7, 10), date(2026, 7, 10), facts)
    assert first == second


def test_through_before_as_of_is_an_error() -> None:
    items = schedule(Decimal("1200.00"), date(2026, 7, 1))
    with pytest.raises(ValueError, match="before"):
        evaluate_two(date(2026, 11, 30), date(2026, 11, 29), items)


def test_the_later_walk_leaves_the_first_statement_alone() -> None:
    """as_of is installment 1's day G: it closes only for `through` (R-A6, R-A7), and a
    payment after as_of pays the cost the first statement still shows partly owed (R-A10)."""
    items = schedule(Decimal("1200.00"), date(2026, 7, 1))
    payments = [Payment(date(2026, 7, 10), Decimal("5.00")),
                Payment(date(2026, 8, 20), Decimal("20.00"))]
    costs = [Cost(date(2026, 7, 1), Decimal("12.50"), "Correo certificado")]
    facts = Facts(items, payments, costs, StatementRules(), None)
    first, second = assert_two(date(2026, 7, 10), date(2026, 8, 20), facts)
    assert first.installments[0].status == "due"
    assert first.installments[0].late_fee_assessed == 0 and first.interest == 0
    assert first.cost_items[0].owed == Decimal("7.50") and len(first.applications) == 1
    assert second.installments[0].status == "delinquent"
    assert second.installments[0].late_fee_assessed == Decimal("5.00")
    assert second.installments[0].accruals  # interest from the due date, paid on 2026-08-20
    assert second.cost_items[0].owed == 0 and len(second.applications) == 2
    assert first.applications == second.applications[:1]


def test_an_account_copy_is_equal_and_independent() -> None:
    """`_Account.copy` sets every attribute __init__ sets, with equal values (a new attribute
    or installment field it forgot would show here), and shares no mutable state."""
    items = schedule(Decimal("1200.00"), date(2026, 7, 1))
    payments = [Payment(date(2026, 9, 15), Decimal("50.00"))]
    costs = [Cost(date(2026, 10, 20), Decimal("12.50"), "Correo certificado")]
    acct, events = _start(date(2026, 11, 30), items, payments, costs, None, None)
    _walk(acct, events, events.days, date(2026, 11, 30), [])
    acct.credit = Decimal("1.00")
    acct.discount_granted = acct.principal_paid = True
    twin = acct.copy()
    assert vars(twin).keys() == vars(acct).keys()
    for name, value in vars(acct).items():
        assert getattr(twin, name) == value, name
    assert [c.accruals for c in twin.delinquent] == [s.accruals for s in acct.delinquent]
    assert twin.delinquent and twin.delinquent[0].accruals and twin.costs
    assert not {id(x) for x in [*twin.items, *twin.costs, *twin.delinquent]
                } & {id(x) for x in [*acct.items, *acct.costs]}
    assert all(c.accruals is not s.accruals for c, s in zip(twin.items, acct.items)
               if s.accruals is not None)
    position = {id(s): k for k, s in enumerate(acct.items)}
    assert all(c is twin.items[position[id(s)]]
               for day, group in acct.by_grace_day.items()
               for c, s in zip(twin.by_grace_day[day], group, strict=True))


# --- Random accounts ---------------------------------------------------------------------

def _money(rng: random.Random, low: int, high: int) -> Decimal:
    return Decimal(rng.randint(low, high)).scaleb(-2)


def _discount(annual: Decimal, rules: StatementRules) -> Decimal:
    return (rules.lump_sum_discount_rate * annual).quantize(Decimal("0.01"))


def _random_account(rng: random.Random) -> tuple[date, date, Facts]:
    start = date(2026, rng.choice((1, 7, 10)), 1)
    annual = _money(rng, 1_200, 600_000)
    notice = start + timedelta(days=rng.randint(20, 70)) if rng.random() < 0.15 else None
    items = schedule(annual, start, 12, notice)
    monthly = items[-1].amount
    grace = rng.choice((1, 5, 10, 10, 15, 31))
    closed: set[date] = set()
    for _ in range(rng.randint(0, 4)):  # some on (unrolled) grace days, so they move
        due = rng.choice(items).due_date
        closed.add(due + timedelta(days=rng.choice((grace - 1, grace - 1, grace, 3))))
    rules = StatementRules(
        grace_day=grace,
        late_fee_rate=rng.choice((Decimal("0.05"), Decimal("0.10"), Decimal("0"))),
        late_fee_base=rng.choice(("installment", "unpaid")),
        interest_rate=rng.choice((Decimal("0.10"), Decimal("0.18"), Decimal("0.035"))),
        lump_sum_discount_rate=rng.choice((Decimal("0"), Decimal("0.02"), Decimal("0.05"))),
        lump_sum_deadline=rng.choice((None, None, start + timedelta(days=rng.randint(-20, 40)))),
        closed_days=frozenset(closed))
    given_annual = annual if rng.random() < 0.2 else None
    grace_days = [i.last_timely_day for i in evaluate(start, items, (), (), rules).installments]

    # as_of: any day of the year, or exactly a grace day, a due date or the day after G
    as_of = rng.choice([
        start + timedelta(days=rng.randint(-10, 400)),
        rng.choice(grace_days),
        rng.choice(items).due_date,
        rng.choice(grace_days) + timedelta(days=1),
    ])
    nexts = [d for d in grace_days + [i.due_date for i in items] if d > as_of]
    through = rng.choice([
        as_of,
        as_of + timedelta(days=rng.randint(1, 10)),
        as_of + timedelta(days=rng.randint(1, 60)),
        min(nexts) if nexts else as_of + timedelta(days=3),
        rng.choice(nexts) if nexts else as_of + timedelta(days=40),
    ])

    def some_day() -> date:
        return rng.choice([
            start + timedelta(days=rng.randint(-25, 380)),
            rng.choice(grace_days),  # a timely payment on day G
            rng.choice(grace_days) + timedelta(days=1),
            as_of,
            through,
            as_of + timedelta(days=rng.randint(1, max(1, (through - as_of).days))),
            through + timedelta(days=rng.randint(1, 30)),  # ignored by both
        ])

    payments = []
    for _ in range(rng.randint(0, 6)):
        if rng.random() < 0.2:  # a lump sum, early or not, enough or not
            amount = rng.choice((annual, annual - _discount(annual, rules), annual * 2,
                                 _money(rng, 100, int(annual * 100))))
            payments.append(Payment(rng.choice((start - timedelta(days=rng.randint(1, 20)),
                                                some_day())), amount, True))
        else:
            amount = rng.choice((monthly, monthly * rng.randint(2, 14), _money(rng, 1, 20_000),
                                 monthly + _money(rng, 1, 900)))
            day = some_day()
            reversed_on = None
            if rng.random() < 0.25:  # a bank debit that failed, before, between or after
                reversed_on = max(day, rng.choice((as_of, through, through, some_day(),
                                                   as_of + timedelta(days=1))))
            payments.append(Payment(day, amount, reversed_on=reversed_on))
    costs = [Cost(some_day(), _money(rng, 100, 20_000), f"cost {k}")
             for k in range(rng.randint(0, 3))]
    adjustments = [Adjustment(some_day(), rng.choice((monthly, _money(rng, 1, 5_000))),
                              f"adjustment {k}") for k in range(rng.randint(0, 2))]
    refunds = [Refund(some_day(), _money(rng, 0, 1_000)) for _ in range(rng.randint(0, 1))]
    return as_of, through, Facts(items, payments, costs, rules, given_annual, adjustments,
                                 refunds)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_accounts(seed: int) -> None:
    rng = random.Random(seed)
    seen = {"grace_as_of": 0, "between": 0, "credit": 0, "granted": 0, "delinquent": 0,
            "reversed_between": 0, "adjustment": 0, "refund": 0, "refund_too_large": 0}
    for _ in range(100):
        as_of, through, facts = _random_account(rng)
        two = assert_two(as_of, through, facts)
        if two is None:
            seen["refund_too_large"] += 1
            continue
        first, second = two
        payments, costs = facts.payments, facts.costs
        seen["reversed_between"] += any(p.reversed_on is not None
                                        and p.date <= as_of < p.reversed_on <= through
                                        for p in payments)
        seen["adjustment"] += any(a.adjustment is not None for a in second.applications)
        seen["refund"] += bool(second.refunds)
        seen["grace_as_of"] += any(i.last_timely_day == as_of for i in first.installments)
        seen["between"] += any(as_of < e.date <= through for e in [*payments, *costs])
        seen["credit"] += any(a.payment is None and a.adjustment is None
                              for a in second.applications)
        seen["granted"] += any(a.lump_sum == "granted" for a in second.applications)
        seen["delinquent"] += second.delinquent_principal > first.delinquent_principal
    # the interesting paths are taken, not just possible
    assert all(n >= 3 for n in seen.values()), seen


def _good_through(st: Statement) -> date:
    """As the pay-off's date (accounts.statements.payoff_good_through): ten days ahead, but not
    past the next last timely day of an installment still owed."""
    through = st.as_of + timedelta(days=10)
    for i in st.installments:
        if i.status in ("due", "upcoming") and i.last_timely_day >= st.as_of:
            through = min(through, i.last_timely_day)
    return through


@pytest.mark.parametrize("case", _STATEMENT_CASES)
def test_a_later_date_that_depends_on_the_first_statement(case: dict[str, Any]) -> None:
    """`through` given as a function of the statement as of `as_of` (the pay-off's date):
    the function sees that statement, and the second statement is as of its answer."""
    as_of, facts = _facts(case)
    for day in sorted({as_of, *(d for d in _marked_days(facts)
                                if as_of - timedelta(days=40) <= d <= as_of)}):
        seen: list[Statement] = []
        first, second = _ev2(day, lambda st, seen=seen: seen.append(st) or
                             _good_through(st), facts)
        assert seen == [first] and first == _ev(day, facts)
        assert second == _ev(_good_through(first), facts)


def test_a_later_date_function_giving_an_earlier_date_is_an_error() -> None:
    items = schedule(Decimal("1200.00"), date(2026, 7, 1))
    with pytest.raises(ValueError, match="before"):
        evaluate_two(date(2026, 11, 30), lambda st: st.as_of - timedelta(days=1), items)
