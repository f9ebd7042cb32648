"""Money movements: posting a payment with its allocation, costs, adjustments, reversals,
refunds, and the invariant check (DESIGN.md 1, 4).

Facts are append-only and never back-dated before a posted payment, so that the statement
over the facts known when a payment was posted, as of its day, reproduces its stored
allocation (`verify_allocations`), and so that a later fact never comes before a posted
payment in the statement's walk of the days:

- a payment is posted on its Puerto Rico legal date (when the payer completed it, R-A6); if a
  payment with a later date was already posted, it is posted on that later date instead (and
  the audit record says so), never before it;
- a cost (R-A9) is dated after the last posted payment of the account (`cost_before_posted_
  payment` otherwise): the core adds a day's costs before its payments;
- an adjustment (either way) is dated when it is made, or the next day when a payment was
  posted that day: the core applies a day's costs and adjustments before its payments;
- a refund is dated when it is made: the core takes it from the credit after that day's
  payments;
- a reversal is dated when it is made (for a failed bank debit, the day the failure is
  known): the payment is then the core's `reversed_on` and counts before that day only; a
  reversed cost, adjustment or refund drops out of the facts from that day (`facts`).

Every function here writes an audit record.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite

from portal import clock
from portal.accounts import access, audit, facts
from portal.accounts.errors import Conflict, InvalidInput, NotFound
from portal.core import payment_states as states
from portal.core.money import ZERO, cents
from portal.core.statement import Application
from portal.core.statement import Payment as CorePayment
from portal.db import UnitOfWork
from portal.models import FiscalYear, LedgerEntry, Parcel, Payment, PaymentAllocation
from portal.models.ledger import COST_KINDS
from portal.models.receipts import ReceiptSequence

REVERSIBLE = ("payment", "cost", "adjustment", "refund")


def lock_account(uow: UnitOfWork, parcel_id: int) -> None:
    """Serialise money movements on one parcel (SELECT ... FOR UPDATE on PostgreSQL)."""
    uow.session.execute(select(Parcel.id).where(Parcel.id == parcel_id).with_for_update())


def next_receipt_numbers(uow: UnitOfWork, day: date, n: int = 1) -> list[str]:
    """The next `n` receipt numbers of `day`'s year ("YYYY-NNNNNN"), in order.

    One statement increments the year's counter (INSERT ... ON CONFLICT DO UPDATE ...
    RETURNING): call it inside the transaction that records the success, after the accounts'
    locks (a lock taken in the same order everywhere: no deadlock). A rollback gives the
    numbers back (no gap); a concurrent success waits for this transaction on the row."""
    if n < 1:
        return []
    dialect = uow.session.get_bind().dialect.name
    insert = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(ReceiptSequence)
    stmt = insert.values(year=day.year, last=n).on_conflict_do_update(
        index_elements=[ReceiptSequence.year],
        set_={"last": ReceiptSequence.last + n}).returning(ReceiptSequence.last)
    last = int(uow.session.execute(stmt).scalar_one())
    return [f"{day.year}-{k:06d}" for k in range(last - n + 1, last + 1)]


def next_receipt_number(uow: UnitOfWork, day: date) -> str:
    """The next receipt number of `day`'s year (see `next_receipt_numbers`)."""
    return next_receipt_numbers(uow, day)[0]


def number_payment(uow: UnitOfWork, payment: Payment) -> str:
    """Give a payment recorded without a checkout (office, lender, demo) its receipt number
    when it succeeds: the next of its completion's legal year; once (a number stays)."""
    if payment.receipt_number is None:
        payment.receipt_number = next_receipt_number(
            uow, clock.legal_date(payment.completed_at or clock.now()))
        uow.session.flush()
    return payment.receipt_number


def _amount(value: Any, field: str = "amount") -> Decimal:
    if not isinstance(value, (Decimal, int)) or isinstance(value, bool):
        raise InvalidInput("invalid", field=field)
    amount = Decimal(value)
    if amount <= 0 or cents(amount) != amount:
        raise InvalidInput("invalid", field=field)
    return amount


def _fy(uow: UnitOfWork, fiscal_year_id: int) -> FiscalYear:
    fy = uow.session.get(FiscalYear, fiscal_year_id)
    if fy is None:
        raise NotFound()
    return fy


def correction_date(account: facts.AccountFacts) -> date:
    """Today, or the day after the last posted payment if that is today or later: the core
    applies a day's costs and adjustments before its payments."""
    today = clock.today()
    last = account.last_credit_date
    if last is not None and last >= today:
        return last + timedelta(days=1)
    return today


def posted_entry(uow: UnitOfWork, payment_id: int) -> LedgerEntry | None:
    return uow.session.scalar(select(LedgerEntry).where(LedgerEntry.kind == "payment",
                                                        LedgerEntry.payment_id == payment_id))


def post_payment(uow: UnitOfWork, payment_id: int, *, actor: Any = None) -> LedgerEntry:
    """Post a completed payment: its ledger entry and its allocation (R-A10, R-A11), computed
    by the core over the account's facts. Idempotent: a second call returns the same entry.

    The payment must be applied (processing, succeeded or partially refunded) and have its
    `completed_at`. Called by the payments fulfilment (webhook, return page, reconcile).
    """
    payment = uow.session.get(Payment, int(payment_id))
    if payment is None:
        raise NotFound()
    existing = posted_entry(uow, payment.id)
    if existing is not None:
        return existing
    if payment.status not in states.APPLIED or payment.completed_at is None:
        raise Conflict("payment_not_applied", status=payment.status)
    lock_account(uow, payment.parcel_id)
    existing = posted_entry(uow, payment.id)  # posted meanwhile by another worker
    if existing is not None:
        return existing
    fy = _fy(uow, payment.fiscal_year_id)
    account = facts.load(uow, payment.parcel_id, fy)
    legal = clock.legal_date(payment.completed_at)
    last = account.last_credit_date
    effective = legal if last is None or legal >= last else last
    inputs = account.core(effective)
    st = account.evaluate(effective, [CorePayment(effective, payment.amount, payment.lump_sum)])
    index = len(inputs.payments)
    app = next(a for a in st.applications if a.payment == index)
    entry = LedgerEntry(parcel_id=payment.parcel_id, fiscal_year_id=payment.fiscal_year_id,
                        kind="payment", direction="credit", amount=payment.amount,
                        legal_date=effective, author_id=getattr(actor, "id", actor),
                        rule="R-A11" if app.lump_sum == "granted" else "R-A10",
                        payment_id=payment.id)
    uow.session.add(entry)
    uow.session.flush()
    lines = []
    for position, ln in enumerate(app.lines, start=1):
        cost_id = inputs.cost_entries[ln.cost].id if ln.cost is not None else None
        lines.append(PaymentAllocation(payment_id=payment.id, position=position, kind=ln.kind,
                                       amount=ln.amount, installment_number=ln.installment,
                                       cost_entry_id=cost_id, rule=ln.rule))
    uow.session.add_all(lines)
    discount = sum((ln.amount for ln in app.lines if ln.kind == "discount"), ZERO)
    if discount:
        uow.session.add(LedgerEntry(
            parcel_id=payment.parcel_id, fiscal_year_id=payment.fiscal_year_id,
            kind="discount", direction="credit", amount=discount, legal_date=effective,
            rule="R-A11", payment_id=payment.id))
    audit.record(uow, actor, "payment.posted", payment, after={
        "amount": payment.amount, "legal_date": effective, "completed_on": legal,
        "lump_sum": app.lump_sum, "late_posting": effective != legal,
        "lines": [{"kind": ln.kind, "amount": ln.amount, "installment": ln.installment,
                   "rule": ln.rule} for ln in app.lines]})
    return entry


def record_cost(uow: UnitOfWork, staff: Any, parcel_id: int, fiscal_year_id: int,
                amount: Decimal, on: date, cost_kind: str = "certified_mail",
                description: str = "") -> LedgerEntry:
    """R-A9: a collection cost or attorney's fee recorded by staff, dated `on`."""
    access.require_staff_role(staff, *access.MANAGE)
    amount = _amount(amount)
    if cost_kind not in COST_KINDS:
        raise InvalidInput("invalid", field="cost_kind")
    if on > clock.today():
        raise InvalidInput("invalid", field="on")
    lock_account(uow, parcel_id)
    account = facts.load(uow, parcel_id, _fy(uow, fiscal_year_id))
    last = account.last_credit_date
    if last is not None and on <= last:
        raise InvalidInput("cost_before_posted_payment", field="on", last=last)
    entry = LedgerEntry(parcel_id=parcel_id, fiscal_year_id=fiscal_year_id, kind="cost",
                        direction="debit", amount=amount, legal_date=on, author_id=staff.id,
                        rule="R-A9", cost_kind=cost_kind, description=description or "")
    uow.session.add(entry)
    uow.session.flush()
    audit.record(uow, staff, "cost.recorded", entry, after=audit.snapshot(entry))
    return entry


def record_adjustment(uow: UnitOfWork, staff: Any, parcel_id: int, fiscal_year_id: int,
                      amount: Decimal, direction: str, reason: str) -> LedgerEntry:
    """A correction, dated when it is made (the next day if a payment was posted today): a
    debit adds to what is owed (a cost to the core), a credit is the core's adjustment
    (applied like a payment, R-A10, but not principal paid for R-A11). Staff only; the
    reason is required."""
    access.require_staff_role(staff, *access.MANAGE)
    amount = _amount(amount)
    if direction not in ("debit", "credit"):
        raise InvalidInput("invalid", field="direction")
    if not (reason or "").strip():
        raise InvalidInput("invalid", field="reason")
    lock_account(uow, parcel_id)
    account = facts.load(uow, parcel_id, _fy(uow, fiscal_year_id))
    on = correction_date(account)
    entry = LedgerEntry(parcel_id=parcel_id, fiscal_year_id=fiscal_year_id, kind="adjustment",
                        direction=direction, amount=amount, legal_date=on, author_id=staff.id,
                        rule="", description=reason.strip())
    uow.session.add(entry)
    uow.session.flush()
    audit.record(uow, staff, "adjustment.recorded", entry, after=audit.snapshot(entry))
    return entry


def reverse_entry(uow: UnitOfWork, actor: Any, entry_id: int, reason: str) -> LedgerEntry:
    """Undo an entry with a new one in the opposite direction (kind "reversal", `reverses_id`
    the entry), dated when it is made: for a failed bank debit, the day the failure is known.
    The statement then reads a reversed payment as never received from that day (the core's
    `reversed_on`, R-A6), and a reversed cost, adjustment or refund as never recorded from
    that day (`facts`). An entry is reversed at most once."""
    entry = uow.session.get(LedgerEntry, int(entry_id))
    if entry is None or entry.kind not in REVERSIBLE:
        raise NotFound()
    if actor is not None and not access.is_staff(actor) and entry.kind != "payment":
        access.require_staff(actor)
    if access.is_staff(actor):
        access.require_staff_role(actor, *access.TAKE_PAYMENTS)  # docs/STAFF.md
    if uow.session.scalar(select(LedgerEntry.id).where(LedgerEntry.reverses_id == entry.id)):
        raise Conflict("already_reversed")
    lock_account(uow, entry.parcel_id)
    direction = "debit" if entry.direction == "credit" else "credit"
    on = clock.today()
    rev = LedgerEntry(parcel_id=entry.parcel_id, fiscal_year_id=entry.fiscal_year_id,
                      kind="reversal", direction=direction, amount=entry.amount,
                      legal_date=on, author_id=getattr(actor, "id", actor), rule=entry.rule,
                      description=(reason or "").strip(), reverses_id=entry.id,
                      payment_id=entry.payment_id)
    uow.session.add(rev)
    uow.session.flush()
    audit.record(uow, actor, "entry.reversed", rev, before=audit.snapshot(entry),
                 after=audit.snapshot(rev))
    if entry.kind == "payment":
        # A lump-sum payment that bounced takes its R-A11 discount with it. The core derives
        # the discount again (a payment reversed is never received, so it earned nothing);
        # the discount entry, informational, is reversed too so that the ledger says so.
        discount = uow.session.scalar(select(LedgerEntry).where(
            LedgerEntry.kind == "discount", LedgerEntry.payment_id == entry.payment_id))
        if discount is not None and not uow.session.scalar(
                select(LedgerEntry.id).where(LedgerEntry.reverses_id == discount.id)):
            back = LedgerEntry(parcel_id=entry.parcel_id, fiscal_year_id=entry.fiscal_year_id,
                               kind="reversal", direction="debit", amount=discount.amount,
                               legal_date=on, author_id=getattr(actor, "id", actor),
                               rule="R-A11", description=(reason or "").strip(),
                               reverses_id=discount.id, payment_id=entry.payment_id)
            uow.session.add(back)
            uow.session.flush()
            audit.record(uow, actor, "entry.reversed", back, before=audit.snapshot(discount),
                         after=audit.snapshot(back))
    return rev


def record_refund(uow: UnitOfWork, actor: Any, payment_id: int, amount: Decimal,
                  reason: str = "") -> LedgerEntry:
    """Money given back on a posted payment: a `refund` debit dated when made (the core
    takes it from the credit after that day's payments; what the credit does not cover is
    owed again from the next day, `facts`); the payment's `refunded_amount` and status
    (partially_refunded / refunded) follow."""
    amount = _amount(amount)
    payment = uow.session.get(Payment, int(payment_id))
    if payment is None or posted_entry(uow, payment.id) is None:
        raise NotFound()
    if payment.refunded_amount + amount > payment.amount:
        raise InvalidInput("invalid", field="amount", max=payment.amount - payment.refunded_amount)
    lock_account(uow, payment.parcel_id)
    entry = LedgerEntry(parcel_id=payment.parcel_id, fiscal_year_id=payment.fiscal_year_id,
                        kind="refund", direction="debit", amount=amount,
                        legal_date=clock.today(), author_id=getattr(actor, "id", actor),
                        rule="R-A10", description=(reason or "").strip(),
                        payment_id=payment.id)
    uow.session.add(entry)
    before = {"status": payment.status, "refunded_amount": payment.refunded_amount}
    payment.refunded_amount = payment.refunded_amount + amount
    target = states.REFUNDED if payment.refunded_amount == payment.amount \
        else states.PARTIALLY_REFUNDED
    if states.advance(payment.status, target):
        payment.status = target
        payment.updated_at = clock.now()
    uow.session.flush()
    audit.record(uow, actor, "payment.refunded", payment, before=before,
                 after={"status": payment.status, "refunded_amount": payment.refunded_amount,
                        "entry": entry.id})
    return entry


def allocation_lines(uow: UnitOfWork, payment_id: int) -> list[PaymentAllocation]:
    return list(uow.session.scalars(select(PaymentAllocation)
                                    .where(PaymentAllocation.payment_id == payment_id)
                                    .order_by(PaymentAllocation.position)))


def application_when_posted(account: facts.AccountFacts, entry: Any
                            ) -> tuple[Application | None, facts.CoreFacts]:
    """How the core applied the payment of ledger entry `entry` when it was posted: the
    statement as of its legal date over the facts known then (`AccountFacts.known_at`: a
    reversal, cost, adjustment or refund written later is not among them). Returns the
    application and the inputs it indexes (`cost_entries[line.cost]`)."""
    then = account.known_at(entry.id)
    inputs = then.core(entry.legal_date)
    index = next(k for k, e in enumerate(inputs.payment_entries) if e.id == entry.id)
    st = then.evaluate(entry.legal_date)
    return next((a for a in st.applications if a.payment == index), None), inputs


def verify_allocations(uow: UnitOfWork, parcel_id: int, fiscal_year_id: int,
                       as_of: date | None = None) -> list[str]:
    """DESIGN.md 1's invariant: every posted payment (by `as_of`, default all), replayed
    through the core as of the day it was posted over the facts known then, is applied
    exactly as its stored allocation says (a payment reversed later counts on its day).
    Returns the differences (none)."""
    account = facts.load(uow, parcel_id, _fy(uow, fiscal_year_id))
    entries = [e for e in account.payment_entries if as_of is None or e.legal_date <= as_of]
    stored: dict[int, list[PaymentAllocation]] = {}
    pay_ids = [e.payment_id for e in entries]
    if pay_ids:
        for row in uow.session.scalars(select(PaymentAllocation)
                                       .where(PaymentAllocation.payment_id.in_(pay_ids))
                                       .order_by(PaymentAllocation.position)):
            stored.setdefault(row.payment_id, []).append(row)
    problems = []
    for entry in entries:
        app, inputs = application_when_posted(account, entry)
        want = [(ln.kind, ln.amount, ln.installment,
                 inputs.cost_entries[ln.cost].id if ln.cost is not None else None, ln.rule)
                for ln in (app.lines if app else [])]
        have = [(r.kind, r.amount, r.installment_number, r.cost_entry_id, r.rule)
                for r in stored.get(entry.payment_id, [])]
        if want != have:
            problems.append(f"payment {entry.payment_id}: stored {have} != recomputed {want}")
    return problems


def record_office_payment(uow: UnitOfWork, staff: Any, parcel_id: int, fiscal_year_id: int,
                          amount: Decimal, method: str = "cash",
                          completed_at: Any = None, lump_sum: bool = False,
                          reference: str = "") -> Payment:
    """Staff record a payment received at the office (cash, check) or from a lender, and post
    it at once. `completed_at` (default now) is when it was received."""
    import uuid

    access.require_staff_role(staff, *access.TAKE_PAYMENTS)
    amount = _amount(amount)
    if method not in ("cash", "check", "lender", "bank"):
        raise InvalidInput("invalid", field="method")
    if uow.session.get(Parcel, int(parcel_id)) is None:
        raise NotFound()
    _fy(uow, fiscal_year_id)
    when = completed_at or clock.now()
    if clock.legal_date(when) > clock.today():
        raise InvalidInput("invalid", field="completed_at")
    payment = Payment(parcel_id=int(parcel_id), fiscal_year_id=int(fiscal_year_id),
                      user_id=None, status=states.SUCCEEDED, method=method, amount=amount,
                      lump_sum=lump_sum, purpose="office", provider="office",
                      idempotency_key=f"office-{uuid.uuid4().hex}",
                      provider_payment_id=reference or None, completed_at=when,
                      updated_at=clock.now())
    uow.session.add(payment)
    uow.session.flush()
    audit.record(uow, staff, "payment.recorded_at_office", payment,
                 after=audit.snapshot(payment))
    post_payment(uow, payment.id, actor=staff)
    number_payment(uow, payment)  # after the account's lock, like a checkout's
    return payment
