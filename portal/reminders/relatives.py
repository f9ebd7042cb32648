"""Someone else's parcel (Contra Costa's third-party reminder): a manager of the parcel (its
owner, or the lessee who claimed it with its code: `policy.manager_relation`) names a
relative's email; the relative confirms from that email (a link with a random secret) before
any reminder goes; every reminder links to the pay page without an account and carries a
one-click unsubscribe. The manager may remove the relative at any time.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import func, select

from portal import clock, mail
from portal.accounts import access, audit, policy
from portal.accounts.errors import Conflict, Forbidden, InvalidInput, NotFound
from portal.config import mail_settings
from portal.db import UnitOfWork
from portal.models import Parcel
from portal.models.reminders import ReminderRelative
from portal.reminders import links
from portal.reminders.preferences import new_token

#: The most relatives a parcel may have at once.
MAX_PER_PARCEL = 5


def require_manager(uow: UnitOfWork, user: Any, parcel_id: int | str) -> Parcel:
    parcel = access.get_parcel(uow, user, parcel_id)  # NotFound if not visible
    if access.is_staff(user) or policy.manager_relation(uow, user, parcel.id) not in (
            "owner", "payer"):
        raise Forbidden()
    return parcel


def add(uow: UnitOfWork, user: Any, parcel_id: int | str, email: str, language: str, *,
        config: Mapping[str, Any] | None = None) -> ReminderRelative:
    """Add a relative's email to the parcel's reminders and send them the confirmation link
    (in `language`). NotFound / Forbidden for a parcel the user does not manage."""
    parcel = require_manager(uow, user, parcel_id)
    email = (email or "").strip().lower()
    if "@" not in email or len(email) > 254:
        raise InvalidInput("email", field="email")
    if language not in ("es", "en"):
        raise InvalidInput("language", field="language")
    live = list(uow.session.scalars(select(ReminderRelative).where(
        ReminderRelative.parcel_id == parcel.id, ReminderRelative.stopped_at.is_(None))))
    if any(r.email == email for r in live):
        raise Conflict("already_added", field="email")
    if len(live) >= MAX_PER_PARCEL:
        raise InvalidInput("too_many", field="email", max=MAX_PER_PARCEL)
    row = ReminderRelative(parcel_id=parcel.id, email=email, language=language,
                           added_by_id=user.id, confirm_token=new_token(),
                           unsubscribe_token=new_token())
    uow.session.add(row)
    uow.session.flush()
    config = mail_settings() if config is None else config
    mail.send(uow, email, "reminder_relative_confirm", language, config=config,
              name=getattr(user, "name", "") or user.email, catastro=parcel.catastro,
              address=parcel.address,
              link=links.confirm_relative(config, row.confirm_token, language))
    audit.record(uow, user, "reminders.relative_added", row, after={"parcel_id": parcel.id})
    return row


def remove(uow: UnitOfWork, user: Any, parcel_id: int | str, relative_id: int | str
           ) -> ReminderRelative:
    """Stop a relative's reminders for the parcel (the manager's choice)."""
    parcel = require_manager(uow, user, parcel_id)
    row = uow.session.scalar(select(ReminderRelative).where(
        ReminderRelative.id == access.parse_id(relative_id),
        ReminderRelative.parcel_id == parcel.id))
    if row is None or row.stopped_at is not None:
        raise NotFound()
    row.stopped_at = clock.now()
    audit.record(uow, user, "reminders.relative_removed", row)
    return row


def pending(uow: UnitOfWork, token: str) -> tuple[ReminderRelative, Parcel]:
    """The relative the confirmation link `token` is for, and the parcel (NotFound for an
    unknown, used or stopped link)."""
    token = (token or "").strip()
    if not token or len(token) > 64:
        raise NotFound()
    row = uow.session.scalar(select(ReminderRelative).where(
        ReminderRelative.confirm_token == token))
    if row is None or row.stopped_at is not None:
        raise NotFound()
    parcel = uow.session.get(Parcel, row.parcel_id)
    if parcel is None:
        raise NotFound()
    return row, parcel


def confirm(uow: UnitOfWork, token: str) -> tuple[ReminderRelative, Parcel]:
    """The relative confirms from their email: reminders go from now on. Twice: no change."""
    row, parcel = pending(uow, token)
    if row.confirmed_at is None:
        row.confirmed_at = clock.now()
        audit.record(uow, None, "reminders.relative_confirmed", row)
    return row, parcel


def confirmed_of(uow: UnitOfWork, parcel_ids: list[int]) -> dict[int, list[ReminderRelative]]:
    """{parcel id: its confirmed relatives still receiving} for these parcels."""
    out: dict[int, list[ReminderRelative]] = {}
    if not parcel_ids:
        return out
    for r in uow.session.scalars(select(ReminderRelative).where(
            ReminderRelative.parcel_id.in_(parcel_ids), ReminderRelative.stopped_at.is_(None),
            ReminderRelative.confirmed_at.is_not(None)).order_by(ReminderRelative.id)):
        out.setdefault(r.parcel_id, []).append(r)
    return out


def parcels_with_relatives(uow: UnitOfWork) -> list[int]:
    return list(uow.session.scalars(
        select(ReminderRelative.parcel_id).where(
            ReminderRelative.stopped_at.is_(None), ReminderRelative.confirmed_at.is_not(None))
        .group_by(ReminderRelative.parcel_id).having(func.count() > 0)))
