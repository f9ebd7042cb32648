""""Why this amount?" per figure (Statement.figures): each explanation carries the figure's own
numbers, and the numbers add up to the figure (R-A8 interest by accrual period, R-A10 totals)."""

from datetime import date
from decimal import ROUND_HALF_UP
from decimal import Decimal as D

from portal.core.installments import schedule
from portal.core.statement import Cost, Payment, evaluate

INSTALLMENTS = schedule(D("1200.00"), date(2026, 7, 1))
PAYMENTS = [Payment(date(2026, 7, 10), D("100.00")), Payment(date(2026, 9, 15), D("50.00"))]
COSTS = [Cost(date(2026, 10, 20), D("12.50"), "Correo certificado")]


def _statement():
    return evaluate(date(2026, 11, 30), INSTALLMENTS, PAYMENTS, COSTS)


def test_interest_is_explained_period_by_period_and_rounded_as_a_total():
    st = _statement()
    lines = st.figures()["interest"].render("en")
    # R-A8: installment 2 fell delinquent after 2026-08-10: 100.00 for 45 days to the
    # payment of 2026-09-15 (4,500.00), then 61.61 for 76 days (4,682.36); in all
    # 0.10 x 9,182.36 / 365 = 2.51571 -> 2.52, of which 1.23 (0.10 x 4,500.00 / 365 =
    # 1.23288 -> 1.23) was paid on 2026-09-15. Rounding each period, 1.23 + 1.28 = 2.51.
    assert ("R-A8: Installment 2: $100.00 unpaid for 45 days, from 2026-08-01 to 2026-09-15 "
            "(principal x days = 4,500.00).") in lines
    assert ("R-A8: Installment 2: $61.61 unpaid for 76 days, from 2026-09-15 to 2026-11-30 "
            "(principal x days = 4,682.36).") in lines
    assert ("R-A8: Installment 2: 10% x 9,182.36 (the sum of principal x days) / 365 = $2.52: "
            "the interest is rounded once, as a total.") in lines
    assert ("R-A10: Installment 2: $1.23 of its interest was paid by earlier payments; $1.29 "
            "is still owed.") in lines
    # installments 3 (0.38 paid, 2.09 owed), 4 (1.64) and 5 (0.79): 1.29 + 2.09 + 1.64 + 0.79
    assert lines[-1].startswith("R-A8: Interest owed as of 2026-11-30: $5.81.")
    for i in st.installments:
        assert sum((a.principal_days for a in i.accruals), D("0")) == i.principal_days
        total = (st.rules.interest_rate * i.principal_days / 365).quantize(
            D("0.01"), rounding=ROUND_HALF_UP)
        assert i.interest + i.interest_paid == total


def test_totals_add_up_in_their_explanations():
    st = _statement()
    figures = st.figures()
    total = figures["total_due_now"].render("en")[0]
    assert total == ("R-A10: Interest $5.81 + late fees $10.00 + costs $12.50 + overdue principal "
                     "$361.61 + principal due now $0.00 - credit $0.00 = $389.92.")
    assert st.interest + st.late_fees + st.costs + st.delinquent_principal + st.due_principal \
        - st.credit == st.total_due_now
    payoff = figures["payoff"].render("en")[0]
    assert "$389.92 + principal of the installments not yet due $700.00 = $1,089.92" in payoff


def test_costs_and_fees_are_named_and_in_spanish():
    figures = _statement().figures()
    assert figures["costs"].render("es") == [
        "R-A9: 2026-10-20: Correo certificado, $12.50; aún se adeudan $12.50."]
    fees = figures["late_fees"].render("es")
    assert sum("R-A7" in line for line in fees) == 4  # installments 2, 3, 4 and 5
    assert "Un solo cargo por demora: 5% x el plazo completo ($100.00) = $5.00" in fees[-1]


def test_every_figure_has_an_explanation_even_when_zero():
    st = evaluate(date(2026, 7, 5), INSTALLMENTS)
    figures = st.figures()
    assert set(figures) == {"interest", "late_fees", "costs", "delinquent_principal",
                            "due_principal", "upcoming_principal", "discount", "credit",
                            "total_due_now", "payoff"}
    assert all(t.steps for t in figures.values())


def test_adjustments_refunds_and_reversals_are_explained():
    """R-A6: a reversed payment is named as never received; R-A10: an adjustment is applied
    like a payment, with the credit folded in; a refund comes out of the credit."""
    from portal.core.statement import Adjustment, Refund

    items = schedule(D("200.00"), date(2026, 7, 1), 2)
    payments = [Payment(date(2026, 7, 5), D("250.00")),
                Payment(date(2026, 7, 6), D("40.00"), reversed_on=date(2026, 7, 9))]
    st = evaluate(date(2026, 9, 30), items, payments,
                  adjustments=[Adjustment(date(2026, 9, 1), D("30.00"), "decrease by amendment")],
                  refunds=[Refund(date(2026, 9, 15), D("60.00"))])
    assert st.credit == D("20.00")
    story = st.trace().render("en")
    assert ("R-A6: The payment of $40.00 on 2026-07-06 was reversed on 2026-07-09: it was never "
            "received and is not counted.") in story
    assert any(line.startswith("R-A10: Adjustment of $80.00 on 2026-09-01 (decrease by "
                               "amendment), with any credit") for line in story)
    credit = st.figures()["credit"].render("es")
    assert ("R-A10: El ajuste de $80.00 del 2026-09-01 (decrease by amendment), junto con "
            "cualquier crédito, cubrió todo lo adeudado; sobraron $80.00.") in credit
    assert "R-A10: Se reembolsaron $60.00 del crédito el 2026-09-15." in credit


def test_the_last_timely_day_with_closed_days_is_the_walk_of_roll_over() -> None:
    """The statement remembers each due date's rolled day G without closed days and walks
    again only when that day is itself closed: the same day as timely_payment's walk, for
    closed days before, on and after it (R-A6, 1 LPRA § 72)."""
    import random
    from datetime import timedelta

    from portal.core.calendar import roll_over
    from portal.core.deadlines import timely_payment
    from portal.core.statement import _last_timely_day, _rolled

    rng = random.Random(30)
    for _ in range(3000):
        due = date(2026, 1, 1) + timedelta(days=rng.randint(0, 800))
        grace = rng.choice([1, 5, 10, 15, 28, 31])
        g = timely_payment(due, grace)
        closed = frozenset(g + timedelta(days=rng.randint(-3, 6))
                           for _ in range(rng.randint(0, 4)))
        assert _last_timely_day(due, grace, closed) == timely_payment(due, grace, closed)
        assert _rolled(due, closed) == roll_over(due, closed)
