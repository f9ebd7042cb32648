"""The statement of account (estado de cuenta): what its PDF says, from the parcel page's
values (`portal.web.accounts.views.parcel_view`: the account's statement, its offer and its
explanations, read through `portal.accounts.statements`), worded in the language in force.

No Flask: the parcel page's PDF and the court packet (`court_packet`) print it the same way.
No amount is computed here.
"""

from __future__ import annotations

from datetime import date
from functools import lru_cache
from typing import Any

from portal import clock, pdf
from portal.accounts import pay_links
from portal.core.rules import RULES
from portal.i18n import (
    date_long,
    days_left,
    format_address,
    money,
    ngettext,
    translate,
    use_language,
)
from portal.i18n import fast_gettext as _
from portal.pdf.cache import rendered
from portal.pdf.qr import Code as QrCode

#: What the statement reads (the parcel page's values, `views.ParcelPage`): `parcel`
#: (catastro, address, municipality), `fiscal_year`, `relation_label`, `as_of`, `today`,
#: `annual`, `amounts`, `payoff`, `lump`, `costs`, `installments` (`views.ScheduleRow`),
#: `lease`, `demand`, `extended_why`, `arrears_warning`.
ParcelPage = Any


def statement_pdf(v: ParcelPage, lang: str, pay_link: str | None = None) -> bytes:
    """The statement of account (estado de cuenta) of the parcel page, as a PDF; with
    `pay_link` (`pay_token`), its QR code after the facts. Drawn once while nothing it shows
    changes (`pdf.cache`: keyed by the whole document, its figures and its code)."""
    with use_language(lang):
        doc = statement_document(v)
        if pay_link:
            doc.code = pay_code(v.parcel.catastro, pay_link)
    return rendered(doc, lang)


def pay_token(parcel_id: int, secret: str) -> str:
    """The signed token of the parcel's pay link (`accounts.pay_links`) for its statement:
    the one this process made first in the current hour of the portal's clock, so that the
    statement asked for again within the hour is the same document (its QR code the same)
    and is served from `pdf.cache`. The link is good for `pay_links.LINK_DAYS` from when it
    was made: an hour at most before the statement."""
    return _hour_token(int(parcel_id), secret, int(clock.now().timestamp()) // 3600)


@lru_cache(maxsize=1024)
def _hour_token(parcel_id: int, secret: str, _hour: int) -> str:
    return pay_links.pay_link_token(parcel_id, secret)


def pay_code(catastro: str, link: str) -> QrCode:
    """The statement's QR code: the signed link to pay the parcel without an account."""
    return QrCode(link, _("QR code: opens the page to pay parcel %(catastro)s online, without "
                          "an account.", catastro=catastro),
                  (_("Pay online without an account"),
                   _("Scan this code with your phone's camera to pay this parcel by card or "
                     "from a bank account: no account or password is needed, and the receipt "
                     "is emailed to you.")))


def _count(n: int) -> str:
    """The words "(6 installments)" when a figure covers several, else nothing."""
    if n < 2:
        return ""
    return " (" + ngettext("%(num)s installment", "%(num)s installments", n) + ")"


def _by_day_rows(a: Any, today: date) -> list[pdf.Row]:
    """The parcel page's figures that must be paid by a day, with that day and how many
    installments they cover (`core.offer`: `due_now_by`, `next_due`)."""
    if a is None:
        return []
    rows = []
    if a.due_now > 0 and a.due_by is not None:
        rows.append(pdf.Row(_("Due now%(count)s, to pay by %(date)s (%(left)s)",
                              count=_count(a.due_count), date=date_long(a.due_by),
                              left=days_left(a.due_by, today)), money(a.due_now)))
    if a.kind == "next" and a.amount is not None:
        rows.append(pdf.Row(_("Next payment%(count)s, to pay by %(date)s (%(left)s)",
                              count=_count(a.count), date=date_long(a.day),
                              left=days_left(a.day, today)), money(a.amount)))
    return rows


def _by(day: date, today: date) -> str:
    return f"{date_long(day)} ({days_left(day, today)})"


def answer_lines(a: Any, today: date) -> list[str]:
    """The answer first, as the parcel page says it (`views.answer`: the offer's figures,
    `core.offer`): what is owed now and by which day, or that nothing is due."""
    if a is None:
        return []
    n = _count(a.count) if a.amount is not None else ""
    amount = money(a.amount) if a.amount is not None else ""
    if a.kind == "demand":
        return [_("You have %(amount)s past due.", amount=amount),
                _("To stop a claim in court, pay %(today)s today, or %(by_last)s by",
                  today=money(a.stop_today), by_last=money(a.stop_by))
                + " " + _by(a.day, today) + "."]
    if a.kind == "claimable":
        return [_("You have %(amount)s past due: pay it as soon as you can. Since %(date)s "
                  "the debt may be claimed in court.", amount=amount, date=date_long(a.day))]
    if a.kind == "overdue":
        return [_("You have %(amount)s past due: pay it as soon as you can, interest is added "
                  "every day.", amount=amount)]
    if a.kind == "due":
        line = _("You have %(amount)s due now: pay it by", amount=amount + n)
        if a.day is not None:
            line += " " + _by(a.day, today)
        return [line + " " + _("to avoid a late fee.")]
    if a.kind == "next":
        return [_("You are up to date. Next payment: %(amount)s by", amount=amount + n)
                + " " + _by(a.day, today) + "."]
    return [_("You are up to date: nothing else is due this year.")]


def statement_document(v: ParcelPage) -> pdf.Document:
    """What the statement PDF says, in the current language."""
    facts = [(_("Parcel"), v.parcel.catastro),
             (_("Address"), format_address(v.parcel.address, v.parcel.municipality)),
             (_("Fiscal year"), v.fiscal_year),
             (_("Your access"), v.relation_label),
             (_("Statement date"), date_long(v.as_of))]
    if v.annual is not None:
        facts.append((_("This year's assessment"), money(v.annual)))
    rows = [pdf.Row(a.label, money(a.amount), pdf.whys(a.why),
                    strong=a.key == "total_due_now") for a in v.amounts]
    rows += _by_day_rows(getattr(v, "answer", None), v.today)
    if v.payoff is not None and v.payoff.differs:
        rows.append(pdf.Row(_("Pay-off amount paid today, %(date)s", date=date_long(v.as_of)),
                            money(v.payoff.today), strong=True))
    if v.payoff is not None:
        rows.append(pdf.Row(_("Pay-off amount, good through %(date)s (%(left)s)",
                              date=date_long(v.payoff.through),
                              left=days_left(v.payoff.through, v.today)),
                            money(v.payoff.amount), pdf.whys(v.payoff.why), strong=True))
    if v.lump is not None and v.lump.eligible:
        rows.append(pdf.Row(_("Whole year in one payment, by %(date)s (%(left)s)",
                              date=date_long(v.lump.deadline),
                              left=days_left(v.lump.deadline, v.today)),
                            money(v.lump.amount_due), pdf.whys(v.lump.why)))
    for c in v.costs:
        rows.append(pdf.Row(f"{date_long(c['date'])} · {c['description']}", money(c["owed"])))
    status = {"paid": _("paid"), "due": _("due"), "upcoming": _("upcoming"),
              "delinquent": _("overdue"), "cancelled": _("cancelled by an amendment")}
    schedule = pdf.Table(
        head=(_("No."), _("Due date"), _("Last timely day"), _("Amount"), _("Principal owed"),
              _("Fees and interest"), _("Status")),
        rows=[(str(i.number), i.due_text, i.last_text, i.amount_text, i.principal_text,
               money(i.late_fee + i.interest), status.get(i.shown_status, i.status))
              for i in v.installments],
        widths=(10, 40, 42, 22, 23, 23, 20), align="LLLRRRL",
        heading=_("Installment schedule"))
    lease_rule = RULES["R-A16"]
    law = pdf.Ref(lease_rule.id, lease_rule.source, translate(lease_rule.title))
    notes: list[str | pdf.Why] = [
        _("Every amount is computed from the law over the account's facts; the explanation "
          "under each amount shows the numbers, and the notes at the end name the rule and "
          "the statute behind each.")]
    if v.lease is not None:
        notes.insert(0, pdf.Why(_("Under the lease, the lessee pays the assessment.")
                                if v.lease.payer == "lessee" else
                                _("Under the lease, the owner pays the assessment."), law))
    if v.demand is not None:
        text = _("Demand mailed by certified mail on %(date)s for %(amount)s.",
                 date=date_long(v.demand.mailed_on), amount=money(v.demand.amount))
        if v.demand.stage == "demand_window":
            text += " " + _("To stop a claim in court, pay %(today)s today, or %(by_last)s by "
                            "%(date)s (%(left)s), the last day: interest runs until paid.",
                            today=money(v.demand.stop_today),
                            by_last=money(v.demand.stop_by_last),
                            date=date_long(v.demand.last_day),
                            left=days_left(v.demand.last_day, v.today))
        elif v.demand.stage == "claimable":
            text += " " + _("Since %(date)s the debt may be claimed in court.",
                            date=date_long(v.demand.court_from))
        elif v.demand.stage == "paid":
            text += " " + _("Nothing is owed any more on what the demand listed: the claim "
                            "in court is stopped.")
        rows.append(pdf.Row(_("Collection"), "", [pdf.Why(text), *pdf.whys(v.demand.why)]))
    notes.extend(pdf.whys(v.extended_why))  # R-A6: a last timely day a closed day moved
    if v.arrears_warning:
        notes.append(_("This account has amounts past due: any payment goes first to "
                       "interest, late fees and costs, then to the oldest installment."))
    return pdf.Document(
        title=_("Statement of account"),
        subtitle=_("District Assessments Portal") + " · "
        + _("As of %(date)s", date=date_long(v.as_of)),
        answer=answer_lines(getattr(v, "answer", None), v.today),
        answer_heading=_("Your account today"),
        facts=facts, rows=rows, rows_heading=_("Amounts"), tables=[schedule], notes=notes,
        reference=_("Parcel %(catastro)s", catastro=v.parcel.catastro), on=v.as_of)


def filename(catastro: str, on: date, lang: str) -> str:
    """The PDF's file name: estado-de-cuenta-<catastro>-<day>.pdf (statement-... in English)."""
    return ("estado-de-cuenta" if lang == "es" else "statement") + \
        f"-{catastro}-{on.isoformat()}.pdf"
