"""Collections (J9): the demand letters of a delinquency run and the claims filed in court.

A demand's mailing (certified-mail number, mailing date) and its return receipt are recorded
on its `Notice` (kind "demand", R-A12), the one record the parcel page, the statement and the
offer already read; a `DemandLetter` is the run that queued it and what the letter said: the
amounts due on the run's day, by category (R-A17: each item owed, with its rule), as NUMERIC,
never changed. One letter per account and run day (`uq_demand_letters_parcel_id`): running
the same day again creates nothing. A `CourtClaim` records that staff filed the Rule 60 claim
for a demand whose window ended (R-A13).

A `DemandDocument` is the letter as queued (R-A17, revision 3: "the letter is kept as
mailed"): its PDF, rendered once when the demand is queued and kept in the file store
(`portal.storage`, by content hash), and the facts it states, frozen; a later copy is that
same file, never re-rendered. One per demand and kind: the payer's demand, and the copy to
the owner when the payer is not the owner. A `DemandSchedule` row is the scheduled run of
one day (unique): the day's work starts it once, whoever calls it.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import (
    JSON,
    CheckConstraint,
    Date,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from portal.models.base import Base, created_at, money


class DemandLetter(Base):
    """R-A12, R-A17: a demand queued by a delinquency run, with what it demanded."""

    __tablename__ = "demand_letters"
    __immutable__ = ("notice_id", "parcel_id", "fiscal_year_id", "run_on", "interest",
                     "late_fees", "costs", "delinquent_principal", "credit", "total",
                     "installments", "created_at")
    __table_args__ = (
        UniqueConstraint("parcel_id", "fiscal_year_id", "run_on"),
        CheckConstraint("interest >= 0 AND late_fees >= 0 AND costs >= 0 AND "
                        "delinquent_principal > 0 AND credit >= 0 AND total >= 0",
                        name="amounts"),
        Index("ix_demand_letters_run_on", "run_on"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    notice_id: Mapped[int] = mapped_column(ForeignKey("notices.id"), unique=True,
                                           comment="The demand notice (mailing, receipt)")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), comment="The parcel")
    fiscal_year_id: Mapped[int] = mapped_column(ForeignKey("fiscal_years.id"),
                                                comment="The fiscal year of the account")
    run_on: Mapped[date] = mapped_column(Date, comment="The run's day (amounts as of it)")
    job_id: Mapped[int | None] = mapped_column(ForeignKey("jobs.id"),
                                               comment="The collections run's job")
    interest: Mapped[Decimal] = money("Interest to the run's day (R-A8)")
    late_fees: Mapped[Decimal] = money("Late fees owed (R-A7)")
    costs: Mapped[Decimal] = money("Collection costs owed (R-A9)")
    delinquent_principal: Mapped[Decimal] = money("Delinquent principal (R-A6)")
    credit: Mapped[Decimal] = money("Credit on the account (R-A10)")
    total: Mapped[Decimal] = money("All amounts then due (R-A12)")
    installments: Mapped[str] = mapped_column(String(200),
                                              comment="Installment numbers demanded, e.g. 2,3")
    created_at: Mapped[datetime] = created_at()


class CourtClaim(Base):
    """R-A13: staff filed the Rule 60 claim for a demand not paid by its last day."""

    __tablename__ = "court_claims"
    __immutable__ = ("notice_id", "parcel_id", "fiscal_year_id", "filed_on", "created_at")

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    notice_id: Mapped[int] = mapped_column(ForeignKey("notices.id"), unique=True,
                                           comment="The demand claimed")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), comment="The parcel")
    fiscal_year_id: Mapped[int] = mapped_column(ForeignKey("fiscal_years.id"),
                                                comment="The fiscal year of the account")
    filed_on: Mapped[date] = mapped_column(Date, comment="Day the claim was filed")
    case_number: Mapped[str] = mapped_column(String(40), comment="The court's case number")
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"),
                                                      comment="Staff who recorded it")
    created_at: Mapped[datetime] = created_at()


class DemandDocument(Base):
    """R-A17: a demand letter as queued, kept: its PDF in the file store and its facts."""

    __tablename__ = "demand_documents"
    __immutable__ = ("notice_id", "kind", "addressee_party_id", "language", "queued_on",
                     "mail_by", "channel", "storage_key", "size", "facts", "created_at")
    __table_args__ = (
        UniqueConstraint("notice_id", "kind"),
        CheckConstraint("kind IN ('demand', 'owner_copy')", name="kind"),
        CheckConstraint("channel IN ('certified', 'email', 'print')", name="channel"),
        Index("ix_demand_documents_queued_on", "queued_on"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    notice_id: Mapped[int] = mapped_column(ForeignKey("notices.id"),
                                           comment="The demand notice it belongs to")
    kind: Mapped[str] = mapped_column(String(12),
                                      comment="demand (to the payer) or owner_copy")
    addressee_party_id: Mapped[int | None] = mapped_column(
        ForeignKey("parties.id"), comment="To whom it is addressed")
    language: Mapped[str] = mapped_column(String(2), comment="Its first language (es, en)")
    queued_on: Mapped[date] = mapped_column(Date, comment="The Puerto Rico day it was queued")
    mail_by: Mapped[date] = mapped_column(Date, comment="The last day to mail it (R-A17)")
    channel: Mapped[str] = mapped_column(
        String(10), comment="certified (the demand), email or print (the owner's copy)")
    storage_key: Mapped[str] = mapped_column(String(64),
                                             comment="The PDF's SHA-256 (the storage key)")
    size: Mapped[int] = mapped_column(Integer, comment="The PDF's size in bytes")
    facts: Mapped[dict[str, Any]] = mapped_column(JSON,
                                                  comment="What the letter states, frozen")
    created_at: Mapped[datetime] = created_at()


class DemandSchedule(Base):
    """R-A17: the scheduled collections run of one day (one per day, whoever starts it)."""

    __tablename__ = "demand_schedule"
    __immutable__ = ("run_on", "created_at")

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    run_on: Mapped[date] = mapped_column(Date, unique=True, comment="The run's day")
    job_id: Mapped[int | None] = mapped_column(ForeignKey("jobs.id"),
                                               comment="The collections run's job")
    created_at: Mapped[datetime] = created_at()
