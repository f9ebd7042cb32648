"""The lenders' API's schemas (J7): Pydantic v2 models that validate each request and, through
`model_json_schema()` (JSON Schema 2020-12, OpenAPI 3.1's own dialect), make the OpenAPI
document (portal/web/lenders_api/openapi.py). One definition for both, so the document cannot
drift from what the API accepts. Money is a string with two decimals, never a JSON number.

A validation error becomes a list of `{"field": "rows[3].fiscal_year", "detail": ...}`, the
detail in the caller's language (`field_errors`): Pydantic's own English messages are never
shown, only its error `type`, mapped to the catalog's messages below.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    create_model,
)
from pydantic_core import PydanticCustomError

from portal import i18n
from portal.core.explain import N_
from portal.lenders import batches, loan_changes, portfolio

Money = Annotated[str, Field(pattern=r"^-?[0-9]+\.[0-9]{2}$",
                             description=N_("An amount in dollars, two decimals, as a string."),
                             examples=["1234.50"])]
LOAN_NUMBER = r"^[^/\x00-\x1f\x7f]{1,40}$"  # as the loans table holds them, no slash
#: A row's values are text as in the CSV (the batch's service reads them as the CSV's cells).
CELL_MAX = batches.MAX_VALUE
CELL = r"^[^\x00]*$"  # no NUL byte (nothing a person types; PostgreSQL's text refuses it)
#: A catastro number as the parcels table holds them (no slash, no control character).
CATASTRO = r"^[^/\x00-\x1f\x7f]{1,32}$"
#: Idempotency-Key: printable ASCII, no spaces (a UUID fits).
IDEMPOTENCY_KEY = r"^[!-~]{1,200}$"
#: The columns a row must have (the others may be left out, as empty cells); a required
#: column sent empty is the row's rejection, as in the CSV.
REQUIRED_COLUMNS = batches.REQUIRED
#: A date as the API takes it: YYYY-MM-DD only (never a day/month order, a timestamp or a
#: date and time), so 2026-02-11 is 11 February for every caller.
ISO_DATE = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
_ISO = re.compile(ISO_DATE)
#: A row's columns that hold a date (the CSV's cells take the reader's forms too).
DATE_COLUMNS = frozenset(("delivery_date", "acquisition_date"))


def _not_iso() -> PydanticCustomError:
    return PydanticCustomError("date_parsing", "Write the date as YYYY-MM-DD.")


def _iso_only(value: Any) -> Any:
    """A date field's value before Pydantic reads it: a JSON string YYYY-MM-DD (or a date
    already), anything else refused with the date's message."""
    if isinstance(value, date) and not isinstance(value, datetime):
        return value
    if not isinstance(value, str) or not _ISO.match(value):
        raise _not_iso()
    return value


def _iso_cell(value: str) -> str:
    """A row's date column: empty (the row's own rejection when required, as in the CSV) or
    a day written YYYY-MM-DD that exists."""
    if value == "":
        return value
    if not _ISO.match(value):
        raise _not_iso()
    try:
        date.fromisoformat(value)
    except ValueError:
        raise _not_iso() from None
    return value


IsoDate = Annotated[date, BeforeValidator(_iso_only)]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=False)


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- requests ---------------------------------------------------------------------------------

Sort = Literal[tuple(portfolio.SORTS)]  # type: ignore[valid-type]
Status = Literal[("", *portfolio.STATUSES)]  # type: ignore[valid-type]
Certification = Literal[("", *portfolio.CERTIFICATIONS)]  # type: ignore[valid-type]


class _Query(BaseModel):
    model_config = ConfigDict(extra="ignore")  # other parameters are ignored, as the pages do


class LoansQuery(_Query):
    """`GET /loans`'s query parameters (all optional)."""

    page: int = Field(1, ge=1, lt=2**31, description=N_("The page, 50 loans a page."))
    status: Status = Field("", description=N_("Only loans in this status."))
    municipality: str = Field("", max_length=60, description=N_("Only loans in this municipality."))
    certification: Certification = Field(
        "", description=N_("This fiscal year's residential exemption: approved, filed and not "
                        "yet decided (pending), or none filed."))
    q: str = Field("", max_length=40,
                   description=N_("The start of a loan number or a catastro number."))
    sort: Sort = Field("loan", description=N_("The column to sort by."))
    order: Literal["asc", "desc"] = Field("asc", description=N_("Ascending or descending."))


class RowsQuery(_Query):
    """`GET /certification-batches/{id}/rows`'s query parameters."""

    page: int = Field(1, ge=1, lt=2**31, description=N_("The page, 50 rows a page."))
    outcome: Literal[("", *batches.OUTCOMES)] = Field(  # type: ignore[valid-type]
        "", description=N_("Only the rows with this outcome."))


class BatchesQuery(_Query):
    """`GET /certification-batches`'s query parameters."""

    page: int = Field(1, ge=1, lt=2**31, description=N_("The page, 50 batches a page."))
    status: Literal["", "queued", "running", "done", "failed"] = Field(
        "", description=N_("Only the batches in this status."))


class DeliveriesQuery(_Query):
    """`GET /webhook-deliveries`'s query parameters."""

    page: int = Field(1, ge=1, lt=2**31, description=N_("The page, 50 deliveries a page."))
    status: Literal["", "pending", "delivered", "failed"] = Field(
        "", description=N_("Only the deliveries in this state."))


class CertificationsQuery(_Query):
    """`GET /parcels/{catastro}/certifications`'s query parameters."""

    fiscal_year: str = Field("", pattern=r"^([0-9]{4}-[0-9]{4})?$", description=N_(
        "Only this fiscal year's (YYYY-YYYY, the second year the first plus one)."))


@cache
def row_model() -> type[BaseModel]:
    """One certification: the CSV template's columns (`lender_batches.COLUMNS`), each a
    string as a CSV cell is; unknown fields are refused (a misspelt column is an error, not a
    silently empty cell)."""
    fields: dict[str, Any] = {
        c: (_date_cell(c) if c in DATE_COLUMNS else
            Annotated[str, Field(max_length=CELL_MAX, pattern=CELL,
                                 description=batches.FISCAL_YEAR_FORMAT
                                 if c == "fiscal_year" else batches.GUIDE.get(c))],
            ... if c in REQUIRED_COLUMNS else "")
        for c in batches.COLUMNS}
    return create_model("CertificationRow", __base__=_In, **fields)


def _date_cell(column: str) -> Any:
    """A date column of a row: YYYY-MM-DD only (a 422 naming the row's field otherwise),
    or empty."""
    return Annotated[str, AfterValidator(_iso_cell), Field(
        max_length=10, description=batches.GUIDE.get(column),
        json_schema_extra={"pattern": f"^({ISO_DATE[1:-1]})?$", "examples": ["2026-11-30"]})]


@cache
def batch_model() -> type[BaseModel]:
    """`POST /certification-batches`'s body: up to `MAX_API_ROWS` rows."""
    rows = Annotated[list[row_model()],  # type: ignore[valid-type]
                     Field(min_length=1, max_length=batches.MAX_API_ROWS)]
    return create_model("CertificationBatchIn", __base__=_In, rows=(rows, ...))


class AcquisitionIn(_In):
    """`POST /loans/{loan_number}/acquisitions`'s body (R-B10 case iii)."""

    acquired_on: IsoDate = Field(description=N_(
        "The deed date of the new structure's acquisition (YYYY-MM-DD): not after today "
        "nor before 30 August 1991 (the law that governs this notice took effect); either "
        "is a 422 naming acquired_on. A deed of an earlier year is recorded, its notice "
        "overdue."))
    certification_id: int | None = Field(None, ge=1, lt=2**31, description=N_(
        "Optional: the residential-exemption certification of the loan's parcel it was "
        "bought with."))


class LoanChangeIn(_In):
    """One loan to add or remove: the add/delete file's columns, each a string
    as a CSV cell is; a bad value is that row's rejection in the answer, as in the file."""

    action: str = Field(max_length=20, pattern=CELL, description=loan_changes.GUIDE["action"])
    loan_number: str = Field(max_length=CELL_MAX, pattern=CELL,
                             description=loan_changes.GUIDE["loan_number"])
    catastro: str = Field(max_length=CELL_MAX, pattern=CELL,
                          description=loan_changes.GUIDE["catastro"])
    owner_name: str = Field("", max_length=CELL_MAX, pattern=CELL,
                            description=loan_changes.GUIDE["owner_name"])
    escrow: str = Field("", max_length=20, pattern=CELL,
                        description=loan_changes.GUIDE["escrow"])


class LoanChangesIn(_In):
    """`POST /loan-changes`'s body: up to 1,000 loans to add or remove."""

    changes: list[LoanChangeIn] = Field(min_length=1, max_length=loan_changes.MAX_API_ROWS)


class BillsIn(_In):
    """`POST /bills`'s body: which bill file to make (both may be left out)."""

    fiscal_year: str = Field("", pattern=r"^([0-9]{4}-[0-9]{4})?$", description=N_(
        "The fiscal year, e.g. 2026-2027 (empty: this one)."))
    due_by: IsoDate | None = Field(None, description=N_(
        "Only what falls due on or before this day (YYYY-MM-DD), within the fiscal year."))


class FilesQuery(_Query):
    page: int = Field(1, ge=1, lt=2**31, description=N_("The page, 50 a page."))


class BillsQuery(_Query):
    """`GET /bills`'s query parameters."""

    fiscal_year: str = Field("", pattern=r"^([0-9]{4}-[0-9]{4})?$", description=N_(
        "The fiscal year, e.g. 2026-2027 (empty: this one)."))
    due_by: IsoDate | None = Field(None, description=N_(
        "Only what falls due on or before this day (YYYY-MM-DD), within the fiscal year."))
    page: int = Field(1, ge=1, lt=2**31, description=N_("The page, 50 loans a page."))


# --- responses --------------------------------------------------------------------------------

class FieldError(_Out):
    field: str = Field(description=N_("Where: a parameter's or header's name, or a path in the "
                                   "body such as rows[3].fiscal_year."))
    detail: str = Field(description=N_("What is wrong, in the caller's language."))


class Problem(_Out):
    """An RFC 9457 problem (`application/problem+json`) in the caller's language."""

    type: str
    title: str
    status: int
    detail: str
    field: str | None = Field(None, description=N_("The first invalid parameter or field."))
    errors: list[FieldError] | None = Field(None, description=N_("Every invalid field."))


class Totals(_Out):
    due_now: Money | None
    annual_assessment: Money | None


class Loan(_Out):
    loan_number: str
    catastro: str
    address: str | None
    municipality: str | None
    status: str
    annual_assessment: Money | None
    due_now: Money | None
    due_now_by: date | None = Field(description=N_(
        "The last day to pay due_now on time: today when something is already late; null "
        "when nothing is due."))
    next_due_date: date | None


Next = Annotated[str | None, Field(description=N_(
    "The next page's address (with the same parameters), or null on the last page."))]
Total = Annotated[int, Field(description=N_("How many there are in all, on every page."))]


class LoanPage(_Out):
    as_of: date
    page: int
    pages: int
    count: int
    total: Total
    next: Next
    totals: Totals
    items: list[Loan]


class RetentionBill(_Out):
    """One CRIM bill: what to pay or retain in each of the three cases (R-B10)."""

    issued_on: date
    billed_with_exemption: Money | None
    billed_without_exemption: Money | None
    prepayment_discount: Money | None
    pay_billed_with_exemption: Money | None = Field(description=N_("(i) The bill issued with "
                                                                "the exemption: pay this."))
    pay_billed_without_exemption: Money | None = Field(
        description=N_("(ii) The bill issued without it: pay this, with the certification."))
    retain_new_structure: Money | None = Field(
        description=N_("(iii) A new structure bought with a certification: retain this."))


class Retention(_Out):
    fiscal_year: str
    rules: list[str]
    bills: list[RetentionBill]


class LoanDetail(Loan):
    as_of: date
    retention: Retention | None = Field(description=N_("R-B10 per CRIM bill; null without the "
                                                    "CRIM's facts of the year."))


class Counts(_Out):
    rows: int
    processed: int
    accepted: int
    rejected: int
    duplicate: int


class Batch(_Out):
    id: int
    status: str = Field(description=N_("queued, running, done or failed."))
    source: str = Field(description=N_("api or csv."))
    created_at: datetime
    counts: Counts
    rows_url: str


class BatchRow(_Out):
    row_number: int
    loan_number: str | None
    catastro: str | None
    fiscal_year: str | None
    outcome: str | None = Field(description=N_("accepted, rejected or duplicate; null while "
                                            "the batch is not processed."))
    column: str | None = Field(description=N_("The column of a rejected row's error."))
    reason: str | None = Field(description=N_("Why a row was rejected, in the caller's language."))
    exemption: Money | None = Field(description=N_("The computed exemption of an accepted row."))
    tax_with_exemption: Money | None = Field(
        description=N_("The year's property tax with the exemption, of an accepted row."))
    filing_number: str | None = Field(
        description=N_("The certification's filing number, of an accepted row (or of the "
                       "one already on file)."))


class NoticeDeadline(_Out):
    last_day: date = Field(description=N_("The last day to notify the CRIM: 30 days after "
                                          "the acquisition, rolled to a business day."))
    days_left: int = Field(description=N_("Days left today (negative once it has passed)."))
    overdue: bool


class Acquisition(_Out):
    id: int
    loan_number: str
    acquired_on: date
    certification_id: int | None
    reported_at: datetime
    notice_deadline: NoticeDeadline


class BatchRows(_Out):
    batch_id: int
    page: int
    pages: int
    total: Total
    next: Next
    items: list[BatchRow]


class ChangeCounts(_Out):
    rows: int
    processed: int
    done: int = Field(description=N_("Loans added or removed."))
    rejected: int
    unchanged: int = Field(description=N_("Rows that changed nothing (already so)."))


class LoanChangeRow(_Out):
    row_number: int
    action: str | None
    loan_number: str | None
    catastro: str | None
    outcome: str | None = Field(description=N_("added, removed, unchanged or rejected; null "
                                               "while not processed."))
    column: str | None = Field(description=N_("The field of a rejected row's error."))
    reason: str | None = Field(description=N_("Why a row was rejected, in the caller's "
                                              "language."))


class LoanChangeFile(_Out):
    id: int
    source: str = Field(description=N_("api, csv or form."))
    status: str = Field(description=N_("queued, running, done or failed."))
    created_at: datetime
    counts: ChangeCounts


class LoanChangeFileRows(LoanChangeFile):
    page: int
    pages: int
    items: list[LoanChangeRow]


class LoanChangeFiles(_Out):
    page: int
    pages: int
    count: int
    items: list[LoanChangeFile]


class BillLineOut(_Out):
    loan_number: str
    catastro: str
    through_installment: int | None = Field(description=N_(
        "The installment the amount pays through (null: nothing due)."))
    amount_due: Money
    last_timely_day: date | None = Field(description=N_(
        "The last day to pay it on time (today when something is already late)."))
    lump_sum: Money | None = Field(description=N_("The lump sum when eligible (R-A11)."))
    lump_sum_by: date | None


class BillPage(_Out):
    file_id: int
    fiscal_year: str
    due_by: date | None
    as_of: date
    count: int
    total: Money
    page: int
    pages: int
    items: list[BillLineOut]

class CertificationStatus(_Out):
    id: int
    fiscal_year: str
    status: Literal["filed", "under_review", "returned", "resubmitted", "approved",
                    "withdrawn", "revoked"] = Field(description=N_(
                        "filed, under_review, returned (to the owner, to correct), "
                        "resubmitted, approved, withdrawn or revoked (on a change report)."))
    filing_number: str | None
    filed_on: date | None
    decided_at: datetime | None = Field(description=N_("When it was approved or returned."))
    loan_number: str | None = Field(description=N_(
        "Your loan it was filed for, if one of yours."))


class ParcelCertifications(_Out):
    catastro: str
    loan_numbers: list[str] = Field(description=N_("Your loans on this parcel."))
    items: list[CertificationStatus]


class Delivery(_Out):
    event_id: str = Field(description=N_("The event's id (evt_…), also in the request's "
                                         "Portal-Event-Id header."))
    event: Literal["batch.finished", "certification.decided"]
    url: str = Field(description=N_("The endpoint it was sent to."))
    status: Literal["pending", "delivered", "failed"] = Field(description=N_(
        "pending (to be sent, or sent again after a failure), delivered (the endpoint "
        "answered 2xx) or failed (after its last attempt)."))
    attempts: int
    last_status: int | None = Field(description=N_("The endpoint's last HTTP status."))
    last_error: str | None
    created_at: datetime
    delivered_at: datetime | None
    next_attempt_at: datetime | None = Field(description=N_("When it is tried again."))


class DeliveryPage(_Out):
    page: int
    pages: int
    total: Total
    next: Next
    items: list[Delivery]


class CrimProblem(_Out):
    line: int = Field(description=N_("The file's line (the header is line 1)."))
    column: str = Field(description=N_("The column as the file's header writes it (empty: "
                                       "the whole row)."))
    value: str = Field(description=N_("The cell, cut to 120 characters."))
    code: str = Field(description=N_("Why: wrong_column_count, required, bad_kind, "
                                     "bad_date, future, before_filing, bad_amount, too_long, "
                                     "unknown_filing, no_plan or receipt_differs."))
    detail: str = Field(description=N_("The reason in the caller's language."))


class CrimReport(_Out):
    """The report of the CRIM's file of plan payments (R-B16)."""

    rows: int = Field(description=N_("Data rows read."))
    recorded: int = Field(description=N_("Rows recorded now."))
    already_recorded: int = Field(description=N_("Rows whose receipt was already recorded "
                                                 "with the same day and amount."))
    refused: int = Field(description=N_("Rows refused (nothing recorded for them)."))
    problems: list[CrimProblem] = Field(description=N_("The refused rows, the first "
                                                       "listed_at_most of them."))
    listed_at_most: int
    rules: list[str]


class BatchPage(_Out):
    page: int
    pages: int
    total: Total
    next: Next
    items: list[Batch]


# --- validation errors in the caller's language ------------------------------------------------

#: Pydantic's error types, in the catalog's words (anything else: INVALID).
MESSAGES = {
    "missing": N_("This field is required."),
    "string_type": N_("This must be text (a JSON string)."),
    "string_too_long": N_("This is too long: at most %(max)s characters."),
    "string_pattern_mismatch": N_("This does not have the expected form."),
    "extra_forbidden": N_("This field is not one of the API's fields."),
    "too_short": N_("Send at least one row."),
    "too_long": N_("At most %(max)s rows in one batch."),
    "list_type": N_("This must be a list (a JSON array)."),
    "model_type": N_("This must be an object (a JSON object)."),
    "model_attributes_type": N_("This must be an object (a JSON object)."),
    "dict_type": N_("This must be an object (a JSON object)."),
    "json_invalid": N_("The body is not valid JSON."),
    "json_type": N_("The body is not valid JSON."),
    "int_parsing": N_("This must be a whole number."),
    "int_type": N_("This must be a whole number."),
    "int_from_float": N_("This must be a whole number."),
    "greater_than_equal": N_("This number is too small."),
    "less_than": N_("This number is too large."),
    "literal_error": N_("This must be one of: %(expected)s."),
    "date_type": N_("Write the date as YYYY-MM-DD."),
    "date_parsing": N_("Write the date as YYYY-MM-DD."),
    "date_from_datetime_parsing": N_("Write the date as YYYY-MM-DD."),
    "date_from_datetime_inexact": N_("Write the date as YYYY-MM-DD."),
}
INVALID = N_("This value is not valid.")


def field_path(loc: tuple[Any, ...]) -> str:
    """("rows", 3, "fiscal_year") → "rows[3].fiscal_year"."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def field_errors(exc: ValidationError, root: str = "") -> list[dict[str, str]]:
    """Every error of `exc` as {field, detail}, the detail in the language in force."""
    out = []
    for e in exc.errors(include_url=False):
        ctx = e.get("ctx") or {}
        code = e["type"]
        message = MESSAGES.get(code, INVALID)
        params = {"max": ctx.get("max_length", "")}
        if code == "literal_error":
            params = {"expected": ctx.get("expected", "").replace("''", '""')}
        text = i18n.gettext(message, **params) if "%(" in message else i18n.gettext(message)
        loc = tuple(e["loc"])
        out.append({"field": field_path(loc) or root, "detail": text})
    return out
