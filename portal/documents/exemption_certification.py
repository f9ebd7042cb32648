"""The residential exemption's certification (J5): its receipt PDF and its emails. The
figures come from the core via `portal.exemptions.filings.figures` (nothing is computed
here): the bill without and with the exemption (`bill_lines`, which the wizard's result and
the receipt page show too), worded in the language in force.

The emails (in the filer's and each lender user's stored language): filed or resubmitted
(`notify_filed`), approved or returned with the reasons (`notify_decided`), each with the
receipt page's address. No Flask: the caller passes that address and the mail settings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from portal import mail, pdf
from portal.core.exemption import CERTIFICATION_WARNING
from portal.core.explain import N_
from portal.core.money import ZERO
from portal.core.params import fiscal_year_label
from portal.core.payment_plan import PlanStatus
from portal.db import UnitOfWork
from portal.exemptions import filings, review
from portal.exemptions.filings import Figures
from portal.i18n import ShownStep, date_long, formats, money, pgettext, use_language
from portal.i18n import gettext as _

STATUS_LABELS = {
    "draft": N_("Draft"), "filed": N_("Filed"), "under_review": N_("Under review"),
    "returned": N_("Returned to the owner"), "resubmitted": N_("Resubmitted"),
    "approved": N_("Approved"), "withdrawn": N_("Withdrawn"),
}  # "revoked": `status_label`, in its context


#: The wizard's questions (each step's title), as the summary and the receipt name them.
TITLES = {
    "owners": N_("Who are the owners?"),
    "occupants": N_("Who lives in the home?"),
    "use": N_("The use on January 1"),
    "absence": N_("Living away for a while"),
    "rent": N_("Rent"),
    "residential": N_("The residential part"),
    "veteran": N_("Veterans' exemption"),
    "cooperative": N_("Housing cooperative"),
    "debt": N_("Property tax owed on January 1"),
    "evidence": N_("Documents"),
    "result": N_("Your bill with and without the exemption"),
    "attest": N_("Warning and certification"),
}
USE_LABELS = {
    "home": N_("It was the home of the owner or the family"),
    "new_structure": N_("A new structure bought from its builder, the buyer's home"),
    "away": N_("The owner or the family lived away for a while, for a reason the law accepts"),
    "not_home": N_("It was not the home of the owner or the family"),
}
ABSENCE_LABELS = {
    "care_relative_60_plus": N_("To care for a relative aged 60 or more with a critical "
                                "illness or a disability that requires care"),
    "own_illness_or_disability": N_("Because of my own critical illness or disability, I live "
                                    "with a relative or in a care centre"),
    "obligation_8_lpra_1511": N_("To meet obligations under 8 LPRA section 1511 and following"),
}
#: R-B7: the family's relationship to the owner (`core.exemption.KINSHIP`'s codes).
KINSHIP_LABELS = {
    "spouse": N_("spouse"), "child": N_("son or daughter"), "parent": N_("father or mother"),
    "grandchild": N_("grandchild"), "grandparent": N_("grandparent"),
    "sibling": N_("brother or sister"), "great_grandchild": N_("great-grandchild"),
    "great_grandparent": N_("great-grandparent"), "nephew_niece": N_("nephew or niece"),
    "uncle_aunt": N_("uncle or aunt"), "first_cousin": N_("first cousin"),
    "grandnephew_grandniece": N_("grandnephew or grandniece"),
    "great_uncle_aunt": N_("great-uncle or great-aunt"),
    "great_great_grandchild": N_("great-great-grandchild"),
    "great_great_grandparent": N_("great-great-grandparent"),
    "first_cousin_once_removed": N_("a first cousin's child"),
    "second_cousin": N_("second cousin"), "parent_in_law": N_("father- or mother-in-law"),
    "child_in_law": N_("son- or daughter-in-law"), "stepchild": N_("stepson or stepdaughter"),
    "stepparent": N_("stepfather or stepmother"),
    "sibling_in_law": N_("brother- or sister-in-law"),
    "grandparent_in_law": N_("the spouse's grandparent"),
    "step_grandchild": N_("the spouse's grandchild"),
    "nephew_niece_in_law": N_("the spouse's nephew or niece"),
    "uncle_aunt_in_law": N_("the spouse's uncle or aunt"), "none": N_("no relative"),
}
COOP_ELECTION_LABELS = {
    "residential": N_("The residential exemption, unit by unit"),
    "cooperative_law": N_("The exemption of the cooperatives law instead"),
}


def answers_shown(answers: Mapping[str, Any], owners: list[str]) -> list[tuple[str, str]]:
    """(question, answer) of every answer of a certification, in the language in force: the
    summary the owner reads before the attestation (R-B12), the receipt (page, PDF, email)
    and the staff's review (R-B14's list, as answered)."""
    a = answers
    no, yes = _("No"), _("Yes")
    if a.get("occupant") == "family":  # a lender's row (R-B7): only the family lives there
        relation = a.get("family_relationship", "")
        lives = _("The owner's family: %(relationship)s",
                  relationship=_(KINSHIP_LABELS[relation]) if relation in KINSHIP_LABELS
                  else relation)
    elif a.get("occupant") == "owner" and not a.get("occupants"):
        lives = _("The owners")
    else:
        lives = a.get("occupants") or "—"
    out = [(_(TITLES["owners"]), ", ".join(owners) or "—"),
           (_(TITLES["occupants"]), lives),
           (_(TITLES["use"]), _(USE_LABELS[a["use"]]) if a.get("use") in USE_LABELS else "—")]
    if a.get("deed_date"):
        out.append((_("Date of the deed of purchase"),
                    date_long(date.fromisoformat(a["deed_date"]))))
    if a.get("absence_reason") in ABSENCE_LABELS:
        out.append((_(TITLES["absence"]), _(ABSENCE_LABELS[a["absence_reason"]])))
    rent = a.get("rent") == "yes"
    out.append((_(TITLES["rent"]), f"{yes}: {a.get('rent_part')}" if rent and a.get("rent_part")
                else yes if rent else no))
    kind = a.get("residential", "all")
    out.append((_(TITLES["residential"]),
                {"all": _("All of it"),
                 "fraction": _("Fraction %(x)s (%(basis)s)", x=a.get("fraction", ""),
                               basis=a.get("fraction_basis", "")),
                 "valuation": _("Valuation %(x)s", x=_money(a.get("residential_valuation")))
                 }.get(kind, "—")))
    out.append((_(TITLES["veteran"]),
                _money(a.get("veteran_amount")) if a.get("veteran") == "yes" else no))
    coop = a.get("cooperative") == "yes"
    election = a.get("coop_election")
    by_coop = _("the cooperative %(name)s's election", name=a.get("cooperative_name", "")) \
        if a.get("coop_elected_by") == "cooperative" else ""
    out.append((_(TITLES["cooperative"]),
                _("Share %(x)s", x=a.get("unit_share")) + (
                    f" · {_(COOP_ELECTION_LABELS[election])}"
                    if election in COOP_ELECTION_LABELS else "")
                + (f" ({by_coop})" if by_coop else "") if coop else no))
    if a.get("plan"):
        out.append((_(TITLES["debt"]),
                    _("Payment plan: %(n)s monthly payments from %(date)s",
                      n=a.get("plan_payments"),
                      date=date_long(date.fromisoformat(a["plan_first_due"])))
                    if a["plan"] == "request" else _("Pays in full within the 30 days")))
    return out


#: R-B16: what a default on the plan means, on the pages and the receipt.
PLAN_DEFAULT = N_("A plan payment unpaid at the end of its last day puts the plan in default: "
                  "the whole balance of the debt then falls due, plus the auction notice "
                  "costs, less what was paid, and the CRIM may record an attachment. The "
                  "years already recognised are not revoked (R-B11, R-B16).")


def _money(text: Any) -> str:
    try:
        return money(Decimal(str(text)))
    except (InvalidOperation, ValueError):
        return "—"


def status_label(status: str) -> str:
    if status == "revoked":  # la certificación: "Revocada" (a lender's token is "Revocado")
        return pgettext("certification status", "Revoked")
    return _(STATUS_LABELS.get(status, status))


@dataclass
class Line:
    label: str
    amount: Any
    why: list[ShownStep]
    strong: bool = False


def _steps(f: Figures, rules: tuple[str, ...]) -> list[ShownStep]:
    return formats().trace(f.comparison.trace, rules)


def bill_lines(f: Figures) -> tuple[list[Line], list[Line]]:
    """(without the exemption, with it): each figure with its "why this amount?"."""
    c, r = f.comparison, f.comparison.result
    gross_why = _steps(f, ("R-B4", "R-B7", "R-B2", "R-B1"))
    vet_why = _steps(f, ("R-B3",))
    bill_why = _steps(f, ("R-B10",))
    without = [Line(_("Property tax (gross)"), r.gross_tax, gross_why)]
    with_ = [Line(_("Property tax (gross)"), r.gross_tax, gross_why),
             Line(_("Residential exemption"), -r.exemption_amount, _steps(f, ("R-B1",)))]
    if r.veteran_exemption_amount:
        without.append(Line(_("Veterans' exemption"), -r.veteran_exemption_amount, vet_why))
        with_.append(Line(_("Veterans' exemption"), -r.veteran_exemption_amount, vet_why))
    without.append(Line(_("Property tax for the year"), c.net_without, bill_why, True))
    with_.append(Line(_("Property tax for the year"), r.net_tax, _steps(f, ("R-B1", "R-B10")),
                      True))
    for target, bills in ((without, c.bills_without), (with_, c.bills_with)):
        for b in bills:
            target.append(Line(_("Bill of %(date)s", date=date_long(b.issued_on)), b.amount,
                               bill_why))
            target.append(Line(_("Paid early (less the %(rate)s discount)",
                                 rate=formats().percent(c.discount_rate)),
                               b.with_discount, bill_why))
    return without, with_


#: R-B16: a plan payment's status in the CRIM's reports (`core.payment_plan.PaymentState`).
PLAN_STATUSES = {"paid": N_("Paid"), "partly_paid": N_("Partly paid"), "due": N_("Due"),
                 "upcoming": N_("Upcoming"), "missed": N_("Missed")}


@dataclass
class PlanView:
    """R-B16: the plan requested, as the core scheduled it (`Figures.plan`), and once
    approved its state from what the CRIM reported (`plans.plan_state`)."""

    debt: Decimal
    down_payment: Decimal
    rows: list[tuple[int, date, date, Decimal, bool]]  # number, due, last day, amount, down
    why: list[ShownStep]
    tracked: bool = False  # approved: the CRIM's reports are applied
    paid: list[tuple[Decimal, str]] | None = None  # per payment: what is paid, its status
    state: str | None = None  # "current" | "completed" | "defaulted"
    total_paid: Decimal = ZERO
    balance: Decimal = ZERO
    due_now: Decimal = ZERO
    defaulted_on: date | None = None
    missed: int | None = None


def plan_view(f: Figures, status: PlanStatus | None = None) -> PlanView | None:
    """The plan's payments for the pages and the receipt (None without a plan request);
    with `status`, what is paid of each, the state, the balance and, on default, what falls
    due (the core's figures)."""
    p = f.plan
    if p is None:
        return None
    v = PlanView(p.debt, p.down_payment,
                 [(x.number, x.due_date, x.last_day, x.amount, x.down_payment)
                  for x in p.payments], formats().trace(p.trace))
    if status is not None:
        v.tracked, v.state = True, status.state
        v.paid = [(s.paid, _(PLAN_STATUSES[s.status])) for s in status.payments]
        v.total_paid, v.balance, v.due_now = status.paid, status.balance, status.due_now
        v.defaulted_on, v.missed = status.defaulted_on, status.missed
        v.why = formats().trace(status.trace)
    return v


def fy_label(fy) -> str:  # noqa: ANN001
    return fiscal_year_label(fy)


def coop_election_facts(coop: Any) -> list[tuple[str, str]]:
    """R-B4, R-B20: the cooperative's election a unit is filed under (`cooperatives.Shown`),
    as the receipt states it: the cooperative's, with who recorded it and its units."""
    if coop is None:
        return []
    if coop.recorded_by:
        by = _("%(lender)s, on %(date)s", lender=coop.recorded_by,
               date=date_long(coop.recorded_on))
    elif getattr(coop, "by_owner", False):
        by = _("The owner of one of its units, filing that unit, on %(date)s",
               date=date_long(coop.recorded_on))
    else:
        by = date_long(coop.recorded_on)
    return [(_("The cooperative's election"),
             _("%(cooperative)s elected: %(election)s", cooperative=coop.cooperative,
               election=_(COOP_ELECTION_LABELS.get(coop.election, coop.election)))),
            (_("Recorded by"), by),
            (_("The cooperative's units filed under it"), ", ".join(coop.units) or "—")]


def receipt_document(cert: Any, parcel: Any, owners: list[str], f: Figures,
                     lender: str | None, coop: Any = None) -> pdf.Document:
    facts = [(_("Filing number"), cert.filing_number or ""),
             (_("Filed on"), date_long(cert.filed_on))]
    if getattr(cert, "delivered_on", None):  # R-B13: a lender's filing is dated the delivery
        facts.append((_("Delivered by the owner to the lender on"),
                      date_long(cert.delivered_on)))
    facts += [
             (_("Parcel"), parcel.catastro),
             (_("Fiscal year"), fy_label(cert.fiscal_year_start)),
             (_("Owners"), ", ".join(owners)),
             (_("Status"), status_label(cert.status)),
             (_("Certified by"), cert.attested_name or "")]
    if lender:
        facts.append((_("Sent to the lender"), lender))
    facts += answers_shown(cert.answers or {}, owners)[1:]  # every answer (the owners above)
    facts += coop_election_facts(coop)
    without, with_ = bill_lines(f)
    rows = [pdf.Row(_("Without the exemption: %(label)s", label=ln.label), money(ln.amount),
                    pdf.whys(ln.why), ln.strong) for ln in without]
    rows += [pdf.Row(_("With the exemption: %(label)s", label=ln.label), money(ln.amount),
                     pdf.whys(ln.why), ln.strong) for ln in with_]
    plan = plan_view(f)
    if plan is not None:
        rows += [pdf.Row(_("Payment plan: payment %(n)s, by %(date)s", n=n,
                           date=date_long(last)), money(amount),
                         pdf.whys(plan.why) if k == 0 else [])
                 for k, (n, _due, last, amount, _down) in enumerate(plan.rows)]
    notes: list[str | pdf.Why] = [_(w) for w in CERTIFICATION_WARNING]
    if plan is not None:
        notes.append(_(PLAN_DEFAULT))
    if f.plan_last_day:
        notes.append(_("The property owed property tax on January 1: the payment plan must be "
                       "requested by %(date)s and approved, or the debt paid in full (R-B11).",
                       date=date_long(f.plan_last_day)))
    return pdf.Document(title=_("Residential exemption certification %(number)s",
                                number=cert.filing_number or ""),
                        subtitle=_("District Assessments Portal"), facts=facts, rows=rows,
                        rows_heading=_("The bill without and with the exemption"),
                        notes=notes, on=cert.filed_on)


def receipt_pdf(cert: Any, parcel: Any, owners: list[str], f: Figures, lender: str | None,
                lang: str, coop: Any = None) -> bytes:
    """The certification's receipt as a tagged PDF in `lang` (`coop`: the cooperative's
    election it is filed under, `exemptions.cooperatives.shown`)."""
    with use_language(lang) as lang:
        doc = receipt_document(cert, parcel, owners, f, lender, coop)
    return pdf.render(doc, lang)


def filename(filing_number: str | None, lang: str) -> str:
    return ("exoneracion" if lang == "es" else "exemption") + f"-{filing_number}.pdf"


# --- the emails ------------------------------------------------------------------------------

def _send(w: UnitOfWork, to: tuple[str, str] | None, template: str,
          config: Mapping[str, Any], **ctx: Any) -> None:
    if to is None:
        return
    mail.send(w, to[0], template, to[1], config=config, **ctx)


def _context(cert: Any, parcel: Any, link: str) -> dict[str, Any]:
    return {"number": cert.filing_number, "catastro": parcel.catastro,
            "fiscal_year": fy_label(cert.fiscal_year_start), "link": link}


def notify_filed(w: UnitOfWork, cert: Any, parcel: Any, *, link: str,
                 config: Mapping[str, Any]) -> None:
    """The certification was filed (or resubmitted): its filer and the lender's users.
    `link`: the receipt page's address."""
    ctx = _context(cert, parcel, link)
    to = filings.filer_contact(w, cert)
    if to is not None:  # every answer, in the filer's language (the email is the receipt)
        with use_language(to[1]):
            answers = answers_shown(cert.answers or {}, filings.owner_names(w, cert))
        _send(w, to, "exemption_filed", config, resubmitted=cert.status == "resubmitted",
              filed_on=cert.filed_on, answers=answers, **ctx)
    for to in filings.lender_contacts(w, cert):
        _send(w, to, "exemption_lender", config, event=cert.status, **ctx)


def notify_decided(w: UnitOfWork, cert: Any, parcel: Any, *, link: str,
                   config: Mapping[str, Any]) -> None:
    """Staff approved the certification or returned it (with the reasons): its filer. The
    lender's users are told the next day, in one digest of the day's decisions
    (`portal.exemptions.digest`), and so is a filer who is one of them (a lender's batch):
    no email per decision to a bank."""
    ctx = _context(cert, parcel, link)
    owner = filings.filer_contact(w, cert)
    lenders = {email for email, _lang in filings.lender_contacts(w, cert)}
    if owner is not None and owner[0] in lenders:
        return
    if cert.status == "approved":
        _send(w, owner, "exemption_approved", config, **ctx)
    else:
        last = [e for e in filings.events(w, cert) if e.to_status == "returned"][-1]
        _send(w, owner, "exemption_returned", config, reasons=list(last.reasons), note=last.note,
              reason_texts=review.REASONS, **ctx)
