"""The notice of attachment (R-C1–R-C3, R-C7; 13 LPRA § 33262) as the portal recorded it: the
parcel's debts, notices and auctions worded from the service's summary
(`portal.collections.attachments.parcel_summary`: staff's or the debtor's, R-C5 decided there;
the attachment pages show the same `summary_view`), the notice in each language
(`notice_document`) and its PDF, the reader's language first (`notice_pdf`). No figure is
computed here; no auction minimum is ever part of the notice (R-C5). No Flask.
"""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace
from typing import Any

from portal.collections.attachments import ParcelAttachments
from portal.core.explain import N_
from portal.core.rules import RULES
from portal.i18n import Formats, formats, translate, use_language
from portal.i18n import gettext as _
from portal.pdf import Document, Ref, Row, Why, whys
from portal.pdf.attachment import render_notice

CREDITORS = {"crim": N_("CRIM (Municipal Revenue Collection Center)"),
             "treasury": N_("Department of the Treasury")}
DELIVERIES = {"personal": N_("in person"), "certified_mail": N_("by certified mail")}
OUTCOMES = {"adjudicated_to_crim": N_("Adjudicated to the CRIM at the minimum (no bids)"),
            "sold": N_("Sold")}
STOP_PARTS = {"notice_amount": N_("The debt the notice states"),
              "accrued": N_("Accrued since the notice, to the day of payment"),
              "dunning_fee": N_("Dunning agent's fee"),
              "custody_costs": N_("Custody and deposit costs")}
ITEMS = {"taxes": N_("Taxes"), "surcharges": N_("Surcharges"), "interest": N_("Interest"),
         "penalties": N_("Penalties"), "levies": N_("Levies"), "fines": N_("Fines"),
         "costs": N_("Costs")}


def _stop(nv: Any, f: Formats) -> SimpleNamespace | None:
    """R-C7, the core's figures (`SaleStopDays`): paid today, and paid on the last day."""
    if nv.stop is None:
        return None
    today, last = nv.stop.on, nv.stop.on_last_day
    return SimpleNamespace(
        amount=today.amount, amount_text=f.money(today.amount),
        parts=[(translate(STOP_PARTS[k]), f.money(getattr(today, k)))
               for k in ("notice_amount", "accrued", "dunning_fee", "custody_costs")],
        last_amount=None if last is None else last.amount,
        last_text=None if last is None else f.money(last.amount),
        last_day=today.last_day, last_day_text=f.date_long(today.last_day),
        sale_possible=today.stage == "sale_possible", why=f.trace(today.trace))


def _notice(nv: Any, f: Formats) -> SimpleNamespace:
    n = nv.notice
    return SimpleNamespace(
        stop=_stop(nv, f),
        accruals=[SimpleNamespace(stated_text=f.date_long(a.stated_on),
                                  accrued_text=f.money(a.accrued),
                                  per_day_text=f.money(a.per_day),
                                  custody_text=f.money(a.custody_costs),
                                  reference=a.reference) for a in nv.accruals],
        id=n.id, notified_text=f.date_long(n.notified_on),
        delivery_text=translate(DELIVERIES[n.delivery]),
        number=n.certified_mail_number,
        items=[(translate(ITEMS[k]), f.money(v)) for k, v in nv.figures],
        fee_text=f.money(n.dunning_fee), total_text=f.money(n.total),
        last_day=n.last_day, sale_on=n.earliest_sale_on,
        sale_text=f.date_long(n.earliest_sale_on),
        why_fee=f.trace(nv.why_fee), why_term=f.trace(nv.why_term))


def _auction(av: Any, f: Formats) -> SimpleNamespace:
    a, m, r = av.auction, av.minimum, av.result
    result = None if r is None else SimpleNamespace(
        outcome_text=translate(OUTCOMES[r.outcome]), held_text=f.date_long(r.held_on),
        bids=r.bids, price_text=f.money(r.price), shortfall=r.shortfall,
        shortfall_text=f.money(r.shortfall))
    return SimpleNamespace(
        id=a.id, number=a.auction_number, appraised_text=f.date_long(a.appraised_on),
        real_value_text=f.money(a.real_value), mortgage_text=f.money(a.mortgage_amount),
        equity_text=f.money(a.equity), credit_text=f.money(a.credit),
        floor_text=f.money(a.floor), minimum_text=f.money(a.minimum),
        why=f.trace(m.trace), result=result)


def summary_view(s: ParcelAttachments | None, f: Formats) -> SimpleNamespace | None:
    """The parcel's debts for staff or the debtor (None: the service found the reader may not
    see them, R-C5)."""
    if s is None:
        return None
    debts = []
    for dv in s.debts:
        d = dv.debt
        debts.append(SimpleNamespace(
            id=d.id, creditor=d.creditor, creditor_text=translate(CREDITORS[d.creditor]),
            years=d.fiscal_years,
            amounts=[(translate(ITEMS[k]), f.money(getattr(d, k))) for k in ITEMS
                     if getattr(d, k) or k == "taxes"],
            paid=d.paid_on is not None,
            paid_text=f.date_long(d.paid_on) if d.paid_on else None,
            notice=_notice(dv.notice, f) if dv.notice else None,
            auctions=[_auction(a, f) for a in dv.auctions]))
    today: date = s.today
    return SimpleNamespace(debts=debts, today=today, relation=s.relation,
                           parcel_id=s.parcel_id)


def _ref(rule_id: str) -> Ref:
    rule = RULES[rule_id]
    return Ref(rule.id, rule.source, translate(rule.title))


def notice_document(s: ParcelAttachments, debt_id: int, parcel: Any, lang: str
                    ) -> Document | None:
    """The notice of attachment of the debt `debt_id` in `lang`, from the service's summary
    (staff's or the debtor's: R-C5 decided there); None when the debt has no notice."""
    with use_language(lang):
        f = formats(lang)
        v = summary_view(s, f)
        d = next((d for d in v.debts if d.id == debt_id and d.notice), None) if v else None
        if d is None:
            return None
        n = d.notice
        facts = [(_("Parcel"), parcel.catastro), (_("Address"), parcel.address or "—"),
                 (_("Creditor"), d.creditor_text), (_("Fiscal years owed"), d.years),
                 (_("Notice date"), f"{n.notified_text} · {n.delivery_text}")]
        if n.number:
            facts.append((_("Certified-mail number"), n.number))
        rows = [Row(label, amount) for label, amount in n.items]
        rows.append(Row(_("Dunning agent's fee, with custody costs"), n.fee_text,
                        whys(n.why_fee)))
        rows.append(Row(_("Total stated in the notice"), n.total_text,
                        [Why(_("Everything the notice states as due and unpaid."),
                             _ref("R-C1"))], strong=True))
        body: list[str | Why] = [
            Why(_("Pay the notice's total in full by %(last)s: otherwise the parcel, or the "
                  "part strictly sufficient to pay the debt, may be sold at public auction "
                  "from %(sale)s, without further notice.",
                  last=f.date_long(n.last_day), sale=n.sale_text), _ref("R-C2")),
            Why(_("To stop the sale, pay the amount in the notice plus what has accrued up to "
                  "the day of payment, the dunning agent's fee and the custody costs."),
                _ref("R-C7")),
            *whys(n.why_term)]
        if n.stop is not None:
            body.append(Why(_("Paid on %(day)s, %(amount)s stops the sale.",
                              day=f.date_long(s.today), amount=n.stop.amount_text)
                            + ("" if n.stop.last_text is None else " " + _(
                                "Paid on the last day, %(day)s, with what accrues until "
                                "then as the Treasury has stated it: %(amount)s.",
                                day=n.stop.last_day_text, amount=n.stop.last_text)),
                            _ref("R-C7")))
        notes: list[str | Why] = [
            _("Property-tax debts of this parcel with the CRIM or the Department of the "
              "Treasury: they are not District assessments, and they are paid to the "
              "creditor, not on this portal.")]
        return Document(_("Notice of attachment"), d.creditor_text, facts, rows=rows,
                        body=body, notes=notes,
                        reference=_("Parcel %(catastro)s", catastro=parcel.catastro),
                        on=s.today, rows_heading=_("Total stated in the notice"))


def notice_pdf(s: ParcelAttachments, debt_id: int, parcel: Any, lang: str) -> bytes | None:
    """The notice of the debt `debt_id` as one tagged PDF: in `lang` (the reader's), then in
    the other language; None when the debt has no notice."""
    second = "en" if lang == "es" else "es"
    docs = [notice_document(s, debt_id, parcel, x) for x in (lang, second)]
    if docs[0] is None or docs[1] is None:
        return None
    return render_notice(docs[0], lang, docs[1], second)


def filename(debt_id: int, lang: str) -> str:
    return (f"notificacion-de-embargo-{debt_id}.pdf" if lang == "es"
            else f"notice-of-attachment-{debt_id}.pdf")
