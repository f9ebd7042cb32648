"""A lender's acquisitions of a new structure (R-B10 case iii, R-B21) and its intents to pay
(J7): what it told the portal it will pay, so that the owner does not pay it twice.

Both are facts: an acquisition is never changed; an intent is withdrawn by setting
`withdrawn_at` once (a new state, never a deletion). See docs/LENDERS.md.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import CheckConstraint, Date, ForeignKey, Index, SmallInteger, String
from sqlalchemy.orm import Mapped, mapped_column

from portal.models.base import MONEY, AppendOnly, Base, ImmutableRowError, UTCDateTime, created_at


class LenderAcquisition(AppendOnly, Base):
    """R-B10 (iii), R-B21: a new structure bought after January 1 with a loan of the lender;
    the lender notifies the CRIM within 30 days of `acquired_on` (rolled: the core)."""

    __tablename__ = "lender_acquisitions"
    __table_args__ = (
        CheckConstraint("reported_by_id IS NOT NULL OR reported_by_token_id IS NOT NULL",
                        name="reporter"),
        Index("ix_lender_acquisitions_loan", "loan_id", "acquired_on"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    lender_id: Mapped[int] = mapped_column(ForeignKey("lenders.id"), index=True,
                                           comment="The lender")
    loan_id: Mapped[int] = mapped_column(ForeignKey("loans.id"), comment="The loan")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), index=True,
                                           comment="The loan's parcel")
    acquired_on: Mapped[date] = mapped_column(Date, comment="The deed date (the acquisition)")
    certification_id: Mapped[int | None] = mapped_column(
        ForeignKey("exemption_certifications.id"),
        comment="The owner's certification delivered with it, if any")
    reported_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"),
                                                       comment="The lender's user who reported")
    reported_by_token_id: Mapped[int | None] = mapped_column(
        ForeignKey("lender_api_tokens.id"), comment="The API token that reported")
    reported_at: Mapped[datetime] = created_at()


#: What an intent covers: a CRIM bill (its half of the year), what is due now on the
#: District's account, or one District installment.
INTENT_KINDS = ("crim_bill", "district_due_now", "district_installment")


class LenderIntent(Base):
    """A lender's word that it will pay one item of a parcel's fiscal year (J7): the amount is
    the core's at marking time. Withdrawal sets `withdrawn_at` once; nothing else changes."""

    __tablename__ = "lender_intents"
    __table_args__ = (
        CheckConstraint("kind IN ('crim_bill', 'district_due_now', 'district_installment')",
                        name="kind"),
        CheckConstraint("(kind = 'crim_bill') = (crim_half IS NOT NULL)", name="crim_half"),
        CheckConstraint("crim_half IS NULL OR crim_half IN (1, 2)", name="crim_half_value"),
        CheckConstraint("(kind = 'district_installment') = (installment_id IS NOT NULL)",
                        name="installment"),
        CheckConstraint("amount >= 0", name="amount"),
        Index("ix_lender_intents_parcel_fy", "parcel_id", "fiscal_year_id"),
    )
    __immutable__ = ("lender_id", "loan_id", "parcel_id", "fiscal_year_id", "kind", "crim_half",
                     "installment_id", "amount", "marked_by_id", "marked_at")

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    lender_id: Mapped[int] = mapped_column(ForeignKey("lenders.id"), comment="The lender")
    loan_id: Mapped[int] = mapped_column(ForeignKey("loans.id"), index=True, comment="The loan")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), comment="The parcel")
    fiscal_year_id: Mapped[int] = mapped_column(ForeignKey("fiscal_years.id"),
                                                comment="The fiscal year")
    kind: Mapped[str] = mapped_column(
        String(24), comment="crim_bill, district_due_now or district_installment")
    crim_half: Mapped[int | None] = mapped_column(
        SmallInteger, comment="The CRIM bill: 1 (July 1) or 2 (January 1)")
    installment_id: Mapped[int | None] = mapped_column(ForeignKey("installments.id"),
                                                       comment="The District installment")
    amount: Mapped[Decimal] = mapped_column(MONEY, comment="The core's amount when marked")
    marked_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"),
                                              comment="The lender's user who marked it")
    marked_at: Mapped[datetime] = created_at()
    withdrawn_at: Mapped[datetime | None] = mapped_column(UTCDateTime(),
                                                          comment="When it was withdrawn")
    withdrawn_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"),
                                                        comment="Who withdrew it")

    def _check_update(self, changes: dict) -> None:
        for once in ("withdrawn_at", "withdrawn_by_id"):
            if once in changes and changes[once][0] is not None:
                raise ImmutableRowError(self.__tablename__, "update", f"{once} is set once")

    def _check_delete(self) -> None:
        raise ImmutableRowError(self.__tablename__, "delete")
