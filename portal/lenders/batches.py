"""A lender's bulk residential-exemption certifications (J7, R-B9, R-B21): a CSV upload or an
API request of up to thousands of rows, one row per loan, processed as a background job with
its progress, and a per-row report.

- `submit` records the batch (status "queued") and its rows as sent (`bulk.insert_rows`),
  and the job that processes it (`jobs.submit`, kind "lender.certifications"); the caller
  enqueues `batch.job_id` once the unit of work commits. For the API, the same idempotency
  key and body (its SHA-256) for the same lender are the same batch; the same key with another
  body is `Conflict("idempotency_key_reused")`.
- `Processing` is the job's work: rows in batches of `STEP` by row number, each batch in one
  transaction with its progress (`jobs.runner`: all or nothing per batch; re-running it
  skips the rows already processed). Each row is checked (`check_row`: a reason code and the
  column, worded in the reader's language when shown) and filed with the single filing's
  rules (`filings.file_for_lender`: the same checks and the core's figures, R-B1 to R-B12),
  the step's rows together (`exemptions.batch_filing.Step`: a few statements a step).
- Idempotent by loan + parcel + fiscal year: a row whose certification for that loan, parcel
  and year is already on file with the same answers is a "duplicate" (nothing new), so the
  same file uploaded twice files nothing the second time.
- A loan number that is not one of this lender's active loans, or whose parcel is not the
  catastro given, gets one neutral reason ("not_your_loan"): nothing is said about the parcel.
- `report_csv` (every row, or only the failed ones with the same columns plus the error, to
  fix and upload again) and `template_csv`: every cell through `csv_text.safe_cell`.

See docs/LENDERS.md ("Bulk certifications").
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any, NamedTuple

from sqlalchemy import bindparam, func, or_, select, update

from portal import clock, csv_text, date_input, money_input, webhooks, yes_no_input
from portal.accounts import audit, bulk
from portal.accounts.errors import Conflict, InvalidInput, NotFound, ServiceError
from portal.core import exemption, property_tax
from portal.core.errors import CalcError, ParameterNotFound
from portal.core.explain import N_
from portal.core.money import cents
from portal.db import UnitOfWork
from portal.exemptions import answers as answers_of
from portal.exemptions import batch_filing, cooperatives, filings
from portal.exemptions import tax_facts as exemption_facts
from portal.i18n import date_long, gettext, money, translate, use_language
from portal.jobs import runner
from portal.models import (
    ExemptionCertification,
    Job,
    Lender,
    LenderApiToken,
    LenderBatch,
    LenderBatchRow,
    Loan,
    OwnershipShare,
    Parcel,
    Party,
    PartyMember,
    PropertyTaxFact,
    User,
)
from portal.models.exemptions import EXEMPTION_HOLDING
from portal.roll.roll_csv import normal, normalise_catastro

#: The fields of a row (the CSV's columns and the API's keys), in the template's order.
COLUMNS: tuple[str, ...] = (
    "loan_number", "catastro", "fiscal_year", "delivery_date", "owners", "residential_use",
    "occupant", "family_relationship", "rent", "rent_part",
    "residential_fraction", "residential_valuation", "veteran_amount", "cooperative_share",
    "cooperative_name", "cooperative_election",
    "acquisition_date", "officer_name", "officer_attests",
)
#: The CSV's header per language (a file may use either language's names; case, accents,
#: spaces and dashes as typed are forgiven, `roll_import.normal`).
HEADERS: dict[str, dict[str, str]] = {
    "es": {"loan_number": "numero_prestamo", "catastro": "catastro",
           "fiscal_year": "ano_fiscal", "delivery_date": "fecha_entrega", "owners": "duenos",
           "residential_use": "uso_residencial", "occupant": "quien_vive",
           "family_relationship": "parentesco", "rent": "renta", "rent_part": "parte_rentada",
           "residential_fraction": "fraccion_residencial",
           "residential_valuation": "valor_residencial", "veteran_amount": "exencion_veterano",
           "cooperative_share": "participacion_cooperativa",
           "cooperative_name": "cooperativa", "cooperative_election": "eleccion_cooperativa",
           "acquisition_date": "fecha_adquisicion", "officer_name": "oficial_nombre",
           "officer_attests": "oficial_certifica"},
    "en": {c: c for c in COLUMNS},
}
#: The report's own columns (after the row's): ignored when a report is uploaded again.
REPORT_COLUMNS: dict[str, tuple[str, ...]] = {
    "es": ("fila", "resultado", "columna_error", "motivo", "exoneracion_calculada",
           "contribucion_con_exoneracion", "numero_radicacion"),
    "en": ("row", "outcome", "error_column", "reason", "computed_exemption",
           "tax_with_exemption", "filing_number"),
}
REQUIRED = ("loan_number", "catastro", "fiscal_year", "delivery_date", "owners",
            "residential_use", "rent", "officer_name", "officer_attests")
#: R-B7: who lives in the home, as a row writes it in either language (`OCCUPANTS`).
OCCUPANT_WORDS: dict[str, str] = {"owner": "owner", "dueno": "owner", "family": "family",
                                  "familia": "family"}
#: R-B7: the family's relationship to the owner, as a row writes it in either language
#: (`core.exemption.KINSHIP`'s codes; Spanish words as the template's guide lists them).
KINSHIP_WORDS_ES: dict[str, str] = {
    "conyuge": "spouse", "hijo": "child", "padre_madre": "parent", "nieto": "grandchild",
    "abuelo": "grandparent", "hermano": "sibling", "bisnieto": "great_grandchild",
    "bisabuelo": "great_grandparent", "sobrino": "nephew_niece", "tio": "uncle_aunt",
    "primo_hermano": "first_cousin", "sobrino_nieto": "grandnephew_grandniece",
    "tio_abuelo": "great_uncle_aunt", "tataranieto": "great_great_grandchild",
    "tatarabuelo": "great_great_grandparent", "hijo_de_primo": "first_cousin_once_removed",
    "primo_segundo": "second_cousin", "suegro": "parent_in_law",
    "yerno_nuera": "child_in_law", "hijastro": "stepchild", "padrastro": "stepparent",
    "cunado": "sibling_in_law", "abuelo_del_conyuge": "grandparent_in_law",
    "nieto_del_conyuge": "step_grandchild", "sobrino_del_conyuge": "nephew_niece_in_law",
    "tio_del_conyuge": "uncle_aunt_in_law", "ninguno": "none",
}
#: R-B4: the cooperative's election, as a row writes it in either language.
COOP_ELECTION_WORDS: dict[str, str] = {
    "residential": "residential", "residencial": "residential",
    "cooperative_law": "cooperative_law", "ley_cooperativas": "cooperative_law",
    "ley_de_cooperativas": "cooperative_law"}
KINSHIP_WORDS: dict[str, str] = {**{c: c for c in exemption.KINSHIP}, **KINSHIP_WORDS_ES}
#: What each column holds (the column guide, in the reader's language).
GUIDE: dict[str, str] = {
    "loan_number": N_("The loan number, as in your portfolio."),
    "catastro": N_("The parcel's catastro number (e.g. 040-012-345-67)."),
    "fiscal_year": N_("The fiscal year of the certification, e.g. %(year)s (only the year "
                      "in course is open)."),
    "delivery_date": N_("The day the owner delivered the signed certification to the lender "
                        "(YYYY-MM-DD): its filing date, from which the 30 days for a payment "
                        "plan run (R-B11, R-B13). Not after today, nor before January 1 of "
                        "the fiscal year's first year."),
    "owners": N_("The owners who claim the home, as on record, separated by | (both "
                 "spouses)."),
    "residential_use": N_("Yes if the owners or their family lived in it as their home on "
                          "January 1; no otherwise."),
    "occupant": N_("Optional: who lives in the home: owner (the owners, with or without "
                   "family; the default) or family (only the owners' family, R-B7)."),
    "family_relationship": N_("When only the family lives there: its relationship to the "
                              "owner, e.g. child, parent, sibling, first_cousin, "
                              "parent_in_law, sibling_in_law (the guide lists them all)."),
    "rent": N_("Yes if any rent is received for the home or a part of it; no otherwise "
               "(R-B7)."),
    "rent_part": N_("Optional: when rent is received, which part is rented."),
    "residential_fraction": N_("Optional: the part used as the home, from 0 to 1 (e.g. 0.75), "
                               "when not the whole property."),
    "residential_valuation": N_("Optional, instead of the fraction: the residential "
                                "valuation in dollars."),
    "veteran_amount": N_("Optional: the veteran's exemption in dollars (0 if none)."),
    "cooperative_share": N_("Optional: for a housing cooperative, the unit's share, from 0 to "
                            "1."),
    "cooperative_name": N_("With the unit's share: the housing cooperative's name. The "
                           "election is the cooperative's, recorded once for all its units "
                           "(R-B4, R-B20)."),
    "cooperative_election": N_("With the unit's share: the cooperative's election, "
                               "residential (this exemption, unit by unit) or cooperative_law "
                               "(the cooperatives law's exemption instead)."),
    "acquisition_date": N_("Optional: for a new structure bought after January 1, the deed "
                           "date (YYYY-MM-DD)."),
    "officer_name": N_("Full name of the lender's officer who attests."),
    "officer_attests": N_("Yes: the lender holds the certification the owner signed."),
}
#: Why a row was rejected (message ids; `reason_params` fill them in).
REASONS: dict[str, str] = {
    "required": N_("This column is required."),
    "not_your_loan": N_("This is not one of your loans (check the loan number and the "
                        "catastro number)."),
    "bad_fiscal_year": N_("Write the fiscal year as 2026-2027."),
    "fiscal_year_not_open": N_("Only the fiscal year %(open)s is open for certifications."),
    "owner_not_on_record": N_("%(name)s is not an owner on record of this parcel."),
    "both_spouses": N_("Both spouses must be named (R-B5)."),
    "one_dwelling": N_("An owner already holds the residential exemption on another "
                       "property this year (R-B6)."),
    "not_yes_no": yes_no_input.MESSAGES["not_yes_no"],
    "not_residential": N_("The exemption is only for the owners' main home on January 1 "
                          "(R-B1)."),
    "bad_fraction": N_("Write a number from 0 to 1, e.g. 0.75."),
    "bad_amount": N_("Write an amount in dollars, e.g. 1500.00."),
    "fraction_and_valuation": N_("Give the fraction or the residential valuation, not both."),
    "bad_share": N_("Write the unit's share, a number from 0 to 1."),
    "coop_without_share": N_("Give the cooperative's name and election only with the unit's "
                             "share."),
    "bad_coop_election": N_("Write residential or cooperative_law."),
    "coop_election_differs": cooperatives.ELECTION_DIFFERS,
    "bad_date": N_("Write the date as YYYY-MM-DD."),
    "ambiguous_date": N_("%(written)s can be read as %(day_first)s or as %(month_first)s: "
                         "write the date as YYYY-MM-DD."),
    "date_in_future": N_("The date cannot be after today."),
    "delivered_before_year": N_("The certification of the fiscal year %(year)s states the use "
                                "on January 1 of %(first)s: it cannot have been delivered "
                                "before that day (R-B15)."),
    "bad_occupant": N_("Write owner or family."),
    "bad_relationship": N_("Write one of the relationships of the column guide (for "
                           "example child or sibling_in_law)."),
    "relationship_without_family": N_("Give the relationship only when only the family "
                                      "lives there (family in the column of who lives "
                                      "there)."),
    "not_eligible_because": N_("The certification does not meet %(rules)s: %(why)s"),
    "bad_name": N_("Write the officer's full name."),
    "not_attested": N_("The officer must attest (yes) that the lender holds the "
                       "certification the owner signed (R-B21)."),
    "crim_not_adopted": N_("The CRIM has not yet adopted its values for fiscal year %(year)s "
                           "(the property-tax rates, the dates of its bills and the filing "
                           "date): no certification for that year can be filed yet."),
    "no_property_tax_facts": N_("The CRIM's facts for this property and year are not on file "
                                "yet."),
    "owes_property_tax": N_("The property owed property tax on January 1: the owner files "
                            "with a payment plan (R-B11)."),
    "not_eligible": N_("The certification does not meet %(rules)s."),
    "already_filed": N_("A certification with other answers is already on file for this "
                        "property and year."),
    "cannot_compute": N_("The exemption cannot be computed from these values."),
    "veteran_over_valuation": answers_of.VETERAN_OVER_VALUATION,
    **{f"money_{code}": text for code, text in money_input.MESSAGES.items()},
}
#: An upload refused as a whole (message ids).
FILE_REASONS: dict[str, str] = {
    "empty": N_("The file is empty."),
    "not_text": N_("The file is not a CSV (text) file."),
    "missing_columns": N_("Columns missing: %(columns)s."),
    "unknown_columns": N_("Unknown columns: %(columns)s."),
    "repeated_columns": N_("Repeated columns: %(columns)s."),
    "too_many_rows": N_("At most %(most)s rows per file."),
    "no_rows": N_("The file has no rows."),
}
OUTCOMES = ("accepted", "rejected", "duplicate")
OUTCOME_LABELS = {"accepted": N_("Accepted"), "rejected": N_("Rejected"),
                  "duplicate": N_("Already filed")}
#: Where a batch comes from: an uploaded CSV, the API, or the lender's form of one row.
SOURCES = ("csv", "api", "form")
MAX_API_ROWS = 1000
MAX_CSV_ROWS = 20000
#: Rows per transaction of the job.
STEP = 500
#: Rows read at a time for the report's CSV.
READ = 500
MAX_VALUE = 500
KIND = "lender.certifications"
#: The answers a lender's row sets: two certifications with the same ones are the same.
ANSWER_KEYS = ("owners", "use", "deed_date", "residential", "fraction",
               "residential_valuation", "veteran_amount", "cooperative", "unit_share",
               "occupant", "family_relationship", "rent", "rent_part", "coop_election",
               "cooperative_name")

_FY = re.compile(r"^\s*(\d{4})\s*[-/]\s*(\d{2}|\d{4})\s*$")
_NAMES = {normal(h): key for lang in HEADERS.values() for key, h in lang.items()}
_IGNORED = {normal(h) for cols in REPORT_COLUMNS.values() for h in cols}


# --- who ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Sender:
    """Who sends or reads: the lender, the user (or the token's creator) to record, the
    token when it is one."""

    lender_id: int
    user_id: int
    token_id: int | None


def _sender(uow: UnitOfWork, who: Any) -> Sender:
    """The lender `who` acts for: an API token's, or the (first) lender a user is a member
    of (administrator or clerk). NotFound for anyone else (staff, owners)."""
    if isinstance(who, LenderApiToken) or (hasattr(who, "lender_id")
                                           and hasattr(who, "token_hash")):
        return Sender(int(who.lender_id), int(who.created_by_id), int(who.id))
    uid = getattr(who, "id", None)
    if uid is None:
        raise NotFound()
    lender_id = uow.session.scalar(
        select(Lender.id).join(PartyMember, PartyMember.party_id == Lender.party_id)
        .where(PartyMember.user_id == int(uid), PartyMember.revoked_at.is_(None))
        .order_by(Lender.id).limit(1))
    if lender_id is None:
        raise NotFound()
    return Sender(int(lender_id), int(uid), None)


# --- submitting ------------------------------------------------------------------------------

def _clean(row: dict[str, Any]) -> dict[str, str]:
    out = {}
    for key in COLUMNS:
        value = row.get(key)
        out[key] = "" if value is None else str(value).strip()[:MAX_VALUE]
    return out


def body_hash_of(rows: list[dict[str, Any]]) -> str:
    """SHA-256 of the rows (keys sorted): what the API compares for an idempotency key."""
    text = json.dumps(rows, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


class Filed(NamedTuple):
    """What `filed` gives: the batch, and whether it is the idempotency key's earlier batch
    (nothing filed now: the API answers 200, not 202, and enqueues nothing)."""

    batch: LenderBatch
    replayed: bool


def submit(uow: UnitOfWork, who: Any, rows: list[dict[str, str]], **how: Any) -> LenderBatch:
    """`filed`'s batch."""
    return filed(uow, who, rows, **how).batch


def filed(uow: UnitOfWork, who: Any, rows: list[dict[str, str]], *, source: str,
          filename: str | None = None, idempotency_key: str | None = None,
          body_hash: str | None = None, row_numbers: list[int] | None = None) -> Filed:
    """Record the batch (status "queued"), its rows as sent and the job that processes it
    (R-B21: the lender files its owners' certifications in bulk). `row_numbers`: each row's
    number in its file (the header is row 1); the API's rows are numbered from 1."""
    if source not in SOURCES:
        raise InvalidInput(field="source")
    s = _sender(uow, who)
    if idempotency_key is not None:
        idempotency_key = idempotency_key.strip()[:255]
        found = uow.session.scalar(select(LenderBatch).where(
            LenderBatch.lender_id == s.lender_id,
            LenderBatch.idempotency_key == idempotency_key))
        if found is not None:
            if body_hash is not None and found.body_hash != body_hash:
                raise Conflict("idempotency_key_reused")
            return Filed(found, True)
    if not rows:
        raise InvalidInput("no_rows", field="rows")
    most = MAX_API_ROWS if source == "api" else MAX_CSV_ROWS
    if len(rows) > most:
        raise InvalidInput("too_many_rows", field="rows", most=most)
    batch = LenderBatch(lender_id=s.lender_id, created_by_id=s.user_id, token_id=s.token_id,
                        source=source, filename=(filename or None) and filename[-255:],
                        idempotency_key=idempotency_key, body_hash=body_hash, status="queued",
                        total=len(rows), processed=0, accepted=0, rejected=0, duplicates=0)
    uow.session.add(batch)
    uow.session.flush()
    numbers = row_numbers or list(range(1, len(rows) + 1))
    # PostgreSQL's COPY (bulk.insert_rows) takes the JSON's text; SQLite's path encodes it.
    as_text = uow.session.get_bind().dialect.name == "postgresql"
    values = []
    for number, row in zip(numbers, rows):
        clean = _clean(row)
        values.append({"batch_id": batch.id, "row_number": int(number),
                       "loan_number": clean["loan_number"][:40],
                       "catastro": clean["catastro"][:40],
                       "fiscal_year": clean["fiscal_year"][:20],
                       "raw_values": json.dumps(clean) if as_text else clean})
    bulk.insert_rows(uow, LenderBatchRow, values)
    user = uow.session.get(User, s.user_id)
    batch.job_id = runner.submit(uow, user, KIND, {"batch_id": batch.id}).id
    audit.record(uow, s.user_id, "lender.batch_submitted", batch,
                 after={"source": source, "rows": len(rows), "token_id": s.token_id,
                        "filename": batch.filename})
    return Filed(batch, False)


def parse_csv(data: bytes) -> tuple[list[dict[str, str]], list[int]]:
    """The rows of an uploaded CSV (by field) and their row numbers; InvalidInput with a
    `FILE_REASONS` code for a file that is not one."""
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


def submit_one(uow: UnitOfWork, user: Any, row: dict[str, Any]) -> LenderBatch:
    """One certification from the lender's form: the row's own checks first (`check_row`;
    `InvalidInput` with the reason's code, the column as its field and the reason's params:
    nothing is recorded), then a batch of that one row (source "form"), filed by the job as
    any other row (the loan, the owners on record, the core's figures and eligibility)."""
    _sender(uow, user)
    clean = _clean(row)
    try:
        check_row(clean, clock.today())
    except RowRefused as r:
        raise InvalidInput(r.reason, field=r.column or "loan_number", **r.params) from None
    return submit(uow, user, [clean], source="form")


def submit_csv(uow: UnitOfWork, user: Any, data: bytes, filename: str) -> LenderBatch:
    """Decode an uploaded CSV (UTF-8 with or without BOM or Windows-1252; comma or
    semicolon; CRLF or LF: `portal.csv_text`) and submit its rows."""
    _sender(uow, user)  # NotFound before reading anything for one who is not a lender's
    rows, numbers = parse_csv(data)
    return submit(uow, user, rows, source="csv", filename=filename, row_numbers=numbers)


# --- reading ---------------------------------------------------------------------------------

def get(uow: UnitOfWork, who: Any, batch_id: int) -> LenderBatch:
    """One of the lender's batches; NotFound for another lender's (as for none)."""
    s = _sender(uow, who)
    try:
        bid = int(batch_id)
    except (TypeError, ValueError):
        raise NotFound() from None
    batch = uow.session.get(LenderBatch, bid)
    if batch is None or batch.lender_id != s.lender_id:
        raise NotFound()
    if batch.status in ("queued", "running") and batch.job_id is not None:
        if uow.session.scalar(select(Job.status).where(Job.id == batch.job_id)) == "failed":
            batch.status = "failed"  # its job stopped: the rows it processed stay processed
    return batch


def recent(uow: UnitOfWork, who: Any, limit: int = 10) -> list[LenderBatch]:
    """The lender's latest batches, newest first."""
    s = _sender(uow, who)
    return list(uow.session.scalars(select(LenderBatch).where(
        LenderBatch.lender_id == s.lender_id).order_by(LenderBatch.id.desc()).limit(limit)))


def listed(uow: UnitOfWork, who: Any, *, status: str | None = None, offset: int = 0,
           limit: int = 50) -> tuple[list[LenderBatch], int]:
    """A page of the lender's batches, newest first (`status`: queued, running, done or
    failed; None for all), and how many there are in all."""
    s = _sender(uow, who)
    q = select(LenderBatch).where(LenderBatch.lender_id == s.lender_id)
    if status is not None:
        q = q.where(LenderBatch.status == status)
    total = uow.session.scalar(select(func.count()).select_from(q.subquery())) or 0
    page = list(uow.session.scalars(q.order_by(LenderBatch.id.desc())
                                    .offset(max(0, int(offset))).limit(max(1, int(limit)))))
    return [get(uow, who, b.id) for b in page], total


def _rows_query(batch_id: int, outcome: str | None) -> Any:
    q = select(LenderBatchRow).where(LenderBatchRow.batch_id == batch_id)
    if outcome == "failed":
        q = q.where(LenderBatchRow.outcome == "rejected")
    elif outcome is not None:
        if outcome not in OUTCOMES:
            raise InvalidInput(field="outcome")
        q = q.where(LenderBatchRow.outcome == outcome)
    return q


def rows_page(uow: UnitOfWork, who: Any, batch_id: int, *, outcome: str | None = None,
              offset: int = 0, limit: int = 50) -> list[LenderBatchRow]:
    """A page of the batch's rows by row number (`outcome`: accepted, rejected, duplicate,
    or None for all)."""
    batch = get(uow, who, batch_id)
    return list(uow.session.scalars(_rows_query(batch.id, outcome)
                                    .order_by(LenderBatchRow.row_number)
                                    .offset(max(0, int(offset))).limit(max(1, int(limit)))))


def rows_count(uow: UnitOfWork, who: Any, batch_id: int, *, outcome: str | None = None
               ) -> int:
    batch = get(uow, who, batch_id)
    sub = _rows_query(batch.id, outcome).subquery()
    return uow.session.scalar(select(func.count()).select_from(sub)) or 0


def filing_numbers(uow: UnitOfWork, rows: list[LenderBatchRow]) -> dict[int, str]:
    """certification id -> filing number, for the rows shown."""
    ids = {r.certification_id for r in rows if r.certification_id}
    if not ids:
        return {}
    return dict(uow.session.execute(
        select(ExemptionCertification.id, ExemptionCertification.filing_number)
        .where(ExemptionCertification.id.in_(ids))).all())


def reason_text(row: LenderBatchRow) -> str:
    """The row's reason in the language in force ("" for none)."""
    if not row.reason:
        return ""
    return reason_message(row.reason, row.reason_params)


def reason_message(reason: str, reason_params: dict[str, Any] | None) -> str:
    """A row's reason (a `REASONS` code and its params) in the language in force."""
    msg = REASONS.get(reason, REASONS["cannot_compute"])
    params = dict(reason_params or {})
    try:
        if "maximum" in params:  # an amount's bound, in the reader's format
            params["maximum"] = money(Decimal(str(params["maximum"])))
        if "why" in params:  # the core's reasons, each in the reader's language
            params["why"] = " ".join(translate(str(m)) for m in params["why"] or ())
        for key in ("day_first", "month_first"):  # an ambiguous date's two readings
            if key in params:
                params[key] = date_long(date.fromisoformat(str(params[key])))
        return gettext(msg, **params) if params else translate(msg)
    except (KeyError, ValueError, TypeError):
        return translate(msg)


def column_header(key: str | None, lang: str) -> str:
    """A field's header in the language's template ("" for none)."""
    if not key:
        return ""
    return HEADERS.get(lang, HEADERS["es"]).get(key, key)


# --- the CSVs --------------------------------------------------------------------------------

def template_csv(lang: str) -> str:
    """The template: the header in the language and one example row (BOM, CRLF)."""
    head = [HEADERS.get(lang, HEADERS["es"])[c] for c in COLUMNS]
    yes = "si" if lang == "es" else "yes"
    no = "no"
    owner = "dueno" if lang == "es" else "owner"
    example = ["PR-000123", "040-012-345-67", "2026-2027", "2026-09-15",
               "Ana Rivera|Luis Rivera", yes, owner, "", no, "", "", "", "0", "", "", "", "",
               "María Ortiz", yes]
    return "".join(csv_text.csv_lines(head, [example]))


def report_csv(uow: UnitOfWork, who: Any, batch_id: int, *, only_failed: bool,
               lang: str) -> Iterator[str]:
    """The batch's report line by line: the row's columns as sent, then (all rows) its
    number, outcome, error column, reason, computed exemption, tax with it and filing
    number; only the failed rows: the row's columns and the error (so that they can be
    fixed and uploaded again). Read in batches (constant memory); every cell through
    `csv_text.safe_cell` (`csv_text.csv_lines`)."""
    batch = get(uow, who, batch_id)
    heads = [column_header(c, lang) for c in COLUMNS]
    extra = REPORT_COLUMNS.get(lang, REPORT_COLUMNS["es"])
    header = heads + ([extra[2], extra[3]] if only_failed else list(extra))

    def records() -> Iterator[list[Any]]:
        with use_language(lang):
            last = -1
            while True:
                chunk = list(uow.session.scalars(
                    _rows_query(batch.id, "rejected" if only_failed else None)
                    .where(LenderBatchRow.row_number > last)
                    .order_by(LenderBatchRow.row_number).limit(READ)))
                if not chunk:
                    return
                numbers = filing_numbers(uow, chunk)
                for r in chunk:
                    raw = [(r.raw_values or {}).get(c, "") for c in COLUMNS]
                    why = [column_header(r.error_column, lang), reason_text(r)]
                    if only_failed:
                        yield raw + why
                    else:
                        label = translate(OUTCOME_LABELS[r.outcome]) if r.outcome else ""
                        yield raw + [r.row_number, label] + why + [
                            r.exemption_amount if r.exemption_amount is not None else "",
                            r.net_tax if r.net_tax is not None else "",
                            numbers.get(r.certification_id or 0, "")]
                last = chunk[-1].row_number

    return csv_text.csv_lines(header, records())


# --- checking a row --------------------------------------------------------------------------

class RowRefused(Exception):
    def __init__(self, column: str | None, reason: str, **params: Any):
        super().__init__(reason)
        self.column, self.reason, self.params = column, reason, params


@dataclass(frozen=True)
class Checked:
    """A row's answers, ready to file."""

    answers: dict[str, Any]
    fy: date
    officer: str
    delivered_on: date


def _yes_no(value: str, column: str) -> bool:
    """A yes or no through the one parser of typed answers ("X" and "Y" are refused)."""
    try:
        return yes_no_input.parse(value)
    except yes_no_input.YesNoInputError as e:
        raise RowRefused(column, e.code) from None


def _answer(check: Any, column: str, *args: Any) -> Any:
    """One answer through the one validator of a certification's answers
    (`portal.exemptions.answers`, the wizard's), its refusal as the row's reason in `column`."""
    try:
        return check(*args)
    except answers_of.AnswerRefused as e:
        raise RowRefused(column, e.reason, **e.params) from None


def fiscal_year_of(text: str) -> date | None:
    """July 1 opening the fiscal year written "2026-2027" (or "2026-27"); None if not so."""
    m = _FY.match(text or "")
    if not m:
        return None
    first, second = int(m.group(1)), m.group(2)
    nxt = int(second) if len(second) == 4 else (first + 1) // 100 * 100 + int(second)
    if nxt != first + 1:
        return None
    return date(first, 7, 1)


def fiscal_year_label(fy: date) -> str:
    return f"{fy.year}-{fy.year + 1}"


#: The fiscal year column's description where no day is at hand (the API's schema, built once).
FISCAL_YEAR_FORMAT = N_("The fiscal year of the certification, written YYYY-YYYY (only the year "
                        "in course is open).")


def open_year(today: date) -> str:
    """The fiscal year open for certifications on `today` ("2026-2027"): the year in course
    (`filings.certification_year`), the only one `check_row` takes."""
    return fiscal_year_label(filings.certification_year(today))


def guide(column: str, today: date) -> str:
    """The column's guide in the language in force; the fiscal year's example is the year
    open on `today`."""
    if column == "fiscal_year":
        return gettext(GUIDE[column], year=open_year(today))
    return translate(GUIDE[column])


def check_row(v: dict[str, str], today: date) -> Checked:
    """R-B1 to R-B4, R-B12, R-B21: a row's values as a certification's answers (the
    wizard's, `filings.save_step`'s), or RowRefused with the column and the reason. The
    owners are names here (matched against the parcel's by `_owners`)."""
    for key in REQUIRED:
        if not v.get(key, "").strip():
            raise RowRefused(key, "required")
    fy = fiscal_year_of(v["fiscal_year"])
    if fy is None:
        raise RowRefused("fiscal_year", "bad_fiscal_year")
    open_fy = filings.certification_year(today)
    if fy != open_fy:
        raise RowRefused("fiscal_year", "fiscal_year_not_open", open=fiscal_year_label(open_fy))
    delivered = _delivery_date(v["delivery_date"], fy, today)
    answers: dict[str, Any] = {"occupants": "", "attested_by": "lender"}
    occupant = OCCUPANT_WORDS.get(normal(v.get("occupant", "")) or "owner")
    if occupant is None:
        raise RowRefused("occupant", "bad_occupant")
    answers["occupant"] = occupant
    relationship = v.get("family_relationship", "").strip()
    if occupant == "family":
        if not relationship:
            raise RowRefused("family_relationship", "required")
        code = KINSHIP_WORDS.get(normal(relationship))
        if code is None:
            raise RowRefused("family_relationship", "bad_relationship")
        answers["family_relationship"] = code
    elif relationship:
        raise RowRefused("family_relationship", "relationship_without_family")
    rent = _yes_no(v["rent"], "rent")  # R-B7: the core decides on it (`filings.figures_of`)
    answers["rent"] = "yes" if rent else "no"
    answers["rent_part"] = " ".join(v.get("rent_part", "").split())[:500] if rent else ""
    home = _yes_no(v["residential_use"], "residential_use")
    acquired = v.get("acquisition_date", "").strip()
    _unambiguous(acquired, "acquisition_date")
    deed = _answer(answers_of.deed_date, "acquisition_date", acquired, today) if acquired \
        else None
    if not home:
        raise RowRefused("residential_use", "not_residential")
    if deed is not None:
        answers["use"], answers["deed_date"] = "new_structure", deed.isoformat()
    else:
        answers["use"] = "home"
    fraction, valuation = v.get("residential_fraction", ""), v.get("residential_valuation", "")
    if fraction and valuation:
        raise RowRefused("residential_fraction", "fraction_and_valuation")
    if fraction:
        f = _answer(answers_of.fraction, "residential_fraction", fraction)
        answers["residential"] = "all" if f == 1 else "fraction"
        if f != 1:
            answers["fraction"], answers["fraction_basis"] = str(f), ""
    elif valuation:
        answers["residential"] = "valuation"
        answers["residential_valuation"] = str(_answer(
            answers_of.amount, "residential_valuation", valuation, "residential_valuation"))
    else:
        answers["residential"] = "all"
    vet = v.get("veteran_amount", "")
    amount = _answer(answers_of.amount, "veteran_amount", vet, "veteran_amount") if vet \
        else cents(0)
    answers["veteran"] = "yes" if amount > 0 else "no"
    answers["veteran_amount"] = str(amount)
    share = v.get("cooperative_share", "")
    if share:
        s = _answer(answers_of.unit_share, "cooperative_share", share)
        answers["cooperative"], answers["unit_share"] = "yes", str(s)
        for column in ("cooperative_name", "cooperative_election"):
            if not v.get(column, "").strip():
                raise RowRefused(column, "required")
        election = COOP_ELECTION_WORDS.get(normal(v["cooperative_election"]))
        if election is None:
            raise RowRefused("cooperative_election", "bad_coop_election")
        answers["coop_election"] = election  # the cooperative's, recorded as its own
        answers["cooperative_name"] = " ".join(v["cooperative_name"].split())[:200]
        answers["coop_elected_by"] = "cooperative"
    else:
        answers["cooperative"] = "no"
        for column in ("cooperative_name", "cooperative_election"):
            if v.get(column, "").strip():
                raise RowRefused(column, "coop_without_share")
    name = " ".join(v["officer_name"].split())
    if not 3 <= len(name) <= 200:
        raise RowRefused("officer_name", "bad_name")
    if not _yes_no(v["officer_attests"], "officer_attests"):
        raise RowRefused("officer_attests", "not_attested")
    return Checked(answers, fy, name, delivered)


def _delivery_date(text: str, fy: date, today: date) -> date:
    """R-B13, R-B21: the day the owner delivered the certification to the lender, read by the
    one date parser: not after today, nor before the January 1 on which the fiscal year `fy`
    is judged (R-B15: the certification states the use on that day, so it cannot be signed
    before it)."""
    first = date(fy.year, 1, 1)
    _unambiguous(text, "delivery_date")
    try:
        return date_input.parse(text, "es", not_before=first, not_after=today)
    except date_input.DateInputError as e:
        if e.code == "after":
            raise RowRefused("delivery_date", "date_in_future") from None
        if e.code == "before":
            raise RowRefused("delivery_date", "delivered_before_year",
                             year=fiscal_year_label(fy), first=fy.year) from None
        raise RowRefused("delivery_date", "bad_date") from None


def _unambiguous(text: str, column: str) -> None:
    """A date whose day and month could swap (11/02/2026) is refused with both readings:
    the file and the form are read day first, but a bank's spreadsheet may have written it
    month first, and guessing would file the wrong day. ISO, and a short form only one way
    can be read (30/11/2026, 05/05/2026), pass."""
    readings = date_input.ambiguous(text)
    if readings is not None:
        raise RowRefused(column, "ambiguous_date", written=text.strip(),
                         day_first=readings[0].isoformat(),
                         month_first=readings[1].isoformat())


def same_answers(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two certifications say the same (`ANSWER_KEYS`; owners in any order)."""
    def key(x: dict[str, Any]) -> list[Any]:
        out = []
        for k in ANSWER_KEYS:
            val = x.get(k)
            if k == "owners":
                val = sorted(int(p) for p in (val or []))
            elif k in ("fraction", "residential_valuation", "veteran_amount", "unit_share") \
                    and val not in (None, ""):
                val = Decimal(str(val)).normalize()
            out.append(val)
        return out
    return key(a) == key(b)


# --- processing ------------------------------------------------------------------------------

def _name(text: str) -> str:
    return " ".join(normal(text).replace("_", " ").split())


@dataclass
class _Row:
    """A row of the step and its outcome, written back with the step's others at once."""

    id: int
    values: dict[str, Any]
    outcome: str | None = None
    column: str | None = None
    reason: str | None = None
    params: dict[str, Any] | None = None
    on_file: batch_filing.OnFile | None = None
    comparison: property_tax.BillComparison | None = None

    def written(self) -> dict[str, Any]:
        fig = self.comparison.result if self.comparison is not None else None
        return {"row_id": self.id, "v_outcome": self.outcome, "v_error_column": self.column,
                "v_reason": self.reason, "v_reason_params": self.params,
                "v_certification_id": self.on_file.id if self.on_file is not None else None,
                "v_exemption_amount": fig.exemption_amount if fig is not None else None,
                "v_net_tax": fig.net_tax if fig is not None else None}


#: A step's rows' outcomes, one statement for the step (`_Row.written`).
_ROW_UPDATE = (update(LenderBatchRow.__table__)
               .where(LenderBatchRow.__table__.c.id == bindparam("row_id"))
               .values({c: bindparam(f"v_{c}") for c in (
                   "outcome", "error_column", "reason", "reason_params", "certification_id",
                   "exemption_amount", "net_tax")}))


class Processing:
    """The job's work (`jobs.runner`, kind "lender.certifications"): the batch's rows not
    yet processed, `STEP` at a time by row number, each step one transaction (all or
    nothing per batch of rows; a re-run goes on from the first row left). A step reads what
    its rows need in a few statements, checks each row in order and files the accepted ones
    together (`exemptions.batch_filing.Step`); `one_by_one`: through the single filing's
    path instead, a row at a time (`batch_filing.OneByOne`: the same records)."""

    def __init__(self, batch_id: int, *, one_by_one: bool = False):
        self.batch_id = int(batch_id)
        self.resumed = 0
        self.one_by_one = one_by_one

    def begin(self, uow: UnitOfWork) -> int:
        batch = uow.session.get(LenderBatch, self.batch_id)
        if batch is None:
            raise NotFound()
        batch.status = "running"
        self.resumed = batch.processed
        return batch.total

    def step(self, uow: UnitOfWork) -> int:
        s = uow.session
        # The write transaction opens first: SQLite's driver begins one only at the first
        # write (a row's savepoint taken before it would commit when released), and the new
        # certifications' ids are reserved inside it (`batch_filing`).
        s.execute(update(LenderBatch).where(LenderBatch.id == self.batch_id)
                  .values(status="running").execution_options(synchronize_session=False))
        rows = [_Row(rid, dict(values or {})) for rid, values in s.execute(
            select(LenderBatchRow.id, LenderBatchRow.raw_values).where(
                LenderBatchRow.batch_id == self.batch_id, LenderBatchRow.outcome.is_(None))
            .order_by(LenderBatchRow.row_number).limit(STEP))]
        if not rows:
            return 0
        batch = s.get(LenderBatch, self.batch_id)
        today = clock.today()
        fy = filings.certification_year(today)
        loans = self._loans(uow, batch.lender_id,
                            {r.values.get("loan_number", "") for r in rows}, today)
        catastros = {pid: cat for _lid, pid, cat in loans.values()}
        facts = self._facts(uow, set(catastros), fy)
        owners = self._owners(uow, set(catastros), today)
        who = {"actor_id": batch.created_by_id, "created_by_id": batch.created_by_id}
        self._uow, self._batch = uow, batch
        filer: Any = (batch_filing.OneByOne(uow, fy, **who) if self.one_by_one else
                      batch_filing.Step(uow, fy, catastros=catastros, owners=owners, **who))
        counts = {"accepted": 0, "rejected": 0, "duplicate": 0}
        for row in rows:
            self._one(filer, row, today, loans, facts, owners)
            counts[row.outcome] += 1
        filer.write()
        s.execute(_ROW_UPDATE, [r.written() for r in rows])
        s.execute(update(LenderBatch).where(LenderBatch.id == self.batch_id).values(
            processed=LenderBatch.processed + len(rows),
            accepted=LenderBatch.accepted + counts["accepted"],
            rejected=LenderBatch.rejected + counts["rejected"],
            duplicates=LenderBatch.duplicates + counts["duplicate"])
            .execution_options(synchronize_session=False))
        return len(rows)

    def finish(self, uow: UnitOfWork) -> Processing:
        batch = uow.session.get(LenderBatch, self.batch_id, populate_existing=True)
        batch.status = "done"
        batch.finished_at = clock.now()
        audit.record(uow, batch.created_by_id, "lender.batch_processed", batch,
                     after={"accepted": batch.accepted, "rejected": batch.rejected,
                            "duplicates": batch.duplicates, "token_id": batch.token_id})
        webhooks.emit(uow, batch.lender_id, "batch.finished", {  # with the batch's end
            "batch_id": batch.id, "status": batch.status, "source": batch.source,
            "counts": {"rows": batch.total, "processed": batch.processed,
                       "accepted": batch.accepted, "rejected": batch.rejected,
                       "duplicate": batch.duplicates},
            "finished_at": batch.finished_at.isoformat(),
            "url": f"/api/v1/certification-batches/{batch.id}"})
        return self

    def job_result(self) -> dict[str, Any]:
        return {"batch_id": self.batch_id}

    # the step's reads, one query each for the whole step

    @staticmethod
    def _loans(uow: UnitOfWork, lender_id: int, numbers: set[str], today: date
               ) -> dict[str, tuple[int, int, str]]:
        """loan number -> (loan id, parcel id, catastro) of the lender's active loans."""
        numbers = {n for n in numbers if n}
        if not numbers:
            return {}
        rows = uow.session.execute(
            select(Loan.loan_number, Loan.id, Loan.parcel_id, Parcel.catastro)
            .join(Parcel, Parcel.id == Loan.parcel_id)
            .where(Loan.lender_id == lender_id, Loan.loan_number.in_(sorted(numbers)),
                   Loan.starts_on <= today, or_(Loan.ends_on.is_(None), Loan.ends_on >= today))
            .order_by(Loan.starts_on, Loan.id)).all()
        return {num: (lid, pid, cat) for num, lid, pid, cat in rows}

    @staticmethod
    def _facts(uow: UnitOfWork, parcels: set[int], fy: date) -> dict[int, Any]:
        """parcel -> its CRIM facts of the year (a row with the model's columns)."""
        if not parcels:
            return {}
        t = PropertyTaxFact.__table__
        rows = list(uow.session.execute(select(t).where(
            t.c.parcel_id.in_(sorted(parcels)), t.c.fiscal_year_start == fy)))
        debts = exemption_facts.recorded_debts(uow, parcels, fy)  # R-B11: recorded debts
        return {f.parcel_id: exemption_facts.view(f, debts.get(f.parcel_id)) for f in rows}

    @staticmethod
    def _owners(uow: UnitOfWork, parcels: set[int], today: date
                ) -> dict[int, list[tuple[int, str, str]]]:
        """parcel -> (party id, name, share kind) of its owners who are people, as
        `filings.owners_on_record`."""
        out: dict[int, list[tuple[int, str, str]]] = {}
        if not parcels:
            return out
        for parcel_id, pid, name, kind in uow.session.execute(
                select(OwnershipShare.parcel_id, Party.id, Party.name, OwnershipShare.kind)
                .join(OwnershipShare, OwnershipShare.party_id == Party.id)
                .where(OwnershipShare.parcel_id.in_(sorted(parcels)),
                       OwnershipShare.starts_on <= today,
                       or_(OwnershipShare.ends_on.is_(None), OwnershipShare.ends_on >= today),
                       Party.kind == "person")
                .order_by(OwnershipShare.parcel_id, Party.name, Party.id)):
            out.setdefault(parcel_id, []).append((pid, name, kind))
        return out

    def _one(self, filer: Any, row: _Row, today: date,
             loans: dict[str, tuple[int, int, str]], facts: dict[int, Any],
             owners: dict[int, list[tuple[int, str, str]]]) -> None:
        """Check and file one row; its outcome on `row`."""
        try:
            row.on_file, row.comparison = self._file(filer, row, today, loans, facts, owners)
        except RowRefused as r:
            row.outcome, row.column, row.reason = "rejected", r.column, r.reason
            row.params = json.loads(json.dumps(r.params, default=str)) or None

    def _file(self, filer: Any, row: _Row, today: date,
              loans: dict[str, tuple[int, int, str]], facts: dict[int, Any],
              owners: dict[int, list[tuple[int, str, str]]]
              ) -> tuple[batch_filing.OnFile, property_tax.BillComparison]:
        v = row.values
        found = loans.get(v.get("loan_number", ""))
        if not v.get("loan_number") or not v.get("catastro"):
            raise RowRefused("loan_number" if not v.get("loan_number") else "catastro",
                             "required")
        if found is None or normalise_catastro(v["catastro"]) != found[2]:
            raise RowRefused("loan_number", "not_your_loan")  # nothing about the parcel
        loan_id, parcel_id, _cat = found
        checked = check_row(v, today)
        answers = dict(checked.answers)
        answers["owners"] = self._owner_ids(v["owners"], owners.get(parcel_id, []))
        if exemption_facts.crim_values_missing(checked.fy):  # never last year's rates
            raise RowRefused(None, "crim_not_adopted", year=fiscal_year_label(checked.fy))
        fact = facts.get(parcel_id)
        if fact is None:
            raise RowRefused(None, "no_property_tax_facts")
        if v.get("veteran_amount", "").strip():  # R-B3: at most the property's valuation
            _answer(answers_of.veteran_amount, "veteran_amount", v["veteran_amount"],
                    fact.valuation)
        try:
            comparison = property_tax.compare(filings.exemption_input(answers, fact),
                                              checked.fy)
        except (CalcError, ParameterNotFound):
            raise RowRefused(None, "cannot_compute") from None
        existing = filer.on_file(parcel_id)
        if existing is not None and existing.status in EXEMPTION_HOLDING:
            if existing.loan_id == loan_id and same_answers(existing.answers, answers) \
                    and existing.delivered_on == checked.delivered_on:
                row.outcome = "duplicate"
                return existing, comparison
            raise RowRefused(None, "already_filed")
        if fact.debt_on_january_1 > 0:
            raise RowRefused(None, "owes_property_tax")
        election = self._coop_election(answers, checked.fy)
        try:
            filed, fig = filer.file(batch_filing.LenderFiling(
                parcel_id, loan_id, answers, checked.officer, checked.delivered_on,
                election), fact, comparison)
        except ServiceError as e:
            raise _refusal(e) from None
        row.outcome = "accepted"
        return filed, fig.comparison

    def _coop_election(self, answers: dict[str, Any], fy: date) -> int | None:
        """R-B4, R-B20: a cooperative's unit: the cooperative's election of the year, as on
        record or recorded now as the cooperative's (the lender's user records it); a row
        giving the other election is refused."""
        if answers.get("coop_elected_by") != "cooperative":
            return None
        try:
            return cooperatives.record(
                self._uow, fy=fy, name=answers["cooperative_name"],
                election=answers["coop_election"], recorded_by_id=self._batch.created_by_id,
                lender_id=self._batch.lender_id).id
        except Conflict:
            raise RowRefused("cooperative_election", "coop_election_differs") from None

    @staticmethod
    def _owner_ids(text: str, on_record: list[tuple[int, str, str]]) -> list[int]:
        """R-B5: the owners named (as on record, any case and accents), both spouses."""
        by_name = {_name(n): pid for pid, n, _k in on_record}
        chosen = set()
        for part in text.split("|"):
            if not part.strip():
                continue
            pid = by_name.get(_name(part))
            if pid is None:
                raise RowRefused("owners", "owner_not_on_record", name=part.strip()[:80])
            chosen.add(pid)
        if not chosen:
            raise RowRefused("owners", "required")
        spouses = {pid for pid, _n, kind in on_record if kind == "spouse"}
        if spouses & chosen and not spouses <= chosen:
            raise RowRefused("owners", "both_spouses")
        return sorted(chosen)


#: The row's column each of the reasons against a home concerns (R-B7; R-B4: the
#: cooperative's election of the cooperatives law's exemption).
ELIGIBILITY_COLUMNS: dict[str, str] = {exemption.RENT_RECEIVED: "rent",
                                       exemption.NOT_FAMILY: "family_relationship",
                                       exemption.NOT_HOME: "residential_use",
                                       filings.COOPERATIVE_LAW: "cooperative_election"}


def _refusal(e: ServiceError) -> RowRefused:
    """A filing's refusal as a row's reason."""
    if e.code == "one_dwelling":
        return RowRefused("owners", "one_dwelling")
    if e.code == "exemption_not_eligible":
        reasons = list(e.params.get("reasons", []))
        rules = sorted({rule for rule, _m in reasons})
        column = next((ELIGIBILITY_COLUMNS[m] for _r, m in reasons
                       if m in ELIGIBILITY_COLUMNS), None)
        return RowRefused(column, "not_eligible_because", rules=", ".join(rules),
                          why=[m for _r, m in reasons])
    if e.code in ("exemption_not_editable", "exemption_state"):
        return RowRefused(None, "already_filed")
    if e.code == "no_property_tax_facts":
        return RowRefused(None, "no_property_tax_facts")
    return RowRefused(None, "cannot_compute")


def work(_user: Any, params: dict[str, Any]) -> Processing:
    """The job's work for `jobs.KINDS`."""
    return Processing(int(params["batch_id"]))


def runnable(uow: UnitOfWork, user: Any, params: dict[str, Any]) -> None:
    """`jobs.CHECKS`: the batch exists and is the user's lender's."""
    batch = uow.session.get(LenderBatch, int(params["batch_id"]))
    if batch is None or batch.lender_id != _sender(uow, user).lender_id:
        raise NotFound()


__all__ = ["COLUMNS", "MAX_API_ROWS", "OUTCOMES", "Filed", "Processing", "REASONS",
           "body_hash_of", "check_row", "filed", "get", "process", "recent", "report_csv",
           "rows_count", "rows_page",
           "submit", "submit_csv", "template_csv"]


def process(uow: UnitOfWork, batch_id: int, *, one_by_one: bool = False) -> LenderBatch:
    """Process a whole batch inside this unit of work (the demo, the bench, tests); a
    worker runs `Processing` through `jobs.runner.run` instead, a step per transaction.
    `one_by_one`: through the single filing's path (`Processing`)."""
    w = Processing(batch_id, one_by_one=one_by_one)
    w.begin(uow)
    while w.step(uow):
        pass
    w.finish(uow)
    return uow.session.get(LenderBatch, int(batch_id))


runner.register(KIND, work, runnable, lender=True)
