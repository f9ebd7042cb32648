"""The one door to data (DESIGN.md 6): what may this user see, and do?

A user sees a parcel when they hold a live link to it (claimed with its code, granted by its
owner, or given by staff) or when a lender they work for holds an active loan on it. Staff see
every parcel. Anything else is `NotFound` (the web answers 404: nothing says it exists).
Payments and notices are visible exactly when their parcel is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from sqlalchemy import (
    ColumnElement,
    CompoundSelect,
    Select,
    and_,
    bindparam,
    case,
    func,
    literal,
    or_,
    select,
    union_all,
)

from portal import clock
from portal.accounts.errors import Forbidden, NotFound
from portal.accounts.facts import record_type
from portal.db import UnitOfWork
from portal.models import Lender, Loan, Notice, Parcel, ParcelLink, PartyMember, Payment
from portal.models.users import STAFF_ROLES

RELATIONS = ("staff", "owner", "lessee", "delegate", "lender")
# When a user is linked to a parcel in several ways, the strongest relation names it.
_STRENGTH = {"owner": 0, "lessee": 1, "delegate": 2, "lender": 3}


#: The largest id the tables' id columns hold (INTEGER: 32 bits on PostgreSQL): a larger
#: number in a URL or a form is simply not found, not a database error. The `<id:>` URL
#: converter (portal/web/converters.py) uses the same bound.
MAX_ID = 2**31 - 1


def parse_id(value: int | str | None) -> int:
    """An id from a URL or a form as an int; `NotFound` for anything that cannot be one
    (letters, zero or negative, or too large for the database)."""
    if isinstance(value, str) and not (value.isascii() and value.isdigit()):
        raise NotFound()  # not "٣" (an Arabic-Indic 3), " 3" or "+3": ids are written 0-9
    try:
        n = int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise NotFound() from None
    if not 0 < n <= MAX_ID:
        raise NotFound()
    return n


def is_staff(user: Any) -> bool:
    return bool(user is not None and getattr(user, "is_staff", False))


def _uid(user: Any) -> int:
    uid = getattr(user, "id", None)
    if uid is None:
        raise NotFound()
    return int(uid)


def relations_query(user: Any) -> Select:
    """(parcel_id, relation) rows for every way the user is linked to a parcel."""
    uid = _uid(user)
    today = clock.today()
    links = (select(ParcelLink.parcel_id.label("parcel_id"), ParcelLink.role.label("relation"))
             .where(ParcelLink.user_id == uid, ParcelLink.revoked_at.is_(None)))
    loans = (select(Loan.parcel_id.label("parcel_id"), literal("lender").label("relation"))
             .join(Lender, Lender.id == Loan.lender_id)
             .join(PartyMember, and_(PartyMember.party_id == Lender.party_id,
                                     PartyMember.user_id == uid,
                                     PartyMember.revoked_at.is_(None)))
             .where(Loan.starts_on <= today, or_(Loan.ends_on.is_(None), Loan.ends_on >= today)))
    return union_all(links, loans)


# The same relations, built once with bound parameters (:uid, :today) for the hot paths
# (every dashboard and parcel page): building the statement per call cost more than running it.
# Over the tables' own columns, so that it runs as a Core statement (no ORM step): it only
# reads (parcel_id, relation) pairs.
_UID, _TODAY = bindparam("uid"), bindparam("today")
_LINKS, _LOANS, _LENDERS, _MEMBERS, _PARCEL_TABLE = (
    ParcelLink.__table__, Loan.__table__, Lender.__table__, PartyMember.__table__,
    Parcel.__table__)
_PID = bindparam("pid")


def _lender_loans(*columns: Any) -> Select:
    """SQL: the active loans on :today of the lenders the user :uid works for."""
    return (select(*columns)
            .select_from(_LOANS)
            .join(_LENDERS, _LENDERS.c.id == _LOANS.c.lender_id)
            .join(_MEMBERS, and_(_MEMBERS.c.party_id == _LENDERS.c.party_id,
                                 _MEMBERS.c.user_id == _UID, _MEMBERS.c.revoked_at.is_(None)))
            .where(_LOANS.c.starts_on <= _TODAY,
                   or_(_LOANS.c.ends_on.is_(None), _LOANS.c.ends_on >= _TODAY)))


def _relations_union(*, of_pid: bool = False, loans: bool = True) -> Select | CompoundSelect:
    """(parcel_id, relation) for every way the user :uid is linked to a parcel on :today;
    `of_pid`: to the parcel :pid only (each branch searches by parcel); not `loans`: their
    own links only, without their lenders' loans."""
    links = (select(_LINKS.c.parcel_id.label("parcel_id"), _LINKS.c.role.label("relation"))
             .where(_LINKS.c.user_id == _UID, _LINKS.c.revoked_at.is_(None)))
    if of_pid:
        links = links.where(_LINKS.c.parcel_id == _PID)
    if not loans:
        return links
    on_loans = _lender_loans(_LOANS.c.parcel_id.label("parcel_id"),
                             literal("lender").label("relation"))
    if of_pid:
        on_loans = on_loans.where(_LOANS.c.parcel_id == _PID)
    return union_all(links, on_loans)


_REL = _relations_union().subquery("rel")
_REL_OWN = _relations_union(loans=False).subquery("rel")
_RELATIONS = select(_REL.c.parcel_id, _REL.c.relation)
_RELATIONS_OF = _RELATIONS.where(_REL.c.parcel_id.in_(bindparam("pids", expanding=True)))
_PARCELS = (select(Parcel).where(Parcel.id.in_(bindparam("pids", expanding=True)))
            .order_by(Parcel.catastro))
# The parcel and the user's relations to it, over the parcel's columns: a Core statement
# giving plain rows for `rows=True` (read-only pages; the relation is the last column), and
# the same statement loads the `Parcel` for `rows=False`.
_PARCEL_ROW = select(_PARCEL_TABLE).where(_PARCEL_TABLE.c.id == bindparam("pid"))
_PARCEL_ROW_AND_RELATION = (
    select(_PARCEL_TABLE, _REL.c.relation)
    .join(_REL, _REL.c.parcel_id == _PARCEL_TABLE.c.id)
    .where(_PARCEL_TABLE.c.id == bindparam("pid")))
_PARCEL_AND_RELATION = select(Parcel, _REL.c.relation).from_statement(_PARCEL_ROW_AND_RELATION)
ParcelRecord = record_type(Parcel, "ParcelRecord")
_PARCEL_WIDTH = len(_PARCEL_TABLE.c)
_REL_OF_PID = _relations_union(of_pid=True).subquery("rel")
# SQL: the strongest relation of the user :uid to the parcel :pid on :today (`_STRENGTH`),
# NULL when there is none.
_STRONGEST_OF_PID = (
    select(_REL_OF_PID.c.relation)
    .order_by(case(_STRENGTH, value=_REL_OF_PID.c.relation, else_=len(_STRENGTH)))
    .limit(1).scalar_subquery())


def relation_to_pid(*, staff: bool) -> ColumnElement[str]:
    """SQL: the user's relation to the parcel :pid, so that one statement reads a parcel
    and checks access to it (a hot page): "staff" for staff, who see every parcel; for
    anyone else the strongest of their relations to it on :today (the user :uid: see
    `relation_params`), NULL when they may not see it. `visible_relation` turns the
    selected value into the relation or `NotFound`."""
    return literal("staff") if staff else _STRONGEST_OF_PID


def relation_params(user: Any) -> dict[str, Any]:
    """The bound parameters of `relation_to_pid(staff=is_staff(user))` for the user
    (without :pid; none for staff); `NotFound` for no signed-in user."""
    return {} if is_staff(user) else _rel_params(user)


def linked_relations(*, loans: bool = True) -> Any:
    """SQL (a subquery): (parcel_id, relation) for every way the user :uid is linked to a
    parcel on :today (parameters: `link_params`), for a statement that reads the linked
    parcels with more (the dashboard); not `loans`: their own links only, without their
    lenders' loans. Several rows for a parcel linked several ways: `strongest` names it."""
    return _REL if loans else _REL_OWN


def link_params(user: Any) -> dict[str, Any]:
    """The bound parameters of `linked_relations` for the user (staff too: their own links);
    `NotFound` for no signed-in user."""
    return _rel_params(user)


def strongest(relations: Sequence[str]) -> str:
    """The relation that names a parcel the user is linked to in several ways."""
    return min(relations, key=_STRENGTH.__getitem__)


def visible_relation(selected: str | None) -> str:
    """The relation `relation_to_pid` selected (None also when no row was found: no such
    parcel); `NotFound` when the user may not see the parcel."""
    if selected is None:
        raise NotFound()
    return selected


def _rel_params(user: Any) -> dict[str, Any]:
    return {"uid": _uid(user), "today": clock.today()}


def relations(uow: UnitOfWork, user: Any, parcel_ids: Sequence[int] | None = None
              ) -> dict[int, str]:
    """{parcel_id: strongest relation} for the parcels the user is linked to (not staff's)."""
    params = _rel_params(user)
    if parcel_ids is None:
        result = uow.session.execute(_RELATIONS, params)
    else:
        result = uow.session.execute(_RELATIONS_OF, {**params, "pids": list(parcel_ids)})
    out: dict[int, str] = {}
    for pid, rel in result:
        if pid not in out or _STRENGTH[rel] < _STRENGTH[out[pid]]:
            out[pid] = rel
    return out


def relation(uow: UnitOfWork, user: Any, parcel_id: int) -> str | None:
    """How the user relates to the parcel: "staff", "owner", "lessee", "delegate", "lender",
    or None when they may not see it."""
    if is_staff(user):
        return "staff"
    if user is None or getattr(user, "id", None) is None:
        return None
    return relations(uow, user, [int(parcel_id)]).get(int(parcel_id))


def visible_parcel_ids(user: Any) -> Select:
    """A SELECT of the ids of the parcels the user may see (for use inside other queries)."""
    if is_staff(user):
        return select(Parcel.id)
    q = relations_query(user).subquery()
    return select(q.c.parcel_id)


def visible_parcels(uow: UnitOfWork, user: Any, *, limit: int | None = None,
                    offset: int = 0) -> list[Parcel]:
    """The parcels the user may see, by catastro number. For staff: every parcel (use
    `limit`, or `search_parcels`); staff's dashboard uses `linked_parcels`."""
    if user is None or getattr(user, "id", None) is None:
        return []
    stmt = (select(Parcel).where(Parcel.id.in_(visible_parcel_ids(user)))
            .order_by(Parcel.catastro).offset(offset))
    if limit is not None:
        stmt = stmt.limit(limit)
    return list(uow.session.scalars(stmt))


def linked_parcels(uow: UnitOfWork, user: Any) -> list[tuple[Parcel, str]]:
    """(parcel, relation) for the parcels the user is linked to: links and loans (the
    dashboard; staff see here only the parcels linked to them personally)."""
    if user is None or getattr(user, "id", None) is None:
        return []
    rel = relations(uow, user)
    if not rel:
        return []
    parcels = uow.session.scalars(_PARCELS, {"pids": list(rel)}).all()
    return [(p, rel[p.id]) for p in parcels]


# The user's linked parcels with each relation, over the parcels' columns: one Core statement
# for `linked_parcel_rows` (a parcel linked several ways comes once per relation).
_LINKED_PARCEL_ROWS = (select(_PARCEL_TABLE, _REL.c.relation)
                       .join(_REL, _REL.c.parcel_id == _PARCEL_TABLE.c.id)
                       .order_by(_PARCEL_TABLE.c.catastro, _PARCEL_TABLE.c.id))


def linked_parcel_rows(uow: UnitOfWork, user: Any) -> list[tuple[Any, str]]:
    """`linked_parcels` in one statement, each parcel a plain record of its columns
    (`ParcelRecord`, not a `Parcel`: read-only pages), by catastro number."""
    if user is None or getattr(user, "id", None) is None:
        return []
    parcels: dict[int, Any] = {}
    best: dict[int, str] = {}
    for row in uow.session.execute(_LINKED_PARCEL_ROWS, _rel_params(user)):
        p, rel = ParcelRecord._make(row[:_PARCEL_WIDTH]), row[-1]
        if p.id not in best:
            parcels[p.id], best[p.id] = p, rel
        elif _STRENGTH[rel] < _STRENGTH[best[p.id]]:
            best[p.id] = rel
    return [(p, best[pid]) for pid, p in parcels.items()]


def get_parcel(uow: UnitOfWork, user: Any, parcel_id: int | str) -> Parcel:
    """The parcel, if the user may see it; `NotFound` otherwise (also for a bad id)."""
    return get_parcel_and_relation(uow, user, parcel_id)[0]


def get_parcel_and_relation(uow: UnitOfWork, user: Any, parcel_id: int | str, *,
                            rows: bool = False) -> tuple[Parcel, str]:
    """(parcel, relation) if the user may see it; `NotFound` otherwise. `rows=True`
    (read-only pages): the parcel is a plain record of its columns, not a `Parcel`."""
    pid = parse_id(parcel_id)
    if is_staff(user):
        if rows:
            row = uow.session.execute(_PARCEL_ROW, {"pid": pid}).first()
            parcel = ParcelRecord._make(row) if row is not None else None
        else:
            parcel = uow.session.get(Parcel, pid)
        if parcel is None:
            raise NotFound()
        return parcel, "staff"
    if user is None or getattr(user, "id", None) is None:
        raise NotFound()
    params = {**_rel_params(user), "pid": pid}
    if rows:
        found = uow.session.execute(_PARCEL_ROW_AND_RELATION, params).all()
        if not found:
            raise NotFound()
        parcel = ParcelRecord._make(found[0][:_PARCEL_WIDTH])
        return parcel, min((r[-1] for r in found), key=_STRENGTH.__getitem__)
    found = uow.session.execute(_PARCEL_AND_RELATION, params).all()
    if not found:
        raise NotFound()
    return found[0][0], min((r for _, r in found), key=_STRENGTH.__getitem__)


def require_staff(user: Any) -> None:
    if not is_staff(user):
        raise Forbidden()


# Staff roles (docs/STAFF.md): what a staff member may change. Every role sees every staff
# page; `require_staff_role` guards the services that change state.
ADMINISTRATOR, REVIEWER, CASHIER, READ_ONLY = STAFF_ROLES
#: Who may do what: budgets, the roll, roles and two-step resets are the administrator's; the
#: payments office and refunds, the cashier's too.
MANAGE = (ADMINISTRATOR,)
TAKE_PAYMENTS = (CASHIER, ADMINISTRATOR)
#: Decisions on a person's filing or access (exemption reviews, change reports, access codes).
REVIEW = (ADMINISTRATOR, REVIEWER)
#: Recording what happened (a demand queued, mailed, received): every role but read-only.
RECORD = (ADMINISTRATOR, REVIEWER, CASHIER)


def staff_role(user: Any) -> str | None:
    """The user's staff role (None for someone who is not staff); staff without one set
    are administrators (`User.role`)."""
    if not is_staff(user):
        return None
    return getattr(user, "staff_role", None) or ADMINISTRATOR


def has_staff_role(user: Any, *roles: str) -> bool:
    """Whether the user is staff with one of `roles`."""
    return staff_role(user) in roles


def require_staff_role(user: Any, *roles: str) -> None:
    """`Forbidden` unless the user is staff with one of `roles` (the web answers 404 to
    someone who is not staff at all, 403 to staff without the role)."""
    if not has_staff_role(user, *roles):
        raise Forbidden()


def is_payer_of(user: Any, checkout: Any) -> bool:
    """Is the user the one who started this checkout (an online payment)? Only they may act
    on it: complete, decline or cancel it, or (test mode) answer for their bank. Seeing it
    (its receipt) is not enough: not for a delegate, a lender, another payer or staff."""
    uid = getattr(user, "id", None)
    payer = getattr(checkout, "user_id", None)
    return uid is not None and payer is not None and int(payer) == int(uid)


def require_payer_of(user: Any, checkout: Any) -> None:
    """`Forbidden` unless the user started the checkout (`is_payer_of`)."""
    if not is_payer_of(user, checkout):
        raise Forbidden()


def search_parcels(uow: UnitOfWork, user: Any, query: str, limit: int = 50) -> list[Parcel]:
    """Parcels whose catastro number or address contains `query` (its "%" and "_" are the
    characters themselves, not wildcards), among those visible."""
    q = (query or "").strip().lower()
    if not q:
        return []
    stmt = (select(Parcel)
            .where(Parcel.id.in_(visible_parcel_ids(user)),
                   or_(func.lower(Parcel.catastro).contains(q, autoescape=True),
                       func.lower(Parcel.address).contains(q, autoescape=True)))
            .order_by(Parcel.catastro).limit(limit))
    return list(uow.session.scalars(stmt))


def get_payment(uow: UnitOfWork, user: Any, payment_id: int | str) -> Payment:
    pid = parse_id(payment_id)
    payment = uow.session.get(Payment, pid)
    if payment is None or relation(uow, user, payment.parcel_id) is None:
        raise NotFound()
    return payment


def visible_payments(uow: UnitOfWork, user: Any, parcel_id: int,
                     fiscal_year_id: int | None = None) -> list[Payment]:
    parcel = get_parcel(uow, user, parcel_id)
    stmt = select(Payment).where(Payment.parcel_id == parcel.id)
    if fiscal_year_id is not None:
        stmt = stmt.where(Payment.fiscal_year_id == fiscal_year_id)
    return list(uow.session.scalars(stmt.order_by(Payment.created_at, Payment.id)))


def get_notice(uow: UnitOfWork, user: Any, notice_id: int | str) -> Notice:
    nid = parse_id(notice_id)
    notice = uow.session.get(Notice, nid)
    if notice is None or relation(uow, user, notice.parcel_id) is None:
        raise NotFound()
    return notice


def visible_notices(uow: UnitOfWork, user: Any, parcel_id: int,
                    fiscal_year_id: int | None = None) -> list[Notice]:
    parcel = get_parcel(uow, user, parcel_id)
    stmt = select(Notice).where(Notice.parcel_id == parcel.id)
    if fiscal_year_id is not None:
        stmt = stmt.where(Notice.fiscal_year_id == fiscal_year_id)
    return list(uow.session.scalars(stmt.order_by(Notice.created_at, Notice.id)))


LoanRecord = record_type(Loan, "LoanRecord")


class LoanPage(NamedTuple):
    """A page of the lender's loans (loan, parcel), and how many loans there are in all."""

    loans: list[tuple[Any, Any]]
    total: int


# The lender's pages (built once): a page of loans with their parcels, by loan number, and the
# number of loans in all, so that a page costs about the same for 50 loans as for 5,000. The
# page's loan ids are chosen first and only their parcels are read (the 40th page of 2,000
# loans: 1.0 ms, against 2.0 ms when every loan's parcel is joined before OFFSET), and the
# loans are counted apart, only when the page does not show them all (a window count in the
# same statement was slower).
_PAGE_IDS = (_lender_loans(_LOANS.c.id).order_by(_LOANS.c.loan_number, _LOANS.c.id)
             .limit(bindparam("limit")).offset(bindparam("offset")).subquery("page"))
_LENDER_LOANS = (select(_LOANS, _PARCEL_TABLE)
                 .join(_PAGE_IDS, _PAGE_IDS.c.id == _LOANS.c.id)
                 .join(_PARCEL_TABLE, _PARCEL_TABLE.c.id == _LOANS.c.parcel_id)
                 .order_by(_LOANS.c.loan_number, _LOANS.c.id))
_LENDER_LOAN_COUNT = _lender_loans(func.count())
_LOAN_WIDTH = len(_LOANS.c)


def lender_loans(uow: UnitOfWork, user: Any, *, offset: int = 0, limit: int | None = None
                 ) -> LoanPage:
    """The active loans of the lenders the user works for, with their parcels (read-only
    records), by loan number: `limit` of them from `offset` (all by default), and how many
    there are in all (counted apart only when the page does not show them all: it reads
    one loan more than it shows to know)."""
    params = {**_rel_params(user), "offset": offset,
              "limit": MAX_ID if limit is None else limit + 1}
    rows = uow.session.execute(_LENDER_LOANS, params).all()
    loans = [(LoanRecord._make(r[:_LOAN_WIDTH]), ParcelRecord._make(r[_LOAN_WIDTH:]))
             for r in rows[:limit]]
    if offset == 0 and len(rows) == len(loans):
        return LoanPage(loans, len(loans))
    return LoanPage(loans, lender_loan_count(uow, user))


def lender_loan_count(uow: UnitOfWork, user: Any) -> int:
    """How many active loans the lenders the user works for hold."""
    return uow.session.scalar(_LENDER_LOAN_COUNT, _rel_params(user)) or 0


def lender_loans_query(*columns: Any) -> Select:
    """SQL over `loans`: the active loans on :today of the lenders the user :uid works for
    (parameters: `lender_loan_params`), for the portfolio's statements (portal.lenders.portfolio)
    to join, filter and sort."""
    return _lender_loans(*columns)


def lender_loan_params(user: Any) -> dict[str, Any]:
    """The bound parameters of `lender_loans_query` for the user; `NotFound` for no one."""
    return _rel_params(user)


def parcels_delegated_to_pay(uow: UnitOfWork, user: Any, parcel_ids: Sequence[int]
                             ) -> set[int]:
    """Of `parcel_ids`, those the user holds a live delegate's link to that its owner allowed
    to pay (`ParcelLink.may_pay`)."""
    if user is None or getattr(user, "id", None) is None or not parcel_ids:
        return set()
    return set(uow.session.scalars(select(ParcelLink.parcel_id).where(
        ParcelLink.user_id == user.id, ParcelLink.parcel_id.in_(list(parcel_ids)),
        ParcelLink.role == "delegate", ParcelLink.may_pay.is_(True),
        ParcelLink.revoked_at.is_(None))))


def linked_parcels_of(uow: UnitOfWork, user: Any, parcel_ids: Sequence[int]
                      ) -> list[tuple[Parcel, str]]:
    """`linked_parcels` for these parcels only (the ones the user is linked to among them),
    so that a lender's payment for 200 of its 5,000 loans reads those 200."""
    if user is None or getattr(user, "id", None) is None or not parcel_ids:
        return []
    rel = relations(uow, user, list(parcel_ids))
    if not rel:
        return []
    parcels = uow.session.scalars(_PARCELS, {"pids": list(rel)}).all()
    return [(p, rel[p.id]) for p in parcels]


def loans_of_lender_query(*columns: Any) -> Select:
    """SQL over `loans`: the active loans on :today of the lender :lender_id (an API token
    acts for its lender, not for a user)."""
    return (select(*columns).select_from(_LOANS)
            .where(_LOANS.c.lender_id == bindparam("lender_id"), _LOANS.c.starts_on <= _TODAY,
                   or_(_LOANS.c.ends_on.is_(None), _LOANS.c.ends_on >= _TODAY)))
