"""Presentation of the core's results for pages and PDFs: labels, Babel formatting, and the
"why this amount?" steps picked from the core's traces. No amount is computed here: every
figure is read from the core's `Statement`, `LumpSumQuote` and traces that the services return.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from portal.core.explain import N_, Trace
from portal.core.statement import Statement
from portal.i18n import render_trace, translate

RELATIONS = {
    "owner": _l("owner"),
    "lessee": _l("lessee"),
    "delegate": _l("read access granted by the owner"),
    "lender": _l("lender"),
    "staff": _l("staff"),
}

LINE_KINDS = {
    "project": _l("Improvement project"),
    "maintenance": _l("Maintenance, repair and replacement"),
    "marketing": _l("Marketing"),
    "operation": _l("Operation"),
    "center": _l("Center improvements"),
}


STATUSES = {
    "current": (N_("up to date"), "current"),
    "pending": (N_("pending"), "pending"),
    "overdue": (N_("overdue"), "overdue"),
    "paid": (N_("paid"), "paid"),
    "due": (N_("due"), "pending"),
    "upcoming": (N_("upcoming"), "upcoming"),
    "delinquent": (N_("overdue"), "overdue"),
    "none": (N_("no assessment"), "upcoming"),
}


def status_label(status: str) -> str:
    """The badge's words: al día / pendiente / vencido, ... (account and installment)."""
    return translate(STATUSES[status][0]) if status in STATUSES else status


def status_css(status: str) -> str:
    return STATUSES[status][1] if status in STATUSES else "upcoming"


def relation_label(role: str) -> str:
    return str(RELATIONS.get(role, role))


def line_kind_label(kind: str) -> str:
    return str(LINE_KINDS.get(kind, kind))


@dataclass
class Amount:
    key: str
    label: str
    amount: Decimal
    why: list[dict[str, str]] = field(default_factory=list)


def statement_amounts(st: Statement, extra: Trace | None = None) -> list[Amount]:
    """The statement's figures with the steps that explain each (R-A4 to R-A10)."""
    trace = st.trace()
    if extra is not None:
        merged = Trace()
        merged.extend(extra)
        merged.extend(trace)
        trace = merged
    rows = [
        Amount("interest", _("Interest to date"), st.interest, render_trace(trace, ("R-A8",))),
        Amount("late_fees", _("Late fees"), st.late_fees, render_trace(trace, ("R-A6", "R-A7"))),
        Amount("costs", _("Collection costs"), st.costs, render_trace(trace, ("R-A9",))),
        Amount("delinquent_principal", _("Overdue installments (principal)"),
               st.delinquent_principal, render_trace(trace, ("R-A4", "R-A6"))),
        Amount("due_principal", _("Installment due now, still on time (principal)"),
               st.due_principal, render_trace(trace, ("R-A4",))),
    ]
    if st.credit:
        rows.append(Amount("credit", _("Credit in your favor"), st.credit,
                           render_trace(trace, ("R-A10",))))
    rows.append(Amount("total_due_now", _("Total due now"), st.total_due_now,
                       render_trace(trace, ("R-A10",))))
    return rows


def steps_text(steps: list[dict[str, str]]) -> list[str]:
    """Explanation steps as lines of text (PDF)."""
    return [f"{s['rule']} ({s['source']}): {s['text']}" for s in steps]
