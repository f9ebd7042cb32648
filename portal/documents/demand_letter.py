"""The demand for payment (R-A12, R-A17) and the receipt of its mailing (R-A13): the letter in
each language (`letter_document`, the addressee's first in `letter_pdf`) and the receipt of
mailing of a court packet (`mailing_document`), worded from the service's facts
(`portal.collections.demands.letter`: the notice, the letter's amounts, the statement and the
timeline) and the declared closed days (`portal.accounts.closed_days`).

No Flask: the letter's page and the court packet (`court_packet`) print them the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from portal.accounts import closed_days
from portal.collections import demands, letters
from portal.core.rules import RULES
from portal.i18n import date_long, formats, money, translate, use_language
from portal.i18n import gettext as _
from portal.pdf import Document, Ref, Row, Table, Why, issuer
from portal.pdf.demand import render_bilingual


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
        copy = bool(lf.payer_name)  # R-A17: the owner's copy of a demand sent to the payer
        facts = [(_("Parcel"), lf.parcel.catastro),
                 (_("Address"), lf.parcel.address or "—"),
                 (_("Fiscal year"), lf.fiscal_year.label),
                 (_("To"), lf.addressee.name if lf.addressee else _("The payer of the account")),
                 (_("Mailing address"), (lf.addressee.mailing_address if lf.addressee else "")
                  or "—"),
                 (_("Demand date"), date_long(on))]
        if copy:
            facts.insert(4, (_("Demand sent to"), lf.payer_name))
        if n.mailed_on:
            facts.append((_("Mailed by certified mail"),
                          f"{date_long(n.mailed_on)} · {n.certified_mail_number or ''}"))
        amounts = dl if dl is not None else st
        per_day = (_("Simple interest on the delinquent principal from each installment's "
                     "due date; each further day adds %(per_day)s.",
                     per_day=money(lf.interest_per_day)) if lf.interest_per_day else
                   _("Simple interest on the delinquent principal from each installment's "
                     "due date; each further day adds less than one cent."))
        rows = [Row(_("Interest to %(date)s", date=date_long(on)), money(amounts.interest),
                    [Why(per_day, _ref("R-A8"))]),
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
        body: list[str | Why] = [_(
            "This is the owner's copy of the demand sent to the payer of the account, "
            "%(payer)s. The payer is asked to pay; the owner is told, as the law requires.",
            payer=lf.payer_name)] if copy else []
        body += [
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
        authority = issuer(on, lang)
        closing = [_("Sincerely,"),
                   "\n".join(["_" * 32, authority.name, *authority.address])]
        return Document(_("Demand for payment: copy to the owner") if copy else
                        _("Demand for payment"),
                        _("Copy for the owner's information") if copy else
                        _("Certified mail with return receipt"),
                        facts, rows=rows, body=body, notes=notes,
                        tables=[_installments(lf)], closing=closing,
                        reference=_("Demand %(id)s · Parcel %(catastro)s", id=n.id,
                                    catastro=lf.parcel.catastro),
                        on=on, rows_heading=_("What is demanded"))


def _installments(lf: demands.LetterFacts) -> Table:
    """Each installment the demand lists (R-A6: not paid by its grace day), with its due
    date and the principal left unpaid on the demand's date (the statement's figures; their
    sum is the delinquent principal above)."""
    listed = ({int(x) for x in lf.letter.installments.split(",") if x.strip().isdigit()}
              if lf.letter is not None else None)
    rows = [(str(i.number), date_long(i.due_date), money(i.principal))
            for i in lf.statement.installments
            if (i.number in listed if listed is not None else i.status == "delinquent")
            and i.principal]
    return Table((_("Installment"), _("Due date"), _("Unpaid principal")), rows or
                 [("—", "—", money(Decimal(0)))], widths=(20, 45, 35), align="LLR",
                 heading=_("The installments not paid by their grace day"))


def mailing_document(lf: demands.LetterFacts, lang: str,
                     closed: tuple[closed_days.ClosedDay, ...] = ()) -> Document:
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
        f = formats(lang)
        body: list[str | Why] = ([Why(x.text, _ref(x.rule)) for x in f.trace(
            closed_days.demand(n.mailed_on, stop.last_day, closed))]
            if stop is not None else [])  # R-A13: a closed day that moved the last day
        return Document(_("Receipt of mailing"), _("Certified mail with return receipt"),
                        facts, rows=rows, body=body, rows_heading=_("Amounts"),
                        reference=_("Demand %(id)s · Parcel %(catastro)s", id=n.id,
                                    catastro=lf.parcel.catastro), on=lf.timeline.today)



def languages(lf: demands.LetterFacts) -> tuple[str, str]:
    """The letter's two languages: the addressee's (the notice's) first, then the other."""
    first = lf.notice_language or lf.notice.language
    first = first if first in ("es", "en") else "es"
    return first, "en" if first == "es" else "es"


def letter_pdf(lf: demands.LetterFacts, closed: tuple[closed_days.ClosedDay, ...] = ()
               ) -> bytes:
    """The demand letter as one tagged PDF: in the addressee's language, then in the other."""
    first, second = languages(lf)
    return render_bilingual(letter_document(lf, first, closed), first,
                            letter_document(lf, second, closed), second)


def _render(lf: demands.LetterFacts, closed: Sequence[closed_days.ClosedDay],
            payer: str | None) -> bytes:
    """The renderer the run keeps letters with (`collections.letters.render_with`)."""
    return letter_pdf(lf, tuple(closed))


letters.render_with(_render)


def letter_filename(notice_id: int, lang: str) -> str:
    """The letter's file name in the reader's language `lang`."""
    return f"requerimiento-{notice_id}.pdf" if lang == "es" else \
        f"demand-letter-{notice_id}.pdf"
