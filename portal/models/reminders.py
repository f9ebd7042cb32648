"""Reminders and the calendar (docs/REMINDERS.md): an account's choices, a parcel
turned off, a relative who gets a parcel's reminders by email alone, and the record of each
reminder sent (one per parcel, kind, day and recipient, whoever runs the job).

The tokens are random (`secrets.token_urlsafe`), unique, and only ever compared whole: the
unsubscribe link's, the calendar feed's (reset by the owner) and a relative's confirmation.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Date,
    ForeignKey,
    Index,
    SmallInteger,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from portal.models.base import AppendOnly, Base, UTCDateTime, created_at

REMINDER_KINDS = ("installment_due", "lump_sum_deadline", "installment_late", "demand_last_day")


class ReminderSettings(Base):
    """One account's reminder choices. No row: reminders on, 7 days before (new accounts are
    on by default, and the dashboard says so until the owner saves a choice)."""

    __tablename__ = "rem_settings"
    __table_args__ = (
        CheckConstraint("days_before >= 0 AND days_before <= 60", name="days_before"),
    )

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True,
                                         comment="The account")
    enabled: Mapped[bool] = mapped_column(Boolean, default=True,
                                          comment="Reminders by email on or off")
    days_before: Mapped[int] = mapped_column(SmallInteger, default=7,
                                             comment="Days before a day its reminder goes")
    chosen_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When the owner saved a choice (null: the defaults, untold)")
    unsubscribe_token: Mapped[str] = mapped_column(
        String(64), unique=True, comment="The one-click unsubscribe link's secret")
    calendar_token: Mapped[str] = mapped_column(
        String(64), unique=True, comment="The calendar feed's secret (reset by the owner)")
    created_at: Mapped[datetime] = created_at()


class ReminderParcelOff(Base):
    """A parcel whose reminders the account turned off (the others keep theirs)."""

    __tablename__ = "rem_parcels_off"
    __table_args__ = (UniqueConstraint("user_id", "parcel_id"),)

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), comment="The account")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), comment="The parcel")
    created_at: Mapped[datetime] = created_at()


class ReminderRelative(Base):
    """Someone without an account (a relative) who gets a parcel's reminders by email, added
    by a manager of the parcel; nothing goes before they confirm from that email."""

    __tablename__ = "rem_relatives"
    __table_args__ = (
        CheckConstraint("language IN ('es', 'en')", name="language"),
        CheckConstraint("email = lower(email)", name="email_lowercase"),
        Index("ix_rem_relatives_parcel", "parcel_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), comment="The parcel")
    email: Mapped[str] = mapped_column(String(254), comment="The relative's email, lower case")
    language: Mapped[str] = mapped_column(String(2), default="es",
                                          comment="The reminders' language: 'es' or 'en'")
    added_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"),
                                             comment="The parcel's manager who added it")
    confirm_token: Mapped[str] = mapped_column(String(64), unique=True,
                                               comment="The confirmation link's secret")
    unsubscribe_token: Mapped[str] = mapped_column(
        String(64), unique=True, comment="The one-click unsubscribe link's secret")
    confirmed_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When the relative confirmed (null: nothing is sent)")
    stopped_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When the relative unsubscribed or the manager removed them")
    created_at: Mapped[datetime] = created_at()


class ReminderSent(AppendOnly, Base):
    """A reminder queued in the outbox: at most one per parcel, kind, day and recipient."""

    __tablename__ = "rem_sent"
    __table_args__ = (
        CheckConstraint("kind IN ('installment_due', 'lump_sum_deadline', "
                        "'installment_late', 'demand_last_day')", name="kind"),
        UniqueConstraint("parcel_id", "kind", "day", "recipient"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), comment="The parcel")
    kind: Mapped[str] = mapped_column(String(20), comment="The reminder's kind")
    day: Mapped[date] = mapped_column(Date, comment="The day it is about (e.g. the last "
                                                    "timely day)")
    recipient: Mapped[str] = mapped_column(String(254), comment="The email it went to")
    sent_on: Mapped[date] = mapped_column(Date, comment="The Puerto Rico day it was queued")
    outbox_id: Mapped[int | None] = mapped_column(ForeignKey("outbox_messages.id"),
                                                  comment="The email in the outbox")
    created_at: Mapped[datetime] = created_at()
