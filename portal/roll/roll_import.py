"""The parcel roll's import (R-A2, R-A3, R-A16; DESIGN.md 1, 6, 7): a CSV
file checked in full before anything is written, then written in batches.

- `register(uow, staff, source, filename, folder)`: the uploaded file, streamed into the
  instance folder (`<folder>/<id>.csv`), and its `RollImport` record.
- `ImportWork` is the `roll.import` job's work (`jobs.runner`): **pass 1** reads the file row
  by row (`portal.roll.roll_csv.read`: constant memory), stores each refused row's errors (the
  report; the first `MAX_ERRORS`, all of them counted) and stages each valid row with what it
  would change on the roll (new, changed, same), a batch of `BATCH` rows per transaction; at
  its end it finds the catastro numbers the file lists twice and counts the parcels on the
  roll the file does not list (SQL over the staged rows: no set of catastro numbers in
  memory). A dry run stops there. **Pass 2**, only when pass 1 found no error, walks the
  staged rows by id, a batch per transaction, and writes the new parcels (with their owners'
  parties and shares and their lease) and the changed parcels' facts: all or nothing per
  batch. Running it again re-checks the file against the roll as it now is, so the rows
  already written are "same" and the same file twice changes nothing the second time; a job
  stopped midway leaves whole batches, and its next run goes on from there.
- Parcels the file does not list are counted and listed, never deleted (they have accounts).
  Owners and leases are written for new parcels only (a change of owner of a parcel already
  on the roll is a sale, not a roll import: docs/ROLL_IMPORT.md).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any, BinaryIO

from sqlalchemy import (
    ARRAY,
    and_,
    any_,
    case,
    delete,
    exists,
    func,
    literal,
    select,
    update,
)

from portal import clock
from portal.accounts import access, audit, bulk, facts
from portal.accounts.errors import Conflict, NotFound
from portal.db import UnitOfWork
from portal.jobs import runner
from portal.models import (
    Job,
    Lease,
    OwnershipShare,
    Parcel,
    Party,
    RollImport,
    RollImportError,
    RollImportRow,
    fact_versions,
)
from portal.roll import review
from portal.roll import roll_csv as parse

#: Rows per batch (one transaction each, and one step of the job): 5,000 rows are a few
#: seconds' work, fewer transactions than 2,000 (bench/import_bench.py), far within
#: `jobs.STALE`.
BATCH = 5000
#: Errors the report keeps (every one is counted): a file wrong in every row says so at once.
MAX_ERRORS = 10_000


def register(uow: UnitOfWork, staff: Any, source: BinaryIO, filename: str, folder: Path
             ) -> RollImport:
    """Keep an uploaded file (streamed, never wholly in memory) and record it (staff who
    manage: the administrator)."""
    access.require_staff_role(staff, *access.MANAGE)
    folder.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    size = 0
    tmp = folder / f".upload-{os.getpid()}-{id(source)}"
    with open(tmp, "wb") as out:
        while chunk := source.read(parse.CHUNK):
            digest.update(chunk)
            size += len(chunk)
            out.write(chunk)
    imp = RollImport(filename=(Path(filename or "").name or "roll.csv")[:200],
                     stored_path="", sha256=digest.hexdigest(), size_bytes=size,
                     status="uploaded", created_by_id=staff.id)
    uow.session.add(imp)
    uow.session.flush()
    path = folder / f"{imp.id}.csv"
    os.replace(tmp, path)
    imp.stored_path = str(path)
    uow.session.flush()
    audit.record(uow, staff, "roll_import.uploaded", imp,
                 after={"filename": imp.filename, "size": size, "sha256": imp.sha256})
    return imp


def register_path(uow: UnitOfWork, staff: Any, path: Path, folder: Path) -> RollImport:
    """`register` for a file on disk (the command line): a copy is kept, as for an upload."""
    with open(path, "rb") as fh:
        return register(uow, staff, fh, path.name, folder)


def get(uow: UnitOfWork, staff: Any, import_id: int) -> RollImport:
    access.require_staff(staff)
    imp = uow.session.get(RollImport, int(import_id))
    if imp is None:
        raise NotFound()
    return imp


def recent(uow: UnitOfWork, staff: Any, limit: int = 10) -> list[RollImport]:
    access.require_staff(staff)
    return list(uow.session.scalars(select(RollImport).order_by(RollImport.id.desc())
                                    .limit(limit)))


def latest_job(uow: UnitOfWork, staff: Any, import_id: int) -> Any:
    """The import's latest `roll.import` job (a check or an import), with who started it;
    None before any."""
    get(uow, staff, import_id)
    keys = [runner.checksum("roll.import", {"import_id": int(import_id), "dry_run": d})
            for d in (True, False)]
    job_id = uow.session.scalar(select(Job.id).where(Job.input_checksum.in_(keys))
                                .order_by(Job.id.desc()).limit(1))
    return runner.get(uow, staff, job_id) if job_id else None


def importable(uow: UnitOfWork, staff: Any, import_id: int, dry_run: bool) -> RollImport:
    """`jobs.CHECKS` for `roll.import`: a check may always run; an import, unless a check
    found errors in the file (its errors are the file's own: it stays refused). Either
    way pass 1 checks the whole file again before pass 2 writes anything."""
    imp = get(uow, staff, import_id)
    access.require_staff_role(staff, *access.MANAGE)
    if not dry_run and imp.status == "invalid":
        raise Conflict("import_has_errors")
    return imp


def errors_page(uow: UnitOfWork, staff: Any, import_id: int, *, limit: int = 50,
                offset: int = 0) -> list[RollImportError]:
    get(uow, staff, import_id)
    return list(uow.session.scalars(
        select(RollImportError).where(RollImportError.import_id == int(import_id))
        .order_by(RollImportError.row_number, RollImportError.id).limit(limit).offset(offset)))


def all_errors(uow: UnitOfWork, staff: Any, import_id: int) -> Iterator[RollImportError]:
    """Every stored error of the import in row order, read a batch at a time (the CSV)."""
    get(uow, staff, import_id)
    after: tuple[int, int] = (0, 0)
    while True:
        batch = list(uow.session.scalars(
            select(RollImportError).where(
                RollImportError.import_id == int(import_id),
                (RollImportError.row_number > after[0])
                | and_(RollImportError.row_number == after[0], RollImportError.id > after[1]))
            .order_by(RollImportError.row_number, RollImportError.id).limit(BATCH)))
        if not batch:
            return
        yield from batch
        after = (batch[-1].row_number, batch[-1].id)


@dataclass(frozen=True)
class Change:
    """One line of the dry run's list: a parcel the import adds, changes or does not list."""

    change: str  # new, changed or removed
    catastro: str
    row: int | None  # its row in the file (None: removed)
    parcel_id: int | None
    changed: tuple[str, ...]  # the columns it changes (changed)
    address: str


def changes_page(uow: UnitOfWork, staff: Any, import_id: int, change: str, *,
                 limit: int = 50, offset: int = 0) -> list[Change]:
    """A page of the parcels the import adds (`new`), changes (`changed`) or does not list
    (`removed`: on the roll, not in the file)."""
    imp = get(uow, staff, import_id)
    if change == "removed":
        rows = uow.session.execute(
            select(Parcel.id, Parcel.catastro, Parcel.address).where(~_listed(imp.id))
            .order_by(Parcel.catastro).limit(limit).offset(offset))
        return [Change("removed", r.catastro, None, r.id, (), r.address) for r in rows]
    rows = uow.session.scalars(
        select(RollImportRow).where(RollImportRow.import_id == imp.id,
                                    RollImportRow.change == change)
        .order_by(RollImportRow.row_number).limit(limit).offset(offset))
    return [Change(r.change, r.catastro, r.row_number, r.parcel_id,
                   tuple(c for c in r.changed.split(",") if c),
                   parse.ParcelRow.from_json(r.data).address) for r in rows]


def _listed(import_id: int) -> Any:
    return exists().where(RollImportRow.import_id == import_id,
                          RollImportRow.catastro == Parcel.catastro)


def _compare(row: parse.ParcelRow, current: Any) -> tuple[str, ...]:
    """The parcel's columns whose value the row changes."""
    new = row.facts()
    return tuple(k for k in parse.ParcelRow.FACTS if new[k] != getattr(current, k))


class ImportWork:
    """The `roll.import` job's work (module docstring): `begin`, then `step` until it returns
    0, then `finish`. Each step is one transaction (`jobs.runner.run`)."""

    def __init__(self, staff: Any, import_id: int, dry_run: bool = False):
        self.staff, self.import_id, self.dry_run = staff, int(import_id), bool(dry_run)
        self.phase = "check"
        self.rows: Iterator[parse.Row] | None = None
        self.after = 0
        self.counts = {"rows": 0, "error_rows": 0, "errors": 0, "new": 0, "changed": 0,
                       "same": 0}
        self.written = {"new": 0, "changed": 0}
        self.recheck = False  # pass 2 compares each batch with the roll (no pass 1 ran)
        self.resumed = 0  # rows a check of the same file already did (`jobs.run` counts them)

    # -- begin ----------------------------------------------------------------------------
    def begin(self, uow: UnitOfWork) -> int:
        imp = importable(uow, self.staff, self.import_id, self.dry_run)
        if not self.dry_run and _checked(imp):
            return self._begin_checked(uow, imp)
        uow.session.execute(delete(RollImportError).where(
            RollImportError.import_id == imp.id))
        uow.session.execute(delete(RollImportRow).where(RollImportRow.import_id == imp.id))
        imp.status, imp.file_error, imp.file_error_params = "checking", None, None
        for k in ("rows", "error_rows", "errors", "new_count", "changed_count", "same_count",
                  "removed_count"):
            setattr(imp, k, 0)
        fmt = self._sniff(uow, imp)
        if fmt is None:
            return 0
        imp.encoding, imp.delimiter = fmt.encoding, fmt.delimiter
        self.rows = parse.read(imp.stored_path, fmt)
        self.estimate = fmt.rows
        return fmt.rows if self.dry_run else 2 * fmt.rows

    def _begin_checked(self, uow: UnitOfWork, imp: RollImport) -> int:
        """An import of a file its last check found without error (the dry run, or an
        import stopped midway): its staged rows are the file's, once the file is seen
        unchanged (its checksum), so pass 1 is not run again; pass 2 compares each batch
        with the roll as it is then (`recheck`), so what changed on the roll since the
        check (another import, this one stopped midway) is seen."""
        if self._sniff(uow, imp) is None:
            return 0
        c = self.counts
        c.update(rows=imp.rows, error_rows=imp.error_rows, errors=imp.errors)
        self.recheck, self.resumed, self.phase = True, imp.rows, "write"
        imp.status = "importing"
        imp.as_of = self.as_of = clock.today()
        uow.session.flush()
        return 2 * imp.rows

    def _sniff(self, uow: UnitOfWork, imp: RollImport) -> parse.FileFormat | None:
        """The stored file's format, once its checksum is the upload's; None (the import
        refused as a whole, `file_problem`) when it is not, or it is not the roll's CSV."""
        try:
            fmt = parse.sniff(imp.stored_path)
            if fmt.sha256 != imp.sha256:
                raise parse.FileProblem("file_changed")
            return fmt
        except parse.FileProblem as exc:
            self._file_problem(uow, imp, exc)
        except OSError:
            self._file_problem(uow, imp, parse.FileProblem("file_changed"))
        return None

    def _file_problem(self, uow: UnitOfWork, imp: RollImport, exc: parse.FileProblem) -> None:
        imp.status, imp.file_error, imp.file_error_params = "invalid", exc.code, exc.params
        imp.errors = 1
        imp.checked_at = clock.now()
        self.phase = "done"
        uow.session.flush()

    # -- step -----------------------------------------------------------------------------
    def step(self, uow: UnitOfWork) -> int:
        bulk.batch_commit(uow)
        if self.phase == "check":
            batch = self._next_batch()
            if batch:
                self._check(uow, batch)
                return len(batch)
            self._end_check(uow)
        if self.phase == "write":
            return self._write_batch(uow)
        return 0

    def _next_batch(self) -> list[parse.Row]:
        out: list[parse.Row] = []
        assert self.rows is not None
        for row in self.rows:
            out.append(row)
            if len(out) == BATCH:
                break
        return out

    def _check(self, uow: UnitOfWork, batch: list[parse.Row]) -> None:
        c = self.counts
        c["rows"] += len(batch)
        errors = []
        good = [r for r in batch if r.parcel is not None]
        for r in batch:
            if r.errors:
                c["error_rows"] += 1
                for e in r.errors:
                    if c["errors"] < MAX_ERRORS:
                        errors.append(_error_row(self.import_id, e))
                    c["errors"] += 1
        current = self._current(uow, [r.parcel.catastro for r in good])
        staged = []
        for r in good:
            p = current.get(r.parcel.catastro)
            changed = _compare(r.parcel, p) if p is not None else ()
            change = "new" if p is None else "changed" if changed else "same"
            c[change] += 1
            staged.append({"import_id": self.import_id, "row_number": r.number,
                           "catastro": r.parcel.catastro, "change": change,
                           "parcel_id": p.id if p is not None else None,
                           "changed": ",".join(changed), "data": r.parcel.to_json()})
        bulk.insert_rows(uow, RollImportError, errors)
        bulk.insert_rows(uow, RollImportRow, staged)
        self._save_counts(uow)

    @staticmethod
    def _current(uow: UnitOfWork, catastros: list[str]) -> dict[str, Any]:
        """{catastro: the parcel's id and facts} of those on the roll among `catastros`."""
        current = {}
        for among in _among(uow, Parcel.catastro, catastros):
            for p in uow.connection().execute(select(Parcel.id, Parcel.catastro,
                                                *[getattr(Parcel, k)
                                                  for k in parse.ParcelRow.FACTS])
                                         .where(among)):
                current[p.catastro] = p
        return current

    def _save_counts(self, uow: UnitOfWork) -> None:
        c = self.counts
        uow.session.execute(update(RollImport).where(RollImport.id == self.import_id).values(
            rows=c["rows"], error_rows=c["error_rows"], errors=c["errors"],
            new_count=c["new"], changed_count=c["changed"], same_count=c["same"])
            .execution_options(synchronize_session=False))

    def _end_check(self, uow: UnitOfWork) -> None:
        """The whole file is read: the repeated catastro numbers (every listing after the
        first is an error) and the parcels the file does not list, by SQL (on the staged
        rows' fresh statistics: the table has just grown by the whole file)."""
        bulk.analyze(uow, RollImportRow)
        first = (select(RollImportRow.catastro, func.min(RollImportRow.row_number).label("first"))
                 .where(RollImportRow.import_id == self.import_id)
                 .group_by(RollImportRow.catastro)
                 .having(func.count() > 1).subquery())
        dups = uow.session.execute(
            select(RollImportRow.row_number, RollImportRow.catastro, RollImportRow.change,
                   first.c.first)
            .join(first, first.c.catastro == RollImportRow.catastro)
            .where(RollImportRow.import_id == self.import_id,
                   RollImportRow.row_number > first.c.first)
            .order_by(RollImportRow.row_number).execution_options(yield_per=BATCH))
        c = self.counts
        errors, column = [], parse.BY_KEY["catastro"].es
        for d in dups:  # (row_number, catastro, change, first)
            c["error_rows"] += 1
            if c["errors"] < MAX_ERRORS:
                errors.append({"import_id": self.import_id, "row_number": d.row_number,
                               "column_name": column, "value": d.catastro,
                               "code": "duplicate", "params": json.dumps({"first": d.first})})
            c["errors"] += 1
            c[d.change] -= 1
            if len(errors) >= BATCH:
                bulk.insert_rows(uow, RollImportError, errors)
                errors = []
        bulk.insert_rows(uow, RollImportError, errors)
        imp = uow.session.get(RollImport, self.import_id)
        removed = uow.session.scalar(select(func.count()).select_from(Parcel)
                                     .where(~_listed(self.import_id)))
        self._save_counts(uow)
        uow.session.refresh(imp)
        imp.removed_count = removed
        imp.status = "invalid" if c["errors"] else "valid"
        imp.checked_at = clock.now()
        uow.session.flush()
        audit.record(uow, self.staff, "roll_import.checked", imp, after={
            "rows": imp.rows, "errors": imp.errors, "new": imp.new_count,
            "changed": imp.changed_count, "same": imp.same_count, "removed": removed})
        self.phase = "done" if (self.dry_run or c["errors"]) else "write"
        if self.phase == "write":
            imp.status = "importing"
            imp.as_of = clock.today()
            self.as_of = imp.as_of
            self.after = 0

    # -- pass 2 ---------------------------------------------------------------------------
    def _write_batch(self, uow: UnitOfWork) -> int:
        # (a "same" row's data is not read: nothing to write)
        staged = uow.connection().execute(
            select(RollImportRow.id, RollImportRow.change, RollImportRow.parcel_id,
                   RollImportRow.data if self.recheck else
                   case((RollImportRow.change == "same", None),
                        else_=RollImportRow.data).label("data"))
            .where(RollImportRow.import_id == self.import_id, RollImportRow.id > self.after)
            .order_by(RollImportRow.id).limit(BATCH)).all()
        if not staged:
            self.phase = "done"
            return 0
        if self.recheck:
            new, changed = self._compared(uow, [parse.ParcelRow.from_json(s.data)
                                                for s in staged])
        else:
            new = [parse.ParcelRow.from_json(s.data) for s in staged if s.change == "new"]
            changed = [(s.parcel_id, parse.ParcelRow.from_json(s.data)) for s in staged
                       if s.change == "changed"]
        if new:
            self._write_new(uow, new)
        if changed:
            self._write_changed(uow, changed)
        self.written["new"] += len(new)
        self.written["changed"] += len(changed)
        self.after = staged[-1].id
        return len(staged)

    def _compared(self, uow: UnitOfWork, rows: list[parse.ParcelRow]
                  ) -> tuple[list[parse.ParcelRow], list[tuple[int, parse.ParcelRow]]]:
        """A batch of staged rows compared with the roll as it is (`recheck`): the new ones
        and the (parcel id, row) of the changed ones; the counts are what it finds."""
        current = self._current(uow, [r.catastro for r in rows])
        new, changed = [], []
        for r in rows:
            p = current.get(r.catastro)
            if p is None:
                new.append(r)
            elif _compare(r, p):
                changed.append((p.id, r))
        c = self.counts
        c["new"] += len(new)
        c["changed"] += len(changed)
        c["same"] += len(rows) - len(new) - len(changed)
        self._save_counts(uow)
        return new, changed

    def _write_new(self, uow: UnitOfWork, rows: list[parse.ParcelRow]) -> None:
        ids = bulk.insert_rows(uow, Parcel, [{"catastro": r.catastro, **r.facts()}
                                             for r in rows], return_ids=True)
        people = _Parties(uow, rows)
        shares, leases = [], []
        for pid, r in zip(ids, rows):
            organisation = r.owner_kind != "private"
            for o in r.owners:
                shares.append({"parcel_id": pid, "party_id": people.want(o.name, o.email,
                                                                          organisation),
                               "share": Decimal(o.share),
                               "kind": "sole" if len(r.owners) == 1 else "co_owner",
                               "starts_on": self.as_of, "ends_on": None})
            if r.lease is not None:
                ls = r.lease
                leases.append({"parcel_id": pid,
                               "lessee_party_id": people.want(ls.lessee_name, ls.lessee_email,
                                                              False),
                               "lessee_pays": ls.lessee_pays, "contract_number": ls.contract,
                               "starts_on": date.fromisoformat(ls.starts_on),
                               "ends_on": date.fromisoformat(ls.ends_on) if ls.ends_on
                               else None})
        people.write()
        mine = {"parcel_id": ids, "party_id": people.ids, "lessee_party_id": people.ids}
        bulk.insert_rows(uow, OwnershipShare, people.resolve(shares, "party_id"), known=mine)
        bulk.insert_rows(uow, Lease, people.resolve(leases, "lessee_party_id"), known=mine)

    def _write_changed(self, uow: UnitOfWork, rows: list[tuple[int, parse.ParcelRow]]
                       ) -> None:
        before = {p.id: p for among in _among(uow, Parcel.id, [pid for pid, _ in rows])
                  for p in uow.session.execute(select(
                      Parcel.id, *[getattr(Parcel, k) for k in parse.ParcelRow.FACTS])
                      .where(among))}
        uow.session.execute(update(Parcel), [{"id": pid, **r.facts()} for pid, r in rows])
        exemption = False  # R-A2's facts changed: the rolls' exempt lines counted again
        moved = []  # a municipality changed: the lenders' kept municipalities read again
        for pid, r in rows:  # each changed parcel's facts, before and after (DESIGN.md 6)
            old = before[pid]
            keys = _compare(r, old)
            exemption = exemption or bool({"owner_kind", "transferred"} & set(keys))
            if "municipality" in keys:
                moved.append(pid)
            audit.record(uow, self.staff, "parcel.updated_by_import", object_type="parcels",
                         object_id=pid,
                         before={k: str(getattr(old, k)) for k in keys},
                         after={"import_id": self.import_id,
                                **{k: str(r.facts()[k]) for k in keys}})
        if exemption:
            review.parcels_changed(uow)
        fact_versions.parcels_moved(uow.connection(), moved)

    # -- finish ---------------------------------------------------------------------------
    def finish(self, uow: UnitOfWork) -> RollImport:
        imp = uow.session.get(RollImport, self.import_id)
        if imp.status == "importing":
            imp.status = "imported"
            imp.imported_at = clock.now()
            bulk.analyze(uow, Parcel)
            uow.session.flush()
            audit.record(uow, self.staff, "roll_import.imported", imp,
                         after={"new": self.written["new"],
                                "changed": self.written["changed"]})
        return imp


class _Parties:
    """The parties of a batch's owners and lessees, written in one insert: one per email (a
    party with that email already on file is reused, as is one wanted earlier in the
    batch), one per name without an email. `want` gives a party's id, or a placeholder
    (a negative number) that `resolve` replaces once `write` has inserted the new ones."""

    def __init__(self, uow: UnitOfWork, rows: list[parse.ParcelRow]):
        self.uow = uow
        emails = sorted({e for r in rows for e in
                         [o.email for o in r.owners] + [r.lease.lessee_email if r.lease
                                                        else None] if e})
        self.by_email: dict[str, int] = {}
        for among in _among(uow, Party.email, emails):
            for pid, email in uow.connection().execute(
                    select(func.min(Party.id), Party.email).where(among)
                    .group_by(Party.email)):
                self.by_email[email] = pid
        self.new: list[dict[str, Any]] = []
        self.ids: list[int] = []

    def want(self, name: str, email: str | None, organisation: bool) -> int:
        if email and email in self.by_email:
            return self.by_email[email]
        self.new.append({"kind": "organisation" if organisation else "person", "name": name,
                         "email": email, "language": "es"})
        placeholder = -len(self.new)
        if email:
            self.by_email[email] = placeholder
        return placeholder

    def write(self) -> None:
        self.ids = bulk.insert_rows(self.uow, Party, self.new, return_ids=True)

    def resolve(self, rows: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
        for r in rows:
            if r[key] < 0:
                r[key] = self.ids[-r[key] - 1]
        return rows


def _checked(imp: RollImport) -> bool:
    """Whether the import's staged rows are a whole check of its file that found no error
    (a check's status once it ended valid, and an import's after it: pass 1 runs again
    otherwise)."""
    return (imp.status in ("valid", "importing", "imported") and imp.checked_at is not None
            and not imp.errors and not imp.error_rows and imp.file_error is None)


def _among(uow: UnitOfWork, column: Any, values: list[Any]) -> Iterator[Any]:
    """Conditions that together select `column IN values`: on PostgreSQL one array
    parameter (`= ANY(...)`: psycopg prepares a statement of 500 parameters slowly, and a
    batch is one statement); elsewhere IN lists of at most `facts.IN_BATCH`."""
    if not values:
        return
    if uow.session.get_bind().dialect.name == "postgresql":
        yield column == any_(literal(values, ARRAY(column.type)))
        return
    for chunk in facts.in_batches(values):
        yield column.in_(chunk)


def _error_row(import_id: int, e: parse.RowError) -> dict[str, Any]:
    return {"import_id": import_id, "row_number": e.row, "column_name": e.column[:60],
            "value": e.value[:200], "code": e.code,
            "params": json.dumps(e.params, default=str) if e.params else None}


def template_csv(lang: str) -> str:
    """The template's text (header and one example row), UTF-8 with a BOM for Excel."""
    import csv
    import io
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerows(parse.template_rows(lang))
    return "\ufeff" + out.getvalue()


runner.register("roll.import",
                lambda staff, p: ImportWork(staff, int(p["import_id"]), bool(p.get("dry_run"))),
                lambda uow, staff, p: importable(uow, staff, int(p["import_id"]),
                                                 bool(p.get("dry_run"))))
