"""Background jobs (DESIGN.md 7): long work that leaves the request, with its progress.

A job is a row here and a message on the task queue (`portal.jobs`). The row is the truth:
its status, how far it got (`done` of `total`, written in the same transaction as each batch
of work), who started it, and why it failed (a message id, translated when shown). The same
input while a job for it is queued or running is that job (`active_key`, unique): starting it
twice starts it once.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, CheckConstraint, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from portal.models.base import Base, UTCDateTime, created_at

JOB_STATUSES = ("queued", "running", "succeeded", "failed")
ACTIVE = ("queued", "running")


class Job(Base):
    """One run of long work: computing a roll, publishing it, ..."""

    __tablename__ = "jobs"
    __table_args__ = (
        CheckConstraint("status IN ('queued', 'running', 'succeeded', 'failed')",
                        name="status"),
        CheckConstraint("done >= 0", name="done"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    kind: Mapped[str] = mapped_column(String(40), index=True,
                                      comment="What it does, e.g. roll.compute")
    params: Mapped[dict[str, Any]] = mapped_column(JSON, comment="Its input (ids, dates)")
    input_checksum: Mapped[str] = mapped_column(
        String(64), index=True, comment="SHA-256 of the kind and the input")
    active_key: Mapped[str | None] = mapped_column(
        String(64), unique=True,
        comment="The input's checksum while queued or running (null after): one job at a time")
    status: Mapped[str] = mapped_column(String(10), default="queued",
                                        comment="queued, running, succeeded or failed")
    done: Mapped[int] = mapped_column(Integer, default=0, comment="Items done (committed)")
    total: Mapped[int | None] = mapped_column(Integer, comment="Items in all (null: not known)")
    attempts: Mapped[int] = mapped_column(Integer, default=0, comment="Times it was started")
    created_at: Mapped[datetime] = created_at()
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True,
                                                      comment="Who started it")
    started_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When its last attempt started (UTC)")
    updated_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When it last committed a batch (UTC)")
    worker_token: Mapped[str | None] = mapped_column(
        String(32), comment="The worker running it (its claim); every write it makes checks it")
    heartbeat_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When its worker last said it is alive (UTC)")
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime(),
                                                         comment="When it ended (UTC)")
    error_code: Mapped[str | None] = mapped_column(
        String(40), comment="Why it failed: a message id, translated when shown")
    error_params: Mapped[dict[str, Any] | None] = mapped_column(
        JSON, comment="The figures of the error's message")
    result: Mapped[dict[str, Any] | None] = mapped_column(
        JSON, comment="What it produced (e.g. the roll's id)")

    @property
    def active(self) -> bool:
        return self.status in ACTIVE
