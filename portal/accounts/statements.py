"""Accounts: what a parcel owes in a fiscal year, and why (through the access policy).

`statement_for` is the parcel page: the core's Statement over the account's facts plus what
the page shows around it (budget lines, units and share, lump-sum quote, payoff good through a
date, who pays, demands and the collection timeline). `dashboard` summarises every parcel a
user is linked to in a fixed number of queries.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any, NamedTuple

from sqlalchemy import ColumnElement, Select, and_, bindparam, func, or_, select
from sqlalchemy.sql.lambdas import StatementLambdaElement

from portal import clock
from portal.accounts import access, facts, in_force
from portal.accounts.facts import (
    AccountFacts,
    AssessmentRecord,
    fiscal_year_on,
    record_type,
    rules_for,
)
from portal.core.allocation import explain_fixed, explain_share
from portal.core.collection import Demand
from portal.core.explain import Trace
from portal.core.money import ZERO
from portal.core.offer import (  # noqa: F401 - the statuses are re-exported for the web layer
    STATUS_CURRENT,
    STATUS_NONE,
    STATUS_OVERDUE,
    STATUS_PENDING,
    LumpSumOption,
    Offer,
    StopOption,
    account_status,
)
from portal.core.statement import Statement, StatementRules
from portal.db import UnitOfWork, prepared
from portal.models import (
    Assessment,
    AssessmentRoll,
    BudgetFixedAmount,
    BudgetLine,
    BudgetVersion,
    CourtClaim,
    DepositOrder,
    FiscalYear,
    Lease,
    LedgerEntry,
    Notice,
    Parcel,
    Payment,
)

# The parcel page's statements, built once with bound parameters (docs/WEB.md, "Speed").
_AS_OF = bindparam("as_of")
_BUDGET = (select(BudgetVersion, AssessmentRoll, BudgetLine)
           .select_from(BudgetVersion)
           .join(AssessmentRoll, AssessmentRoll.budget_version_id == BudgetVersion.id)
           .outerjoin(BudgetLine, BudgetLine.version_id == BudgetVersion.id)
           .where(BudgetVersion.id == bindparam("version_id"))
           .order_by(BudgetLine.position))


def _fixed_amounts(version_id: Any, parcel_id: Any) -> tuple[Any, Any]:
    """SQL (scalar subqueries): the Board's fixed amounts of the version (R-A3), in all, and
    the parcel's (NULL when its amount is not fixed)."""
    fx = BudgetFixedAmount.__table__
    return (select(func.sum(fx.c.amount)).where(fx.c.version_id == version_id)
            .scalar_subquery(),
            select(fx.c.amount).where(fx.c.version_id == version_id, fx.c.parcel_id == parcel_id)
            .scalar_subquery())


_FIXED = select(*_fixed_amounts(bindparam("version_id"), bindparam("parcel_id")))

# The lease in force on :as_of (the latest to start) and its deposit order in force (R-A14).
_LEASES, _DEPOSITS = Lease.__table__, DepositOrder.__table__
_LEASE_IN_FORCE = and_(_LEASES.c.starts_on <= _AS_OF,
                       or_(_LEASES.c.ends_on.is_(None), _LEASES.c.ends_on >= _AS_OF))
_DEPOSIT_IN_FORCE = and_(_DEPOSITS.c.lease_id == _LEASES.c.id, _DEPOSITS.c.ordered_on <= _AS_OF,
                         or_(_DEPOSITS.c.lifted_on.is_(None), _DEPOSITS.c.lifted_on > _AS_OF))
_LEASE_ORDER = (_LEASES.c.starts_on.desc(), _DEPOSITS.c.ordered_on.desc())
_LEASE = select(Lease, DepositOrder).from_statement(
    select(_LEASES, _DEPOSITS).select_from(_LEASES).outerjoin(_DEPOSITS, _DEPOSIT_IN_FORCE)
    .where(_LEASES.c.parcel_id == bindparam("parcel_id"), _LEASE_IN_FORCE)
    .order_by(*_LEASE_ORDER))

# `rows=True` (the page, read-only) reads plain rows of the tables' own columns: Core
# statements, no ORM entity loading nor identity map (that was most of `statement_for`'s
# time), and the access check, the parcel, the account's one-row lookups and its demands in
# one statement. A joined row is cut into one record per table, named as the models'
# attributes. The history: the same statement loads the ORM objects for `rows=False`
# (`from_statement`).
_PARCELS, _FISCAL_YEARS, _ASSESSMENTS = Parcel.__table__, FiscalYear.__table__, Assessment.__table__
_VERSIONS, _ROLLS = BudgetVersion.__table__, AssessmentRoll.__table__
_NOTICES = Notice.__table__
_IS_DEMAND = _NOTICES.c.kind == "demand"


def _budget_lines_json(version_id: Any) -> Any:
    """SQL (a scalar subquery, correlated to `version_id`): the budget version's lines as JSON
    rows of (id, position, kind, description_es, description_en, amount, financed)."""
    ln = BudgetLine.__table__
    return (select(facts.json_rows(ln.c.id, ln.c.position, ln.c.kind, ln.c.description_es,
                                   ln.c.description_en, ln.c.amount,
                                   ln.c.financed_by_assessments))
            .where(ln.c.version_id == version_id).scalar_subquery())


def _budget_lines(version_id: int, text: str | None) -> list[BudgetLineRecord]:
    """`_budget_lines_json`'s value as records, by position."""
    return sorted((BudgetLineRecord(line_id, version_id, position, kind, es, en,
                                    facts.stored_money(amount), facts.stored_money(financed))
                   for line_id, position, kind, es, en, amount, financed
                   in facts.read_json_rows(text)), key=lambda ln: ln.position)


class ClaimRecord(NamedTuple):
    """A claim in court's columns, read with the account (`_claims_json`)."""

    id: int
    notice_id: int
    parcel_id: int
    fiscal_year_id: int
    filed_on: date
    case_number: str


def _claims_json(notice_id: Any) -> Any:
    """SQL (a scalar subquery, correlated to `notice_id`): the claims filed for that demand
    as JSON rows (`ClaimRecord`; one at most)."""
    c = CourtClaim.__table__
    return (select(facts.json_rows(c.c.id, c.c.notice_id, c.c.parcel_id, c.c.fiscal_year_id,
                                   c.c.filed_on, c.c.case_number))
            .where(c.c.notice_id == notice_id).scalar_subquery())


def _account_rows(fiscal_year: ColumnElement[bool], *, staff: bool) -> Select:
    """For the parcel :pid: the user's relation to it (`access.relation_to_pid`: the access
    check, by staff or not), the parcel, the fiscal year `fiscal_year` selects, the
    parcel's current assessment in it, that assessment's budget version and the version's
    roll, the lease in force on :as_of and its deposit order, and a demand sent for the
    account (each NULL when there is none), and the account's installments, ledger entries
    and budget lines as JSON (`facts.installments_json`, `facts.entries_json`,
    `_budget_lines_json`), with the Board's parameters (`in_force.rows_json`: the
    account's rules without a statement of their own) and the claim in court filed for the
    row's demand (`_claims_json`). One row per demand, in the order they were sent (usually
    one row:
    most accounts have none); the first row's lease and order are the account's (several only
    when several are in force). No row: no such parcel."""
    fy, a, v, r, n = _FISCAL_YEARS, _ASSESSMENTS, _VERSIONS, _ROLLS, _NOTICES
    relation = access.relation_to_pid(staff=staff)
    return (select(relation, _PARCELS, fy, a, v, r, _LEASES, _DEPOSITS, n,
                   facts.installments_json(a.c.id), facts.entries_json(_PARCELS.c.id, fy.c.id),
                   _budget_lines_json(v.c.id), *_fixed_amounts(v.c.id, _PARCELS.c.id),
                   in_force.rows_json(), _claims_json(n.c.id))
            .select_from(_PARCELS)
            .outerjoin(fy, fiscal_year)
            .outerjoin(a, and_(a.c.parcel_id == _PARCELS.c.id, a.c.fiscal_year_id == fy.c.id,
                               facts.IS_CURRENT))
            .outerjoin(v, v.c.id == a.c.budget_version_id)
            .outerjoin(r, r.c.budget_version_id == v.c.id)
            .outerjoin(_LEASES, and_(_LEASES.c.parcel_id == _PARCELS.c.id, _LEASE_IN_FORCE))
            .outerjoin(_DEPOSITS, _DEPOSIT_IN_FORCE)
            .outerjoin(n, and_(n.c.parcel_id == _PARCELS.c.id, n.c.fiscal_year_id == fy.c.id,
                               _IS_DEMAND))
            .where(_PARCELS.c.id == bindparam("pid"))
            .order_by(*_LEASE_ORDER, n.c.created_at, n.c.id))


def _for_staff_or_not(fiscal_year: ColumnElement[bool], name: str
                      ) -> dict[bool, StatementLambdaElement]:
    """`_account_rows` built once for each answer to "is the user staff?", `prepared` (a page
    reads an account with it: SQLAlchemy would hash its whole structure each time)."""
    return {staff: prepared(_account_rows(fiscal_year, staff=staff), f"{name}:{staff}")
            for staff in (False, True)}


# The fiscal year as `facts.fiscal_year_on` finds it (the one containing :as_of, else the
# next one to start: two statements, as there), or a given one (:fy).
_ACCOUNT_ON = _for_staff_or_not(and_(_FISCAL_YEARS.c.starts_on <= _AS_OF,
                                     _FISCAL_YEARS.c.ends_on >= _AS_OF), "account-on")
_ACCOUNT_NEXT = _for_staff_or_not(_FISCAL_YEARS.c.id == (
    select(_FISCAL_YEARS.c.id).where(_FISCAL_YEARS.c.starts_on > _AS_OF)
    .order_by(_FISCAL_YEARS.c.starts_on).limit(1).scalar_subquery()), "account-next")
_ACCOUNT_OF = _for_staff_or_not(_FISCAL_YEARS.c.id == bindparam("fy"), "account-of")
_DEMANDS = (select(Notice).where(Notice.parcel_id == bindparam("parcel_id"),
                                 Notice.fiscal_year_id == bindparam("fy"), _IS_DEMAND)
            .order_by(Notice.created_at, Notice.id))
#: The claims in court filed for an account's demands (the collection timeline).
_CLAIMS = select(CourtClaim).where(CourtClaim.notice_id.in_(bindparam("ids", expanding=True)))
_ACCOUNT_ASSESSMENT_ROWS = select(_ASSESSMENTS).where(
    _ASSESSMENTS.c.parcel_id == bindparam("parcel_id"),
    _ASSESSMENTS.c.fiscal_year_id == bindparam("fy"))
_ACCOUNT_ASSESSMENTS = select(Assessment).from_statement(_ACCOUNT_ASSESSMENT_ROWS)

FiscalYearRecord = record_type(FiscalYear, "FiscalYearRecord")
BudgetVersionRecord = record_type(BudgetVersion, "BudgetVersionRecord")
AssessmentRollRecord = record_type(AssessmentRoll, "AssessmentRollRecord")
LeaseRecord = record_type(Lease, "LeaseRecord")
DepositOrderRecord = record_type(DepositOrder, "DepositOrderRecord")
NoticeRecord = record_type(Notice, "NoticeRecord")
#: The records of an `_account_rows` row, after the relation.
_ACCOUNT_RECORDS = (access.ParcelRecord, FiscalYearRecord, AssessmentRecord, BudgetVersionRecord,
                    AssessmentRollRecord, LeaseRecord, DepositOrderRecord, NoticeRecord)


class BudgetLineRecord(record_type(BudgetLine, "BudgetLineColumns")):  # type: ignore[misc]
    """A budget line's columns, read-only, with the model's `description(language)`."""

    __slots__ = ()
    description = BudgetLine.description


def cut_records(row: Any, *records: type) -> list[Any]:
    """A joined row cut into one record per table, in order; None for an outer-joined
    table that has no row (its id, every record's first column, is NULL)."""
    out, start = [], 0
    for record in records:
        end = start + len(record._fields)
        part = row[start:end]
        out.append(record._make(part) if part[0] is not None else None)
        start = end
    return out


def _fiscal_year(uow: UnitOfWork, fiscal_year: Any, as_of: date) -> FiscalYear | None:
    if fiscal_year is None:
        return fiscal_year_on(uow, as_of)
    if isinstance(fiscal_year, FiscalYear):
        return fiscal_year
    if isinstance(fiscal_year, int) or (isinstance(fiscal_year, str) and fiscal_year.isdigit()):
        return uow.session.get(FiscalYear, int(fiscal_year))
    return uow.session.scalar(select(FiscalYear).where(FiscalYear.label == str(fiscal_year)))


@dataclass(frozen=True)
class LumpSumGranted:
    """The R-A11 discount an account already received: its amount and the Puerto Rico legal
    date of the lump-sum payment that earned it."""

    discount: Decimal
    on: date


def lump_sum_granted(st: Statement) -> LumpSumGranted | None:
    app = next((a for a in st.applications if a.lump_sum == "granted"), None)
    if app is None:
        return None
    return LumpSumGranted(sum((ln.amount for ln in app.lines if ln.kind == "discount"), ZERO)
                          or st.discount, app.date)


@dataclass
class AccountView:
    """Everything the parcel page shows for one account (a parcel in a fiscal year)."""

    parcel: Parcel
    relation: str  # staff | owner | lessee | delegate | lender
    as_of: date
    fiscal_year: FiscalYear | None
    assessment: Assessment | None = None
    history: list[Assessment] = field(default_factory=list)  # superseded, oldest first
    budget_version: BudgetVersion | None = None
    budget_lines: list[BudgetLine] = field(default_factory=list)
    roll: AssessmentRoll | None = None
    benefit_units: Decimal = ZERO
    total_units: Decimal = ZERO  # of the parcels sharing `pool` by units (R-A3)
    pool: Decimal = ZERO  # the roll's total less the Board's fixed amounts (R-A3)
    fixed_amount: Decimal | None = None  # this parcel's amount, if the Board fixed it (R-A3)
    share: Decimal | None = None  # the parcel's fraction of the total (annual / roll total)
    installments: list = field(default_factory=list)  # core Installment
    statement: Statement | None = None
    payments: list[Payment] = field(default_factory=list)  # posted payments
    credits: list[LedgerEntry] = field(default_factory=list)
    costs: list[LedgerEntry] = field(default_factory=list)  # debits: costs, refunds...
    lump_sum: LumpSumOption | None = None  # None also once the discount was granted
    lump_sum_granted: LumpSumGranted | None = None  # R-A11's discount this year, if granted
    payoff_through: date | None = None
    payoff_amount: Decimal | None = None
    payoff_statement: Statement | None = None  # the statement as of `payoff_through`
    payer: str = "owner"  # R-A16: owner or lessee
    lease: Lease | None = None
    deposit_order: DepositOrder | None = None
    demands: list[Notice] = field(default_factory=list)
    #: The claims in court filed for its demands (the collection timeline's last step).
    claims: list[CourtClaim] = field(default_factory=list)
    collection: StopOption | None = None  # the last demand mailed, and what stops the claim
    offer: Offer | None = None
    rules: StatementRules | None = None
    facts: AccountFacts | None = None
    fixed_row: tuple = ()  # (the version's fixed amounts in all, the parcel's) as read (R-A3)

    @property
    def status(self) -> str:
        return account_status(self.statement)

    @property
    def trace(self) -> Trace:
        return self.statement.trace() if self.statement is not None else Trace()

    @property
    def share_trace(self) -> Trace:
        if self.assessment is None or self.roll is None:
            return Trace()
        if self.fixed_amount is not None:
            return explain_fixed(self.fixed_amount)
        return explain_share(str(self.parcel.id), self.assessment.annual_amount,
                             self.benefit_units, self.total_units, self.pool)

    @property
    def annual(self) -> Decimal | None:
        return self.assessment.annual_amount if self.assessment is not None else None

    @property
    def principal_paid(self) -> Decimal:
        if self.statement is None:
            return ZERO
        return sum((ln.amount for a in self.statement.applications for ln in a.lines
                    if ln.kind == "principal"), ZERO)


def statement_for(uow: UnitOfWork, user: Any, parcel_id: int | str, fiscal_year: Any = None,
                  as_of: date | None = None, *, with_payments: bool = True, rows: bool = False
                  ) -> AccountView:
    """The account of a parcel the user may see (else NotFound), as of a date (default
    today), for a fiscal year (a FiscalYear, its id or label; default: the one of `as_of`).
    `with_payments=False` skips loading the posted `Payment` rows (one query less).

    `rows=True` (read-only pages) loads plain read-only records of the tables' columns
    instead of ORM objects, with the models' attribute names: the parcel, the fiscal year,
    the assessment and its history, the budget version, its roll and its lines
    (`BudgetLineRecord.description(lang)` as on the model), the lease, the deposit order
    and the demands (`NoticeRecord`); `credits` and `costs` are rows of the columns the
    core reads (see `facts.load_many`). The access check (`access.relation_to_pid`), the
    parcel, the fiscal year, the assessment, the version, the roll, the lease, the deposit
    order, the demands, the installments, the ledger entries and the budget lines come in
    one statement (the last three as JSON columns): one statement in all, one more when no
    fiscal year contains `as_of`."""
    as_of = as_of or clock.today()
    account = version = roll = budget_lines = None
    if rows:
        view, account, version, roll, budget_lines = _account_records(uow, user, parcel_id,
                                                                      fiscal_year, as_of)
    else:
        parcel, relation = access.get_parcel_and_relation(uow, user, parcel_id)
        view = AccountView(parcel=parcel, relation=relation, as_of=as_of, fiscal_year=None,
                           benefit_units=parcel.benefit_units)
        view.fiscal_year = _fiscal_year(uow, fiscal_year, as_of)
        _lease(uow, view)
        if view.fiscal_year is not None:
            account = facts.load(uow, parcel.id, view.fiscal_year)
    if account is None:  # no fiscal year
        return view
    view.facts = account
    view.rules = account.rules
    view.credits = account.credits
    view.costs = account.debits
    if account.assessment is None:
        return view
    a = account.assessment
    view.assessment = a
    view.payer = a.payer
    view.benefit_units = a.benefit_units
    _budget(uow, view, a, rows, version, roll, budget_lines)
    if a.supersedes_id is not None:
        view.history = _history(uow, a, rows)
    view.installments = account.installments
    if not rows:
        view.demands = list(uow.session.scalars(
            _DEMANDS, {"parcel_id": view.parcel.id, "fy": view.fiscal_year.id}))
    sent = [n.id for n in view.demands if n.kind == "demand"]
    if sent and not rows:  # the collection timeline's claims (`rows`: read with the account)
        view.claims = list(uow.session.scalars(_CLAIMS, {"ids": sent}))
    demand = last_demand(view.demands)
    # Every figure about paying: today's statement, the payoff good through a later day
    # (one walk), the lump sum and what stops the court claim (`portal.core.offer`).
    view.offer = o = account.offer(as_of, label=view.parcel.catastro, demand=demand)
    st = view.statement = o.statement
    payment_ids = [e.payment_id for e in account.credits if e.payment_id is not None]
    if payment_ids and with_payments:
        view.payments = list(uow.session.scalars(
            select(Payment).where(Payment.id.in_(payment_ids)).order_by(Payment.id)))
    view.lump_sum_granted = lump_sum_granted(st)
    if st.lump_sum_deadline is not None and view.lump_sum_granted is None:
        # Once granted, there is no quote to show ("not available" would be wrong).
        view.lump_sum = o.lump_sum
    view.payoff_through = o.payoff_through
    view.payoff_statement = o.payoff_statement
    view.payoff_amount = o.payoff_through_amount
    view.collection = o.stop
    return view


def _account_records(uow: UnitOfWork, user: Any, parcel_id: int | str, fiscal_year: Any,
                     as_of: date) -> tuple[AccountView, AccountFacts | None, Any, Any, Any]:
    """`rows=True`: the parcel, the access check, the account's one-row lookups and its
    installments, ledger entries and budget lines in one statement (`_account_rows`;
    NotFound when the user may not see the parcel). Returns the view (parcel, relation,
    fiscal year, lease, deposit order, demands), the account's facts (None without a fiscal
    year), the budget version, the roll and the budget lines (`BudgetLineRecord`s; None
    without a version and its roll)."""
    pid = access.parse_id(parcel_id)
    staff = access.is_staff(user)
    params = {**access.relation_params(user), "pid": pid, "as_of": as_of}
    if fiscal_year is None:
        view, a, version, roll, lists = _read_account(uow, _ACCOUNT_ON[staff], params, as_of)
        if view.fiscal_year is None:
            view, a, version, roll, lists = _read_account(uow, _ACCOUNT_NEXT[staff], params,
                                                          as_of)
    else:
        given = _fiscal_year(uow, fiscal_year, as_of)
        view, a, version, roll, lists = _read_account(
            uow, _ACCOUNT_OF[staff], {**params, "fy": given.id if given else None}, as_of)
    if view.fiscal_year is None:
        return view, None, None, None, None
    installments, entries, budget_lines, *fixed = lists
    view.fixed_row = tuple(fixed)
    account = facts.facts_from_json(pid, view.fiscal_year, a, installments, entries,
                                    rules=facts.rules_for(view.fiscal_year.starts_on, uow))
    facts.measure_lump_sums(uow, [account])
    budgeted = version is not None and roll is not None
    lines = _budget_lines(version.id, budget_lines) if budgeted else None
    return view, account, version, roll, lines


def _read_account(uow: UnitOfWork, stmt: StatementLambdaElement, params: dict[str, Any],
                  as_of: date) -> tuple[AccountView, Any, Any, Any, tuple[str | None, ...]]:
    """An `_account_rows` statement's rows as the view (parcel, relation, fiscal year,
    lease, deposit order, demands), the assessment, the budget version, the roll and the
    JSON texts of the installments, entries and budget lines; NotFound when the user may
    not see the parcel (or there is no such parcel: no row)."""
    # Plain columns (cut into records below), run on the unit of work's connection: the
    # ORM session's own work on a Core statement is skipped.
    rows = uow.connection().execute(stmt, params).all()
    relation = access.visible_relation(rows[0][0] if rows else None)
    if rows:  # the Board's parameters in force, for the account's rules (`facts.rules_for`)
        in_force.read_rows_json(uow, rows[0][-2])
    records = [cut_records(row[1:-7], *_ACCOUNT_RECORDS) for row in rows]
    parcel, fy, a, version, roll, lease, deposit_order, _ = records[0]
    view = AccountView(parcel=parcel, relation=relation, as_of=as_of, fiscal_year=fy,
                       benefit_units=parcel.benefit_units)
    _set_lease(view, lease, deposit_order)
    # Each demand once (several leases or orders in force repeat them), in order.
    view.demands = list({n.id: n for *_, n in records if n is not None}.values())
    view.claims = list({cid: ClaimRecord(cid, nid, pid, fy_id, facts.stored_date(filed), case)
                        for row in rows for cid, nid, pid, fy_id, filed, case
                        in facts.read_json_rows(row[-1])}.values())
    return view, a, version, roll, tuple(rows[0][-7:-2])


def _budget(uow: UnitOfWork, view: AccountView, a: Assessment, rows: bool,
            version: Any = None, roll: Any = None, lines: list | None = None) -> None:
    """The assessment's budget version with its lines and the version's roll (none shown
    without a roll). `rows=True`: the version, the roll and the lines were loaded with the
    account."""
    if rows:
        if version is None or roll is None or lines is None:
            return
    else:
        found = uow.session.execute(_BUDGET, {"version_id": a.budget_version_id}).all()
        if not found:
            return
        version, roll = found[0][0], found[0][1]
        lines = [ln for _, _, ln in found if ln is not None]
    view.budget_version, view.roll, view.budget_lines = version, roll, lines
    view.total_units = roll.total_units
    fixed_total, view.fixed_amount = view.fixed_row or uow.session.execute(
        _FIXED, {"version_id": version.id, "parcel_id": a.parcel_id}).one()
    view.pool = roll.total - (fixed_total or ZERO)  # R-A3: what is shared by units
    if view.pool and view.fixed_amount is None:  # the parcel's part of what units share
        view.share = (a.annual_amount / view.pool).quantize(Decimal("1e-8"))


def _history(uow: UnitOfWork, current: Assessment, rows: bool = False) -> list[Assessment]:
    params = {"parcel_id": current.parcel_id, "fy": current.fiscal_year_id}
    found = (uow.session.execute(_ACCOUNT_ASSESSMENT_ROWS, params) if rows
             else uow.session.scalars(_ACCOUNT_ASSESSMENTS, params))
    by_id = {x.id: x for x in found}
    chain = []
    prev = current.supersedes_id
    while prev is not None and prev in by_id:
        chain.append(by_id[prev])
        prev = by_id[prev].supersedes_id
    return list(reversed(chain))


def _lease(uow: UnitOfWork, view: AccountView) -> None:
    found = uow.session.execute(_LEASE, {"as_of": view.as_of, "parcel_id": view.parcel.id}
                                ).first()
    if found is not None:
        _set_lease(view, *found)


def _set_lease(view: AccountView, lease: Any, deposit_order: Any) -> None:
    """The lease in force (R-A16: it may make the lessee the payer) and its deposit order."""
    view.lease, view.deposit_order = lease, deposit_order
    if lease is not None and lease.lessee_pays:
        view.payer = "lessee"


def last_demand(notices: list[Any]) -> Demand | None:
    """The last demand mailed (R-A12) among an account's notices in order, for the core."""
    mailed = [n for n in notices if n.kind == "demand" and n.mailed_on is not None]
    if not mailed:
        return None
    n = mailed[-1]
    return Demand(n.mailed_on, n.amount or ZERO, n.acknowledged_on)


def demands_of(uow: UnitOfWork, parcel_ids: list[int], fiscal_year_id: int
               ) -> dict[int, Demand]:
    """The last demand mailed on each of these parcels' accounts for a fiscal year (the pay
    page's offers say what stops the court claim, as the parcel page does): one query."""
    rows = uow.session.scalars(
        select(Notice).where(Notice.parcel_id.in_(parcel_ids),
                             Notice.fiscal_year_id == fiscal_year_id, _IS_DEMAND,
                             Notice.mailed_on.is_not(None))
        .order_by(Notice.created_at, Notice.id))
    by_parcel: dict[int, list[Notice]] = {}
    for n in rows:
        by_parcel.setdefault(n.parcel_id, []).append(n)
    return {pid: d for pid, notices in by_parcel.items()
            if (d := last_demand(notices)) is not None}


def demands_by_account(uow: UnitOfWork, parcel_ids: list[int]
                       ) -> dict[tuple[int, int], Demand]:
    """`demands_of` for every fiscal year at once: {(parcel id, fiscal year id): the last
    demand mailed}, in one statement per `facts.IN_BATCH` parcels."""
    by_account: dict[tuple[int, int], list[Any]] = {}
    for batch in facts.in_batches(parcel_ids):
        for n in uow.session.execute(_MAILED_DEMANDS, {"ids": batch}):
            by_account.setdefault((n.parcel_id, n.fiscal_year_id), []).append(n)
    return {key: d for key, notices in by_account.items()
            if (d := last_demand(notices)) is not None}


#: `demands_by_account`'s: the columns `last_demand` reads, as plain rows.
_MAILED_DEMANDS = (
    select(_NOTICES.c.parcel_id, _NOTICES.c.fiscal_year_id, _NOTICES.c.kind,
           _NOTICES.c.mailed_on, _NOTICES.c.amount, _NOTICES.c.acknowledged_on)
    .where(_NOTICES.c.parcel_id.in_(bindparam("ids", expanding=True)), _IS_DEMAND,
           _NOTICES.c.mailed_on.is_not(None))
    .order_by(_NOTICES.c.created_at, _NOTICES.c.id))


@dataclass
class ParcelSummary:
    """One dashboard row: this year's assessment, what is due now, the next due date."""

    parcel: Parcel
    relation: str
    fiscal_year: FiscalYear | None
    annual: Decimal | None
    offer: Offer | None  # what can be paid, and each figure's day (`portal.core.offer`)
    loan: Any = None  # the lender's list: the loan (`access.LoanRecord`)

    @property
    def statement(self) -> Statement | None:
        return self.offer.statement if self.offer is not None else None

    @property
    def status(self) -> str:
        return account_status(self.statement)

    @property
    def due_now(self) -> Decimal:
        return self.offer.due_now if self.offer is not None else ZERO

    @property
    def payoff(self) -> Decimal:
        return self.offer.payoff if self.offer is not None else ZERO

    @property
    def due_now_by(self) -> date | None:
        """The last day to pay `due_now` on time (the offer's, R-A6/R-A7); None when
        nothing is due."""
        return self.offer.due_now_by if self.offer is not None else None

    @property
    def next_due_date(self) -> date | None:
        nxt = self.offer.next_due if self.offer is not None else None
        return nxt.due_date if nxt is not None else None

    @property
    def next_due_amount(self) -> Decimal | None:
        nxt = self.offer.next_due if self.offer is not None else None
        return nxt.owed if nxt is not None else None


def _summaries(uow: UnitOfWork, rows: list[tuple[Parcel, str]], as_of: date,
               fy: FiscalYear | None) -> list[ParcelSummary]:
    loaded = (facts.load_many(uow, [p.id for p, _ in rows], fy, rows=True)
              if fy is not None else {})
    return _summarise(rows, loaded, as_of, fy)


def _summarise(rows: list[tuple[Any, str]], loaded: dict[int, AccountFacts], as_of: date,
               fy: Any) -> list[ParcelSummary]:
    out = []
    for parcel, rel in rows:
        f = loaded.get(parcel.id)
        o = (f.offer(as_of, label=parcel.catastro, with_later=False)
             if f is not None and f.assessment is not None else None)
        out.append(ParcelSummary(parcel, rel, fy, f.annual if f is not None else None, o))
    return out


def _linked_accounts(*, loans: bool = True) -> Select:
    """For the user :uid on :today (`access.linked_relations`; not `loans`: without their
    lenders' loans): each way they are linked to a parcel, with the parcel, the fiscal year
    containing :as_of, the parcel's current assessment in it (NULL when none) and the
    account's installments and ledger entries as JSON (`facts.installments_json`,
    `facts.entries_json`), by catastro number."""
    rel, fy, a = access.linked_relations(loans=loans), _FISCAL_YEARS, _ASSESSMENTS
    return (select(rel.c.relation, _PARCELS, fy, a, facts.installments_json(a.c.id),
                   facts.entries_json(_PARCELS.c.id, fy.c.id))
            .select_from(_PARCELS)
            .join(rel, rel.c.parcel_id == _PARCELS.c.id)
            .outerjoin(fy, and_(fy.c.starts_on <= _AS_OF, fy.c.ends_on >= _AS_OF))
            .outerjoin(a, and_(a.c.parcel_id == _PARCELS.c.id, a.c.fiscal_year_id == fy.c.id,
                               facts.IS_CURRENT))
            .order_by(_PARCELS.c.catastro, _PARCELS.c.id))


_LINKED_ACCOUNTS = _linked_accounts()
_OWN_LINKED_ACCOUNTS = _linked_accounts(loans=False)


def dashboard(uow: UnitOfWork, user: Any, as_of: date | None = None, *, loans: bool = True
              ) -> list[ParcelSummary]:
    """Every parcel the user is linked to (links and loans; staff: their own links; not
    `loans`: without their lenders' loans, which the lender's list shows page by page),
    summarised in one statement whatever the number of parcels: the parcels with the user's
    relations, the fiscal year, the current assessments and the accounts' installments and
    ledger entries (`_LINKED_ACCOUNTS`). The parcels, fiscal year and assessments are plain
    read-only records."""
    as_of = as_of or clock.today()
    if user is None or getattr(user, "id", None) is None:
        return []
    linked: dict[int, list[Any]] = {}  # parcel id: [parcel, relation, fiscal year, facts]
    # Plain columns (a Core statement), run on the unit of work's connection, not through
    # the ORM's own work on it (~380 -> 365 us at load 5); the dashboard's pages only read.
    for row in uow.connection().execute(
            _LINKED_ACCOUNTS if loans else _OWN_LINKED_ACCOUNTS,
            {**access.link_params(user), "as_of": as_of}):
        parcel, fy, a = cut_records(row[1:-2], access.ParcelRecord, FiscalYearRecord,
                             AssessmentRecord)
        seen = linked.get(parcel.id)
        if seen is not None:
            seen[1] = access.strongest((seen[1], row[0]))
            continue
        account = (facts.facts_from_json(parcel.id, fy, a, row[-2], row[-1],
                                         rules=facts.rules_for(fy.starts_on, uow))
                   if fy is not None else None)
        linked[parcel.id] = [parcel, row[0], fy, account]
    if not linked:
        return []
    pairs = [(parcel, rel) for parcel, rel, _, _ in linked.values()]
    fy = next(iter(linked.values()))[2]
    if fy is None:  # no fiscal year contains as_of: the next one to start, if any
        return _summaries(uow, pairs, as_of, fiscal_year_on(uow, as_of))
    loaded = {pid: v[3] for pid, v in linked.items()}
    facts.measure_lump_sums(uow, loaded.values())
    return _summarise(pairs, loaded, as_of, fy)


class Portfolio(NamedTuple):
    """A page of the lender's loans with each parcel's summary, and how many loans in all."""

    summaries: list[ParcelSummary]
    total: int


def lender_portfolio(uow: UnitOfWork, user: Any, as_of: date | None = None, *,
                     offset: int = 0, limit: int | None = None) -> Portfolio:
    """The lender's active loans with each parcel's summary (the lender's list), by loan
    number: `limit` of them from `offset` (all by default); only that page is read and
    computed, whatever the number of loans."""
    as_of = as_of or clock.today()
    loans, total = access.lender_loans(uow, user, offset=offset, limit=limit)
    summaries = _summaries(uow, [(p, "lender") for _, p in loans], as_of,
                           fiscal_year_on(uow, as_of)) if loans else []
    for s, (loan, _) in zip(summaries, loans):
        s.loan = loan
    return Portfolio(summaries, total)


def fiscal_years(uow: UnitOfWork) -> list[FiscalYear]:
    return list(uow.session.scalars(select(FiscalYear).order_by(FiscalYear.starts_on)))


__all__ = ["AccountView", "ParcelSummary", "Portfolio", "account_status", "dashboard",
           "lender_portfolio", "demands_of", "demands_by_account", "last_demand", "rules_for",
           "statement_for", "fiscal_years"]
