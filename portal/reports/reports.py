"""The reports (docs/REPORTS.md): demands, the court list, the exemption queue, payments by
day and method, the assessment register and the aging of unpaid installments.

Each report has its columns (catalog texts), its figures (aggregate queries: counts and
sums, never a row read into Python to be added up) and its rows, streamed (`yield_per`, a
server-side cursor on PostgreSQL) for the CSV and paged for the screen. Sums are exact:
NUMERIC on PostgreSQL, integer cents on SQLite (which keeps NUMERIC as floating point).
Staff only (`access.require_staff`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import BigInteger, Date, and_, case, cast, exists, func, literal, select
from sqlalchemy.orm import aliased

from portal import clock
from portal.accounts import access
from portal.collections import demands as collections_demands
from portal.core import aging as core_aging
from portal.core import payment_states as states
from portal.core.explain import N_
from portal.db import UnitOfWork
from portal.models import (
    Assessment,
    DemandLetter,
    ExemptionCertification,
    FiscalYear,
    Installment,
    Lender,
    Loan,
    Parcel,
    Payment,
    PaymentAllocation,
)

#: Rows fetched per round trip when a report streams.
STREAM = 2000
#: Rows a report's page shows.
PAGE = 50
#: Payments whose allocations stand (a refund gives back credit, never a paid installment).
POSTED = (states.SUCCEEDED, states.PARTIALLY_REFUNDED, states.REFUNDED)
CENT = Decimal("0.01")


@dataclass(frozen=True)
class Params:
    """What a report is asked for: the day it is computed on, a range of days (demands,
    payments) and a fiscal year (the assessment register)."""

    today: date
    start: date | None = None
    end: date | None = None
    fiscal_year_start: date | None = None


@dataclass(frozen=True)
class Figure:
    """One figure on screen: its label (a catalog text), its value, whether it is money."""

    label: str
    value: Any
    money: bool = False
    code: str = ""


@dataclass
class Report:
    name: str
    title: str
    columns: tuple[str, ...]
    money_columns: frozenset[int]
    figures: Callable[[UnitOfWork, Params], list[Figure]]
    rows: Callable[[UnitOfWork, Params], Iterator[tuple]]
    uses: tuple[str, ...] = field(default_factory=tuple)  # "range", "fiscal_year"
    #: Its figures added up from its rows, for a report whose rows begin with their day (a
    #: range of days then reads the days' rows of the snapshot of every day).
    figures_of: Callable[[Iterable[tuple]], list[Figure]] | None = None


def _numeric(uow: UnitOfWork) -> bool:
    return uow.session.get_bind().dialect.name != "sqlite"


def _sum(uow: UnitOfWork, column: Any) -> Any:
    """An exact SUM: the column on PostgreSQL, integer cents on SQLite."""
    if _numeric(uow):
        return func.coalesce(func.sum(column), 0)
    return func.coalesce(func.sum(cast(func.round(column * 100), BigInteger)), 0)


def _money(uow: UnitOfWork, value: Any) -> Decimal:
    if value is None:
        return Decimal("0.00")
    if _numeric(uow):
        return Decimal(value).quantize(CENT)
    return (Decimal(int(value)) / 100).quantize(CENT)


def _amount(value: Any) -> Decimal:
    """A row's amount (a float on SQLite) as Decimal to the cent."""
    return Decimal("0.00") if value is None else Decimal(str(value)).quantize(CENT)


def _stream(uow: UnitOfWork, stmt: Any) -> Iterator[Any]:
    yield from uow.session.execute(stmt.execution_options(yield_per=STREAM))


# --- demands ------------------------------------------------------------------------------

def _demands_where(p: Params) -> list[Any]:
    where = []
    if p.start:
        where.append(DemandLetter.run_on >= p.start)
    if p.end:
        where.append(DemandLetter.run_on <= p.end)
    return where


def demands_figures(uow: UnitOfWork, p: Params) -> list[Figure]:
    d = DemandLetter
    n, total, principal = uow.session.execute(
        select(func.count(d.id), _sum(uow, d.total), _sum(uow, d.delinquent_principal))
        .where(*_demands_where(p))).one()
    return [Figure(N_("Demands"), int(n), code="count"),
            Figure(N_("Total demanded"), _money(uow, total), True, "total"),
            Figure(N_("Delinquent principal"), _money(uow, principal), True, "principal")]


def demands_rows(uow: UnitOfWork, p: Params) -> Iterator[tuple]:
    d = DemandLetter
    stmt = (select(d.run_on, Parcel.catastro, Parcel.municipality, d.installments,
                   d.delinquent_principal, d.interest, d.late_fees, d.costs, d.credit, d.total)
            .join(Parcel, Parcel.id == d.parcel_id).where(*_demands_where(p))
            .order_by(d.run_on, Parcel.catastro, d.id))
    for run_on, cat, muni, inst, *amounts in _stream(uow, stmt):
        yield (run_on, cat, muni, inst, *[_amount(a) for a in amounts])


# --- the court list (R-A13) ---------------------------------------------------------------

def _court(uow: UnitOfWork, p: Params) -> Iterator[Any]:
    """The claimable demands a page at a time (the collections' own list, by key): each
    row's status needs its account's offer, so it is computed, never held all at once."""
    after = 0
    while True:
        rows = collections_demands.claimable(uow, today=p.today, after=after,
                                             limit=collections_demands.PAGE)
        yield from rows
        if len(rows) < collections_demands.PAGE:
            return  # a short page is the last (no statement more to learn it)
        after = rows[-1].notice.id
        uow.session.expunge_all()


def court_figures(uow: UnitOfWork, p: Params) -> list[Figure]:
    count, total = 0, Decimal("0.00")
    for r in _court(uow, p):
        count += 1
        total += r.stop_amount or Decimal(0)
    return [Figure(N_("Claims that can be filed"), count, code="count"),
            Figure(N_("Owed on them today"), total, True, "total")]


def court_rows(uow: UnitOfWork, p: Params) -> Iterator[tuple]:
    for r in _court(uow, p):
        yield (r.catastro, r.addressee, r.notice.mailed_on, r.last_day,
               _amount(r.notice.amount), r.stop_amount or Decimal("0.00"))


# --- the exemption queue ------------------------------------------------------------------

def exemptions_figures(uow: UnitOfWork, p: Params) -> list[Figure]:
    c = ExemptionCertification
    rows = dict(uow.session.execute(select(c.status, func.count(c.id))
                                    .where(c.status != "draft").group_by(c.status)).all())
    out = [Figure(N_("Filed certifications"), sum(rows.values()), code="count")]
    for status, label in (("filed", N_("Filed, not taken up")),
                          ("under_review", N_("Under review")),
                          ("resubmitted", N_("Resubmitted")),
                          ("returned", N_("Returned to the owner")),
                          ("approved", N_("Approved")),
                          ("withdrawn", N_("Withdrawn")),
                          ("revoked", N_("Revoked on a change report"))):
        out.append(Figure(label, int(rows.get(status, 0)), code=status))
    return out


def exemptions_rows(uow: UnitOfWork, p: Params) -> Iterator[tuple]:
    c = ExemptionCertification
    stmt = (select(c.filing_number, c.status, Parcel.catastro, Parcel.municipality, c.filed_on,
                   Lender.code, Loan.loan_number)
            .join(Parcel, Parcel.id == c.parcel_id)
            .outerjoin(Loan, Loan.id == c.loan_id).outerjoin(Lender, Lender.id == Loan.lender_id)
            .where(c.status != "draft").order_by(c.filed_on, c.id))
    for number, status, cat, muni, filed_on, lender, loan in _stream(uow, stmt):
        age = (p.today - filed_on).days if filed_on else None
        yield (number, status, cat, muni, filed_on, age, lender or "", loan or "")


# --- payments by day and method -----------------------------------------------------------

def _pr_day(uow: UnitOfWork) -> Any:
    """A payment's Puerto Rico day (UTC-4 all year, no daylight saving: portal.clock)."""
    if _numeric(uow):
        return cast(func.timezone("America/Puerto_Rico", Payment.completed_at), Date)
    return func.date(Payment.completed_at, "-4 hours")


def _payments_where(uow: UnitOfWork, p: Params) -> list[Any]:
    where = [Payment.status.in_(POSTED), Payment.completed_at.is_not(None)]
    if p.start:
        where.append(Payment.completed_at >= _utc_start(p.start))
    if p.end:
        where.append(Payment.completed_at < _utc_start(p.end + timedelta(days=1)))
    return where


def _utc_start(day: date) -> datetime:
    """The UTC instant Puerto Rico's `day` begins."""
    return clock.pr_instant(day, time(0, 0))


def payments_figures(uow: UnitOfWork, p: Params) -> list[Figure]:
    return payments_figures_of(payments_rows(uow, p))


def payments_figures_of(rows: Iterable[tuple]) -> list[Figure]:
    """The figures of payments by day and method, added up from its rows (a row a day and
    method: at most 1,830 a year, whatever the District's size): how many, collected, and
    each method's amount. The same whether the rows are read on the spot or from a snapshot
    (a range of days reads its days' rows of the snapshot of every day)."""
    counts: dict[str, int] = {}
    amounts: dict[str, Decimal] = {}
    for _day, method, count, amount, _refunded in rows:
        counts[method] = counts.get(method, 0) + count
        amounts[method] = amounts.get(method, Decimal("0.00")) + amount
    out = [Figure(N_("Payments"), sum(counts.values()), code="count"),
           Figure(N_("Collected"), sum(amounts.values(), Decimal("0.00")), True, "total")]
    for method in sorted(counts):
        out.append(Figure(METHODS.get(method, method), amounts[method], True,
                          f"method:{method}:{counts[method]}"))
    return out


METHODS = {"card": N_("Card"), "bank": N_("Bank account"), "cash": N_("Cash"),
           "check": N_("Check"), "lender": N_("Lender")}


def payments_rows(uow: UnitOfWork, p: Params) -> Iterator[tuple]:
    day = _pr_day(uow).label("day")
    stmt = (select(day, Payment.method, func.count(Payment.id), _sum(uow, Payment.amount),
                   _sum(uow, Payment.refunded_amount))
            .where(*_payments_where(uow, p)).group_by(day, Payment.method)
            .order_by(day, Payment.method))
    for d, method, count, amount, refunded in _stream(uow, stmt):
        yield (d if isinstance(d, date) else date.fromisoformat(str(d)), method, int(count),
               _money(uow, amount), _money(uow, refunded))


# --- the assessment register --------------------------------------------------------------

def _in_force() -> Any:
    later = aliased(Assessment)
    return ~exists().where(later.supersedes_id == Assessment.id)


def _register_where(uow: UnitOfWork, p: Params) -> list[Any]:
    where = [_in_force()]
    if p.fiscal_year_start:
        fy_id = uow.session.scalar(select(FiscalYear.id).where(
            FiscalYear.starts_on == p.fiscal_year_start))
        where.append(Assessment.fiscal_year_id == (fy_id if fy_id is not None else -1))
    return where


def register_figures(uow: UnitOfWork, p: Params) -> list[Figure]:
    a = Assessment
    n, total = uow.session.execute(select(func.count(a.id), _sum(uow, a.annual_amount))
                                   .where(*_register_where(uow, p))).one()
    lessee = uow.session.scalar(select(func.count(a.id)).where(
        *_register_where(uow, p), a.payer == "lessee"))
    return [Figure(N_("Parcels assessed"), int(n), code="count"),
            Figure(N_("Total assessed"), _money(uow, total), True, "total"),
            Figure(N_("Paid by a lessee"), int(lessee or 0), code="lessee")]


def register_rows(uow: UnitOfWork, p: Params) -> Iterator[tuple]:
    a = Assessment
    stmt = (select(Parcel.catastro, Parcel.municipality, FiscalYear.starts_on, a.annual_amount,
                   a.benefit_units, a.payer, a.notified_on, a.supersedes_id.is_not(None))
            .join(Parcel, Parcel.id == a.parcel_id)
            .join(FiscalYear, FiscalYear.id == a.fiscal_year_id)
            .where(*_register_where(uow, p)).order_by(Parcel.catastro, a.id))
    for cat, muni, fy, amount, units, payer, notified, amended in _stream(uow, stmt):
        yield (cat, muni, fy, _amount(amount), units, payer, notified,
               "yes" if amended else "no")


# --- aging --------------------------------------------------------------------------------

def _aging_lines(uow: UnitOfWork, p: Params) -> Any:
    """Per past-due installment in force: its parcel, due date and unpaid principal (its
    amount less the principal posted payments allocated to its number)."""
    pa, pay = PaymentAllocation, Payment
    paid = (select(pay.parcel_id, pay.fiscal_year_id, pa.installment_number,
                   func.sum(pa.amount).label("paid"))
            .join(pay, pay.id == pa.payment_id)
            .where(pay.status.in_(POSTED), pa.kind == "principal",
                   pa.installment_number.is_not(None))
            .group_by(pay.parcel_id, pay.fiscal_year_id, pa.installment_number)
            .subquery())
    unpaid = (Installment.amount - func.coalesce(paid.c.paid, 0)).label("unpaid")
    return (select(Assessment.parcel_id.label("parcel_id"),
                   Installment.due_date.label("due_date"), unpaid)
            .join(Installment, Installment.assessment_id == Assessment.id)
            .outerjoin(paid, and_(paid.c.parcel_id == Assessment.parcel_id,
                                  paid.c.fiscal_year_id == Assessment.fiscal_year_id,
                                  paid.c.installment_number == Installment.number))
            .where(_in_force(), Installment.due_date < p.today,
                   Installment.amount - func.coalesce(paid.c.paid, 0) > 0)
            .subquery())


def _bucket_sums(uow: UnitOfWork, lines: Any, today: date) -> list[Any]:
    out = []
    for w in core_aging.windows(today):
        cond = lines.c.due_date <= w.due_to
        if w.due_from is not None:
            cond = and_(cond, lines.c.due_date >= w.due_from)
        out.append(_sum(uow, case((cond, lines.c.unpaid), else_=literal(0))).label(w.code))
    return out


BUCKET_LABELS = {"d0_30": N_("0 to 30 days"), "d31_90": N_("31 to 90 days"),
                 "d91_365": N_("91 to 365 days"), "over_365": N_("More than 365 days")}


def aging_figures(uow: UnitOfWork, p: Params) -> list[Figure]:
    lines = _aging_lines(uow, p)
    sums = _bucket_sums(uow, lines, p.today)
    row = uow.session.execute(
        select(func.count(func.distinct(lines.c.parcel_id)), *sums)).one()
    buckets = [_money(uow, v) for v in row[1:]]
    out = [Figure(N_("Parcels with an amount past due"), int(row[0]), code="count")]
    out += [Figure(BUCKET_LABELS[c], v, True, c) for c, v in zip(core_aging.CODES, buckets,
                                                                   strict=True)]
    out.append(Figure(N_("Total past due"), sum(buckets, Decimal("0.00")), True, "total"))
    return out


def aging_rows(uow: UnitOfWork, p: Params) -> Iterator[tuple]:
    lines = _aging_lines(uow, p)
    sums = _bucket_sums(uow, lines, p.today)
    per_parcel = (select(lines.c.parcel_id, *sums).group_by(lines.c.parcel_id).subquery())
    stmt = (select(Parcel.catastro, Parcel.municipality,
                   *[per_parcel.c[c] for c in core_aging.CODES])
            .join(per_parcel, per_parcel.c.parcel_id == Parcel.id)
            .order_by(Parcel.catastro))
    for cat, muni, *amounts in _stream(uow, stmt):
        values = [_money(uow, a) for a in amounts]
        yield (cat, muni, *values, sum(values, Decimal("0.00")))


# --- the catalogue ------------------------------------------------------------------------

REPORTS: dict[str, Report] = {
    "demandas": Report(
        "demandas", N_("Demands"),
        (N_("Run on"), N_("Catastro number"), N_("Municipality"), N_("Installments"),
         N_("Delinquent principal"), N_("Interest"), N_("Late fees"), N_("Costs"),
         N_("Credit"), N_("Total")),
        frozenset(range(4, 10)), demands_figures, demands_rows, ("range",)),
    "tribunal": Report(
        "tribunal", N_("Court list"),
        (N_("Catastro number"), N_("Addressee"), N_("Mailed on"), N_("Last day"),
         N_("Demanded"), N_("Owed today")),
        frozenset({4, 5}), court_figures, court_rows),
    "exoneraciones": Report(
        "exoneraciones", N_("Exemption queue"),
        (N_("Filing number"), N_("Status"), N_("Catastro number"), N_("Municipality"),
         N_("Filed on"), N_("Days since filing"), N_("Lender"), N_("Loan number")),
        frozenset(), exemptions_figures, exemptions_rows),
    "pagos": Report(
        "pagos", N_("Payments by day and method"),
        (N_("Day"), N_("Method"), N_("Payments"), N_("Amount"), N_("Refunded")),
        frozenset({3, 4}), payments_figures, payments_rows, ("range",),
        payments_figures_of),
    "registro": Report(
        "registro", N_("Assessment register"),
        (N_("Catastro number"), N_("Municipality"), N_("Fiscal year"), N_("Annual amount"),
         N_("Benefit units"), N_("Payer"), N_("Notified on"), N_("Amended")),
        frozenset({3}), register_figures, register_rows, ("fiscal_year",)),
    "morosidad": Report(
        "morosidad", N_("Aging of unpaid installments"),
        (N_("Catastro number"), N_("Municipality"), N_("0 to 30 days"), N_("31 to 90 days"),
         N_("91 to 365 days"), N_("More than 365 days"), N_("Total past due")),
        frozenset({2, 3, 4, 5, 6}), aging_figures, aging_rows),
}
def figures(uow: UnitOfWork, staff: Any, name: str, p: Params) -> list[Figure]:
    access.require_staff(staff)
    return REPORTS[name].figures(uow, p)


def rows(uow: UnitOfWork, staff: Any, name: str, p: Params) -> Iterator[tuple]:
    """Every row of the report, streamed."""
    access.require_staff(staff)
    return REPORTS[name].rows(uow, p)


def page(uow: UnitOfWork, staff: Any, name: str, p: Params, number: int
         ) -> tuple[list[tuple], bool]:
    """The rows of page `number` (1-based) and whether there is a next one (read as a
    stream: the rows before are skipped, never kept)."""
    out: list[tuple] = []
    start = (number - 1) * PAGE
    for i, row in enumerate(rows(uow, staff, name, p)):
        if i < start:
            continue
        if len(out) == PAGE:
            return out, True
        out.append(row)
    return out, False


_FISCAL_YEARS = select(FiscalYear.starts_on).order_by(FiscalYear.starts_on.desc())


def fiscal_years(uow: UnitOfWork) -> list[date]:
    """The fiscal years, newest first (the register's choice; on the connection: no ORM
    entity to build)."""
    return list(uow.connection().execute(_FISCAL_YEARS).scalars())


__all__ = ["REPORTS", "Figure", "Params", "figures", "fiscal_years", "page", "rows"]
