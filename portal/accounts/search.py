"""The staff search: one box over the roll (catastro number, owner's name),
the portal's accounts (name, email), lessees (name, contract), loans (loan number) and
exemption filings (filing number), accent- and case-insensitive.

Both sides of the match are folded by `portal_fold` (`portal.core.fold`: NFKD without its
combining marks, lower case): a Python function SQLite registers on each connection
(`portal/db.py`), an IMMUTABLE SQL function over `unaccent` on PostgreSQL (migration bo281),
whose trigram GIN indexes serve `portal_fold(col) LIKE '%term%'`. The typed text is folded
here in Python and its "%" and "_" are escaped, so they are the characters themselves.

Each kind is counted and paged on its own (`PAGE` a page) in SQL: nothing reads the whole
roll into memory. Staff only (`access.require_staff`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, exists, func, or_, select

from portal import clock
from portal.accounts import access
from portal.core.fold import fold
from portal.db import UnitOfWork
from portal.models import (
    ExemptionCertification,
    Lease,
    Lender,
    Loan,
    OwnershipShare,
    Parcel,
    Party,
    User,
)

#: The kinds of result, in the order the page shows them.
KINDS = ("parcels", "accounts", "lessees", "loans", "filings")
#: Results a kind shows per page.
PAGE = 20
#: The shortest search: one or two letters would match most of the island.
MIN_LENGTH = 2
MAX_LENGTH = 120


@dataclass(frozen=True)
class Hit:
    """One result: which kind, the id its staff page takes, and what the list shows."""

    kind: str
    id: int
    title: str
    detail: str
    extra: str = ""


@dataclass(frozen=True)
class KindResults:
    kind: str
    hits: list[Hit]
    total: int
    page: int
    pages: int


def term(query: str) -> str | None:
    """The folded search text, or None when it is too short or too long to search."""
    q = " ".join((query or "").split())
    if not MIN_LENGTH <= len(q) <= MAX_LENGTH:
        return None
    return fold(q)


def _like(column: Any, folded: str) -> ColumnElement[bool]:
    escaped = folded.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return func.portal_fold(column).like(f"%{escaped}%", escape="\\")


def _queries(folded: str) -> dict[str, Select]:
    today = clock.today()
    owner_match = exists().where(
        OwnershipShare.parcel_id == Parcel.id, OwnershipShare.party_id == Party.id,
        or_(OwnershipShare.ends_on.is_(None), OwnershipShare.ends_on >= today),
        _like(Party.name, folded))
    return {
        "parcels": select(Parcel.id, Parcel.catastro, Parcel.address, Parcel.municipality)
        .where(or_(_like(Parcel.catastro, folded), owner_match))
        .order_by(Parcel.catastro, Parcel.id),
        "accounts": select(User.id, User.name, User.email, User.is_staff)
        .where(or_(_like(User.name, folded), _like(User.email, folded)))
        .order_by(User.email, User.id),
        "lessees": select(Lease.parcel_id, Party.name, Parcel.catastro,
                          func.coalesce(Lease.contract_number, ""))
        .join(Party, Party.id == Lease.lessee_party_id)
        .join(Parcel, Parcel.id == Lease.parcel_id)
        .where(or_(_like(Party.name, folded), _like(Lease.contract_number, folded)),
               or_(Lease.ends_on.is_(None), Lease.ends_on >= today))
        .order_by(Party.name, Lease.id),
        "loans": select(Loan.parcel_id, Loan.loan_number, Parcel.catastro, Party.name)
        .join(Lender, Lender.id == Loan.lender_id)
        .join(Party, Party.id == Lender.party_id)
        .join(Parcel, Parcel.id == Loan.parcel_id)
        .where(_like(Loan.loan_number, folded),
               or_(Loan.ends_on.is_(None), Loan.ends_on >= today))
        .order_by(Loan.loan_number, Loan.id),
        "filings": select(ExemptionCertification.id, ExemptionCertification.filing_number,
                          Parcel.catastro, ExemptionCertification.status)
        .join(Parcel, Parcel.id == ExemptionCertification.parcel_id)
        .where(and_(ExemptionCertification.filing_number.is_not(None),
                    _like(ExemptionCertification.filing_number, folded)))
        .order_by(ExemptionCertification.filing_number),
    }


def search(uow: UnitOfWork, user: Any, query: str, *, kind: str | None = None,
           page: int = 1) -> list[KindResults] | None:
    """Every kind's first page (or `kind`'s page `page`), each with its total; None when
    the text is too short or too long to search. Kinds with no match are left out."""
    access.require_staff(user)
    folded = term(query)
    if folded is None:
        return None
    queries = _queries(folded)
    out = []
    for k in KINDS if kind is None else (kind,):
        q = queries[k]
        total = int(uow.session.scalar(select(func.count()).select_from(q.subquery())) or 0)
        if not total:
            continue
        pages = max(1, -(-total // PAGE))
        current = min(max(1, page), pages)
        rows = uow.session.execute(q.limit(PAGE).offset((current - 1) * PAGE)).all()
        out.append(KindResults(k, [Hit(k, *_shown(k, r)) for r in rows], total, current,
                               pages))
    return out


def _shown(kind: str, row: Any) -> tuple[int, str, str, str]:
    a, b, c, d = row
    if kind == "accounts":
        return a, b or c, c, "staff" if d else ""
    return a, b or "", c or "", d or ""
