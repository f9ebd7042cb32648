"""The assessment roll (R-A2 to R-A5, DESIGN.md 7): computed from an adopted budget version,
reviewed, then published. Both steps are batches: all or nothing (one unit of work), and safe
to run again (recomputing replaces a computed roll's preview; publishing a published roll does
nothing). They take an optional `progress(done, total)` callback for a progress bar.

Publishing version 1 writes each assessable parcel's `Assessment` with its installments
(R-A4: `installment_count` equal monthly installments, none due before the notice). Publishing
an amendment writes, for every parcel whose amount changes, a new assessment superseding the
current one, with installments from the core's `amend` (R-A5: paid installments untouched,
the difference spread over the unpaid ones due after the effective date); a decrease nothing
can absorb becomes a credit on the account. A decrease leaves partly paid installments as
they are (so no stored receipt line stops being true).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy import and_, delete, func, or_, select

from portal import clock
from portal.accounts import access, audit, bulk, facts, in_force, ledger
from portal.accounts.errors import Conflict, InvalidInput, NotFound
from portal.core.allocation import ParcelFacts, RollCut, is_assessable, roll_cut
from portal.core.errors import CalcError, ParameterNotFound
from portal.core.installments import Installment as CoreInstallment
from portal.core.installments import amend, schedule
from portal.core.money import ZERO, from_cents_int
from portal.core.params import STATEMENT_RULES
from portal.db import UnitOfWork
from portal.jobs import runner
from portal.models import (
    Assessment,
    AssessmentRoll,
    Budget,
    BudgetFixedAmount,
    BudgetVersion,
    FiscalYear,
    Installment,
    Lease,
    LedgerEntry,
    Notice,
    Parcel,
    RollLine,
)
from portal.roll import review

Progress = Callable[[int, int], None] | None
#: Parcels per batch: each batch reads its parcels by key (`id > last`, never an IN list of the
#: whole roll), writes their rows and is one step of a job (`portal.jobs.runner`). 5,000
#: parcels are 60,000 installments, a few seconds' work: fewer, larger transactions than 2,000
#: (bench/roll_bench.py), far within `jobs.STALE`.
CHUNK = 5000
#: R-A4 schedules kept by a publication, by amount (most amounts repeat on a roll): at most
#: this many at once.
SCHEDULES = 20_000
#: The installments' columns as `_write` gives them to COPY.
INSTALLMENT_COLUMNS = ("assessment_id", "number", "due_date", "amount")


def _lines(assessment_id: Any, items: list[CoreInstallment]) -> str:
    """An assessment's installments as COPY text (`INSTALLMENT_COLUMNS`): numbers and dates
    only, nothing to escape."""
    return "".join(f"{assessment_id}\t{i.number}\t{i.due_date.isoformat()}\t{i.amount:f}\n"
                   for i in items)


def _tick(progress: Progress, done: int, total: int) -> None:
    if progress is not None:
        progress(done, total)


def _version(uow: UnitOfWork, version_id: int) -> tuple[BudgetVersion, FiscalYear]:
    version = uow.session.get(BudgetVersion, int(version_id))
    if version is None:
        raise NotFound()
    budget = uow.session.get(Budget, version.budget_id)
    return version, uow.session.get(FiscalYear, budget.fiscal_year_id)


def _lessee_pays(uow: UnitOfWork, on: date, after: int, last: int) -> set[int]:
    """Parcels of ids `after` (excluded) to `last` leased on `on` to a lessee who pays the
    assessment (R-A16)."""
    return set(uow.session.scalars(
        select(Lease.parcel_id).where(Lease.lessee_pays.is_(True), Lease.starts_on <= on,
                                      or_(Lease.ends_on.is_(None), Lease.ends_on >= on),
                                      Lease.parcel_id > after, Lease.parcel_id <= last)))


#: What the roll's computation reads of a parcel: R-A3's units and R-A2's facts.
_PARCELS = select(Parcel.id, Parcel.benefit_units, Parcel.owner_kind, Parcel.transferred,
                  Parcel.tax_incentive_exempt)


def _digest() -> Any:
    """Of the parcels a computation read, in id order (`Computation._facts`)."""
    return hashlib.blake2b(digest_size=16)


def _run(uow: UnitOfWork, work: Any, progress: Progress) -> AssessmentRoll:
    """A batched work (`Computation`, `Publication`) start to end in one unit of work."""
    total = work.begin(uow)
    done = 0
    while True:
        n = work.step(uow)
        if not n:
            break
        done += n
        _tick(progress, done, total)
    return work.finish(uow)


def compute(uow: UnitOfWork, staff: Any, version_id: int, *, progress: Progress = None
            ) -> AssessmentRoll:
    """Compute (or recompute) the roll of an adopted budget version: R-A2 who is assessed,
    R-A3 how much. The lines are a preview until `publish`. One transaction; the job runs
    the same `Computation` a batch per transaction."""
    return _run(uow, Computation(staff, int(version_id)), progress)


def publish(uow: UnitOfWork, staff: Any, roll_id: int, notice_date: date | None = None, *,
            progress: Progress = None) -> AssessmentRoll:
    """Publish a computed roll: write the assessments and installments (the facts) and queue
    the assessment notices. Publishing again does nothing. One transaction; the job runs the
    same `Publication` a batch per transaction."""
    return _run(uow, Publication(staff, int(roll_id), notice_date), progress)


def computable(uow: UnitOfWork, staff: Any, version_id: int
               ) -> tuple[BudgetVersion, FiscalYear, AssessmentRoll | None]:
    """The version, its fiscal year and its roll (None before the first computation) when
    `staff` may compute it: an adopted version whose roll is not published."""
    access.require_staff_role(staff, *access.MANAGE)  # an administrator's (docs/STAFF.md)
    version, fy = _version(uow, version_id)
    if version.status != "adopted":
        raise Conflict("budget_not_adopted")
    roll = uow.session.scalar(select(AssessmentRoll).where(
        AssessmentRoll.budget_version_id == version.id))
    if roll is not None and roll.status == "published":
        raise Conflict("roll_published")
    return version, fy, roll


#: Every parameter a fiscal year's roll, notices, statements and demands read (R-A4, R-A6
#: to R-A8, R-A11, R-A13, R-A17).
YEAR_PARAMETERS = (*STATEMENT_RULES, "installment_count", "demand_payment_days",
                   "demand_minimum")


def missing_parameters(uow: UnitOfWork, fy_start: date) -> list[str]:
    """The parameters of `YEAR_PARAMETERS` with no value in force for the fiscal year opening
    on `fy_start` (in that order; empty when the year has them all)."""
    ps = in_force.parameter_set(uow)
    missing = []
    for name in YEAR_PARAMETERS:
        try:
            ps.for_fiscal_year(name, fy_start)
        except ParameterNotFound:
            missing.append(name)
    return missing


def publishable(uow: UnitOfWork, staff: Any, roll_id: int) -> AssessmentRoll:
    """The roll, when `staff` may publish it (a published one too: that does nothing). A roll
    not yet published needs every parameter its year reads in force for that year
    (`Conflict("parameters_missing")` naming them: the notices and every statement of the
    year would fail without them)."""
    access.require_staff_role(staff, *access.MANAGE)  # an administrator's (docs/STAFF.md)
    roll = uow.session.get(AssessmentRoll, int(roll_id))
    if roll is None:
        raise NotFound()
    if roll.status != "published":
        _version_, fy = _version(uow, roll.budget_version_id)
        missing = missing_parameters(uow, fy.starts_on)
        if missing:
            raise Conflict("parameters_missing", missing=missing, fiscal_year=fy.label)
    return roll


class Computation:
    """R-A2 and R-A3 over every parcel, written as roll lines a batch at a time.

    `begin` checks the version, cuts R-A3's apportionment over all parcels (the core needs
    them all: the leftover cents go to the largest remainders of the whole roll) from one
    streamed read, keeping only what is flat in the roll's size (`core.allocation.roll_cut`:
    a share per distinct units value and the leftover cents' cut), and replaces the roll's
    lines; each `step` reads the next `CHUNK` parcels by id and writes their lines, each
    parcel's cents computed from its id, units and R-A2 verdict; `finish` records who
    computed it. A roll with fewer lines than its counts (a computation stopped midway) is
    not published (`roll_incomplete`); computing again starts over.

    The steps need the parcels `begin` apportioned, unchanged (a job's steps are
    transactions of their own: an import may commit between them). `begin` keeps a digest of
    every parcel's id, units and verdict, in id order; the steps fold the parcels they read
    into a digest of their own, and the last batch is written only when both match:
    otherwise `Conflict("roll_parcels_changed")` (so the roll lacks its last lines and is not
    published; computing again apportions the parcels as they are then). A units value the
    apportionment never saw is refused at once. Parcels added after `begin` (a greater id)
    are left to the next computation."""

    def __init__(self, staff: Any, version_id: int):
        self.staff = staff
        self.version_id = version_id
        self.roll_id = 0
        self.after = 0
        self.cut: RollCut | None = None
        self.seen: tuple[int, int, bytes] | None = None  # begin's (count, last id, digest)
        self.count = 0  # the parcels the steps read, and their digest
        self.digest = _digest()
        self.on = date.min  # the day whose leases say who pays (R-A16)
        # R-A2's answer by owner kind, transferred and incentives (what it reads of a parcel)
        self.verdicts: dict[tuple[str, bool, bool], bool] = {}

    def _facts(self, rows: Iterable[Any], digest: Any) -> Iterator[tuple[int, Decimal, bool]]:
        """Each parcel row (`_PARCELS`) as (id, units, R-A2 verdict), folded into `digest`."""
        verdicts = self.verdicts
        for pid, units, owner, transferred, incentive in rows:
            verdict = verdicts.get((owner, transferred, incentive))
            if verdict is None:
                verdict = verdicts[owner, transferred, incentive] = is_assessable(ParcelFacts(
                    str(pid), units, owner, transferred, incentive))
            digest.update(f"{pid}:{units}:{verdict:d};".encode())
            yield pid, units, verdict

    def _parcels(self, uow: UnitOfWork, units: set[Decimal] | None
                 ) -> Iterator[tuple[int, Decimal, bool]]:
        """Every parcel's (id, units, R-A2 verdict) by id, one streamed read; at its end
        `seen` is their count, last id and digest. Given `units`, only the parcels with those
        units (`roll_cut`'s tie), and no digest kept."""
        query = _PARCELS if units is None else _PARCELS.where(Parcel.benefit_units.in_(units))
        rows = uow.connection().execute(
            query.order_by(Parcel.id).execution_options(yield_per=CHUNK))
        digest, count, last = _digest(), 0, 0
        for fact in self._facts(rows, digest):
            count, last = count + 1, fact[0]
            yield fact
        if units is None:
            self.seen = (count, last, digest.digest())

    def begin(self, uow: UnitOfWork) -> int:
        version, fy, roll = computable(uow, self.staff, self.version_id)
        fixed = dict(uow.session.execute(select(  # R-A3: the Board's, first
            BudgetFixedAmount.parcel_id, BudgetFixedAmount.amount).where(
                BudgetFixedAmount.version_id == version.id)).all())
        try:
            cut = roll_cut(version.total_to_assess, lambda units: self._parcels(uow, units),
                           fixed)
        except CalcError as exc:
            raise InvalidInput("calc", field=exc.field, message=exc.message) from exc
        self.cut = cut
        self.on = min(max(fy.starts_on, clock.today()), fy.ends_on)
        if roll is None:
            roll = AssessmentRoll(budget_version_id=version.id, fiscal_year_id=fy.id,
                                  total=version.total_to_assess)
            uow.session.add(roll)
            uow.session.flush()
        else:
            # Locked first: a view keeping the review's figures (`review.keep`) is waited
            # for, or waits and then sees the lines deleted (so keeps no figures of them).
            uow.session.execute(select(AssessmentRoll.id).where(AssessmentRoll.id == roll.id)
                                .with_for_update())
            review.forget(uow, roll.id)
            uow.session.execute(delete(RollLine).where(RollLine.roll_id == roll.id))
        roll.total = version.total_to_assess
        roll.total_units = sum((u * c for u, c in cut.counts.items()), ZERO)  # the sharing
        roll.assessed_count = cut.assessed
        roll.exempt_count = cut.parcels - cut.assessed
        uow.session.flush()
        self.roll_id = roll.id
        self.after = 0
        self.count, self.digest = 0, _digest()
        return roll.assessed_count + roll.exempt_count

    def step(self, uow: UnitOfWork) -> int:
        bulk.batch_commit(uow)
        count, last, seen = self.seen
        parcels = uow.connection().execute(
            _PARCELS.where(Parcel.id > self.after, Parcel.id <= last)
            .order_by(Parcel.id).limit(CHUNK)).all()
        rows, cut = [], self.cut
        for pid, units, verdict in self._facts(parcels, self.digest):
            try:
                cents = cut.cents(pid, units, verdict)
            except CalcError as exc:  # units `begin` never saw
                raise Conflict("roll_parcels_changed") from exc
            rows.append({"roll_id": self.roll_id, "parcel_id": pid, "benefit_units": units,
                         "exempt": cents < 0,
                         "amount": ZERO if cents < 0 else from_cents_int(cents), "payer": "owner"})
        self.count += len(parcels)
        if (not parcels or parcels[-1].id == last) and (
                self.count, self.digest.digest()) != (count, seen):
            raise Conflict("roll_parcels_changed")  # the last batch: the parcels `begin` saw?
        if not parcels:
            return 0
        lessee = _lessee_pays(uow, self.on, self.after, parcels[-1].id)
        for row in rows:
            if row["parcel_id"] in lessee:
                row["payer"] = "lessee"
        bulk.insert_rows(uow, RollLine, rows)
        self.after = parcels[-1].id
        return len(parcels)

    def finish(self, uow: UnitOfWork) -> AssessmentRoll:
        roll = uow.session.get(AssessmentRoll, self.roll_id)
        roll.computed_at = clock.now()
        roll.computed_by_id = self.staff.id
        bulk.analyze(uow, RollLine)  # (the review's pages, the publication: fresh statistics)
        uow.session.flush()
        review.keep(uow, roll.id, again=True)  # the review's figures, with the lines
        audit.record(uow, self.staff, "roll.computed", roll, after=audit.snapshot(roll))
        return roll


class Publication:
    """A computed roll's facts written a batch at a time: each `step` reads the next `CHUNK`
    roll lines by parcel id (keyset), the current assessments of just those parcels, and
    writes their assessments, installments, ledger charges and notices (R-A4, R-A5). Parcels
    already published under this version are skipped, so a publication stopped midway goes
    on where it stopped, and publishing a published roll does nothing."""

    def __init__(self, staff: Any, roll_id: int, notice_date: date | None = None):
        self.staff = staff
        self.roll_id = roll_id
        self.notice_date = notice_date
        self.after = 0
        self.published = False
        self.resumed = 0  # lines a stopped publication had done (`jobs.run` counts them)
        self.schedules: dict[Decimal, tuple[list[CoreInstallment], str]] = {}

    def begin(self, uow: UnitOfWork) -> int:
        roll = publishable(uow, self.staff, self.roll_id)
        if roll.status == "published":
            self.published = True
            return 0
        lines = uow.session.scalar(select(func.count()).select_from(RollLine).where(
            RollLine.roll_id == roll.id))
        if lines != roll.assessed_count + roll.exempt_count:
            raise Conflict("roll_incomplete")
        self.version, self.fy = _version(uow, roll.budget_version_id)
        self.notice_date = self.notice_date or clock.today()
        self.count = facts.installment_count(self.fy.starts_on, uow)
        self.effective = self.version.effective_on or self.notice_date
        # The year's first publication (no other roll of the year has written assessments)
        # has no current assessment to look up: it goes on after its own last parcel (its
        # batches are whole and in parcel order).
        others = select(AssessmentRoll.id).where(AssessmentRoll.fiscal_year_id == self.fy.id,
                                                 AssessmentRoll.id != roll.id)
        self.first = uow.session.scalar(select(Assessment.id).where(
            Assessment.roll_id.in_(others)).limit(1)) is None
        self.after = (uow.session.scalar(select(func.max(Assessment.parcel_id)).where(
            Assessment.roll_id == roll.id)) or 0) if self.first else 0
        self.resumed = uow.session.scalar(select(func.count()).select_from(RollLine).where(
            RollLine.roll_id == roll.id, RollLine.parcel_id <= self.after)) if self.after else 0
        return roll.assessed_count + roll.exempt_count

    def step(self, uow: UnitOfWork) -> int:
        if self.published:
            return 0
        bulk.batch_commit(uow)
        lines = uow.connection().execute(
            select(RollLine.parcel_id, RollLine.amount, RollLine.exempt,
                   RollLine.benefit_units, RollLine.payer)
            .where(RollLine.roll_id == self.roll_id, RollLine.parcel_id > self.after)
            .order_by(RollLine.parcel_id).limit(CHUNK)).all()
        if not lines:
            return 0
        self._write(uow, self._plans(uow, lines))
        self.after = lines[-1].parcel_id
        return len(lines)

    def _schedule(self, amount: Decimal) -> tuple[list[CoreInstallment], str]:
        """R-A4: the core's schedule of a first assessment of `amount`, and its COPY text
        with `\\0` where the assessment's id goes (the same for every parcel of that amount;
        at most `SCHEDULES` kept)."""
        got = self.schedules.get(amount)
        if got is None:
            if len(self.schedules) >= SCHEDULES:
                self.schedules.clear()
            items = schedule(amount, self.fy.starts_on, self.count, self.notice_date)
            got = self.schedules[amount] = (items, _lines("\0", items))
        return got

    def _plans(self, uow: UnitOfWork, lines: list[Any]
               ) -> list[tuple[dict, list[CoreInstallment], Decimal, date | None, str | None]]:
        """What to write for these lines: (assessment row, installments, credit, the
        credit's date, the installments' COPY text with `\\0` for the assessment's id or
        None) per parcel whose assessment is new or changed."""
        version, fy = self.version, self.fy
        previous = {} if self.first else facts.current_assessments(
            uow, [ln.parcel_id for ln in lines], fy.id)
        changed = [ln.parcel_id for ln in lines if ln.parcel_id in previous
                   and previous[ln.parcel_id].budget_version_id != version.id
                   and previous[ln.parcel_id].annual_amount != (ZERO if ln.exempt
                                                                else ln.amount)]
        accounts = facts.load_many(uow, changed, fy) if changed else {}
        today = clock.today()
        plans = []
        for ln in lines:
            prev = previous.get(ln.parcel_id)
            amount = ZERO if ln.exempt else ln.amount
            base = {"parcel_id": ln.parcel_id, "fiscal_year_id": fy.id,
                    "budget_version_id": version.id, "roll_id": self.roll_id,
                    "annual_amount": amount, "benefit_units": ln.benefit_units,
                    "payer": ln.payer, "notified_on": self.notice_date, "supersedes_id": None,
                    "effective_on": None, "credit": ZERO}
            if prev is None:
                if not ln.exempt:
                    items, text = self._schedule(amount)
                    plans.append((base, items, ZERO, None, text))
                continue
            if ln.parcel_id not in accounts:
                continue  # already published under this version, or unchanged by it
            plans.append((*self._amended(base, prev, accounts[ln.parcel_id], amount, today),
                          None))
        return plans

    def _amended(self, base: dict, prev: Assessment, account: Any, amount: Decimal,
                 today: date) -> tuple[dict, list[CoreInstallment], Decimal, date | None]:
        """R-A5: the superseding assessment's installments and credit."""
        effective = self.effective
        st = account.evaluate(max(effective, today, account.last_credit_date or today))
        paid = {i.number for i in st.installments if i.status == "paid"}
        if amount < prev.annual_amount:
            # A decrease never cuts an installment below what was already paid on it (its
            # stored receipt lines must stay true): partly paid ones are left as they are.
            amounts = {i.number: i.amount for i in account.installment_rows}
            paid |= {i.number for i in st.installments if i.principal < amounts[i.number]}
        items = [CoreInstallment(i.number, i.due_date, i.amount, i.number in paid)
                 for i in account.installment_rows]
        result = amend(items, amount, effective)
        base.update(supersedes_id=prev.id, effective_on=effective, credit=result.credit)
        # R-A5's credit: dated as any correction (ledger)
        credit_on = ledger.correction_date(account) if result.credit > 0 else None
        return base, list(result.installments), result.credit, credit_on

    def _write(self, uow: UnitOfWork, plans: list[Any]) -> None:
        if not plans:
            return
        fy, staff, notice_date = self.fy, self.staff, self.notice_date
        now = clock.now()
        ids = bulk.insert_rows(uow, Assessment, [p[0] for p in plans], return_ids=True)
        # PostgreSQL: the installments as COPY text, one string per assessment (twelve rows
        # of 16.7 M on the island's roll: no object per installment); SQLite: rows.
        copy = uow.connection().dialect.name == "postgresql"
        inst_rows: list[Any] = []
        ledger_rows, notice_rows = [], []
        for aid, (base, items, credit, credit_on, text) in zip(ids, plans):
            if not copy:
                inst_rows.extend({"assessment_id": aid, "number": i.number,
                                  "due_date": i.due_date, "amount": i.amount} for i in items)
            else:
                inst_rows.append(text.replace("\0", str(aid)) if text is not None
                                 else _lines(aid, items))
            common = {"parcel_id": base["parcel_id"], "fiscal_year_id": fy.id,
                      "assessment_id": aid, "created_at": now, "author_id": staff.id,
                      "description": f"v{self.version.version}", "cost_kind": None,
                      "payment_id": None, "reverses_id": None}
            if base["supersedes_id"] is None:
                ledger_rows.append({**common, "kind": "charge", "direction": "debit",
                                    "amount": base["annual_amount"], "legal_date": notice_date,
                                    "rule": "R-A3"})
            if credit > 0:
                ledger_rows.append({**common, "kind": "adjustment", "direction": "credit",
                                    "amount": credit, "legal_date": credit_on,
                                    "rule": "R-A5"})
            notice_rows.append({"parcel_id": base["parcel_id"], "fiscal_year_id": fy.id,
                                "kind": "assessment", "assessment_id": aid,
                                "amount": base["annual_amount"], "language": "es",
                                "created_at": now, "created_by_id": staff.id,
                                "mailed_on": notice_date})
        # The assessments just written, and their parcels, checked and locked by that insert:
        # no key of theirs to check again (bulk.py).
        mine = {"assessment_id": ids, "parcel_id": [p[0]["parcel_id"] for p in plans]}
        if copy:
            bulk.copy_lines(uow, Installment, INSTALLMENT_COLUMNS, inst_rows,
                            {"assessment_id": ids}, known=mine)
        else:
            bulk.insert_rows(uow, Installment, inst_rows, known=mine)
        bulk.insert_rows(uow, LedgerEntry, ledger_rows, known=mine)
        bulk.insert_rows(uow, Notice, notice_rows, known=mine)

    def finish(self, uow: UnitOfWork) -> AssessmentRoll:
        roll = uow.session.get(AssessmentRoll, self.roll_id)
        if roll.status == "published":
            return roll
        bulk.analyze(uow, Assessment, Installment, LedgerEntry, Notice)
        written = uow.session.scalar(select(func.count()).select_from(Assessment).where(
            Assessment.roll_id == self.roll_id))
        before = audit.snapshot(roll)
        roll.status = "published"
        roll.notice_date = self.notice_date
        roll.published_at = clock.now()
        roll.published_by_id = self.staff.id
        uow.session.flush()
        review.keep(uow, roll.id)  # its assessments written: the amendment's part read again
        audit.record(uow, self.staff, "roll.published", roll, before=before,
                     after={**audit.snapshot(roll), "assessments_written": written})
        from portal.roll import notices  # the notices' job, in this unit of work
        notices.start_after_publication(uow, self.staff, roll)
        return roll


@dataclass(frozen=True)
class VersionRoll:
    """A budget version as the staff's roll page lists it, with its roll (None: never
    computed)."""

    fiscal_year: FiscalYear
    version: BudgetVersion
    roll: AssessmentRoll | None


def overview(uow: UnitOfWork, staff: Any) -> list[VersionRoll]:
    """Every budget version with its fiscal year and roll, the latest year first, then by
    version (staff)."""
    access.require_staff(staff)
    rows = uow.session.execute(
        select(FiscalYear, BudgetVersion, AssessmentRoll)
        .join(Budget, Budget.fiscal_year_id == FiscalYear.id)
        .join(BudgetVersion, BudgetVersion.budget_id == Budget.id)
        .outerjoin(AssessmentRoll, AssessmentRoll.budget_version_id == BudgetVersion.id)
        .order_by(FiscalYear.starts_on.desc(), BudgetVersion.version))
    return [VersionRoll(fy, v, r) for fy, v, r in rows]


def rolls(uow: UnitOfWork, fiscal_year: FiscalYear) -> list[AssessmentRoll]:
    return list(uow.session.scalars(select(AssessmentRoll).where(
        AssessmentRoll.fiscal_year_id == fiscal_year.id).order_by(AssessmentRoll.id)))


def lines(uow: UnitOfWork, roll_id: int, *, limit: int = 100, offset: int = 0
          ) -> list[tuple[RollLine, Parcel]]:
    """A page of a roll's lines with their parcels (the staff review)."""
    return [(ln, p) for ln, p in uow.session.execute(
        select(RollLine, Parcel).join(Parcel, and_(Parcel.id == RollLine.parcel_id))
        .where(RollLine.roll_id == int(roll_id)).order_by(Parcel.catastro)
        .limit(limit).offset(offset))]


runner.register("roll.compute",
                lambda staff, p: Computation(staff, int(p["version_id"])),
                lambda uow, staff, p: computable(uow, staff, int(p["version_id"])))
runner.register("roll.publish",
                lambda staff, p: Publication(staff, int(p["roll_id"]),
                                             runner.optional_date(p.get("notice_date"))),
                lambda uow, staff, p: publishable(uow, staff, int(p["roll_id"])))
