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

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import lru_cache

from sqlalchemy import and_, bindparam, exists, select
from sqlalchemy.orm import aliased

from portal.core import params
from portal.core.installments import Installment as CoreInstallment
from portal.core.statement import Cost, Payment, Statement, StatementRules, evaluate
from portal.db import UnitOfWork
from portal.models import Assessment, FiscalYear, Installment, LedgerEntry
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

    def evaluate(self, as_of: date, extra: Sequence[Payment] = ()) -> Statement:
        """The core's statement over these facts (plus hypothetical `extra` payments)."""
        return evaluate(as_of, self.installments, self.payments + list(extra), self.costs,
                        self.rules, self.annual)


# The hot statements are built once, with bound parameters: building a SELECT (and an
# alias) on every call costs more than running it, and a statement built once hits the
# compiled cache at once (docs/REQUESTS.md, web 7).
_ON = bindparam("on")
_FY_CONTAINING = select(FiscalYear).where(FiscalYear.starts_on <= _ON, FiscalYear.ends_on >= _ON)
_FY_NEXT = (select(FiscalYear).where(FiscalYear.starts_on > _ON)
            .order_by(FiscalYear.starts_on).limit(1))
_NEWER = aliased(Assessment)
_CURRENT = select(Assessment).where(
    Assessment.parcel_id.in_(bindparam("ids", expanding=True)),
    Assessment.fiscal_year_id == bindparam("fy"),
    ~exists().where(_NEWER.supersedes_id == Assessment.id))
_INSTALLMENTS = (select(Installment)
                 .where(Installment.assessment_id.in_(bindparam("aids", expanding=True)))
                 .order_by(Installment.assessment_id, Installment.due_date, Installment.number))
_ENTRIES = (select(LedgerEntry, PaymentRow.lump_sum)
            .outerjoin(PaymentRow, and_(PaymentRow.id == LedgerEntry.payment_id,
                                        LedgerEntry.kind == "payment"))
            .where(LedgerEntry.parcel_id.in_(bindparam("ids", expanding=True)),
                   LedgerEntry.fiscal_year_id == bindparam("fy"))
            .order_by(LedgerEntry.parcel_id, LedgerEntry.legal_date, LedgerEntry.id))
# The same as plain rows (the columns the core and the summaries read), for `rows=True`:
# materialising hundreds of ORM objects was most of the dashboard's time (50 loans).
_INSTALLMENT_ROWS = (select(Installment.assessment_id, Installment.number,
                            Installment.due_date, Installment.amount)
                     .where(Installment.assessment_id.in_(bindparam("aids", expanding=True)))
                     .order_by(Installment.assessment_id, Installment.due_date,
                               Installment.number))
_ENTRY_ROWS = (select(LedgerEntry.id, LedgerEntry.parcel_id, LedgerEntry.kind,
                      LedgerEntry.direction, LedgerEntry.legal_date, LedgerEntry.amount,
                      LedgerEntry.payment_id, LedgerEntry.cost_kind, LedgerEntry.description,
                      PaymentRow.lump_sum)
               .outerjoin(PaymentRow, and_(PaymentRow.id == LedgerEntry.payment_id,
                                           LedgerEntry.kind == "payment"))
               .where(LedgerEntry.parcel_id.in_(bindparam("ids", expanding=True)),
                      LedgerEntry.fiscal_year_id == bindparam("fy"))
               .order_by(LedgerEntry.parcel_id, LedgerEntry.legal_date, LedgerEntry.id))


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
    rows = uow.session.scalars(_CURRENT, {"ids": ids, "fy": fiscal_year_id})
    return {a.parcel_id: a for a in rows}


def load_many(uow: UnitOfWork, parcel_ids: Iterable[int], fiscal_year: FiscalYear,
              *, rows: bool = False) -> dict[int, AccountFacts]:
    """The facts of many accounts of one fiscal year in three queries.

    `rows=True` (read-only pages): the installments and ledger entries are plain rows with
    the columns the core reads (installments: number, due_date, amount; entries: id, kind,
    direction, legal_date, amount, payment_id, cost_kind, description), not ORM objects."""
    ids = sorted(set(int(p) for p in parcel_ids))
    rules = rules_for(fiscal_year.starts_on)
    out = {pid: AccountFacts(pid, fiscal_year, None, rules=rules) for pid in ids}
    if not ids:
        return out
    assessments = current_assessments(uow, ids, fiscal_year.id)
    for pid, a in assessments.items():
        out[pid].assessment = a
    by_assessment = {a.id: a.parcel_id for a in assessments.values()}
    if by_assessment:
        params = {"aids": list(by_assessment)}
        insts = (uow.session.execute(_INSTALLMENT_ROWS, params) if rows
                 else uow.session.scalars(_INSTALLMENTS, params))
        for inst in insts:
            out[by_assessment[inst.assessment_id]].installment_rows.append(inst)
    params = {"ids": ids, "fy": fiscal_year.id}
    entries = (((r, r.lump_sum) for r in uow.session.execute(_ENTRY_ROWS, params)) if rows
               else uow.session.execute(_ENTRIES, params))
    for entry, lump in entries:
        facts = out[entry.parcel_id]
        if entry.kind in INFORMATIONAL:
            facts.other.append(entry)
        elif entry.direction == "credit":
            facts.credits.append(entry)
            if entry.kind == "payment" and entry.payment_id is not None:
                facts.lump_sum_flags[entry.payment_id] = bool(lump)
        else:
            facts.debits.append(entry)
    return out


def load(uow: UnitOfWork, parcel_id: int, fiscal_year: FiscalYear, *, rows: bool = False
         ) -> AccountFacts:
    return load_many(uow, [parcel_id], fiscal_year, rows=rows)[int(parcel_id)]


def by_parcel(items: Iterable, key: str = "parcel_id") -> dict[int, list]:
    out: dict[int, list] = defaultdict(list)
    for it in items:
        out[getattr(it, key)].append(it)
    return out
