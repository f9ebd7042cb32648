"""Presentation of the core's results for pages and PDFs: labels, Babel formatting, and the
"why this amount?" steps picked from the core's traces. No amount is computed here: every
figure is read from the core's `Statement`, `LumpSumQuote` and traces that the services return.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from portal import clock
from portal.core.explain import N_, Step, Trace
from portal.core.statement import Statement
from portal.i18n import Formats, ShownStep, format_address, formats, translate
from portal.i18n import fast_gettext as _
from portal.pdf.authority import phone as _authority_phone

RELATIONS = {
    "owner": N_("owner"),
    "lessee": N_("lessee"),
    "delegate": N_("read access granted by the owner"),
    "lender": N_("lender"),
    "staff": N_("staff"),
}

LINE_KINDS = {
    "project": N_("Improvement project"),
    "maintenance": N_("Maintenance, repair and replacement"),
    "marketing": N_("Marketing"),
    "operation": N_("Operation"),
    "center": N_("Center improvements"),
}


STATUSES = {
    "current": (N_("up to date"), "current"),
    "pending": (N_("pending"), "pending"),
    "overdue": (N_("overdue"), "overdue"),
    "paid": (N_("paid"), "paid"),
    "due": (N_("due"), "pending"),
    "upcoming": (N_("upcoming"), "upcoming"),
    "delinquent": (N_("overdue"), "overdue"),
    # R-A5: an installment an amendment reduced to nothing is owed no more, never "paid".
    "cancelled": (N_("cancelled by an amendment"), "upcoming"),
    "none": (N_("no assessment"), "upcoming"),
}


def status_label(status: str) -> str:
    """The badge's words: al día / pendiente / vencido, ... (account and installment)."""
    return translate(STATUSES[status][0]) if status in STATUSES else status


def installment_status(status: str, amount: Decimal | None) -> str:
    """The status an installment row shows: the core's, except "cancelled" for one that an
    amendment reduced to 0.00 (R-A5: nothing was paid on it; it is simply no longer owed)."""
    return "cancelled" if status == "paid" and amount is not None and amount == 0 else status


def status_css(status: str) -> str:
    return STATUSES[status][1] if status in STATUSES else "upcoming"


def relation_label(role: str) -> str:
    return translate(RELATIONS[role]) if role in RELATIONS else role


def line_kind_label(kind: str) -> str:
    return translate(LINE_KINDS[kind]) if kind in LINE_KINDS else kind


@dataclass
class Amount:
    key: str
    label: str
    amount: Decimal
    why: list[ShownStep] = field(default_factory=list)


#: The figures the page lists (`statement_amounts`), each explained under its amount.
SHOWN_FIGURES = ("interest", "late_fees", "costs", "delinquent_principal", "due_principal",
                 "discount", "credit", "total_due_now")


def statement_amounts(st: Statement, cost_texts: dict[int, str] | None = None,
                      f: Formats | None = None, *, explain_zero: bool = True
                      ) -> list[Amount]:
    """The statement's figures, each with the steps and numbers that produced it (the core's
    `Statement.figures()`: one explanation per figure, R-A4 to R-A11). `cost_texts`: the
    reader's words for each cost, by its index among the account's debits; `f`: the
    request's `formats()`, when the caller has it. Not `explain_zero` (the parcel page, which
    names a figure of 0.00 without its explanation): a figure of 0.00 other than the total
    has no steps, and the core explains only the others."""
    render = (f or formats()).trace
    amounts = {"interest": st.interest, "late_fees": st.late_fees, "costs": st.costs,
               "delinquent_principal": st.delinquent_principal,
               "due_principal": st.due_principal, "discount": st.discount,
               "credit": st.credit, "total_due_now": st.total_due_now}
    figs = st.figures(only=SHOWN_FIGURES if explain_zero else tuple(
        k for k in SHOWN_FIGURES if amounts[k] or k == "total_due_now"))

    def render_trace(trace: Trace | None) -> list[ShownStep]:
        return render(trace) if trace is not None else []

    if cost_texts and "costs" in figs:
        figs["costs"] = name_costs(st, figs["costs"], cost_texts)
    if st.late_fees:
        figs["late_fees"].add("R-A7", N_("Late fees owed as of {as_of}: {late_fees}."),
                              as_of=st.as_of, late_fees=st.late_fees)
    if st.costs:
        figs["costs"].add("R-A9", N_("Collection costs owed as of {as_of}: {costs}."),
                          as_of=st.as_of, costs=st.costs)
    rows = [
        Amount("interest", _("Interest to date"), st.interest, render_trace(figs.get("interest"))),
        Amount("late_fees", _("Late fees"), st.late_fees, render_trace(figs.get("late_fees"))),
        Amount("costs", _("Collection costs"), st.costs, render_trace(figs.get("costs"))),
        Amount("delinquent_principal", _("Overdue installments (principal)"),
               st.delinquent_principal, render_trace(figs.get("delinquent_principal"))),
        Amount("due_principal", _("Installment due now, still on time (principal)"),
               st.due_principal, render_trace(figs.get("due_principal"))),
    ]
    if st.discount:
        rows.append(Amount("discount", _("Lump-sum discount"), st.discount,
                           render_trace(figs.get("discount"))))
    if st.credit:
        rows.append(Amount("credit", _("Credit in your favor"), st.credit,
                           render_trace(figs.get("credit"))))
    rows.append(Amount("total_due_now", _("Total due now"), st.total_due_now,
                       render_trace(figs.get("total_due_now"))))
    return rows


def name_costs(st: Statement, trace: Trace, cost_texts: dict[int, str]) -> Trace:
    """The costs' explanation with each cost named in the reader's words (the core knows only
    its kind, e.g. certified_mail): one step per cost item, in the same order."""
    steps = list(trace.steps)
    for k, item in enumerate(st.cost_items[:len(steps)]):
        text = cost_texts.get(item.index)
        if text and "description" in steps[k].params:
            steps[k] = Step(steps[k].rule, steps[k].message,
                            {**steps[k].params, "description": text})
    return Trace(steps)


PAYOFF_SUM = N_("As of {as_of}: interest {interest} + late fees {late_fees} + costs {costs} + "
                "unpaid principal ({delinquent} overdue, {due} due and {upcoming} not yet "
                "due) - credit {credit} = {payoff}.")


def payoff_why(st: Statement, f: Formats | None = None) -> list[ShownStep]:
    """The pay-off amount good through a date, from the statement as of that date: it
    includes the interest accrued to that date (R-A8), the fees and costs owed and every
    unpaid installment, less any credit (R-A10)."""
    t = Trace()
    t.add("R-A10", N_("The pay-off amount is what the account will owe on {as_of}: it "
                      "includes the interest accrued to that date."), as_of=st.as_of)
    t.extend(st.figures(only=("interest",))["interest"])
    # The late fees and costs are the same on that date: each is explained under its amount.
    if st.payoff:
        t.add("R-A10", PAYOFF_SUM, as_of=st.as_of, interest=st.interest,
              late_fees=st.late_fees, costs=st.costs, delinquent=st.delinquent_principal,
              due=st.due_principal, upcoming=st.upcoming_principal, credit=st.credit,
              payoff=st.payoff)
    else:
        t.add("R-A10", N_("Nothing is owed as of {as_of}: the pay-off amount is {payoff}."),
              as_of=st.as_of, payoff=st.payoff)
    return (f or formats()).trace(t)


def steps_text(steps: list[ShownStep]) -> list[str]:
    """Explanation steps as lines of text (PDF)."""
    return [f"{s.rule} ({s.source}): {s.text}" for s in steps]


#: The address with its municipality once (the templates' `full_address`): the one function,
#: `portal.i18n.format_address`, which the PDFs use too.
full_address = format_address


def authority_phone() -> str:
    """The Authority's telephone today, from `portal/pdf/authority.toml`: the one place
    for its contact details, the same on pages, emails and PDFs."""
    return _authority_phone(clock.today())
