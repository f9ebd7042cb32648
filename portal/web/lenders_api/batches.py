"""The API's batches of residential-exemption certifications (J7, R-B9, R-B10): the same
batches as the CSV upload's (portal.lenders.batches), filed by a write token.

    POST /api/v1/certification-batches            {"rows": [...]}, Idempotency-Key: 202
    GET  /api/v1/certification-batches/<id>       its status and counts
    GET  /api/v1/certification-batches/<id>/rows  the per-row report, 50 a page

Idempotency: the key and the SHA-256 of the validated body (canonical JSON: keys sorted, no
spaces) are kept with the batch; the same key with the same body answers the same batch
(200), with another body 409, and a body sent again under a new key is a new batch whose
rows the service finds already filed ("duplicate", R-B9's one certification per loan,
parcel and fiscal year).
"""

from __future__ import annotations

import re
from typing import Any

from flask import g, jsonify, request, url_for
from pydantic import ValidationError
from sqlalchemy.exc import IntegrityError

from portal import i18n
from portal.accounts.errors import Conflict, NotFound
from portal.jobs import queue
from portal.lenders import batches, tokens
from portal.models import LenderApiToken, LenderBatch
from portal.web import upload_limits
from portal.web.data import uow
from portal.web.lenders_api import bp, schemas
from portal.web.lenders_api.answers import (
    _language,
    _money,
    duplicate_key,
    next_link,
    parameters,
    problem,
)

#: A batch of 1,000 rows is about 1 MiB of JSON; the app's limit for forms is lower.
MAX_BODY = 16 * 1024 * 1024
PER_PAGE = 50


@bp.record_once
def _install(state) -> None:  # noqa: ANN001
    """The app's size limit (MAX_CONTENT_LENGTH) is for forms: a batch may be larger; one
    over MAX_BODY is a 413 problem that says the limit (`upload_limits`)."""
    upload_limits.register(state.app, "lenders_api.submit_batch", MAX_BODY, "file")


def _token(w: Any) -> LenderApiToken:
    return tokens.authenticated(w, g.token_id)


def _batch(b: LenderBatch) -> dict[str, Any]:
    return {"id": b.id, "status": b.status, "source": b.source,
            "created_at": b.created_at.isoformat(),
            "counts": {"rows": b.total, "processed": b.processed, "accepted": b.accepted,
                       "rejected": b.rejected, "duplicate": b.duplicates},
            "rows_url": url_for("lenders_api.batch_rows", batch_id=b.id)}


def _row(r: Any, filings: dict[int, str]) -> dict[str, Any]:
    return {"row_number": r.row_number, "loan_number": r.loan_number or None,
            "catastro": r.catastro or None, "fiscal_year": r.fiscal_year or None,
            "outcome": r.outcome, "column": r.error_column,
            "reason": batches.reason_text(r) or None,
            "exemption": _money(r.exemption_amount), "tax_with_exemption": _money(r.net_tax),
            "filing_number": filings.get(r.certification_id) if r.certification_id else None}


@bp.post("/certification-batches")
def submit_batch():  # noqa: ANN201
    """R-B9: a batch of certifications, processed in the background (the CSV's job)."""
    key = request.headers.get("Idempotency-Key")
    if key is None or not re.fullmatch(schemas.IDEMPOTENCY_KEY, key):
        return problem("invalid_header", name="Idempotency-Key")
    repeated = duplicate_key(request.get_data())
    if repeated is not None:
        return repeated
    try:
        body = schemas.batch_model().model_validate_json(request.get_data())
    except ValidationError as exc:
        if any(e["type"] in ("json_invalid", "json_type") for e in exc.errors()):
            return problem("invalid_body", errors=exc, status=400)
        return problem("invalid_body", errors=exc)
    rows = [r.model_dump() for r in body.rows]  # type: ignore[attr-defined]
    for attempt in (1, 2):
        try:
            with uow() as w:
                tok = _token(w)
                # the key's batch found by `filed` itself (a read before it could miss one
                # committed in between, and answer 202 twice)
                batch, again = batches.filed(w, tok, rows, source="api", idempotency_key=key,
                                             body_hash=batches.body_hash_of(rows))
                answer, job_id = _batch(batch), batch.job_id
        except Conflict as exc:
            if exc.code == "idempotency_key_reused":
                return problem("idempotency_key_reused")
            raise
        except IntegrityError:
            # The same key at the same instant: the other request's batch was recorded
            # first (the unique key refused this one, nothing kept). Asked again, `submit`
            # finds it: its answer (200) or, for another body, 409. Never a 500.
            if attempt == 2:
                raise
            continue
        break
    if not again and job_id is not None:
        queue.enqueue_or_leave(job_id)
    resp = jsonify(answer)
    resp.status_code = 200 if again else 202
    resp.headers["Location"] = url_for("lenders_api.batch", batch_id=answer["id"])
    return resp


@bp.get("/certification-batches")
def list_batches():  # noqa: ANN201
    """The lender's batches, newest first, 50 a page, with how many in all and the next
    page's address."""
    p = parameters(schemas.BatchesQuery)
    if not isinstance(p, schemas.BatchesQuery):
        return p
    with uow() as w:
        found, total = batches.listed(w, _token(w), status=p.status or None,
                                      offset=(p.page - 1) * PER_PAGE, limit=PER_PAGE)
        items = [_batch(b) for b in found]
    pages = max(1, -(-total // PER_PAGE))
    return jsonify({"page": p.page, "pages": pages, "total": total,
                    "next": next_link(p.page, pages), "items": items})


@bp.get("/certification-batches/<int:batch_id>")
def batch(batch_id: int):  # noqa: ANN201
    if not 0 < batch_id < 2**31:
        return problem("batch_not_found")
    try:
        with uow() as w:
            answer = _batch(batches.get(w, _token(w), batch_id))
    except NotFound:
        return problem("batch_not_found")
    return jsonify(answer)


@bp.get("/certification-batches/<int:batch_id>/rows")
def batch_rows(batch_id: int):  # noqa: ANN201
    if not 0 < batch_id < 2**31:
        return problem("batch_not_found")
    p = parameters(schemas.RowsQuery)
    if not isinstance(p, schemas.RowsQuery):
        return p
    try:
        with uow() as w, i18n.use_language(_language()):
            rows = batches.rows_page(w, _token(w), batch_id, outcome=p.outcome or None,
                                            offset=(p.page - 1) * PER_PAGE, limit=PER_PAGE)
            total = batches.rows_count(w, _token(w), batch_id, outcome=p.outcome or None)
            filings = batches.filing_numbers(w, rows)
            items = [_row(r, filings) for r in rows]
    except NotFound:
        return problem("batch_not_found")
    pages = max(1, -(-total // PER_PAGE))
    return jsonify({"batch_id": batch_id, "page": p.page, "pages": pages, "total": total,
                    "next": next_link(p.page, pages), "items": items})
