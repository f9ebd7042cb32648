"""Words of the exemption's pages: the wizard's steps and why each is asked, the statuses'
colours, the answers' labels. The receipt's bill lines, PDF and emails (from the core's
figures via `portal.exemptions.filings.figures`; nothing is computed here) are
`portal.documents.exemption_certification`'s; the pages' names for them are kept here."""

from __future__ import annotations

from portal.core.explain import N_
from portal.documents.exemption_certification import (
    ABSENCE_LABELS,
    TITLES,
    USE_LABELS,
    bill_lines,
    fy_label,
    status_label,
)
from portal.i18n import fast_gettext as _

__all__ = ["ABSENCE_LABELS", "SLUGS", "STATUS_CSS", "STEP_OF_SLUG", "TITLES", "USE_LABELS",
           "WHY_ASKED", "bill_lines", "crim_not_adopted", "fy_label",
           "status_label"]

#: The wizard's step slugs in the URL (Spanish first, like every path of the portal).
SLUGS = {"owners": "duenos", "occupants": "residentes", "use": "uso", "absence": "ausencia",
         "rent": "renta", "residential": "parte-residencial", "veteran": "veterano",
         "cooperative": "cooperativa", "debt": "deuda", "evidence": "evidencia",
         "result": "resultado", "attest": "certificar"}
STEP_OF_SLUG = {v: k for k, v in SLUGS.items()}

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
STATUS_CSS = {"draft": "pending", "filed": "pending", "under_review": "pending",
              "returned": "overdue", "resubmitted": "pending", "approved": "current",
              "withdrawn": "pending", "revoked": "overdue"}


def crim_not_adopted(fy_label_: str) -> str:
    """Why no certification of the fiscal year can be filed online while the CRIM's values
    of the year are not on file (`tax_facts.crim_values_missing`): never last year's rates
    in their place (docs/EXEMPTION.md)."""
    return _("The CRIM has not yet adopted its values for fiscal year %(year)s (the "
             "property-tax rates, the dates of its bills and the filing date), so the "
             "certification for that year cannot be filed online yet.", year=fy_label_)
