"""Payments' door to the append-only ledger (DESIGN.md 1, 3): the data layer's services.

Posting, reversing and refunding are `portal.accounts.ledger` functions (one implementation
for the whole portal); this module adds what a checkout needs around them:

- `lock_accounts`: lock every account (its `parcels` row, SELECT ... FOR UPDATE on PostgreSQL)
  a checkout touches, in id order, before anything is posted — no two postings to one account
  interleave and two checkouts never deadlock;
- `post_payment`: the payment's `payment` credit entry on its Puerto Rico legal date (never
  before a payment already posted) and its receipt lines as the core applies it (R-A10:
  interest, late fees, costs, delinquent principal, other principal in due order, credit;
  R-A11: the lump-sum discount, also its own `discount` entry);
- `reverse_payment`: a failed bank debit appends a `reversal` of the payment's entry, dated
  the day the failure is known (never deletes): from that day the statement reads the
  payment as never received (the core's `reversed_on`, R-A6), before it as received;
- `refund`: money given back appends a `refund` debit;
- `receipt_lines` / `check_allocations`: the stored lines, and the invariant that each
  payment, replayed as of its day over the facts known then, reproduces them.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy import select

from portal.accounts import facts as facts_service
from portal.accounts import ledger as data_ledger
from portal.accounts.facts import AccountFacts
from portal.core.statement import Application
from portal.db import UnitOfWork
from portal.models import FiscalYear, LedgerEntry, Parcel, PaymentAllocation
from portal.models import Payment as PaymentRow


def lock_accounts(uow: UnitOfWork, parcel_ids: Iterable[int]) -> None:
    """Serialise postings per account: lock the parcels' rows, in id order (no deadlock)."""
    ids = sorted(set(int(p) for p in parcel_ids))
    if ids:
        uow.session.execute(select(Parcel.id).where(Parcel.id.in_(ids))
                            .order_by(Parcel.id).with_for_update()).all()


def load(uow: UnitOfWork, parcel_id: int, fiscal_year_id: int) -> AccountFacts:
    fy = uow.session.get(FiscalYear, fiscal_year_id)
    if fy is None:
        raise LookupError(f"no fiscal year {fiscal_year_id}")
    return facts_service.load(uow, parcel_id, fy)


def post_payment(uow: UnitOfWork, payment: PaymentRow, author_id: int | None = None
                 ) -> LedgerEntry:
    """Post an applied payment (its status and `completed_at` are set); idempotent."""
    return data_ledger.post_payment(uow, payment.id, actor=author_id)


def next_receipt_number(uow: UnitOfWork, day: date) -> str:
    """The next receipt number of `day`'s year, from the one counter every receipt shares
    (`accounts.ledger.next_receipt_numbers`): call it after `lock_accounts`."""
    return data_ledger.next_receipt_number(uow, day)


def payment_entry(uow: UnitOfWork, payment_id: int) -> LedgerEntry | None:
    return data_ledger.posted_entry(uow, payment_id)


def reverse_payment(uow: UnitOfWork, payment: PaymentRow, why: str,
                    author_id: int | None = None) -> LedgerEntry | None:
    """A failed bank debit: a `reversal` of the payment's entry dated today, the day the
    failure is known (once; `accounts.ledger.reverse_entry`)."""
    entry = payment_entry(uow, payment.id)
    if entry is None or uow.session.scalar(
            select(LedgerEntry.id).where(LedgerEntry.reverses_id == entry.id)):
        return None
    return data_ledger.reverse_entry(uow, author_id, entry.id, why)


def refund(uow: UnitOfWork, payment: PaymentRow, amount: Decimal, why: str,
           author_id: int | None = None) -> LedgerEntry:
    """Money given back on a posted payment: a `refund` debit; the payment's refunded amount
    and status follow (partially_refunded / refunded)."""
    return data_ledger.record_refund(uow, author_id, payment.id, amount, why)


def receipt_lines(uow: UnitOfWork, payment_ids: Iterable[int]
                  ) -> dict[int, list[PaymentAllocation]]:
    """The stored receipt lines of each payment, in order."""
    ids = list(payment_ids)
    out: dict[int, list[PaymentAllocation]] = {pid: [] for pid in ids}
    if ids:
        for a in uow.session.scalars(select(PaymentAllocation)
                                     .where(PaymentAllocation.payment_id.in_(ids))
                                     .order_by(PaymentAllocation.payment_id,
                                               PaymentAllocation.position)):
            out[a.payment_id].append(a)
    return out


def application_of(account: AccountFacts, payment_id: int,
                   as_of: date | None = None) -> Application | None:
    """How the core applied the posted payment `payment_id` when it was posted (its receipt's
    lines and R-A11 verdict; a payment reversed later keeps them). `as_of` is not used: the
    application is the one of the payment's own day."""
    entry = next((e for e in account.payment_entries if e.payment_id == payment_id), None)
    if entry is None:
        return None
    return data_ledger.application_when_posted(account, entry)[0]


def check_allocations(uow: UnitOfWork, parcel_id: int, fiscal_year_id: int) -> list[Any]:
    """DESIGN.md 1: [] when recomputing the statement reproduces every stored receipt line."""
    return data_ledger.verify_allocations(uow, parcel_id, fiscal_year_id)
