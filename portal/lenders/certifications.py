"""Where a loan's parcel's residential-exemption certifications stand (R-B9, R-B21), for the
lender's API: `GET /api/v1/parcels/<catastro>/certifications`. Only a parcel of one of the
lender's active loans is answered (another is NotFound, as none is); an owner's drafts are
the owner's and are not listed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import select

from portal.accounts import access
from portal.accounts.errors import NotFound
from portal.db import UnitOfWork
from portal.models import ExemptionCertification, Loan, Parcel


@dataclass(frozen=True)
class Status:
    id: int
    fiscal_year_start: date
    status: str
    filing_number: str | None
    filed_on: date | None
    decided_at: datetime | None
    loan_number: str | None


def of_parcel(uow: UnitOfWork, lender_id: int, catastro: str, today: date,
              fiscal_year_start: date | None = None) -> tuple[list[str], list[Status]]:
    """(the lender's loan numbers on the parcel, the parcel's certifications other than
    drafts, newest fiscal year first); NotFound unless one of the lender's active loans is
    on the parcel."""
    L = Loan.__table__
    rows = uow.session.execute(
        access.loans_of_lender_query(L.c.loan_number, L.c.parcel_id)
        .join(Parcel, Parcel.id == L.c.parcel_id).where(Parcel.catastro == catastro)
        .order_by(L.c.loan_number),
        {"lender_id": int(lender_id), "today": today}).all()
    if not rows:
        raise NotFound()
    numbers = [r.loan_number for r in rows]
    by_loan_id = dict(uow.session.execute(select(Loan.id, Loan.loan_number).where(
        Loan.lender_id == int(lender_id), Loan.parcel_id == rows[0].parcel_id)).all())
    C = ExemptionCertification
    q: Any = select(C).where(C.parcel_id == rows[0].parcel_id, C.status != "draft")
    if fiscal_year_start is not None:
        q = q.where(C.fiscal_year_start == fiscal_year_start)
    found = uow.session.scalars(q.order_by(C.fiscal_year_start.desc(), C.id.desc()))
    return numbers, [Status(c.id, c.fiscal_year_start, c.status, c.filing_number,
                            c.filed_on, c.decided_at, by_loan_id.get(c.loan_id))
                     for c in found]
