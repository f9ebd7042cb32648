"""The API's portfolio kept by the bank and its bill file.

    POST /api/v1/loan-changes          {"changes": [...]}, Idempotency-Key: 201 (200 again)
    GET  /api/v1/loan-changes          the lender's changes (files, API requests, the page's
                                       single changes), newest first, 50 a page
    GET  /api/v1/loan-changes/<id>     one, with its rows' outcomes, 50 a page
    POST /api/v1/bills                 {"fiscal_year", "due_by"}: the bill file of today for
                                       that year and day, made (201) or the one already
                                       made today (200); Location: its address
    GET  /api/v1/bills?fiscal_year=&due_by=&page=   that file's lines, read only (404 when
                                       none was made today), 50 lines a page
    GET  /api/v1/bills/<id>?page=      a kept file's lines, 50 a page

A POST's rows are processed in the request (up to 1,000: the same service and reasons as
the add/delete CSV, `portal.lenders.loan_changes`); the same key and body answer the same
change (200), another body 409.
"""

from __future__ import annotations

import re
from typing import Any

from flask import g, jsonify, request, url_for
from pydantic import ValidationError
from sqlalchemy.exc import IntegrityError

from portal import i18n
from portal.accounts.errors import Conflict, InvalidInput, NotFound
from portal.core.explain import N_
from portal.lenders import bills, loan_changes, tokens
from portal.web.data import uow
from portal.web.lenders_api import bp, schemas
from portal.web.lenders_api.answers import (
    _language,
    _money,
    body_of,
    duplicate_key,
    parameters,
    problem,
)

PER_PAGE = 50
#: The bill file's refusals (InvalidInput codes), in the file page's words.
BILL_REFUSALS = {"unknown_fiscal_year": N_("There is no such fiscal year."),
                 "due_by_outside": N_("The due date must be within the fiscal year.")}


def _file(f: Any) -> dict[str, Any]:
    return {"id": f.id, "source": f.source, "status": f.status,
            "created_at": f.created_at.isoformat(),
            "counts": {"rows": f.total, "processed": f.processed, "done": f.done,
                       "rejected": f.rejected, "unchanged": f.unchanged}}


def _row(r: Any) -> dict[str, Any]:
    raw = r.raw_values or {}
    return {"row_number": r.row_number, "action": raw.get("action") or None,
            "loan_number": raw.get("loan_number") or None,
            "catastro": raw.get("catastro") or None, "outcome": loan_changes.what(r) or None,
            "column": r.error_column, "reason": loan_changes.reason_text(r) or None}


def _with_rows(w: Any, tok: Any, f: Any, page: int) -> dict[str, Any] | None:
    rows, count = loan_changes.rows_page(w, tok, f.id, offset=(page - 1) * PER_PAGE,
                                         limit=PER_PAGE)
    pages = max(1, -(-count // PER_PAGE))
    if page > pages:
        return None
    return {**_file(f), "page": page, "pages": pages, "items": [_row(r) for r in rows]}


@bp.post("/loan-changes")
def submit_loan_changes():  # noqa: ANN201
    key = request.headers.get("Idempotency-Key")
    if key is None or not re.fullmatch(schemas.IDEMPOTENCY_KEY, key):
        return problem("invalid_header", name="Idempotency-Key")
    repeated = duplicate_key(request.get_data())
    if repeated is not None:
        return repeated
    try:
        body = schemas.LoanChangesIn.model_validate_json(request.get_data())
    except ValidationError as exc:
        if any(e["type"] in ("json_invalid", "json_type") for e in exc.errors()):
            return problem("invalid_body", errors=exc, status=400)
        return problem("invalid_body", errors=exc)
    rows = [c.model_dump() for c in body.changes]
    digest = loan_changes.body_hash_of(rows)
    for attempt in (1, 2):
        try:
            with uow() as w, i18n.use_language(_language()):
                tok = tokens.authenticated(w, g.token_id)
                # the key's file found by `filed` itself (a read before it could miss one
                # committed in between, and answer 201 twice)
                f, again = loan_changes.filed(w, tok, rows, source="api", idempotency_key=key,
                                              body_hash=digest)
                answer = _with_rows(w, tok, f, 1)
                answer["items"] = [_row(r) for r in loan_changes.rows_page(
                    w, tok, f.id, limit=loan_changes.MAX_API_ROWS)[0]]
        except Conflict as exc:
            if exc.code == "idempotency_key_reused":
                return problem("idempotency_key_reused")
            raise
        except IntegrityError:  # the same key at the same instant: the other one won
            if attempt == 2:
                raise
            continue
        break
    resp = jsonify(answer)
    resp.status_code = 200 if again else 201
    resp.headers["Location"] = url_for("lenders_api.loan_change", change_id=answer["id"])
    return resp


@bp.get("/loan-changes")
def loan_changes_list():  # noqa: ANN201
    p = parameters(schemas.FilesQuery)
    if not isinstance(p, schemas.FilesQuery):
        return p
    with uow() as w:
        found, count = loan_changes.files(w, tokens.authenticated(w, g.token_id),
                                          offset=(p.page - 1) * PER_PAGE, limit=PER_PAGE)
        items = [_file(f) for f in found]
    pages = max(1, -(-count // PER_PAGE))
    if p.page > pages:
        return problem("invalid_parameter", name="page")
    return jsonify({"page": p.page, "pages": pages, "count": count, "items": items})


@bp.get("/loan-changes/<int:change_id>")
def loan_change(change_id: int):  # noqa: ANN201
    if not 0 < change_id < 2**31:
        return problem("change_not_found")
    p = parameters(schemas.FilesQuery)
    if not isinstance(p, schemas.FilesQuery):
        return p
    try:
        with uow() as w, i18n.use_language(_language()):
            tok = tokens.authenticated(w, g.token_id)
            answer = _with_rows(w, tok, loan_changes.get(w, tok, change_id), p.page)
    except NotFound:
        return problem("change_not_found")
    if answer is None:
        return problem("invalid_parameter", name="page")
    return jsonify(answer)


def _bill_page(w: Any, tok: Any, f: Any, page: int) -> dict[str, Any] | None:
    """A page of a kept bill file's lines (None past the last page)."""
    found = bills.lines_page(w, tok, f.id, bills.Filters(), page)
    if page > found.pages:
        return None
    return {
        "file_id": f.id, "fiscal_year": bills.fiscal_year_label(w, f),
        "due_by": f.due_by.isoformat() if f.due_by else None,
        "as_of": f.as_of.isoformat(), "count": found.count,
        "total": _money(found.total), "page": page, "pages": found.pages,
        "items": [{"loan_number": ln.loan_number, "catastro": ln.catastro,
                   "through_installment": ln.through, "amount_due": _money(ln.amount),
                   "last_timely_day": ln.last_timely_day.isoformat()
                   if ln.last_timely_day else None,
                   "lump_sum": _money(ln.lump_sum),
                   "lump_sum_by": ln.lump_sum_by.isoformat() if ln.lump_sum_by else None}
                  for ln in found.lines]}


@bp.post("/bills")
def make_bill_file():  # noqa: ANN201
    """Make the bill file of today for a fiscal year and day (201), or answer the one
    already made today (200): its first page, its address in Location."""
    repeated = duplicate_key(request.get_data())
    if repeated is not None:
        return repeated
    raw = request.get_data() or b"{}"
    body = body_of(schemas.BillsIn, raw)
    if not isinstance(body, schemas.BillsIn):
        return body
    try:
        with uow() as w:
            tok = tokens.authenticated(w, g.token_id)
            found = bills.todays(w, tok, fiscal_year=body.fiscal_year or None,
                                 due_by=body.due_by, lock=True)
            f = found or bills.make(w, tok, fiscal_year=body.fiscal_year or None,
                                    due_by=body.due_by)
            answer = _bill_page(w, tok, f, 1)
    except InvalidInput as exc:
        field = str(exc.params.get("field") or "fiscal_year")
        return problem("invalid_body", name=field, errors=[(field, BILL_REFUSALS.get(
            exc.code, schemas.INVALID))])
    resp = jsonify(answer)
    resp.status_code = 200 if found is not None else 201
    resp.headers["Location"] = url_for("lenders_api.bill_file", file_id=answer["file_id"])
    return resp


@bp.get("/bills")
def bill_lines():  # noqa: ANN201
    """The lines of the bill file made today for the year and day (`POST /bills`): read
    only; 404 when none was made."""
    p = parameters(schemas.BillsQuery)
    if not isinstance(p, schemas.BillsQuery):
        return p
    try:
        with uow() as w:
            tok = tokens.authenticated(w, g.token_id)
            f = bills.todays(w, tok, fiscal_year=p.fiscal_year or None, due_by=p.due_by)
            if f is None:
                return problem("bill_file_not_made")
            answer = _bill_page(w, tok, f, p.page)
    except InvalidInput as exc:
        return problem("invalid_parameter", name=str(exc.params.get("field") or "fiscal_year"))
    if answer is None:
        return problem("invalid_parameter", name="page")
    return jsonify(answer)


@bp.get("/bills/<int:file_id>")
def bill_file(file_id: int):  # noqa: ANN201
    """One kept bill file's lines, 50 a page (the same on every request)."""
    if not 0 < file_id < 2**31:
        return problem("bill_file_not_found")
    p = parameters(schemas.FilesQuery)
    if not isinstance(p, schemas.FilesQuery):
        return p
    try:
        with uow() as w:
            tok = tokens.authenticated(w, g.token_id)
            answer = _bill_page(w, tok, bills.get(w, tok, file_id), p.page)
    except NotFound:
        return problem("bill_file_not_found")
    if answer is None:
        return problem("invalid_parameter", name="page")
    return jsonify(answer)
