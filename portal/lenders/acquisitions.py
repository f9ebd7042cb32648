"""A lender's acquisitions of a new structure (R-B10 case iii, R-B21): reported by a user of
the lender (its loan's page) or by an API token of the lender, each with the 30-day notice
deadline the core computes (rolled: `core.acquisition.lender_notice`). Audit-logged.

`who` is a user working for the lender, or an API token (anything with `.lender_id` and
`.id` that is not a user): a loan that is not the lender's active loan is NotFound, as no
loan is. See docs/LENDERS.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import select

from portal import clock
from portal.accounts import access, audit, in_force
from portal.accounts.errors import InvalidInput, NotFound
from portal.core.acquisition import NoticeDeadline, acquired_on_problem, lender_notice
from portal.db import UnitOfWork
from portal.models import ExemptionCertification, LenderAcquisition, Loan, User


@dataclass(frozen=True)
class LoanRef:
    """One active loan of the lender acting (`who`)."""

    id: int
    lender_id: int
    parcel_id: int
    loan_number: str


def is_token(who: Any) -> bool:
    """An API token (with `.lender_id`), not a user."""
    return not isinstance(who, User) and getattr(who, "lender_id", None) is not None


def _closed(uow: UnitOfWork) -> tuple[date, ...]:
    """The days the Board declared closed (the parameter files' and the recorded ones)."""
    return tuple(c.day for c in in_force.closed_days(uow))


def find_loan(uow: UnitOfWork, who: Any, *, loan_id: int | None = None,
              number: str | None = None) -> LoanRef:
    """`who`'s active loan by id or by loan number; NotFound for any other (another
    lender's loan is not found, as no loan is)."""
    L = Loan.__table__  # noqa: N806
    cols = (L.c.id, L.c.lender_id, L.c.parcel_id, L.c.loan_number)
    if is_token(who):
        stmt = access.loans_of_lender_query(*cols)
        params = {"lender_id": int(who.lender_id), "today": clock.today()}
    else:
        if getattr(who, "id", None) is None:
            raise NotFound()
        stmt = access.lender_loans_query(*cols)
        params = access.lender_loan_params(who)
    if loan_id is not None:
        stmt = stmt.where(L.c.id == int(loan_id))
    else:
        stmt = stmt.where(L.c.loan_number == (number or "").strip())
    row = uow.session.execute(stmt.limit(1), params).first()
    if row is None:
        raise NotFound()
    return LoanRef(*row)


def report(uow: UnitOfWork, who: Any, loan_number: str, *, acquired_on: date,
           certification_id: int | None = None) -> LenderAcquisition:
    """R-B10 (iii), R-B21, Exoneración residencial (f): record that the parcel of the loan
    `loan_number` was acquired (a new structure bought after January 1 with a certification)
    on `acquired_on`; the lender notifies the CRIM within 30 days (`deadline`).

    NotFound: not `who`'s loan. InvalidInput (with `field`): a date in the future
    ("acquired_on"; R-B21: a deed of last year is reported while its 30 days run, a later
    report is recorded and flagged overdue), a certification not of the loan's parcel
    ("certification_id"). Audit-logged ("lender.acquisition_reported") with the user or the
    token."""
    ref = find_loan(uow, who, number=loan_number)
    problem = acquired_on_problem(acquired_on, clock.today())
    if problem is not None:
        raise InvalidInput(problem, field="acquired_on")
    if certification_id is not None:
        found = uow.session.scalar(select(ExemptionCertification.id).where(
            ExemptionCertification.id == int(certification_id),
            ExemptionCertification.parcel_id == ref.parcel_id))
        if found is None:
            raise InvalidInput("certification", field="certification_id")
    token = is_token(who)
    row = LenderAcquisition(
        lender_id=ref.lender_id, loan_id=ref.id, parcel_id=ref.parcel_id,
        acquired_on=acquired_on, certification_id=certification_id,
        reported_by_id=None if token else int(who.id),
        reported_by_token_id=int(who.id) if token else None)
    uow.session.add(row)
    uow.session.flush()
    after = {"loan_id": ref.id, "acquired_on": acquired_on.isoformat(),
             "certification_id": certification_id}
    if token:
        after["token_id"] = int(who.id)
    audit.record(uow, None if token else who, "lender.acquisition_reported", row, after=after)
    return row


@dataclass(frozen=True)
class AcquisitionView:
    """An acquisition with its notice deadline seen today (R-B10, R-B21)."""

    id: int
    acquired_on: date
    certification_id: int | None
    reported_at: Any
    deadline: NoticeDeadline


def deadline(uow: UnitOfWork, acquired_on: date, today: date | None = None
             ) -> NoticeDeadline:
    """R-B10 (iii), R-B21: the rolled 30-day notice deadline with the Board's closed days."""
    return lender_notice(acquired_on, today or clock.today(), _closed(uow))


def for_loan(uow: UnitOfWork, who: Any, loan_id: int, today: date | None = None
             ) -> list[AcquisitionView]:
    """`who`'s loan's acquisitions, newest first, each with its deadline; NotFound for a
    loan that is not `who`'s."""
    ref = find_loan(uow, who, loan_id=loan_id)
    return _views(uow, [ref.id], today).get(ref.id, [])


def for_loans(uow: UnitOfWork, loan_ids: Sequence[int], today: date | None = None
              ) -> dict[int, list[AcquisitionView]]:
    """{loan id: its acquisitions} for loans the caller already holds (a portfolio page)."""
    return _views(uow, loan_ids, today)


def _views(uow: UnitOfWork, loan_ids: Sequence[int], today: date | None
           ) -> dict[int, list[AcquisitionView]]:
    ids = list(dict.fromkeys(int(i) for i in loan_ids))
    if not ids:
        return {}
    today = today or clock.today()
    closed = _closed(uow)
    out: dict[int, list[AcquisitionView]] = {}
    for a in uow.session.scalars(
            select(LenderAcquisition).where(LenderAcquisition.loan_id.in_(ids))
            .order_by(LenderAcquisition.acquired_on.desc(), LenderAcquisition.id.desc())):
        out.setdefault(a.loan_id, []).append(AcquisitionView(
            a.id, a.acquired_on, a.certification_id, a.reported_at,
            lender_notice(a.acquired_on, today, closed)))
    return out


__all__ = ["AcquisitionView", "LoanRef", "deadline", "find_loan", "for_loan", "for_loans",
           "is_token", "report"]
