"""What can be paid: every option's amount comes from the core and pays what it says."""

from __future__ import annotations

from datetime import date
from decimal import Decimal as D

import pytest

from portal.core.installments import schedule
from portal.core.offer import (
    Account,
    Choice,
    ChoiceError,
    offer,
    price,
    price_all,
)
from portal.core.statement import Cost, Payment, StatementRules
from portal.web.payments.amounts import parse_amount

FY = date(2026, 7, 1)
RULES = StatementRules(lump_sum_discount_rate=D("0.02"))


def facts(key="A1", annual="1200.00", payments=(), costs=(), rules=RULES, notice=None):
    return Account(key, "P-" + key, "060-000-001-0" + key[-1], "2026-2027",
                        schedule(D(annual), FY, 12, notice), payments, costs, rules)


def test_before_the_deadline_the_lump_sum_shows_its_discount():
    o = offer(facts(), date(2026, 6, 20))
    assert o.lump_sum.eligible and o.lump_sum.discount == D("24.00")
    assert o.lump_sum.amount == D("1176.00") and o.lump_sum.deadline == date(2026, 7, 1)
    part = price(o, Choice("A1", "lump_sum"))
    assert part.amount == D("1176.00") and part.lump_sum
    assert part.application.lump_sum == "granted"
    assert part.after.payoff == 0
    kinds = [ln.kind for ln in part.application.lines]
    assert "discount" in kinds and kinds.count("principal") == 12


def test_on_the_deadline_day_it_is_still_open_and_the_day_after_it_is_gone():
    assert offer(facts(), date(2026, 7, 1)).lump_sum.eligible
    late = offer(facts(), date(2026, 7, 2)).lump_sum
    assert not late.eligible and late.reason == "late" and late.deadline == date(2026, 7, 1)
    with pytest.raises(ChoiceError) as err:
        price(offer(facts(), date(2026, 7, 2)), Choice("A1", "lump_sum"))
    assert err.value.code == "lump_sum_unavailable" and err.value.params["reason"] == "late"


def test_the_deadline_rolls_over_a_weekend():
    # FY 2028-2029 starts on Saturday 2028-07-01: the last day is Monday 2028-07-03.
    f = Account("A1", "P", "L", "2028-2029", schedule(D("1200.00"), date(2028, 7, 1)),
                     rules=RULES)
    assert offer(f, date(2028, 7, 3)).lump_sum.eligible
    assert not offer(f, date(2028, 7, 4)).lump_sum.eligible


def test_once_an_installment_was_paid_the_lump_sum_is_gone():
    f = facts(payments=[Payment(date(2026, 6, 1), D("100.00"))])
    lump = offer(f, date(2026, 6, 20)).lump_sum
    assert not lump.eligible and lump.reason == "not_first"


def test_without_a_discount_rate_the_lump_sum_is_not_offered():
    lump = offer(facts(rules=StatementRules()), date(2026, 6, 20)).lump_sum
    assert not lump.eligible and lump.reason == "no_discount"


def test_due_now_on_time_is_the_current_installment():
    on_time = facts(payments=[Payment(date(2026, 7, 10), D("100.00"))])
    o = offer(on_time, date(2026, 8, 5))
    assert o.due_now == D("100.00") and not o.has_arrears
    # Without the July payment, July is delinquent: $100 + 5 % fee + 35 days of interest.
    late = offer(facts(), date(2026, 8, 5))
    assert late.arrears == D("105.96") and late.due_now == D("205.96")


def test_due_now_with_arrears_goes_to_old_debt_first():
    # On Sept 5 July and August are delinquent (late fee 5 % each, interest from due date).
    o = offer(facts(), date(2026, 9, 5))
    st = o.statement
    assert st.delinquent_principal == D("200.00") and st.late_fees == D("10.00")
    assert st.interest == D("1.81") + D("0.96")  # 66 and 35 days at 10 % on $100
    assert o.has_arrears and o.arrears == D("212.77")
    part = price(o, Choice("A1", "due_now"))
    assert part.amount == o.due_now == D("312.77")
    kinds = [ln.kind for ln in part.application.lines]
    assert kinds[:2] == ["interest", "interest"] and kinds[2:4] == ["late_fee", "late_fee"]
    assert part.leaves_due_now == 0 and part.leaves_arrears == 0


def test_a_small_amount_leaves_old_debt_unpaid_and_says_how_much():
    o = offer(facts(), date(2026, 9, 5))
    part = price(o, Choice("A1", "amount", amount=D("50.00")))
    assert [ln.kind for ln in part.application.lines][:1] == ["interest"]
    assert not any(ln.kind == "principal" and ln.installment == 3
                   for ln in part.application.lines)
    assert part.leaves_arrears == o.arrears - D("50.00")


def test_installments_in_due_order():
    o = offer(facts(), date(2026, 6, 20))
    assert [i.number for i in o.installments] == list(range(1, 13))
    assert o.installments[2].amount_through == D("300.00")
    part = price(o, Choice("A1", "installments", through=3))
    assert part.amount == D("300.00")
    assert [i.status for i in part.after.installments[:4]] == ["paid"] * 3 + ["upcoming"]


def test_installment_of_another_account_or_already_paid():
    f = facts(payments=[Payment(date(2026, 6, 1), D("100.00"))])
    o = offer(f, date(2026, 6, 20))
    with pytest.raises(ChoiceError) as err:
        price(o, Choice("A1", "installments", through=13))
    assert err.value.code == "unknown_installment"
    o2 = offer(facts(payments=[Payment(date(2026, 6, 1), D("100.00"))]), date(2026, 6, 20))
    with pytest.raises(ChoiceError) as err:
        price(o2, Choice("A1", "installments", through=99))
    assert err.value.code == "unknown_installment"
    paid = offer(facts(payments=[Payment(date(2026, 6, 1), D("200.00"))]), date(2026, 6, 20))
    with pytest.raises(ChoiceError) as err:
        price(paid, Choice("A1", "installments", through=2))
    assert err.value.code == "installment_paid"


@pytest.mark.parametrize(("amount", "code"), [
    (D("-5"), "negative"), (D("0"), "zero"), (D("0.99"), "too_small"),
    (D("1200.01"), "too_much"), (D("10.001"), "too_many_decimals"), (None, "not_a_number")])
def test_bad_amounts(amount, code):
    o = offer(facts(), date(2026, 6, 20))
    with pytest.raises(ChoiceError) as err:
        price(o, Choice("A1", "amount", amount=amount))
    assert err.value.code == code
    if code == "too_much":
        assert err.value.params["payoff"] == D("1200.00")


def test_the_payoff_itself_and_one_dollar_are_fine():
    o = offer(facts(), date(2026, 6, 20))
    assert price(o, Choice("A1", "amount", amount=D("1200.00"))).after.payoff == 0
    assert price(o, Choice("A1", "amount", amount=D("1"))).amount == D("1.00")


def test_several_parcels_in_one_payment():
    a, b = facts("A1"), facts("B2", annual="600.00")
    on = date(2026, 6, 20)
    offers = {"A1": offer(a, on), "B2": offer(b, on)}
    priced = price_all(offers, [Choice("A1", "installments", through=2),
                                Choice("B2", "lump_sum")])
    assert [p.amount for p in priced.parts] == [D("200.00"), D("588.00")]
    assert priced.total == D("788.00")
    with pytest.raises(ChoiceError) as err:
        price_all(offers, [Choice("A1", "lump_sum"), Choice("A1", "lump_sum")])
    assert err.value.code == "duplicate_account"
    with pytest.raises(ChoiceError) as err:
        price_all(offers, [Choice("C3", "due_now")])
    assert err.value.code == "not_yours"
    with pytest.raises(ChoiceError) as err:
        price_all(offers, [])
    assert err.value.code == "nothing_chosen"


def test_costs_are_paid_before_principal():
    f = facts(costs=[Cost(date(2026, 9, 1), D("12.50"), "certified mail")])
    part = price(offer(f, date(2026, 9, 5)), Choice("A1", "due_now"))
    kinds = [ln.kind for ln in part.application.lines]
    assert kinds.index("cost") < kinds.index("principal")
    assert kinds.index("late_fee") < kinds.index("cost")


def test_credit_reduces_what_is_due():
    f = facts(payments=[Payment(date(2026, 6, 1), D("1250.00"))])  # pays all, $50 credit
    o = offer(f, date(2026, 9, 5))
    assert o.payoff == 0 and o.due_now == 0
    with pytest.raises(ChoiceError) as err:
        price(o, Choice("A1", "due_now"))
    assert err.value.code == "nothing_due"


@pytest.mark.parametrize("locale", ["es_PR", "en_US"])
@pytest.mark.parametrize(("text", "value"), [
    ("1,234.50", D("1234.50")), ("$25", D("25")), ("  7.5 ", D("7.5")), ("0.10", D("0.10"))])
def test_parse_amount(locale, text, value):
    assert parse_amount(text, locale) == value


@pytest.mark.parametrize(("text", "code"), [
    ("abc", "money_not_a_number"), ("", "money_required"), ("1e3", "money_exponent"),
    ("NaN", "money_not_a_number"), ("1.234,50", "money_other_separators"),
    ("12,5", "money_other_separators"), ("-5", "money_negative"), ("-", "money_not_a_number"),
    ("1.005", "money_other_separators"), ("1234.505", "money_too_many_decimals"),
    ("5-", "money_not_a_number"), ("1000000000000", "money_too_large")])
def test_parse_amount_refuses(text, code):
    with pytest.raises(ChoiceError) as err:
        parse_amount(text, "es_PR")
    assert err.value.code == code


def test_once_granted_the_lump_sum_says_so_with_its_amount_and_date():
    """QA: a year already paid with the discount said "the discount is not available"."""
    paid = facts(payments=[Payment(date(2026, 6, 24), D("1176.00"), True)])
    lump = offer(paid, date(2026, 11, 30)).lump_sum
    assert not lump.eligible and lump.reason == "granted"
    assert lump.discount == D("24.00") and lump.granted_on == date(2026, 6, 24)


def test_a_late_notice_moves_the_lump_sum_deadline_with_the_first_installment():
    """R-A4 + R-A11: notified 2026-11-16, the first installments fall due 2026-12-01, and so
    does the default lump-sum deadline (the parcel's own first installment)."""
    late = facts(notice=date(2026, 11, 16))
    o = offer(late, date(2026, 11, 30))
    assert o.due_now == 0 and o.lump_sum.eligible
    assert o.lump_sum.deadline == date(2026, 12, 1)
    assert (o.lump_sum.discount, o.lump_sum.amount) == (D("24.00"), D("1176.00"))
    assert not offer(late, date(2026, 12, 2)).lump_sum.eligible


def test_a_fixed_deadline_after_installments_fell_due_quotes_what_is_owed_first():
    """R-A11 with `lump_sum_deadline` a date: on 2026-11-20 nothing of the year is paid, and
    installments 1-5 (100.00 each) are delinquent with their 5.00 late fees and interest at
    10 %. The quote is the year less the discount plus what R-A10 pays first; paying it
    earns the discount and leaves nothing; one cent less is short."""
    rules = StatementRules(lump_sum_discount_rate=D("0.02"),
                           lump_sum_deadline=date(2026, 12, 15))
    o = offer(facts(rules=rules), date(2026, 11, 20))
    # interest, actual/365 at 10 %, from each due date to 2026-11-20, rounded as a total:
    # 100 x 0.10 x (142 + 111 + 80 + 50 + 19) / 365 = 11.01 (R-A8)
    assert o.statement.interest == D("11.01") and o.statement.late_fees == D("25.00")
    lump = o.lump_sum
    assert lump.eligible and lump.discount == D("24.00") and lump.other == D("36.01")
    assert lump.amount == D("1200.00") - D("24.00") + D("36.01") == D("1212.01")
    part = price(o, Choice("A1", "lump_sum"))
    assert part.amount == lump.amount and part.application.lump_sum == "granted"
    assert part.after.payoff == 0
    short = facts(rules=rules, payments=[Payment(date(2026, 11, 20), D("1212.00"), True)])
    assert short.statement(date(2026, 11, 20)).applications[0].lump_sum == "short"
