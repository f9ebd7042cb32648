"""A lender keeps its own portfolio: loans added and removed one at a time (the
page's form), by an add/delete CSV file processed as a background job with a per-row
report, or by the API. Each row names the loan number, the catastro number, the owner's
name and whether the lender pays from an escrow account; each parcel is matched to the
roll, with a reason code when it does not match.

- `submit` records the file (`loan_change_files`) and its rows as sent
  (`loan_change_rows`); a CSV's rows are processed by the job `lender.loan_changes`
  (`Processing`, `STEP` rows per transaction, as the certification batches), a form's or
  the API's in the same request (`process`).
- A step reads what its rows need in three statements (the parcels by catastro, their
  owners of today, the lender's loans by number), then applies each row in order in Python,
  so a row sees the rows before it (a loan added then deleted in one file).
- **Add**: the catastro must be on the roll (`not_on_roll`) and the owner's name one of the
  parcel's owners of today (`owner_not_on_record`: every word given, accents and case
  forgiven, is a word of an owner's name; at least two words); the same loan on the same
  parcel already in force is `unchanged` (its name and escrow updated); the loan number in
  force on another parcel is `loan_number_taken`; a removed loan of the same number and
  parcel is put back in force.
- **Delete**: the lender's loan in force with that number, on that catastro, ends yesterday
  (`ends_on`; one added today gets yesterday as its one day: nothing is deleted); none is
  `not_your_loan` (whatever the parcel is: nothing is said about it); one already ended is
  `unchanged`.
- Every change is audit-logged (`lender.loan_added`, `lender.loan_removed`).

See docs/LENDERS.md ("The portfolio, kept by the bank").
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, NamedTuple

from sqlalchemy import Select, bindparam, func, or_, select, update

from portal import clock, csv_text, yes_no_input
from portal.accounts import audit, bulk
from portal.accounts.errors import Conflict, InvalidInput, NotFound
from portal.core.explain import N_
from portal.db import UnitOfWork
from portal.i18n import translate, use_language
from portal.jobs import runner
from portal.lenders.batches import Sender, _sender, body_hash_of
from portal.models import (
    Job,
    Loan,
    LoanChangeFile,
    LoanChangeRow,
    OwnershipShare,
    Parcel,
    Party,
    User,
)
from portal.roll.roll_csv import normal, normalise_catastro

COLUMNS: tuple[str, ...] = ("action", "loan_number", "catastro", "owner_name", "escrow")
HEADERS: dict[str, dict[str, str]] = {
    "es": {"action": "accion", "loan_number": "numero_prestamo", "catastro": "catastro",
           "owner_name": "nombre_dueno", "escrow": "cuenta_reserva"},
    "en": {c: c for c in COLUMNS},
}
REPORT_COLUMNS: dict[str, tuple[str, ...]] = {
    "es": ("fila", "resultado", "columna_error", "motivo"),
    "en": ("row", "outcome", "error_column", "reason"),
}
REQUIRED = ("action", "loan_number", "catastro")
#: The words of each action (compared as `normal` does: case and accents forgiven).
ACTIONS = {"add": "add", "alta": "add", "anadir": "add", "agregar": "add",
           "delete": "delete", "remove": "delete", "baja": "delete", "eliminar": "delete"}
GUIDE: dict[str, str] = {
    "action": N_("alta (add the loan) or baja (remove it); add and delete also work."),
    "loan_number": N_("The loan number, 1 to 40 characters, no slash."),
    "catastro": N_("The parcel's catastro number (e.g. 040-012-345-67)."),
    "owner_name": N_("To add: the owner's name as on the roll (at least first name and "
                     "surname)."),
    "escrow": N_("To add, optional: yes if you pay the property charges from an escrow "
                 "account; no otherwise."),
}
REASONS: dict[str, str] = {
    "required": N_("This column is required."),
    "bad_action": N_("Write alta (add) or baja (remove)."),
    "bad_loan_number": N_("A loan number has 1 to 40 characters and no slash."),
    "bad_catastro": N_("Write the catastro number as 040-012-345-67."),
    "not_on_roll": N_("No parcel on the roll has this catastro number."),
    "owner_not_on_record": N_("This name is not an owner on record of this parcel (write it "
                              "as on the roll, at least first name and surname)."),
    "not_yes_no": yes_no_input.MESSAGES["not_yes_no"],
    "loan_number_taken": N_("This loan number is already one of your loans, on another "
                            "parcel: remove it first."),
    "not_your_loan": N_("This is not one of your loans (check the loan number and the "
                        "catastro number)."),
}
#: What a row became, in words.
OUTCOME_LABELS = {"added": N_("Added"), "removed": N_("Removed"),
                  "unchanged": N_("No change"), "rejected": N_("Rejected")}
FILE_REASONS: dict[str, str] = {
    "empty": N_("The file is empty."),
    "not_text": N_("The file is not a CSV (text) file."),
    "missing_columns": N_("Columns missing: %(columns)s."),
    "unknown_columns": N_("Unknown columns: %(columns)s."),
    "repeated_columns": N_("Repeated columns: %(columns)s."),
    "too_many_rows": N_("At most %(most)s rows per file."),
    "no_rows": N_("The file has no rows."),
}
OUTCOMES = ("done", "rejected", "unchanged")
MAX_CSV_ROWS = 20000
MAX_API_ROWS = 1000
MAX_VALUE = 200
STEP = 500
READ = 500
KIND = "lender.loan_changes"
_LOAN_NUMBER = re.compile(r"^[^/\x00-\x1f\x7f]{1,40}$")
_CATASTRO = re.compile(r"^[0-9A-Z]{1,6}(-[0-9A-Z]{1,6}){1,5}$")
_NAMES = {normal(h): key for lang in HEADERS.values() for key, h in lang.items()}
_IGNORED = {normal(h) for cols in REPORT_COLUMNS.values() for h in cols}


def words(name: str) -> list[str]:
    """A person's name as compared: lower case, no accents, no punctuation, its words."""
    return [w for w in re.split(r"[^0-9a-z]+", normal(name).replace("_", " ")) if w]


def name_matches(given: str, owners: list[str]) -> bool:
    """Every word of `given` (two at least) is a word of one of the owners' names."""
    g = words(given)
    if len(g) < 2:
        return bool(g) and any(g == words(o) for o in owners)
    return any(set(g) <= set(words(o)) for o in owners)


# --- submitting --------------------------------------------------------------------------

def _clean(row: dict[str, Any]) -> dict[str, str]:
    return {k: ("" if row.get(k) is None else str(row.get(k)).strip()[:MAX_VALUE])
            for k in COLUMNS}


class Filed(NamedTuple):
    """What `filed` gives: the file, and whether it is the idempotency key's earlier file
    (nothing filed now: the API answers 200, not 201)."""

    file: LoanChangeFile
    replayed: bool


def submit(uow: UnitOfWork, who: Any, rows: list[dict[str, Any]], **how: Any
           ) -> LoanChangeFile:
    """`filed`'s file."""
    return filed(uow, who, rows, **how).file


def filed(uow: UnitOfWork, who: Any, rows: list[dict[str, Any]], *, source: str,
          filename: str | None = None, idempotency_key: str | None = None,
          body_hash: str | None = None, row_numbers: list[int] | None = None) -> Filed:
    """Record the file and its rows as sent; a CSV's gets its job (enqueue `file.job_id`
    once committed), a form's or the API's is processed here (`process`). The same API key
    and body are the same file; the same key with another body, Conflict."""
    if source not in ("csv", "api", "form"):
        raise InvalidInput(field="source")
    s = _sender(uow, who)
    if idempotency_key is not None:
        idempotency_key = idempotency_key.strip()[:255]
        found = uow.session.scalar(select(LoanChangeFile).where(
            LoanChangeFile.lender_id == s.lender_id,
            LoanChangeFile.idempotency_key == idempotency_key))
        if found is not None:
            if body_hash is not None and found.body_hash != body_hash:
                raise Conflict("idempotency_key_reused")
            return Filed(found, True)
    if not rows:
        raise InvalidInput("no_rows", field="rows")
    most = MAX_CSV_ROWS if source == "csv" else MAX_API_ROWS
    if len(rows) > most:
        raise InvalidInput("too_many_rows", field="rows", most=most)
    f = LoanChangeFile(lender_id=s.lender_id, created_by_id=s.user_id, token_id=s.token_id,
                       source=source, filename=(filename or None) and filename[-255:],
                       idempotency_key=idempotency_key, body_hash=body_hash, status="queued",
                       total=len(rows), processed=0, done=0, rejected=0, unchanged=0)
    uow.session.add(f)
    uow.session.flush()
    numbers = row_numbers or list(range(1, len(rows) + 1))
    as_text = uow.session.get_bind().dialect.name == "postgresql"
    bulk.insert_rows(uow, LoanChangeRow, [
        {"file_id": f.id, "row_number": int(n),
         "raw_values": json.dumps(_clean(r)) if as_text else _clean(r)}
        for n, r in zip(numbers, rows)])
    audit.record(uow, s.user_id, "lender.loan_file_submitted", f,
                 after={"source": source, "rows": len(rows), "token_id": s.token_id})
    if source == "csv":
        user = uow.session.get(User, s.user_id)
        f.job_id = runner.submit(uow, user, KIND, {"file_id": f.id}).id
    else:
        process(uow, f.id)
    return Filed(f, False)


def parse_csv(data: bytes) -> tuple[list[dict[str, str]], list[int]]:
    """The rows of an add/delete CSV and their numbers; InvalidInput (`FILE_REASONS`)."""
    try:
        records = csv_text.records(data)
        _n, head = next(records)
    except ValueError as e:
        raise InvalidInput(str(e), field="file") from None
    except StopIteration:
        raise InvalidInput("empty", field="file") from None
    cols: list[str | None] = []
    unknown, repeated, seen = [], [], set()
    for cell in head:
        key = _NAMES.get(normal(cell))
        if key is None:
            if cell.strip() and normal(cell) not in _IGNORED:
                unknown.append(cell.strip())
            cols.append(None)
            continue
        if key in seen:
            repeated.append(cell.strip())
        seen.add(key)
        cols.append(key)
    if unknown:
        raise InvalidInput("unknown_columns", field="file", columns=", ".join(unknown[:10]))
    if repeated:
        raise InvalidInput("repeated_columns", field="file", columns=", ".join(repeated))
    missing = [HEADERS["es"][k] for k in REQUIRED if k not in seen]
    if missing:
        raise InvalidInput("missing_columns", field="file", columns=", ".join(missing))
    rows, numbers = [], []
    try:
        for number, cells in records:
            rows.append({k: v for k, v in zip(cols, cells) if k is not None})
            numbers.append(number)
            if len(rows) > MAX_CSV_ROWS:
                raise InvalidInput("too_many_rows", field="file", most=MAX_CSV_ROWS)
    except csv.Error:
        raise InvalidInput("not_text", field="file") from None
    if not rows:
        raise InvalidInput("no_rows", field="file")
    return rows, numbers


def submit_csv(uow: UnitOfWork, user: Any, data: bytes, filename: str) -> LoanChangeFile:
    _sender(uow, user)
    rows, numbers = parse_csv(data)
    return submit(uow, user, rows, source="csv", filename=filename, row_numbers=numbers)


def change_one(uow: UnitOfWork, user: Any, values: dict[str, Any]) -> LoanChangeRow:
    """One loan added or removed from the page's form: a file of one row, processed now."""
    f = submit(uow, user, [values], source="form")
    return uow.session.scalars(select(LoanChangeRow).where(
        LoanChangeRow.file_id == f.id)).one()


# --- processing --------------------------------------------------------------------------

@dataclass
class _Loan:
    id: int
    parcel_id: int
    starts_on: date
    ends_on: date | None

    def active(self, today: date) -> bool:
        return self.starts_on <= today and (self.ends_on is None or self.ends_on >= today)


class Refused(Exception):
    def __init__(self, column: str | None, reason: str):
        super().__init__(reason)
        self.column, self.reason = column, reason


class Step:
    """What a step's rows need, read at once, and each row applied in order."""

    def __init__(self, uow: UnitOfWork, sender: Sender, values: list[dict[str, str]],
                 today: date):
        self.uow, self.s, self.today = uow, sender, today
        s = uow.session
        cats = {normalise_catastro(v.get("catastro", "")) for v in values} - {""}
        self.parcels: dict[str, int] = dict(s.execute(
            select(Parcel.catastro, Parcel.id).where(Parcel.catastro.in_(sorted(cats)))
        ).all()) if cats else {}
        ids = sorted(set(self.parcels.values()))
        self.owners: dict[int, list[str]] = {}
        if ids:
            for pid, name in s.execute(
                    select(OwnershipShare.parcel_id, Party.name)
                    .join(Party, Party.id == OwnershipShare.party_id)
                    .where(OwnershipShare.parcel_id.in_(ids),
                           OwnershipShare.starts_on <= today,
                           or_(OwnershipShare.ends_on.is_(None),
                               OwnershipShare.ends_on >= today))):
                self.owners.setdefault(pid, []).append(name)
        numbers = sorted({v.get("loan_number", "") for v in values} - {""})
        self.loans: dict[str, _Loan] = {}
        if numbers:
            for num, lid, pid, st, en in s.execute(
                    select(Loan.loan_number, Loan.id, Loan.parcel_id, Loan.starts_on,
                           Loan.ends_on)
                    .where(Loan.lender_id == sender.lender_id,
                           Loan.loan_number.in_(numbers))):
                self.loans[num] = _Loan(lid, pid, st, en)

    def apply(self, v: dict[str, str]) -> tuple[str, str | None, str | None, int | None,
                                                 int | None, str]:
        """(outcome, column, reason, parcel id, loan id, what: added/removed/unchanged/
        rejected)."""
        try:
            return self._apply(v)
        except Refused as r:
            return "rejected", r.column, r.reason, None, None, "rejected"

    def _apply(self, v: dict[str, str]) -> Any:
        for c in REQUIRED:
            if not v.get(c):
                raise Refused(c, "required")
        action = ACTIONS.get(normal(v["action"]))
        if action is None:
            raise Refused("action", "bad_action")
        number = v["loan_number"]
        if not _LOAN_NUMBER.match(number):
            raise Refused("loan_number", "bad_loan_number")
        catastro = normalise_catastro(v["catastro"])
        if not _CATASTRO.match(catastro):
            raise Refused("catastro", "bad_catastro")
        if action == "delete":
            return self._delete(number, catastro)
        pid = self.parcels.get(catastro)
        if pid is None:
            raise Refused("catastro", "not_on_roll")
        if not v.get("owner_name"):
            raise Refused("owner_name", "required")
        if not name_matches(v["owner_name"], self.owners.get(pid, [])):
            raise Refused("owner_name", "owner_not_on_record")
        try:
            escrow = yes_no_input.parse(v.get("escrow"), default=None) \
                if v.get("escrow") else None
        except yes_no_input.YesNoInputError:
            raise Refused("escrow", "not_yes_no") from None
        return self._add(number, pid, v["owner_name"][:200], escrow)

    def _add(self, number: str, pid: int, owner: str, escrow: bool | None) -> Any:
        s, today = self.uow.session, self.today
        known = self.loans.get(number)
        values: dict[str, Any] = {"owner_name": owner}
        if escrow is not None:  # left empty: as it was
            values["escrow"] = escrow
        if known is not None and known.parcel_id != pid and (
                known.ends_on is None or known.ends_on >= today):
            raise Refused("loan_number", "loan_number_taken")
        if known is not None and known.active(today):
            s.execute(update(Loan).where(Loan.id == known.id).values(**values))
            return "unchanged", None, None, pid, known.id, "unchanged"
        if known is not None:  # ended (or another parcel's, ended): in force again from today
            s.execute(update(Loan).where(Loan.id == known.id).values(
                parcel_id=pid, starts_on=min(known.starts_on, today), ends_on=None, **values))
            known.parcel_id, known.ends_on = pid, None
            known.starts_on = min(known.starts_on, today)
            lid = known.id
        else:
            loan = Loan(lender_id=self.s.lender_id, parcel_id=pid, loan_number=number,
                        starts_on=today, owner_name=owner, escrow=escrow)
            s.add(loan)
            s.flush()
            lid = loan.id
            self.loans[number] = _Loan(lid, pid, today, None)
        audit.record(self.uow, self.s.user_id, "lender.loan_added",
                     object_type="loans", object_id=lid,
                     after={"loan_number": number, "parcel_id": pid, "escrow": escrow,
                            "token_id": self.s.token_id})
        return "done", None, None, pid, lid, "added"

    def _delete(self, number: str, catastro: str) -> Any:
        s, today = self.uow.session, self.today
        known = self.loans.get(number)
        pid = self.parcels.get(catastro)
        if known is None or pid is None or known.parcel_id != pid:
            raise Refused("loan_number", "not_your_loan")
        if not known.active(today):
            return "unchanged", None, None, pid, known.id, "unchanged"
        # Out of force from today: it ended yesterday. A loan added today (or later) has no
        # day in force to end after: its period becomes yesterday alone (the check
        # `ends_on >= starts_on`; nothing is deleted, its reports and audit records stay).
        known.ends_on = today - timedelta(days=1)
        known.starts_on = min(known.starts_on, known.ends_on)
        s.execute(update(Loan).where(Loan.id == known.id).values(
            starts_on=known.starts_on, ends_on=known.ends_on))
        audit.record(self.uow, self.s.user_id, "lender.loan_removed",
                     object_type="loans", object_id=known.id,
                     after={"loan_number": number, "ends_on": known.ends_on.isoformat(),
                            "token_id": self.s.token_id})
        return "done", None, None, pid, known.id, "removed"


_ROW_UPDATE = (update(LoanChangeRow.__table__)
               .where(LoanChangeRow.__table__.c.id == bindparam("row_id"))
               .values({c: bindparam(f"v_{c}") for c in (
                   "outcome", "error_column", "reason", "parcel_id", "loan_id")}))


class Processing:
    """The job's work (`jobs.runner`, kind "lender.loan_changes"): the file's rows not yet
    processed, `STEP` at a time by row number, each step one transaction."""

    def __init__(self, file_id: int):
        self.file_id = int(file_id)

    def begin(self, uow: UnitOfWork) -> int:
        f = uow.session.get(LoanChangeFile, self.file_id)
        if f is None:
            raise NotFound()
        f.status = "running"
        return f.total

    def step(self, uow: UnitOfWork) -> int:
        s = uow.session
        rows = list(s.execute(
            select(LoanChangeRow.id, LoanChangeRow.raw_values).where(
                LoanChangeRow.file_id == self.file_id, LoanChangeRow.outcome.is_(None))
            .order_by(LoanChangeRow.row_number).limit(STEP)))
        if not rows:
            return 0
        f = s.get(LoanChangeFile, self.file_id)
        sender = Sender(f.lender_id, f.created_by_id, f.token_id)
        values = [_clean(dict(v or {})) for _id, v in rows]
        step = Step(uow, sender, values, clock.today())
        counts = {"done": 0, "rejected": 0, "unchanged": 0}
        written = []
        for (rid, _v), v in zip(rows, values):
            outcome, column, reason, pid, lid, _what = step.apply(v)
            counts[outcome] += 1
            written.append({"row_id": rid, "v_outcome": outcome, "v_error_column": column,
                            "v_reason": reason, "v_parcel_id": pid, "v_loan_id": lid})
        s.execute(_ROW_UPDATE, written)
        s.execute(update(LoanChangeFile).where(LoanChangeFile.id == self.file_id).values(
            processed=LoanChangeFile.processed + len(rows),
            done=LoanChangeFile.done + counts["done"],
            rejected=LoanChangeFile.rejected + counts["rejected"],
            unchanged=LoanChangeFile.unchanged + counts["unchanged"], status="running")
            .execution_options(synchronize_session=False))
        return len(rows)

    def finish(self, uow: UnitOfWork) -> Processing:
        f = uow.session.get(LoanChangeFile, self.file_id, populate_existing=True)
        f.status = "done"
        f.finished_at = clock.now()
        audit.record(uow, f.created_by_id, "lender.loan_file_processed", f,
                     after={"done": f.done, "rejected": f.rejected, "unchanged": f.unchanged,
                            "token_id": f.token_id})
        return self

    def job_result(self) -> dict[str, Any]:
        return {"file_id": self.file_id}


def process(uow: UnitOfWork, file_id: int) -> LoanChangeFile:
    """Process a whole file in this unit of work (a form's row, the API's, tests, bench)."""
    w = Processing(file_id)
    w.begin(uow)
    while w.step(uow):
        pass
    w.finish(uow)
    return uow.session.get(LoanChangeFile, int(file_id), populate_existing=True)


def work(_user: Any, params: dict[str, Any]) -> Processing:
    return Processing(int(params["file_id"]))


def runnable(uow: UnitOfWork, user: Any, params: dict[str, Any]) -> None:
    f = uow.session.get(LoanChangeFile, int(params["file_id"]))
    if f is None or f.lender_id != _sender(uow, user).lender_id:
        raise NotFound()


runner.register(KIND, work, runnable, lender=True)


# --- reading -------------------------------------------------------------------------------

def get(uow: UnitOfWork, who: Any, file_id: Any) -> LoanChangeFile:
    """One of the lender's files; NotFound for another lender's (as for none)."""
    s = _sender(uow, who)
    try:
        fid = int(file_id)
    except (TypeError, ValueError):
        raise NotFound() from None
    f = uow.session.get(LoanChangeFile, fid)
    if f is None or f.lender_id != s.lender_id:
        raise NotFound()
    if f.status in ("queued", "running") and f.job_id is not None:
        if uow.session.scalar(select(Job.status).where(Job.id == f.job_id)) == "failed":
            f.status = "failed"
    return f


def files(uow: UnitOfWork, who: Any, *, offset: int = 0, limit: int = 10
          ) -> tuple[list[LoanChangeFile], int]:
    """The lender's files (forms' single changes included), newest first, and their count."""
    s = _sender(uow, who)
    q = select(LoanChangeFile).where(LoanChangeFile.lender_id == s.lender_id)
    count = uow.session.scalar(select(func.count()).select_from(q.subquery())) or 0
    return list(uow.session.scalars(q.order_by(LoanChangeFile.id.desc())
                                    .offset(max(0, offset)).limit(limit))), count


def _rows_query(file_id: int, outcome: str | None) -> Any:
    q = select(LoanChangeRow).where(LoanChangeRow.file_id == file_id)
    if outcome:
        if outcome not in OUTCOMES:
            raise InvalidInput(field="outcome")
        q = q.where(LoanChangeRow.outcome == outcome)
    return q


def rows_page(uow: UnitOfWork, who: Any, file_id: int, *, outcome: str | None = None,
              offset: int = 0, limit: int = 50) -> tuple[list[LoanChangeRow], int]:
    f = get(uow, who, file_id)
    q = _rows_query(f.id, outcome)
    count = uow.session.scalar(select(func.count()).select_from(q.subquery())) or 0
    return list(uow.session.scalars(q.order_by(LoanChangeRow.row_number)
                                    .offset(max(0, offset)).limit(limit))), count


def what(row: LoanChangeRow) -> str:
    """added, removed, unchanged or rejected ("" while not processed)."""
    if row.outcome is None:
        return ""
    if row.outcome == "done":
        action = ACTIONS.get(normal((row.raw_values or {}).get("action", "")))
        return "removed" if action == "delete" else "added"
    return row.outcome


def reason_text(row: LoanChangeRow) -> str:
    return translate(REASONS.get(row.reason, REASONS["required"])) if row.reason else ""


def column_header(key: str | None, lang: str) -> str:
    return HEADERS.get(lang, HEADERS["es"]).get(key, key) if key else ""


def template_csv(lang: str) -> str:
    head = [HEADERS.get(lang, HEADERS["es"])[c] for c in COLUMNS]
    yes = "si" if lang == "es" else "yes"
    add, remove = ("alta", "baja") if lang == "es" else ("add", "delete")
    return "".join(csv_text.csv_lines(head, [
        [add, "PR-000123", "040-012-345-67", "Ana Rivera", yes],
        [remove, "PR-000045", "040-012-345-68", "", ""]]))


def report_csv(uow: UnitOfWork, who: Any, file_id: int, *, lang: str) -> Iterator[str]:
    """The file's report: each row as sent, its number, outcome, error column and reason;
    read `READ` rows at a time, every cell through `csv_text.safe_cell`."""
    f = get(uow, who, file_id)
    header = [column_header(c, lang) for c in COLUMNS] + list(
        REPORT_COLUMNS.get(lang, REPORT_COLUMNS["es"]))

    def records() -> Iterator[list[Any]]:
        with use_language(lang):
            last = -1
            while True:
                chunk = list(uow.session.scalars(
                    _rows_query(f.id, None).where(LoanChangeRow.row_number > last)
                    .order_by(LoanChangeRow.row_number).limit(READ)))
                if not chunk:
                    return
                for r in chunk:
                    w = what(r)
                    yield [(r.raw_values or {}).get(c, "") for c in COLUMNS] + [
                        r.row_number, translate(OUTCOME_LABELS[w]) if w else "",
                        column_header(r.error_column, lang), reason_text(r)]
                last = chunk[-1].row_number

    return csv_text.csv_lines(header, records())


def servicers(uow: UnitOfWork, parcel_id: int, today: date | None = None, *,
              user: Any = None) -> list[tuple[str, bool | None, date]]:
    """(lender's name, escrow or None, since) of each loan in force on the parcel, for its
    owner's page; with `user`, empty unless the user may see the parcel."""
    from portal.accounts import access
    if user is not None and access.relation(uow, user, parcel_id) is None:
        return []
    return [(n, e, st) for n, e, st in uow.session.execute(
        _SERVICERS, {"pid": int(parcel_id), "today": today or clock.today()})]


def _servicers() -> Select:
    from portal.models import Lender
    today = bindparam("today")
    return (select(Party.name, Loan.escrow, Loan.starts_on)
            .join(Lender, Lender.party_id == Party.id).join(Loan, Loan.lender_id == Lender.id)
            .where(Loan.parcel_id == bindparam("pid"), Loan.starts_on <= today,
                   or_(Loan.ends_on.is_(None), Loan.ends_on >= today))
            .order_by(Party.name, Loan.starts_on))


_SERVICERS = _servicers()  # built once, at import


def servicers_json(parcel_id: Any, today: Any) -> Any:
    """SQL (a scalar subquery, correlated to the columns given): `servicers`' rows as JSON
    (`servicers_from_json`), in its order, for a statement that reads more than the loans."""
    from portal.accounts.facts import json_rows
    from portal.models import Lender
    loans = (select(Party.name, Loan.escrow, Loan.starts_on)
             .join(Lender, Lender.party_id == Party.id).join(Loan, Loan.lender_id == Lender.id)
             .where(Loan.parcel_id == parcel_id, Loan.starts_on <= today,
                    or_(Loan.ends_on.is_(None), Loan.ends_on >= today))
             .order_by(Party.name, Loan.starts_on).subquery())
    return select(json_rows(loans.c.name, loans.c.escrow, loans.c.starts_on)).scalar_subquery()


def servicers_from_json(text: str | None) -> list[tuple[str, bool | None, date]]:
    """`servicers_json`'s value as `servicers` gives it."""
    from portal.accounts.facts import read_json_rows, stored_date
    return [(name, None if escrow is None else bool(escrow), stored_date(since))
            for name, escrow, since in read_json_rows(text)]


__all__ = ["COLUMNS", "GUIDE", "HEADERS", "KIND", "MAX_API_ROWS", "OUTCOMES", "REASONS",
           "body_hash_of", "change_one", "files", "get", "name_matches", "parse_csv",
           "process", "report_csv", "rows_page", "servicers", "submit", "filed", "Filed",
           "submit_csv", "template_csv", "what"]
