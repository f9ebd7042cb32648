"""A lender's portfolio kept by the lender: the add/delete files of loans and the
bill files.

- `loan_change_files`: one add/delete upload (CSV) or API request of a lender, its status
  and counts; `loan_change_rows`: each row as sent (action, loan number, catastro, owner's
  name, escrow), its outcome (done, rejected, unchanged; null until processed) and the
  reason code of a rejection (a message id, worded when shown, never stored as text), the
  parcel matched on the roll and the loan added or removed.
- `bill_files`: what a lender asked to be billed (a fiscal year, optionally up to a due
  date) on a day; `bill_lines`: each loan's line as the core's offer gave it that day (the
  amount, the installment it pays through, the last timely day, the lump sum if eligible),
  kept so that a payment later can say what changed since.
- `bill_payments`: one payment of a file's filtered lines, prepared (its items and its
  exceptions report written a batch at a time) and then started (its checkout);
  `bill_payment_items`: each account it pays (through an installment, at today's amount);
  `bill_payment_exceptions`: each line left out or paid at a new amount, with its reason
  code (worded when shown), kept so the bank can read it and download it later.
- `loan_number_lists`: the loan numbers of a CSV a lender uploaded to pay, by the list's
  key (a bill file of just those loans is made by a join).
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

from portal.models.base import Base, UTCDateTime, created_at, money

CHANGE_OUTCOMES = ("done", "rejected", "unchanged")
CHANGE_ACTIONS = ("add", "delete")


class LoanChangeFile(Base):
    """One add/delete file (CSV upload) or API request of loans of one lender."""

    __tablename__ = "loan_change_files"
    __table_args__ = (
        UniqueConstraint("lender_id", "idempotency_key"),
        CheckConstraint("status IN ('queued', 'running', 'done', 'failed')", name="status"),
        CheckConstraint("source IN ('csv', 'api', 'form')", name="source"),
        CheckConstraint("total >= 0 AND processed >= 0 AND done >= 0 AND rejected >= 0 "
                        "AND unchanged >= 0", name="counts"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    lender_id: Mapped[int] = mapped_column(ForeignKey("lenders.id"), index=True,
                                           comment="The lender")
    created_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id"), comment="The lender's user who sent it (or the token's maker)")
    token_id: Mapped[int | None] = mapped_column(
        ForeignKey("lender_api_tokens.id"), comment="The API token that sent it")
    source: Mapped[str] = mapped_column(String(4), comment="csv, api or form")
    filename: Mapped[str | None] = mapped_column(String(255), comment="The file's name")
    idempotency_key: Mapped[str | None] = mapped_column(
        String(255), comment="The API's Idempotency-Key (one file per key and lender)")
    body_hash: Mapped[str | None] = mapped_column(String(64),
                                                  comment="SHA-256 of the API's body")
    status: Mapped[str] = mapped_column(String(8), default="queued",
                                        comment="queued, running, done or failed")
    job_id: Mapped[int | None] = mapped_column(ForeignKey("jobs.id"),
                                               comment="The background job processing it")
    total: Mapped[int] = mapped_column(Integer, default=0, comment="Rows sent")
    processed: Mapped[int] = mapped_column(Integer, default=0, comment="Rows processed")
    done: Mapped[int] = mapped_column(Integer, default=0, comment="Loans added or removed")
    rejected: Mapped[int] = mapped_column(Integer, default=0, comment="Rows refused")
    unchanged: Mapped[int] = mapped_column(Integer, default=0,
                                           comment="Rows already so (nothing to change)")
    created_at: Mapped[datetime] = created_at()
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime(),
                                                         comment="When it was processed")


class LoanChangeRow(Base):
    """One loan to add or remove, as sent, and what became of it."""

    __tablename__ = "loan_change_rows"
    __table_args__ = (
        UniqueConstraint("file_id", "row_number"),
        Index("ix_loan_change_rows_file_id_outcome", "file_id", "outcome"),
        CheckConstraint("outcome IS NULL OR outcome IN ('done', 'rejected', 'unchanged')",
                        name="outcome"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    file_id: Mapped[int] = mapped_column(ForeignKey("loan_change_files.id"),
                                         comment="The file")
    row_number: Mapped[int] = mapped_column(Integer, comment="The row's number (header: 1)")
    raw_values: Mapped[dict[str, Any]] = mapped_column(JSON, comment="Every field as sent")
    outcome: Mapped[str | None] = mapped_column(
        String(9), comment="done, rejected or unchanged (null: not processed yet)")
    error_column: Mapped[str | None] = mapped_column(String(40),
                                                     comment="The field a rejection is about")
    reason: Mapped[str | None] = mapped_column(
        String(40), comment="Why (a message id, worded when shown)")
    parcel_id: Mapped[int | None] = mapped_column(
        ForeignKey("parcels.id"), comment="The parcel matched on the roll")
    loan_id: Mapped[int | None] = mapped_column(ForeignKey("loans.id"),
                                                comment="The loan added or removed")


class BillFile(Base):
    """A lender's bill file: its loans' lines for a fiscal year (up to a due date) on a day."""

    __tablename__ = "bill_files"

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    lender_id: Mapped[int] = mapped_column(ForeignKey("lenders.id"), index=True,
                                           comment="The lender")
    created_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id"), comment="Who made it (a lender's user or the token's maker)")
    fiscal_year_id: Mapped[int] = mapped_column(ForeignKey("fiscal_years.id"),
                                                comment="The fiscal year billed")
    due_by: Mapped[date | None] = mapped_column(
        Date, comment="Only installments due on or before this day (null: the whole year)")
    as_of: Mapped[date] = mapped_column(Date, comment="The day its amounts are good for")
    lines: Mapped[int] = mapped_column(Integer, default=0, comment="Loans with a line")
    total: Mapped[Decimal] = money("The lines' amounts, summed", default=Decimal("0.00"))
    source: Mapped[str] = mapped_column(
        String(10), default="file", server_default="file",
        comment="file: the bill file page or the API; loans: the loans page's filters")
    created_at: Mapped[datetime] = created_at()


class BillLine(Base):
    """One loan's line of a bill file, as the core's offer gave it on the file's day."""

    __tablename__ = "bill_lines"
    __table_args__ = (UniqueConstraint("file_id", "loan_id"),
                      CheckConstraint("amount >= 0", name="amount"))

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    file_id: Mapped[int] = mapped_column(ForeignKey("bill_files.id"), comment="The file")
    loan_id: Mapped[int] = mapped_column(ForeignKey("loans.id"), comment="The loan")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), comment="Its parcel")
    loan_number: Mapped[str] = mapped_column(String(40), comment="The loan number then")
    catastro: Mapped[str] = mapped_column(String(32), comment="The catastro number")
    through: Mapped[int | None] = mapped_column(
        Integer, comment="The installment it pays through (null: nothing owed)")
    amount: Mapped[Decimal] = money("Amount due: every installment through `through`, with "
                                    "what R-A10 pays first")
    last_timely_day: Mapped[date | None] = mapped_column(
        Date, comment="Last day to pay it on time (R-A6; today when already late)")
    lump_sum: Mapped[Decimal | None] = money("The lump sum (R-A11) when eligible",
                                             nullable=True)
    lump_sum_by: Mapped[date | None] = mapped_column(Date, comment="Its last day")


class BillPayment(Base):
    """One payment of a bill file's filtered lines: what it pays and its exceptions report,
    kept as prepared; `checkout_id` once it is started."""

    __tablename__ = "bill_payments"

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    file_id: Mapped[int] = mapped_column(ForeignKey("bill_files.id"), index=True,
                                         comment="The bill file")
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"),
                                                      comment="Who prepared it")
    q: Mapped[str] = mapped_column(String(40), default="",
                                   comment="Filter: the start of a loan or catastro number")
    by: Mapped[date | None] = mapped_column(Date, comment="Filter: last timely day by")
    as_of: Mapped[date] = mapped_column(Date, comment="The day its amounts are good for")
    items: Mapped[int] = mapped_column(Integer, default=0, comment="Accounts it pays")
    exceptions: Mapped[int] = mapped_column(Integer, default=0,
                                            comment="Lines in its exceptions report")
    billed: Mapped[Decimal] = money("The file's amounts of the lines it pays",
                                    default=Decimal("0.00"))
    total: Mapped[Decimal] = money("Today's amounts of the lines it pays",
                                   default=Decimal("0.00"))
    checkout_id: Mapped[int | None] = mapped_column(ForeignKey("checkouts.id"),
                                                    comment="Its checkout, once started")
    job_id: Mapped[int | None] = mapped_column(
        ForeignKey("jobs.id"), comment="The job that starts it (null: not started by a job)")
    created_at: Mapped[datetime] = created_at()


class BillPaymentItem(Base):
    """One account a bill payment pays: installments through `through`, `amount` today."""

    __tablename__ = "bill_payment_items"
    __table_args__ = (UniqueConstraint("payment_id", "parcel_id", "fiscal_year_id"),)

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    payment_id: Mapped[int] = mapped_column(ForeignKey("bill_payments.id"),
                                            comment="The bill payment")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), comment="The parcel")
    fiscal_year_id: Mapped[int] = mapped_column(ForeignKey("fiscal_years.id"),
                                                comment="The fiscal year")
    through: Mapped[int] = mapped_column(Integer, comment="Installments through this one")
    amount: Mapped[Decimal] = money("What it pays, as the offer said when prepared")


class BillPaymentException(Base):
    """One line of a bill payment's exceptions report."""

    __tablename__ = "bill_payment_exceptions"

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    payment_id: Mapped[int] = mapped_column(ForeignKey("bill_payments.id"), index=True,
                                            comment="The bill payment")
    loan_id: Mapped[int] = mapped_column(ForeignKey("loans.id"), comment="The loan")
    loan_number: Mapped[str] = mapped_column(String(40), comment="The loan number")
    catastro: Mapped[str] = mapped_column(String(32), comment="The catastro number")
    billed: Mapped[Decimal] = money("The amount in the file")
    now: Mapped[Decimal] = money("What was owed when the payment was prepared")
    code: Mapped[str] = mapped_column(String(20), comment="Why (a message id, worded when shown)")


class LoanNumberList(Base):
    """A list of loan numbers a lender uploaded to pay (the loans page's CSV), loaded in
    chunks so a bill file is made of just those loans by a join, never an IN list; the
    same list from the same lender has the same key (a second click is the same job)."""

    __tablename__ = "loan_number_lists"
    __table_args__ = (UniqueConstraint("list_key", "loan_number"),)

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    list_key: Mapped[str] = mapped_column(
        String(64), index=True, comment="SHA-256 of the lender and the numbers listed")
    lender_id: Mapped[int] = mapped_column(ForeignKey("lenders.id"), index=True,
                                           comment="The lender that uploaded it")
    loan_number: Mapped[str] = mapped_column(String(40), comment="A loan number, as listed")
    created_at: Mapped[datetime] = created_at()
