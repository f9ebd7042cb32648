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

from portal import clock, storage
from portal.accounts import access, audit, policy
from portal.accounts.errors import Conflict, Forbidden, InvalidInput, NotFound
from portal.core import params
from portal.core.errors import CalcError
from portal.core.exemption_changes import (
    KINDS,
    ChangeFacts,
    ChangeOutcome,
    Revocation,
    change_outcome,
    revocation,
)
from portal.db import UnitOfWork
from portal.exemptions import evidence as _evidence
from portal.exemptions.status import exemption_status as _certification_status
from portal.models import (
    ExemptionCertification,
    ExemptionChangeEvidence,
    ExemptionChangeReport,
    ExemptionEvent,
    Lender,
    Loan,
    Parcel,
    PartyMember,
    User,
)

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


@dataclass(frozen=True)
class Acknowledged:
    """What an acknowledgement did: the report, and the certification it revoked with the
    core's `Revocation` (both None when the exemption continues)."""

    report: ExemptionChangeReport
    catastro: str
    certification: ExemptionCertification | None = None
    revocation: Revocation | None = None


def exemption_to_revoke(uow: UnitOfWork, parcel_id: int) -> ExemptionCertification | None:
    """The parcel's exemption a change report may end: its latest approved certification
    (R-B15: it continues from year to year), or None."""
    c = ExemptionCertification
    return uow.session.scalars(
        select(c).where(c.parcel_id == int(parcel_id), c.status == "approved")
        .order_by(c.fiscal_year_start.desc(), c.id.desc()).limit(1)).first()


def acknowledge(uow: UnitOfWork, user: Any, report_id: int | str, *,
                revoke: bool = False) -> Acknowledged:
    """Staff acknowledges a filed report (filed -> acknowledged, once; audit-logged), saying
    whether the change ends the exemption (R-B13: a named reviewer revokes). `revoke`: the
    parcel's approved exemption (`exemption_to_revoke`) moves to `revoked` from the first
    fiscal year the change counts from, with the years billed again without it, as
    `core.exemption_changes.revocation` computes them on the Puerto Rico day of the
    acknowledgement (R-B15, R-B18); its event and an audit row name the reviewer.
    `Conflict("exemption_continues")` for a report after which the core says it continues
    (a surviving spouse, R-B19); `Conflict("no_exemption")` when none is approved."""
    access.require_staff_role(user, *access.REVIEW)
    rid = access.parse_id(report_id)
    row = uow.session.get(ExemptionChangeReport, rid, with_for_update=True)
    if row is None:
        raise NotFound()
    if row.status != "filed":
        raise Conflict("already_acknowledged")
    cert = rv = None
    if revoke:
        if not outcome_of(row).revoked:
            raise Conflict("exemption_continues")
        cert = exemption_to_revoke(uow, row.parcel_id)
        if cert is None:
            raise Conflict("no_exemption")
        uow.session.refresh(cert, with_for_update=True)
        if cert.status != "approved":
            raise Conflict("no_exemption")
        rv = revocation(row.change_date, clock.today(), cert.fiscal_year_start.year)
        before_cert = audit.snapshot(cert)
        cert.status = "revoked"
        cert.revoked_from = date(rv.from_fiscal_year, 7, 1)
        cert.revoked_through = date(rv.fiscal_years[-1], 7, 1)
        cert.revoked_by_report_id = row.id
        cert.decided_by_id = user.id
        cert.decided_at = clock.now()
        note = f"{row.number}: " + ", ".join(f"{y}-{y + 1}" for y in rv.fiscal_years)
        uow.session.add(ExemptionEvent(certification_id=cert.id, from_status="approved",
                                       to_status="revoked", actor_id=user.id, reasons=[],
                                       note=note))
        uow.session.flush()
        audit.record(uow, user, "exemption.revoked", cert, before=before_cert,
                     after=audit.snapshot(cert))
    before = audit.snapshot(row)
    row.status = "acknowledged"
    row.acknowledged_at = clock.now()
    row.acknowledged_by_id = user.id
    row.decision = "revoked" if revoke else "continues"
    uow.session.flush()
    audit.record(uow, user, "exemption_change.acknowledged", row, before=before,
                 after=audit.snapshot(row))
    parcel = uow.session.get(Parcel, row.parcel_id)
    return Acknowledged(row, parcel.catastro if parcel is not None else "", cert, rv)


def revoked_by(uow: UnitOfWork, row: ExemptionChangeReport) -> ExemptionCertification | None:
    """The certification the report revoked, or None (callers read the report through
    `get`)."""
    return uow.session.scalars(select(ExemptionCertification).where(
        ExemptionCertification.revoked_by_report_id == row.id).limit(1)).first()


def revocation_of(cert: ExemptionCertification, row: ExemptionChangeReport) -> Revocation:
    """The core's revocation of a revoked certification, as of the day it was recorded."""
    on = clock.legal_date(cert.decided_at) if cert.decided_at else row.reported_on
    return revocation(row.change_date, max(on, row.change_date), cert.fiscal_year_start.year)


def contacts(uow: UnitOfWork, row: ExemptionChangeReport) -> tuple[tuple[str, str] | None,
                                                                  list[tuple[str, str]]]:
    """(email, language) of the reporter, and of the users of the lender servicing the loan
    on the parcel (the report's lender, or the lender of a loan active today): who is told
    of a revocation."""
    reporter = uow.session.execute(select(User.email, User.language).where(
        User.id == row.reporter_id)).first()
    owner = (reporter[0], row.language) if reporter is not None and reporter[0] else None
    lender_id = row.lender_id
    if lender_id is None:
        loan = _loan_on(uow, row.parcel_id, clock.today())
        lender_id = loan.lender_id if loan is not None else None
    lenders: list[tuple[str, str]] = []
    if lender_id is not None:
        lenders = [(e, lang if lang in ("es", "en") else "es") for e, lang in uow.session.execute(
            select(User.email, User.language)
            .join(PartyMember, PartyMember.user_id == User.id)
            .join(Lender, Lender.party_id == PartyMember.party_id)
            .where(Lender.id == lender_id, PartyMember.revoked_at.is_(None))
            .order_by(User.id)).all()]
    return owner, lenders


# --- evidence ------------------------------------------------------------------------------

def evidence_of(uow: UnitOfWork, row: ExemptionChangeReport) -> list[ExemptionChangeEvidence]:
    return list(uow.session.scalars(select(ExemptionChangeEvidence).where(
        ExemptionChangeEvidence.report_id == row.id).order_by(ExemptionChangeEvidence.id)))


def _evidence_count(uow: UnitOfWork, report_id: int) -> int:
    return uow.session.scalar(select(func.count()).select_from(ExemptionChangeEvidence)
                              .where(ExemptionChangeEvidence.report_id == report_id)) or 0


def report_for_evidence(uow: UnitOfWork, user: Any, report_id: int | str
                        ) -> ExemptionChangeReport:
    """The report, for one who may attach evidence to it: an owner of its parcel or an
    administrator (`policy.REPORT_CHANGE`); anyone else `NotFound`."""
    rid = access.parse_id(report_id)
    row = uow.session.get(ExemptionChangeReport, rid)
    if row is None or getattr(user, "id", None) is None:
        raise NotFound()
    try:
        _parcel, relation = access.get_parcel_and_relation(uow, user, row.parcel_id)
        policy.require(user, policy.REPORT_CHANGE, relation)
    except Forbidden:
        raise NotFound() from None
    return row


def add_evidence(uow: UnitOfWork, user: Any, report_id: int | str, data: bytes,
                 filename: str | None) -> ExemptionChangeEvidence:
    """Attach one file to a report not yet acknowledged (R-B17: its evidence), checked and
    stored as a certification's evidence (`portal.exemptions.evidence.check`: PDF, JPEG or
    PNG by content, at most 10 MB, bombs refused; at most `MAX_FILES`). Its owner or an
    administrator (`policy.REPORT_CHANGE`); anyone else `NotFound`."""
    row = report_for_evidence(uow, user, report_id)
    if row.status != "filed":
        raise Conflict("change_acknowledged")
    if _evidence_count(uow, row.id) >= _evidence.MAX_FILES:
        raise InvalidInput("evidence_too_many", field="file", most=_evidence.MAX_FILES)
    kind = _evidence.check(data)
    # Counted again under the report's row lock (two uploads at once never make 11 of 10).
    uow.session.refresh(row, with_for_update=True)
    if _evidence_count(uow, row.id) >= _evidence.MAX_FILES:
        raise InvalidInput("evidence_too_many", field="file", most=_evidence.MAX_FILES)
    try:
        key = storage.store().put(data)
    except Exception as exc:  # noqa: BLE001 - a full disk, an unreachable server
        raise Conflict("evidence_store_unavailable", cause=type(exc).__name__) from exc
    active = ", ".join(_evidence.active_content(data)) or None
    ev = ExemptionChangeEvidence(report_id=row.id, sha256=key, content_type=kind,
                                 size_bytes=len(data), filename=_evidence.clean_name(filename),
                                 uploaded_by_id=user.id, active_content=active)
    uow.session.add(ev)
    uow.session.flush()
    audit.record(uow, user, "exemption_change.evidence_added", ev,
                 after={"report_id": row.id, "sha256": key, "type": kind, "size": len(data),
                        "active_content": active})
    return ev


def read_evidence(uow: UnitOfWork, user: Any, report_id: int | str, evidence_id: int | str
                  ) -> tuple[ExemptionChangeEvidence, bytes]:
    """(row, bytes) of a report's file, for anyone who may see the report (`get`): staff,
    an owner of the parcel, the report's lender; `NotFound` otherwise."""
    row, _parcel = get(uow, user, report_id)
    ev = uow.session.get(ExemptionChangeEvidence, access.parse_id(evidence_id))
    if ev is None or ev.report_id != row.id:
        raise NotFound()
    return ev, storage.store().get(ev.sha256)


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
