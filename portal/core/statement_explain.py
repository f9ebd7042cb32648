""""Why this amount?" for each figure of a statement (R-A4 to R-A11), with its own numbers.

`Statement.trace()` tells the account's story; this module answers for one figure at a time:
the interest by installment and accrual period, rounded once as a total (R-A8), each late
fee (R-A6, R-A7), each cost (R-A9), which installments make up each principal figure, and
how the totals add up (R-A10).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from portal.core.explain import N_, Rate, Trace

if TYPE_CHECKING:
    from portal.core.statement import Statement


def _interest(st: Statement) -> Trace:
    """R-A8: each delinquent period of each installment, then the interest rounded once as a
    total: cents(rate x the sum of principal x days / 365), less what was paid."""
    t = Trace()
    rate = Rate(st.rules.interest_rate)
    for i in st.installments:
        for a in i.accruals:
            t.add("R-A8", N_("Installment {number}: {principal} unpaid for {days} days, from "
                             "{start} to {end} (principal x days = {principal_days})."),
                  number=i.number, principal=a.principal, days=a.days, start=a.start,
                  end=a.end, principal_days=f"{a.principal_days:,}")
        if i.accruals:
            t.add("R-A8", N_("Installment {number}: {rate} x {principal_days} (the sum of "
                             "principal x days) / 365 = {accrued}: the interest is rounded "
                             "once, as a total."),
                  number=i.number, rate=rate, principal_days=f"{i.principal_days:,}",
                  accrued=i.interest + i.interest_paid)
        if i.interest_paid:
            t.add("R-A10", N_("Installment {number}: {paid} of its interest was paid by earlier "
                              "payments; {owed} is still owed."),
                  number=i.number, paid=i.interest_paid, owed=i.interest)
    if not t.steps:
        t.add("R-A8", N_("No installment is delinquent: no interest runs (interest runs only "
                         "on delinquent principal, from its due date)."))
    t.add("R-A8", N_("Interest owed as of {as_of}: {interest}. No interest is charged on "
                     "interest, fees or costs."), as_of=st.as_of, interest=st.interest)
    return t


def _late_fees(st: Statement) -> Trace:
    t = Trace()
    base_text = (N_("the whole installment") if st.rules.late_fee_base == "installment"
                 else N_("the principal unpaid at the end of the last timely day"))
    for i in st.installments:
        if i.delinquent_since is None:
            continue
        t.add("R-A6", N_("Installment {number}, due {due}, was not paid in full by {last_day}, "
                         "the last timely day: it is delinquent."),
              number=i.number, due=i.due_date, last_day=i.last_timely_day)
        t.add("R-A7", N_("One late fee: {rate} x {base_text} ({base}) = {fee}; {owed} still "
                         "owed."), rate=Rate(st.rules.late_fee_rate), base_text=base_text,
              base=i.late_fee_base, fee=i.late_fee_assessed, owed=i.late_fee)
    if not t.steps:
        t.add("R-A6", N_("Every installment was paid by its last timely day: no late fee."))
    return t


def _costs(st: Statement) -> Trace:
    t = Trace()
    for c in st.cost_items:
        t.add("R-A9", N_("{date}: {description}, {amount}; {owed} still owed."),
              date=c.cost.date, description=c.cost.description or "-", amount=c.cost.amount,
              owed=c.owed)
    if not t.steps:
        t.add("R-A9", N_("No collection cost has been recorded on this account."))
    return t


def _principal(st: Statement, status: str) -> Trace:
    t = Trace()
    for i in st.installments:
        if i.status != status:
            continue
        if status == "upcoming":
            t.add("R-A4", N_("Installment {number}, due {due}: {owed} (pay by {last_day} to be "
                             "on time)."), number=i.number, due=i.due_date, owed=i.principal,
                  last_day=i.last_timely_day)
        elif status == "due":
            t.add("R-A6", N_("Installment {number}, due {due}: {owed} still owed; it is on time "
                             "until {last_day}."), number=i.number, due=i.due_date,
                  owed=i.principal, last_day=i.last_timely_day)
        else:
            t.add("R-A6", N_("Installment {number}, due {due}, of {amount}: {owed} of its "
                             "principal is unpaid since its last timely day, {last_day}."),
                  number=i.number, due=i.due_date, amount=i.amount, owed=i.principal,
                  last_day=i.last_timely_day)
    if not t.steps:
        t.add("R-A4", N_("No installment is in this group."))
    return t


def _discount(st: Statement) -> Trace:
    t = Trace()
    granted = [a for a in st.applications if a.lump_sum == "granted"]
    if granted:
        t.add("R-A11", N_("The year was paid in one lump sum on {date}, by the deadline "
                          "{deadline}: discount of {rate} = {discount}."),
              date=granted[0].date, deadline=st.lump_sum_deadline,
              rate=Rate(st.rules.lump_sum_discount_rate), discount=st.discount)
    else:
        t.add("R-A11", N_("No lump-sum discount was granted on this account this year."))
    return t


def _credit(st: Statement) -> Trace:
    t = Trace()
    for a in st.applications:
        if a.payment is not None and a.to_credit:
            t.add("R-A10", N_("The payment of {amount} on {date} paid everything owed; {credit} "
                              "was left over."), amount=a.amount, date=a.date, credit=a.to_credit)
        elif a.adjustment is not None and a.to_credit:
            t.add("R-A10", N_("The adjustment of {amount} on {date} ({description}), with any "
                              "credit, paid everything owed; {credit} was left over."),
                  amount=a.amount, date=a.date, credit=a.to_credit,
                  description=st.adjustments[a.adjustment].description or "-")
    for f in st.refunds:
        t.add("R-A10", N_("A refund of {amount} on {date} was taken from the credit."),
              amount=f.amount, date=f.date)
    t.add("R-A10", N_("A credit is never lost: it is refundable and pays any cost added later. "
                      "Credit now: {credit}."), credit=st.credit)
    return t


def _total_due_now(st: Statement) -> Trace:
    t = Trace()
    t.add("R-A10", N_("Interest {interest} + late fees {late_fees} + costs {costs} + overdue "
                      "principal {delinquent} + principal due now {due} - credit {credit} = "
                      "{total}."),
          interest=st.interest, late_fees=st.late_fees, costs=st.costs,
          delinquent=st.delinquent_principal, due=st.due_principal, credit=st.credit,
          total=st.total_due_now)
    if st.interest or st.late_fees or st.costs:
        t.add("R-A10", N_("A payment goes first to interest, then to late fees, costs and the "
                          "oldest overdue installment."))
    return t


def _payoff(st: Statement) -> Trace:
    t = Trace()
    t.add("R-A10", N_("Due now {total} + principal of the installments not yet due {upcoming} "
                      "= {payoff}, as of {as_of}."),
          total=st.total_due_now, upcoming=st.upcoming_principal, payoff=st.payoff,
          as_of=st.as_of)
    return t


_FIGURES = {
    "interest": _interest,
    "late_fees": _late_fees,
    "costs": _costs,
    "delinquent_principal": lambda st: _principal(st, "delinquent"),
    "due_principal": lambda st: _principal(st, "due"),
    "upcoming_principal": lambda st: _principal(st, "upcoming"),
    "discount": _discount,
    "credit": _credit,
    "total_due_now": _total_due_now,
    "payoff": _payoff,
}


def explain_figures(st: Statement, only: tuple[str, ...] | None = None) -> dict[str, Trace]:
    """Every figure of the statement (or `only` those named) with the steps and numbers that
    produced it."""
    return {name: explain(st) for name, explain in _FIGURES.items()
            if only is None or name in only}
