"""The mail outbox: every email the portal sends is first a row here, written in the unit of
work that caused it (a sign-up, a receipt, a notice), and sent later by the worker
(`portal.jobs.outbox`). The row is the truth: pending until the relay accepted it (then
sent), or failed with the relay's reason after its last attempt; staff may queue a failed
one again.

A sender claims rows with a token of its own (`claim_token`, until `claimed_until`): two
senders never hold the same row, and one that died lets it go when its claim lapses.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, CheckConstraint, Index, Integer, LargeBinary, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from portal.models.base import Base, UTCDateTime, created_at

OUTBOX_STATUSES = ("pending", "sent", "failed")


class OutboxMessage(Base):
    """One email: the whole message as the relay will receive it, and how its sending went."""

    __tablename__ = "outbox_messages"
    __table_args__ = (
        CheckConstraint("status IN ('pending', 'sent', 'failed')", name="status"),
        CheckConstraint("attempts >= 0", name="attempts"),
        Index("ix_outbox_messages_due", "status", "next_attempt_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    created_at: Mapped[datetime] = created_at()
    template: Mapped[str] = mapped_column(String(60), comment="The email's template (its kind)")
    recipient: Mapped[str] = mapped_column(String(320), comment="The To address")
    subject: Mapped[str] = mapped_column(String(300), comment="The subject, as sent")
    message_id: Mapped[str] = mapped_column(String(300), unique=True,
                                            comment="The Message-ID header (on our domain)")
    bulk: Mapped[bool] = mapped_column(Boolean, default=False,
                                       comment="A bulk notice (List-Unsubscribe set)")
    raw: Mapped[bytes] = mapped_column(LargeBinary, comment="The message (RFC 5322 bytes)")
    status: Mapped[str] = mapped_column(String(10), default="pending",
                                        comment="pending, sent or failed")
    attempts: Mapped[int] = mapped_column(Integer, default=0, comment="Times a send was tried")
    next_attempt_at: Mapped[datetime] = mapped_column(
        UTCDateTime(), comment="Not to be tried before this instant (the backoff)")
    claim_token: Mapped[str | None] = mapped_column(
        String(32), comment="The sender holding it (null: nobody)")
    claimed_until: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When the sender's claim lapses")
    sent_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When the relay accepted it (UTC)")
    last_error: Mapped[str | None] = mapped_column(
        Text, comment="The relay's last refusal or the connection's error")
