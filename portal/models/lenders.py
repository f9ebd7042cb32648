"""Mortgage lenders (organisations with several users) and their loans on parcels."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Date,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy import text as sql_text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.models.base import Base, created_at
from portal.models.parties import Party

#: SQL: a loan is behind its lender's kept totals (`ix_loans_figures_behind`'s predicate).
BEHIND = "(facts_version - figures_version) != 0"


class Lender(Base):
    """A lender: an organisation party; its users are the party's members."""

    __tablename__ = "lenders"

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    party_id: Mapped[int] = mapped_column(ForeignKey("parties.id"), unique=True,
                                          comment="The lender as an organisation")
    code: Mapped[str] = mapped_column(String(20), unique=True,
                                      comment="Lender code used in bulk files and the API")
    created_at: Mapped[datetime] = created_at()

    party: Mapped[Party] = relationship()
    loans: Mapped[list[Loan]] = relationship(back_populates="lender")


class Loan(Base):
    """A mortgage loan of a lender on a parcel (escrow / servicing)."""

    __tablename__ = "loans"
    __table_args__ = (
        UniqueConstraint("lender_id", "loan_number"),
        CheckConstraint("ends_on IS NULL OR ends_on >= starts_on", name="period"),
        # Only the loans whose lender's kept totals are behind their facts (a handful at a
        # time): the portfolio's check finds one with a probe (models.fact_versions). The
        # difference, not `!=` of the columns: PostgreSQL estimates it from the statistics
        # kept on it (migration lendtot38), so its planner takes this index.
        Index("ix_loans_figures_behind", "lender_id",
              sqlite_where=sql_text(BEHIND), postgresql_where=sql_text(BEHIND)),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    lender_id: Mapped[int] = mapped_column(ForeignKey("lenders.id"), index=True,
                                           comment="The lender")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), index=True,
                                           comment="The mortgaged parcel")
    loan_number: Mapped[str] = mapped_column(String(40), comment="The lender's loan number")
    starts_on: Mapped[date] = mapped_column(Date, comment="Date the loan was made or acquired")
    recorded_on: Mapped[date | None] = mapped_column(
        Date, comment="Mortgage recorded in the Registry: when it was constituted (R-A15)")
    ends_on: Mapped[date | None] = mapped_column(Date, comment="Paid off, sold or transferred")
    owner_name: Mapped[str | None] = mapped_column(
        String(200), comment="The borrower's name as the lender gave it (its portfolio file)")
    escrow: Mapped[bool | None] = mapped_column(
        Boolean, comment="The lender pays the property charges from an escrow account "
        "(null: not said)")
    facts_version: Mapped[int] = mapped_column(
        Integer, default=0, server_default="0",
        comment="Raised with each fact of the parcel written (its ledger entries, assessments "
                "and installments): the loan's kept figures are of this version or out of date "
                "(models.fact_versions)")
    figures_version: Mapped[int] = mapped_column(
        Integer, default=-1, server_default="-1",
        comment="The facts_version its lender's kept totals (lender_figures) include; -1: "
                "not included (a new or changed loan, figures computed since)")
    created_at: Mapped[datetime] = created_at()

    lender: Mapped[Lender] = relationship(back_populates="loans")
