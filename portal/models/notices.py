"""Notices: the assessment notice (R-A4) and the certified-mail demand (R-A12, R-A13)."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import CheckConstraint, Date, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from portal.models.base import Base, created_at, money

NOTICE_KINDS = ("assessment", "demand")


class Notice(Base):
    """A notice to the payer of a parcel's account. Mailing and acknowledgment are recorded
    as they happen; what was demanded never changes."""

    __tablename__ = "notices"
    __immutable__ = ("parcel_id", "fiscal_year_id", "kind", "amount", "created_at")
    __table_args__ = (
        CheckConstraint("kind IN ('assessment', 'demand')", name="kind"),
        CheckConstraint("language IN ('es', 'en')", name="language"),
        CheckConstraint("amount IS NULL OR amount >= 0", name="amount"),
        CheckConstraint("acknowledged_on IS NULL OR mailed_on IS NOT NULL",
                        name="acknowledged"),
        Index("ix_notices_account", "parcel_id", "fiscal_year_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), comment="The parcel")
    fiscal_year_id: Mapped[int] = mapped_column(ForeignKey("fiscal_years.id"),
                                                comment="The fiscal year")
    kind: Mapped[str] = mapped_column(String(10),
                                      comment="assessment (R-A4) or demand (R-A12)")
    assessment_id: Mapped[int | None] = mapped_column(
        ForeignKey("assessments.id"), comment="The assessment notified")
    addressee_party_id: Mapped[int | None] = mapped_column(
        ForeignKey("parties.id"), comment="To whom (owner or paying lessee, R-A16)")
    language: Mapped[str] = mapped_column(String(2), default="es",
                                          comment="Language of the letter")
    amount: Mapped[Decimal | None] = money("Amount demanded: all then due (R-A12)",
                                           nullable=True)
    created_at: Mapped[datetime] = created_at()
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"),
                                                      comment="Staff who queued it")
    mailed_on: Mapped[date | None] = mapped_column(Date, comment="Date it was mailed")
    certified_mail_number: Mapped[str | None] = mapped_column(
        String(40), comment="Certified-mail article number")
    acknowledged_on: Mapped[date | None] = mapped_column(
        Date, comment="Date on the return receipt (R-A12)")
    cost_entry_id: Mapped[int | None] = mapped_column(
        ForeignKey("ledger_entries.id"), comment="The certified-mail cost charged (R-A9)")
