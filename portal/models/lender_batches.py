"""A lender's bulk residential-exemption certifications (J7, R-B9, R-B21): one batch per CSV
upload or API request, and its rows as the lender sent them with what became of each.

- `lender_batches`: who sent it (a lender's user, or an API token), from where (`csv` or
  `api`), the file's name, the API's idempotency key and the body's SHA-256 (the same key and
  body are the same batch), its status and its counts.
- `lender_batch_rows`: each row's raw values (JSON, as sent), its outcome (accepted, rejected,
  duplicate; null until processed), the column and reason code of a rejection (a message id,
  worded in the reader's language when shown, never stored as text), and for an accepted row
  the computed exemption (the core's figures) and the certification it filed.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import JSON, CheckConstraint, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from portal.models.base import Base, UTCDateTime, created_at, money

BATCH_STATUSES = ("queued", "running", "done", "failed")
ROW_OUTCOMES = ("accepted", "rejected", "duplicate")
SOURCES = ("csv", "api")


class LenderBatch(Base):
    """One upload (a CSV file) or API request of certifications of one lender."""

    __tablename__ = "lender_batches"
    __table_args__ = (
        UniqueConstraint("lender_id", "idempotency_key"),
        CheckConstraint("status IN ('queued', 'running', 'done', 'failed')", name="status"),
        CheckConstraint("source IN ('csv', 'api', 'form')", name="source"),
        CheckConstraint("total >= 0 AND processed >= 0 AND accepted >= 0 AND rejected >= 0 "
                        "AND duplicates >= 0", name="counts"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    lender_id: Mapped[int] = mapped_column(ForeignKey("lenders.id"), index=True,
                                           comment="The lender it is for")
    created_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id"), index=True, comment="The lender's user who sent it")
    token_id: Mapped[int | None] = mapped_column(
        ForeignKey("lender_api_tokens.id"), comment="The API token that sent it")
    source: Mapped[str] = mapped_column(String(4), comment="csv, api or form")
    filename: Mapped[str | None] = mapped_column(String(255), comment="The uploaded file's name")
    idempotency_key: Mapped[str | None] = mapped_column(
        String(255), comment="The API's Idempotency-Key (one batch per key and lender)")
    body_hash: Mapped[str | None] = mapped_column(
        String(64), comment="SHA-256 of the API request's body")
    status: Mapped[str] = mapped_column(String(8), default="queued",
                                        comment="queued, running, done or failed")
    job_id: Mapped[int | None] = mapped_column(ForeignKey("jobs.id"),
                                               comment="The background job processing it")
    total: Mapped[int] = mapped_column(Integer, default=0, comment="Rows sent")
    processed: Mapped[int] = mapped_column(Integer, default=0, comment="Rows processed")
    accepted: Mapped[int] = mapped_column(Integer, default=0, comment="Rows filed")
    rejected: Mapped[int] = mapped_column(Integer, default=0, comment="Rows refused")
    duplicates: Mapped[int] = mapped_column(Integer, default=0,
                                            comment="Rows already filed with the same answers")
    created_at: Mapped[datetime] = created_at()
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime(),
                                                         comment="When it was processed")


class LenderBatchRow(Base):
    """One certification of a batch, as sent, and its outcome."""

    __tablename__ = "lender_batch_rows"
    __table_args__ = (
        UniqueConstraint("batch_id", "row_number"),
        Index("ix_lender_batch_rows_batch_id_outcome", "batch_id", "outcome"),
        CheckConstraint("outcome IS NULL OR outcome IN ('accepted', 'rejected', 'duplicate')",
                        name="outcome"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    batch_id: Mapped[int] = mapped_column(ForeignKey("lender_batches.id"),
                                          comment="The batch")
    row_number: Mapped[int] = mapped_column(
        Integer, comment="The row's number (a file's header is row 1, as a spreadsheet counts)")
    loan_number: Mapped[str] = mapped_column(String(40), default="", comment="As sent")
    catastro: Mapped[str] = mapped_column(String(40), default="", comment="As sent")
    fiscal_year: Mapped[str] = mapped_column(String(20), default="", comment="As sent")
    raw_values: Mapped[dict[str, Any]] = mapped_column(JSON, comment="Every field as sent")
    outcome: Mapped[str | None] = mapped_column(
        String(9), comment="accepted, rejected or duplicate (null: not processed yet)")
    error_column: Mapped[str | None] = mapped_column(String(40),
                                                     comment="The field a rejection is about")
    reason: Mapped[str | None] = mapped_column(
        String(40), comment="Why it was rejected: a message id, worded when shown")
    reason_params: Mapped[dict[str, Any] | None] = mapped_column(
        JSON, comment="The figures of the reason's message")
    exemption_amount: Mapped[Decimal | None] = money(
        "The residential exemption computed (the core's), for an accepted row", nullable=True)
    net_tax: Mapped[Decimal | None] = money(
        "The year's property tax with the exemption (the core's), for an accepted row",
        nullable=True)
    certification_id: Mapped[int | None] = mapped_column(
        ForeignKey("exemption_certifications.id"),
        comment="The certification filed (or already on file, for a duplicate)")
