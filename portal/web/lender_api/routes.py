"""The lenders' JSON API, `/api/v1/` (J7): a lender's loans for a program, authenticated by
`Authorization: Bearer <token>` (an administrator's token, portal.services.lender_tokens),
never by the session cookie; CSRF-exempt (no cookie is read, so no cross-site request can
act as someone); rate-limited per token and per address (portal.services.throttle); errors
as RFC 9457 `application/problem+json`, in the caller's language (Accept-Language: es or en,
Spanish by default). Money is a string with two decimals (never a JSON float).

    GET /api/v1/loans?page=&status=&municipality=&certification=&q=&sort=&order=
                                                                     the loans, 50 a page
    GET /api/v1/loans/<loan number>            one loan, with what to pay or retain per
                                               CRIM bill in the three cases (R-B10)
"""

from __future__ import annotations

import logging
from decimal import Decimal
from typing import Any

from flask import Blueprint, g, jsonify, make_response, request

from portal import clock, i18n
from portal.core.explain import N_
from portal.services import lender_tokens, lenders, throttle
from portal.services.errors import Forbidden, NotFound
from portal.web.data import uow
from portal.web.extensions import csrf

log = logging.getLogger(__name__)

bp = Blueprint("lender_api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)

PER_TOKEN = (120, 60)  # requests a minute per token
PER_ADDRESS = (300, 60)  # and per address (unknown tokens too)

PROBLEMS = {
    "invalid_token": (401, N_("Not authenticated"),
                      N_("Send a valid API token: the header Authorization: Bearer and the "
                         "token. A token that expired or was revoked is refused.")),
    "insufficient_scope": (403, N_("Not allowed"),
                           N_("This token may only read. Create a token that may write.")),
    "not_found": (404, N_("Not found"), N_("There is no loan of your organisation with "
                                           "this number.")),
    "invalid_parameter": (400, N_("Invalid parameter"),
                          N_("The parameter %(name)s is not valid.")),
    "rate_limited": (429, N_("Too many requests"),
                     N_("Too many requests: try again in %(seconds)s seconds.")),
}


def _language() -> str:
    return request.accept_languages.best_match(["es", "en"], default="es") or "es"


def problem(code: str, headers: dict[str, str] | None = None, **params: Any):  # noqa: ANN201
    """An RFC 9457 problem in the caller's language (`type` names the kind of problem)."""
    status, title, detail = PROBLEMS[code]
    lang = _language()
    with i18n.use_language(lang):
        body = {"type": f"https://portal.example.pr/problemas/{code.replace('_', '-')}",
                "title": i18n.gettext(title), "status": status,
                "detail": i18n.gettext(detail, **params) if params else i18n.gettext(detail)}
    if "name" in params:
        body["field"] = params["name"]  # which query parameter
    resp = make_response(jsonify(body), status)
    resp.mimetype = "application/problem+json"
    resp.headers["Content-Language"] = lang
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


def _limited(w: Any, key: str, limit: tuple[int, int]) -> Any:
    if throttle.hit(w, key, *limit):
        return None
    seconds = throttle.retry_after(w, key, *limit)
    return problem("rate_limited", {"Retry-After": str(seconds)}, seconds=seconds)


@bp.before_request
def _authenticate():  # noqa: ANN202
    """The token (g.token_lender_id), or the problem that refuses the request."""
    header = request.headers.get("Authorization", "")
    scheme, _, secret = header.partition(" ")
    with uow() as w:
        refused = _limited(w, f"api-ip:{request.remote_addr}", PER_ADDRESS)
        if refused is not None:
            return refused
        try:
            tok = lender_tokens.authenticate(
                w, secret.strip() if scheme.lower() == "bearer" else None,
                write=request.method not in ("GET", "HEAD"))
        except lender_tokens.Unauthorized:
            log.info("api: token refused from %s", request.remote_addr)
            return problem("invalid_token", {"WWW-Authenticate": 'Bearer realm="api"'})
        except Forbidden:
            return problem("insufficient_scope",
                           {"WWW-Authenticate": 'Bearer error="insufficient_scope"'})
        g.token_id, g.token_lender_id = tok.id, tok.lender_id
        refused = _limited(w, f"api-token:{tok.id}", PER_TOKEN)
    return refused


def _money(value: Decimal | None) -> str | None:
    return None if value is None else f"{value:.2f}"


def _loan(r: lenders.Row) -> dict[str, Any]:
    return {"loan_number": r.loan_number, "catastro": r.catastro, "address": r.address,
            "municipality": r.municipality, "status": r.status,
            "annual_assessment": _money(r.annual), "due_now": _money(r.due_now),
            "next_due_date": r.next_due.isoformat() if r.next_due else None}


def _query() -> lenders.Query | str:
    """The query from the parameters, or the name of the first invalid one."""
    a = request.args
    page = a.get("page", "1")
    if not page.isdigit() or not 0 < int(page) < 2**31:
        return "page"
    if a.get("status", "") not in ("", *lenders.STATUSES):
        return "status"
    if a.get("sort", "loan") not in lenders.SORTS:
        return "sort"
    if a.get("order", "asc") not in ("asc", "desc"):
        return "order"
    if a.get("certification", "") not in ("", *lenders.CERTIFICATIONS):
        return "certification"
    if len(a.get("q", "")) > 40 or len(a.get("municipality", "")) > 60:
        return "q" if len(a.get("q", "")) > 40 else "municipality"
    return lenders.Query(q=a.get("q", ""), status=a.get("status", ""),
                         municipality=a.get("municipality", ""), sort=a.get("sort", "loan"),
                         certification=a.get("certification", ""),
                         desc=a.get("order") == "desc", page=int(page))


@bp.get("/loans")
def loans():  # noqa: ANN201
    query = _query()
    if isinstance(query, str):
        return problem("invalid_parameter", name=query)
    with uow() as w:
        page = lenders.portfolio(w, lenders.LenderScope(g.token_lender_id), query)
    if query.page > page.pages:
        return problem("invalid_parameter", name="page")
    return jsonify({"as_of": page.as_of.isoformat(), "page": page.page, "pages": page.pages,
                    "count": page.count,
                    "totals": {"due_now": _money(page.due_total),
                               "annual_assessment": _money(page.annual_total)},
                    "items": [_loan(r) for r in page.rows]})


@bp.get("/loans/<string:number>")
def loan(number: str):  # noqa: ANN201
    if len(number) > 40:
        return problem("not_found")
    fy = lenders.fiscal_year_start(clock.today())
    try:
        with uow() as w:
            row = lenders.loan(w, lenders.LenderScope(g.token_lender_id), number=number)
            kept = lenders.retentions(w, [row.parcel_id], fy)[row.parcel_id]
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
