"""What other areas read of a parcel's residential exemption (the parcel page, the
dashboard, J6's change reports): `exemption_status(uow, parcel_id, fiscal_year_start)`.

R-B15: an approved certification continues from year to year until a change, a transfer or
a revocation, so a year with no certification of its own shows the last approved one
(`continued_from` names its fiscal year). A certification revoked on an acknowledged change
report (R-B18) still holds the years before its `revoked_from` and shows `revoked` from it.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import ScalarSelect, Select, and_, bindparam, case, or_, select
from sqlalchemy.orm import aliased

from portal.core.params import fiscal_year_start as fy_of
from portal.db import UnitOfWork
from portal.models import (
    ExemptionCertification,
    ExemptionOwner,
    Parcel,
    Party,
    PropertyTaxFact,
)

#: The statuses of a certification that waits on staff or on its owner's answer.
PENDING = ("filed", "under_review", "returned", "resubmitted")


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
    revoked_from: date | None = None  # R-B18: revoked from this fiscal year (its July 1)

    @property
    def approved(self) -> bool:
        return self.status == "approved"

    @property
    def pending(self) -> bool:
        return self.status in PENDING


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
    found = certification_in_force(uow, parcel_id, fiscal_year_start)
    if found is None:
        return None
    cert, continued = found
    fy = _as_fy(fiscal_year_start)
    s = uow.session
    owners = s.execute(select(Party.id, Party.name)
                       .join(ExemptionOwner, ExemptionOwner.party_id == Party.id)
                       .where(ExemptionOwner.certification_id == cert.id)
                       .order_by(Party.name)).all()
    return ExemptionStatus(cert.id, status_in(cert, fy), cert.filing_number,
                           cert.fiscal_year_start, cert.filed_on,
                           tuple(ExemptionOwnerRef(p, n) for p, n in owners), continued,
                           cert.revoked_from)


def status_in(cert: ExemptionCertification, fiscal_year_start: date) -> str:
    """The certification's status as the fiscal year opening `fiscal_year_start` sees it: a
    revoked one is `approved` for the years before its `revoked_from` (R-B15, R-B18)."""
    if cert.status == "revoked" and cert.holds_in(fiscal_year_start):
        return "approved"
    return cert.status


def _in_force() -> ScalarSelect:
    """SQL: the id of the certification `exemption_status` describes for the parcel :pid
    and the fiscal year opening :fy: the year's latest one not withdrawn, else the last
    approved (or since revoked) one of an earlier year (R-B15, R-B18)."""
    c = aliased(ExemptionCertification)
    this_year = c.fiscal_year_start == bindparam("fy")
    return (select(c.id)
            .where(c.parcel_id == bindparam("pid"), c.status != "withdrawn",
                   or_(this_year, and_(c.fiscal_year_start < bindparam("fy"),
                                       # not `in_`: its list is rendered again
                                       # into the SQL on every run (the parcel page's)
                                       or_(c.status == "approved",
                                           c.status == "revoked"))))
            .order_by(case((this_year, 0), else_=1), c.fiscal_year_start.desc(), c.id.desc())
            .limit(1).scalar_subquery())


# Built once, at import (a statement built per call costs more than running it).
_IN_FORCE = select(ExemptionCertification).where(ExemptionCertification.id == _in_force())
def _with_facts(facts: Any, cert: Any) -> Select:
    """`with_facts`' statement, reading the two tables as `facts` and `cert` (the models, or
    their tables: their columns)."""
    t, c, p = PropertyTaxFact.__table__, ExemptionCertification.__table__, Parcel.__table__
    return (select(facts, cert).select_from(p)
            .outerjoin(t, and_(t.c.parcel_id == p.c.id, t.c.fiscal_year_start == bindparam("fy")))
            .outerjoin(c, c.c.id == _in_force())
            .where(p.c.id == bindparam("pid")).limit(1))


_WITH_FACTS = _with_facts(PropertyTaxFact, ExemptionCertification)
#: The same as plain read-only records of the two rows' columns, named as the models'
#: attributes (`with_facts_records`).
_WITH_FACTS_COLUMNS = _with_facts(PropertyTaxFact.__table__, ExemptionCertification.__table__)


class FactsRecord(namedtuple("FactsRecord", PropertyTaxFact.__table__.c.keys())):  # type: ignore[misc]
    """The CRIM's row of a parcel for a year, read-only (`with_facts_records`)."""

    __slots__ = ()


class CertificationRecord(namedtuple(  # type: ignore[misc]
        "CertificationRecord", ExemptionCertification.__table__.c.keys())):
    """A certification, read-only, with the model's `holds_in` (`with_facts_records`)."""

    __slots__ = ()
    holds_in = ExemptionCertification.holds_in


def _continued(cert: ExemptionCertification | None, fy: date) -> date | None:
    return None if cert is None or cert.fiscal_year_start == fy else cert.fiscal_year_start


def certification_in_force(uow: UnitOfWork, parcel_id: int, fiscal_year_start: date | int
                           ) -> tuple[ExemptionCertification, date | None] | None:
    """The certification `exemption_status` describes, and the fiscal year it continues from
    (None: the year's own), in one statement. No access check, as there."""
    fy = _as_fy(fiscal_year_start)
    cert = uow.session.scalars(_IN_FORCE, {"pid": int(parcel_id), "fy": fy}).first()
    return None if cert is None else (cert, _continued(cert, fy))


def with_facts(uow: UnitOfWork, parcel_id: int, fiscal_year_start: date | int
               ) -> tuple[PropertyTaxFact | None, ExemptionCertification | None, date | None]:
    """The CRIM's facts of the parcel for the year (None: not on file), the certification
    in force (`certification_in_force`, or None) and the year it continues from, in one
    statement (the parcel page). No access check, as there."""
    fy = _as_fy(fiscal_year_start)
    row = uow.session.execute(_WITH_FACTS, {"pid": int(parcel_id), "fy": fy}).first()
    facts, cert = row if row is not None else (None, None)
    return facts, cert, _continued(cert, fy)


def with_facts_records_statement() -> Select:
    """`with_facts`' statement reading the two rows' columns (:pid, :fy), for a statement that
    reads more columns after them (`portal.web.accounts.page_boxes`): loading the rows as
    objects cost the parcel page more than the statement. `facts_records(row)` cuts them."""
    return _WITH_FACTS_COLUMNS


def facts_records(row: Any) -> tuple[FactsRecord | None, CertificationRecord | None]:
    """A `with_facts_records_statement` row's CRIM facts and certification, as records
    (None for a table without a row)."""
    n = len(FactsRecord._fields)
    m = n + len(CertificationRecord._fields)
    facts = FactsRecord._make(row[:n]) if row[0] is not None else None
    cert = CertificationRecord._make(row[n:m]) if row[n] is not None else None
    return facts, cert


def continued_from(cert: ExemptionCertification | None, fiscal_year_start: date | int
                   ) -> date | None:
    """The year the certification in force continues from, as `with_facts` gives it."""
    return _continued(cert, _as_fy(fiscal_year_start))


def pending_steps(uow: UnitOfWork, parcel_ids: list[int], fiscal_year_start: date
                  ) -> dict[int, str]:
    """{parcel id: status} of the parcels (among `parcel_ids`, already visible to the
    caller) whose certification for the year waits on its owner: a draft, or returned (the
    dashboard's badge). One statement."""
    if not parcel_ids:
        return {}
    # Run on the unit of work's connection (plain columns): through the ORM, its own work
    # on the statement was 40 % of this read (~105 -> 63 us). The dashboard's unit of work
    # only reads: nothing waits to be flushed.
    rows = uow.connection().execute(_PENDING, {
        "ids": [int(p) for p in parcel_ids], "fy": _as_fy(fiscal_year_start)})
    return {pid: st for pid, st in rows}


#: `pending_steps`' statement, built once: on every request, building it and its cache key
#: was most of its cost.
_PENDING = (select(ExemptionCertification.parcel_id, ExemptionCertification.status)
            .where(ExemptionCertification.parcel_id.in_(bindparam("ids", expanding=True)),
                   ExemptionCertification.fiscal_year_start == bindparam("fy"),
                   ExemptionCertification.status.in_(("draft", "returned"))))
