"""What other areas read of a parcel's residential exemption (the parcel page, the
dashboard, J6's change reports): `exemption_status(uow, parcel_id, fiscal_year_start)`.

R-B15: an approved certification continues from year to year until a change, a transfer or
a revocation, so a year with no certification of its own shows the last approved one
(`continued_from` names its fiscal year).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import select

from portal.core.params import fiscal_year_start as fy_of
from portal.db import UnitOfWork
from portal.models import ExemptionCertification, ExemptionOwner, Party


@dataclass(frozen=True)
class ExemptionOwnerRef:
    party_id: int
    name: str


@dataclass(frozen=True)
class ExemptionStatus:
    """A parcel's residential exemption for a fiscal year."""

    certification_id: int
    status: str  # draft, filed, under_review, returned, resubmitted, approved
    filing_number: str | None
    fiscal_year_start: date  # the year the certification was filed for
    filed_on: date | None
    owners: tuple[ExemptionOwnerRef, ...]
    continued_from: date | None = None  # R-B15: an earlier year's approval that continues

    @property
    def approved(self) -> bool:
        return self.status == "approved"

    @property
    def pending(self) -> bool:
        return self.status in ("filed", "under_review", "returned", "resubmitted")


def _as_fy(fiscal_year_start: date | int) -> date:
    if isinstance(fiscal_year_start, int):
        return date(fiscal_year_start, 7, 1)
    return fy_of(fiscal_year_start)


def exemption_status(uow: UnitOfWork, parcel_id: int, fiscal_year_start: date | int
                     ) -> ExemptionStatus | None:
    """The parcel's certification for the fiscal year (`fiscal_year_start`: its July 1, any
    day in it, or the starting year as an int): the latest one not withdrawn, else the last
    approved one of an earlier year (R-B15), else None. No access check: the caller has
    already read the parcel through `accounts.access`."""
    fy = _as_fy(fiscal_year_start)
    s = uow.session
    base = (select(ExemptionCertification)
            .where(ExemptionCertification.parcel_id == int(parcel_id),
                   ExemptionCertification.status != "withdrawn"))
    cert = s.scalars(base.where(ExemptionCertification.fiscal_year_start == fy)
                     .order_by(ExemptionCertification.id.desc()).limit(1)).first()
    continued = None
    if cert is None:
        cert = s.scalars(base.where(ExemptionCertification.fiscal_year_start < fy,
                                    ExemptionCertification.status == "approved")
                         .order_by(ExemptionCertification.fiscal_year_start.desc(),
                                   ExemptionCertification.id.desc()).limit(1)).first()
        if cert is None:
            return None
        continued = cert.fiscal_year_start
    owners = s.execute(select(Party.id, Party.name)
                       .join(ExemptionOwner, ExemptionOwner.party_id == Party.id)
                       .where(ExemptionOwner.certification_id == cert.id)
                       .order_by(Party.name)).all()
    return ExemptionStatus(cert.id, cert.status, cert.filing_number, cert.fiscal_year_start,
                           cert.filed_on, tuple(ExemptionOwnerRef(p, n) for p, n in owners),
                           continued)


def pending_steps(uow: UnitOfWork, parcel_ids: list[int], fiscal_year_start: date
                  ) -> dict[int, str]:
    """{parcel id: status} of the parcels (among `parcel_ids`, already visible to the
    caller) whose certification for the year waits on its owner: a draft, or returned (the
    dashboard's badge). One statement."""
    if not parcel_ids:
        return {}
    c = ExemptionCertification
    rows = uow.session.execute(
        select(c.parcel_id, c.status).where(
            c.parcel_id.in_([int(p) for p in parcel_ids]),
            c.fiscal_year_start == _as_fy(fiscal_year_start),
            c.status.in_(("draft", "returned"))))
    return {pid: st for pid, st in rows}
