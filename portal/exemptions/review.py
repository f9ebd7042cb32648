"""Staff's review of certifications (J5, R-B13): the queue, taking a filing up, approving
it or returning it with reasons (each reason names the wizard's step the owner fixes; only
those steps open again).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from sqlalchemy import func, select

from portal import clock, webhooks
from portal.accounts import access
from portal.accounts.errors import Conflict, InvalidInput, NotFound
from portal.core.explain import N_
from portal.db import UnitOfWork
from portal.exemptions import filings
from portal.models import ExemptionCertification, Loan, Parcel, User

#: Return reasons: code -> (the bilingual text the owner reads, the step it opens).
REASONS: dict[str, tuple[str, str]] = {
    "owners": (N_("The owners listed are not complete: name both spouses and every "
                  "co-owner (R-B5, R-B6)."), "owners"),
    "occupants": (N_("Say who lives in the home and their relationship to the owner "
                     "(R-B7)."), "occupants"),
    "use": (N_("The use of the property on January 1 is not clear (R-B7)."), "use"),
    "absence": (N_("The sworn statement of the temporary absence is missing or does not "
                   "give one of the reasons the law accepts (R-B8)."), "absence"),
    "residential": (N_("The residential part and its basis do not match the CRIM's "
                       "records (R-B2)."), "residential"),
    "veteran": (N_("The veterans' exemption amount needs its evidence (R-B3)."), "veteran"),
    "cooperative": (N_("The cooperative unit's share or the election is missing (R-B4)."),
                    "cooperative"),
    "plan": (N_("The payment plan request is incomplete (R-B11)."), "debt"),
    "evidence": (N_("A document is missing or cannot be read: upload it again."), "evidence"),
}
#: R-B13: approvals and returns are made by named reviewers (docs/STAFF.md's roles).
REVIEWERS = ("administrator", "reviewer")
QUEUE_STATUSES = ("filed", "under_review", "resubmitted", "returned", "approved", "withdrawn",
                  "revoked")
PAGE = 50


@dataclass(frozen=True)
class QueueRow:
    id: int
    filing_number: str | None
    status: str
    catastro: str
    municipality: str
    filed_on: date | None
    age_days: int | None


def queue(uow: UnitOfWork, user: Any, *, status: str | None = None,
          municipality: str | None = None, older_than_days: int | None = None,
          offset: int = 0) -> tuple[list[QueueRow], int]:
    """Filed certifications (never drafts), oldest first, filtered by status, municipality
    and age (days since filing); a page of `PAGE` and how many in all."""
    access.require_staff(user)
    c = ExemptionCertification
    where = [c.status != "draft"]
    if status:
        if status not in QUEUE_STATUSES:
            raise InvalidInput(field="status")
        where.append(c.status == status)
    if municipality:
        where.append(Parcel.municipality == municipality)
    if older_than_days is not None:
        where.append(c.filed_on <= clock.today() - timedelta(days=older_than_days))
    base = select(c.id, c.filing_number, c.status, Parcel.catastro, Parcel.municipality,
                  c.filed_on).join(Parcel, Parcel.id == c.parcel_id).where(*where)
    total = uow.session.scalar(select(func.count()).select_from(base.subquery()))
    rows = uow.session.execute(base.order_by(c.filed_on, c.id).limit(PAGE).offset(offset))
    today = clock.today()
    out = [QueueRow(i, n, s, cat, m, f, (today - f).days if f else None)
           for i, n, s, cat, m, f in rows]
    return out, int(total or 0)


def municipalities(uow: UnitOfWork) -> list[str]:
    return list(uow.session.scalars(
        select(Parcel.municipality).join(ExemptionCertification,
                                         ExemptionCertification.parcel_id == Parcel.id)
        .distinct().order_by(Parcel.municipality)))


def _get(uow: UnitOfWork, user: Any, cert_id: int | str) -> ExemptionCertification:
    access.require_staff_role(user, *REVIEWERS)
    cert = uow.session.get(ExemptionCertification, access.parse_id(cert_id))
    if cert is None or cert.status == "draft":
        raise NotFound()
    return cert


def take_up(uow: UnitOfWork, user: Any, cert_id: int | str) -> ExemptionCertification:
    """A filed or resubmitted certification goes under review by this reviewer."""
    cert = _get(uow, user, cert_id)
    filings._move(uow, user, cert, "under_review")
    return cert


def approve(uow: UnitOfWork, user: Any, cert_id: int | str, note: str = ""
            ) -> ExemptionCertification:
    """R-B13: a named reviewer approves it (it continues year to year, R-B15)."""
    cert = _get(uow, user, cert_id)
    if cert.status != "under_review":
        raise Conflict("exemption_state", status=cert.status)
    filings._move(uow, user, cert, "approved", note=note.strip()[:2000])
    cert.decided_by_id, cert.decided_at = user.id, clock.now()
    tell_lenders(uow, cert)
    return cert


def return_(uow: UnitOfWork, user: Any, cert_id: int | str, reasons: list[str],
            note: str = "") -> ExemptionCertification:
    """Return it to the owner with reasons (at least one from `REASONS`); only the steps
    they name open again."""
    cert = _get(uow, user, cert_id)
    if cert.status != "under_review":
        raise Conflict("exemption_state", status=cert.status)
    chosen = [r for r in REASONS if r in set(reasons)]
    if not chosen or len(chosen) != len(set(reasons)):
        raise InvalidInput(field="reasons")
    filings._move(uow, user, cert, "returned", reasons=chosen, note=note.strip()[:2000])
    cert.returned_steps = sorted({REASONS[r][1] for r in chosen})
    cert.decided_by_id, cert.decided_at = user.id, clock.now()
    tell_lenders(uow, cert)
    return cert


def tell_lenders(uow: UnitOfWork, cert: ExemptionCertification) -> None:
    """`certification.decided` for the lenders' webhooks (`portal.webhooks`, in this unit of
    work): the lender of the loan it was filed for, else each lender with an active loan on
    its parcel (who see it on their pages and through the API), each with its own loan."""
    today = clock.today()
    active = (Loan.starts_on <= today) & (Loan.ends_on.is_(None) | (Loan.ends_on >= today))
    q = select(Loan.lender_id, Loan.loan_number).where(
        Loan.id == cert.loan_id) if cert.loan_id else select(
        Loan.lender_id, Loan.loan_number).where(Loan.parcel_id == cert.parcel_id, active)
    told: set[int] = set()
    for lender_id, number in uow.session.execute(q.order_by(Loan.lender_id, Loan.loan_number)):
        if lender_id in told:
            continue
        told.add(lender_id)
        catastro = uow.session.scalar(select(Parcel.catastro).where(
            Parcel.id == cert.parcel_id))
        webhooks.emit(uow, lender_id, "certification.decided", {
            "certification_id": cert.id, "filing_number": cert.filing_number,
            "catastro": catastro, "loan_number": number,
            "fiscal_year": f"{cert.fiscal_year_start.year}-{cert.fiscal_year_start.year + 1}",
            "status": cert.status, "decided_at": cert.decided_at.isoformat()
            if cert.decided_at else None,
            "url": f"/api/v1/parcels/{catastro}/certifications"})


def reviewer_name(uow: UnitOfWork, user_id: int | None) -> str | None:
    if user_id is None:
        return None
    u = uow.session.get(User, user_id)
    return u.name if u is not None else None


def decided(uow: UnitOfWork, ids: list[int]) -> list[ExemptionCertification]:
    """The certifications of `ids` (a bulk decision's), in that order, for their emails."""
    found = {c.id: c for c in uow.session.scalars(
        select(ExemptionCertification).where(ExemptionCertification.id.in_(ids)))}
    return [found[i] for i in ids if i in found]
