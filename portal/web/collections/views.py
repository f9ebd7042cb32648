"""What the collections pages and the demand letter say, worded once here in the request's
language (or the letter's): the owner's timeline (J9, `core.collection_timeline`), the staff's
rows, and the bilingual demand letter (R-A17) as a `pdf.Document` for each language."""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace
from typing import Any

from flask_babel import lazy_gettext as _l

from portal import clock
from portal.accounts import closed_days
from portal.collections import demands
from portal.core.collection_timeline import mail_by
from portal.core.rules import RULES
from portal.i18n import Formats, date_long, formats, money, translate, use_language
from portal.i18n import gettext as _
from portal.pdf import Document, Ref, Row, Why, whys
from portal.web.data import uow

#: The steps of the timeline, in the owner's words.
STEP_LABELS = {
    "notified": _l("Assessment notified"),
    "due": _l("Installment due"),
    "delinquent": _l("Delinquent (after the grace day)"),
    "demand_queued": _l("Demand queued"),
    "demand_mailed": _l("Demand mailed by certified mail"),
    "received": _l("Return receipt"),
    "window_ends": _l("Last day to pay the demand"),
    "claimable": _l("May be claimed in court"),
    "claimed": _l("Claimed in court"),
}
#: A step with no date yet: why.
NOT_YET = {
    "demand_mailed": _l("when it is mailed"),
    "received": _l("when the return receipt comes back"),
    "window_ends": _l("15 days after mailing"),
    "claimable": _l("the day after the last day"),
    "claimed": _l("if staff decide to sue"),
}
STATUS_LABELS = {
    "queued": _l("Queued, not mailed"),
    "mailed": _l("Mailed, in its 15 days"),
    "received": _l("Received, in its 15 days"),
    "claimable": _l("May go to court"),
    "claimed": _l("Claimed in court"),
    "paid": _l("Paid: claim stopped"),
}


def timeline_view(acct: Any, today: date, f: Formats | None = None) -> SimpleNamespace | None:
    """The parcel page's collection timeline (one line in `accounts.views.parcel_view`): every
    step with its date and the amount that, paid by which day, stops the next step. None
    when the account has nothing to collect (no statement, or nothing owed nor upcoming)."""
    if acct.offer is None or acct.statement is None or acct.assessment is None:
        return None
    sent = [n for n in acct.demands if n.kind == "demand"]
    claims = []
    if sent:
        with uow() as w:
            claims = demands.claims_of(w, [n.id for n in sent])
    tl = demands.account_timeline(acct.offer.account, today, acct.assessment.notified_on,
                                  sent, claims)
    if tl.stage in ("current", "paid") and not sent:
        return None  # up to date: the page's first screen says what is next
    return shown(tl, today, f or formats())


def shown(tl: Any, today: date, f: Formats) -> SimpleNamespace:
    steps = [SimpleNamespace(key=s.key, label=str(STEP_LABELS[s.key]), day=s.on, done=s.done,
                             text=f.date_long(s.on) if s.on else str(NOT_YET.get(s.key, "—")),
                             rule=s.rule)
             for s in tl.steps]
    n = tl.next
    return SimpleNamespace(stage=tl.stage, steps=steps, today=today,
                           next=None if n is None else SimpleNamespace(
                               step=n.step, amount=n.amount, by=n.by,
                               amount_text=f.money(n.amount)),
                           why=f.trace(tl.trace()),
                           sentence=" ".join(s.text for s in f.trace(tl.trace())))


def row_view(r: demands.DemandRow, f: Formats) -> SimpleNamespace:
    """A demand on the staff's lists."""
    n, dl = r.notice, r.letter
    queued_on = dl.run_on if dl is not None else clock.legal_date(n.created_at)
    return SimpleNamespace(
        mail_by_text=f.date_long(mail_by(queued_on)) if n.mailed_on is None else "",
        id=n.id, catastro=r.catastro, addressee=r.addressee or "—",
        status=r.status, status_text=str(STATUS_LABELS.get(r.status, r.status)),
        amount_text=f.money(n.amount), run_text=f.date_long(dl.run_on) if dl else "—",
        mailed_text=f.date_long(n.mailed_on) if n.mailed_on else "—",
        number=n.certified_mail_number or "—",
        received_text=f.date_long(n.acknowledged_on) if n.acknowledged_on else "—",
        last_day=r.last_day, last_text=f.date_long(r.last_day) if r.last_day else "—",
        claimable_from=r.claimable_from,
        claimable_text=f.date_long(r.claimable_from) if r.claimable_from else "—",
        stop_text=f.money(r.stop_amount) if r.stop_amount is not None else "—",
        claim=r.claim, language=n.language, mailed=n.mailed_on is not None,
        received=n.acknowledged_on is not None)


# --- The demand letter (R-A17) -------------------------------------------------------------

def _ref(rule_id: str) -> Ref:
    rule = RULES[rule_id]
    return Ref(rule.id, rule.source, translate(rule.title))


def letter_document(lf: demands.LetterFacts, lang: str,
                    closed: tuple[closed_days.ClosedDay, ...] = ()) -> Document:
    """The demand letter in `lang` (the caller renders one per language, the addressee's
    first): every amount due with its rule, the interest per day, the last day (once mailed)
    and the amount that, paid by which day, stops the next step (the timeline's sentence)."""
    with use_language(lang):
        f = formats(lang)
        n, dl, st, tl = lf.notice, lf.letter, lf.statement, lf.timeline
        on = dl.run_on if dl is not None else st.as_of
        facts = [(_("Parcel"), lf.parcel.catastro),
                 (_("Address"), lf.parcel.address or "—"),
                 (_("Fiscal year"), lf.fiscal_year.label),
                 (_("To"), lf.addressee.name if lf.addressee else _("The payer of the account")),
                 (_("Demand date"), date_long(on))]
        if n.mailed_on:
            facts.append((_("Mailed by certified mail"),
                          f"{date_long(n.mailed_on)} · {n.certified_mail_number or ''}"))
        amounts = dl if dl is not None else st
        rows = [Row(_("Interest to %(date)s", date=date_long(on)), money(amounts.interest),
                    [Why(_("Simple interest on the delinquent principal from each installment's "
                           "due date; each further day adds %(per_day)s.",
                           per_day=money(lf.interest_per_day)), _ref("R-A8"))]),
                Row(_("Late fees"), money(amounts.late_fees),
                    [Why(_("One late fee for each installment not paid by its grace day."),
                         _ref("R-A7"))]),
                Row(_("Collection costs"), money(amounts.costs),
                    [Why(_("Costs recorded on the account, such as certified mail."),
                         _ref("R-A9"))]),
                Row(_("Delinquent principal"), money(amounts.delinquent_principal),
                    [Why(_("Installments not paid by their grace day: %(numbers)s.",
                           numbers=(dl.installments.replace(",", ", ") if dl is not None
                                    else "—")),
                         _ref("R-A6"))])]
        if amounts.credit:
            rows.append(Row(_("Credit on the account"), "−" + money(amounts.credit)))
        rows.append(Row(_("Total demanded"), money(amounts.total if dl is not None
                                                   else st.total_due_now),
                        [Why(_("Every amount due on the demand's date."), _ref("R-A12"))],
                        strong=True))
        body: list[str | Why] = [
            _("The District's Authority demands payment of every amount due on this account, "
              "as the law requires after the grace day, by certified mail with return "
              "receipt."),
            Why(_("If the demand is not paid in full within 15 days after it is mailed (a last "
                  "day that falls on a weekend, a holiday or a day the Board declares closed "
                  "moves to the next working day), the debt may be claimed in court under "
                  "Rule 60 of Civil Procedure, whatever the amount. The 15 days run from "
                  "mailing, even if the letter is not claimed at the post office."),
                _ref("R-A13")),
        ]
        body += [Why(s.text, _ref(s.rule) if s.rule in RULES else None)
                 for s in f.trace(tl.trace())]
        if tl.stop is not None:  # R-A13: the day the Board declared closed that moved it
            body += [Why(s.text, _ref(s.rule)) for s in f.trace(closed_days.demand(
                n.mailed_on, tl.stop.last_day, closed))]
        notes: list[str | Why] = [
            _("Pay online at the portal, or at the Authority's office. A payment goes first "
              "to interest, then late fees, then costs, then the oldest principal."),
            _("This letter goes to the payer of the account, with a copy to the owner. The "
              "certified mail's postage is a cost of the account.")]
        return Document(_("Demand for payment"), _("Certified mail with return receipt"),
                        facts, rows=rows, body=body, notes=notes,
                        reference=_("Demand %(id)s · Parcel %(catastro)s", id=n.id,
                                    catastro=lf.parcel.catastro),
                        on=on, rows_heading=_("What is demanded"))


def mailing_document(lf: demands.LetterFacts, lang: str) -> Document:
    """The receipt of mailing for a court packet (R-A12, R-A13): the certified-mail number,
    the mailing and return-receipt dates, the last day to pay and the first day of the claim."""
    with use_language(lang):
        n = lf.notice
        stop = lf.timeline.stop
        facts = [(_("Parcel"), lf.parcel.catastro),
                 (_("To"), lf.addressee.name if lf.addressee else _("The payer of the account")),
                 (_("Demand"), str(n.id)),
                 (_("Certified-mail number"), n.certified_mail_number or "—"),
                 (_("Mailing date"), date_long(n.mailed_on) if n.mailed_on else "—"),
                 (_("Date on the return receipt"),
                  date_long(n.acknowledged_on) if n.acknowledged_on else
                  _("none recorded: the 15 days run from mailing")),
                 (_("Last day to pay"), date_long(stop.last_day) if stop else "—"),
                 (_("May be claimed from"), date_long(stop.court_claim_from) if stop else "—")]
        rows = []
        if stop is not None:
            rows.append(Row(_("What the demand listed, owed today"), money(stop.today),
                            [Why(_("Payments by the last day stop the claim only if nothing "
                                   "is left owed on what the demand listed."),
                                 _ref("R-A13"))], strong=True))
        return Document(_("Receipt of mailing"), _("Certified mail with return receipt"),
                        facts, rows=rows,
                        reference=_("Demand %(id)s · Parcel %(catastro)s", id=n.id,
                                    catastro=lf.parcel.catastro), on=lf.timeline.today)


__all__ = ["STATUS_LABELS", "letter_document", "mailing_document", "row_view", "shown",
           "timeline_view", "whys"]
