"""The payment receipt (page, PDF, email): its view data, worded from the ledger's receipt
(`portal.payments.receipts`), its PDF (`portal.pdf`) and its email (`portal.mail`, in the payer's
language, with the PDF attached, sent once).

No Flask: the receipt page, the webhook and `portal payments reconcile` all use it (the
command from a plain process, with `portal.config.settings()`). No amount is computed here:
every figure comes from the ledger. Messages are catalog entries (N_ marks them for
extraction; they are translated when shown).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from sqlalchemy import select

from portal import clock, i18n, mail, pdf
from portal.config import DEFAULT_BASE_URL
from portal.core import payment_states as states
from portal.core.explain import N_, translator
from portal.core.rules import RULES
from portal.core.statement import LUMP_SUM_REASONS
from portal.db import Database, UnitOfWork
from portal.i18n import LANGUAGES, current_language, date_long, format_address, money
from portal.i18n import gettext as _
from portal.models.checkouts import Checkout
from portal.payments import fulfilment, receipts
from portal.payments.receipts import Receipt, ReceiptPart
from portal.pdf.cache import rendered

log = logging.getLogger(__name__)

STATUS = {
    states.CREATED: N_("started"),
    states.PENDING: N_("waiting for the payment"),
    states.PROCESSING: N_("processing"),
    states.SUCCEEDED: N_("paid"),
    states.FAILED: N_("failed: nothing was charged"),
    states.EXPIRED: N_("not paid (expired)"),
    states.PARTIALLY_REFUNDED: N_("paid, partly refunded"),
    states.REFUNDED: N_("refunded"),
}
#: The status badge's colour for each state (the ui macro's names).
STATUS_CSS = {states.CREATED: "upcoming", states.PENDING: "pending",
              states.PROCESSING: "pending", states.SUCCEEDED: "paid",
              states.FAILED: "overdue", states.EXPIRED: "upcoming",
              states.PARTIALLY_REFUNDED: "paid", states.REFUNDED: "upcoming"}

KIND = {
    "due_now": N_("What was due when paid"),
    "installments": N_("Installments through number {number}"),
    "amount": N_("Another amount"),
    "lump_sum": N_("The whole year with the discount"),
    "stop_claim": N_("What the demand listed, to stop the claim in court"),
    "office": N_("Payment at the office"),
}

LINE = {
    "interest": N_("Interest on installment {number}"),
    "late_fee": N_("Late fee on installment {number}"),
    "cost": N_("Collection cost: {description}"),
    "principal": N_("Installment {number}"),
    "credit": N_("Credit on the account (refundable)"),
    "discount": N_("Lump-sum discount on installment {number}"),
    "discount_credit": N_("Lump-sum discount, as credit"),
}

COST = {
    "certified_mail": N_("certified mail"),
    "court_costs": N_("court costs"),
    "attorney_fees": N_("attorney's fees"),
    "other": N_("other collection cost"),
    "refund": N_("money refunded"),
    "reversal": N_("payment reversed"),
    "adjustment": N_("adjustment"),
}

METHOD = {
    "card": N_("Card ending in {last4}"),
    "card_brand": N_("{brand} card ending in {last4}"),
    "bank": N_("Bank account at {bank} ending in {last4}"),
    "card_only": N_("Card"),
    "bank_only": N_("Bank account"),
    "lender": N_("Paid by the mortgage lender"),
    "cash": N_("Cash, at the office"),
    "check": N_("Check number {reference}, at the office"),
    "unknown": N_("Card or bank account"),
}

REFUND_REASON = {
    "credit": N_("Credit refunded"),
    "provider": N_("Refunded by the payment service"),
    "staff": N_("Refunded by the office"),
}


def t(message: str, **params: Any) -> str:
    """A marked message in the current language, with {placeholders} filled."""
    return translator(current_language()).gettext(message).format(**params)


def status_label(status: str) -> str:
    return t(STATUS.get(status, status))


def kind_label(kind: str, through: int | None = None) -> str:
    return t(KIND.get(kind, kind), number=through or "—")


def through_of(lines: Any) -> int | None:
    """The last installment a posted payment paid principal on: for a payment of
    "installments through number N", that N (the receipt stores lines, not the choice)."""
    numbers = [ln.installment_number for ln in lines
               if ln.kind == "principal" and ln.installment_number is not None]
    return max(numbers) if numbers else None


def method_label(chk: Any) -> str:
    m = chk.method
    if m == "card" and chk.last4:
        if chk.card_brand:
            return t(METHOD["card_brand"], brand=chk.card_brand.capitalize(), last4=chk.last4)
        return t(METHOD["card"], last4=chk.last4)
    if m == "bank" and chk.last4:
        return t(METHOD["bank"], bank=chk.bank_name or "—", last4=chk.last4)
    if m == "card":
        return t(METHOD["card_only"])
    if m == "bank":
        return t(METHOD["bank_only"])
    if m == "lender":
        return t(METHOD["lender"])
    if m == "cash":
        return t(METHOD["cash"])
    if m == "check":
        return t(METHOD["check"], reference=chk.reference or "—")
    return t(METHOD["unknown"])


def rule_title(rule_id: str) -> str:
    r = RULES.get(rule_id)
    return translator(current_language()).gettext(r.title) if r else ""


#: The rule that made each kind of line owed (the line itself is applied under R-A10/R-A11).
ORIGIN = {"interest": "R-A8", "late_fee": "R-A7", "cost": "R-A9", "principal": "R-A4",
          "credit": "R-A10", "discount": "R-A11"}


@dataclass
class LineView:
    label: str
    amount: Decimal
    rule: str  # e.g. "R-A8 · R-A10": why it was owed, and the order that applied it
    rule_title: str
    kind: str


def line_rules(kind: str, applied: str) -> tuple[str, str]:
    """The rule that made a line owed and the one that applied it (ids), and the first's title."""
    origin = ORIGIN.get(kind, applied)
    ids = origin if origin == applied else f"{origin} · {applied}"
    return ids, rule_title(origin)


def line_label(kind: str, installment: int | None, cost_kind: str | None = None) -> str:
    if kind == "discount" and installment is None:
        return t(LINE["discount_credit"])
    if kind == "cost":
        return t(LINE["cost"], description=t(COST.get(cost_kind or "other", COST["other"])))
    return t(LINE.get(kind, kind), number=installment or "")


DISCOUNT_ROW = N_("Lump-sum discount (R-A11)")
DISCOUNT_HINT = N_("Not part of the amount paid: it reduces what the year costs.")


def lines_of(part: ReceiptPart) -> list[LineView]:
    """The lines the money paid (the discount is shown apart: it is not money paid)."""
    out = []
    for ln in part.lines:
        if ln.kind == "discount":
            continue
        cost_kind = part.cost_descriptions.get(ln.cost_entry_id) if ln.cost_entry_id else None
        ids, title = line_rules(ln.kind, ln.rule)
        out.append(LineView(line_label(ln.kind, ln.installment_number, cost_kind), ln.amount,
                            ids, title, ln.kind))
    return out


def lump_sum_note(verdict: str | None, deadline: Any, discount: Decimal) -> str | None:
    if not verdict:
        return None
    tr = translator(current_language())
    return tr.gettext(LUMP_SUM_REASONS[verdict]).format(
        deadline=date_long(deadline) if deadline else "—", discount=money(discount))


@dataclass
class ReceiptView:
    receipt: Receipt
    number: str
    date: str
    status: str
    status_css: str
    method: str
    payer: str
    amount_label: str
    amount: Decimal
    refunded: Decimal
    parts: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    date_label: str = ""  # "Date" once paid; "Attempted on" / "Started on" before or without it
    applied_caption: str = ""  # the application table's caption and total, worded for the
    total_label: str = ""  # state: paid, or still processing (nothing received yet)
    try_again: bool = False  # failed or expired: nothing was charged, the page offers to retry


AMOUNT_LABEL = {
    states.FAILED: N_("Amount attempted"),
    states.EXPIRED: N_("Amount attempted"),
    states.PROCESSING: N_("Processing"),
    states.CREATED: N_("Amount to pay"),
    states.PENDING: N_("Amount to pay"),
}


def amount_label(status: str) -> str:
    """The amount's label: "amount paid" only when money was received; a failed or expired
    payment charged nothing (amount attempted); a bank debit still settling is processing."""
    return t(AMOUNT_LABEL.get(status, N_("Amount paid")))


def receipt_view(r: Receipt) -> ReceiptView:
    chk = r.checkout
    view = ReceiptView(
        receipt=r, number=chk.receipt_number or "—",
        date=date_long(r.legal_date) if r.legal_date else "—", status=status_label(chk.status),
        status_css=STATUS_CSS.get(chk.status, "upcoming"), method=method_label(chk),
        payer=chk.payer_name or (chk.payer_email or "—"),
        amount_label=amount_label(chk.status), amount=chk.amount,
        refunded=chk.refunded_amount)
    processing = chk.status == states.PROCESSING
    view.date_label = t(N_("Date"))
    if r.legal_date is None and chk.created_at is not None:
        view.date = date_long(_legal(chk.created_at))
        view.date_label = t(N_("Attempted on") if chk.status in (states.FAILED, states.EXPIRED)
                            else N_("Started on"))
    view.applied_caption = t(N_("How the payment is being applied") if processing
                             else N_("How the payment was applied"))
    view.total_label = t(N_("Total in process") if processing else N_("Total paid"))
    view.try_again = chk.status in (states.FAILED, states.EXPIRED)
    for part in r.parts:
        view.parts.append({
            "catastro": part.parcel.catastro,
            "address": format_address(part.parcel.address, part.parcel.municipality),
            "parcel_id": part.parcel.id,
            "fiscal_year": part.fiscal_year.label,
            "amount": part.payment.amount,
            "kind": kind_label(part.payment.purpose, part.through or through_of(part.lines)),
            "lines": lines_of(part),
            "paid_total": part.applied, "discount": part.discount,
            "lump_sum": lump_sum_note(part.lump_sum, r.lump_sum_deadline, part.discount),
            "refunds": [{"date": date_long(_legal(x.created_at)), "amount": x.amount,
                         "reason": t(REFUND_REASON.get(x.reason, x.reason))}
                        for x in part.refunds],
            "reversed": part.reversed,
            "left": part.left,
        })
    if chk.status == states.PROCESSING:
        view.notes.append(_("Your bank is processing this payment. It already counts as paid "
                            "on the date you made it; if the bank does not complete it, the "
                            "amount will be owed again and we will tell you."))
    if chk.status == states.FAILED and any(p["reversed"] for p in view.parts):
        view.notes.append(_("The bank did not complete this payment: what it had paid is owed "
                            "again."))
    if chk.status in (states.PENDING, states.CREATED):
        view.notes.append(_("We have not received this payment yet."))
    view.notes.append(_("Each payment is applied by law (23 LPRA § 6432(d), rule R-A10): first "
                        "interest, then late fees, then collection costs, then overdue "
                        "installments, then the next installments in order; anything left is "
                        "a refundable credit."))
    return view


def _legal(instant: Any) -> Any:
    return clock.legal_date(instant)


def _why(rule_id: str) -> pdf.Why:
    """A receipt line's "why": the rule's title in plain words, its statute as a footnote."""
    r = RULES.get(rule_id)
    if r is None:
        return pdf.Why(rule_id)
    return pdf.Why(rule_title(rule_id), pdf.Ref(r.id, r.source, rule_title(rule_id)))


def receipt_document(v: ReceiptView) -> pdf.Document:
    facts = [(_("Receipt number"), v.number), (v.date_label, v.date), (_("Payer"), v.payer),
             (_("Method"), v.method), (_("Status"), v.status),
             (v.amount_label, money(v.amount))]
    if v.refunded:
        facts.append((_("Refunded"), money(v.refunded)))
    rows: list[pdf.Row] = []
    table: list[tuple[str, str, str | pdf.Why, str]] = []
    notes: list[str | pdf.Why] = list(v.notes)
    for p in v.parts:
        rows.append(pdf.Row(_("Parcel %(catastro)s, fiscal year %(year)s", catastro=p["catastro"],
                              year=p["fiscal_year"]),
                            money(p["amount"]), [pdf.Why(p["address"]), pdf.Why(p["kind"])],
                            strong=True))
        for ln in p["lines"]:
            table.append((p["catastro"], ln.label, _why(ln.rule.split(" · ")[0]),
                          money(ln.amount)))
        if p["lines"]:
            table.append((p["catastro"], v.total_label, "", money(p["paid_total"])))
        if p["discount"]:
            table.append((p["catastro"], f"{_('Lump-sum discount')} · {t(DISCOUNT_HINT)}",
                          _why("R-A11"), f"({money(p['discount'])})"))
        for rf in p["refunds"]:
            table.append((p["catastro"], f"{rf['reason']} ({rf['date']})", "",
                          "−" + money(rf["amount"])))
        if p["lump_sum"]:
            notes.insert(0, pdf.Why(p["lump_sum"], _why("R-A11").ref))
    lines = pdf.Table(head=(_("Parcel"), _("Applied to"), _("Why"), _("Amount")), rows=table,
                      widths=(22, 38, 40, 18), align="LLLR", heading=v.applied_caption)
    return pdf.Document(
        title=_("Payment receipt %(number)s", number=v.number),
        subtitle=_("District Assessments Portal"),
        facts=facts, rows=rows, rows_heading=_("What was paid"),
        tables=[lines] if table else [], notes=notes, on=v.receipt.legal_date)


# --- the PDF ---------------------------------------------------------------------------------

def receipt_pdf(view: ReceiptView, lang: str) -> bytes:
    """The receipt as a tagged PDF in `lang`, drawn once while nothing it shows changes
    (`pdf.cache`: keyed by the whole document, every line and status of it)."""
    return rendered(receipt_document(view), lang)


def filename(number: str, lang: str) -> str:
    """The PDF's file name: recibo-2026-000123.pdf, receipt-2026-000123.pdf."""
    return ("recibo" if lang == "es" else "receipt") + f"-{number}.pdf"


# --- the email -------------------------------------------------------------------------------

#: The receipt page's path (`payments.receipt` in portal/web/payments/routes.py).
RECEIPT_PATH = "/pagos/{checkout_id}/recibo"


def link(config: Mapping[str, Any], checkout_id: int) -> str:
    """The receipt page's absolute address, on PORTAL_BASE_URL (never a request's host)."""
    base = str(config.get("PORTAL_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
    return base + RECEIPT_PATH.format(checkout_id=int(checkout_id))


def send_receipt(database: Database, checkout_id: int, config: Mapping[str, Any]) -> bool:
    """Email the receipt if it is due; True when an email went out. Idempotent: it locks the
    checkout, sends only when the payment has been applied, the payer has an email and no
    receipt was sent yet, and records when it was sent. `config`: the mail settings and
    PORTAL_BASE_URL (the app's config, or `portal.config.settings()` from a command)."""
    with UnitOfWork(database) as w:
        chk = fulfilment.lock_checkout(w, checkout_id)
        applied = chk.status in states.APPLIED or chk.status == states.REFUNDED
        if chk.receipt_sent_at is not None or not chk.payer_email or not applied:
            return False
        lang = chk.language if chk.language in LANGUAGES else "es"
        with i18n.use_language(lang):
            view = receipt_view(receipts.build(w, chk))
            subject, body = mail.render_text(
                "payments/email_receipt.txt", lang, v=view, link=link(config, chk.id))
            data = receipt_pdf(view, lang)
        msg = mail.build(chk.payer_email, subject, body, lang, config)
        msg.add_attachment(data, maintype="application", subtype="pdf",
                           filename=filename(chk.receipt_number, lang))
        mail.queue(w, msg, "receipt", config=config)  # sent once this commits
        chk.receipt_sent_at = clock.now()
    log.info("payments: receipt of checkout %s emailed", checkout_id)
    return True


def due(database: Database) -> list[int]:
    """The checkouts applied whose payer has an email and no receipt yet (`send_receipt`
    sends each)."""
    with UnitOfWork(database) as w:
        return list(w.session.scalars(select(Checkout.id).where(
            Checkout.receipt_sent_at.is_(None), Checkout.payer_email.is_not(None),
            Checkout.status.in_(sorted(states.APPLIED)))).all())


def send_due(database: Database, config: Mapping[str, Any]) -> int:
    """Email every receipt due (`portal payments reconcile`); how many went out."""
    return sum(1 for cid in due(database) if send_receipt(database, cid, config))
