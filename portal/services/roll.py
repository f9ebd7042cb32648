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

from collections.abc import Callable
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy import and_, delete, or_, select

from portal import clock
from portal.core.allocation import ParcelFacts, assessment_roll
from portal.core.errors import CalcError
from portal.core.installments import Installment as CoreInstallment
from portal.core.installments import amend, schedule
from portal.core.money import ZERO
from portal.db import UnitOfWork
from portal.models import (
    Assessment,
    AssessmentRoll,
    Budget,
    BudgetVersion,
    FiscalYear,
    Installment,
    Lease,
    LedgerEntry,
    Notice,
    Parcel,
    RollLine,
)
from portal.services import access, audit, bulk, facts, ledger
from portal.services.errors import Conflict, InvalidInput, NotFound

Progress = Callable[[int, int], None] | None
CHUNK = 2000


def _tick(progress: Progress, done: int, total: int) -> None:
    if progress is not None:
        progress(done, total)


def _version(uow: UnitOfWork, version_id: int) -> tuple[BudgetVersion, FiscalYear]:
    version = uow.session.get(BudgetVersion, int(version_id))
    if version is None:
        raise NotFound()
    budget = uow.session.get(Budget, version.budget_id)
    return version, uow.session.get(FiscalYear, budget.fiscal_year_id)


def _lessee_pays(uow: UnitOfWork, on: date) -> set[int]:
    """Parcels leased on `on` to a lessee who pays the assessment (R-A16)."""
    return set(uow.session.scalars(
        select(Lease.parcel_id).where(Lease.lessee_pays.is_(True), Lease.starts_on <= on,
                                      or_(Lease.ends_on.is_(None), Lease.ends_on >= on))))


def compute(uow: UnitOfWork, staff: Any, version_id: int, *, progress: Progress = None
            ) -> AssessmentRoll:
    """Compute (or recompute) the roll of an adopted budget version: R-A2 who is assessed,
    R-A3 how much. The lines are a preview until `publish`."""
    access.require_staff(staff)
    version, fy = _version(uow, version_id)
    if version.status != "adopted":
        raise Conflict("budget_not_adopted")
    roll = uow.session.scalar(select(AssessmentRoll).where(
        AssessmentRoll.budget_version_id == version.id))
    if roll is not None and roll.status == "published":
        raise Conflict("roll_published")
    parcels = uow.session.execute(select(
        Parcel.id, Parcel.benefit_units, Parcel.owner_kind, Parcel.transferred,
        Parcel.tax_incentive_exempt).order_by(Parcel.id)).all()
    try:
        result = assessment_roll(version.total_to_assess, [
            ParcelFacts(str(p.id), p.benefit_units, p.owner_kind, p.transferred,
                        p.tax_incentive_exempt) for p in parcels])
    except CalcError as exc:
        raise InvalidInput("calc", field=exc.field, message=exc.message) from exc
    on = min(max(fy.starts_on, clock.today()), fy.ends_on)
    lessee = _lessee_pays(uow, on)
    if roll is None:
        roll = AssessmentRoll(budget_version_id=version.id, fiscal_year_id=fy.id,
                              total=version.total_to_assess)
        uow.session.add(roll)
        uow.session.flush()
    else:
        uow.session.execute(delete(RollLine).where(RollLine.roll_id == roll.id))
    exempt = set(result.exempt)
    rows = []
    total_units = ZERO
    for p in parcels:
        key = str(p.id)
        is_exempt = key in exempt
        if not is_exempt:
            total_units += p.benefit_units
        rows.append({"roll_id": roll.id, "parcel_id": p.id, "benefit_units": p.benefit_units,
                     "exempt": is_exempt, "amount": result.assessments.get(key, ZERO),
                     "payer": "lessee" if p.id in lessee else "owner"})
    for start in range(0, len(rows), CHUNK):
        bulk.insert_rows(uow, RollLine, rows[start:start + CHUNK])
        _tick(progress, min(start + CHUNK, len(rows)), len(rows))
    roll.total = version.total_to_assess
    roll.total_units = total_units
    roll.assessed_count = len(result.assessments)
    roll.exempt_count = len(exempt)
    roll.computed_at = clock.now()
    roll.computed_by_id = staff.id
    uow.session.flush()
    audit.record(uow, staff, "roll.computed", roll, after=audit.snapshot(roll))
    return roll


def publish(uow: UnitOfWork, staff: Any, roll_id: int, notice_date: date | None = None, *,
            progress: Progress = None) -> AssessmentRoll:
    """Publish a computed roll: write the assessments and installments (the facts) and queue
    the assessment notices. Publishing again does nothing."""
    access.require_staff(staff)
    roll = uow.session.get(AssessmentRoll, int(roll_id))
    if roll is None:
        raise NotFound()
    if roll.status == "published":
        return roll
    version, fy = _version(uow, roll.budget_version_id)
    notice_date = notice_date or clock.today()
    count = facts.installment_count(fy.starts_on)
    lines = uow.session.execute(select(RollLine.parcel_id, RollLine.amount, RollLine.exempt,
                                       RollLine.benefit_units, RollLine.payer)
                                .where(RollLine.roll_id == roll.id)
                                .order_by(RollLine.parcel_id)).all()
    previous = facts.current_assessments(uow, [ln.parcel_id for ln in lines], fy.id)
    if previous and version.version > 1:
        accounts = facts.load_many(uow, list(previous), fy)
    else:
        accounts = {}
    effective = version.effective_on or notice_date
    today = clock.today()
    plans: list[tuple[dict, list[CoreInstallment], Decimal]] = []
    credit_on: dict[int, date] = {}  # R-A5's credit: dated as any correction (ledger)
    for ln in lines:
        prev = previous.get(ln.parcel_id)
        amount = ZERO if ln.exempt else ln.amount
        base = {"parcel_id": ln.parcel_id, "fiscal_year_id": fy.id,
                "budget_version_id": version.id, "roll_id": roll.id, "annual_amount": amount,
                "benefit_units": ln.benefit_units, "payer": ln.payer,
                "notified_on": notice_date, "supersedes_id": None, "effective_on": None,
                "credit": ZERO}
        if prev is None:
            if ln.exempt:
                continue
            plans.append((base, schedule(amount, fy.starts_on, count, notice_date), ZERO))
            continue
        if prev.budget_version_id == version.id:
            continue  # already published (a partial earlier run cannot exist: all or nothing)
        if prev.annual_amount == amount:
            continue  # unchanged by the amendment: the current assessment stands
        account = accounts[ln.parcel_id]
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
        if result.credit > 0:
            credit_on[ln.parcel_id] = ledger.correction_date(account)
        plans.append((base, list(result.installments), result.credit))
    total = len(plans)
    now = clock.now()
    for start in range(0, total, CHUNK):
        chunk = plans[start:start + CHUNK]
        ids = bulk.insert_rows(uow, Assessment, [base for base, _, _ in chunk],
                               return_ids=True)
        inst_rows, ledger_rows, notice_rows = [], [], []
        for aid, (base, items, credit) in zip(ids, chunk):
            inst_rows.extend({"assessment_id": aid, "number": i.number, "due_date": i.due_date,
                              "amount": i.amount} for i in items)
            common = {"parcel_id": base["parcel_id"], "fiscal_year_id": fy.id,
                      "assessment_id": aid, "created_at": now, "author_id": staff.id,
                      "description": f"v{version.version}", "cost_kind": None,
                      "payment_id": None, "reverses_id": None}
            if base["supersedes_id"] is None:
                ledger_rows.append({**common, "kind": "charge", "direction": "debit",
                                    "amount": base["annual_amount"], "legal_date": notice_date,
                                    "rule": "R-A3"})
            if credit > 0:
                ledger_rows.append({**common, "kind": "adjustment", "direction": "credit",
                                    "amount": credit, "legal_date": credit_on[base["parcel_id"]],
                                    "rule": "R-A5"})
            notice_rows.append({"parcel_id": base["parcel_id"], "fiscal_year_id": fy.id,
                                "kind": "assessment", "assessment_id": aid,
                                "amount": base["annual_amount"], "language": "es",
                                "created_at": now, "created_by_id": staff.id,
                                "mailed_on": notice_date})
        bulk.insert_rows(uow, Installment, inst_rows)
        bulk.insert_rows(uow, LedgerEntry, ledger_rows)
        bulk.insert_rows(uow, Notice, notice_rows)
        _tick(progress, min(start + CHUNK, total), total)
    bulk.analyze(uow, Assessment, Installment, LedgerEntry, Notice)
    before = audit.snapshot(roll)
    roll.status = "published"
    roll.notice_date = notice_date
    roll.published_at = now
    roll.published_by_id = staff.id
    uow.session.flush()
    audit.record(uow, staff, "roll.published", roll, before=before,
                 after={**audit.snapshot(roll), "assessments_written": total})
    return roll


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
