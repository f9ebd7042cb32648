"""The API's OpenAPI 3.1 document (J7), made from the same Pydantic models that validate the
requests (portal/web/lenders_api/schemas.py): their JSON Schema (2020-12) is OpenAPI 3.1's
dialect, so each model goes into `components.schemas` unchanged, and each operation below
names its models. Texts (summaries, descriptions, the schemas' field descriptions) are the
catalog's, in the language asked for; the document is built once per language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from portal import i18n
from portal.core.explain import N_
from portal.web.lenders_api import schemas as S

PROBLEM_TITLES = {
    400: N_("A parameter or header is not valid (problem+json, with the field)."),
    401: N_("No valid token (problem+json); the header WWW-Authenticate says Bearer."),
    403: N_("This token may only read (problem+json)."),
    404: N_("Not found, or not your organisation's (problem+json)."),
    500: N_("An error on the portal's side (problem+json)."),
    409: N_("The Idempotency-Key was used with another body (problem+json)."),
    422: N_("The body is not valid: every field with its error (problem+json)."),
    413: N_("The body is too large (problem+json)."),
    429: N_("Too many requests (problem+json); Retry-After says in how many seconds to "
            "try again."),
}
PROBLEM_HEADERS = {
    401: {"WWW-Authenticate": {"required": True, "schema": {"type": "string"}}},
    429: {"Retry-After": {"required": True, "description": N_("Seconds to wait."),
                          "schema": {"type": "integer", "minimum": 0}}},
}
#: The quotas a request counted against (IETF draft-ietf-httpapi-ratelimit-headers),
#: on every answer to a request with a token (with the address's quota, before a token is
#: known).
RATE_LIMIT = {
    "RateLimit-Policy": {"description": N_(
        'The quotas: "token";q=120;w=60 (requests per token per 60 seconds) and '
        '"address";q=300;w=60.'), "schema": {"type": "string"}},
    "RateLimit": {"description": N_(
        'What is left of each quota: "token";r=119;t=42 (r requests left; t seconds until '
        'there are more).'), "schema": {"type": "string"}},
}


@dataclass(frozen=True)
class Param:
    name: str
    where: str  # "path" or "header"
    schema: dict[str, Any]
    description: str
    required: bool = True


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    operation_id: str
    summary: str
    description: str
    ok: int
    answer: type[BaseModel] | None  # the success's body (JSON); None: an HTML or other body
    problems: tuple[int, ...]
    query: type[BaseModel] | None = None
    params: tuple[Param, ...] = ()
    body: Any = None  # a function giving the body's model
    ok_headers: dict[str, Any] = field(default_factory=dict)
    public: bool = False
    also: tuple[tuple[int, str], ...] = ()  # other successes: (status, description)
    csv_body: str | None = None  # the body is a CSV file: its description
    security: str = "bearer"  # the security scheme's name


LOAN = Param("loan_number", "path", {"type": "string", "pattern": S.LOAN_NUMBER},
             N_("The loan's number."))
BATCH = Param("batch_id", "path", {"type": "integer", "minimum": 1, "maximum": 2**31 - 1},
              N_("The batch's number."))
KEY = Param("Idempotency-Key", "header", {"type": "string", "pattern": S.IDEMPOTENCY_KEY},
            N_("A key of the client's choosing (a UUID, say), different for each batch: "
               "sent again with the same body it answers the same batch; with another "
               "body, 409."))
LOCATION = {"Location": {"required": True, "description": N_("The batch's address."),
                         "schema": {"type": "string"}}}
CHANGE = Param("change_id", "path", {"type": "integer", "minimum": 1, "maximum": 2**31 - 1},
               N_("The change's number."))
CHANGE_LOCATION = {"Location": {"required": True, "description": N_("The change's address."),
                                "schema": {"type": "string"}}}
BILL = Param("file_id", "path", {"type": "integer", "minimum": 1, "maximum": 2**31 - 1},
             N_("The bill file's number."))
BILL_LOCATION = {"Location": {"required": True, "description": N_("The bill file's address."),
                              "schema": {"type": "string"}}}
READ = (400, 401, 429, 500)  # a NUL byte in the path or query is a 400 too
CATASTRO = Param("catastro", "path", {"type": "string", "pattern": S.CATASTRO},
                 N_("The parcel's catastro number."))

OPERATIONS = (
    Operation("get", "/loans", "listLoans", N_("Your loans"),
              N_("The token's lender's loans, 50 a page, with the filtered set's count and "
                 "totals."),
              200, S.LoanPage, (400, *READ), query=S.LoansQuery),
    Operation("get", "/loans/{loan_number}", "getLoan", N_("One loan and what to retain"),
              N_("One loan, with what to pay or retain per CRIM bill in the three cases of "
                 "R-B10: (i) the bill issued with the exemption, (ii) the bill issued "
                 "without it, paid with the certification, (iii) a new structure bought with "
                 "a certification."),
              200, S.LoanDetail, (404, *READ), params=(LOAN,)),
    Operation("post", "/certification-batches", "submitCertificationBatch",
              N_("File a batch of certifications"),
              N_("Up to 1,000 residential-exemption certifications, one row per loan, with "
                 "the columns of the CSV template. The batch is processed in the background: "
                 "the answer is 202 with its address; read its status and its per-row "
                 "report there. Needs a token that may write."),
              202, S.Batch, (400, 401, 403, 409, 413, 422, 429, 500), params=(KEY,),
              body=S.batch_model, ok_headers=LOCATION,
              also=((200, N_("The same key and body again: the same batch.")),)),
    Operation("get", "/certification-batches", "listCertificationBatches",
              N_("Your batches"),
              N_("Your organisation's batches of certifications, newest first, 50 a page, "
                 "with how many there are in all and the next page's address."),
              200, S.BatchPage, READ, query=S.BatchesQuery),
    Operation("get", "/certification-batches/{batch_id}", "getCertificationBatch",
              N_("A batch's status"), N_("The batch's status and its rows' counts."),
              200, S.Batch, (404, *READ), params=(BATCH,)),
    Operation("get", "/certification-batches/{batch_id}/rows", "listCertificationBatchRows",
              N_("A batch's per-row report"),
              N_("Each row's outcome (accepted, rejected or duplicate), the column and reason "
                 "of a rejection in the caller's language, the computed exemption of an "
                 "accepted row; 50 a page."),
              200, S.BatchRows, (400, 404, *READ), params=(BATCH,), query=S.RowsQuery),
    Operation("post", "/loans/{loan_number}/acquisitions", "reportAcquisition",
              N_("Report an acquisition"),
              N_("The loan's parcel was bought after January 1 as a new structure with a "
                 "certification (R-B10 case iii): the answer carries the last day to notify "
                 "the CRIM, 30 days after the acquisition, rolled to a business day. Needs a "
                 "token that may write."),
              201, S.Acquisition, (400, 401, 403, 404, 422, 429, 500), params=(LOAN,),
              body=lambda: S.AcquisitionIn),
    # The portfolio kept by the bank, and its bill file
    Operation("post", "/loan-changes", "submitLoanChanges", N_("Add or remove loans"),
              N_("Up to 1,000 loans to add to or remove from your portfolio, with the columns "
                 "of the add/delete file: each parcel is matched to the roll by its catastro "
                 "number and its owner's name, and each row answers its outcome (added, "
                 "removed, unchanged or rejected, with the reason). Needs a token that may "
                 "write."),
              201, S.LoanChangeFileRows, (400, 401, 403, 409, 413, 422, 429), params=(KEY,),
              body=lambda: S.LoanChangesIn, ok_headers=CHANGE_LOCATION,
              also=((200, N_("The same key and body again: the same change.")),)),
    Operation("get", "/loan-changes", "listLoanChanges", N_("Your portfolio's changes"),
              N_("The changes to your portfolio (files, API requests and single changes on "
                 "the page), newest first, 50 a page."),
              200, S.LoanChangeFiles, (400, *READ), query=S.FilesQuery),
    Operation("get", "/loan-changes/{change_id}", "getLoanChange", N_("One change"),
              N_("A change's status, counts and each row's outcome, 50 rows a page."),
              200, S.LoanChangeFileRows, (400, 404, *READ), params=(CHANGE,),
              query=S.FilesQuery),
    Operation("post", "/bills", "makeBillFile", N_("Make your bill file"),
              N_("What is due on each of your loans for a fiscal year (optionally only what "
                 "falls due by a day): the amount, the installment it pays through, the last "
                 "day to pay it on time and the lump sum when eligible, as the parcel's page "
                 "says it. Made and kept (201), or the file already made today for the same "
                 "year and day (200); its first page, its address in Location. Needs a token "
                 "that may write."),
              201, S.BillPage, (400, 401, 403, 413, 422, 429, 500), body=lambda: S.BillsIn,
              ok_headers=BILL_LOCATION,
              also=((200, N_("The file already made today for the same year and day.")),)),
    Operation("get", "/bills", "listBills", N_("Your bill file of today"),
              N_("The lines of the bill file made today (POST /bills) for a fiscal year and "
                 "day, read only: the same file on every page; 404 when none was made today. "
                 "50 loans a page."),
              200, S.BillPage, (400, 404, *READ), query=S.BillsQuery),
    Operation("get", "/bills/{file_id}", "getBillFile", N_("One bill file"),
              N_("A kept bill file's lines, as made, 50 loans a page."),
              200, S.BillPage, (400, 404, *READ), params=(BILL,), query=S.FilesQuery),
    Operation("get", "/parcels/{catastro}/certifications", "getParcelCertifications",
              N_("A parcel's certifications"),
              N_("Where the residential-exemption certifications of one of your loans' "
                 "parcels stand (filed, under review, returned, resubmitted, approved, "
                 "withdrawn), newest fiscal year first; an owner's drafts are not listed."),
              200, S.ParcelCertifications, (404, *READ), params=(CATASTRO,),
              query=S.CertificationsQuery),
    Operation("get", "/webhook-deliveries", "listWebhookDeliveries",
              N_("Your webhooks' deliveries"),
              N_("Each event (batch.finished, certification.decided) sent to each of your "
                 "webhook endpoints, newest first, 50 a page: its state, attempts and the "
                 "endpoint's last answer. Each request carries the header Portal-Signature: "
                 "t=<Unix time>,v1=<the HMAC-SHA256, in hex, of the time, a period and the "
                 "body, with the endpoint's secret>; refuse one whose time is more than five "
                 "minutes off."),
              200, S.DeliveryPage, READ, query=S.DeliveriesQuery),
    Operation("get", "/openapi.json", "getOpenApi", N_("This document"),
              N_("The API's OpenAPI 3.1 document (no token needed)."), 200, None, (),
              public=True),
)


OPERATIONS += (
    Operation("post", "/crim/plan-payments", "sendCrimPlanPayments",
              N_("The CRIM's file of plan payments"),
              N_("The CRIM's system sends the payments it received on approved payment plans "
                 "and the auction notice costs it charged (R-B16): a CSV file with the columns "
                 "numero_radicacion, tipo (pago or costas), fecha (YYYY-MM-DD), cantidad and "
                 "recibo (Spanish or English names). Each good row is recorded on its plan, "
                 "each refused one reported; a receipt already recorded with the same day and "
                 "amount records nothing new, so the same file may be sent again. Needs a "
                 "staff token of scope plan_payments (pds_…), not a lender's."),
              200, S.CrimReport, (400, 401, 403, 413, 422, 429, 500),
              csv_body=N_("The CSV file: UTF-8 (with or without BOM) or Windows-1252, commas "
                          "or semicolons, the header first."),
              security="staffBearer"),
)


def _models() -> list[tuple[type[BaseModel], str]]:
    out: list[tuple[type[BaseModel], str]] = [(S.Problem, "serialization")]
    for op in OPERATIONS:
        if op.answer is not None:
            out.append((op.answer, "serialization"))
        if op.body is not None:
            out.append((op.body(), "validation"))
    return list(dict.fromkeys(out))


def _translated(node: Any, top: bool = False) -> Any:
    """The schema with its descriptions in the language in force, without the titles
    Pydantic makes from the names (nor the classes' docstrings: `top`)."""
    if isinstance(node, list):
        return [_translated(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for k, v in node.items():
        if k == "title" and isinstance(v, str):
            continue
        if k == "description" and isinstance(v, str):
            if top:
                continue
            out[k] = i18n.gettext(v)
        elif k == "properties":
            out[k] = {name: _translated(s) for name, s in v.items()}
        else:
            out[k] = _translated(v)
    return out


def _query_params(model: type[BaseModel]) -> list[dict[str, Any]]:
    js = model.model_json_schema(ref_template="#/components/schemas/{model}")
    required = set(js.get("required", ()))
    return [{"name": name, "in": "query", "required": name in required,
             "description": i18n.gettext(s.get("description", "")),
             "schema": _translated({k: v for k, v in s.items() if k != "description"})}
            for name, s in js["properties"].items()]


def _problem(status: int) -> dict[str, Any]:
    out: dict[str, Any] = {
        "description": i18n.gettext(PROBLEM_TITLES[status]),
        "content": {"application/problem+json": {
            "schema": {"$ref": "#/components/schemas/Problem"}}}}
    if status in PROBLEM_HEADERS:
        out["headers"] = {
            name: {**h, **({"description": i18n.gettext(h["description"])}
                           if "description" in h else {})}
            for name, h in PROBLEM_HEADERS[status].items()}
    return out


def _operation(op: Operation, names: dict[Any, str]) -> dict[str, Any]:
    params = [{"name": p.name, "in": p.where, "required": p.required,
               "description": i18n.gettext(p.description), "schema": p.schema}
              for p in op.params]
    if op.query is not None:
        params += _query_params(op.query)
    ok: dict[str, Any] = {"description": i18n.gettext(op.summary)}
    if op.answer is not None:
        ref = {"$ref": f"#/components/schemas/{names[(op.answer, 'serialization')]}"}
        ok["content"] = {"application/json": {"schema": ref}}
    else:
        ok["content"] = {"application/json": {"schema": {"type": "object"}}}
    heads = {**op.ok_headers, **({} if op.public else
                                 {k: {**h, "required": True} for k, h in RATE_LIMIT.items()})}
    if heads:
        ok["headers"] = {k: {**h, "description": i18n.gettext(h["description"])}
                         for k, h in heads.items()}
    responses: dict[str, Any] = {str(op.ok): ok}
    for status, description in op.also:
        responses[str(status)] = {**ok, "description": i18n.gettext(description)}
    for status in sorted(set(op.problems)):
        responses[str(status)] = _problem(status)
        if not op.public and status not in (413,):  # 413: refused before any count
            responses[str(status)].setdefault("headers", {}).update(
                {k: {**h, "description": i18n.gettext(h["description"])}
                 for k, h in RATE_LIMIT.items()})
    out: dict[str, Any] = {"operationId": op.operation_id, "summary": i18n.gettext(op.summary),
                           "description": i18n.gettext(op.description),
                           "responses": dict(sorted(responses.items()))}
    if params:
        out["parameters"] = params
    if op.body is not None:
        ref = f"#/components/schemas/{names[(op.body(), 'validation')]}"
        out["requestBody"] = {"required": True, "content": {
            "application/json": {"schema": {"$ref": ref}}}}
    if op.csv_body is not None:
        out["requestBody"] = {"required": True, "description": i18n.gettext(op.csv_body),
                              "content": {"text/csv": {"schema": {"type": "string"}}}}
    out["security"] = [] if op.public else [{op.security: []}]
    return out


@cache
def document(lang: str) -> dict[str, Any]:
    """The OpenAPI 3.1 document in `lang` ("es" or "en")."""
    with i18n.use_language(lang):
        models = _models()
        refs, defs = models_json_schema(models, ref_template="#/components/schemas/{model}")
        names = {key: ref["$ref"].rsplit("/", 1)[1] for key, ref in refs.items()}
        components = {name: _translated(s, top=True)
                      for name, s in defs.get("$defs", {}).items()}
        paths: dict[str, dict[str, Any]] = {}
        for op in OPERATIONS:
            paths.setdefault(op.path, {})[op.method] = _operation(op, names)
        return {
            "openapi": "3.1.0",
            "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
            "info": {"title": i18n.gettext(N_("The lenders' API")), "version": "1.0.0",
                     "description": i18n.gettext(N_(
                         "A mortgage lender's loans, what to pay or retain per CRIM bill, "
                         "and batches of residential-exemption certifications (J7). "
                         "Authenticate with Authorization: Bearer and a token an "
                         "administrator of the lender creates. Errors are RFC 9457 "
                         "problems (application/problem+json) in the language of "
                         "Accept-Language (es or en; Spanish by default). Money is a "
                         "string with two decimals."))},
            "servers": [{"url": "/api/v1"}],
            "paths": paths,
            "components": {
                "schemas": components,
                "securitySchemes": {"bearer": {
                    "type": "http", "scheme": "bearer",
                    "description": i18n.gettext(N_(
                        "A token of the lender's (pdl_…), created on the organisation's "
                        "page; a read token may only read."))},
                    "staffBearer": {
                    "type": "http", "scheme": "bearer",
                    "description": i18n.gettext(N_(
                        "A staff token (pds_…) of scope plan_payments, for the CRIM's system: "
                        "an administrator creates it with portal staff-token create; it acts "
                        "as the administrator or reviewer named, while they keep the role."))}}},
            "security": [{"bearer": []}],
        }


def operations_by_id() -> dict[str, Operation]:
    return {op.operation_id: op for op in OPERATIONS}
