"""Notices: the R-A12 demand by certified mail, its mailing (with its R-A9 cost) and the
return receipt. Staff only; every step is audited."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from portal import clock
from portal.accounts import access, audit, facts, ledger
from portal.accounts.errors import Conflict, InvalidInput, NotFound
from portal.core.collection import may_be_demanded
from portal.db import UnitOfWork
from portal.models import FiscalYear, Notice, Parcel


def queue_demand(uow: UnitOfWork, staff: Any, parcel_id: int, fiscal_year_id: int,
                 as_of: date | None = None, language: str = "es") -> Notice:
    """R-A12: demand all amounts then due (only for an account with delinquent principal)."""
    access.require_staff_role(staff, *access.RECORD)
    as_of = as_of or clock.today()
    fy = uow.session.get(FiscalYear, int(fiscal_year_id))
    if fy is None or uow.session.get(Parcel, int(parcel_id)) is None:
        raise NotFound()
    account = facts.load(uow, int(parcel_id), fy)
    if account.assessment is None:
        raise NotFound("no_assessment")
    st = account.evaluate(as_of)
    if not may_be_demanded(st.delinquent_principal):
        raise Conflict("nothing_delinquent")
    notice = Notice(parcel_id=int(parcel_id), fiscal_year_id=fy.id, kind="demand",
                    assessment_id=account.assessment.id, language=language,
                    amount=st.total_due_now, created_by_id=staff.id)
    uow.session.add(notice)
    uow.session.flush()
    audit.record(uow, staff, "demand.queued", notice, after=audit.snapshot(notice))
    return notice


def record_mailing(uow: UnitOfWork, staff: Any, notice_id: int, mailed_on: date,
                   certified_mail_number: str, cost: Decimal | None = None) -> Notice:
    """The demand went out by certified mail on `mailed_on`; its cost (R-A9), if given, is
    charged to the account on that date."""
    access.require_staff_role(staff, *access.RECORD)
    notice = uow.session.get(Notice, int(notice_id))
    if notice is None:
        raise NotFound()
    if notice.mailed_on is not None:
        raise Conflict("already_mailed")
    if mailed_on > clock.today():
        raise InvalidInput("invalid", field="mailed_on")
    before = audit.snapshot(notice)
    if cost is not None and cost > 0:
        entry = ledger.record_cost(uow, staff, notice.parcel_id, notice.fiscal_year_id, cost,
                                   mailed_on, "certified_mail", certified_mail_number)
        notice.cost_entry_id = entry.id
    notice.mailed_on = mailed_on
    notice.certified_mail_number = certified_mail_number
    uow.session.flush()
    audit.record(uow, staff, "demand.mailed", notice, before=before,
                 after=audit.snapshot(notice))
    return notice


def record_acknowledgment(uow: UnitOfWork, staff: Any, notice_id: int,
                          acknowledged_on: date) -> Notice:
    """The return receipt came back, signed on `acknowledged_on` (R-A12)."""
    access.require_staff_role(staff, *access.RECORD)
    notice = uow.session.get(Notice, int(notice_id))
    if notice is None:
        raise NotFound()
    if notice.mailed_on is None or acknowledged_on < notice.mailed_on:
        raise InvalidInput("invalid", field="acknowledged_on")
    before = audit.snapshot(notice)
    notice.acknowledged_on = acknowledged_on
    uow.session.flush()
    audit.record(uow, staff, "demand.acknowledged", notice, before=before,
                 after=audit.snapshot(notice))
    return notice
