"""A lender's intents to pay (J7): the CRIM bills and the District installments a lender says
it will pay for a loan's parcel this fiscal year, so that the owner, told "your bank said it
will pay this", does not pay it twice (and the lender does not mark what the owner paid).

Marking and withdrawing are for the lender's users only (its active loan; anyone else:
NotFound), audit-logged ("lender.intent_marked", "lender.intent_withdrawn"). The amount of
each intent is the core's when marked: a CRIM bill's is what the lender pays it (R-B10 case
(i), `core.lender.retention`); the District's "due now" and an installment's are the
account's offer (R-A5–A10). Intents are never deleted: a withdrawal is a new state.
See docs/LENDERS.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import Select, bindparam, select

from portal import clock
from portal.accounts import audit, facts
from portal.accounts.errors import InvalidInput, NotFound
from portal.db import UnitOfWork
from portal.lenders import portfolio
from portal.lenders.acquisitions import LoanRef, find_loan, is_token
from portal.models import FiscalYear, Installment, Lender, LenderIntent, Party, PartyMember

#: An item's key, as the loan page's form posts it: "crim-1", "crim-2", "due_now",
#: "inst-<installment id>".
DUE_NOW = "due_now"


@dataclass(frozen=True)
class Item:
    """One thing of the year the lender may say it will pay, with the core's amount now."""

    key: str
    kind: str  # LenderIntent.kind
    amount: Decimal
    crim_half: int | None = None
    installment_id: int | None = None
    installment_number: int | None = None
    due_date: date | None = None  # a CRIM bill's issue date, an installment's due date


@dataclass(frozen=True)
class IntentView:
    """An intent as the pages show it."""

    id: int
    lender_name: str
    kind: str
    crim_half: int | None
    installment_number: int | None
    amount: Decimal
    marked_at: datetime
    withdrawn_at: datetime | None
    parcel_id: int
    fiscal_year_id: int
    lender_id: int
    installment_id: int | None

    @property
    def key(self) -> str:
        """The item's key (`Item.key`)."""
        return _key(self.kind, self.crim_half, self.installment_id)


def _key(kind: str, half: int | None, installment_id: int | None) -> str:
    if kind == "crim_bill":
        return f"crim-{half}"
    if kind == "district_installment":
        return f"inst-{installment_id}"
    return DUE_NOW


def _fiscal_year(uow: UnitOfWork, today: date) -> FiscalYear | None:
    return facts.fiscal_year_on(uow, today)


@dataclass(frozen=True)
class Options:
    """What the lender may mark on a loan's parcel this year, and what it has marked."""

    loan: LoanRef
    fiscal_year: FiscalYear | None
    items: list[Item]
    marked: list[IntentView]
    #: Installments of the year the owner (or anyone) has already paid: not markable.
    paid_numbers: list[int]

    def marked_keys(self) -> set[str]:
        return {m.key for m in self.marked if m.withdrawn_at is None}


#: `options_for`'s `kept` when the caller has not read the retention.
_UNREAD: Any = object()


def _items(uow: UnitOfWork, ref: LoanRef, fy: FiscalYear | None, today: date,
           kept: Any = _UNREAD) -> tuple[list[Item], list[int]]:
    items: list[Item] = []
    paid: list[int] = []
    if kept is _UNREAD:
        fy_start = portfolio.fiscal_year_start(today)
        kept = portfolio.retentions(uow, [ref.parcel_id], fy_start).get(ref.parcel_id)
    if kept is not None:
        for half, bill in enumerate(kept.bills, start=1):
            items.append(Item(f"crim-{half}", "crim_bill", bill.with_exemption.amount,
                              crim_half=half, due_date=bill.issued_on))
    if fy is None:
        return items, paid
    # One statement (read-only records), the installments' ids among them (the items' keys
    # name the id).
    f = facts.load(uow, ref.parcel_id, fy, rows=True)
    if f.assessment is None:
        return items, paid
    offer = f.offer(today)
    if offer.due_now > 0:
        items.append(Item(DUE_NOW, "district_due_now", offer.due_now))
    ids = {i.number: i.id for i in f.installment_rows}
    open_numbers = set()
    for o in offer.installments:
        open_numbers.add(o.number)
        if o.owed > 0 and o.number in ids:
            items.append(Item(f"inst-{ids[o.number]}", "district_installment", o.owed,
                              installment_id=ids[o.number], installment_number=o.number,
                              due_date=o.due_date))
    paid = sorted(n for n in ids if n not in open_numbers)
    return items, paid


def options(uow: UnitOfWork, who: Any, loan_id: int, today: date | None = None) -> Options:
    """The loan's items of the year with the core's amounts, and its intents (newest first);
    NotFound for a loan that is not `who`'s."""
    return options_for(uow, find_loan(uow, who, loan_id=loan_id), today)


def options_for(uow: UnitOfWork, ref: LoanRef, today: date | None = None, *,
                kept: Any = _UNREAD) -> Options:
    """`options` of a loan the caller has found as `who`'s (`find_loan`,
    `portfolio.loan_and_ref`: the access check); `kept`: its parcel's retention of the year
    (`portfolio.retentions`) when the caller has read it."""
    today = today or clock.today()
    fy = _fiscal_year(uow, today)
    items, paid = _items(uow, ref, fy, today, kept)
    marked = (_views(uow, [], stmt=_FOR_LOAN, params={"loan": ref.id}) if fy is not None
              else [])
    return Options(ref, fy, items, [m for m in marked if m.fiscal_year_id == fy.id]
                   if fy is not None else [], paid)


def mark(uow: UnitOfWork, who: Any, loan_id: int, keys: Iterable[str],
         today: date | None = None) -> list[LenderIntent]:
    """Mark the items `keys` of the loan's parcel this year as items the lender will pay,
    each with the core's amount now; an item already marked (and not withdrawn) is kept as
    it is. InvalidInput "unknown_item" (field "items") for a key that is not one of the
    year's items now: an installment already paid, nothing due now, no CRIM facts; "empty"
    for none. NotFound: not `who`'s loan. Audit-logged per intent."""
    today = today or clock.today()
    if is_token(who):  # a lender's user marks (and is named on the mark), not a token
        raise NotFound()
    wanted = list(dict.fromkeys(k.strip() for k in keys if k and k.strip()))
    if not wanted:
        raise InvalidInput("empty", field="items")
    opts = options(uow, who, loan_id, today)
    by_key = {i.key: i for i in opts.items}
    unknown = [k for k in wanted if k not in by_key]
    if unknown or opts.fiscal_year is None:
        raise InvalidInput("unknown_item", field="items", keys=unknown)
    already = opts.marked_keys()
    out = []
    for key in wanted:
        if key in already:
            continue
        item = by_key[key]
        row = LenderIntent(
            lender_id=opts.loan.lender_id, loan_id=opts.loan.id, parcel_id=opts.loan.parcel_id,
            fiscal_year_id=opts.fiscal_year.id, kind=item.kind, crim_half=item.crim_half,
            installment_id=item.installment_id, amount=item.amount, marked_by_id=int(who.id))
        uow.session.add(row)
        uow.session.flush()
        audit.record(uow, who, "lender.intent_marked", row,
                     after={"loan_id": opts.loan.id, "item": key, "amount": item.amount})
        out.append(row)
    return out


def withdraw(uow: UnitOfWork, who: Any, loan_id: int, intent_id: int) -> LenderIntent:
    """Withdraw one of the loan's intents (sets `withdrawn_at`; nothing is deleted). NotFound:
    not `who`'s loan, or not an intent of it still in force."""
    if is_token(who):
        raise NotFound()
    ref = find_loan(uow, who, loan_id=loan_id)
    row = uow.session.get(LenderIntent, int(intent_id))
    if row is None or row.loan_id != ref.id or row.withdrawn_at is not None:
        raise NotFound()
    row.withdrawn_at = clock.now()
    row.withdrawn_by_id = int(who.id)
    uow.session.flush()
    audit.record(uow, who, "lender.intent_withdrawn", row,
                 before={"withdrawn_at": None}, after={"loan_id": ref.id})
    return row


def _select(where: Sequence[Any], active: bool) -> Select:
    stmt = (select(LenderIntent, Party.name, Installment.number)
            .join(Lender, Lender.id == LenderIntent.lender_id)
            .join(Party, Party.id == Lender.party_id)
            .outerjoin(Installment, Installment.id == LenderIntent.installment_id)
            .where(*where)
            .order_by(LenderIntent.marked_at.desc(), LenderIntent.id.desc()))
    if active:
        stmt = stmt.where(LenderIntent.withdrawn_at.is_(None))
    return stmt


#: `for_parcel`'s, built once (the parcel page asks it on every request).
_FOR_PARCEL = _select([LenderIntent.parcel_id == bindparam("pid"),
                       LenderIntent.fiscal_year_id == bindparam("fy")], True)


#: `options_for`'s (every intent of the loan, withdrawn too), built once (the loan page asks
#: it on every request).
_FOR_LOAN = _select([LenderIntent.loan_id == bindparam("loan")], False)


#: `for_accounts`'s, built once (the pay pages ask it on every request), over the tables'
#: columns (plain rows in `IntentView`'s order, no ORM step): the District intents in force
#: on the parcels :ids, of lenders other than those the user :user works for (a subquery).
_INTENTS, _LENDER_TABLE, _PARTY_TABLE, _INSTALLMENT_TABLE, _MEMBER_TABLE = (
    LenderIntent.__table__, Lender.__table__, Party.__table__, Installment.__table__,
    PartyMember.__table__)
_FOR_ACCOUNTS = (
    select(_INTENTS.c.id, _PARTY_TABLE.c.name, _INTENTS.c.kind, _INTENTS.c.crim_half,
           _INSTALLMENT_TABLE.c.number, _INTENTS.c.amount, _INTENTS.c.marked_at,
           _INTENTS.c.withdrawn_at, _INTENTS.c.parcel_id, _INTENTS.c.fiscal_year_id,
           _INTENTS.c.lender_id, _INTENTS.c.installment_id)
    .select_from(_INTENTS)
    .join(_LENDER_TABLE, _LENDER_TABLE.c.id == _INTENTS.c.lender_id)
    .join(_PARTY_TABLE, _PARTY_TABLE.c.id == _LENDER_TABLE.c.party_id)
    .outerjoin(_INSTALLMENT_TABLE, _INSTALLMENT_TABLE.c.id == _INTENTS.c.installment_id)
    .where(_INTENTS.c.parcel_id.in_(bindparam("ids", expanding=True)),
           _INTENTS.c.kind != "crim_bill",
           _INTENTS.c.lender_id.not_in(
               select(_LENDER_TABLE.c.id)
               .join(_MEMBER_TABLE, _MEMBER_TABLE.c.party_id == _LENDER_TABLE.c.party_id)
               .where(_MEMBER_TABLE.c.user_id == bindparam("user"),
                      _MEMBER_TABLE.c.revoked_at.is_(None))),
           _INTENTS.c.withdrawn_at.is_(None))
    .order_by(_INTENTS.c.marked_at.desc(), _INTENTS.c.id.desc()))


def _views(uow: UnitOfWork, where: Sequence[Any], *, active: bool = False,
           stmt: Select | None = None, params: dict | None = None) -> list[IntentView]:
    if stmt is None:
        stmt = _select(where, active)
    return [IntentView(i.id, name, i.kind, i.crim_half, number, i.amount, i.marked_at,
                       i.withdrawn_at, i.parcel_id, i.fiscal_year_id, i.lender_id,
                       i.installment_id)
            for i, name, number in uow.session.execute(stmt, params)]


def for_parcel(uow: UnitOfWork, parcel_id: int, fy: Any) -> list[IntentView]:
    """The intents in force on the parcel for the fiscal year (`fy`: a FiscalYear or its id),
    newest first, for the owner's side (the caller has checked that the user sees the
    parcel)."""
    fy_id = int(getattr(fy, "id", fy))
    return _views(uow, [], stmt=_FOR_PARCEL, params={"pid": int(parcel_id), "fy": fy_id})


def for_parcel_json(parcel_id: Any, fy_id: Any) -> Any:
    """SQL (a scalar subquery, correlated to the columns given): `for_parcel`'s intents as
    JSON (`for_parcel_from_json`), for a statement that reads more than the intents."""
    i, p, ln, n = (LenderIntent.__table__, Party.__table__, Lender.__table__,
                   Installment.__table__)
    return (select(facts.json_rows(i.c.id, p.c.name, i.c.kind, i.c.crim_half, n.c.number,
                                   i.c.amount, i.c.marked_at, i.c.withdrawn_at, i.c.parcel_id,
                                   i.c.fiscal_year_id, i.c.lender_id, i.c.installment_id))
            .select_from(i).join(ln, ln.c.id == i.c.lender_id).join(p, p.c.id == ln.c.party_id)
            .outerjoin(n, n.c.id == i.c.installment_id)
            .where(i.c.parcel_id == parcel_id, i.c.fiscal_year_id == fy_id,
                   i.c.withdrawn_at.is_(None))
            .scalar_subquery())


def for_parcel_from_json(text: str | None) -> list[IntentView]:
    """`for_parcel_json`'s value as `for_parcel` gives it: newest first."""
    found = [IntentView(iid, name, kind, half, number, facts.stored_money(amount),
                        facts.stored_instant(marked), facts.stored_instant(withdrawn), pid,
                        fy, lender, installment)
             for iid, name, kind, half, number, amount, marked, withdrawn, pid, fy, lender,
             installment in facts.read_json_rows(text)]
    return sorted(found, key=lambda v: (v.marked_at, v.id), reverse=True)


def for_accounts(uow: UnitOfWork, user: Any, accounts: Iterable[tuple[int, int]]
                 ) -> dict[tuple[int, int], list[IntentView]]:
    """{(parcel id, fiscal year id): the District intents in force} for these accounts, of
    lenders `user` does not work for (a lender paying what it marked is not warned): the
    pay page's guard against paying twice."""
    wanted = {(int(p), int(f)) for p, f in accounts}
    if not wanted:
        return {}
    out: dict[tuple[int, int], list[IntentView]] = {}
    user_id = int(getattr(user, "id", 0) or 0)
    for ids in facts.in_batches(sorted({p for p, _ in wanted})):
        for row in uow.session.execute(_FOR_ACCOUNTS, {"ids": ids, "user": user_id}):
            v = IntentView(*row)
            if (v.parcel_id, v.fiscal_year_id) in wanted:
                out.setdefault((v.parcel_id, v.fiscal_year_id), []).append(v)
    return out


__all__ = ["DUE_NOW", "IntentView", "Item", "Options", "for_accounts", "for_parcel", "mark",
           "options", "options_for", "withdraw"]
