"""An account's facts, loaded for the core (DESIGN.md 1).

An account is a parcel in a fiscal year. Its facts: the installments of its current
assessment, its ledger entries and the parameters in force. The statement is always
`portal.core.statement.evaluate` over these facts (`AccountFacts.core`), each list in posting
order (legal date, ledger id):

- payment entries become the core's payments; a payment's `reversal` (a bank debit that
  failed) is its `reversed_on`: the core ignores the payment entirely as of that day (R-A6);
- credit adjustments (a decrease by amendment, a correction) become the core's adjustments;
- costs (R-A9) and debit adjustments become the core's costs;
- refunds become the core's refunds, taken from the credit after their day's payments; what
  the credit does not cover is owed again, as a cost dated the next day;
- a reversed cost, adjustment or refund drops out of the facts as of its reversal's date;
- "charge" and "discount" entries (and a discount's reversal) are informational (the
  installments and the core carry them).

Everything here loads many accounts in a fixed number of queries (the dashboard's need).
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any, NamedTuple

from sqlalchemy import and_, bindparam, exists, select

from portal.accounts import in_force
from portal.accounts.json_rows import (  # noqa: F401 (the accounts' readers use them as facts.*)
    json_rows,
    read_json_rows,
    stored_date,
    stored_instant,
    stored_money,
)
from portal.core import params
from portal.core.collection import Demand
from portal.core.installments import Installment as CoreInstallment
from portal.core.money import ZERO
from portal.core.offer import Account as CoreAccount
from portal.core.offer import Offer
from portal.core.offer import offer as make_offer
from portal.core.statement import (
    Adjustment,
    Cost,
    Payment,
    Refund,
    Statement,
    StatementRules,
    evaluate,
    evaluate_two,
)
from portal.db import UnitOfWork
from portal.models import Assessment, FiscalYear, Installment, LedgerEntry, Notice, Parcel
from portal.models import Payment as PaymentRow

INFORMATIONAL = ("charge", "discount")


def rules_for(fiscal_year_start: date, uow: UnitOfWork) -> StatementRules:
    """The rules of every statement of the fiscal year: each field from the parameters
    adopted for that year, with the values and closed days the staff recorded from the
    Board's resolutions (`in_force.rules_for`, read per unit of work); none from
    StatementRules' defaults, which are `portal calc`'s (section D). Imported here, not at
    the top: `board_parameters` checks staff roles (`access`), which reads this module."""
    from portal.accounts import in_force

    return in_force.rules_for(uow, fiscal_year_start)


def installment_count(fiscal_year_start: date, uow: UnitOfWork | None = None) -> int:
    """R-A4: the number of installments of the fiscal year; with `uow`, the value in force
    (one the Board adopted for the year, recorded by staff, else the statute's)."""
    if uow is None:
        return int(params.value("installment_count", fiscal_year_start))
    from portal.accounts import in_force

    return int(in_force.parameter_set(uow).for_fiscal_year("installment_count",
                                                                   fiscal_year_start))


def _posting(entry: Any) -> tuple[date, int]:
    return entry.legal_date, entry.id


class CoreFacts(NamedTuple):
    """The core's inputs over an account's ledger (`AccountFacts.core`), with the ledger row
    behind each: `payment_entries[k]` is the row of `payments[k]`, `cost_entries[k]` of
    `costs[k]` (a refund's row for the part of it the credit did not cover),
    `adjustment_entries[k]` of `adjustments[k]`."""

    payments: list[Payment]
    costs: list[Cost]
    adjustments: list[Adjustment]
    refunds: list[Refund]
    payment_entries: list[Any]
    cost_entries: list[Any]
    adjustment_entries: list[Any]


class _Books(NamedTuple):
    """An account's ledger entries (informational ones aside) by what the core reads them
    as, each list in posting order, and what the reversals undo."""

    payments: list[Any]
    adjustments: list[Any]  # credit adjustments
    debits: list[Any]  # costs and debit adjustments
    refunds: list[Any]
    reversals: list[Any]
    reversed_on: dict[int, date]  # a payment's entry id: the day it was reversed
    dropped: dict[int, date]  # a cost's, adjustment's or refund's entry id: the same
    last_reversal: date | None

    @classmethod
    def of(cls, entries: Iterable[Any]) -> _Books:
        payments: list[Any] = []
        adjustments: list[Any] = []
        debits: list[Any] = []
        refunds: list[Any] = []
        reversals: list[Any] = []
        by_id = {}
        for e in entries:
            by_id[e.id] = e
            if e.kind == "payment":
                payments.append(e)
            elif e.kind == "refund":
                refunds.append(e)
            elif e.kind == "reversal":
                reversals.append(e)
            elif e.direction == "credit":
                adjustments.append(e)
            else:
                debits.append(e)
        reversed_on: dict[int, date] = {}
        dropped: dict[int, date] = {}
        last = None
        for r in reversals:
            target = by_id.get(r.reverses_id)
            if target is None or target.kind == "reversal":
                continue  # a discount's reversal (informational), or nothing the core reads
            book = reversed_on if target.kind == "payment" else dropped
            book[target.id] = min(book.get(target.id, r.legal_date), r.legal_date)
            last = r.legal_date if last is None else max(last, r.legal_date)
        return cls(payments, adjustments, debits, refunds, reversals, reversed_on, dropped,
                   last)


@dataclass
class AccountFacts:
    """The facts of one account: its installments and its ledger entries in posting order
    (legal date, ledger id), read as the core's inputs (`core`)."""

    parcel_id: int
    fiscal_year: FiscalYear
    assessment: Assessment | None
    installment_rows: list[Installment] = field(default_factory=list)
    entries: list[LedgerEntry] = field(default_factory=list)  # every entry the core reads
    lump_sum_flags: dict[int, bool] = field(default_factory=dict)  # payment_id -> lump_sum
    other: list[LedgerEntry] = field(default_factory=list)  # charges, discounts
    rules: StatementRules = field(default_factory=StatementRules)
    #: R-A11: the year as notified when the first lump sum was paid, when an amendment has
    #: changed it since (`measure_lump_sums`); None: the current assessment's amount.
    lump_sum_annual: Decimal | None = None
    #: R-A12: the last demand mailed on the account, when it was read with it
    #: (`load_years(demands=True)`); None otherwise, or when none was mailed.
    last_demand: Demand | None = None
    _inputs: dict[date | None, CoreFacts] = field(default_factory=dict, repr=False,
                                                  compare=False)
    _books: _Books | None = field(default=None, repr=False, compare=False)

    @property
    def installments(self) -> list[CoreInstallment]:
        return [CoreInstallment(i.number, i.due_date, i.amount) for i in self.installment_rows]

    @property
    def annual(self) -> Decimal | None:
        """What a lump sum is measured against (section D, `statement`'s `annual`): the year
        as notified when it was paid (R-A11), else the current assessment's amount."""
        if self.lump_sum_annual is not None:
            return self.lump_sum_annual
        return self.assessment.annual_amount if self.assessment is not None else None

    @property
    def first_lump_sum_date(self) -> date | None:
        return min((e.legal_date for e in self.entries
                    if e.kind == "payment" and e.payment_id is not None
                    and self.lump_sum_flags.get(e.payment_id)), default=None)

    # --- the ledger's entries by what the core reads them as -------------------------------

    def _sorted(self) -> _Books:
        if self._books is None:
            self._books = _Books.of(self.entries)
        return self._books

    @property
    def payment_entries(self) -> list[LedgerEntry]:
        """Every posted payment, reversed or not, in posting order (the core's payments)."""
        return self._sorted().payments

    @property
    def reversals(self) -> list[LedgerEntry]:
        """The `reversal` entries (a failed bank debit, a cost or adjustment undone)."""
        return self._sorted().reversals

    @property
    def credits(self) -> list[LedgerEntry]:
        """The posted payments (reversed ones too) and the credit adjustments not reversed,
        in posting order."""
        books = self._sorted()
        live = [e for e in books.adjustments if e.id not in books.dropped]
        return sorted(books.payments + live, key=_posting) if live else books.payments

    @property
    def debits(self) -> list[LedgerEntry]:
        """The rows behind the core's costs (`costs`, index for index): costs and debit
        adjustments not reversed, then the refunds the credit did not cover."""
        return self.core().cost_entries

    @property
    def refund_entries(self) -> list[LedgerEntry]:
        """The refunds not reversed, in posting order."""
        return [e for e in self._sorted().refunds if e.id not in self._sorted().dropped]

    @property
    def payments(self) -> list[Payment]:
        return self.core().payments

    @property
    def costs(self) -> list[Cost]:
        return self.core().costs

    @property
    def adjustments(self) -> list[Adjustment]:
        return self.core().adjustments

    @property
    def refunds(self) -> list[Refund]:
        return self.core().refunds

    @property
    def last_credit_date(self) -> date | None:
        """The legal date of the last posted payment: facts are never dated before it."""
        return max((e.legal_date for e in self._sorted().payments), default=None)

    def file(self, entry: LedgerEntry, lump_sum: bool | None) -> None:
        """Add a ledger entry (in posting order) where the core reads it; `lump_sum`: its
        payment's flag, for a payment entry."""
        if entry.kind in INFORMATIONAL:
            self.other.append(entry)
            return
        self.entries.append(entry)
        if entry.kind == "payment" and entry.payment_id is not None:
            self.lump_sum_flags[entry.payment_id] = bool(lump_sum)
        self._inputs.clear()
        self._books = None

    def known_at(self, entry_id: int) -> AccountFacts:
        """The facts as they were when ledger entry `entry_id` was written: the entries up
        to it (ledger ids grow in the order entries are written; an account's are written
        under its lock)."""
        return AccountFacts(self.parcel_id, self.fiscal_year, self.assessment,
                            self.installment_rows,
                            [e for e in self.entries if e.id <= entry_id],
                            dict(self.lump_sum_flags),
                            [e for e in self.other if e.id <= entry_id], self.rules,
                            self.lump_sum_annual)

    # --- the core's inputs ------------------------------------------------------------------

    def core(self, as_of: date | None = None) -> CoreFacts:
        """The core's inputs over these facts for a statement as of `as_of` (None: as of any
        day from the last reversal on, e.g. today).

        - payments: every posted payment, with `reversed_on` the date of its reversal (a bank
          debit that failed: the core ignores it entirely as of that day, R-A6);
        - adjustments: the credit adjustments (a decrease by amendment, a correction);
        - costs: costs (R-A9) and debit adjustments;
        - a cost, adjustment or refund reversed on day R drops out of the facts as of R (as
          if never recorded); before R it counts (it is then put after the others, so that
          the indexes of the facts as of today stay valid);
        - refunds: each taken from the credit after its day's payments; the part the credit
          does not cover (a payment refunded at the provider, or a credit that a later
          reversal took away) is owed again, as a cost dated the next day (never before a
          payment posted that day).
        """
        books = self._sorted()
        key = None if as_of is None or books.last_reversal is None \
            or as_of >= books.last_reversal else as_of
        found = self._inputs.get(key)
        if found is None:
            found = self._inputs[key] = self._core(books, key)
        return found

    def _core(self, books: _Books, as_of: date | None) -> CoreFacts:
        def counted(rows: list[LedgerEntry]) -> list[LedgerEntry]:
            dropped = books.dropped
            if not dropped:
                return rows
            out = [e for e in rows if e.id not in dropped]
            if as_of is not None:
                out += [e for e in rows if e.id in dropped and as_of < dropped[e.id]]
            return out

        flags = self.lump_sum_flags
        payments = [Payment(e.legal_date, e.amount,
                            bool(e.payment_id and flags.get(e.payment_id)),
                            books.reversed_on.get(e.id))
                    for e in books.payments]
        adjustment_entries = counted(books.adjustments)
        adjustments = [Adjustment(e.legal_date, e.amount, e.description or "")
                       for e in adjustment_entries]
        cost_entries = counted(books.debits)
        costs = [Cost(e.legal_date, e.amount, e.cost_kind or e.kind) for e in cost_entries]
        refund_entries = counted(books.refunds)
        if as_of is not None:
            refund_entries = [e for e in refund_entries if e.legal_date <= as_of]
        refunds: list[Refund] = []
        if refund_entries:
            # The credit each refund day leaves, in the world of `as_of` (a payment
            # reversed by then was never received), before that day's refunds.
            received = [Payment(p.date, p.amount, p.lump_sum) for p in payments
                        if p.reversed_on is None
                        or (as_of is not None and as_of < p.reversed_on)]
            cost_entries = list(cost_entries)
            for day in sorted({e.legal_date for e in refund_entries}):
                credit = evaluate(day, self.installments, received, costs, self.rules,
                                  self.annual, adjustments=adjustments,
                                  refunds=refunds).credit
                for e in (r for r in refund_entries if r.legal_date == day):
                    taken = min(e.amount, credit)
                    credit -= taken
                    if taken:
                        refunds.append(Refund(day, taken))
                    if e.amount > taken:
                        costs.append(Cost(day + timedelta(days=1), e.amount - taken, e.kind))
                        cost_entries.append(e)
        return CoreFacts(payments, costs, adjustments, refunds, books.payments, cost_entries,
                         adjustment_entries)

    def evaluate(self, as_of: date, extra: Sequence[Payment] = ()) -> Statement:
        """The core's statement over these facts (plus hypothetical `extra` payments)."""
        c = self.core(as_of)
        return evaluate(as_of, self.installments, c.payments + list(extra), c.costs,
                        self.rules, self.annual, adjustments=c.adjustments, refunds=c.refunds)

    def evaluate_two(self, as_of: date, through: date | Callable[[Statement], date]
                     ) -> tuple[Statement, Statement]:
        """The core's statements over these facts as of `as_of` and as of `through` (a date,
        or a function of the first statement giving it), in one walk (`evaluate_two`)."""
        last = self._sorted().last_reversal
        if last is not None and as_of < last:  # the facts differ at the two dates
            first = self.evaluate(as_of)
            return first, self.evaluate(through(first) if callable(through) else through)
        c = self.core()
        return evaluate_two(as_of, through, self.installments, c.payments, c.costs,
                            self.rules, self.annual, adjustments=c.adjustments,
                            refunds=c.refunds)

    def account(self, key: str | None = None, label: str = "", on: date | None = None
                ) -> CoreAccount:
        """These facts as the core's `offer.Account` (what every page's figures come from),
        for statements as of `on` (default: today or later; `core`)."""
        c = self.core(on)
        return CoreAccount(key=key or str(self.parcel_id), parcel_id=str(self.parcel_id),
                           label=label, fiscal_year=self.fiscal_year.label,
                           installments=self.installments, payments=c.payments,
                           costs=c.costs, rules=self.rules, annual=self.annual,
                           adjustments=c.adjustments, refunds=c.refunds)

    def offer(self, on: date, *, key: str | None = None, label: str = "",
              demand: Demand | None = None, with_later: bool = True) -> Offer:
        """What the account offers to pay on `on` (`portal.core.offer`): the one source of
        every figure a page, receipt, PDF or list shows about paying it."""
        return make_offer(self.account(key, label, on), on, demand=demand,
                          with_later=with_later)


# The hot statements are built once, with bound parameters: building a SELECT (and an
# alias) on every call costs more than running it, and a statement built once hits the
# compiled cache at once (docs/WEB.md, "Speed").
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
_OF_PARCELS = select(Assessment).where(Assessment.parcel_id.in_(bindparam("ids",
                                                                        expanding=True)))


# The rows are kept as named tuples: the core's inputs are rebuilt from them at every
# evaluation, and reading a field of an SQLAlchemy `Row` by name
# costs several times more. Their fields are the columns the core reads, named as the models'.
InstallmentRow = namedtuple("InstallmentRow", "assessment_id number due_date amount id")
EntryRow = namedtuple("EntryRow", "id parcel_id kind direction legal_date amount payment_id "
                                  "cost_kind description lump_sum reverses_id")


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


#: The most ids one statement binds in an IN list: each id is a parameter, and SQLite allows
#: 32,766 per statement (999 before 3.32; less where it was built so), PostgreSQL 65,535. Any
#: number of ids is read in statements of at most this many.
IN_BATCH = 500


def in_batches(ids: Iterable[int], size: int | None = None) -> Iterator[list[int]]:
    """`ids` in lists of at most `size` (default `IN_BATCH`), in order: one IN list each."""
    size = size or IN_BATCH
    batch: list[int] = []
    for i in ids:
        batch.append(i)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def current_assessments(uow: UnitOfWork, parcel_ids: Iterable[int], fiscal_year_id: int
                        ) -> dict[int, Assessment]:
    """{parcel_id: the assessment no amendment supersedes} for the fiscal year (any number of
    parcels: `IN_BATCH` ids per statement).

    It reads the assessments of those parcels by parcel alone and keeps the year's ones that
    no other supersedes (an amendment supersedes the same parcel's assessment of the same
    year). While a roll is published the table grows past its statistics, and the planner
    then answered `parcel_id IN (...) AND fiscal_year_id = ...` (and the `IS_CURRENT`
    anti-join) by reading the whole year's assessments for each batch: publishing took time
    quadratic in the roll's size. By parcel alone only the parcel index can serve."""
    out: dict[int, Assessment] = {}
    for ids in in_batches(parcel_ids):
        found = [a for a in uow.session.scalars(_OF_PARCELS, {"ids": ids})
                 if a.fiscal_year_id == fiscal_year_id]
        superseded = {a.supersedes_id for a in found if a.supersedes_id is not None}
        for a in found:
            if a.id not in superseded:
                out[a.parcel_id] = a
    return out


def load_many(uow: UnitOfWork, parcel_ids: Iterable[int], fiscal_year: FiscalYear,
              *, rows: bool = False) -> dict[int, AccountFacts]:
    """The facts of many accounts of one fiscal year in three queries (per `IN_BATCH`
    accounts).

    `rows=True` (read-only pages), in one (`_ACCOUNTS_JSON`): the assessments are plain
    records of their columns, the installments and ledger entries named tuples with the
    columns the core reads
    (`InstallmentRow`: number, due_date, amount, id; `EntryRow`: id, kind, direction,
    legal_date, amount, payment_id, cost_kind, description, lump_sum, reverses_id), not ORM
    objects."""
    ids = sorted(set(int(p) for p in parcel_ids))
    if rows:
        return _load_rows(uow, ids, fiscal_year)
    rules = rules_for(fiscal_year.starts_on, uow)
    out = {pid: AccountFacts(pid, fiscal_year, None, rules=rules) for pid in ids}
    if not ids:
        return out
    assessments = current_assessments(uow, ids, fiscal_year.id)
    for pid, a in assessments.items():
        out[pid].assessment = a
    by_assessment = {a.id: a.parcel_id for a in assessments.values()}
    for aids in in_batches(by_assessment):
        for inst in uow.session.scalars(_INSTALLMENTS, {"aids": aids}):
            out[by_assessment[inst.assessment_id]].installment_rows.append(inst)
    for batch in in_batches(ids):
        for entry, lump in uow.session.execute(_ENTRIES, {"ids": batch, "fy": fiscal_year.id}):
            out[entry.parcel_id].file(entry, lump)
    measure_lump_sums(uow, out.values())
    return out


def _load_rows(uow: UnitOfWork, ids: list[int], fiscal_year: FiscalYear
               ) -> dict[int, AccountFacts]:
    """`load_many(rows=True)`. One account, when this unit of work has not read the Board's
    parameters yet, comes with them (`_ACCOUNT_JSON_PARAMS`: one statement for both, the
    parameters' rows once; a batch would repeat them on every row)."""
    out = {}
    with_params = len(ids) == 1 and not in_force.is_read(uow)
    for batch in in_batches(ids):
        stmt = _ACCOUNT_JSON_PARAMS if with_params else _ACCOUNTS_JSON
        for row in uow.session.execute(stmt, {"ids": batch, "fy": fiscal_year.id}):
            if with_params:
                in_force.read_rows_json(uow, row[-1])
                row = row[:-1]
            a = AssessmentRecord._make(row[1:-2]) if row[1] is not None else None
            out[row[0]] = facts_from_json(row[0], fiscal_year, a, row[-2], row[-1],
                                          rules=rules_for(fiscal_year.starts_on, uow))
    measure_lump_sums(uow, out.values())
    return out


def measure_lump_sums(uow: UnitOfWork, accounts: Iterable[AccountFacts]) -> None:
    """R-A11: for each account whose assessment was amended after a lump-sum payment, the
    year as notified when that payment was made (the version in force on its date: the
    latest whose `effective_on` is on or before it). One query, and only for such accounts:
    most have no lump sum or no amendment."""
    wanted = {(f.parcel_id, f.fiscal_year.id): f for f in accounts
              if f.assessment is not None and f.assessment.supersedes_id is not None
              and f.first_lump_sum_date is not None}
    if not wanted:
        return
    fy_ids = {fy_id for _pid, fy_id in wanted}
    versions: dict[tuple[int, int], list[Any]] = {}
    for batch in in_batches(sorted({pid for pid, _fy in wanted})):
        for a in uow.session.execute(select(_ASSESSMENT_VERSIONS).where(
                _ASSESSMENT_VERSIONS.c.parcel_id.in_(batch),
                _ASSESSMENT_VERSIONS.c.fiscal_year_id.in_(sorted(fy_ids)))
                .order_by(_ASSESSMENT_VERSIONS.c.id)):
            if (a.parcel_id, a.fiscal_year_id) in wanted:
                versions.setdefault((a.parcel_id, a.fiscal_year_id), []).append(a)
    for key, f in wanted.items():
        paid_on = f.first_lump_sum_date
        in_force = [a for a in versions.get(key, ())
                    if a.effective_on is None or a.effective_on <= paid_on]
        if in_force and in_force[-1].id != f.assessment.id:
            f.lump_sum_annual = in_force[-1].annual_amount
            f._inputs.clear()


def load_years(uow: UnitOfWork, parcel_ids: Iterable[int], fiscal_years: Iterable[FiscalYear],
               *, demands: bool = False) -> dict[tuple[int, int], AccountFacts]:
    """{(parcel id, fiscal year id): the account's facts} of these parcels in every one of
    `fiscal_years` where the parcel has an assessment, as `load_many(rows=True)` reads them
    (read-only records), in one statement per `IN_BATCH` parcels whatever the number of
    years (`_YEARS_JSON`); an account without an assessment is left out. `demands`: each
    account's `last_demand` too, read in the same statement (`demands_json`)."""
    years = {fy.id: fy for fy in fiscal_years}
    out: dict[tuple[int, int], AccountFacts] = {}
    stmt = _YEARS_DEMANDS_JSON if demands else _YEARS_JSON
    for batch in in_batches(sorted(set(int(p) for p in parcel_ids))):
        for row in uow.session.execute(stmt, {"ids": batch}):
            fy = years.get(row.fiscal_year_id)
            if fy is None:
                continue
            mailed = row[-1] if demands else None
            row = row[:-1] if demands else row
            a = AssessmentRecord._make(row[1:-2])
            f = out[(row[0], fy.id)] = facts_from_json(row[0], fy, a, row[-2], row[-1],
                                                       rules=rules_for(fy.starts_on, uow))
            if demands:
                f.last_demand = last_demand_from_json(mailed)
    measure_lump_sums(uow, out.values())
    return out


def demands_json(parcel_id: Any, fiscal_year_id: Any) -> Any:
    """SQL (a scalar subquery, correlated to the columns given): the account's demands
    mailed (R-A12) as JSON rows of (created_at, id, mailed_on, amount, acknowledged_on)."""
    n = Notice.__table__
    return (select(json_rows(n.c.created_at, n.c.id, n.c.mailed_on, n.c.amount,
                             n.c.acknowledged_on))
            .where(n.c.parcel_id == parcel_id, n.c.fiscal_year_id == fiscal_year_id,
                   n.c.kind == "demand", n.c.mailed_on.is_not(None))
            .scalar_subquery())


def last_demand_from_json(text: str | None) -> Demand | None:
    """`demands_json`'s value: the last demand mailed (in the order the notices were made,
    as `statements.last_demand` reads them), for the core."""
    found = [(stored_instant(created), nid, mailed, amount, received)
             for created, nid, mailed, amount, received in read_json_rows(text)]
    if not found:
        return None
    _created, _id, mailed, amount, received = max(found, key=lambda n: (n[0], n[1]))
    return Demand(stored_date(mailed), stored_money(amount) or ZERO, stored_date(received))


def load(uow: UnitOfWork, parcel_id: int, fiscal_year: FiscalYear, *, rows: bool = False
         ) -> AccountFacts:
    return load_many(uow, [parcel_id], fiscal_year, rows=rows)[int(parcel_id)]


# --- Accounts' rows as JSON columns of another statement: portal/accounts/json_rows.py ------


def installments_json(assessment_id: Any) -> Any:
    """SQL (a scalar subquery, correlated to `assessment_id`): that assessment's
    installments as JSON rows of (number, due_date, amount, id)."""
    i = _INSTALLMENT_TABLE
    return (select(json_rows(i.c.number, i.c.due_date, i.c.amount, i.c.id))
            .where(i.c.assessment_id == assessment_id).scalar_subquery())


def entries_json(parcel_id: Any, fiscal_year_id: Any) -> Any:
    """SQL (a scalar subquery, correlated to the columns given): the parcel's ledger entries
    in the fiscal year as JSON rows of (id, kind, direction, legal_date, amount, payment_id,
    cost_kind, description, lump_sum: the payment's flag, reverses_id)."""
    e, pay = _ENTRY_TABLE, _PAYMENT_TABLE
    return (select(json_rows(e.c.id, e.c.kind, e.c.direction, e.c.legal_date, e.c.amount,
                             e.c.payment_id, e.c.cost_kind, e.c.description, pay.c.lump_sum,
                             e.c.reverses_id))
            .select_from(e)
            .outerjoin(pay, and_(pay.c.id == e.c.payment_id, e.c.kind == "payment"))
            .where(e.c.parcel_id == parcel_id, e.c.fiscal_year_id == fiscal_year_id)
            .scalar_subquery())


def facts_from_json(parcel_id: int, fiscal_year: Any, assessment: Any,
                    installments: str | None, entries: str | None, *,
                    rules: StatementRules) -> AccountFacts:
    """An account's facts from `installments_json` and `entries_json` values: the rows the
    statements above give, in their order (installments by due date and number, entries in
    posting order: legal date, id)."""
    facts = AccountFacts(parcel_id, fiscal_year, assessment, rules=rules)
    if assessment is not None:
        aid = assessment.id
        facts.installment_rows = sorted(
            (InstallmentRow(aid, n, stored_date(d), stored_money(amount), iid)
             for n, d, amount, iid in read_json_rows(installments)),
            key=lambda i: (i.due_date, i.number))
    rows = [EntryRow(eid, parcel_id, kind, direction, stored_date(day), stored_money(amount),
                     payment, cost_kind, description, None if lump is None else bool(lump),
                     reverses)
            for eid, kind, direction, day, amount, payment, cost_kind, description, lump,
            reverses in read_json_rows(entries)]
    rows.sort(key=lambda e: (e.legal_date, e.id))
    for entry in rows:
        facts.file(entry, entry.lump_sum)
    return facts


_ASSESSMENT_VERSIONS = Assessment.__table__
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
# `load_many(rows=True)` of one account before the unit of work has read the Board's
# parameters: the same, with them as its last column.
_ACCOUNT_JSON_PARAMS = _ACCOUNTS_JSON.add_columns(in_force.rows_json())
# `load_years`: every current assessment of the parcels :ids, whatever its fiscal year, with
# its account's installments and ledger entries as JSON (`_ACCOUNTS_JSON`'s columns).
_YEARS_JSON = (
    select(_ASSESSMENTS.c.parcel_id.label("account_parcel_id"), _ASSESSMENTS,
           installments_json(_ASSESSMENTS.c.id),
           entries_json(_ASSESSMENTS.c.parcel_id, _ASSESSMENTS.c.fiscal_year_id))
    .where(_ASSESSMENTS.c.parcel_id.in_(bindparam("ids", expanding=True)), IS_CURRENT))
# `load_years(demands=True)`: the same, with each account's demands mailed last.
_YEARS_DEMANDS_JSON = _YEARS_JSON.add_columns(
    demands_json(_ASSESSMENTS.c.parcel_id, _ASSESSMENTS.c.fiscal_year_id))
