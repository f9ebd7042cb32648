"""An account's reminder choices (docs/REMINDERS.md): on or off, how many days before, which of
its parcels; the calendar feed's secret (reset here) and the one-click unsubscribe.

Reminders are on by default (7 days before) for every parcel the account owns or pays as its
lessee: an account without a `rem_settings` row has the defaults, and the dashboard says so
(`needs_notice`) until the owner saves a choice. The row is made when first needed (a
reminder's unsubscribe link, the calendar's secret), with random tokens.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, bindparam, delete, select
from sqlalchemy.exc import IntegrityError

from portal import clock
from portal.accounts import audit
from portal.accounts.errors import InvalidInput, NotFound
from portal.core.reminders import DAYS_BEFORE_CHOICES, DEFAULT_DAYS_BEFORE
from portal.db import UnitOfWork
from portal.models import Parcel, ParcelLink, User
from portal.models.reminders import ReminderParcelOff, ReminderRelative, ReminderSettings

#: The links whose holder gets the parcel's reminders: its owners and its lessees (payers).
RECIPIENT_ROLES = ("owner", "lessee")


def new_token() -> str:
    return secrets.token_urlsafe(32)


def settings_of(uow: UnitOfWork, user_id: int) -> ReminderSettings | None:
    return uow.session.get(ReminderSettings, int(user_id))


def ensure(uow: UnitOfWork, user_id: int) -> ReminderSettings:
    """The account's row, made with the defaults and new tokens when it has none."""
    row = settings_of(uow, user_id)
    if row is not None:
        return row
    try:  # two runs of the day's reminders may make it at once: the other's row is it
        with uow.session.begin_nested():
            row = ReminderSettings(user_id=int(user_id), enabled=True,
                                   days_before=DEFAULT_DAYS_BEFORE,
                                   unsubscribe_token=new_token(), calendar_token=new_token())
            uow.session.add(row)
            uow.session.flush()
    except IntegrityError:
        row = uow.session.get(ReminderSettings, int(user_id), populate_existing=True)
        if row is None:
            raise
    return row


def recipient_parcels(uow: UnitOfWork, user_id: int) -> list[Parcel]:
    """The parcels whose reminders the account may get (its live owner and lessee links),
    by catastro number."""
    return list(uow.session.scalars(
        select(Parcel).join(ParcelLink, ParcelLink.parcel_id == Parcel.id)
        .where(ParcelLink.user_id == int(user_id), ParcelLink.revoked_at.is_(None),
               ParcelLink.role.in_(RECIPIENT_ROLES))
        .distinct().order_by(Parcel.catastro)))


def parcels_off(uow: UnitOfWork, user_id: int) -> set[int]:
    return set(uow.session.scalars(select(ReminderParcelOff.parcel_id).where(
        ReminderParcelOff.user_id == int(user_id))))


@dataclass(frozen=True)
class RelativeView:
    id: int
    email: str
    confirmed: bool
    language: str


@dataclass(frozen=True)
class ParcelChoice:
    parcel_id: int
    catastro: str
    address: str
    on: bool
    may_manage: bool  # may add relatives (policy.manager_relation)
    relatives: list[RelativeView] = field(default_factory=list)


@dataclass(frozen=True)
class Preferences:
    """What /cuenta/recordatorios shows."""

    enabled: bool
    days_before: int
    chosen: bool
    calendar_token: str
    parcels: list[ParcelChoice]
    choices: tuple[int, ...] = DAYS_BEFORE_CHOICES


# The page's reads, built once with bound parameters, as plain rows (no ORM objects): the
# account's choices; its recipient parcels (`recipient_parcels`) each with its one live link
# (`uq_parcel_links_live`: role and source say whether it manages the parcel, as
# `policy.manager_relation` reads that link) and whether it turned the parcel off; the
# relatives of the parcels it manages.
_SETTINGS = ReminderSettings.__table__
_SETTINGS_ROW = select(_SETTINGS.c.enabled, _SETTINGS.c.days_before, _SETTINGS.c.chosen_at,
                       _SETTINGS.c.calendar_token).where(_SETTINGS.c.user_id == bindparam("user"))
_PARCELS, _LINKS, _OFF = Parcel.__table__, ParcelLink.__table__, ReminderParcelOff.__table__
_PARCEL_ROWS = (
    select(_PARCELS.c.id, _PARCELS.c.catastro, _PARCELS.c.address, _LINKS.c.role,
           _LINKS.c.source, _OFF.c.parcel_id.is_not(None).label("off"))
    .join(_LINKS, _LINKS.c.parcel_id == _PARCELS.c.id)
    .outerjoin(_OFF, and_(_OFF.c.user_id == _LINKS.c.user_id,
                          _OFF.c.parcel_id == _PARCELS.c.id))
    .where(_LINKS.c.user_id == bindparam("user"), _LINKS.c.revoked_at.is_(None),
           _LINKS.c.role.in_(RECIPIENT_ROLES))
    .order_by(_PARCELS.c.catastro))
_RELATIVES = ReminderRelative.__table__
_RELATIVE_ROWS = (
    select(_RELATIVES.c.id, _RELATIVES.c.parcel_id, _RELATIVES.c.email,
           _RELATIVES.c.confirmed_at.is_not(None).label("confirmed"), _RELATIVES.c.language)
    .where(_RELATIVES.c.parcel_id.in_(bindparam("ids", expanding=True)),
           _RELATIVES.c.stopped_at.is_(None))
    .order_by(_RELATIVES.c.id))


def _manages(role: str, source: str) -> bool:
    """`policy.manager_relation` is "owner" or "payer" for this link."""
    return role == "owner" or (role == "lessee" and source == "code")


def view(uow: UnitOfWork, user: Any) -> Preferences:
    """The account's choices, its parcels (each on or off, with its relatives where the
    account manages it) and the calendar's secret (made now if there was none): two
    statements, three when it manages a parcel."""
    uid = int(user.id)
    row = uow.session.execute(_SETTINGS_ROW, {"user": uid}).first()
    if row is None:
        made = ensure(uow, uid)
        row = (made.enabled, made.days_before, made.chosen_at, made.calendar_token)
    enabled, days_before, chosen_at, token = row
    parcels = uow.session.execute(_PARCEL_ROWS, {"user": uid}).all()
    managed = [p.id for p in parcels if _manages(p.role, p.source)]
    relatives: dict[int, list[RelativeView]] = {}
    if managed:
        for r in uow.session.execute(_RELATIVE_ROWS, {"ids": managed}):
            relatives.setdefault(r.parcel_id, []).append(
                RelativeView(r.id, r.email, bool(r.confirmed), r.language))
    choices = [ParcelChoice(p.id, p.catastro, p.address, not p.off, _manages(p.role, p.source),
                            relatives.get(p.id, []))
               for p in parcels]
    return Preferences(bool(enabled), days_before, chosen_at is not None, token, choices)


def check_days(days_before: Any) -> int:
    try:
        days = int(days_before)
    except (TypeError, ValueError):
        raise InvalidInput("days_before", field="days_before") from None
    if days not in DAYS_BEFORE_CHOICES:
        raise InvalidInput("days_before", field="days_before")
    return days


def save(uow: UnitOfWork, user: Any, *, enabled: bool, days_before: Any,
         parcels_on: Iterable[int]) -> ReminderSettings:
    """Save the account's choices: on or off, the days before (one of
    `DAYS_BEFORE_CHOICES`), and which of its parcels keep their reminders (a parcel id that
    is not one of its own is refused: InvalidInput, nothing changed)."""
    days = check_days(days_before)
    mine = {p.id for p in recipient_parcels(uow, user.id)}
    wanted = set()
    for pid in parcels_on:
        try:
            wanted.add(int(pid))
        except (TypeError, ValueError):
            raise InvalidInput("parcel", field="parcels") from None
    if not wanted <= mine:
        raise InvalidInput("parcel", field="parcels")
    row = ensure(uow, user.id)
    before = {"enabled": row.enabled, "days_before": row.days_before,
              "off": sorted(parcels_off(uow, user.id))}
    row.enabled = bool(enabled)
    row.days_before = days
    row.chosen_at = clock.now()
    off = mine - wanted
    uow.session.execute(delete(ReminderParcelOff).where(ReminderParcelOff.user_id == user.id))
    for pid in sorted(off):
        uow.session.add(ReminderParcelOff(user_id=user.id, parcel_id=pid))
    audit.record(uow, user, "reminders.preferences_saved", object_type="users",
                 object_id=user.id, before=before,
                 after={"enabled": row.enabled, "days_before": days, "off": sorted(off)})
    return row


def reset_calendar(uow: UnitOfWork, user: Any) -> str:
    """A new secret for the account's calendar feed: the old address stops working."""
    row = ensure(uow, user.id)
    row.calendar_token = new_token()
    audit.record(uow, user, "reminders.calendar_reset", object_type="users", object_id=user.id)
    return row.calendar_token


#: When the account saved its choice (`needs_notice`, the dashboard's question): one column
#: by a statement built once, not the row as an object.
_CHOSEN = select(ReminderSettings.chosen_at).where(ReminderSettings.user_id == bindparam("uid"))


def needs_notice(uow: UnitOfWork, user: Any, *, recipients: bool | None = None) -> bool:
    """Whether the dashboard says that reminders are on by default: the account has parcels
    to be reminded of and has not saved a choice. `recipients`: whether it has such parcels
    (live owner or lessee links), when the caller has read them already."""
    # On the unit of work's connection (one column): the ORM's own work was two thirds of
    # the read (~60 -> 21 us). The dashboard's unit of work only reads.
    chosen = uow.connection().execute(_CHOSEN, {"uid": int(user.id)}).first()
    if chosen is not None and chosen[0] is not None:
        return False
    return recipients if recipients is not None else bool(recipient_parcels(uow, user.id))


@dataclass(frozen=True)
class Unsubscription:
    """Whose reminders a one-click link stops: an account's (`email`) or a relative's (and
    the parcel's catastro number)."""

    who: str  # "account" | "relative"
    email: str
    catastro: str | None
    stopped: bool  # already stopped


def _find(uow: UnitOfWork, token: str) -> ReminderSettings | ReminderRelative:
    token = (token or "").strip()
    if not token or len(token) > 64:
        raise NotFound()
    row: ReminderSettings | ReminderRelative | None = uow.session.scalar(
        select(ReminderSettings).where(ReminderSettings.unsubscribe_token == token))
    if row is None:
        row = uow.session.scalar(select(ReminderRelative).where(
            ReminderRelative.unsubscribe_token == token))
    if row is None:
        raise NotFound()
    return row


def unsubscription(uow: UnitOfWork, token: str) -> Unsubscription:
    """What the unsubscribe link `token` stops (NotFound for an unknown token)."""
    row = _find(uow, token)
    if isinstance(row, ReminderSettings):
        user = uow.session.get(User, row.user_id)
        return Unsubscription("account", user.email if user else "", None, not row.enabled)
    parcel = uow.session.get(Parcel, row.parcel_id)
    return Unsubscription("relative", row.email, parcel.catastro if parcel else None,
                          row.stopped_at is not None)


def unsubscribe(uow: UnitOfWork, token: str) -> Unsubscription:
    """One click (RFC 8058): the account's reminders off, or the relative's stopped. No
    sign-in: the token is the proof. Doing it twice changes nothing more."""
    row = _find(uow, token)
    if isinstance(row, ReminderSettings):
        if row.enabled:
            row.enabled = False
            row.chosen_at = clock.now()
            audit.record(uow, None, "reminders.unsubscribed", object_type="users",
                         object_id=row.user_id)
    elif row.stopped_at is None:
        row.stopped_at = clock.now()
        audit.record(uow, None, "reminders.relative_unsubscribed", row)
    return unsubscription(uow, token)
