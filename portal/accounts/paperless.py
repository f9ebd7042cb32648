"""Paperless: an owner, or the lessee who pays, chooses to receive a
parcel's notices and statements by email instead of paper.

- `choices(uow, user)`: each parcel the user receives notices for (owner, or lessee who
  pays: R-A16), with the choice in force (paper unless chosen otherwise); `choice_for(uow,
  user, parcel_id)`, one parcel's (the parcel page).
- `choose(uow, user, parcel_id, paperless)`: record the choice (audited); `NotFound` for a
  parcel the user does not receive notices for, as for one that does not exist.
- `paperless_parcels(uow, addressees)`: which parcels the roll's print file leaves out: those
  one of whose notice addressees (user ids, per parcel) chose email, has an email to
  receive it at and has not stopped emailed notices (`notice_emails`: then it is printed).

Certified demands (R-A12) are mailed on paper whatever the choice: the law requires the
certified letter, so collections never reads this.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, select, tuple_

from portal import clock
from portal.accounts import access, audit
from portal.accounts.errors import NotFound
from portal.db import UnitOfWork
from portal.models import Parcel, User
from portal.models.paperless import PaperlessChoice

#: Who receives a parcel's notices (`roll.notices`: its owners, the lessee who pays).
RECEIVERS = ("owner", "lessee")


@dataclass(frozen=True)
class Choice:
    parcel: Parcel
    relation: str
    paperless: bool


def _receiving(uow: UnitOfWork, user: Any) -> list[tuple[Parcel, str]]:
    return [(p, rel) for p, rel in access.linked_parcels(uow, user) if rel in RECEIVERS]


def choices(uow: UnitOfWork, user: Any) -> list[Choice]:
    rows = _receiving(uow, user)
    chosen = dict(uow.session.execute(
        select(PaperlessChoice.parcel_id, PaperlessChoice.paperless).where(
            PaperlessChoice.user_id == int(user.id),
            PaperlessChoice.parcel_id.in_([p.id for p, _ in rows] or [0]))).all())
    return [Choice(p, rel, bool(chosen.get(p.id, False)))
            for p, rel in sorted(rows, key=lambda r: r[0].catastro)]


def choice_for(uow: UnitOfWork, user: Any, parcel_id: int) -> bool:
    """The user's choice for one parcel they receive notices for (the caller has read it
    through `access` with a relation in `RECEIVERS`): paper unless chosen otherwise. One
    statement."""
    return bool(uow.session.scalar(_CHOICE, {"uid": int(user.id), "pid": int(parcel_id)}))


_CHOICE = select(PaperlessChoice.paperless).where(PaperlessChoice.user_id == bindparam("uid"),
                                                  PaperlessChoice.parcel_id == bindparam("pid"))


def choose(uow: UnitOfWork, user: Any, parcel_id: int | str, paperless: bool
           ) -> PaperlessChoice:
    pid = access.parse_id(parcel_id)
    if pid not in {p.id for p, _ in _receiving(uow, user)}:
        raise NotFound()
    row = uow.session.scalar(select(PaperlessChoice).where(
        PaperlessChoice.user_id == int(user.id), PaperlessChoice.parcel_id == pid))
    before = None if row is None else {"paperless": row.paperless}
    if row is None:
        row = PaperlessChoice(user_id=int(user.id), parcel_id=pid, paperless=bool(paperless))
        uow.session.add(row)
    elif row.paperless != bool(paperless):
        row.paperless = bool(paperless)
        row.changed_at = clock.now()
    uow.session.flush()
    audit.record(uow, user, "paperless.chosen", row, before=before,
                 after={"parcel_id": pid, "paperless": bool(paperless)})
    return row


def paperless_parcels(uow: UnitOfWork, addressees: Mapping[int, Sequence[int]]) -> set[int]:
    """The parcels of `addressees` ({parcel id: its notice's addressees' user ids}) one of
    whose addressees chose email, has an email address and still gets emailed notices
    (one who stopped them gets the notice on paper: the law requires it be notified)."""
    pairs = [(pid, uid) for pid, uids in addressees.items() for uid in uids]
    if not pairs:
        return set()
    return set(uow.session.scalars(
        select(PaperlessChoice.parcel_id).join(User, User.id == PaperlessChoice.user_id)
        .where(PaperlessChoice.paperless.is_(True), User.email.is_not(None), User.email != "",
               User.notice_emails_off_at.is_(None),
               tuple_(PaperlessChoice.parcel_id, PaperlessChoice.user_id).in_(pairs))))
