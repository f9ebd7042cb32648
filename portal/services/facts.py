"""An account's facts, loaded for the core (DESIGN.md 1).

An account is a parcel in a fiscal year. Its facts: the installments of its current
assessment, its ledger entries (credits: posted payments, credit adjustments and reversals;
debits: costs, refunds, debit adjustments and reversals) and the parameters in force. The
statement is always `portal.core.statement.evaluate` over these facts, in this order:

- credits become the core's payments, ordered by (legal date, ledger id): the posting order;
- debits become the core's costs, ordered the same way;
- "charge" and "discount" entries are informational (the installments and the core carry them).

Everything here loads many accounts in a fixed number of queries (the dashboard's need).
"""

from __future__ import annotations

import json
from collections import namedtuple
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import lru_cache
from typing import Any

from sqlalchemy import Text, and_, bindparam, exists, select
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.functions import FunctionElement

from portal.core import params
from portal.core.installments import Installment as CoreInstallment
from portal.core.money import ZERO
from portal.core.statement import (
    Cost,
    Payment,
    Statement,
    StatementRules,
    evaluate,
    evaluate_two,
)
from portal.db import UnitOfWork
from portal.models import Assessment, FiscalYear, Installment, LedgerEntry, Parcel
from portal.models import Payment as PaymentRow

INFORMATIONAL = ("charge", "discount")


@lru_cache(maxsize=32)
def rules_for(fiscal_year_start: date) -> StatementRules:
    """The Board's parameters in force for the fiscal year (portal.core.params), with the
    days the Board declared closed."""
    def v(name: str):  # noqa: ANN202
        return params.value(name, fiscal_year_start)

    deadline_spec = v("lump_sum_deadline")
    deadline: date | None = None
    if deadline_spec != "first_installment_due":
        month, day = (int(x) for x in str(deadline_spec).split("-"))
        year = fiscal_year_start.year if month >= fiscal_year_start.month else \
            fiscal_year_start.year + 1
        deadline = date(year, month, day)
    return StatementRules(
        grace_day=v("grace_day"), late_fee_rate=v("late_fee_rate"),
        late_fee_base=v("late_fee_base"), interest_rate=v("interest_rate"),
        lump_sum_discount_rate=v("lump_sum_discount_rate"), lump_sum_deadline=deadline,
        closed_days=frozenset(c.day for c in params.closed_days()))


def installment_count(fiscal_year_start: date) -> int:
    return int(params.value("installment_count", fiscal_year_start))


@dataclass
class AccountFacts:
    """The facts of one account, in the core's input order."""

    parcel_id: int
    fiscal_year: FiscalYear
    assessment: Assessment | None
    installment_rows: list[Installment] = field(default_factory=list)
    credits: list[LedgerEntry] = field(default_factory=list)
    debits: list[LedgerEntry] = field(default_factory=list)
    lump_sum_flags: dict[int, bool] = field(default_factory=dict)  # payment_id -> lump_sum
    other: list[LedgerEntry] = field(default_factory=list)  # charges, discounts
    rules: StatementRules = field(default_factory=StatementRules)

    @property
    def installments(self) -> list[CoreInstallment]:
        return [CoreInstallment(i.number, i.due_date, i.amount) for i in self.installment_rows]

    @property
    def annual(self) -> Decimal | None:
        return self.assessment.annual_amount if self.assessment is not None else None

    @property
    def payments(self) -> list[Payment]:
        return [Payment(e.legal_date, e.amount,
                        bool(e.payment_id and self.lump_sum_flags.get(e.payment_id)))
                for e in self.credits]

    @property
    def costs(self) -> list[Cost]:
        return [Cost(e.legal_date, e.amount, e.cost_kind or e.kind) for e in self.debits]

    @property
    def last_credit_date(self) -> date | None:
        return max((e.legal_date for e in self.credits), default=None)

    def file(self, entry: LedgerEntry, lump_sum: bool | None) -> None:
        """Add a ledger entry (in posting order) where the core reads it; `lump_sum`: its
        payment's flag, for a payment entry."""
        if entry.kind in INFORMATIONAL:
            self.other.append(entry)
        elif entry.direction == "credit":
            self.credits.append(entry)
            if entry.kind == "payment" and entry.payment_id is not None:
                self.lump_sum_flags[entry.payment_id] = bool(lump_sum)
        else:
            self.debits.append(entry)

    def evaluate(self, as_of: date, extra: Sequence[Payment] = ()) -> Statement:
        """The core's statement over these facts (plus hypothetical `extra` payments)."""
        return evaluate(as_of, self.installments, self.payments + list(extra), self.costs,
                        self.rules, self.annual)

    def evaluate_two(self, as_of: date, through: date | Callable[[Statement], date]
                     ) -> tuple[Statement, Statement]:
        """The core's statements over these facts as of `as_of` and as of `through` (a date,
        or a function of the first statement giving it), in one walk (`evaluate_two`)."""
        return evaluate_two(as_of, through, self.installments, self.payments, self.costs,
                            self.rules, self.annual)


# The hot statements are built once, with bound parameters: building a SELECT (and an
# alias) on every call costs more than running it, and a statement built once hits the
# compiled cache at once (docs/REQUESTS.md, web 7).
_ON = bindparam("on")
_FY_CONTAINING = select(FiscalYear).where(FiscalYear.starts_on <= _ON, FiscalYear.ends_on >= _ON)
_FY_NEXT = (select(FiscalYear).where(FiscalYear.starts_on > _ON)
            .order_by(FiscalYear.starts_on).limit(1))
_INSTALLMENTS = (select(Installment)
                 .where(Installment.assessment_id.in_(bindparam("aids", expanding=True)))
                 .order_by(Installment.assessment_id, Installment.due_date, Installment.number))
_ENTRIES = (select(LedgerEntry, PaymentRow.lump_sum)
            .outerjoin(PaymentRow, and_(PaymentRow.id == LedgerEntry.payment_id,
                                        LedgerEntry.kind == "payment"))
            .where(LedgerEntry.parcel_id.in_(bindparam("ids", expanding=True)),
                   LedgerEntry.fiscal_year_id == bindparam("fy"))
            .order_by(LedgerEntry.parcel_id, LedgerEntry.legal_date, LedgerEntry.id))

# The same as plain rows, for `rows=True` (read-only pages): materialising ORM objects was
# most of the dashboard's and the parcel page's time. They select the tables' own columns (no
# mapped attribute), so they run as Core statements (no ORM step at all), and each row reads
# like the model (`row.amount`: the models' attribute names are their column names).
_ASSESSMENTS, _NEWER = Assessment.__table__, Assessment.__table__.alias("newer")
_INSTALLMENT_TABLE, _ENTRY_TABLE, _PAYMENT_TABLE = (
    Installment.__table__, LedgerEntry.__table__, PaymentRow.__table__)
#: SQL: the `assessments` row is current, i.e. no amendment supersedes it (R-A5).
IS_CURRENT = ~exists().where(_NEWER.c.supersedes_id == _ASSESSMENTS.c.id)
_CURRENT = select(Assessment).where(
    Assessment.parcel_id.in_(bindparam("ids", expanding=True)),
    Assessment.fiscal_year_id == bindparam("fy"), IS_CURRENT)


# The rows are kept as named tuples: the core's inputs are rebuilt from them at every
# evaluation, and reading a field of an SQLAlchemy `Row` by name
# costs several times more. Their fields are the columns the core reads, named as the models'.
InstallmentRow = namedtuple("InstallmentRow", "assessment_id number due_date amount")
EntryRow = namedtuple("EntryRow", "id parcel_id kind direction legal_date amount payment_id "
                                  "cost_kind description lump_sum")


def record_type(model: type, name: str) -> type:
    """A named tuple of the model's columns, in table order, named as its attributes: a
    read-only copy of one table's part of a joined Core row (`Record._make(row[i:j])`)."""
    return namedtuple(name, model.__table__.c.keys())  # type: ignore[misc]


def fiscal_year_on(uow: UnitOfWork, on: date) -> FiscalYear | None:
    """The fiscal year containing `on`; if none is recorded, the next one to start (its
    notices go out before it starts: the owner sees the coming year and its lump sum)."""
    fy = uow.session.scalar(_FY_CONTAINING, {"on": on})
    if fy is None:
        fy = uow.session.scalar(_FY_NEXT, {"on": on})
    return fy


def current_assessments(uow: UnitOfWork, parcel_ids: Iterable[int], fiscal_year_id: int
                        ) -> dict[int, Assessment]:
    """{parcel_id: the assessment no amendment supersedes} for the fiscal year."""
    ids = list(parcel_ids)
    if not ids:
        return {}
    found = uow.session.scalars(_CURRENT, {"ids": ids, "fy": fiscal_year_id})
    return {a.parcel_id: a for a in found}


def load_many(uow: UnitOfWork, parcel_ids: Iterable[int], fiscal_year: FiscalYear,
              *, rows: bool = False) -> dict[int, AccountFacts]:
    """The facts of many accounts of one fiscal year in three queries.

    `rows=True` (read-only pages), in one (`_ACCOUNTS_JSON`): the assessments are plain
    records of their columns, the installments and ledger entries named tuples with the
    columns the core reads
    (`InstallmentRow`: number, due_date, amount; `EntryRow`: id, kind, direction,
    legal_date, amount, payment_id, cost_kind, description), not ORM objects."""
    ids = sorted(set(int(p) for p in parcel_ids))
    if rows:
        out = {}
        if ids:
            for row in uow.session.execute(_ACCOUNTS_JSON, {"ids": ids, "fy": fiscal_year.id}):
                a = AssessmentRecord._make(row[1:-2]) if row[1] is not None else None
                out[row[0]] = facts_from_json(row[0], fiscal_year, a, row[-2], row[-1])
        return out
    rules = rules_for(fiscal_year.starts_on)
    out = {pid: AccountFacts(pid, fiscal_year, None, rules=rules) for pid in ids}
    if not ids:
        return out
    assessments = current_assessments(uow, ids, fiscal_year.id)
    for pid, a in assessments.items():
        out[pid].assessment = a
    by_assessment = {a.id: a.parcel_id for a in assessments.values()}
    if by_assessment:
        for inst in uow.session.scalars(_INSTALLMENTS, {"aids": list(by_assessment)}):
            out[by_assessment[inst.assessment_id]].installment_rows.append(inst)
    for entry, lump in uow.session.execute(_ENTRIES, {"ids": ids, "fy": fiscal_year.id}):
        out[entry.parcel_id].file(entry, lump)
    return out


def load(uow: UnitOfWork, parcel_id: int, fiscal_year: FiscalYear, *, rows: bool = False
         ) -> AccountFacts:
    return load_many(uow, [parcel_id], fiscal_year, rows=rows)[int(parcel_id)]


# --- Accounts' rows as JSON columns of another statement (read-only pages) -----------------
# A statement costs a page more in SQLAlchemy's own work than the database spends on it, so
# the read-only pages read an account's installments and ledger entries (the parcel page: and
# its budget lines) as more columns of the statement that reads the account: each a
# correlated subquery giving JSON text, one array per row, built by the database (SQLite's
# json_group_array / json_array, PostgreSQL's json_agg / json_build_array, cast to text so
# that the driver does not read numbers as floats) and read back here with the columns'
# types (dates; amounts as Decimal).


class _JsonRow(FunctionElement):
    """SQL: a JSON array of the arguments."""

    inherit_cache = True


class _JsonRows(FunctionElement):
    """SQL aggregate: a JSON array of one value per row, as text (NULL for no row on
    PostgreSQL, "[]" on SQLite)."""

    type = Text()
    inherit_cache = True


#: Each construct's SQL per dialect ({} is the arguments); the portal speaks these two.
_JSON_SQL = {
    _JsonRow: {"sqlite": "json_array({})", "postgresql": "json_build_array({})"},
    _JsonRows: {"sqlite": "json_group_array({})", "postgresql": "CAST(json_agg({}) AS TEXT)"},
}


def _json_sql(template: str) -> Callable[..., str]:
    def compile_(element: FunctionElement, compiler: Any, **kw: Any) -> str:
        return template.format(compiler.process(element.clauses, **kw))
    return compile_


for _construct, _by_dialect in _JSON_SQL.items():
    for _dialect, _template in _by_dialect.items():
        compiles(_construct, _dialect)(_json_sql(_template))


def json_rows(*columns: Any) -> Any:
    """SQL aggregate: the rows' `columns` as JSON text, one array per row (`read_json_rows`)."""
    return _JsonRows(_JsonRow(*columns))


def read_json_rows(text: str | None) -> list[list[Any]]:
    """`json_rows`' value: a list per row; JSON numbers with a fraction as `Decimal` (never
    float), integers as int (amounts: `stored_money`)."""
    return json.loads(text or "[]", parse_float=Decimal)


def stored_money(value: Decimal | int | None) -> Decimal | None:
    """An amount of a NUMERIC(14, 2) column as read from JSON, with its two decimals
    (600 -> 600.00): exact, no rounding (adding 0.00 keeps every digit)."""
    return None if value is None else Decimal(value) + ZERO


def stored_date(value: str | None) -> date | None:
    return None if value is None else date.fromisoformat(value)


def installments_json(assessment_id: Any) -> Any:
    """SQL (a scalar subquery, correlated to `assessment_id`): that assessment's
    installments as JSON rows of (number, due_date, amount)."""
    i = _INSTALLMENT_TABLE
    return (select(json_rows(i.c.number, i.c.due_date, i.c.amount))
            .where(i.c.assessment_id == assessment_id).scalar_subquery())


def entries_json(parcel_id: Any, fiscal_year_id: Any) -> Any:
    """SQL (a scalar subquery, correlated to the columns given): the parcel's ledger entries
    in the fiscal year as JSON rows of (id, kind, direction, legal_date, amount, payment_id,
    cost_kind, description, lump_sum: the payment's flag)."""
    e, pay = _ENTRY_TABLE, _PAYMENT_TABLE
    return (select(json_rows(e.c.id, e.c.kind, e.c.direction, e.c.legal_date, e.c.amount,
                             e.c.payment_id, e.c.cost_kind, e.c.description, pay.c.lump_sum))
            .select_from(e)
            .outerjoin(pay, and_(pay.c.id == e.c.payment_id, e.c.kind == "payment"))
            .where(e.c.parcel_id == parcel_id, e.c.fiscal_year_id == fiscal_year_id)
            .scalar_subquery())


def facts_from_json(parcel_id: int, fiscal_year: Any, assessment: Any,
                    installments: str | None, entries: str | None) -> AccountFacts:
    """An account's facts from `installments_json` and `entries_json` values: the rows the
    statements above give, in their order (installments by due date and number, entries in
    posting order: legal date, id)."""
    facts = AccountFacts(parcel_id, fiscal_year, assessment,
                         rules=rules_for(fiscal_year.starts_on))
    if assessment is not None:
        aid = assessment.id
        facts.installment_rows = sorted(
            (InstallmentRow(aid, n, stored_date(d), stored_money(amount))
             for n, d, amount in read_json_rows(installments)),
            key=lambda i: (i.due_date, i.number))
    rows = [EntryRow(eid, parcel_id, kind, direction, stored_date(day), stored_money(amount),
                     payment, cost_kind, description, None if lump is None else bool(lump))
            for eid, kind, direction, day, amount, payment, cost_kind, description, lump
            in read_json_rows(entries)]
    rows.sort(key=lambda e: (e.legal_date, e.id))
    for entry in rows:
        facts.file(entry, entry.lump_sum)
    return facts


#: An assessment's columns, read-only (the read-only pages' records).
AssessmentRecord = record_type(Assessment, "AssessmentRecord")
_PARCEL_IDS = Parcel.__table__.c.id
# `load_many(rows=True)`: for each parcel of :ids, its current assessment in the fiscal year
# :fy (NULL columns when none) and the account's installments and ledger entries as JSON.
_ACCOUNTS_JSON = (
    select(_PARCEL_IDS, _ASSESSMENTS, installments_json(_ASSESSMENTS.c.id),
           entries_json(_PARCEL_IDS, bindparam("fy")))
    .select_from(Parcel.__table__)
    .outerjoin(_ASSESSMENTS, and_(_ASSESSMENTS.c.parcel_id == _PARCEL_IDS,
                                  _ASSESSMENTS.c.fiscal_year_id == bindparam("fy"), IS_CURRENT))
    .where(_PARCEL_IDS.in_(bindparam("ids", expanding=True))))
