"""Lenders at scale (J7): each loan's figures of the day (the portfolio's filters, sort and
totals in SQL), invitations to a lender's organisation, and its API tokens.

A lender's users are its party's members (`PartyMember`): role "administrator" or
"employee" (a clerk). See docs/LENDERS.md.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import BigInteger, CheckConstraint, Date, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from portal.models.base import MONEY, Base, UTCDateTime, created_at


class LoanFigures(Base):
    """One loan's figures as the core computed them on `as_of` (R-A5–A8: the parcel's
    statement and offer), kept so that the portfolio filters, sorts and totals in SQL; a
    loan's row is replaced when it is computed again (a derived cache, not a ledger)."""

    __tablename__ = "loan_figures"
    __table_args__ = (
        CheckConstraint("status IN ('current', 'pending', 'overdue', 'none')", name="status"),
        Index("ix_loan_figures_lender_status", "lender_id", "status"),
        Index("ix_loan_figures_lender_due", "lender_id", "due_now"),
    )

    loan_id: Mapped[int] = mapped_column(ForeignKey("loans.id"), primary_key=True,
                                         comment="The loan")
    lender_id: Mapped[int] = mapped_column(ForeignKey("lenders.id"),
                                           comment="The loan's lender (the filters' key)")
    as_of: Mapped[date] = mapped_column(Date, comment="The day the figures are for")
    status: Mapped[str] = mapped_column(String(16),
                                        comment="current, pending, overdue or none")
    annual: Mapped[Decimal | None] = mapped_column(MONEY,
                                                   comment="This fiscal year's assessment")
    due_now: Mapped[Decimal] = mapped_column(MONEY, comment="What is due now")
    due_now_by: Mapped[date | None] = mapped_column(
        Date, comment="The last day to pay what is due now on time (null: nothing due)")
    next_due: Mapped[date | None] = mapped_column(Date, comment="The next due date")
    # The rest of what the dashboard shows of the loan's parcel (`web.accounts.views`), from
    # the same offer: read from here while the figures are fresh, never computed on a view.
    due_now_count: Mapped[int] = mapped_column(
        comment="How many installments what is due now covers (0: nothing due)")
    next_amount: Mapped[Decimal | None] = mapped_column(
        MONEY, comment="What the next payment asks (null: nothing else is due this year)")
    next_count: Mapped[int] = mapped_column(
        comment="How many installments the next payment covers (0: none)")
    next_last_day: Mapped[date | None] = mapped_column(
        Date, comment="The next payment's last day to pay on time (R-A6)")
    lump_amount: Mapped[Decimal | None] = mapped_column(
        MONEY, comment="R-A11: the whole year in one payment today (null: the option is not open)")
    lump_discount: Mapped[Decimal | None] = mapped_column(
        MONEY, comment="R-A11: what paying the whole year in one payment saves")
    lump_by: Mapped[date | None] = mapped_column(
        Date, comment="R-A11: the last day of the one-payment option")
    loan_version: Mapped[int] = mapped_column(
        comment="The loan's facts_version they were computed from (read before the facts)")
    district_version: Mapped[int] = mapped_column(
        BigInteger, comment="The District's version (facts_versions) they were computed from")
    computed_at: Mapped[datetime] = created_at()


class LenderInvitation(Base):
    """An administrator's invitation to a person (by email) to work for the lender."""

    __tablename__ = "lender_invitations"
    __table_args__ = (
        CheckConstraint("role IN ('administrator', 'employee')", name="role"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    lender_id: Mapped[int] = mapped_column(ForeignKey("lenders.id"), index=True,
                                           comment="The lender")
    email: Mapped[str] = mapped_column(String(254), comment="Whom it invites (lower case)")
    role: Mapped[str] = mapped_column(String(16), comment="administrator or employee (clerk)")
    token_hash: Mapped[str] = mapped_column(String(64), unique=True,
                                            comment="SHA-256 of the link's secret")
    invited_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"),
                                               comment="The administrator who invited")
    created_at: Mapped[datetime] = created_at()
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime(), comment="Good until")
    accepted_at: Mapped[datetime | None] = mapped_column(UTCDateTime(),
                                                         comment="When it was accepted")
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime(),
                                                        comment="When it was withdrawn")


class LenderApiToken(Base):
    """An API token of a lender: only its SHA-256 is kept (the secret is shown once)."""

    __tablename__ = "lender_api_tokens"
    __table_args__ = (
        CheckConstraint("scope IN ('read', 'write')", name="scope"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    lender_id: Mapped[int] = mapped_column(ForeignKey("lenders.id"), index=True,
                                           comment="The lender it acts for")
    name: Mapped[str] = mapped_column(String(80), comment="The administrator's name for it")
    prefix: Mapped[str] = mapped_column(String(16), comment="Its first characters (shown)")
    token_hash: Mapped[str] = mapped_column(String(64), unique=True,
                                            comment="SHA-256 of the secret")
    scope: Mapped[str] = mapped_column(String(8), comment="read or write")
    created_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"),
                                               comment="The administrator who created it")
    created_at: Mapped[datetime] = created_at()
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime(), comment="Refused from then")
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime(),
                                                        comment="When it was revoked")
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime(),
                                                          comment="Its last accepted request")
