"""Property-tax debts on a parcel, the Treasury's notices of attachment and the CRIM's
auctions (R-C1–R-C8); the lessee's deposit orders (R-A14) are
`portal.models.parcels.DepositOrder`.

- `TaxDebt`: what a taxpayer owes the CRIM or the Treasury on a parcel (fiscal years, taxes,
  surcharges, interest, penalties, levies, fines, costs), as NUMERIC. Its amounts never
  change; `paid_on` is set once when it is paid in full (a correction is a new debt).
- `AttachmentNotice` (append-only): the Treasury's notice of attachment (13 LPRA § 33262):
  the amounts it states (R-C1), the dunning agent's fee (R-C3), the notice date by personal
  delivery or certified mail (R-C7) and the 30-day term with the earliest sale date (R-C2),
  every figure computed by `portal.core` when it is recorded.
- `AttachmentAccrual` (append-only): what the Treasury states accrued on a notice's debt after
  the notice, to a day (R-C7): interest, surcharges and penalties since the notice, what each
  later day adds, and the custody costs to that day. The amount that stops the sale is the
  core's (`core.attachment.sale_stop_from`) over these statements; nothing is stored of it.
- `Auction` (append-only): one of the CRIM's auctions of the attached parcel (21 LPRA
  § 5105): the appraisal's inputs (real value, mortgage balance at the appraisal date, R-C8)
  and the minimum of R-C4 computed by the core. Confidential (R-C5): only
  `portal.collections.attachments.may_see_minimum` decides who reads it.
- `AuctionResult` (append-only): the auction's result (R-C6): adjudicated to the CRIM at the
  minimum, or sold at a price, and the shortfall still owed after a sale to a third party.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import CheckConstraint, Date, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from portal.models.base import AppendOnly, Base, created_at, money

CREDITORS = ("crim", "treasury")
DELIVERIES = ("personal", "certified_mail")
OUTCOMES = ("adjudicated_to_crim", "sold")


class _Recorded:
    """Who recorded the row (staff) and when: every table here."""

    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"),
                                                      comment="Staff who recorded it")
    created_at: Mapped[datetime] = created_at()


class TaxDebt(_Recorded, Base):
    """A property-tax debt of the CRIM or the Treasury on a parcel (R-C1, R-C4 inputs)."""

    __tablename__ = "tax_debts"
    __immutable__ = ("parcel_id", "creditor", "fiscal_years", "taxes", "surcharges",
                     "interest", "penalties", "levies", "fines", "costs", "created_at")
    __table_args__ = (
        CheckConstraint("creditor IN ('crim', 'treasury')", name="creditor"),
        CheckConstraint("taxes >= 0 AND surcharges >= 0 AND interest >= 0 AND penalties >= 0 "
                        "AND levies >= 0 AND fines >= 0 AND costs >= 0", name="amounts"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), index=True,
                                           comment="The parcel the debt is on")
    creditor: Mapped[str] = mapped_column(String(10),
                                          comment="crim or treasury (RULES.md section C)")
    fiscal_years: Mapped[str] = mapped_column(String(120),
                                              comment="The fiscal years owed, e.g. 2024-2025")
    taxes: Mapped[Decimal] = money("Tax principal owed (R-C1, R-C3 base)")
    surcharges: Mapped[Decimal] = money("Surcharges owed (R-C1)")
    interest: Mapped[Decimal] = money("Interest owed (R-C1)")
    penalties: Mapped[Decimal] = money("Penalties owed (R-C1)")
    levies: Mapped[Decimal] = money("Levies owed (R-C1)")
    fines: Mapped[Decimal] = money("Fines owed (R-C1)")
    costs: Mapped[Decimal] = money("Collection costs owed (R-C4 credit)")
    paid_on: Mapped[date | None] = mapped_column(Date, comment="Day it was paid in full")


class AttachmentNotice(_Recorded, AppendOnly, Base):
    """R-C1, R-C2, R-C3, R-C7: the Treasury's notice of attachment of a debt."""

    __tablename__ = "attachment_notices"
    __table_args__ = (
        CheckConstraint("delivery IN ('personal', 'certified_mail')", name="delivery"),
        CheckConstraint("custody_costs >= 0 AND dunning_fee >= 0 AND total >= 0",
                        name="amounts"),
        CheckConstraint("last_day >= notified_on AND earliest_sale_on > last_day",
                        name="term"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    debt_id: Mapped[int] = mapped_column(ForeignKey("tax_debts.id"), unique=True,
                                         comment="The debt attached")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), index=True,
                                           comment="The parcel attached")
    notified_on: Mapped[date] = mapped_column(
        Date, comment="Notice date: personal delivery or certified mailing (R-C7)")
    delivery: Mapped[str] = mapped_column(String(16),
                                          comment="personal or certified_mail (R-C7)")
    certified_mail_number: Mapped[str | None] = mapped_column(
        String(40), comment="The certified-mail number, when mailed")
    custody_costs: Mapped[Decimal] = money("Custody and deposit costs, at cost (R-C3)")
    dunning_fee: Mapped[Decimal] = money("Dunning agent's fee with custody costs (R-C3)")
    total: Mapped[Decimal] = money("Everything the notice states as due (R-C1)")
    last_day: Mapped[date] = mapped_column(Date, comment="Last day to pay in full (R-C2)")
    earliest_sale_on: Mapped[date] = mapped_column(Date,
                                                   comment="First day of a possible sale (R-C2)")


class AttachmentAccrual(_Recorded, AppendOnly, Base):
    """R-C7: what the Treasury states accrued on a notice's debt from the notice to a day."""

    __tablename__ = "attachment_accruals"
    __table_args__ = (
        CheckConstraint("accrued >= 0 AND per_day >= 0 AND custody_costs >= 0",
                        name="amounts"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    notice_id: Mapped[int] = mapped_column(ForeignKey("attachment_notices.id"), index=True,
                                           comment="The notice of attachment")
    stated_on: Mapped[date] = mapped_column(
        Date, comment="The day the Treasury's figures run to (R-C7)")
    accrued: Mapped[Decimal] = money(
        "Interest, surcharges and penalties accrued from the notice to stated_on (R-C7)")
    per_day: Mapped[Decimal] = money("What each day after stated_on adds, as stated (R-C7)")
    custody_costs: Mapped[Decimal] = money(
        "Custody and deposit costs to stated_on, at cost: the total (R-C3, R-C7)")
    reference: Mapped[str] = mapped_column(String(120),
                                           comment="The Treasury's statement it comes from")


class Auction(_Recorded, AppendOnly, Base):
    """R-C4, R-C8: one of the CRIM's auctions of an attached parcel, with its minimum."""

    __tablename__ = "auctions"
    __table_args__ = (
        UniqueConstraint("debt_id", "auction_number"),
        CheckConstraint("auction_number >= 1", name="number"),
        CheckConstraint("real_value >= 0 AND mortgage_amount >= 0 AND minimum >= 0",
                        name="amounts"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    debt_id: Mapped[int] = mapped_column(ForeignKey("tax_debts.id"), index=True,
                                         comment="The CRIM's debt the auction collects")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), index=True,
                                           comment="The parcel auctioned")
    auction_number: Mapped[int] = mapped_column(
        Integer, comment="Which auction of the sale (R-C8: selects the regulation's minimum)")
    appraised_on: Mapped[date] = mapped_column(Date, comment="The CRIM's appraisal date (R-C4)")
    real_value: Mapped[Decimal] = money("Real value by the CRIM's appraisal (R-C4)")
    mortgage_amount: Mapped[Decimal] = money(
        "Outstanding balance of the recorded mortgages at the appraisal date (R-C8)")
    equity: Mapped[Decimal] = money("Equity: value less mortgage, not below 0 (R-C4)")
    credit: Mapped[Decimal] = money("Credit: taxes, surcharges, interest, penalties, costs")
    floor: Mapped[Decimal] = money("Taxes, surcharges and interest owed by the property")
    minimum: Mapped[Decimal] = money("The auction minimum (R-C4); confidential (R-C5)")


class AuctionResult(_Recorded, AppendOnly, Base):
    """R-C6: what happened at an auction."""

    __tablename__ = "auction_results"
    __table_args__ = (
        CheckConstraint("outcome IN ('adjudicated_to_crim', 'sold')", name="outcome"),
        CheckConstraint("bids >= 0 AND price >= 0 AND shortfall >= 0", name="amounts"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    auction_id: Mapped[int] = mapped_column(ForeignKey("auctions.id"), unique=True,
                                            comment="The auction")
    held_on: Mapped[date] = mapped_column(Date, comment="Day of the auction")
    outcome: Mapped[str] = mapped_column(String(20),
                                         comment="adjudicated_to_crim or sold (R-C6)")
    bids: Mapped[int] = mapped_column(Integer, comment="Number of bids received")
    price: Mapped[Decimal] = money("Adjudication price: the minimum, or the sale price")
    shortfall: Mapped[Decimal] = money(
        "Taxes, surcharges and interest not covered by a sale to a third party (R-C6, R-C8)")
