"""The CRIM's file of plan payments (R-B16): a CSV of what the CRIM received on approved
payment plans, and the auction notice costs it charged after a default, brought in by staff
(the upload page) or by the CRIM's system (the API). The portal keeps no CRIM ledger: each
row becomes a `plan_entries` row of the plan it names (`plans.add_entry`), and the plan's
state is the core's over those rows (docs/EXEMPTION.md, "The CRIM's file").

- **Row by row.** A good row is recorded even when others are refused: the file is a list
  of receipts, each independent of the others, and a clerk fixes and sends again only what
  the report lists. Sending the same file again (whole, or corrected) records nothing
  twice: a receipt already recorded with the same day and amount is counted "already
  recorded"; the same receipt with another day or amount is refused (`receipt_differs`).
- **Streamed.** The file is read from disk one record at a time, committed every `BATCH`
  rows; the report keeps counts and at most `LISTED` refused rows, so memory does not grow
  with the file.

The columns (Spanish or English header, case, accents, spaces and dashes forgiven, in any
order): `COLUMNS`. Dates are ISO (YYYY-MM-DD); amounts as Puerto Rico writes them
(1,218.98; `$` allowed). UTF-8 (with or without BOM) or Windows-1252, comma or semicolon:
`portal.roll.roll_csv`'s rule for the roll's file, streamed the same way.
"""

from __future__ import annotations

import codecs
import csv
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from portal import money_input
from portal.accounts import access
from portal.accounts.errors import Conflict, InvalidInput
from portal.db import UnitOfWork
from portal.exemptions import plans
from portal.models import ExemptionCertification

#: (field, Spanish header, English header)
COLUMNS = (
    ("filing_number", "numero_radicacion", "filing_number"),
    ("kind", "tipo", "kind"),
    ("entry_on", "fecha", "date"),
    ("amount", "cantidad", "amount"),
    ("reference", "recibo", "receipt"),
)
#: The kinds as the file may write them.
KINDS = {"pago": "payment", "payment": "payment", "costas": "notice_costs",
         "costas_aviso": "notice_costs", "notice_costs": "notice_costs"}
CHUNK = 1 << 20
BATCH = 500  # rows between commits
LISTED = 1000  # refused rows the report keeps (the count goes on)
_SPACES = re.compile(r"[\s\-]+")
_ACCENTS = str.maketrans("áéíóúüñ", "aeiouun")


def normal(text: str) -> str:
    """A header or a kind as compared: lower case, no accents, spaces and dashes as `_`."""
    return _SPACES.sub("_", (text or "").strip().lower().translate(_ACCENTS))


#: Other names a clerk writes for a column (as `normal` makes them).
ALIASES = {"numero_de_radicacion": "filing_number", "radicacion": "filing_number",
           "numero_de_recibo": "reference", "fecha_de_pago": "entry_on"}
_NAMES = {**{normal(es): key for key, es, _en in COLUMNS},
          **{normal(en): key for key, _es, en in COLUMNS}, **ALIASES}


class FileProblem(Exception):
    """The file as a whole is not the CRIM's file of plan payments: `code`, `params`."""

    def __init__(self, code: str, **params: Any):
        super().__init__(code)
        self.code, self.params = code, params


@dataclass
class Problem:
    line: int  # the file's line (the header is 1, as a spreadsheet counts)
    column: str  # as the header writes it ("" for the whole row)
    value: str
    code: str


@dataclass
class Report:
    rows: int = 0
    recorded: int = 0
    already: int = 0
    refused: int = 0
    problems: list[Problem] = field(default_factory=list)

    def refuse(self, problem: Problem) -> None:
        self.refused += 1
        if len(self.problems) < LISTED:
            self.problems.append(problem)

    def as_dict(self) -> dict[str, Any]:
        return {"rows": self.rows, "recorded": self.recorded,
                "already_recorded": self.already, "refused": self.refused,
                "problems": [{"line": p.line, "column": p.column, "value": p.value,
                              "code": p.code} for p in self.problems]}


def encoding(path: str | Path) -> tuple[str, str]:
    """(encoding, delimiter) of the file at `path`, read once in chunks: UTF-8 strictly
    (a BOM allowed), else Windows-1252; FileProblem "empty" or "not_text"."""
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    utf8, size, head = True, 0, b""
    with open(path, "rb") as fh:
        while chunk := fh.read(CHUNK):
            head = head or chunk[:65536]
            size += len(chunk)
            if b"\x00" in chunk:
                raise FileProblem("not_text")
            if utf8:
                try:
                    decoder.decode(chunk)
                except UnicodeDecodeError:
                    utf8 = False
    if utf8:
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            utf8 = False
    enc = "utf-8-sig" if utf8 else "cp1252"
    if not utf8:
        try:
            with open(path, encoding="cp1252", newline="") as fh:
                while fh.read(CHUNK):
                    pass
        except UnicodeDecodeError:
            raise FileProblem("not_text") from None
    lines = head.decode(enc, errors="replace").splitlines() if head.strip() else []
    first = lines[0] if lines else ""
    if size == 0 or not first.strip():
        raise FileProblem("empty")
    return enc, ";" if first.count(";") > first.count(",") else ","


def header(cells: list[str]) -> list[str]:
    """The field of each column; FileProblem for a column missing, unknown or repeated."""
    keys: list[str] = []
    unknown = [c.strip() for c in cells if c.strip() and normal(c) not in _NAMES]
    if unknown:
        raise FileProblem("unknown_columns", columns=", ".join(unknown))
    for cell in cells:
        key = _NAMES.get(normal(cell), "")
        if key and key in keys:
            raise FileProblem("repeated_columns", columns=cell.strip())
        keys.append(key)
    missing = [es for key, es, _en in COLUMNS if key not in keys]
    if missing:
        raise FileProblem("missing_columns", columns=", ".join(missing))
    return keys


@dataclass(frozen=True)
class Row:
    line: int
    cells: dict[str, str]  # field -> cell
    names: dict[str, str]  # field -> the header as written
    width_ok: bool


def read(path: str | Path) -> Iterator[Row]:
    """Each data row of the file, one record at a time (blank lines skipped)."""
    enc, delimiter = encoding(path)
    with open(path, encoding=enc, newline="") as fh:
        reader = csv.reader(fh, delimiter=delimiter)
        try:
            first = next(reader)
        except StopIteration:
            raise FileProblem("empty") from None
        keys = header(first)
        names = {k: h.strip() for k, h in zip(keys, first, strict=True) if k}
        for cells in reader:
            if not any(c.strip() for c in cells):
                continue
            yield Row(reader.line_num, {k: c.strip() for k, c in zip(keys, cells, strict=False)
                                        if k}, names, len(cells) == len(keys))


def _cut(value: str) -> str:
    return value if len(value) <= 120 else value[:119] + "…"


def _parse(row: Row) -> tuple[dict[str, Any], Problem | None]:
    """The row's values, or the first problem found in it (column order)."""
    def problem(key: str, code: str) -> Problem:
        return Problem(row.line, row.names.get(key, ""), _cut(row.cells.get(key, "")), code)

    if not row.width_ok:
        return {}, Problem(row.line, "", "", "wrong_column_count")
    c = row.cells
    for key, _es, _en in COLUMNS:
        if not c.get(key):
            return {}, problem(key, "required")
    kind = KINDS.get(normal(c["kind"]))
    if kind is None:
        return {}, problem("kind", "bad_kind")
    try:
        day = date.fromisoformat(c["entry_on"])
        if len(c["entry_on"]) != 10:
            raise ValueError
    except ValueError:
        return {}, problem("entry_on", "bad_date")
    try:
        amount = money_input.parse(c["amount"], "es_PR")
    except money_input.MoneyInputError:
        return {}, problem("amount", "bad_amount")
    if amount <= 0:
        return {}, problem("amount", "bad_amount")
    if len(c["reference"]) > 120:
        return {}, problem("reference", "too_long")
    return {"number": c["filing_number"].upper(), "kind": kind, "entry_on": day,
            "amount": amount, "reference": c["reference"]}, None


#: The service's refusals, as the report names them.
_REFUSALS = {"future": ("entry_on", "future"), "before_filing": ("entry_on", "before_filing"),
             "invalid": ("amount", "bad_amount")}


def _add(uow: UnitOfWork, actor: Any, cert: ExemptionCertification, note: Any,
         values: dict[str, Any]) -> bool:
    """The row's entry added (True) or found already recorded (False), in a savepoint. A
    receipt another import recorded at the same moment (the unique index refuses it) is read
    again: already recorded, or `receipt_differs`."""
    for attempt in (1, 2):
        try:
            with uow.session.begin_nested():
                return plans.add_entry(uow, actor, cert, note=note, **values)[1]
        except IntegrityError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def import_file(uow: UnitOfWork, actor: Any, path: str | Path,
                note: dict[str, Any] | None = None) -> Report:
    """Record each good row of the CRIM's file at `path` as its plan's entry, the actor
    (staff who decide certifications, or a staff token acting as one) named on each.
    FileProblem for a file that is not the CRIM's file (nothing recorded). `note` joins each
    entry's audit record (where the file came from)."""
    access.require_staff_role(actor, *plans.RECORD)
    report = Report()
    certs: dict[str, int | None] = {}
    for row in read(path):
        report.rows += 1
        values, problem = _parse(row)
        if problem is not None:
            report.refuse(problem)
            continue
        number = values.pop("number")
        if number not in certs:
            if len(certs) > BATCH:
                certs.clear()
            certs[number] = uow.session.scalar(select(ExemptionCertification.id).where(
                ExemptionCertification.filing_number == number))
        cert = uow.session.get(ExemptionCertification, certs[number]) \
            if certs[number] is not None else None
        if cert is None or cert.status == "draft":
            report.refuse(Problem(row.line, row.names["filing_number"], _cut(number),
                                  "unknown_filing"))
            continue
        try:
            new = _add(uow, actor, cert, note, values)
        except Conflict as exc:
            code = "receipt_differs" if exc.code == "receipt_differs" else "no_plan"
            key = "reference" if code == "receipt_differs" else "filing_number"
            report.refuse(Problem(row.line, row.names[key], _cut(row.cells[key]), code))
            continue
        except InvalidInput as exc:
            key, code = _REFUSALS.get(exc.code, ("amount", "bad_amount"))
            report.refuse(Problem(row.line, row.names[key], _cut(row.cells[key]), code))
            continue
        if new:
            report.recorded += 1
        else:
            report.already += 1
        if report.rows % BATCH == 0:
            uow.commit()
    return report


def template_rows(lang: str) -> list[list[str]]:
    """The template's header in `lang` and one example row."""
    es = lang == "es"
    return [[c[1] if es else c[2] for c in COLUMNS],
            ["EXR-2026-000123", "pago" if es else "payment", "2026-11-30", "1,218.98",
             "CRIM-000456"]]

