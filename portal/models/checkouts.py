"""Tables only payments need, beside `payments` and the ledger.

- `checkouts`: what the payer paid in one go, through one provider session (or at the office):
  one `Payment` row per account (parcel x fiscal year) belongs to it, so several parcels go in
  one payment. Its status moves forward only, like each of its payments'.
- `checkout_payments`: which payments make up a checkout, in order.
- `provider_events`: every provider event (webhook) handled, stored once (unique id) in the
  same transaction as its effect.
- `payment_refunds`: money given back, per payment (account) part.
- `refund_failures`: a provider refund that failed after it was recorded (the card was
  closed...): which `payment_refunds` row it undid, once, and the ledger entry that did it.
- `provider_disputes`: a payer's dispute (chargeback) of a charge, as the provider reports it.
- `sandbox_sessions`: the built-in sandbox's checkout sessions (stand-in for Stripe's).
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import (
    JSON,
    CheckConstraint,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.core import payment_states as states
from portal.models.base import AppendOnly, Base, ImmutableRowError, UTCDateTime, created_at, money
from portal.models.ledger import check_status_forward

PROVIDERS = ("stripe", "sandbox", "office")
CHECKOUT_METHODS = ("card", "bank", "cash", "check")
REFUND_REASONS = ("credit", "provider", "staff")


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


class Checkout(Base):
    """One payment as the payer sees it: one or more accounts, one session, one receipt."""

    __tablename__ = "checkouts"
    __immutable__ = ("amount", "idempotency_key", "created_at", "provider", "user_id")
    __table_args__ = (
        CheckConstraint(_in("status", states.STATES), name="status"),
        CheckConstraint(_in("provider", PROVIDERS), name="provider"),
        CheckConstraint(f"method IS NULL OR {_in('method', CHECKOUT_METHODS)}", name="method"),
        CheckConstraint("amount > 0", name="amount"),
        CheckConstraint("refunded_amount >= 0 AND refunded_amount <= amount",
                        name="refunded_amount"),
        CheckConstraint("language IN ('es', 'en')", name="language"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True,
                                                comment="The signed-in payer (null: office)")
    created_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id"), comment="Staff who recorded an office payment")
    payer_name: Mapped[str] = mapped_column(String(200), default="",
                                            comment="Payer's name, as on the receipt")
    payer_email: Mapped[str | None] = mapped_column(String(254),
                                                    comment="Where the receipt is emailed")
    language: Mapped[str] = mapped_column(String(2), default="es",
                                          comment="Payer's language: checkout, receipt, email")
    provider: Mapped[str] = mapped_column(String(8), comment="stripe, sandbox or office")
    status: Mapped[str] = mapped_column(String(20), default=states.CREATED,
                                        comment="created .. succeeded | failed | expired ..")
    amount: Mapped[Decimal] = money("Total charged: the sum of its payments")
    refunded_amount: Mapped[Decimal] = money("Part given back so far", default=Decimal("0.00"))
    currency: Mapped[str] = mapped_column(String(3), default="usd", comment="Always usd")
    idempotency_key: Mapped[str] = mapped_column(String(80), unique=True,
                                                 comment="Stable key of this attempt")
    open_key: Mapped[str | None] = mapped_column(
        String(64), unique=True,
        comment="Same payer and same choice while open: a second click or tab reuses it")
    provider_session_id: Mapped[str | None] = mapped_column(
        String(255), unique=True, comment="The provider's checkout session id")
    provider_payment_id: Mapped[str | None] = mapped_column(
        String(255), index=True, comment="The provider's payment intent id")
    checkout_url: Mapped[str | None] = mapped_column(Text, comment="Where the payer pays")
    method: Mapped[str | None] = mapped_column(String(8), comment="card, bank, cash or check")
    card_brand: Mapped[str | None] = mapped_column(String(20), comment="Card brand, e.g. visa")
    last4: Mapped[str | None] = mapped_column(String(4), comment="Last four digits")
    bank_name: Mapped[str | None] = mapped_column(String(100), comment="Bank of the account")
    reference: Mapped[str | None] = mapped_column(
        String(60), comment="Office payment: check number or cash receipt reference")
    receipt_number: Mapped[str | None] = mapped_column(
        String(24), unique=True, comment="Receipt number, given when first applied")
    failure_code: Mapped[str | None] = mapped_column(String(40),
                                                     comment="Why it failed, if it did")
    created_at: Mapped[datetime] = created_at()
    updated_at: Mapped[datetime | None] = mapped_column(UTCDateTime(),
                                                        comment="Last status change (UTC)")
    completed_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When the payer completed it: its PR date is the legal date")
    receipt_sent_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When the receipt was emailed")

    parts: Mapped[list[CheckoutPayment]] = relationship(
        back_populates="checkout", order_by="CheckoutPayment.position")

    def _check_update(self, changes: dict[str, tuple[Any, Any]]) -> None:
        check_status_forward(self.__tablename__, changes)
        for once in ("completed_at", "receipt_number", "provider_session_id"):
            if once in changes and changes[once][0] is not None:
                raise ImmutableRowError(self.__tablename__, "update", f"{once} is set once")


class CheckoutPayment(Base):
    """A checkout's payment for one account (its `Payment` row), in order."""

    __tablename__ = "checkout_payments"
    __table_args__ = (UniqueConstraint("checkout_id", "position"),)
    __immutable__ = ("checkout_id", "payment_id", "position")

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    checkout_id: Mapped[int] = mapped_column(ForeignKey("checkouts.id"), index=True,
                                             comment="The checkout")
    payment_id: Mapped[int] = mapped_column(ForeignKey("payments.id"), unique=True,
                                            comment="The account's payment")
    position: Mapped[int] = mapped_column(Integer, comment="Order in the checkout")
    installments_through: Mapped[int | None] = mapped_column(
        Integer, comment="For 'installments through N': the N chosen (shown without lines)")

    checkout: Mapped[Checkout] = relationship(back_populates="parts")


class ProviderEvent(AppendOnly, Base):
    """A provider event handled once: its id is unique (replays change nothing)."""

    __tablename__ = "provider_events"
    __table_args__ = (UniqueConstraint("provider", "event_id"),)

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    provider: Mapped[str] = mapped_column(String(8), comment="stripe or sandbox")
    event_id: Mapped[str] = mapped_column(String(255), comment="The provider's event id")
    type: Mapped[str] = mapped_column(String(80), comment="e.g. checkout.session.completed")
    checkout_id: Mapped[int | None] = mapped_column(ForeignKey("checkouts.id"), index=True,
                                                    comment="The checkout it was about")
    outcome: Mapped[str] = mapped_column(String(40), default="",
                                         comment="What it did: posted, noop, ignored ...")
    received_at: Mapped[datetime] = created_at("When it was handled (UTC)")


class PaymentRefund(AppendOnly, Base):
    """Money given back on one account's payment (a credit refunded, or a provider refund)."""

    __tablename__ = "payment_refunds"
    __table_args__ = (
        CheckConstraint("amount > 0", name="amount"),
        CheckConstraint(_in("reason", REFUND_REASONS), name="reason"),
        Index("ix_payment_refunds_provider_refund", "provider_refund_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    checkout_id: Mapped[int] = mapped_column(ForeignKey("checkouts.id"), index=True,
                                             comment="The checkout refunded")
    payment_id: Mapped[int] = mapped_column(ForeignKey("payments.id"), index=True,
                                            comment="The account's payment refunded")
    amount: Mapped[Decimal] = money("Amount given back")
    reason: Mapped[str] = mapped_column(String(8),
                                        comment="credit (staff refunds a credit), provider "
                                        "(refunded at the provider), staff")
    provider_refund_id: Mapped[str | None] = mapped_column(String(255),
                                                           comment="The provider's refund id")
    author_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"),
                                                  comment="Staff who refunded (null: provider)")
    note: Mapped[str] = mapped_column(Text, default="", comment="Staff's reason")
    created_at: Mapped[datetime] = created_at()


class RefundFailure(AppendOnly, Base):
    """A recorded refund that the provider later reports failed: the money never reached the
    payer, so the refund's ledger entry is reversed (the credit is back). One row per
    `payment_refunds` row undone (unique: a repeated or second event changes nothing)."""

    __tablename__ = "refund_failures"
    __table_args__ = (CheckConstraint("amount > 0", name="amount"),)

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    payment_refund_id: Mapped[int] = mapped_column(
        ForeignKey("payment_refunds.id"), unique=True, comment="The refund part undone")
    checkout_id: Mapped[int] = mapped_column(ForeignKey("checkouts.id"), index=True,
                                             comment="The checkout it was refunded from")
    payment_id: Mapped[int] = mapped_column(ForeignKey("payments.id"),
                                            comment="The account's payment")
    amount: Mapped[Decimal] = money("Amount that did not go back")
    provider_refund_id: Mapped[str | None] = mapped_column(String(255),
                                                           comment="The provider's refund id")
    failure_reason: Mapped[str] = mapped_column(
        String(40), default="", comment="The provider's reason, e.g. expired_or_canceled_card")
    reversal_entry_id: Mapped[int] = mapped_column(
        ForeignKey("ledger_entries.id"), comment="The ledger entry reversing the refund")
    failed_at: Mapped[datetime] = mapped_column(
        UTCDateTime(), comment="When the provider reported the failure (its event, UTC)")
    created_at: Mapped[datetime] = created_at()


class Dispute(Base):
    """A payer disputed a charge with their bank (a chargeback): who (the checkout's payer),
    how much, why and where it stands, as the provider last reported it. The ledger is not
    touched: staff answer the dispute at the provider."""

    __tablename__ = "provider_disputes"
    __table_args__ = (CheckConstraint("amount >= 0", name="amount"),
                      UniqueConstraint("provider", "dispute_id"))

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    provider: Mapped[str] = mapped_column(String(8), comment="stripe")
    dispute_id: Mapped[str] = mapped_column(String(255), comment="The provider's dispute id")
    checkout_id: Mapped[int | None] = mapped_column(
        ForeignKey("checkouts.id"), index=True, comment="The checkout disputed (null: unknown)")
    payment_intent: Mapped[str | None] = mapped_column(
        String(255), comment="The provider's payment intent id")
    amount: Mapped[Decimal] = money("Amount disputed")
    currency: Mapped[str] = mapped_column(String(3), default="usd", comment="usd")
    reason: Mapped[str] = mapped_column(String(40), default="",
                                        comment="The payer's reason, e.g. fraudulent")
    status: Mapped[str] = mapped_column(String(30), comment="needs_response, won, lost ...")
    evidence_due_by: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="Last moment to answer it at the provider (UTC)")
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime(),
                                                comment="When the payer opened it (UTC)")
    status_at: Mapped[datetime] = mapped_column(
        UTCDateTime(), comment="Time of the event that set the status (older ones ignored)")
    created_at: Mapped[datetime] = created_at()

    checkout: Mapped[Checkout | None] = relationship()


class SandboxSession(Base):
    """A checkout session of the built-in sandbox (test mode, no keys)."""

    __tablename__ = "sandbox_sessions"
    __table_args__ = (CheckConstraint("amount > 0", name="amount"),
                      CheckConstraint("refunded >= 0 AND refunded <= amount", name="refunded"))

    id: Mapped[str] = mapped_column(String(64), primary_key=True, comment="cs_sandbox_...")
    idempotency_key: Mapped[str] = mapped_column(String(80), unique=True,
                                                 comment="The attempt's key")
    payment_ref: Mapped[str] = mapped_column(String(40), comment="Our checkout id, as text")
    amount: Mapped[Decimal] = money("Amount of the session")
    currency: Mapped[str] = mapped_column(String(3), comment="usd")
    locale: Mapped[str] = mapped_column(String(5), comment="es or en")
    description: Mapped[str] = mapped_column(Text, comment="What is paid")
    meta: Mapped[dict[str, str]] = mapped_column(JSON, comment="Metadata sent with it")
    success_url: Mapped[str] = mapped_column(Text, comment="Back to the portal when paid")
    cancel_url: Mapped[str] = mapped_column(Text, comment="Back to the portal when cancelled")
    status: Mapped[str] = mapped_column(String(10), default="open",
                                        comment="open, complete or expired")
    payment_status: Mapped[str] = mapped_column(String(10), default="unpaid",
                                                comment="paid or unpaid")
    method: Mapped[str | None] = mapped_column(String(20), comment="card or us_bank_account")
    last4: Mapped[str | None] = mapped_column(String(4), comment="Test card or account digits")
    bank_name: Mapped[str | None] = mapped_column(String(100), comment="Test bank")
    payment_intent: Mapped[str | None] = mapped_column(String(64), unique=True,
                                                       comment="pi_sandbox_...")
    intent_status: Mapped[str | None] = mapped_column(String(30),
                                                      comment="processing, succeeded ...")
    refunded: Mapped[Decimal] = money("Refunded so far", default=Decimal("0.00"))
    created_at: Mapped[datetime] = created_at()
