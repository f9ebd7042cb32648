"""The lenders' JSON API, `/api/v1/` (J7): a lender's loans for a program, authenticated by
`Authorization: Bearer <token>` (an administrator's token, portal.lenders.tokens),
never by the session cookie; CSRF-exempt (no cookie is read, so no cross-site request can
act as someone); rate-limited per token and per address (portal.accounts.throttle); errors
as RFC 9457 `application/problem+json`, in the caller's language (Accept-Language: es or en,
Spanish by default). Money is a string with two decimals (never a JSON float).

    GET /api/v1/loans?page=&status=&municipality=&certification=&q=&sort=&order=
                                                                     the loans, 50 a page
    GET /api/v1/loans/<loan number>            one loan, with what to pay or retain per
                                               CRIM bill in the three cases (R-B10)
    POST /api/v1/certification-batches, GET .../<id>, GET .../<id>/rows   (batches.py)
    POST /api/v1/loans/<loan number>/acquisitions                    (acquisitions.py)
    GET /api/v1/openapi.json, GET /api/v1/docs  the OpenAPI 3.1 document and its page,
                                               public (reference.py)

Parameters and bodies are validated by the Pydantic models of schemas.py, the same ones the
OpenAPI document is made from (openapi.py); problems, money and parameters are answered the
same way everywhere (answers.py).
"""

from __future__ import annotations

import logging
import re
from typing import Any

from flask import g, jsonify, request

from portal import clock
from portal.accounts.errors import Forbidden, NotFound
from portal.lenders import portfolio, tokens
from portal.web import errors
from portal.web.data import uow
from portal.web.lenders_api import bp, schemas
from portal.web.lenders_api.answers import (
    _money,
    http_problem,
    next_link,
    parameters,
    problem,
)
from portal.web.lenders_api.quotas import limited, rate_limit_headers

log = logging.getLogger(__name__)

PER_TOKEN = (120, 60)  # requests a minute per token
PER_ADDRESS = (300, 60)  # and per address (unknown tokens too)

#: Answered without a token (the API's description).
PUBLIC = {"lenders_api.openapi", "lenders_api.reference"}



@bp.before_request
def _authenticate():  # noqa: ANN202
    """The token (g.token_lender_id), or the problem that refuses the request."""
    if request.endpoint in PUBLIC:
        return None
    header = request.headers.get("Authorization", "")
    scheme, _, secret = header.partition(" ")
    with uow() as w:
        refused = limited(w, "address", f"api-ip:{request.remote_addr}", PER_ADDRESS)
        if refused is not None:
            return refused
        try:
            tok = tokens.authenticate(
                w, secret.strip() if scheme.lower() == "bearer" else None,
                write=request.method not in ("GET", "HEAD"))
        except tokens.Unauthorized:
            log.info("api: token refused from %s", request.remote_addr)
            return problem("invalid_token", {"WWW-Authenticate": 'Bearer realm="api"'})
        except Forbidden:
            return problem("insufficient_scope",
                           {"WWW-Authenticate": 'Bearer error="insufficient_scope"'})
        g.token_id, g.token_lender_id = tok.id, tok.lender_id
        refused = limited(w, "token", f"api-token:{tok.id}", PER_TOKEN)
    return refused


bp.after_request(rate_limit_headers)


@bp.record_once
def _problems(_state) -> None:  # noqa: ANN001
    """Every error under /api is a problem (404, 405, 413, 429, 500...), not a page."""
    errors.scope("/api/", http_problem)


@bp.errorhandler(tokens.Unauthorized)
def _token_gone(_exc: Exception):  # noqa: ANN202
    """A token revoked or expired between the request's check and its work."""
    return problem("invalid_token", {"WWW-Authenticate": 'Bearer realm="api"'})


def _loan(r: portfolio.Row) -> dict[str, Any]:
    return {"loan_number": r.loan_number, "catastro": r.catastro, "address": r.address,
            "municipality": r.municipality, "status": r.status,
            "annual_assessment": _money(r.annual), "due_now": _money(r.due_now),
            "due_now_by": r.due_now_by.isoformat() if r.due_now_by else None,
            "next_due_date": r.next_due.isoformat() if r.next_due else None}


def _query() -> Any:
    """The portfolio's query from the parameters (schemas.LoansQuery), or the problem."""
    p = parameters(schemas.LoansQuery)
    if not isinstance(p, schemas.LoansQuery):
        return p
    return portfolio.Query(q=p.q, status=p.status, municipality=p.municipality, sort=p.sort,
                         certification=p.certification, desc=p.order == "desc", page=p.page)


@bp.get("/loans")
def loans():  # noqa: ANN201
    query = _query()
    if not isinstance(query, portfolio.Query):
        return query
    with uow() as w:
        page = portfolio.portfolio(w, portfolio.LenderScope(g.token_lender_id), query)
    past = query.page > page.pages  # a page past the last is empty (its number is valid)
    return jsonify({"as_of": page.as_of.isoformat(), "page": query.page, "pages": page.pages,
                    "count": page.count, "total": page.count,
                    "next": next_link(query.page, page.pages),
                    "totals": {"due_now": _money(page.due_total),
                               "annual_assessment": _money(page.annual_total)},
                    "items": [] if past else [_loan(r) for r in page.rows]})


@bp.get("/loans/<string:number>")
def loan(number: str):  # noqa: ANN201
    if not re.fullmatch(schemas.LOAN_NUMBER, number):
        return problem("not_found")
    fy = portfolio.fiscal_year_start(clock.today())
    try:
        with uow() as w:
            row = portfolio.loan(w, portfolio.LenderScope(g.token_lender_id), number=number)
            kept = portfolio.retentions(w, [row.parcel_id], fy)[row.parcel_id]
    except NotFound:
        return problem("not_found")
    return jsonify({**_loan(row), "as_of": clock.today().isoformat(),
                    "retention": _retention(kept, fy)})


def _retention(r: Any, fy: Any) -> dict[str, Any] | None:
    """R-B10 per CRIM bill (core.lender.retention); None without the CRIM's facts."""
    if r is None:
        return None
    return {"fiscal_year": f"{fy.year}-{fy.year + 1}", "rules": ["R-B10"],
            "bills": [{"issued_on": b.issued_on.isoformat(),
                       "billed_with_exemption": _money(b.billed_with),
                       "billed_without_exemption": _money(b.billed_without),
                       "prepayment_discount": _money(b.with_exemption.discount),
                       "pay_billed_with_exemption": _money(b.with_exemption.amount),
                       "pay_billed_without_exemption": _money(b.without_exemption.amount),
                       "retain_new_structure": _money(b.new_structure)} for b in r.bills]}

