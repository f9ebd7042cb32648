"""The API's portfolio kept by the bank and its bill file.

    POST /api/v1/loan-changes          {"changes": [...]}, Idempotency-Key: 201 (200 again)
    GET  /api/v1/loan-changes          the lender's changes (files, API requests, the page's
                                       single changes), newest first, 50 a page
    GET  /api/v1/loan-changes/<id>     one, with its rows' outcomes, 50 a page
    GET  /api/v1/bills?fiscal_year=&due_by=&page=   the bill file of today for that year
                                       and day (made on the first request of the day, then
                                       the same file), 50 lines a page

A POST's rows are processed in the request (up to 1,000: the same service and reasons as
the add/delete CSV, `portal.lenders.loan_changes`); the same key and body answer the same
change (200), another body 409.
"""

from __future__ import annotations

import re
from typing import Any

from flask import g, jsonify, request, url_for
from pydantic import ValidationError
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from portal import i18n
from portal.accounts.errors import Conflict, InvalidInput, NotFound
from portal.lenders import bills, loan_changes, tokens
from portal.models import LoanChangeFile
from portal.web.data import uow
from portal.web.lenders_api import bp, schemas
from portal.web.lenders_api.answers import _language, _money, duplicate_key, parameters, problem

PER_PAGE = 50


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
                again = w.session.scalar(select(LoanChangeFile.id).where(
                    LoanChangeFile.lender_id == tok.lender_id,
                    LoanChangeFile.idempotency_key == key)) is not None
                f = loan_changes.submit(w, tok, rows, source="api", idempotency_key=key,
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


@bp.get("/bills")
def bill_lines():  # noqa: ANN201
    p = parameters(schemas.BillsQuery)
    if not isinstance(p, schemas.BillsQuery):
        return p
    try:
        with uow() as w:
            tok = tokens.authenticated(w, g.token_id)
            f = bills.make(w, tok, fiscal_year=p.fiscal_year or None, due_by=p.due_by,
                           reuse=True)
            page = bills.lines_page(w, tok, f.id, bills.Filters(), p.page)
            label = bills.fiscal_year_label(w, f)
            answer = {
                "file_id": f.id, "fiscal_year": label,
                "due_by": f.due_by.isoformat() if f.due_by else None,
                "as_of": f.as_of.isoformat(), "count": page.count,
                "total": _money(page.total), "page": p.page, "pages": page.pages,
                "items": [{"loan_number": ln.loan_number, "catastro": ln.catastro,
                           "through_installment": ln.through, "amount_due": _money(ln.amount),
                           "last_timely_day": ln.last_timely_day.isoformat()
                           if ln.last_timely_day else None,
                           "lump_sum": _money(ln.lump_sum),
                           "lump_sum_by": ln.lump_sum_by.isoformat() if ln.lump_sum_by
                           else None} for ln in page.lines]}
    except InvalidInput as exc:
        return problem("invalid_parameter", name=str(exc.params.get("field") or "fiscal_year"))
    if p.page > answer["pages"]:
        return problem("invalid_parameter", name="page")
    return jsonify(answer)
