"""Autopay: saved payment methods (`methods`), enrolments
(`enrolments`), the day's debits (`debits`: registered as a daily task by
`portal.domains`). The rules are pure, in `portal.core.autopay`.

`covers(uow, parcel_id, day)` tells the reminders what autopay will pay, so they skip it.
"""

from __future__ import annotations

from datetime import date

from sqlalchemy import select

from portal.core import autopay as core
from portal.db import UnitOfWork
from portal.models import Parcel
from portal.models.autopay import SavedMethod


def covers(uow: UnitOfWork, parcel_id: int, day: date) -> bool:
    """Whether the parcel's live autopay will pay what its account asks next on `day` (its
    next installment on its due date, or the lump sum on its day), so a reminder of it is
    not needed. False with no live enrolment, with arrears, or once a debit of what is due
    has failed (its payer must pay it)."""
    import portal.payments.autopay.enrolments as enrolments

    e = enrolments.live(uow, int(parcel_id))
    if e is None:
        return False
    parcel = uow.session.get(Parcel, int(parcel_id))
    method = uow.session.scalar(select(SavedMethod).where(SavedMethod.id == e.method_id))
    found = enrolments.account_offer(uow, parcel, day)
    if parcel is None or method is None or found is None:
        return False
    fy, offer = found
    return core.covers(enrolments.as_core(e, method), offer,
                       enrolments.parcel_attempts(uow, parcel.id, fy.id))
