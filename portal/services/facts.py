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

from collections import defaultdict, namedtuple
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import lru_cache
from typing import Any

from sqlalchemy import (
    Integer,
    Select,
    and_,
    bindparam,
    cast,
    exists,
    literal_column,
    null,
    select,
    union_all,
)

from portal.core import params
from portal.core.installments import Installment as CoreInstallment
from portal.core.statement import (
    Cost,
    Payment,
    Statement,
    StatementRules,
    evaluate,
    evaluate_two,
)
from portal.db import UnitOfWork
from portal.models import Assessment, BudgetLine, FiscalYear, Installment, LedgerEntry
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
_CURRENT_ROWS = select(_ASSESSMENTS).where(
    _ASSESSMENTS.c.parcel_id.in_(bindparam("ids", expanding=True)),
    _ASSESSMENTS.c.fiscal_year_id == bindparam("fy"), IS_CURRENT)


# The rows are kept as named tuples: the core's inputs are rebuilt from them at every
# evaluation (twice on the parcel page), and reading a field of an SQLAlchemy `Row` by name
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


def current_assessments(uow: UnitOfWork, parcel_ids: Iterable[int], fiscal_year_id: int,
                        *, rows: bool = False) -> dict[int, Assessment]:
    """{parcel_id: the assessment no amendment supersedes} for the fiscal year (`rows=True`:
    plain read-only rows of its columns)."""
    ids = list(parcel_ids)
    if not ids:
        return {}
    params = {"ids": ids, "fy": fiscal_year_id}
    found = (uow.session.execute(_CURRENT_ROWS, params) if rows
             else uow.session.scalars(_CURRENT, params))
    return {a.parcel_id: a for a in found}


def load_many(uow: UnitOfWork, parcel_ids: Iterable[int], fiscal_year: FiscalYear,
              *, rows: bool = False) -> dict[int, AccountFacts]:
    """The facts of many accounts of one fiscal year in three queries.

    `rows=True` (read-only pages), in two (`load_lines`): the assessments are plain rows of
    their columns, the installments and ledger entries named tuples with the columns the core
    reads
    (`InstallmentRow`: number, due_date, amount; `EntryRow`: id, kind, direction,
    legal_date, amount, payment_id, cost_kind, description), not ORM objects."""
    ids = sorted(set(int(p) for p in parcel_ids))
    if rows:
        found = current_assessments(uow, ids, fiscal_year.id, rows=True) if ids else {}
        return load_lines(uow, fiscal_year, {pid: found.get(pid) for pid in ids})
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


# --- Accounts' dated lines in one statement (the parcel page, the dashboards) ---------------
# The installments of the assessment :aid, the ledger entries of the parcel :pid in the fiscal
# year :fy and (`account_lines(budget_lines=True)`) the lines of the budget version
# :version_id, as one UNION ALL of a common shape (`many=True`: of the assessments :aids and
# the parcels :pids). Each SQL statement costs a page more in SQLAlchemy's own work than in
# the database: three statements were a good part of the parcel page's time.
# Columns: `src` (which table: SRC_*), `acct` (whose: the assessment's id / the parcel's id /
# the budget version's id), `n` (number / id / position), `day` (due date / legal date),
# `amount`, `amount2` (a budget line's part financed by assessments), `kind`, `direction`,
# `ref` (a payment's id / a budget line's id), `cost_kind`, `text` (a description; a budget
# line's in Spanish), `text2` (a budget line's description in English), `flag` (lump sum).
# Ordered by src, acct, day and n: each assessment's installments by due date and number, each
# parcel's entries in posting order (legal date, id), the budget lines by position.
SRC_INSTALLMENT, SRC_ENTRY, SRC_BUDGET_LINE = 1, 2, 3


def _lines_shape(src: int, acct: Any, n: Any, day: Any = None, amount: Any = None,
                 amount2: Any = None, kind: Any = None, direction: Any = None, ref: Any = None,
                 cost_kind: Any = None, text: Any = None, text2: Any = None, flag: Any = None
                 ) -> list[Any]:
    """One branch's columns; a column the branch has not is a NULL cast to the column's type
    (PostgreSQL resolves a UNION's types pairwise: two bare NULLs would make a text column)."""
    e, ln = _ENTRY_TABLE.c, BudgetLine.__table__.c
    typed = {"day": (day, e.legal_date), "amount": (amount, e.amount),
             "amount2": (amount2, ln.financed_by_assessments), "kind": (kind, e.kind),
             "direction": (direction, e.direction), "ref": (ref, e.payment_id),
             "cost_kind": (cost_kind, e.cost_kind), "text": (text, e.description),
             "text2": (text2, ln.description_en), "flag": (flag, _PAYMENT_TABLE.c.lump_sum)}
    return [literal_column(str(src), Integer).label("src"), acct.label("acct"), n.label("n")] + [
        (col if col is not None else cast(null(), like.type)).label(name)
        for name, (col, like) in typed.items()]


def account_lines(*, many: bool = False, budget_lines: bool = False) -> Select:
    """The statement of accounts' dated lines (see above)."""
    i, e, pay, ln = _INSTALLMENT_TABLE, _ENTRY_TABLE, _PAYMENT_TABLE, BudgetLine.__table__
    if many:
        of_assessment = i.c.assessment_id.in_(bindparam("aids", expanding=True))
        of_parcel = e.c.parcel_id.in_(bindparam("pids", expanding=True))
    else:
        of_assessment = i.c.assessment_id == bindparam("aid")
        of_parcel = e.c.parcel_id == bindparam("pid")
    branches = [
        select(*_lines_shape(SRC_INSTALLMENT, i.c.assessment_id, i.c.number, i.c.due_date,
                             i.c.amount))
        .where(of_assessment),
        select(*_lines_shape(SRC_ENTRY, e.c.parcel_id, e.c.id, e.c.legal_date, e.c.amount, None,
                             e.c.kind, e.c.direction, e.c.payment_id, e.c.cost_kind,
                             e.c.description, None, pay.c.lump_sum))
        .select_from(e)
        .outerjoin(pay, and_(pay.c.id == e.c.payment_id, e.c.kind == "payment"))
        .where(of_parcel, e.c.fiscal_year_id == bindparam("fy"))]
    if budget_lines:
        branches.append(
            select(*_lines_shape(SRC_BUDGET_LINE, ln.c.version_id, ln.c.position, None,
                                 ln.c.amount, ln.c.financed_by_assessments, ln.c.kind, None,
                                 ln.c.id, None, ln.c.description_es, ln.c.description_en))
            .where(ln.c.version_id == bindparam("version_id")))
    union = union_all(*branches).subquery("lines")
    return select(union).order_by(union.c.src, union.c.acct, union.c.day, union.c.n)


_MANY_LINES = account_lines(many=True)


def file_lines(accounts: dict[int, AccountFacts], lines: Iterable[Any]) -> list[Any]:
    """File `account_lines` rows (in their order) into the accounts' facts (by parcel id;
    each with its assessment); returns the rows of the other sources (budget lines)."""
    by_assessment = {f.assessment.id: f for f in accounts.values() if f.assessment is not None}
    rest = []
    for row in lines:
        src = row[0]
        if src == SRC_INSTALLMENT:
            by_assessment[row[1]].installment_rows.append(
                InstallmentRow(row[1], row[2], row[3], row[4]))
        elif src == SRC_ENTRY:
            entry = EntryRow(row[2], row[1], row[6], row[7], row[3], row[4], row[8], row[9],
                             row[10], row[12])
            accounts[row[1]].file(entry, entry.lump_sum)
        else:
            rest.append(row)
    return rest


def facts_from_lines(parcel_id: int, fiscal_year: Any, assessment: Any, lines: Iterable[Any]
                     ) -> tuple[AccountFacts, list[Any]]:
    """An account's facts from its `account_lines` rows, and the rows of the other sources
    (the budget lines), as read."""
    facts = AccountFacts(parcel_id, fiscal_year, assessment,
                         rules=rules_for(fiscal_year.starts_on))
    return facts, file_lines({parcel_id: facts}, lines)


def load_lines(uow: UnitOfWork, fiscal_year: Any, assessments: dict[int, Any]
               ) -> dict[int, AccountFacts]:
    """The facts of the accounts of these parcels in the fiscal year, given each one's
    current assessment (None: none), as plain read-only rows: one statement."""
    rules = rules_for(fiscal_year.starts_on)
    out = {pid: AccountFacts(pid, fiscal_year, a, rules=rules)
           for pid, a in sorted(assessments.items())}
    if out:
        aids = [a.id for a in assessments.values() if a is not None]
        file_lines(out, uow.session.execute(
            _MANY_LINES, {"aids": aids, "pids": list(out), "fy": fiscal_year.id}))
    return out


def by_parcel(items: Iterable, key: str = "parcel_id") -> dict[int, list]:
    out: dict[int, list] = defaultdict(list)
    for it in items:
        out[getattr(it, key)].append(it)
    return out
