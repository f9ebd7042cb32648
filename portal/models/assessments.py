"""The assessment roll, each parcel's assessment and its installments (R-A2 to R-A5).

A roll is computed from an adopted budget version (its lines are a preview that may be
recomputed) and then published: publishing writes the facts, an `Assessment` per assessable
parcel with its `Installment`s. Facts are append-only: an amendment (a later budget version)
publishes a new assessment that `supersedes` the previous one, with a whole new set of
installments (paid ones carried over unchanged, R-A5). The current assessment of a parcel for a
fiscal year is the one no other supersedes.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Date,
    ForeignKey,
    Integer,
    Numeric,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.models.base import AppendOnly, Base, UTCDateTime, created_at, money
from portal.models.budgets import BudgetVersion, FiscalYear
from portal.models.parcels import Parcel

ROLL_STATUSES = ("computed", "published")
PAYERS = ("owner", "lessee")


class AssessmentRoll(Base):
    """The roll of a budget version: computed (a preview), then published (the facts)."""

    __tablename__ = "assessment_rolls"
    __table_args__ = (
        CheckConstraint("status IN ('computed', 'published')", name="status"),
        CheckConstraint("total >= 0", name="total"),
        CheckConstraint("status = 'computed' OR published_at IS NOT NULL", name="published"),
    )
    __immutable__ = ("budget_version_id", "fiscal_year_id")

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    budget_version_id: Mapped[int] = mapped_column(
        ForeignKey("budget_versions.id"), unique=True, comment="The adopted version rolled")
    fiscal_year_id: Mapped[int] = mapped_column(ForeignKey("fiscal_years.id"), index=True,
                                                comment="The fiscal year")
    status: Mapped[str] = mapped_column(String(10), default="computed",
                                        comment="computed or published")
    total: Mapped[Decimal] = money("The total assessed (the version's total to assess)")
    total_units: Mapped[Decimal] = mapped_column(
        Numeric(18, 4), default=Decimal(0), comment="Benefit units of the parcels sharing it")
    assessed_count: Mapped[int] = mapped_column(Integer, default=0,
                                                comment="Parcels assessed")
    exempt_count: Mapped[int] = mapped_column(Integer, default=0,
                                              comment="Parcels exempt (R-A2)")
    notice_date: Mapped[date | None] = mapped_column(
        Date, comment="Date the assessment notices go out (R-A4: nothing due before it)")
    computed_at: Mapped[datetime] = created_at("When it was (last) computed (UTC)")
    computed_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"),
                                                       comment="Staff who computed it")
    published_at: Mapped[datetime | None] = mapped_column(UTCDateTime(),
                                                          comment="When it was published")
    published_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"),
                                                        comment="Staff who published it")

    budget_version: Mapped[BudgetVersion] = relationship()
    fiscal_year: Mapped[FiscalYear] = relationship()


class RollLine(Base):
    """A computed roll's line for one parcel (a preview until the roll is published)."""

    __tablename__ = "roll_lines"
    __table_args__ = (
        UniqueConstraint("roll_id", "parcel_id"),
        CheckConstraint("amount >= 0", name="amount"),
        CheckConstraint("payer IN ('owner', 'lessee')", name="payer"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    # (looked up by roll through `uq_roll_lines_roll_id_parcel_id`: no index of its own)
    roll_id: Mapped[int] = mapped_column(ForeignKey("assessment_rolls.id"),
                                         comment="The roll")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), index=True,
                                           comment="The parcel")
    benefit_units: Mapped[Decimal] = mapped_column(Numeric(14, 4),
                                                   comment="Units used (R-A3)")
    exempt: Mapped[bool] = mapped_column(Boolean, comment="Exempt public land (R-A2)")
    amount: Mapped[Decimal] = money("Annual amount (0 when exempt)")
    payer: Mapped[str] = mapped_column(String(6), default="owner",
                                       comment="Who pays under R-A16: owner or lessee")


#: The kept figures' sums: a roll's total, an amendment's increases (wider than one amount).
SUM = Numeric(16, 2)


class RollReviewFigures(Base):
    """What the roll's review (`portal.roll.review`) shows of a computed roll, kept when its
    computation ends so that a view reads one row instead of aggregates over every line: the
    lines' figures (they change only when the roll is computed again, which deletes this
    row), why the exempt parcels are exempt (null: to read again, a parcel's facts changed),
    and an amendment's totals (they depend on the year's assessments in force: `seen` is the
    greatest assessment id when they were read; a greater one means read them again)."""

    __tablename__ = "roll_review_figures"

    roll_id: Mapped[int] = mapped_column(ForeignKey("assessment_rolls.id"), primary_key=True,
                                         comment="The computed roll")
    lines: Mapped[int] = mapped_column(Integer, comment="Its lines")
    exempt: Mapped[int] = mapped_column(Integer, comment="Its exempt lines (R-A2)")
    total_assessed: Mapped[Decimal] = mapped_column(SUM, comment="The sum of the shares")
    low: Mapped[Decimal | None] = mapped_column(
        Numeric(14, 2), comment="The smallest share (null: no parcel assessed)")
    high: Mapped[Decimal | None] = mapped_column(Numeric(14, 2), comment="The largest share")
    bins: Mapped[list[int]] = mapped_column(
        JSON, comment="The shares counted per bin of the histogram (core.bin_edges)")
    top: Mapped[list[list]] = mapped_column(
        JSON, comment="The largest shares: [parcel id, catastro, cents, benefit units]")
    reasons: Mapped[list[list] | None] = mapped_column(
        JSON, comment="The exempt lines by reason: [code, count] (null: to read again)")
    seen: Mapped[int | None] = mapped_column(
        BigInteger, comment="The greatest assessment id when the amendment's part was read")
    amends: Mapped[bool | None] = mapped_column(
        Boolean, comment="Whether an earlier version of its year has published assessments")
    changed: Mapped[int | None] = mapped_column(Integer, comment="Parcels whose amount changes")
    increased: Mapped[int | None] = mapped_column(Integer, comment="Parcels whose amount rises")
    decreased: Mapped[int | None] = mapped_column(Integer, comment="Parcels whose amount falls")
    increases: Mapped[Decimal | None] = mapped_column(SUM, comment="The increases' sum")
    decreases: Mapped[Decimal | None] = mapped_column(SUM, comment="The decreases' sum")
    total_before: Mapped[Decimal | None] = mapped_column(
        Numeric(14, 2), comment="The earlier version's total to assess (R-A5's net change)")
    earlier: Mapped[Decimal | None] = mapped_column(
        SUM, comment="The earlier assessments in force")
    outside_roll: Mapped[Decimal | None] = mapped_column(
        SUM, comment="The part of them charged outside the earlier roll")
    removed: Mapped[Decimal | None] = mapped_column(
        SUM, comment="The part of them whose parcel has no line in this roll")
    assessed_after: Mapped[Decimal | None] = mapped_column(
        SUM, comment="What this roll assesses (exempt lines 0)")


class Assessment(AppendOnly, Base):
    """A parcel's annual assessment for a fiscal year under one budget version (a fact)."""

    __tablename__ = "assessments"
    __table_args__ = (
        UniqueConstraint("parcel_id", "budget_version_id"),
        CheckConstraint("annual_amount >= 0", name="annual_amount"),
        CheckConstraint("payer IN ('owner', 'lessee')", name="payer"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    # (looked up by parcel through `uq_assessments_parcel_id_budget_version_id`)
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"),
                                           comment="The parcel assessed")
    fiscal_year_id: Mapped[int] = mapped_column(ForeignKey("fiscal_years.id"), index=True,
                                                comment="The fiscal year")
    budget_version_id: Mapped[int] = mapped_column(ForeignKey("budget_versions.id"),
                                                   index=True, comment="The budget version")
    roll_id: Mapped[int] = mapped_column(ForeignKey("assessment_rolls.id"), index=True,
                                         comment="The published roll it came from")
    supersedes_id: Mapped[int | None] = mapped_column(
        ForeignKey("assessments.id"), unique=True,
        comment="The assessment this amendment replaces (R-A5)")
    annual_amount: Mapped[Decimal] = money("The year's amount (R-A3, or R-A5 when amended)")
    benefit_units: Mapped[Decimal] = mapped_column(
        Numeric(14, 4), comment="The parcel's benefit units when assessed")
    payer: Mapped[str] = mapped_column(String(6), default="owner",
                                       comment="Who pays under R-A16: owner or lessee")
    notified_on: Mapped[date | None] = mapped_column(Date,
                                                     comment="Date of the assessment notice")
    effective_on: Mapped[date | None] = mapped_column(
        Date, comment="For an amendment: its effective date (R-A5)")
    credit: Mapped[Decimal] = money("Amendment decrease no installment could absorb (R-A5)",
                                    default=Decimal("0.00"))
    created_at: Mapped[datetime] = created_at()

    parcel: Mapped[Parcel] = relationship()
    installments: Mapped[list[Installment]] = relationship(
        back_populates="assessment", order_by="Installment.number")


class Installment(AppendOnly, Base):
    """One monthly installment of an assessment (R-A4; R-A5 for an amended one)."""

    __tablename__ = "installments"
    __table_args__ = (
        UniqueConstraint("assessment_id", "number"),
        CheckConstraint("number >= 1", name="number"),
        CheckConstraint("amount >= 0", name="amount"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    # (looked up by assessment through `uq_installments_assessment_id_number`)
    assessment_id: Mapped[int] = mapped_column(ForeignKey("assessments.id"),
                                               comment="The assessment")
    number: Mapped[int] = mapped_column(Integer, comment="1..12 (13 for a late increase)")
    due_date: Mapped[date] = mapped_column(Date, comment="Due on the 1st of the month (R-A4)")
    amount: Mapped[Decimal] = money("The installment's principal")

    assessment: Mapped[Assessment] = relationship(back_populates="installments")
