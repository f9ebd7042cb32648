"""Posting money to an account's append-only ledger, allocated by the core (DESIGN.md 1, 3).

An account (a parcel in a fiscal year) is its facts, as `portal.services.facts` loads them:
ledger credits are the core's payments, debits its costs, both in (legal date, id) order.
Posting a payment therefore means:

1. lock the account (its `parcels` row, SELECT ... FOR UPDATE on PostgreSQL) so two postings to
   one account never interleave;
2. append a `payment` credit entry dated on the payment's Puerto Rico legal date — never
   before a payment already posted to the account (DESIGN.md 1: facts are never back-dated
   before a posted payment);
3. ask the core how that payment applies over all the facts (R-A10: interest, late fees,
   costs, delinquent principal, other principal in due order, credit; R-A11: the lump-sum
   discount) and store each line as a receipt line (`payment_allocations`), plus the discount
   as its own informational `discount` entry.

A failed bank debit or a refund never deletes anything: it appends a `reversal` or `refund`
debit entry, dated when it happens. After any change, `sync_allocations` recomputes every
posted payment of the account and, where the core now applies one differently, reverses its
old lines (`allocation_reversals`) and appends the new ones, so the invariant holds: the
receipt lines still standing are exactly what the core computes over the facts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy import func, select

from portal import clock
from portal.core.money import ZERO
from portal.core.statement import Application
from portal.db import UnitOfWork
from portal.models import FiscalYear, LedgerEntry, Parcel, PaymentAllocation
from portal.models import Payment as PaymentRow
from portal.models.payments_ext import AllocationReversal
from portal.services import facts as facts_service
from portal.services.facts import AccountFacts

LineKey = tuple[str, Decimal, int | None, int | None, str]


@dataclass(frozen=True)
class AccountRef:
    parcel_id: int
    fiscal_year_id: int


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


def _as_of(account: AccountFacts) -> date:
    last = account.last_credit_date
    debits = max((e.legal_date for e in account.debits), default=None)
    return max(d for d in (clock.today(), last, debits) if d is not None)


def application_of(account: AccountFacts, payment_id: int,
                   as_of: date | None = None) -> Application | None:
    """How the core applies the posted payment `payment_id` over the account's facts."""
    st = account.evaluate(as_of or _as_of(account))
    index = {k: e.payment_id for k, e in enumerate(account.credits) if e.kind == "payment"}
    for app in st.applications:
        if app.payment is not None and index.get(app.payment) == payment_id:
            return app
    return None


def _keys(account: AccountFacts, app: Application | None) -> list[LineKey]:
    if app is None:
        return []
    out: list[LineKey] = []
    for ln in app.lines:
        cost_entry = account.debits[ln.cost].id if ln.cost is not None else None
        out.append((ln.kind, ln.amount, ln.installment, cost_entry, ln.rule))
    return out


def live_allocations(uow: UnitOfWork, payment_ids: Iterable[int]
                     ) -> dict[int, list[PaymentAllocation]]:
    """The receipt lines still standing (not reversed), per payment, in order."""
    ids = list(payment_ids)
    out: dict[int, list[PaymentAllocation]] = {pid: [] for pid in ids}
    if not ids:
        return out
    reversed_ids = select(AllocationReversal.allocation_id)
    rows = uow.session.scalars(
        select(PaymentAllocation).where(PaymentAllocation.payment_id.in_(ids),
                                        PaymentAllocation.id.not_in(reversed_ids))
        .order_by(PaymentAllocation.payment_id, PaymentAllocation.position))
    for a in rows:
        out[a.payment_id].append(a)
    return out


def _key_of(a: PaymentAllocation) -> LineKey:
    return (a.kind, a.amount, a.installment_number, a.cost_entry_id, a.rule)


def _write_lines(uow: UnitOfWork, payment_id: int, keys: list[LineKey]) -> None:
    start = uow.session.scalar(select(func.max(PaymentAllocation.position))
                               .where(PaymentAllocation.payment_id == payment_id)) or 0
    for n, (kind, amount, inst, cost_entry, rule) in enumerate(keys, start=start + 1):
        uow.session.add(PaymentAllocation(payment_id=payment_id, position=n, kind=kind,
                                          amount=amount, installment_number=inst,
                                          cost_entry_id=cost_entry, rule=rule))


def post_payment(uow: UnitOfWork, payment: PaymentRow, legal_date: date,
                 author_id: int | None = None, description: str = "") -> LedgerEntry:
    """Append the payment's credit entry and its receipt lines (the caller locked the account).

    Returns the entry. Posting the same payment twice is refused (`ValueError`): the callers
    reach here only on the payment's first move into an applied state.
    """
    existing = uow.session.scalar(select(LedgerEntry.id).where(
        LedgerEntry.payment_id == payment.id, LedgerEntry.kind == "payment"))
    if existing is not None:
        raise ValueError(f"payment {payment.id} is already posted")
    account = load(uow, payment.parcel_id, payment.fiscal_year_id)
    if account.last_credit_date is not None and legal_date < account.last_credit_date:
        legal_date = account.last_credit_date  # never back-dated before a posted payment
    entry = LedgerEntry(parcel_id=payment.parcel_id, fiscal_year_id=payment.fiscal_year_id,
                        kind="payment", direction="credit", amount=payment.amount,
                        legal_date=legal_date, author_id=author_id, rule="R-A10",
                        description=description, payment_id=payment.id)
    uow.session.add(entry)
    uow.session.flush()
    sync_allocations(uow, payment.parcel_id, payment.fiscal_year_id, reason="reapplied")
    account = load(uow, payment.parcel_id, payment.fiscal_year_id)
    app = application_of(account, payment.id)
    discount = sum((ln.amount for ln in (app.lines if app else []) if ln.kind == "discount"),
                   ZERO)
    if discount > 0:
        uow.session.add(LedgerEntry(
            parcel_id=payment.parcel_id, fiscal_year_id=payment.fiscal_year_id,
            kind="discount", direction="credit", amount=discount, legal_date=legal_date,
            author_id=author_id, rule="R-A11", payment_id=payment.id,
            description="lump-sum discount"))
    uow.session.flush()
    return entry


def reverse_payment(uow: UnitOfWork, payment: PaymentRow, why: str,
                    author_id: int | None = None) -> LedgerEntry | None:
    """A failed bank debit: a `reversal` debit of the payment's entry, dated today."""
    entry = uow.session.scalar(select(LedgerEntry).where(
        LedgerEntry.payment_id == payment.id, LedgerEntry.kind == "payment"))
    if entry is None:
        return None
    if uow.session.scalar(select(LedgerEntry.id).where(LedgerEntry.reverses_id == entry.id)):
        return None
    rev = LedgerEntry(parcel_id=entry.parcel_id, fiscal_year_id=entry.fiscal_year_id,
                      kind="reversal", direction="debit", amount=entry.amount,
                      legal_date=max(clock.today(), entry.legal_date), author_id=author_id,
                      rule="R-A10", description=why, payment_id=payment.id,
                      reverses_id=entry.id)
    uow.session.add(rev)
    # The informational `discount` entry stays: the core decides whether a discount stands.
    uow.session.flush()
    sync_allocations(uow, entry.parcel_id, entry.fiscal_year_id, reason="failed")
    return rev


def refund_entry(uow: UnitOfWork, payment: PaymentRow, amount: Decimal, why: str,
                 author_id: int | None = None) -> LedgerEntry:
    """Money given back on a payment: a `refund` debit dated today."""
    entry = LedgerEntry(parcel_id=payment.parcel_id, fiscal_year_id=payment.fiscal_year_id,
                        kind="refund", direction="debit", amount=amount,
                        legal_date=clock.today(), author_id=author_id, rule="R-A10",
                        description=why, payment_id=payment.id)
    uow.session.add(entry)
    uow.session.flush()
    sync_allocations(uow, payment.parcel_id, payment.fiscal_year_id, reason="refund")
    return entry


def _wanted(uow: UnitOfWork, parcel_id: int, fiscal_year_id: int) -> dict[int, list[LineKey]]:
    """{payment_id: the receipt lines the core computes now} for every payment ever posted to
    the account (an empty list for one that is no longer a fact)."""
    account = load(uow, parcel_id, fiscal_year_id)
    st = account.evaluate(_as_of(account))
    by_index = {k: e.payment_id for k, e in enumerate(account.credits)
                if e.kind == "payment" and e.payment_id is not None}
    wanted: dict[int, list[LineKey]] = {pid: [] for pid in by_index.values()}
    for app in st.applications:
        if app.payment is not None and app.payment in by_index:
            wanted[by_index[app.payment]] = _keys(account, app)
    posted = uow.session.scalars(select(LedgerEntry.payment_id).where(
        LedgerEntry.parcel_id == parcel_id, LedgerEntry.fiscal_year_id == fiscal_year_id,
        LedgerEntry.kind == "payment"))
    for pid in posted:
        wanted.setdefault(pid, [])
    return wanted


def sync_allocations(uow: UnitOfWork, parcel_id: int, fiscal_year_id: int,
                     reason: str = "reapplied") -> int:
    """Make the standing receipt lines of every posted payment of the account equal what the
    core computes over the facts now; returns how many payments were (re-)applied."""
    wanted = _wanted(uow, parcel_id, fiscal_year_id)
    live = live_allocations(uow, wanted)
    changed = 0
    for pid, keys in wanted.items():
        have = [_key_of(a) for a in live[pid]]
        if have == keys:
            continue
        for a in live[pid]:
            uow.session.add(AllocationReversal(allocation_id=a.id, reason=reason))
        _write_lines(uow, pid, keys)
        changed += 1
    uow.session.flush()
    return changed


def check_allocations(uow: UnitOfWork, parcel_id: int, fiscal_year_id: int
                      ) -> list[dict[str, Any]]:
    """The invariant (DESIGN.md 1): recomputing the statement over the facts reproduces every
    standing receipt line. Returns the differences (empty when it holds)."""
    wanted = _wanted(uow, parcel_id, fiscal_year_id)
    live = live_allocations(uow, wanted)
    return [{"payment_id": pid, "stored": [_key_of(a) for a in live[pid]], "computed": keys}
            for pid, keys in wanted.items() if [_key_of(a) for a in live[pid]] != keys]
