"""Money: the append-only ledger, payments and each payment's allocation (DESIGN.md 1, 3, 4).

The ledger holds the money facts of an account (a parcel in a fiscal year) besides its
installments. Each entry is a debit (it adds to what is owed) or a credit (it pays):

- charge (debit): the year's assessment, written when the roll is published; informational,
  the installments are the facts the statement reads.
- payment (credit): a payment posted (`payment_id`); its allocation is in
  `payment_allocations`.
- cost (debit): R-A9, certified mail, court costs, attorney's fees recorded by staff.
- adjustment (either): a correction, dated when it is made, with its reason.
- discount (credit): R-A11, the lump-sum discount granted; informational, the core computes it.
- refund (debit): money given back to the payer (a credit or a payment refunded).
- reversal (either): undoes another entry (`reverses_id`), dated when made, opposite direction.

Entries are never updated or deleted (corrections are new entries, dated when made).
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Date,
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

ENTRY_KINDS = ("charge", "payment", "cost", "adjustment", "discount", "refund", "reversal")
DIRECTIONS = ("debit", "credit")
COST_KINDS = ("certified_mail", "court_costs", "attorney_fees", "other")
PAYMENT_METHODS = ("card", "bank", "cash", "check", "lender")
ALLOCATION_KINDS = ("interest", "late_fee", "cost", "principal", "credit", "discount")


def check_status_forward(table: str, changes: dict[str, tuple[Any, Any]]) -> None:
    """A payment's (or checkout's) status only moves forward (DESIGN.md 4)."""
    if "status" in changes:
        old, new = changes["status"]
        try:
            states.advance(old, new)
        except states.TransitionRefused as exc:
            raise ImmutableRowError(table, "update", str(exc)) from exc


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


class LedgerEntry(AppendOnly, Base):
    """One money fact of a parcel's account for a fiscal year (append-only)."""

    __tablename__ = "ledger_entries"
    __table_args__ = (
        CheckConstraint(_in("kind", ENTRY_KINDS), name="kind"),
        CheckConstraint(_in("direction", DIRECTIONS), name="direction"),
        CheckConstraint("amount >= 0", name="amount"),
        CheckConstraint(f"cost_kind IS NULL OR {_in('cost_kind', COST_KINDS)}",
                        name="cost_kind"),
        CheckConstraint("kind <> 'payment' OR payment_id IS NOT NULL", name="payment"),
        CheckConstraint("kind <> 'reversal' OR reverses_id IS NOT NULL", name="reversal"),
        Index("ix_ledger_entries_account", "parcel_id", "fiscal_year_id", "legal_date"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"),
                                           comment="The account's parcel")
    fiscal_year_id: Mapped[int] = mapped_column(ForeignKey("fiscal_years.id"), index=True,
                                                comment="The account's fiscal year")
    kind: Mapped[str] = mapped_column(String(12), comment="charge, payment, cost, adjustment, "
                                      "discount, refund or reversal")
    direction: Mapped[str] = mapped_column(String(6),
                                           comment="debit (adds to what is owed) or credit")
    amount: Mapped[Decimal] = money("Amount, never negative: the direction gives the sign")
    legal_date: Mapped[date] = mapped_column(Date, comment="Puerto Rico date it takes effect")
    created_at: Mapped[datetime] = created_at()
    author_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id"), comment="Who recorded it (null: the system)")
    rule: Mapped[str] = mapped_column(String(8), default="",
                                      comment="Rule id it applies, e.g. R-A9")
    cost_kind: Mapped[str | None] = mapped_column(
        String(16), comment="For a cost: certified_mail, court_costs, attorney_fees, other")
    description: Mapped[str] = mapped_column(Text, default="",
                                             comment="Staff's words (reason, reference)")
    payment_id: Mapped[int | None] = mapped_column(
        ForeignKey("payments.id"), index=True, comment="The payment posted or refunded")
    assessment_id: Mapped[int | None] = mapped_column(
        ForeignKey("assessments.id"), comment="The assessment charged")
    reverses_id: Mapped[int | None] = mapped_column(
        ForeignKey("ledger_entries.id"), unique=True, comment="The entry this one reverses")

    @property
    def signed_amount(self) -> Decimal:
        return self.amount if self.direction == "debit" else -self.amount


class Payment(Base):
    """A payment from its creation (before the checkout) to its end (DESIGN.md 4).

    Its status moves forward only (`portal.core.payment_states`); amount, account and
    idempotency key never change once written.
    """

    __tablename__ = "payments"
    __immutable__ = ("parcel_id", "fiscal_year_id", "amount", "idempotency_key", "created_at",
                     "lump_sum")
    __table_args__ = (
        CheckConstraint(_in("status", states.STATES), name="status"),
        CheckConstraint(_in("method", PAYMENT_METHODS), name="method"),
        CheckConstraint("amount > 0", name="amount"),
        CheckConstraint("refunded_amount >= 0 AND refunded_amount <= amount",
                        name="refunded_amount"),
        Index("ix_payments_account", "parcel_id", "fiscal_year_id"),
        # A unique index (not a constraint): added without rebuilding the table on SQLite.
        Index("uq_payments_receipt_number", "receipt_number", unique=True),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), comment="The parcel paid")
    fiscal_year_id: Mapped[int] = mapped_column(ForeignKey("fiscal_years.id"),
                                                comment="The fiscal year paid")
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True,
                                                comment="Who paid (null: office or lender)")
    status: Mapped[str] = mapped_column(String(20), default=states.CREATED,
                                        comment="created .. succeeded | failed | expired ..")
    method: Mapped[str] = mapped_column(String(8), default="card",
                                        comment="card, bank, cash, check or lender")
    amount: Mapped[Decimal] = money("Amount computed by the server from the facts")
    lump_sum: Mapped[bool] = mapped_column(Boolean, default=False,
                                           comment="Offered as the discounted lump sum (R-A11)")
    purpose: Mapped[str] = mapped_column(String(12), default="due_now",
                                         comment="What was asked: due_now, payoff, lump_sum...")
    idempotency_key: Mapped[str] = mapped_column(String(80), unique=True,
                                                 comment="Stable key for the provider")
    provider: Mapped[str] = mapped_column(String(12), default="sandbox",
                                          comment="stripe, sandbox or office")
    provider_session_id: Mapped[str | None] = mapped_column(
        String(255), unique=True, comment="The provider's checkout session id")
    provider_payment_id: Mapped[str | None] = mapped_column(
        String(255), comment="The provider's payment (intent) id")
    refunded_amount: Mapped[Decimal] = money("Part given back so far",
                                             default=Decimal("0.00"))
    created_at: Mapped[datetime] = created_at()
    updated_at: Mapped[datetime | None] = mapped_column(UTCDateTime(),
                                                        comment="Last status change (UTC)")
    completed_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When the payer completed it: its PR date is the legal date")
    receipt_number: Mapped[str | None] = mapped_column(
        String(24),
        comment="Receipt number of a payment without a checkout, given when it succeeds")

    allocations: Mapped[list[PaymentAllocation]] = relationship(
        back_populates="payment", order_by="PaymentAllocation.position")

    def _check_update(self, changes: dict[str, tuple[Any, Any]]) -> None:
        check_status_forward(self.__tablename__, changes)
        for once in ("completed_at", "receipt_number"):
            if once in changes and changes[once][0] is not None:
                raise ImmutableRowError(self.__tablename__, "update", f"{once} is set once")


class PaymentAllocation(AppendOnly, Base):
    """A line of a posted payment's receipt: what it paid, under which rule (R-A10, R-A11)."""

    __tablename__ = "payment_allocations"
    __table_args__ = (
        UniqueConstraint("payment_id", "position"),
        CheckConstraint(_in("kind", ALLOCATION_KINDS), name="kind"),
        CheckConstraint("amount >= 0", name="amount"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    payment_id: Mapped[int] = mapped_column(ForeignKey("payments.id"), index=True,
                                            comment="The payment")
    position: Mapped[int] = mapped_column(Integer, comment="Order of the line in the receipt")
    kind: Mapped[str] = mapped_column(
        String(10), comment="interest, late_fee, cost, principal, credit or discount")
    amount: Mapped[Decimal] = money("Amount of this line")
    installment_number: Mapped[int | None] = mapped_column(
        Integer, comment="The installment it paid, if any")
    cost_entry_id: Mapped[int | None] = mapped_column(
        ForeignKey("ledger_entries.id"), comment="The cost (or debit) it paid, if any")
    rule: Mapped[str] = mapped_column(String(8), comment="R-A10 or R-A11")

    payment: Mapped[Payment] = relationship(back_populates="allocations")
