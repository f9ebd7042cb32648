"""A lender's portfolio at scale (J7): filters, sort, totals and pages in SQL; the CSV export
streamed in batches; the parcels of a filtered set for one payment.

Each loan's figures (status, this year's assessment, due now, next due date) are computed by
the core (`accounts._summaries`: the parcel's statement and offer, R-A5–A8), once per loan and
day, and kept in `loan_figures` with the versions of the facts they were computed from; a
loan is computed again when its figures are of another day or a fact they read was written
since: a ledger entry, assessment or installment of its parcel (a payment, a fee, an
amendment: the loan's `facts_version`) or a value, closed day or fiscal year of the District
(its version), each raised in the fact's own transaction (`models.fact_versions`;
`_out_of_date`). A lender's totals over its loans' figures and the municipalities of its
loans are kept too (`lender_figures`: `_kept`, `_keep`), holding while no loan is behind them
(one probe of a partial index, `models.fact_versions`): so the first page of a lender with
5,000 loans reads its kept totals and one page of rows (the page's loans chosen first, then
only theirs read: `_page_rows`, `_one_lender_rows`); a filtered page reads one aggregate
(the check of every loan's figures, a comparison of versions on the loan's row, and the
filtered set's totals, in one pass: `_checked_totals`). Only loans whose figures are out of
date are computed, in batches (constant memory).
The same refresh keeps what the lender's dashboard shows beyond the list's columns (`SHOWN`),
so that the dashboard reads its rows from here (`dashboard_loans`).

Each row also carries the loan's latest acquisition of a new structure (R-B10 iii, R-B21) with
its 30-day notice deadline, rolled by the core (`core.acquisition.lender_notice`, through
`lender_acquisitions.deadline`): the date comes with the page's rows (a correlated subquery),
the deadline is computed for the rows read. See docs/LENDERS.md.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from decimal import Decimal
from functools import lru_cache
from typing import Any, NamedTuple

from sqlalchemy import (
    and_,
    bindparam,
    case,
    exists,
    func,
    literal_column,
    or_,
    select,
    update,
)

from portal import clock, csv_text
from portal.accounts import access, statements
from portal.accounts.statements import fiscal_year_on
from portal.core.acquisition import NoticeDeadline
from portal.db import Database, UnitOfWork
from portal.lenders import acquisitions
from portal.models import (
    ExemptionCertification,
    Lender,
    LenderAcquisition,
    LenderFigures,
    Loan,
    LoanFigures,
    Parcel,
    PartyMember,
    fact_versions,
)

L, F, P = Loan.__table__, LoanFigures.__table__, Parcel.__table__
K, LN, M = LenderFigures.__table__, Lender.__table__, PartyMember.__table__
A = LenderAcquisition.__table__

#: SQL: the date of the loan's latest reported acquisition (R-B10 iii), NULL for none. By the
#: loan (never the parcel): another lender's loan on the same parcel has its own.
ACQUIRED = (select(func.max(A.c.acquired_on)).where(A.c.loan_id == L.c.id)
            .correlate(L).scalar_subquery())

STATUSES = ("current", "pending", "overdue", "none")
#: The columns a portfolio may be sorted by (a whitelist: nothing else reaches ORDER BY).
SORTS = {
    "loan": L.c.loan_number, "catastro": P.c.catastro, "municipality": P.c.municipality,
    "status": F.c.status, "annual": F.c.annual, "due": F.c.due_now, "next_due": F.c.next_due,
}
#: The page's sort by the acquisition notice's last day (not offered by the API, whose loans
#: carry no acquisition): by the acquisition's date, the same order (`_notice_bounds`).
NOTICE_SORT = "notice"
#: The acquisition filter: a loan with one reported, its notice overdue, or due within N days.
NOTICES = ("reported", "overdue")
PER_PAGE = 50
BATCH = 500
#: One payment covers at most this many loans (the payments' review lists each one).
MAX_PAY = 200


@dataclass(frozen=True)
class Query:
    """What the lender asked for: filters (all optional), the sort and the page."""

    q: str = ""  # the start of a loan number or a catastro number
    status: str = ""
    municipality: str = ""
    due_min: Decimal | None = None
    due_max: Decimal | None = None
    due_within: int | None = None  # the next due date within this many days
    certification: str = ""  # the year's residential exemption: approved, pending or none
    notice: str = ""  # the latest acquisition: "reported" (any) or its notice "overdue"
    notice_within: int | None = None  # its notice's last day within this many days
    sort: str = "loan"
    desc: bool = False
    page: int = 1


@dataclass(frozen=True)
class Row:
    loan_id: int
    loan_number: str
    parcel_id: int
    catastro: str
    address: str
    municipality: str
    status: str
    annual: Decimal | None
    due_now: Decimal
    next_due: date | None
    due_now_by: date | None  # the last day to pay `due_now` on time (the offer's)
    acquired_on: date | None = None  # the latest acquisition of a new structure, if any
    notice: NoticeDeadline | None = None  # its notice's last day (rolled), seen on the day


@dataclass(frozen=True)
class Page:
    rows: list[Row]
    count: int  # loans matching the filters
    due_total: Decimal  # their amounts due now, summed in SQL
    annual_total: Decimal
    page: int
    pages: int
    as_of: date


@dataclass(frozen=True)
class LenderScope:
    """The loans of one lender (an API token's), instead of a signed-in user's lenders'."""

    lender_id: int


def _base(who: Any) -> tuple[Any, dict[str, Any]]:
    """(the statement builder over the active loans, its parameters) for a user (their
    lenders' loans, `access.lender_loans_query`) or a `LenderScope`."""
    if isinstance(who, LenderScope):
        return access.loans_of_lender_query, {"lender_id": who.lender_id,
                                              "today": clock.today()}
    return access.lender_loans_query, access.lender_loan_params(who)


_ROW_COLUMNS = (L.c.id, L.c.loan_number, P.c.id, P.c.catastro, P.c.address, P.c.municipality,
                F.c.status, F.c.annual, F.c.due_now, F.c.next_due, F.c.due_now_by,
                ACQUIRED.label("acquired_on"))


def _with_notice(uow: UnitOfWork, found: Sequence[Any], today: date) -> Row:
    """A row read with `_ROW_COLUMNS`, with its acquisition's notice deadline (the core's)."""
    row = Row(*found)
    if row.acquired_on is None:
        return row
    return replace(row, notice=acquisitions.deadline(uow, row.acquired_on, today))


def _upsert(uow: UnitOfWork, table: Any = F) -> Any:
    """An INSERT into `table` (the loans' kept figures by default) that can take ON CONFLICT,
    in the database's dialect."""
    from sqlalchemy.dialects import postgresql, sqlite
    dialect = uow.session.get_bind().dialect.name
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(table)


# --- the figures of the day ----------------------------------------------------------------

#: The day the figures are wanted for (bound with the statements' other parameters): the
#: statements below are built once per process, not on every page.
_AS_OF = bindparam("as_of")


#: SQL: the District's version now (`models.fact_versions`: raised with each value or closed
#: day the Board adopted, each fiscal year, each batch of facts), 0 before any.
DISTRICT = func.coalesce(fact_versions.district_version, 0)


def _out_of_date() -> Any:
    """SQL: the loan's figures are missing, of another day than :as_of, or computed from
    other versions of the facts than there are now: the loan's (`loans.facts_version`,
    raised with each ledger entry, assessment or installment of its parcel) or the
    District's (`DISTRICT`), over loans outer-joined to their figures. Versions, not times
    or ids: a payment whose transaction began before a refresh and committed after it
    carries an earlier time and may carry a lower id than the figures saw, yet it raised
    the version when it committed."""
    return or_(F.c.loan_id.is_(None), F.c.as_of != _AS_OF,
               F.c.loan_version != L.c.facts_version, F.c.district_version != DISTRICT)


@lru_cache(maxsize=4)
def _stale(base: Any) -> Any:
    """SQL: the first `BATCH` loans whose figures are out of date (`_out_of_date`), built
    once per statement builder (`_base`)."""
    return (base(L.c.id, L.c.lender_id, L.c.facts_version, DISTRICT.label("district"), *P.c)
            .join(P, P.c.id == L.c.parcel_id)
            .outerjoin(F, F.c.loan_id == L.c.id)
            .where(_out_of_date())
            .order_by(L.c.id).limit(BATCH))


def refresh(uow: UnitOfWork, user: Any, today: date | None = None, *,
            behind: bool = True) -> int:
    """Compute the figures of the user's loans that are out of date (`_stale`), in batches of
    `BATCH`; how many were computed. The core computes each (accounts' summaries). The
    versions of the facts are read (in the statement that finds the loans) before the core
    reads the facts: a fact committed in between is read, but its raised version is not the
    one kept, so the loan is computed again on the next read, never left out of date. The
    loans computed are marked behind their lender's kept totals (`behind`; not when the
    totals are being recomputed from them, `_keep`)."""
    today = today or clock.today()
    base, params = _base(user)
    params = {**params, "as_of": today}
    fy: Any = None
    done = 0
    while True:
        rows = uow.session.execute(_stale(base), params).all()
        if not rows:
            return done
        if done == 0:  # read only when a loan is out of date
            fy = fiscal_year_on(uow, today)
        parcels = [(access.ParcelRecord._make(r[4:]), "lender") for r in rows]
        summaries = statements._summaries(uow, parcels, today, fy) if fy is not None else []
        now = clock.now()
        values = []
        for i, r in enumerate(rows):
            s = summaries[i] if summaries else None
            values.append({
                "loan_id": r[0], "lender_id": r[1], "loan_version": r[2],
                "district_version": r[3], "as_of": today,
                "computed_at": now,
                "status": s.status if s is not None else "none",
                "annual": s.annual if s is not None else None,
                "due_now": s.due_now if s is not None else Decimal("0.00"),
                "due_now_by": s.due_now_by if s is not None else None,
                "next_due": s.next_due_date if s is not None else None,
                **_shown(s)})
        # An upsert: two pages of the same lender computing at once both write, neither fails.
        stmt = _upsert(uow)
        uow.session.execute(stmt.on_conflict_do_update(
            index_elements=[F.c.loan_id],
            set_={c: stmt.excluded[c] for c in ("lender_id", "as_of", "status", "annual",
                                                "due_now", "due_now_by", "next_due",
                                                *SHOWN, "loan_version", "district_version",
                                                "computed_at")}),
            values)
        if behind:  # figures computed again: not those their lender's kept totals include
            uow.session.execute(_NOT_INCLUDED, {"ids": [r[0] for r in rows]})
        uow.session.flush()
        done += len(rows)
        if len(rows) < BATCH:
            return done


#: SQL: these loans' figures are not those their lenders' kept totals include (`_keep`).
_NOT_INCLUDED = (update(L).where(L.c.id.in_(bindparam("ids", expanding=True)),
                                 L.c.figures_version != -1)
                 .values(figures_version=-1))


#: The columns of `loan_figures` that only the dashboard shows (`dashboard_loans`), written at
#: each refresh from the same offer as the others.
SHOWN = ("due_now_count", "next_amount", "next_count", "next_last_day", "lump_amount",
         "lump_discount", "lump_by")


def _shown(s: Any) -> dict[str, Any]:
    """`SHOWN` from a loan's parcel summary (`statements.ParcelSummary`; None: no year)."""
    offer = s.offer if s is not None else None
    nxt = offer.next_due if offer is not None else None
    lump = offer.lump_sum if offer is not None and offer.lump_sum.eligible else None
    return {"due_now_count": offer.due_now_count if offer is not None else 0,
            "next_amount": nxt.owed if nxt is not None else None,
            "next_count": nxt.count if nxt is not None else 0,
            "next_last_day": nxt.last_timely_day if nxt is not None else None,
            "lump_amount": lump.amount if lump is not None else None,
            "lump_discount": lump.discount if lump is not None else None,
            "lump_by": lump.deadline if lump is not None else None}


# --- the dashboard's rows ------------------------------------------------------------------

class KeptLump(NamedTuple):
    """R-A11's one-payment option while it is open, as the core offered it at the refresh
    (the fields of `core.offer.LumpSumOption` that the dashboard shows)."""

    amount: Decimal
    discount: Decimal
    deadline: date


@dataclass(frozen=True)
class DashboardLoan:
    """A loan's parcel as the dashboard shows it, from its kept figures (the core's offer)."""

    parcel_id: int
    catastro: str
    address: str
    municipality: str
    status: str
    due_now: Decimal
    due_now_by: date | None
    due_now_count: int
    annual: Decimal | None
    next_due: date | None
    next_amount: Decimal | None
    next_count: int
    next_last_day: date | None
    lump: KeptLump | None


_DASHBOARD_COLUMNS = (P.c.id, P.c.catastro, P.c.address, P.c.municipality, F.c.status,
                      F.c.due_now, F.c.due_now_by, F.c.due_now_count, F.c.annual, F.c.next_due,
                      F.c.next_amount, F.c.next_count, F.c.next_last_day, F.c.lump_amount,
                      F.c.lump_discount, F.c.lump_by)


@lru_cache(maxsize=4)
def _dashboard(base: Any) -> Any:
    """SQL: the builder's loans with their parcels and kept figures, by catastro number, each
    with whether its figures are out of date on :as_of (`_out_of_date`)."""
    stale = case((_out_of_date(), 1), else_=0)
    return (base(*_DASHBOARD_COLUMNS, stale).join(P, P.c.id == L.c.parcel_id)
            .outerjoin(F, F.c.loan_id == L.c.id).order_by(P.c.catastro, P.c.id, L.c.id))


def dashboard_loans(uow: UnitOfWork, user: Any, today: date | None = None
                    ) -> list[DashboardLoan]:
    """The parcels of the user's loans with their figures of `today`, by catastro number (a
    parcel once, however many of the user's loans it carries), read in one statement with
    whether each loan's figures are out of date: only then are they computed again (`refresh`,
    through the core) and read again. For the dashboard of a lender whose loans fit one page
    of its list: no figure is computed on a view while they are fresh."""
    today = today or clock.today()
    base, params = _base(user)
    params = {**params, "as_of": today}
    stmt = _dashboard(base)
    found = uow.session.execute(stmt, params).all()
    if any(r[-1] for r in found):
        refresh(uow, user, today)
        found = uow.session.execute(stmt, params).all()
    out: list[DashboardLoan] = []
    seen: set[int] = set()
    for r in found:
        if r[0] in seen:
            continue
        seen.add(r[0])
        lump = KeptLump(r[13], r[14], r[15]) if r[13] is not None else None
        out.append(DashboardLoan(*r[:13], lump))
    return out


_BY_CATASTRO = (select(P.c.id).where(P.c.id.in_(bindparam("ids", expanding=True)))
                .order_by(P.c.catastro, P.c.id))


def by_catastro(uow: UnitOfWork, parcel_ids: Sequence[int]) -> list[int]:
    """`parcel_ids` in the dashboard's order (catastro number, then id) as the database
    sorts them (its collation): a lender's loans merged with the user's own links."""
    return list(uow.session.scalars(_BY_CATASTRO, {"ids": [int(p) for p in parcel_ids]}))


# --- filters, sort, pages ------------------------------------------------------------------

#: The portfolio's certification filter (J5's states, R-B6): "approved", "pending" (filed,
#: under review, returned or resubmitted) or "none" (neither) for the fiscal year of today.
CERTIFICATIONS = ("approved", "pending", "none")


def _certified(kind: str, today: date) -> Any:
    from portal.models import ExemptionCertification
    from portal.models.exemptions import EXEMPTION_HOLDING, EXEMPTION_PENDING
    C = ExemptionCertification.__table__  # noqa: N806
    statuses = {"approved": ("approved",), "pending": EXEMPTION_PENDING,
                "none": EXEMPTION_HOLDING}[kind]
    found = exists().where(C.c.parcel_id == L.c.parcel_id,
                           C.c.fiscal_year_start == fiscal_year_start(today),
                           C.c.status.in_(statuses))
    return ~found if kind == "none" else found


def _last_acquired(uow: UnitOfWork, day: date, today: date) -> date:
    """The latest acquisition date whose notice's last day (the core's, rolled) is on or
    before `day`. A later acquisition never has an earlier last day (30 days on, then rolled
    forward to a working day), so an acquisition's last day is on or before `day` exactly
    when it was acquired on or before this date: the filter in SQL is the core's answer."""
    acquired = day
    while acquisitions.deadline(uow, acquired, today).last_day > day:
        acquired -= timedelta(days=1)
    return acquired


def _notice_where(uow: UnitOfWork, query: Query, today: date) -> list[Any]:
    """SQL for the acquisition filter: overdue from the day after the last day; due within N
    days: the last day from today to today + N (R-B10 iii, R-B21)."""
    out = []
    if query.notice == "reported":
        out.append(ACQUIRED.is_not(None))
    if query.notice == "overdue" or query.notice_within is not None:
        overdue = _last_acquired(uow, today - timedelta(days=1), today)
        if query.notice == "overdue":
            out.append(ACQUIRED <= overdue)
        if query.notice_within is not None:
            out.append(and_(ACQUIRED > overdue, ACQUIRED <= _last_acquired(
                uow, today + timedelta(days=query.notice_within), today)))
    return out


def _where(uow: UnitOfWork, query: Query, today: date) -> list[Any]:
    out = _notice_where(uow, query, today)
    if query.certification:
        out.append(_certified(query.certification, today))
    q = query.q.strip()
    if q:
        out.append(or_(L.c.loan_number.startswith(q, autoescape=True),
                       P.c.catastro.startswith(q, autoescape=True)))
    if query.status:
        out.append(F.c.status == query.status)
    if query.municipality:
        out.append(P.c.municipality == query.municipality)
    if query.due_min is not None:
        out.append(F.c.due_now >= query.due_min)
    if query.due_max is not None:
        out.append(F.c.due_now <= query.due_max)
    if query.due_within is not None:
        out.append(and_(F.c.next_due.is_not(None),
                        F.c.next_due <= today + timedelta(days=query.due_within)))
    return out


def _filtered(uow: UnitOfWork, base: Any, query: Query, today: date, *columns: Any) -> Any:
    return (base(*columns)
            .join(P, P.c.id == L.c.parcel_id)
            .join(F, F.c.loan_id == L.c.id)
            .where(*_where(uow, query, today)))


def _ordered(stmt: Any, query: Query) -> Any:
    if query.sort == NOTICE_SORT:  # loans without an acquisition last, either way
        first = ACQUIRED.desc() if query.desc else ACQUIRED.asc()
        return stmt.order_by(ACQUIRED.is_(None), first, L.c.loan_number, L.c.id)
    col = SORTS.get(query.sort, SORTS["loan"])
    first = col.desc() if query.desc else col.asc()
    return stmt.order_by(first, L.c.loan_number, L.c.id)


_OFFSET = bindparam("offset")


def _page_statements(base: Any, where: list[Any], query: Query) -> tuple[Any, Any]:
    """(the check and totals, `_checked_totals`, and the filtered set's page of rows from
    :offset, `_page_rows`), built for this query; without filters, once per statement
    builder and sort (`_unfiltered`)."""
    if not where:
        return _unfiltered(base, query.sort, query.desc)
    return _page_pair(base, where, query, _by_parcel(query))


def _by_parcel(query: Query) -> bool:
    """Whether the filters read the loan's parcel (its catastro or municipality)."""
    return bool(query.q.strip() or query.municipality)


#: The sorts that read the loan's kept figures.
_FIGURE_SORTS = ("status", "annual", "due", "next_due")


def _by_figures(query: Query) -> bool:
    """Whether the page's sort or filters read the loan's kept figures (`loan_figures`):
    otherwise its loans are chosen without them (every loan has its figures once checked)."""
    return bool(query.sort in _FIGURE_SORTS or query.status or query.due_min is not None
                or query.due_max is not None or query.due_within is not None)


def _checked_totals(base: Any, where: list[Any], by_parcel: bool) -> Any:
    """SQL, one pass over the builder's loans: how many of them have figures out of date on
    :as_of (`_out_of_date`, over all of them, as `refresh` computes them), and the count and
    totals of those `where` selects (aggregates filtered by it; the parcels joined only when
    it reads them, `by_parcel`). When none is out of date, every loan has its figures, so
    the totals are those of the filtered set's figures."""
    def chosen(agg: Any) -> Any:
        return agg.filter(and_(*where)) if where else agg
    stmt = base(func.count().filter(_out_of_date()), chosen(func.count()),
                func.coalesce(chosen(func.sum(F.c.due_now)), 0),
                func.coalesce(chosen(func.sum(F.c.annual)), 0))
    if by_parcel:
        stmt = stmt.join(P, P.c.id == L.c.parcel_id)
    return stmt.outerjoin(F, F.c.loan_id == L.c.id)


def _page_rows(base: Any, where: list[Any], query: Query, by_parcel: bool) -> Any:
    """SQL: the page's rows from :offset. The page's loans are chosen first, in order, from
    what the filters and the sort read (the figures; the parcels only when these read
    them), then only those are read with their parcels and latest acquisition: a page of a
    large portfolio reads fifty parcels, not every loan's."""
    chosen = base(L.c.id.label("page_id"))
    if _by_figures(query):
        chosen = chosen.join(F, F.c.loan_id == L.c.id)
    if by_parcel or query.sort in ("catastro", "municipality"):
        chosen = chosen.join(P, P.c.id == L.c.parcel_id)
    page = (_ordered(chosen.where(*where), query).limit(PER_PAGE).offset(_OFFSET)
            .subquery("page"))
    return _ordered(select(*_ROW_COLUMNS).select_from(page)
                    .join(L, L.c.id == page.c.page_id).join(P, P.c.id == L.c.parcel_id)
                    .join(F, F.c.loan_id == L.c.id), query)


def _page_pair(base: Any, where: list[Any], query: Query, by_parcel: bool
               ) -> tuple[Any, Any]:
    return (_checked_totals(base, where, by_parcel),
            _page_rows(base, where, query, by_parcel))


@lru_cache(maxsize=64)
def _unfiltered(base: Any, sort: str, desc: bool) -> tuple[Any, Any]:
    pair = _page_pair(base, [], Query(sort=sort, desc=desc), False)
    if sort != "loan":
        return pair
    # By loan number: the totals say whether the loans are one lender's (their least and
    # greatest lender), for `_one_lender_rows`.
    totals = pair[0].add_columns(func.min(L.c.lender_id), func.max(L.c.lender_id))
    return totals, pair[1]


@lru_cache(maxsize=2)
def _one_lender_rows(desc: bool) -> Any:
    """SQL: the page's rows by loan number from :offset when every loan the user sees is the
    lender :lender_id's (`_unfiltered`'s totals say so): its active loans read in order
    through the index on (lender, loan number), the fifty after :offset, without sorting
    the lender's loans (a loan number is the lender's once, so it alone orders them)."""
    number = L.c.loan_number.desc() if desc else L.c.loan_number.asc()
    page = (access.loans_of_lender_query(L.c.id.label("page_id")).order_by(number)
            .limit(PER_PAGE).offset(_OFFSET).subquery("page"))
    return _ordered(select(*_ROW_COLUMNS).select_from(page)
                    .join(L, L.c.id == page.c.page_id).join(P, P.c.id == L.c.parcel_id)
                    .join(F, F.c.loan_id == L.c.id), Query(desc=desc))


# --- a lender's kept totals -------------------------------------------------------------

class Kept(NamedTuple):
    """A lender's kept totals (`lender_figures`) of a day: what its list shows above the rows
    without filters, and the filter's municipalities."""

    lender_id: int
    loans: int
    due_now: Decimal
    annual: Decimal
    municipalities: tuple[str, ...]


_CENT = Decimal("0.01")


#: SQL: the loan is behind its lender's kept totals, written as the partial index
#: `ix_loans_figures_behind`'s predicate (the constant inline: SQLite matches it as written).
_BEHIND = (L.c.facts_version - L.c.figures_version) != literal_column("0")


@lru_cache(maxsize=2)
def _kept_statement(scoped: bool) -> Any:
    """SQL: the lender :lender_id (`scoped`, an API token's) or the lenders the user :uid
    works for (at most two: one is enough to know there are several), each with its kept
    totals and whether they hold on :as_of: of that day, of the District's version now, and
    no loan of the lender behind them (a probe of `ix_loans_figures_behind`, the partial
    index of the loans whose facts changed since, models.fact_versions)."""
    behind = exists().where(L.c.lender_id == LN.c.id, _BEHIND)
    holds = case((and_(K.c.as_of == _AS_OF, K.c.district_version == DISTRICT, ~behind), 1),
                 else_=0)
    stmt = (select(LN.c.id, holds, K.c.loans, K.c.due_now, K.c.annual, K.c.municipalities)
            .select_from(LN).outerjoin(K, K.c.lender_id == LN.c.id))
    if scoped:
        return stmt.where(LN.c.id == bindparam("lender_id")).limit(2)
    return stmt.join(M, and_(M.c.party_id == LN.c.party_id, M.c.user_id == bindparam("uid"),
                             M.c.revoked_at.is_(None))).order_by(LN.c.id).limit(2)


def _kept_row(uow: UnitOfWork, who: Any, today: date) -> Any:
    """`who`'s one lender with its kept totals and whether they hold on `today`
    (`_kept_statement`); None when `who` works for no lender or for several."""
    params = _base(who)[1]
    found = uow.session.execute(_kept_statement(isinstance(who, LenderScope)),
                                {**params, "as_of": today}).all()
    return found[0] if len(found) == 1 else None


def _kept(uow: UnitOfWork, who: Any, today: date) -> Kept | None:
    """The kept totals of `who`'s one lender on `today`, recomputed first when they do not
    hold (`_keep`); None when `who` works for no lender or for several (their lists total
    their loans in one pass, as a filtered list does)."""
    row = _kept_row(uow, who, today)
    if row is None:
        return None
    lender_id, holds, loans, due, annual, places = row
    if not holds:
        return _keep(uow, lender_id, today)[0]
    return Kept(lender_id, loans, Decimal(due).quantize(_CENT),
                Decimal(annual).quantize(_CENT), tuple(json.loads(places)))


_DAY, _LENDER = bindparam("kept_day"), bindparam("kept_lender")
_ACTIVE = and_(L.c.starts_on <= _DAY, or_(L.c.ends_on.is_(None), L.c.ends_on >= _DAY))
#: SQL: the lender's loans behind its totals now included: an active loan with the version
#: its figures were computed from (read before the facts: a fact committed since leaves it
#: behind), any other with its version now (its figures are not in the totals).
_INCLUDE = (update(L).where(L.c.lender_id == _LENDER, _BEHIND)
            .values(figures_version=case(
                (_ACTIVE, func.coalesce(select(F.c.loan_version).where(F.c.loan_id == L.c.id)
                                        .scalar_subquery(), -1)),
                else_=L.c.facts_version)))
_OF_LENDER = and_(L.c.lender_id == _LENDER, _ACTIVE)
_LENDER_TOTALS = (select(func.count(), func.coalesce(func.sum(F.c.due_now), 0),
                         func.coalesce(func.sum(F.c.annual), 0))
                  .select_from(L).outerjoin(F, F.c.loan_id == L.c.id).where(_OF_LENDER))
_LENDER_PLACES = (select(P.c.municipality).distinct().select_from(L)
                  .join(P, P.c.id == L.c.parcel_id).where(_OF_LENDER)
                  .order_by(P.c.municipality))


def _keep(uow: UnitOfWork, lender_id: int, today: date) -> tuple[Kept, int]:
    """Recompute the lender's kept totals of `today`: its row taken first (an upsert: the
    row's lock on PostgreSQL, the database's write lock on SQLite), so one transaction at a
    time recomputes a lender's and each sees what the one before committed; the District's
    version read before any figure; the loans' figures out of date computed (`refresh`);
    the loans behind marked included (`_INCLUDE`); then one pass sums the active loans'
    figures and one lists their municipalities. A fact written meanwhile leaves its loan
    behind, a Board value the District's version moved: the next view recomputes. Returns
    the totals and the number of loans whose figures it computed."""
    s = uow.session
    stmt = _upsert(uow, K).values(lender_id=lender_id, loans=0, due_now=0, annual=0,
                                  municipalities="[]")
    s.execute(stmt.on_conflict_do_update(index_elements=[K.c.lender_id],
                                         set_={"lender_id": stmt.excluded.lender_id}))
    district = s.scalar(select(DISTRICT))
    computed = refresh(uow, LenderScope(lender_id), today, behind=False)
    params = {"kept_lender": lender_id, "kept_day": today}
    s.execute(_INCLUDE, params)
    loans, due, annual = s.execute(_LENDER_TOTALS, params).one()
    places = tuple(s.scalars(_LENDER_PLACES, params))
    kept = Kept(lender_id, int(loans), Decimal(due).quantize(_CENT),
                Decimal(annual).quantize(_CENT), places)
    s.execute(update(K).where(K.c.lender_id == lender_id).values(
        as_of=today, district_version=district, loans=kept.loans, due_now=kept.due_now,
        annual=kept.annual, municipalities=json.dumps(list(places))))
    return kept, computed


#: The daily task (`portal.jobs.daily`, registered by `portal/domains.py`): `keep_day`.
DAY_TASK = "lenders.figures"


def keep_day(database: Database, day: date) -> dict[str, int]:
    """Each lender's loans' figures and kept totals of today, computed where they do not hold
    (a lender whose totals hold costs one probe), a lender at a time, so that the first view
    of the day computes nothing. Run by the worker's day's work each hour and by `portal
    lenders figures`; idempotent: a second run computes nothing. A day other than today does
    nothing (the totals are kept for one day, today's). Counts: lenders, loans computed,
    lenders whose totals were kept again."""
    done = {"lenders": 0, "loans": 0, "totals": 0}
    if day != clock.today():
        return done
    with UnitOfWork(database) as w:
        ids = list(w.session.scalars(select(LN.c.id).order_by(LN.c.id)))
    for lender_id in ids:
        with UnitOfWork(database) as w:
            row = _kept_row(w, LenderScope(lender_id), day)
            if row is not None and not row[1]:
                done["loans"] += _keep(w, lender_id, day)[1]
                done["totals"] += 1
        done["lenders"] += 1
    return done


def _kept_once(uow: UnitOfWork, who: Any, today: date, *, leave: bool) -> Kept | None:
    """`_kept`, read once for a view that asks `municipalities` then `portfolio` in one unit of
    work: the first leaves it in `uow.info` (`leave`), the second takes it."""
    key = ("portfolio.kept", type(who).__name__,
           getattr(who, "lender_id", None) or getattr(who, "id", None), today)
    found = uow.info.pop(key, None)
    if found is not None:
        return found[0]
    kept = _kept(uow, who, today)
    if leave:
        uow.info[key] = (kept,)
    return kept


def portfolio(uow: UnitOfWork, user: Any, query: Query, today: date | None = None) -> Page:
    """One page of the user's loans as `query` asks, with the filtered set's count and
    totals. Without filters, those of the user's one lender are its kept totals (`_kept`,
    recomputed only when they do not hold); otherwise SQL aggregates in one pass over the
    loans, with the figures checked in the same statement (`_checked_totals`): only when some
    are out of date are they computed (`refresh`) and the totals read again."""
    today = today or clock.today()
    base, params = _base(user)
    params = {**params, "as_of": today}
    where = _where(uow, query, today)
    kept = _kept_once(uow, user, today, leave=False)
    if kept is not None and not where:
        count, due, annual = kept.loans, kept.due_now, kept.annual
        page_rows = _unfiltered(base, query.sort, query.desc)[1]
        lenders = [kept.lender_id, kept.lender_id] if query.sort == "loan" else []
    else:
        totals, page_rows = _page_statements(base, where, query)
        found = uow.session.execute(totals, params).one()
        if found[0]:
            refresh(uow, user, today)
            found = uow.session.execute(totals, params).one()
        _stale, count, due, annual, *lenders = found
        due, annual = Decimal(due).quantize(_CENT), Decimal(annual).quantize(_CENT)
    pages = max(1, -(-count // PER_PAGE))
    page = min(max(1, query.page), pages)
    params["offset"] = (page - 1) * PER_PAGE
    if lenders and lenders[0] is not None and lenders[0] == lenders[1]:
        page_rows = _one_lender_rows(query.desc)
        params["lender_id"] = lenders[0]
    rows = [_with_notice(uow, r, today) for r in uow.session.execute(page_rows, params)]
    return Page(rows, count, due, annual, page, pages, today)


def municipalities(uow: UnitOfWork, user: Any) -> list[str]:
    """The municipalities of the user's loans (the filter's choices): those its one lender's
    kept totals list (`_kept`), else read."""
    kept = _kept_once(uow, user, clock.today(), leave=True)
    if kept is not None:
        return list(kept.municipalities)
    base, params = _base(user)
    return list(uow.session.scalars(_municipalities(base), params))


@lru_cache(maxsize=4)
def _municipalities(base: Any) -> Any:
    return (base(P.c.municipality).distinct()
            .join(P, P.c.id == L.c.parcel_id).order_by(P.c.municipality))


def rows(uow: UnitOfWork, user: Any, query: Query, today: date | None = None
         ) -> Iterator[Row]:
    """Every loan `query` selects, in its order, read in batches of `BATCH` (the export)."""
    today = today or clock.today()
    refresh(uow, user, today)
    base, params = _base(user)
    result = uow.session.execute(
        _ordered(_filtered(uow, base, query, today, *_ROW_COLUMNS), query)
        .execution_options(yield_per=BATCH), params)
    for r in result:
        yield _with_notice(uow, r, today)


# --- one payment for many loans ------------------------------------------------------------

def parcels_to_pay(uow: UnitOfWork, user: Any, query: Query, today: date | None = None
                   ) -> tuple[list[int], int]:
    """The parcels of the loans `query` selects that have something due now (at most
    `MAX_PAY`), and how many such loans there are in all."""
    today = today or clock.today()
    _chosen, params, total = loans_to_pay(uow, user, query, today)
    base, _params = _base(user)
    due = _due(query)
    ids = list(uow.session.scalars(
        _ordered(_filtered(uow, base, due, today, P.c.id), due).limit(MAX_PAY), params))
    return list(dict.fromkeys(ids)), total


def _due(query: Query) -> Query:
    """`query` narrowed to the loans with something due now."""
    return Query(**{**query.__dict__, "due_min": max(query.due_min or Decimal("0.01"),
                                                     Decimal("0.01"))})


def loans_to_pay(uow: UnitOfWork, user: Any, query: Query, today: date | None = None
                 ) -> tuple[Any, dict[str, Any], int]:
    """The loans `query` selects that have something due now, however many: (a statement
    of their ids, to use as a subquery with its parameters, the parameters, how many).
    A bill file of them (`bills.make(only=...)`) pays them by the prepared-payment path."""
    today = today or clock.today()
    refresh(uow, user, today)
    base, params = _base(user)
    due = _due(query)
    count = uow.session.scalar(_filtered(uow, base, due, today, func.count()), params) or 0
    return _filtered(uow, base, due, today, L.c.id), params, int(count)


#: A loan number as a bank writes it: letters, digits and - _ . / # (at most 40, as stored).
_LOAN_NUMBER = re.compile(r"^[0-9A-Za-z][0-9A-Za-z\-_./# ]{0,39}$")
#: A first row's first cell that names the column (in either language) is a header.
_HEADER_WORDS = ("loan", "préstamo", "prestamo", "número", "numero", "no.", "num")


def read_loan_numbers(data: bytes, limit: int | None = MAX_PAY) -> list[str]:
    """Loan numbers from an uploaded CSV: the first column of each row, read as every upload
    of the portal is (`portal.csv_text`: UTF-8 with or without BOM, or Windows-1252; comma or
    semicolon). A first row that names the column (a word such as "loan", "préstamo" or
    "número", or no digit at all) is a header and skipped. ValueError("not_text") for a file
    that is no text (binary: nothing of it is echoed back) or a cell that is no loan number,
    ValueError("too_many") beyond `limit` (None: no limit), ValueError("empty") for none."""
    out: list[str] = []
    for number, cells in csv_text.records(data):
        # the first column, whichever separator a row uses (a one-column file has none to tell)
        cell = re.split(r"[;,]", cells[0])[0].strip().strip('"').strip() if cells else ""
        if number == 1 and _is_header(cell):
            continue
        if not cell:
            continue
        if not _LOAN_NUMBER.match(cell):
            raise ValueError("not_text")
        out.append(cell)
        if limit is not None and len(out) > limit:
            raise ValueError("too_many")
    if not out:
        raise ValueError("empty")
    return out


def _is_header(cell: str) -> bool:
    low = cell.lower()
    return low.startswith(_HEADER_WORDS) or not any(c.isdigit() for c in cell)

def loan(uow: UnitOfWork, who: Any, loan_id: int | None = None, *,
         number: str | None = None, today: date | None = None) -> Row:
    """One of `who`'s loans (by id, or by loan number), with its figures; NotFound for any
    other (another lender's loan is not found, as no loan is)."""
    return loan_and_ref(uow, who, loan_id, number=number, today=today)[0]


def loan_and_ref(uow: UnitOfWork, who: Any, loan_id: int | None = None, *,
                 number: str | None = None, today: date | None = None
                 ) -> tuple[Row, acquisitions.LoanRef]:
    """`loan`'s row and the loan as `acquisitions.find_loan` gives it (with its lender), read
    with one access check (the loan page passes both down). The row's figures are read with
    whether they are out of date (`_stale`'s test): only then are the user's figures computed
    again (`refresh`) and the row read again."""
    from portal.accounts.errors import NotFound
    today = today or clock.today()
    base, params = _base(who)
    params = {**params, "as_of": today}
    if loan_id is not None:
        stmt, params["loan_id"] = _one_loan(base, False), int(loan_id)
    else:
        stmt, params["number"] = _one_loan(base, True), number or ""
    found = uow.session.execute(stmt, params).first()
    if found is not None and found[-1]:
        refresh(uow, who, today)
        found = uow.session.execute(stmt, params).first()
    if found is None:
        raise NotFound()
    row = _with_notice(uow, found[:len(_ROW_COLUMNS)], today)
    return row, acquisitions.LoanRef(row.loan_id, found[-2], row.parcel_id, row.loan_number)


@lru_cache(maxsize=8)
def _one_loan(base: Any, by_number: bool) -> Any:
    """SQL: the loan :loan_id (or :number) among the builder's, its row with its lender and
    whether its figures are out of date on :as_of (built once per builder)."""
    stale = case((_out_of_date(), 1), else_=0)
    key = (L.c.loan_number == bindparam("number") if by_number
           else L.c.id == bindparam("loan_id"))
    return (base(*_ROW_COLUMNS, L.c.lender_id, stale).join(P, P.c.id == L.c.parcel_id)
            .outerjoin(F, F.c.loan_id == L.c.id).where(key).limit(1))


# --- what to retain (R-B10) ------------------------------------------------------------------

def fiscal_year_start(today: date) -> date:
    """July 1 opening the fiscal year of `today` (R-B15)."""
    return date(today.year if today.month >= 7 else today.year - 1, 7, 1)


def retentions(uow: UnitOfWork, parcel_ids: Sequence[int], fy_start: date
               ) -> dict[int, Any]:
    """{parcel id: the core's R-B10 retention (`core.lender.retention`) or None} for these
    parcels (the caller's own loans'), from the CRIM's facts of the year (one statement)
    and the parcel's approved certification's answers where it has one (else the whole
    property as the residence, no veteran's exemption); none for a parcel whose exemption
    was revoked from this year or an earlier one (R-B15, R-B18) and not approved again for
    it: the bills as issued without it."""
    ids = list(dict.fromkeys(int(p) for p in parcel_ids))
    if not ids:
        return {}
    # The facts with the year's approved answers and the revocations in force (outer-joined,
    # a row per certification, by certification), in one statement.
    facts: dict[int, Any] = {}
    answers: dict[int, Any] = {}
    revoked: set[int] = set()
    for fact, status, found in uow.session.execute(_retentions_statement(),
                                                   {"ids": ids, "fy_start": fy_start}):
        pid = fact.parcel_id
        facts[pid] = fact
        if status == "approved":
            answers[pid] = found
        elif status is not None:
            revoked.add(pid)
    return {pid: _retention(facts.get(pid), answers.get(pid), fy_start,
                            exempt=pid in answers or pid not in revoked) for pid in ids}


@lru_cache(maxsize=1)
def _retentions_statement() -> Any:
    """`retentions`' statement (parameters :ids, :fy_start), built once: the loan page asks
    it on every request."""
    from portal.models import PropertyTaxFact
    c = ExemptionCertification
    fy_start = bindparam("fy_start")
    return (select(PropertyTaxFact, c.status, c.answers)
            .outerjoin(c, and_(c.parcel_id == PropertyTaxFact.parcel_id,
                               or_(and_(c.fiscal_year_start == fy_start, c.status == "approved"),
                                   and_(c.status == "revoked", c.revoked_from <= fy_start))))
            .where(PropertyTaxFact.parcel_id.in_(bindparam("ids", expanding=True)),
                   PropertyTaxFact.fiscal_year_start == fy_start)
            .order_by(PropertyTaxFact.id, c.id))


def _retention(facts: Any, answers: dict | None, fy_start: date, *, exempt: bool = True
               ) -> Any:
    """The core's R-B10 retention from the CRIM's row and the approved answers, or None.
    `exempt` false: the exemption was revoked for the year (R-B18), so the core computes it
    with no exempt valuation (a cap of 0): the bills as issued without it."""
    from dataclasses import replace

    from portal.core.errors import CalcError
    from portal.core.lender import retention
    from portal.exemptions.filings import exemption_input
    if facts is None:
        return None
    try:
        x = exemption_input(answers or {}, facts)
        return retention(x if exempt else replace(x, residential_cap=Decimal(0)), fy_start)
    except CalcError:  # (ParameterNotFound too: a year or municipality without rate)
        return None


def lenders_pay(uow: UnitOfWork, parcel_id: int, names: Sequence[str], facts: Any,
                fy_start: date, cert: Any, continued: date | None) -> list[tuple[str, Any]]:
    """For the parcel page (the owner's, a delegate's): each lender with an active loan on
    the parcel (`names`, from `loan_changes.servicers`) and what it pays the CRIM bill by
    bill (R-B10 case (i)), for a parcel the caller read through `accounts.access`. `facts`,
    `cert` and `continued`: what `exemptions.status.with_facts` read for the year. The
    year's approved answers are the certification's when it is the year's and approved,
    none when the year has none in force; read (one statement) only when the year's
    certification in force is not the approved one."""
    if not names:
        return []
    from portal.exemptions.status import status_in
    if cert is not None and status_in(cert, fy_start) == "revoked":  # R-B15, R-B18
        r = _retention(facts, cert.answers, fy_start, exempt=False)
        return [(n, r) for n in names]
    answers = None
    if facts is not None and cert is not None and continued is None:
        answers = cert.answers if cert.status == "approved" else uow.session.scalar(
            select(ExemptionCertification.answers).where(
                ExemptionCertification.parcel_id == int(parcel_id),
                ExemptionCertification.fiscal_year_start == fy_start,
                ExemptionCertification.status == "approved")
            .order_by(ExemptionCertification.id.desc()).limit(1))
    r = _retention(facts, answers, fy_start)
    return [(n, r) for n in names]


__all__ = ["ACQUIRED", "CERTIFICATIONS", "DAY_TASK", "MAX_PAY", "NOTICES", "NOTICE_SORT",
           "PER_PAGE", "SORTS", "SHOWN", "STATUSES", "DashboardLoan", "KeptLump", "LenderScope",
           "Page", "Query",
           "Row", "by_catastro", "dashboard_loans", "fiscal_year_start",
           "lenders_pay", "loan", "loan_and_ref", "loans_to_pay", "municipalities",
           "parcels_to_pay",
           "keep_day", "portfolio", "read_loan_numbers", "refresh", "retentions", "rows"]
