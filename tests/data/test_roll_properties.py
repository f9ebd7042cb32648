"""Property tests of the Board's year from the roll's file to the published roll (J8; R-A2,
R-A3, R-A4), on random small rolls (private, Authority and public parcels, transferred or
not, incentive-exempt or not, leased or not, any benefit units, Board-fixed amounts):

- the published roll sums to the budget's total to assess, to the cent (the assessments,
  their installments and the ledger's charges), each fixed amount is the parcel's, and only
  assessable parcels are assessed (R-A2);
- importing the same file, computing the same version and publishing the same roll again
  change nothing (row counts and checksums of the tables each writes);
- a stage interrupted midway leaves the database as it was: raised from its progress
  callback in one transaction, nothing of it is left (every table, the job's record too);
  raised inside a batch of a job, that batch leaves nothing (the tables are as the last
  committed batch left them), and running the job again ends where an uninterrupted run
  ends.

On SQLite, a fresh database per example; seeded by the suite's profile (tests/conftest.py:
derandomized in CI), with few examples each (every example runs the import, the
computation and the publication)."""

from __future__ import annotations

import csv
import hashlib
import io
import shutil
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select, text

from portal import clock
from portal.accounts import bulk
from portal.core.allocation import ParcelFacts, is_assessable
from portal.db import Database, UnitOfWork
from portal.jobs import runner
from portal.models import (
    Assessment,
    AssessmentRoll,
    Base,
    Installment,
    LedgerEntry,
    Parcel,
    User,
)
from portal.people import users
from portal.roll import budgets, roll, roll_import
from portal.roll import roll_csv as ri
from portal.roll.budgets import FixedInput, LineInput

HEAD = [c.es for c in ri.COLUMNS]
FY_START = date(2026, 7, 1)
DAY = date(2026, 5, 20)  # adopted, computed and published before the year starts
KINDS = {"privado": "private", "autoridad": "authority", "publico": "public"}
#: The tables each stage writes (its checksums say whether it changed anything).
IMPORTED = ("parcels", "parties", "ownership_shares", "leases")
COMPUTED = ("assessment_rolls", "roll_lines")
PUBLISHED = ("assessment_rolls", "assessments", "installments", "ledger_entries", "notices")
#: What stays out of "the database as it was" after a job's batch fails: the job's own
#: record and the audit trail of its start and failure.
RECORDS = ("jobs", "audit_records")

SETTINGS = settings(max_examples=10, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


@dataclass
class Roll:
    rows: list[list[str]]  # the file's rows, in HEAD's order
    total: Decimal  # the budget's total to assess
    fixed: dict[str, Decimal]  # catastro -> the Board's fixed amount (R-A3)
    assessable: set[str]  # the catastro numbers R-A2 assesses

    def csv(self) -> bytes:
        out = io.StringIO()
        csv.writer(out, delimiter=";", lineterminator="\r\n").writerows([HEAD, *self.rows])
        return out.getvalue().encode("cp1252")


UNITS = st.decimals(0, 400, places=2, allow_nan=False, allow_infinity=False)


@st.composite
def small_rolls(draw) -> Roll:  # noqa: ANN001
    """1 to 7 parcels. The first is private with at least one benefit unit and no fixed
    amount, so there is always a parcel to share what the fixed amounts leave (R-A3)."""
    n = draw(st.integers(1, 7))
    rows, assessable = [], set()
    for k in range(n):
        kind = "privado" if k == 0 else draw(st.sampled_from(list(KINDS)))
        transferred = kind == "autoridad" and draw(st.booleans())
        incentive = draw(st.booleans())
        units = draw(st.decimals(1, 400, places=2) if k == 0 else UNITS)
        leased = kind == "autoridad" and draw(st.booleans())
        catastro = f"090-000-{k:03d}-{draw(st.integers(0, 99)):02d}"
        owner = "" if kind != "privado" else f"Dueño {k}"
        rows.append([catastro, f"Calle {k}", "Ponce", "urbana", "0.5",
                     str(draw(st.integers(0, 10 ** 6))), "0", kind,
                     "sí" if transferred else "no", "sí" if incentive else "no", str(units),
                     owner, f"dueno{k}@example.pr" if owner else "", "",
                     "Muelle Sur LLC" if leased else "", "", draw(st.sampled_from(["sí", "no"]))
                     if leased else "", "", "2026-01-01" if leased else "", ""])
        if is_assessable(ParcelFacts(catastro, units, KINDS[kind], transferred, incentive)):
            assessable.add(catastro)
    total = draw(st.decimals(Decimal("0.01"), Decimal("250000.00"), places=2))
    fixed: dict[str, Decimal] = {}
    left = total
    for catastro in sorted(assessable - {rows[0][0]}):
        if draw(st.booleans()):
            amount = draw(st.decimals(0, left, places=2))
            fixed[catastro], left = amount, left - amount
    return Roll(rows, total, fixed, assessable)


class District:
    """A fresh migrated SQLite database with one administrator, on the roll's day."""

    def __init__(self, template: Path, folder: Path):
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(template, folder / "portal.db")
        self.folder = folder
        self.database = Database(f"sqlite:///{folder / 'portal.db'}")
        with self.uow() as uow:
            staff = users.register(uow, "junta@test.pr", "correct horse battery", "Junta")
            staff.is_staff, staff.staff_role = True, "administrator"
            self.staff_id = staff.id

    def uow(self) -> UnitOfWork:
        return UnitOfWork(self.database)

    def staff(self, uow: UnitOfWork) -> User:
        return uow.session.get(User, self.staff_id)

    def register(self, data: bytes) -> int:
        with self.uow() as uow:
            return roll_import.register(uow, self.staff(uow), io.BytesIO(data), "padron.csv",
                                        self.folder / "files").id

    def budget(self, r: Roll) -> int:
        with self.uow() as uow:
            staff = self.staff(uow)
            fy = budgets.ensure_fiscal_year(uow, FY_START)
            v = budgets.draft(uow, staff, fy, [LineInput(
                "project", "Proyecto", "Project", r.total, r.total)], reference="Res. 1",
                fixed=[FixedInput(c, a, "Resolución") for c, a in r.fixed.items()])
            budgets.adopt(uow, staff, v.id, DAY)
            return v.id

    def run(self, kind: str, progress=None, **params) -> runner.Job:  # noqa: ANN001
        """A job submitted and run by a worker (`jobs.run`), a batch per transaction."""
        with self.uow() as uow:
            job_id = runner.submit(uow, self.staff(uow), kind, params).id
        return runner.run(self.database, job_id, progress=progress)

    def roll_id(self, version_id: int) -> int:
        with self.uow() as uow:
            return uow.session.scalar(select(AssessmentRoll.id).where(
                AssessmentRoll.budget_version_id == version_id))

    def sums(self, roll_id: int) -> tuple[Decimal, Decimal, Decimal]:
        with self.uow() as uow:
            s = uow.session
            mine = select(Assessment.id).where(Assessment.roll_id == roll_id)
            return (s.scalar(select(func.sum(Assessment.annual_amount)).where(
                        Assessment.roll_id == roll_id)) or Decimal("0.00"),
                    s.scalar(select(func.sum(Installment.amount)).where(
                        Installment.assessment_id.in_(mine))) or Decimal("0.00"),
                    s.scalar(select(func.sum(LedgerEntry.amount)).where(
                        LedgerEntry.kind == "charge",
                        LedgerEntry.assessment_id.in_(mine))) or Decimal("0.00"))

    def assessed(self, roll_id: int) -> dict[str, Decimal]:
        with self.uow() as uow:
            return dict(uow.session.execute(
                select(Parcel.catastro, Assessment.annual_amount)
                .join(Assessment, Assessment.parcel_id == Parcel.id)
                .where(Assessment.roll_id == roll_id)).all())

    def checksums(self, tables: tuple[str, ...] | None = None) -> dict[str, tuple[int, str]]:
        """{table: (rows, SHA-256 of its rows in key order)} for these tables (default:
        every table)."""
        names = tables or tuple(t.name for t in Base.metadata.sorted_tables)
        out = {}
        with self.database.engine.connect() as conn:
            for name in names:
                rows = conn.execute(text(f'SELECT * FROM "{name}" ORDER BY 1')).all()
                digest = hashlib.sha256(repr([tuple(r) for r in rows]).encode()).hexdigest()
                out[name] = (len(rows), digest)
        return out

    def close(self) -> None:
        self.database.dispose()


def _district(tmp_path: Path, template: Path, r: Roll, tag: str) -> District:
    key = hashlib.sha256(repr((r, tag)).encode()).hexdigest()[:16]
    return District(template, tmp_path / key)


@SETTINGS
@given(r=small_rolls())
def test_the_published_roll_sums_to_the_budget_and_every_stage_twice_is_once(
        tmp_path, schema_template, r):
    d = _district(tmp_path, schema_template, r, "sums")
    try:
        with clock.fixed(clock.pr_instant(DAY)):
            data = r.csv()
            assert d.run("roll.import", import_id=d.register(data),
                         dry_run=False).result["status"] == "imported"
            imported = d.checksums(IMPORTED)
            assert imported["parcels"][0] == len(r.rows)
            assert d.run("roll.import", import_id=d.register(data),
                         dry_run=False).result["status"] == "imported"
            assert d.checksums(IMPORTED) == imported  # the same file again: nothing

            version_id = d.budget(r)
            assert d.run("roll.compute", version_id=version_id).status == "succeeded"
            roll_id = d.roll_id(version_id)
            computed = d.checksums(COMPUTED)
            assert d.run("roll.compute", version_id=version_id).status == "succeeded"
            assert d.checksums(COMPUTED) == computed  # the same version again: the same

            assert d.run("roll.publish", roll_id=roll_id).status == "succeeded"
            published = d.checksums(PUBLISHED)
            assert d.run("roll.publish", roll_id=roll_id).status == "succeeded"
            assert d.checksums(PUBLISHED) == published  # published again: nothing
            assert d.checksums(IMPORTED) == imported

        # R-A3: to the cent, in the assessments, their installments and the ledger
        assert d.sums(roll_id) == (r.total, r.total, r.total)
        amounts = d.assessed(roll_id)
        # R-A2: the assessable parcels only (an assessable one may owe $0.00 and is still
        # on the roll with no installment: `Publication` writes it only when not exempt)
        assert set(amounts) == r.assessable
        for catastro, amount in r.fixed.items():  # R-A3: the Board's amounts first
            assert amounts[catastro] == amount
        with d.uow() as uow:
            rl = uow.session.get(AssessmentRoll, roll_id)
            assert (rl.status, rl.assessed_count, rl.exempt_count) == (
                "published", len(r.assessable), len(r.rows) - len(r.assessable))
    finally:
        d.close()


class Interrupted(Exception):
    """Raised from a progress callback or a batch, midway."""


STAGES = st.sampled_from(["roll.import", "roll.compute", "roll.publish"])


def _upto(d: District, r: Roll, stage: str) -> dict:
    """The district brought to just before `stage`; the stage's job input."""
    import_id = d.register(r.csv())
    if stage == "roll.import":
        return {"import_id": import_id, "dry_run": False}
    assert d.run("roll.import", import_id=import_id, dry_run=False).status == "succeeded"
    version_id = d.budget(r)
    if stage == "roll.compute":
        return {"version_id": version_id}
    assert d.run("roll.compute", version_id=version_id).status == "succeeded"
    return {"roll_id": d.roll_id(version_id)}


def _writes(stage: str) -> tuple[str, ...]:
    return {"roll.import": IMPORTED, "roll.compute": COMPUTED,
            "roll.publish": PUBLISHED}[stage]


@SETTINGS
@given(r=small_rolls(), stage=STAGES, at=st.integers(1, 3))
def test_a_stage_interrupted_from_its_progress_in_one_transaction_leaves_nothing(
        tmp_path, schema_template, monkeypatch, r, stage, at):
    """`jobs.run_here` (the stage in the caller's unit of work, as the demo runs it)
    raising from its progress callback at its `at`-th batch: every table as before."""
    monkeypatch.setattr(roll, "CHUNK", 2)
    monkeypatch.setattr(roll_import, "BATCH", 2)
    d = _district(tmp_path, schema_template, r, f"progress-{stage}-{at}")
    calls = {"n": 0}

    def progress(done: int, total: int) -> None:
        calls["n"] += 1
        if calls["n"] == at:
            raise Interrupted()

    try:
        with clock.fixed(clock.pr_instant(DAY)):
            params = _upto(d, r, stage)
            before = d.checksums()
            try:
                with d.uow() as uow:
                    runner.run_here(uow, d.staff(uow), stage, params, progress=progress)
            except Interrupted:
                event(f"{stage}: interrupted")
                after = d.checksums()
                # Nothing of it. (The job's record: on PostgreSQL none is left either; on
                # SQLite one is, test_a_job_submitted_in_a_failed_unit_of_work_is_not_kept.)
                assert {k: v for k, v in after.items() if k != "jobs"} == {
                    k: v for k, v in before.items() if k != "jobs"}
            else:  # fewer batches than `at`: it ended, and wrote what the stage writes
                assert calls["n"] < at
                after = d.checksums()
                # Its job, and for a publication the notices' job (roll.notify) it submitted.
                started = 2 if stage == "roll.publish" else 1
                assert after["jobs"][0] == before["jobs"][0] + started
    finally:
        d.close()


@SETTINGS
@given(r=small_rolls(), stage=STAGES, at=st.integers(1, 8))
def test_a_job_whose_batch_fails_keeps_whole_batches_and_ends_as_an_uninterrupted_one(
        tmp_path, schema_template, monkeypatch, r, stage, at):
    """A worker's job (`jobs.run`, a batch per transaction) whose `at`-th bulk insert
    raises: the failing batch leaves nothing (the stage's tables are as its last committed
    batch left them: the progress callback sees each commit); the job is recorded failed;
    run again, it ends with the same tables as the same stage run without a failure."""
    monkeypatch.setattr(roll, "CHUNK", 2)
    monkeypatch.setattr(roll_import, "BATCH", 2)
    tables = _writes(stage)
    with clock.fixed(clock.pr_instant(DAY)):
        reference = _district(tmp_path, schema_template, r, f"reference-{stage}")
        try:
            params = _upto(reference, r, stage)
            assert reference.run(stage, **params).status == "succeeded"
            expected = reference.checksums(tables)
        finally:
            reference.close()

        d = _district(tmp_path, schema_template, r, f"batch-{stage}-{at}")
        try:
            params = _upto(d, r, stage)
            committed = [d.checksums(tables)]
            real, calls = bulk.insert_rows, {"n": 0}

            def failing(uow, model, rows, **kwargs):  # noqa: ANN001, ANN003, ANN202
                calls["n"] += 1
                if calls["n"] == at:
                    raise Interrupted()
                return real(uow, model, rows, **kwargs)

            monkeypatch.setattr(bulk, "insert_rows", failing)
            job = d.run(stage, progress=lambda done, total: committed.append(
                d.checksums(tables)), **params)
            monkeypatch.setattr(bulk, "insert_rows", real)
            event(f"{stage}: {'failed midway' if calls['n'] >= at else 'ended'}")
            if calls["n"] >= at:  # it failed midway
                assert (job.status, job.error_code) == ("failed", runner.UNEXPECTED)
                assert d.checksums(tables) == committed[-1]
                job = d.run(stage, **params)
            assert job.status == "succeeded"
            assert d.checksums(tables) == expected
        finally:
            d.close()



def test_a_job_submitted_in_a_failed_unit_of_work_is_not_kept(database):
    """`jobs.submit` inside a unit of work that then fails leaves no job behind (a queued
    one would be run by the next worker's recovery)."""
    if database.engine.dialect.name == "sqlite":
        pytest.skip("on SQLite the job's row is kept: `jobs.submit` writes it inside a "
                    "SAVEPOINT, and pysqlite, which sends BEGIN only before an INSERT, lets "
                    "that SAVEPOINT open the transaction, so its RELEASE commits the row "
                    "(portal/db.py has no pysqlite transaction recipe)")
    with UnitOfWork(database) as uow, clock.fixed(clock.pr_instant(DAY)):
        staff = users.register(uow, "junta@test.pr", "correct horse battery", "Junta")
        staff.is_staff, staff.staff_role = True, "administrator"
        fy = budgets.ensure_fiscal_year(uow, FY_START)
        v = budgets.draft(uow, staff, fy, [LineInput("project", "Proyecto", "Project",
                                                     Decimal("100.00"), Decimal("100.00"))])
        budgets.adopt(uow, staff, v.id, DAY)
        staff_id, version_id = staff.id, v.id
    with UnitOfWork(database) as uow:
        before = uow.session.scalar(select(func.count()).select_from(runner.Job))
    with pytest.raises(Interrupted), UnitOfWork(database) as uow:
        runner.submit(uow, uow.session.get(User, staff_id), "roll.compute",
                    {"version_id": version_id})
        raise Interrupted()
    with UnitOfWork(database) as uow:
        assert uow.session.scalar(select(func.count()).select_from(runner.Job)) == before
