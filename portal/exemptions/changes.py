"""Change reports of the residential exemption (J6): report, list, acknowledge, the lender's
list (R-B9; R-B17 to R-B19).

Only an owner of the parcel (a live owner link) or staff may report; anyone else who cannot
see the parcel gets `NotFound`, one who sees it without owning it (lessee, delegate, lender)
`Forbidden`. The deadline, the days left, the late flag and what follows are computed once,
by `portal.core.exemption_changes.change_outcome`; this module stores what it says and audit-
logs every state change. A lender with an active loan on the parcel on the day of the report
is recorded on it: the owner reports to the lender, which forwards the report to the CRIM,
both by December 31 (R-B9), and the lender sees it on its list (`for_lender`). The form
shows the exemption on file through J5's `exemption_status`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import and_, func, or_, select

from portal import clock
from portal.accounts import access, audit, policy
from portal.accounts.errors import Conflict, Forbidden, InvalidInput, NotFound
from portal.core import params
from portal.core.errors import CalcError
from portal.core.exemption_changes import KINDS, ChangeFacts, ChangeOutcome, change_outcome
from portal.db import UnitOfWork
from portal.exemptions.status import exemption_status as _certification_status
from portal.models import ExemptionChangeReport, Lender, Loan, Parcel, PartyMember

DETAILS_MAX = 2000
NAME_MAX = 200
PAGE = 50


def exemption_status(uow: UnitOfWork, parcel_id: int, fiscal_year_start: date) -> Any | None:
    """The parcel's exemption for the fiscal year, from the certification filing (J5:
    `portal.exemptions.status.exemption_status`): its status and filing number, or
    None when none is on file. No access check here: callers read the parcel first."""
    return _certification_status(uow, parcel_id, fiscal_year_start)


def _loan_on(uow: UnitOfWork, parcel_id: int, on: date) -> Loan | None:
    """The active loan on the parcel on `on` (the oldest, if there are several)."""
    return uow.session.scalars(
        select(Loan).where(Loan.parcel_id == int(parcel_id), Loan.starts_on <= on,
                           or_(Loan.ends_on.is_(None), Loan.ends_on >= on))
        .order_by(Loan.starts_on, Loan.id).limit(1)).first()


def has_loan(uow: UnitOfWork, parcel_id: int, on: date) -> bool:
    return _loan_on(uow, parcel_id, on) is not None


def preview(kind: str, change_date: date, on: date, *, has_loan: bool = False,
            original_titleholder: bool = False,
            residential_use_continues: bool = False) -> ChangeOutcome:
    """What the core says of a change reported on `on` (the form page shows it first)."""
    try:
        return change_outcome(ChangeFacts(kind, change_date, on, has_loan,
                                          original_titleholder, residential_use_continues))
    except CalcError as exc:
        raise InvalidInput(field=exc.field or "kind") from None


def require_owner(uow: UnitOfWork, user: Any, parcel_id: int | str) -> Parcel:
    """The parcel, for an owner of it or staff: `NotFound` when the user cannot see it,
    `Forbidden` when they see it without owning it (lessee, delegate, lender)."""
    parcel, relation = access.get_parcel_and_relation(uow, user, parcel_id)
    if relation not in ("owner", "staff"):
        raise Forbidden()
    return parcel


def report(uow: UnitOfWork, user: Any, parcel_id: int | str, *, kind: str, change_date: date,
           details: str = "", original_titleholder: bool | None = None,
           residential_use_confirmed: bool | None = None, attested_name: str = "",
           language: str = "es") -> tuple[ExemptionChangeReport, ChangeOutcome]:
    """File a change report (R-B9, R-B17): late ones are accepted and flagged. spouse_died
    asks whether the survivor is an original titleholder and, if so, to confirm the home is
    still used as such (R-B5, R-B19); other kinds store neither answer. The reporter attests
    it with their typed full name, after the R-B12 warning. Its owner or an administrator
    (`policy.REPORT_CHANGE`): `NotFound` when the user cannot see the parcel, `Forbidden`
    when they see it without the right."""
    parcel, relation = access.get_parcel_and_relation(uow, user, parcel_id)
    policy.require(user, policy.REPORT_CHANGE, relation)
    attested_name = " ".join((attested_name or "").split())
    if not attested_name or len(attested_name) > NAME_MAX:
        raise InvalidInput(field="attested_name")
    if kind not in KINDS:
        raise InvalidInput(field="kind")
    details = (details or "").strip()
    if len(details) > DETAILS_MAX:
        raise InvalidInput(field="details", max=DETAILS_MAX)
    if kind == "spouse_died":
        if original_titleholder is None:
            raise InvalidInput(field="original_titleholder")
        confirmed = bool(original_titleholder and residential_use_confirmed)
    else:
        original_titleholder = None
        confirmed = None
    today = clock.today()
    loan = _loan_on(uow, parcel.id, today)
    outcome = preview(kind, change_date, today, has_loan=loan is not None,
                      original_titleholder=bool(original_titleholder),
                      residential_use_continues=bool(confirmed))
    row = ExemptionChangeReport(
        parcel_id=parcel.id, kind=kind, change_date=change_date, details=details,
        original_titleholder=original_titleholder, residential_use_confirmed=confirmed,
        reporter_id=user.id, attested_name=attested_name,
        language=language if language in ("es", "en") else "es",
        reported_on=today, deadline=outcome.deadline, late=outcome.late,
        lender_id=loan.lender_id if loan is not None else None, status="filed")
    uow.session.add(row)
    uow.session.flush()
    audit.record(uow, user, "exemption_change.reported", row, after=audit.snapshot(row))
    return row, outcome


def outcome_of(row: ExemptionChangeReport) -> ChangeOutcome:
    """What the core says of a stored report, as of the day it was reported."""
    return change_outcome(ChangeFacts(
        row.kind, row.change_date, row.reported_on, row.lender_id is not None,
        bool(row.original_titleholder), bool(row.residential_use_confirmed)))


def _lender_ids(user: Any) -> Any:
    """SQL: the lenders the user works for (live memberships of the lender's party)."""
    return (select(Lender.id).join(PartyMember, and_(
        PartyMember.party_id == Lender.party_id, PartyMember.user_id == int(user.id),
        PartyMember.revoked_at.is_(None))))


def get(uow: UnitOfWork, user: Any, report_id: int | str) -> tuple[ExemptionChangeReport,
                                                                      Parcel]:
    """A report, for staff, an owner of its parcel, or the lender that forwards it; anyone
    else `NotFound` (the web answers 404)."""
    rid = access.parse_id(report_id)
    row = uow.session.get(ExemptionChangeReport, rid)
    if row is None or user is None or getattr(user, "id", None) is None:
        raise NotFound()
    if access.is_staff(user):
        return row, uow.session.get(Parcel, row.parcel_id)
    if row.lender_id is not None and uow.session.scalar(
            _lender_ids(user).where(Lender.id == row.lender_id)) is not None:
        return row, uow.session.get(Parcel, row.parcel_id)
    try:
        parcel = require_owner(uow, user, row.parcel_id)
    except Forbidden:
        raise NotFound() from None
    return row, parcel


def for_parcel(uow: UnitOfWork, user: Any, parcel_id: int | str) -> list[ExemptionChangeReport]:
    """The parcel's reports, newest first, for an owner or staff (`require_owner`)."""
    parcel = require_owner(uow, user, parcel_id)
    return list(uow.session.scalars(
        select(ExemptionChangeReport).where(ExemptionChangeReport.parcel_id == parcel.id)
        .order_by(ExemptionChangeReport.id.desc()).limit(PAGE)))


@dataclass(frozen=True)
class ListedReport:
    report: ExemptionChangeReport
    catastro: str
    municipality: str
    loan_number: str | None = None


def staff_list(uow: UnitOfWork, user: Any, *, status: str | None = None, offset: int = 0,
               limit: int = PAGE) -> tuple[list[ListedReport], int]:
    """Staff's list of reports (filed first, then by id), one page, and how many in all."""
    access.require_staff(user)
    where = [] if status is None else [ExemptionChangeReport.status == status]
    rows = uow.session.execute(
        select(ExemptionChangeReport, Parcel.catastro, Parcel.municipality)
        .join(Parcel, Parcel.id == ExemptionChangeReport.parcel_id).where(*where)
        .order_by((ExemptionChangeReport.status == "acknowledged"),
                  ExemptionChangeReport.id.desc())
        .offset(offset).limit(limit)).all()
    total = uow.session.scalar(select(func.count(ExemptionChangeReport.id)).where(*where)) or 0
    return [ListedReport(r, c, m) for r, c, m in rows], total


def for_lender(uow: UnitOfWork, user: Any, *, offset: int = 0, limit: int = PAGE
               ) -> tuple[list[ListedReport], int]:
    """The reports the lenders the user works for are to forward to the CRIM (R-B9), newest
    first, with the loan number; nothing for a user of no lender."""
    lenders = _lender_ids(user)
    loan_number = (select(Loan.loan_number)
                   .where(Loan.parcel_id == ExemptionChangeReport.parcel_id,
                          Loan.lender_id == ExemptionChangeReport.lender_id)
                   .order_by(Loan.id).limit(1).scalar_subquery())
    rows = uow.session.execute(
        select(ExemptionChangeReport, Parcel.catastro, Parcel.municipality, loan_number)
        .join(Parcel, Parcel.id == ExemptionChangeReport.parcel_id)
        .where(ExemptionChangeReport.lender_id.in_(lenders))
        .order_by(ExemptionChangeReport.id.desc()).offset(offset).limit(limit)).all()
    out = [ListedReport(r, c, m, n) for r, c, m, n in rows]
    total = uow.session.scalar(select(func.count(ExemptionChangeReport.id)).where(
        ExemptionChangeReport.lender_id.in_(lenders))) or 0
    return out, total


def acknowledge(uow: UnitOfWork, user: Any, report_id: int | str) -> ExemptionChangeReport:
    """Staff acknowledges a filed report (filed -> acknowledged, once; audit-logged)."""
    access.require_staff_role(user, *access.REVIEW)
    rid = access.parse_id(report_id)
    row = uow.session.get(ExemptionChangeReport, rid, with_for_update=True)
    if row is None:
        raise NotFound()
    if row.status != "filed":
        raise Conflict("already_acknowledged")
    before = audit.snapshot(row)
    row.status = "acknowledged"
    row.acknowledged_at = clock.now()
    row.acknowledged_by_id = user.id
    uow.session.flush()
    audit.record(uow, user, "exemption_change.acknowledged", row, before=before,
                 after=audit.snapshot(row))
    return row


def forward(uow: UnitOfWork, user: Any, report_id: int | str) -> ExemptionChangeReport:
    """The lender records that it forwarded the report to the CRIM (R-B9; R-B21,
    Exoneración residencial (e), (f): by December 31, fixed), once, audit-logged. Only a
    user of the report's lender: anyone else `NotFound`."""
    rid = access.parse_id(report_id)
    row = uow.session.get(ExemptionChangeReport, rid, with_for_update=True)
    if row is None or row.lender_id is None or getattr(user, "id", None) is None \
            or uow.session.scalar(_lender_ids(user).where(Lender.id == row.lender_id)) is None:
        raise NotFound()
    if row.forwarded_at is not None:
        raise Conflict("already_forwarded")
    before = audit.snapshot(row)
    row.forwarded_at = clock.now()
    row.forwarded_by_id = user.id
    uow.session.flush()
    audit.record(uow, user, "exemption_change.forwarded", row, before=before,
                 after=audit.snapshot(row))
    return row


def current_fiscal_year(on: date) -> date:
    return params.fiscal_year_start(on)
