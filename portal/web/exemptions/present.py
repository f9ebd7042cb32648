"""Words and figures of the exemption's pages, receipt PDF and emails (from the core's
figures via `portal.exemptions.filings.figures`; nothing is computed here)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _

from portal import pdf
from portal.core.exemption import CERTIFICATION_WARNING
from portal.core.explain import N_
from portal.core.params import fiscal_year_label
from portal.exemptions.filings import Figures
from portal.i18n import ShownStep, date_long, formats, money

#: The wizard's step slugs in the URL (Spanish first, like every path of the portal).
SLUGS = {"owners": "duenos", "occupants": "residentes", "use": "uso", "absence": "ausencia",
         "rent": "renta", "residential": "parte-residencial", "veteran": "veterano",
         "cooperative": "cooperativa", "debt": "deuda", "evidence": "evidencia",
         "result": "resultado", "attest": "certificar"}
STEP_OF_SLUG = {v: k for k, v in SLUGS.items()}

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
#: Why each question is asked (the wizard says why), with its rule.
WHY_ASKED = {
    "owners": N_("Both spouses are owners and a couple has one exemption; every co-owner is "
                 "named, and no owner may hold the exemption on another home (R-B5, R-B6)."),
    "occupants": N_("The home must be the owner's or the family's: spouses and relatives "
                    "within the fourth degree of consanguinity or the second of affinity "
                    "(R-B7)."),
    "use": N_("The exemption depends on how the property was used on January 1 before the "
              "fiscal year (R-B7, R-B15)."),
    "absence": N_("Living away for a while for one of these reasons does not take the "
                  "exemption away, as long as no rent is received (R-B8)."),
    "rent": N_("A home that earns rent is not exempt (R-B7)."),
    "residential": N_("Of a property only partly used as a home, only that part counts, lot "
                      "included (R-B2)."),
    "veteran": N_("The veterans' exemption is deducted first; the residential exemption then "
                  "covers at most what remains (R-B3)."),
    "cooperative": N_("Each unit of a housing cooperative has its own exemption on its share; "
                      "the cooperative may choose the cooperatives law's exemption instead "
                      "(R-B4)."),
    "debt": N_("On January 1 the property must owe no property tax, or a payment plan must be "
               "requested within 30 days after filing and approved (R-B11)."),
    "evidence": N_("Documents support what you state: the veterans' exemption, a sworn "
                   "statement, the residential part (R-B14)."),
    "result": N_("The exemption lowers the property tax, never the District's assessment "
                 "(R-B1, R-A2)."),
    "attest": N_("The law requires this warning and your certification (R-B12)."),
}
STATUS_LABELS = {
    "draft": N_("Draft"), "filed": N_("Filed"), "under_review": N_("Under review"),
    "returned": N_("Returned to the owner"), "resubmitted": N_("Resubmitted"),
    "approved": N_("Approved"), "withdrawn": N_("Withdrawn"),
}
STATUS_CSS = {"draft": "pending", "filed": "pending", "under_review": "pending",
              "returned": "overdue", "resubmitted": "pending", "approved": "current",
              "withdrawn": "pending"}
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


def status_label(status: str) -> str:
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


def fy_label(fy) -> str:  # noqa: ANN001
    return fiscal_year_label(fy)


def receipt_document(cert: Any, parcel: Any, owners: list[str], f: Figures,
                     lender: str | None) -> pdf.Document:
    facts = [(_("Filing number"), cert.filing_number or ""),
             (_("Filed on"), date_long(cert.filed_on)),
             (_("Parcel"), parcel.catastro),
             (_("Fiscal year"), fy_label(cert.fiscal_year_start)),
             (_("Owners"), ", ".join(owners)),
             (_("Status"), status_label(cert.status)),
             (_("Certified by"), cert.attested_name or "")]
    if lender:
        facts.append((_("Sent to the lender"), lender))
    without, with_ = bill_lines(f)
    rows = [pdf.Row(_("Without the exemption: %(label)s", label=ln.label), money(ln.amount),
                    pdf.whys(ln.why), ln.strong) for ln in without]
    rows += [pdf.Row(_("With the exemption: %(label)s", label=ln.label), money(ln.amount),
                     pdf.whys(ln.why), ln.strong) for ln in with_]
    notes: list[str | pdf.Why] = [_(w) for w in CERTIFICATION_WARNING]
    if f.plan_last_day:
        notes.append(_("The property owed property tax on January 1: the payment plan must be "
                       "requested by %(date)s and approved, or the debt paid in full (R-B11).",
                       date=date_long(f.plan_last_day)))
    return pdf.Document(title=_("Residential exemption certification %(number)s",
                                number=cert.filing_number or ""),
                        subtitle=_("District Assessments Portal"), facts=facts, rows=rows,
                        notes=notes, on=cert.filed_on)
