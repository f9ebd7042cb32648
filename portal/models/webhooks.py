"""A lender's webhooks: the https endpoints a bank registers to be told when one of
its batches finishes (`batch.finished`) or a certification of one of its loans is decided
(`certification.decided`), and each event's delivery to each endpoint: a row written in the
unit of work that caused the event (an outbox, as `outbox_messages` is for mail), sent by
the worker, signed (HMAC-SHA256 of the timestamp and the body), retried with a backoff, and
shown to the bank as its delivery log. See docs/LENDERS.md.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, CheckConstraint, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from portal.models.base import Base, UTCDateTime, created_at

WEBHOOK_EVENTS = ("batch.finished", "certification.decided")
DELIVERY_STATUSES = ("pending", "delivered", "failed")


class LenderWebhook(Base):
    """An endpoint of a lender's, with the secret its deliveries are signed with."""

    __tablename__ = "lender_webhooks"

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    lender_id: Mapped[int] = mapped_column(ForeignKey("lenders.id"), index=True,
                                           comment="The lender told")
    url: Mapped[str] = mapped_column(String(500), comment="The https address posted to")
    secret: Mapped[str] = mapped_column(
        String(80), comment="The signing secret (whsec_...; kept to sign, shown once)")
    events: Mapped[list[str]] = mapped_column(JSON, comment="The events it is sent")
    created_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"),
                                               comment="The administrator who registered it")
    created_at: Mapped[datetime] = created_at()
    revoked_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When it was removed (nothing is sent to it from then)")


class WebhookDelivery(Base):
    """One event for one endpoint: pending until the endpoint answered 2xx (delivered), or
    failed after its last attempt."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (
        CheckConstraint("status IN ('pending', 'delivered', 'failed')", name="status"),
        CheckConstraint("attempts >= 0", name="attempts"),
        Index("ix_webhook_deliveries_due", "status", "next_attempt_at"),
        Index("ix_webhook_deliveries_lender", "lender_id", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    webhook_id: Mapped[int] = mapped_column(ForeignKey("lender_webhooks.id"), index=True,
                                            comment="The endpoint")
    lender_id: Mapped[int] = mapped_column(ForeignKey("lenders.id"),
                                           comment="The endpoint's lender")
    event_id: Mapped[str] = mapped_column(String(40), unique=True,
                                          comment="The event's id (evt_...), sent with it")
    event: Mapped[str] = mapped_column(String(40), comment="batch.finished, ...")
    payload: Mapped[dict[str, Any]] = mapped_column(JSON, comment="The event's data")
    created_at: Mapped[datetime] = created_at()
    status: Mapped[str] = mapped_column(String(10), default="pending",
                                        comment="pending, delivered or failed")
    attempts: Mapped[int] = mapped_column(Integer, default=0, comment="Times it was posted")
    next_attempt_at: Mapped[datetime] = mapped_column(
        UTCDateTime(), comment="Not to be posted before this instant (the backoff)")
    claim_token: Mapped[str | None] = mapped_column(
        String(32), comment="The worker holding it (null: nobody)")
    claimed_until: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When the worker's claim lapses")
    last_status: Mapped[int | None] = mapped_column(
        Integer, comment="The endpoint's last HTTP status (null: no answer)")
    last_error: Mapped[str | None] = mapped_column(
        Text, comment="Why the last attempt failed (a status, a timeout)")
    delivered_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When the endpoint answered 2xx (UTC)")
