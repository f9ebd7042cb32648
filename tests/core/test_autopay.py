"""The autopay rules (portal.core.autopay): what an enrolment debits on a day, from the
offer, and when its payer is told; then, over generated accounts and calendars
(hypothesis, the suite's derandomized profile: tests/conftest.py), that autopay never
charges more than is due, never twice for one installment, and never after cancellation."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from portal.core import autopay as ap
from portal.core.installments import schedule
from portal.core.offer import Account, offer
from portal.core.statement import Payment, StatementRules

FY = date(2026, 7, 1)
RULES = StatementRules(lump_sum_discount_rate=Decimal("0.02"))


def account(annual: str = "1200.00", payments: list[Payment] | None = None,
            count: int = 12, notice: date | None = None) -> Account:
    return Account("k", "1", "A", "2026-2027", schedule(Decimal(annual), FY, count, notice),
                   tuple(payments or ()), rules=RULES)


def test_installment_on_its_due_date_only() -> None:
    e = ap.Enrolment(ap.PLAN_INSTALLMENTS, ap.METHOD_CARD, date(2026, 6, 20))
    a = account()
    d = ap.due_today(e, offer(a, date(2026, 7, 1)), [])
    assert d == ap.Debit("through-1", date(2026, 7, 1), Decimal("100.00"), 1, False, (1,), 1)
    assert ap.due_today(e, offer(a, date(2026, 7, 2)), []) is None  # not its due date
    assert ap.due_today(e, offer(a, date(2026, 6, 30)), []) is None  # not yet due


def test_never_twice_and_nothing_once_paid() -> None:
    e = ap.Enrolment(ap.PLAN_INSTALLMENTS, ap.METHOD_CARD, date(2026, 6, 20))
    day = date(2026, 8, 1)
    done = ap.Attempt("through-2", day, Decimal("100.00"), "succeeded", (2,))
    assert ap.due_today(e, offer(account(), day), [done]) is None
    paid = account(payments=[Payment(date(2026, 7, 5), Decimal("200.00"))])
    assert ap.due_today(e, offer(paid, day), []) is None  # the owner paid it by hand


def test_one_retry_after_a_failure() -> None:
    e = ap.Enrolment(ap.PLAN_INSTALLMENTS, ap.METHOD_CARD, date(2026, 6, 20))
    a = account(payments=[Payment(date(2026, 7, 1), Decimal("100.00"))])
    failed = ap.Attempt("through-2", date(2026, 8, 1), Decimal("100.00"), "failed", (2,))
    retry = ap.due_today(e, offer(a, date(2026, 8, 2)), [failed])
    assert retry is not None and retry.attempt == 2 and retry.amount == Decimal("100.00")
    again = ap.Attempt("through-2", date(2026, 8, 2), Decimal("100.00"), "failed", (2,))
    assert ap.due_today(e, offer(a, date(2026, 8, 3)), [failed, again]) is None


def test_nothing_after_cancellation() -> None:
    e = ap.Enrolment(ap.PLAN_INSTALLMENTS, ap.METHOD_BANK, date(2026, 6, 20),
                     ends_on=date(2026, 8, 1))
    assert ap.due_today(e, offer(account(), date(2026, 8, 1)), []) is None
    assert ap.due_today(e, offer(account(), date(2026, 7, 1)), []) is not None


def test_installments_moved_to_one_day_are_one_debit() -> None:
    """A late notice (R-A4) moves installments 1-3 to 1 October, where 4 falls due too:
    one debit through 4."""
    e = ap.Enrolment(ap.PLAN_INSTALLMENTS, ap.METHOD_CARD, date(2026, 9, 20))
    a = account(notice=date(2026, 9, 15))
    d = ap.due_today(e, offer(a, date(2026, 10, 1)), [])
    assert d is not None and d.numbers == (1, 2, 3, 4) and d.amount == Decimal("400.00")


def test_lump_sum_on_its_day_while_eligible() -> None:
    e = ap.Enrolment(ap.PLAN_LUMP_SUM, ap.METHOD_BANK, date(2026, 6, 1),
                     lump_sum_on=date(2026, 6, 25))
    d = ap.due_today(e, offer(account(), date(2026, 6, 25)), [])
    assert d is not None and d.lump_sum and d.amount == Decimal("1176.00")
    assert ap.due_today(e, offer(account(), date(2026, 6, 26)), []) is None
    late = ap.Enrolment(ap.PLAN_LUMP_SUM, ap.METHOD_BANK, date(2026, 6, 1),
                        lump_sum_on=date(2026, 7, 5))
    assert ap.due_today(late, offer(account(), date(2026, 7, 5)), []) is None  # not eligible


def test_notice_days() -> None:
    """Three days ahead for a bank debit, the day before for a card."""
    assert ap.notice_day(ap.METHOD_BANK, date(2026, 10, 1)) == date(2026, 9, 28)
    assert ap.notice_day(ap.METHOD_CARD, date(2026, 10, 1)) == date(2026, 9, 30)
    e = ap.Enrolment(ap.PLAN_INSTALLMENTS, ap.METHOD_BANK, date(2026, 6, 20))
    n = ap.notice_for(e, offer(account(), date(2026, 8, 1)), [])
    assert n is not None and n.on == date(2026, 8, 1)


def test_covers() -> None:
    e = ap.Enrolment(ap.PLAN_INSTALLMENTS, ap.METHOD_CARD, date(2026, 6, 20))
    paid = account(payments=[Payment(date(2026, 7, 1), Decimal("100.00"))])
    assert ap.covers(e, offer(paid, date(2026, 7, 20)))  # August's, on its due date
    assert not ap.covers(e, offer(account(), date(2026, 7, 20)))  # July's is late: arrears
    failed = ap.Attempt("through-2", date(2026, 8, 1), Decimal("100.00"), "failed", (2,))
    assert not ap.covers(e, offer(paid, date(2026, 8, 1)), [failed])
    ended = ap.Enrolment(ap.PLAN_INSTALLMENTS, ap.METHOD_CARD, date(2026, 6, 20),
                         ends_on=date(2026, 7, 10))
    assert not ap.covers(ended, offer(paid, date(2026, 7, 20)))


# --- properties ----------------------------------------------------------------------------

OUTCOMES = st.sampled_from(["succeeded", "failed", "processing", "processing_fails"])


@st.composite
def calendars(draw: st.DrawFn) -> dict:
    annual = Decimal(draw(st.integers(1200, 500_000))).scaleb(-2)
    count = draw(st.sampled_from([1, 4, 12, 12]))
    notice = draw(st.one_of(st.none(), st.none(), st.dates(date(2026, 6, 1),
                                                          date(2026, 10, 15))))
    plan = draw(st.sampled_from(ap.PLANS))
    method = draw(st.sampled_from(ap.METHOD_KINDS))
    if plan == ap.PLAN_LUMP_SUM:  # eligible until the first due date (R-A11)
        start = draw(st.dates(date(2026, 6, 1), date(2026, 7, 1)))
        lump_on = start + timedelta(days=draw(st.integers(0, 30)))
    else:
        start = draw(st.dates(date(2026, 6, 1), date(2026, 11, 1)))
        lump_on = None
    span = draw(st.integers(35, 120))
    cancel = draw(st.one_of(st.none(), st.none(), st.integers(0, span)))
    ends_on = start + timedelta(days=cancel) if cancel is not None else None
    by_hand = draw(st.dictionaries(st.integers(0, span), st.integers(1, 60_000), max_size=4))
    outcomes = draw(st.lists(OUTCOMES, min_size=6, max_size=6))
    return {"account": Account("k", "1", "A", "fy", schedule(annual, FY, count, notice),
                               rules=RULES),
            "enrolment": ap.Enrolment(plan, method, start, lump_on, ends_on),
            "span": span, "by_hand": by_hand, "outcomes": outcomes}


@settings(max_examples=max(20, settings.default.max_examples // 2), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(calendars())
def test_autopay_never_charges_more_than_due_twice_or_after_cancellation(c: dict) -> None:
    a: Account = c["account"]
    e: ap.Enrolment = c["enrolment"]
    attempts: list[ap.Attempt] = []
    outcomes = list(c["outcomes"])
    pending_failure: list[int] = []
    for n in range(c["span"] + 1):
        day = e.starts_on + timedelta(days=n)
        for i in pending_failure:  # a bank debit returned: its payment never counted
            old = attempts[i]
            attempts[i] = ap.Attempt(old.target, old.on, old.amount, "failed", old.numbers)
            a = Account(a.key, a.parcel_id, a.label, a.fiscal_year, a.installments,
                        tuple(p for p in a.payments if p.date != old.on or p.amount !=
                              old.amount), rules=a.rules)
        pending_failure = []
        if n in c["by_hand"]:  # the owner pays something by hand, up to the payoff
            o = offer(a, day, with_later=False)
            amount = min(Decimal(c["by_hand"][n]).scaleb(-2), o.payoff)
            if amount > 0:
                a = Account(a.key, a.parcel_id, a.label, a.fiscal_year, a.installments,
                            (*a.payments, Payment(day, amount)), rules=a.rules)
        o = offer(a, day, with_later=False)
        d = ap.due_today(e, o, attempts)
        if d is None:
            continue
        # Never after cancellation, nor before enrolment.
        assert e.starts_on <= day and (e.ends_on is None or day < e.ends_on)
        # Never more than due: the lump sum's exact amount, or at most what is due now.
        if d.lump_sum:
            assert o.lump_sum.eligible and d.amount == o.lump_sum.amount
        else:
            assert 0 < d.amount <= o.due_now
        # Never twice for one installment, at most two attempts per target.
        charged = {num for t in attempts if t.charged for num in t.numbers}
        assert not charged & set(d.numbers)
        assert sum(1 for t in attempts if t.target == d.target) < ap.MAX_ATTEMPTS
        assert not any(t.charged and t.target == d.target for t in attempts)
        outcome = outcomes.pop(0) if outcomes else "succeeded"
        status = "processing" if outcome == "processing_fails" else outcome
        attempts.append(ap.Attempt(d.target, day, d.amount, status, d.numbers))
        if status in ("succeeded", "processing"):
            a = Account(a.key, a.parcel_id, a.label, a.fiscal_year, a.installments,
                        (*a.payments, Payment(day, d.amount, d.lump_sum)), rules=a.rules)
        if outcome == "processing_fails":
            pending_failure.append(len(attempts) - 1)
    event(f"{len(attempts)} attempts")
    # Over the whole calendar: no installment charged twice.
    seen: list[int] = [num for t in attempts if t.charged for num in t.numbers]
    assert len(seen) == len(set(seen))
