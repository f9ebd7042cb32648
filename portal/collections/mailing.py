"""Notices: the R-A12 demand by certified mail, its mailing (with its R-A9 cost) and the
return receipt. Staff only; every step is audited.

A mailing is checked before it is kept (R-A12, R-A13: the 15 days run from it): the
certified-mail number is a USPS article number (20 or 22 ASCII digits, spaces allowed; kept
in groups of four, so nothing else, a spreadsheet formula least of all, is ever stored or
shown), and the mailing date is neither before the demand existed (its Puerto Rico day) nor a
day to come. Staff correct a mailing typed wrong (`correct_mailing`): the old and the new
values are audited, and the 15 days, computed from the date kept, follow the correction.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy import select

from portal import clock
from portal.accounts import access, audit, facts, in_force, ledger
from portal.accounts.errors import Conflict, InvalidInput, NotFound
from portal.core.collection import may_be_demanded
from portal.db import UnitOfWork
from portal.models import CourtClaim, FiscalYear, Notice, Parcel


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
    if not may_be_demanded(st.delinquent_principal, st.total_due_now,
                           in_force.demand_minimum(uow, fy.starts_on)):
        raise Conflict("below_minimum")  # R-A17: it waits for a later month
    notice = Notice(parcel_id=int(parcel_id), fiscal_year_id=fy.id, kind="demand",
                    assessment_id=account.assessment.id, language=language,
                    amount=st.total_due_now, created_by_id=staff.id)
    uow.session.add(notice)
    uow.session.flush()
    audit.record(uow, staff, "demand.queued", notice, after=audit.snapshot(notice))
    return notice


#: The lengths of a USPS certified-mail article number (the older 20 digits, IMpb's 22).
CERTIFIED_LENGTHS = (20, 22)


def certified_number(text: str | None) -> str | None:
    """The certified-mail number `text` in groups of four digits ("9407 1118 9876 5432 1001
    23"), or None when it is not one: 20 or 22 ASCII digits once spaces are taken out."""
    digits = "".join((text or "").split())
    if not (digits.isascii() and digits.isdigit()) or len(digits) not in CERTIFIED_LENGTHS:
        return None
    return " ".join(digits[i:i + 4] for i in range(0, len(digits), 4))


def mailing_date_error(notice: Notice, mailed_on: date) -> str | None:
    """Why `mailed_on` cannot be this demand's mailing date ("future", "before_demand"), or
    None: a letter is mailed after it was queued and not on a day to come."""
    if mailed_on > clock.today():
        return "future"
    if mailed_on < clock.legal_date(notice.created_at):
        return "before_demand"
    return None


def _checked(notice: Notice, mailed_on: date, certified_mail_number: str) -> str:
    number = certified_number(certified_mail_number)
    if number is None:
        raise InvalidInput("invalid", field="certified_mail_number")
    code = mailing_date_error(notice, mailed_on)
    if code is not None:
        raise InvalidInput(code, field="mailed_on", demand_on=clock.legal_date(
            notice.created_at))
    return number


def record_mailing(uow: UnitOfWork, staff: Any, notice_id: int, mailed_on: date,
                   certified_mail_number: str, cost: Decimal | None = None) -> Notice:
    """The demand went out by certified mail on `mailed_on`; its cost (R-A9), if given, is
    charged to the account on that date. InvalidInput (field certified_mail_number, or
    mailed_on with code future | before_demand) for a mailing that cannot be true."""
    access.require_staff_role(staff, *access.RECORD)
    notice = uow.session.get(Notice, int(notice_id))
    if notice is None:
        raise NotFound()
    if notice.mailed_on is not None:
        raise Conflict("already_mailed")
    certified_mail_number = _checked(notice, mailed_on, certified_mail_number)
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


def correct_mailing(uow: UnitOfWork, staff: Any, notice_id: int, mailed_on: date,
                    certified_mail_number: str) -> Notice:
    """Staff correct a recorded mailing (a number or a date typed wrong), checked as when it
    was recorded; the return receipt's date, if recorded, may not fall before the new date
    (InvalidInput code after_receipt). The audit keeps the old and new values; the 15 days
    (R-A13) are computed from the date kept, so they run from the corrected one. A demand
    already claimed in court is not corrected (Conflict already_claimed). The postage (R-A9)
    stays the cost it was (the ledger is append-only)."""
    access.require_staff_role(staff, *access.RECORD)
    notice = uow.session.get(Notice, int(notice_id))
    if notice is None or notice.kind != "demand":
        raise NotFound()
    if notice.mailed_on is None:
        raise Conflict("not_mailed")
    if uow.session.scalar(select(CourtClaim.id).where(CourtClaim.notice_id == notice.id)):
        raise Conflict("already_claimed")
    number = _checked(notice, mailed_on, certified_mail_number)
    if notice.acknowledged_on is not None and notice.acknowledged_on < mailed_on:
        raise InvalidInput("after_receipt", field="mailed_on")
    if (notice.mailed_on, notice.certified_mail_number) == (mailed_on, number):
        raise Conflict("unchanged")
    before = {"mailed_on": notice.mailed_on.isoformat(),
              "certified_mail_number": notice.certified_mail_number}
    notice.mailed_on = mailed_on
    notice.certified_mail_number = number
    uow.session.flush()
    audit.record(uow, staff, "demand.mailing_corrected", notice, before=before,
                 after={"mailed_on": mailed_on.isoformat(), "certified_mail_number": number})
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
