"""The parcel page's "Residential exemption" box (templates/accounts/parcel.html): the
certification's status for the year in course (or the approval that continues, R-B15), the
bill's effect, the next step and its deadline. Read in the parcel page's unit of work
(`portal.web.accounts.views.parcel_page`), from the facts it already read."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import url_for

from portal.accounts.errors import InvalidInput
from portal.core import property_tax
from portal.core.errors import CalcError
from portal.db import UnitOfWork
from portal.exemptions import filings
from portal.exemptions import tax_facts as facts_service
from portal.exemptions.status import PENDING, status_in
from portal.i18n import fast_gettext as _
from portal.web.exemptions import present

#: Who sees the box.
READERS = ("owner", "delegate", "staff", "lender")


def crim_missing_year(fy: date) -> str | None:
    """The fiscal year's label when the CRIM's values of the year are not on file (no figure
    of its property tax can be given: `tax_facts.crim_values_missing`), else None."""
    return present.fy_label(fy) if facts_service.crim_values_missing(fy) else None


def exemption_summary(w: UnitOfWork, parcel_id: int, relation: str, today: date,
                      facts: Any, cert: Any, continued: date | None) -> dict | None:
    """The box for a parcel the caller read through `accounts.access` (`relation`: the
    reader's), from what `exemptions.status.with_facts` read for the year in course: the
    CRIM's row (or None), the certification in force (or None) and the year it continues
    from. None when the reader does not see the box."""
    if relation not in READERS:
        return None
    fy = filings.certification_year(today)
    out: dict = {"fy_label": present.fy_label(fy), "today": today, "status": None,
                 "filing_number": None, "continued_from": None, "saving": None,
                 "next_step": None, "deadline": None, "link": None, "link_text": None,
                 "note": None}
    if cert is None or cert.status == "draft" and relation != "owner":
        if relation != "owner" or not facts_service.rated(
                facts.municipality if facts is not None else None, fy):
            if relation == "owner" and crim_missing_year(fy):
                out["note"] = present.crim_not_adopted(out["fy_label"])
            return out if relation == "owner" else None
        out["next_step"] = _("File the certification if this property is your home.")
        out["deadline"] = property_tax.filing_deadline(fy, filings._closed(w))
        out["link"] = url_for("exemptions.start_page", parcel_id=parcel_id)
        out["link_text"] = _("Start the residential exemption certification")
        return out
    status = status_in(cert, fy)
    if status == "revoked":  # R-B15, R-B18: the year is billed without the exemption
        return _revoked(w, out, parcel_id, relation, cert, facts, fy)
    pending = cert.status in PENDING
    out.update(status=status, filing_number=cert.filing_number,
               continued_from=present.fy_label(continued) if continued else None)
    if cert.fiscal_year_start == fy:
        rated = facts_service.rated(facts.municipality if facts is not None else None, fy)
    else:
        rated = facts_service.has_facts(w, parcel_id, cert.fiscal_year_start)
    if cert.status != "draft" and rated:
        try:
            fig = filings.figures(w, cert)
        except InvalidInput:
            fig = None
        if fig is not None:
            out["saving"] = fig.comparison.saving
            out["net"], out["gross"] = (fig.comparison.result.net_tax,
                                        fig.comparison.net_without)
            if fig.plan_last_day and pending \
                    and (cert.answers or {}).get("plan") == "pay_in_full":
                out["deadline"] = fig.plan_last_day  # R-B11: paid in full by then
    if cert.status == "draft":
        out["next_step"] = _("Finish and file the certification.")
        out["deadline"] = property_tax.filing_deadline(fy, filings._closed(w))
        out["link"] = url_for("exemptions.start_page", parcel_id=parcel_id)
        out["link_text"] = _("Continue the certification")
    elif cert.status == "returned":
        out["next_step"] = _("Fix what staff returned and resubmit the certification.")
        out["link"] = url_for("exemptions.receipt", cert_id=cert.id)
        out["link_text"] = _("See what to fix")
    else:
        plan = (cert.answers or {}).get("plan")
        if pending and out["deadline"]:
            out["next_step"] = _("Pay the property tax owed on January 1 in full to the "
                                 "CRIM (R-B11).")
        elif pending and plan == "request":
            out["next_step"] = _("Staff is reviewing the certification and the payment "
                                 "plan you requested (R-B16).")
        elif pending:
            out["next_step"] = _("Staff is reviewing the certification; nothing to do "
                                 "for now.")
        if relation != "lender" or cert.loan_id is not None:
            out["link"] = url_for("exemptions.receipt", cert_id=cert.id)
            out["link_text"] = _("See the certification and its receipt")
    return out


def _revoked(w: UnitOfWork, out: dict, parcel_id: int, relation: str, cert: Any, facts: Any,
             fy: date) -> dict:
    """The box of a year the exemption no longer covers (revoked on an acknowledged change
    report, R-B15, R-B18): the year's property tax without it, the years billed again, and
    the report (for the owner, a delegate and staff)."""
    out.update(status="revoked", filing_number=cert.filing_number,
               revoked_from=present.fy_label(cert.revoked_from),
               revoked_through=present.fy_label(cert.revoked_through))
    out["gross"] = None
    if facts is not None and facts_service.rated(facts.municipality, fy):
        try:  # the year's bill without the exemption, from the CRIM's facts of the year
            out["gross"] = property_tax.compare(
                filings.exemption_input(cert.answers or {}, facts), fy).net_without
        except CalcError:  # (ParameterNotFound too: a year without rate)
            pass
    out["next_step"] = _("The exemption was revoked on a change report: the property tax is "
                         "billed without it from fiscal year %(first)s (years billed again: "
                         "%(first)s to %(last)s). To have it again, file a new certification.",
                         first=out["revoked_from"], last=out["revoked_through"])
    if relation in ("owner", "delegate", "staff") and cert.revoked_by_report_id:
        out["link"] = url_for("exemptions.changes_confirmation",
                              report_id=cert.revoked_by_report_id)
        out["link_text"] = _("See the change report and the revocation")
    elif relation == "lender":
        out["link"] = url_for("exemptions.changes_lender_list")
        out["link_text"] = _("See the change reports on your loans")
    return out
