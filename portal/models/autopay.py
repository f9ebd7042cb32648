"""Autopay's tables (docs/PAYMENTS.md "Autopay").

- `payment_method_setups`: a payer saving a card or bank account: one provider SetupIntent
  (through a Checkout Session in setup mode, or the sandbox's), and the provider's customer.
- `saved_payment_methods`: a card or bank account saved by a payer (the provider's payment
  method id and customer, what the payer recognises: brand or bank, last four). Removal
  sets `removed_at` once (detached at the provider).
- `autopay_enrolments`: a payer's choice to pay a parcel automatically (each installment on
  its due date, or the lump sum on a chosen day) with a saved method; it ends once
  (`ended_at`, `end_reason`: cancelled by the payer, the payer lost the parcel, a lender
  reported escrow, the method was removed).
- `autopay_debits`: each attempt to debit an enrolment, one row per (enrolment, fiscal
  year, target, attempt) (unique: whoever runs the day's task, an attempt is made once),
  with the checkout that carried it through the one payment path.
- `autopay_messages`: each email autopay sent (the notice before a debit, the debit, the
  failure), once per (enrolment, fiscal year, target, kind).
- `sandbox_setups`: the built-in sandbox's SetupIntents (stand-in for Stripe's).
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
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from portal.core import autopay as core
from portal.models.base import Base, ImmutableRowError, UTCDateTime, created_at, money


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


END_REASONS = ("cancelled", "lost_parcel", "escrow", "method_removed")
DEBIT_STATUSES = ("created", "processing", "succeeded", "failed")
MESSAGE_KINDS = ("notice", "debited", "failed", "ended")


class _SetOnce:
    _once: tuple[str, ...] = ()

    def _check_update(self, changes: dict[str, tuple[Any, Any]]) -> None:
        for once in self._once:
            if once in changes and changes[once][0] is not None:
                raise ImmutableRowError(getattr(self, "__tablename__", ""), "update",
                                        f"{once} is set once")


class PaymentMethodSetup(_SetOnce, Base):
    """A payer saving a method: the provider's setup session, until it completes."""

    __tablename__ = "payment_method_setups"
    __table_args__ = (
        CheckConstraint("status IN ('open', 'complete', 'expired')", name="status"),
        CheckConstraint("language IN ('es', 'en')", name="language"),
    )
    _once = ("provider_session_id",)

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True,
                                         comment="The payer saving it")
    provider: Mapped[str] = mapped_column(String(8), comment="stripe or sandbox")
    customer_id: Mapped[str | None] = mapped_column(String(255),
                                                    comment="The provider's customer")
    provider_session_id: Mapped[str | None] = mapped_column(
        String(255), unique=True, comment="The provider's setup session")
    idempotency_key: Mapped[str] = mapped_column(String(80), unique=True,
                                                 comment="Stable key of this attempt")
    return_to: Mapped[int | None] = mapped_column(
        ForeignKey("parcels.id"), comment="The parcel whose autopay page asked for it")
    language: Mapped[str] = mapped_column(String(2), default="es", comment="es or en")
    status: Mapped[str] = mapped_column(String(10), default="open",
                                        comment="open, complete or expired")
    created_at: Mapped[datetime] = created_at()


class SavedMethod(_SetOnce, Base):
    """A card or bank account a payer saved for autopay."""

    __tablename__ = "saved_payment_methods"
    __table_args__ = (
        CheckConstraint(_in("kind", core.METHOD_KINDS), name="kind"),
        UniqueConstraint("provider", "provider_method_id"),
    )
    __immutable__ = ("user_id", "provider", "provider_method_id", "customer_id", "kind",
                     "created_at")
    _once = ("removed_at",)

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True,
                                         comment="The payer who saved it")
    setup_id: Mapped[int | None] = mapped_column(ForeignKey("payment_method_setups.id"),
                                                 comment="The setup that saved it")
    provider: Mapped[str] = mapped_column(String(8), comment="stripe or sandbox")
    customer_id: Mapped[str] = mapped_column(String(255), comment="The provider's customer")
    provider_method_id: Mapped[str] = mapped_column(String(255),
                                                    comment="The provider's payment method")
    kind: Mapped[str] = mapped_column(String(8), comment="card or bank")
    brand: Mapped[str | None] = mapped_column(String(20), comment="Card brand, e.g. visa")
    bank_name: Mapped[str | None] = mapped_column(String(100), comment="Bank of the account")
    last4: Mapped[str | None] = mapped_column(String(4), comment="Last four digits")
    created_at: Mapped[datetime] = created_at()
    removed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(),
                                                        comment="When the payer removed it")


class AutopayEnrolment(_SetOnce, Base):
    """A payer's autopay of one parcel (the account of each fiscal year in turn)."""

    __tablename__ = "autopay_enrolments"
    __table_args__ = (
        CheckConstraint(_in("plan", core.PLANS), name="plan"),
        CheckConstraint("(plan = 'lump_sum') = (lump_sum_on IS NOT NULL)", name="lump_sum_on"),
        CheckConstraint(f"end_reason IS NULL OR {_in('end_reason', END_REASONS)}",
                        name="end_reason"),
        CheckConstraint("(ended_at IS NULL) = (end_reason IS NULL)", name="ended"),
        CheckConstraint("language IN ('es', 'en')", name="language"),
        Index("ix_autopay_enrolments_parcel", "parcel_id", "ended_at"),
    )
    __immutable__ = ("user_id", "parcel_id", "method_id", "plan", "lump_sum_on",
                     "starts_on", "created_at")
    _once = ("ended_at", "end_reason", "ended_on")

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True,
                                         comment="The payer who enrolled")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), comment="The parcel")
    method_id: Mapped[int] = mapped_column(ForeignKey("saved_payment_methods.id"),
                                           comment="The saved method debited")
    plan: Mapped[str] = mapped_column(String(12), comment="installments or lump_sum")
    lump_sum_on: Mapped[date | None] = mapped_column(
        Date, comment="The lump sum's debit day (Puerto Rico date)")
    starts_on: Mapped[date] = mapped_column(Date, comment="Enrolled on (Puerto Rico date)")
    language: Mapped[str] = mapped_column(String(2), default="es",
                                          comment="The payer's language for its emails")
    created_at: Mapped[datetime] = created_at()
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), comment="When it ended")
    ended_on: Mapped[date | None] = mapped_column(
        Date, comment="First day with no debit (Puerto Rico date)")
    end_reason: Mapped[str | None] = mapped_column(
        String(16), comment="cancelled, lost_parcel, escrow or method_removed")
    ended_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"),
                                                    comment="Who cancelled it (null: the portal)")


class AutopayDebit(Base):
    """One attempt to debit an enrolment for a target (installments through N, or the lump
    sum); made once whoever runs the day's task."""

    __tablename__ = "autopay_debits"
    __table_args__ = (
        UniqueConstraint("enrolment_id", "fiscal_year_id", "target", "attempt"),
        CheckConstraint(_in("status", DEBIT_STATUSES), name="status"),
        CheckConstraint("attempt IN (1, 2)", name="attempt"),
        CheckConstraint("amount > 0", name="amount"),
    )
    __immutable__ = ("enrolment_id", "fiscal_year_id", "target", "attempt", "day", "amount",
                     "numbers", "created_at")

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    enrolment_id: Mapped[int] = mapped_column(ForeignKey("autopay_enrolments.id"), index=True,
                                              comment="The enrolment")
    fiscal_year_id: Mapped[int] = mapped_column(ForeignKey("fiscal_years.id"),
                                                comment="The account's fiscal year")
    target: Mapped[str] = mapped_column(String(16), comment="through-N or lump_sum")
    numbers: Mapped[list[int]] = mapped_column(JSON, comment="The installments it pays")
    attempt: Mapped[int] = mapped_column(Integer, comment="1, or 2: the one retry")
    day: Mapped[date] = mapped_column(Date, comment="The debit's day (Puerto Rico date)")
    amount: Mapped[Decimal] = money("Amount debited: the offer's that day")
    status: Mapped[str] = mapped_column(String(12), default="created",
                                        comment="created, processing, succeeded or failed")
    checkout_id: Mapped[int | None] = mapped_column(ForeignKey("checkouts.id"), unique=True,
                                                    comment="The payment that carried it")
    failure_code: Mapped[str | None] = mapped_column(String(60),
                                                     comment="Why it failed, if it did")
    created_at: Mapped[datetime] = created_at()


class AutopayMessage(Base):
    """An email autopay sent, once per enrolment, fiscal year, target and kind."""

    __tablename__ = "autopay_messages"
    __table_args__ = (
        UniqueConstraint("enrolment_id", "fiscal_year_id", "target", "kind"),
        CheckConstraint(_in("kind", MESSAGE_KINDS), name="kind"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    enrolment_id: Mapped[int] = mapped_column(ForeignKey("autopay_enrolments.id"), index=True,
                                              comment="The enrolment")
    fiscal_year_id: Mapped[int | None] = mapped_column(ForeignKey("fiscal_years.id"),
                                                       comment="The account's fiscal year")
    target: Mapped[str] = mapped_column(String(24), comment="through-N, lump_sum (or -2)")
    kind: Mapped[str] = mapped_column(String(10), comment="notice, debited, failed or ended")
    day: Mapped[date] = mapped_column(Date, comment="The day it was sent for")
    created_at: Mapped[datetime] = created_at()


class SandboxSetup(Base):
    """A SetupIntent of the built-in sandbox (test mode, no keys)."""

    __tablename__ = "sandbox_setups"

    id: Mapped[str] = mapped_column(String(64), primary_key=True, comment="seti_sandbox_...")
    idempotency_key: Mapped[str] = mapped_column(String(80), unique=True,
                                                 comment="The attempt's key")
    customer_id: Mapped[str] = mapped_column(String(64), comment="cus_sandbox_...")
    reference: Mapped[str] = mapped_column(String(40), comment="Our setup's id, as text")
    locale: Mapped[str] = mapped_column(String(5), comment="es or en")
    success_url: Mapped[str] = mapped_column(Text, comment="Back to the portal when saved")
    cancel_url: Mapped[str] = mapped_column(Text, comment="Back to the portal when cancelled")
    status: Mapped[str] = mapped_column(String(10), default="open",
                                        comment="open, complete or expired")
    method_id: Mapped[str | None] = mapped_column(String(64), unique=True,
                                                  comment="pm_sandbox_...")
    method: Mapped[str | None] = mapped_column(String(20), comment="card or us_bank_account")
    last4: Mapped[str | None] = mapped_column(String(4), comment="Test card or account digits")
    bank_name: Mapped[str | None] = mapped_column(String(100), comment="Test bank")
    detached: Mapped[bool] = mapped_column(default=False, comment="Removed by the payer")
    created_at: Mapped[datetime] = created_at()
