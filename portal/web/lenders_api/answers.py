"""What the lenders' API answers with, in every route of `/api/v1/`: RFC 9457 problems
(`application/problem+json`) in the caller's language (Accept-Language: es or en, Spanish by
default), money as a string with two decimals (never a JSON float), and the query's
parameters validated by a Pydantic model of schemas.py (or the problem naming the first
invalid one)."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any
from urllib.parse import urlencode

from flask import jsonify, make_response, request
from pydantic import ValidationError

from portal import i18n
from portal.core.explain import N_
from portal.web import upload_limits
from portal.web.lenders_api import schemas

PROBLEMS = {
    "invalid_token": (401, N_("Not authenticated"),
                      N_("Send a valid API token: the header Authorization: Bearer and the "
                         "token. A token that expired or was revoked is refused.")),
    "insufficient_scope": (403, N_("Not allowed"),
                           N_("This token may only read. Create a token that may write.")),
    "not_found": (404, N_("Not found"), N_("There is no loan of your organisation with "
                                           "this number.")),
    "batch_not_found": (404, N_("Not found"), N_("There is no batch of your organisation "
                                                 "with this number.")),
    "change_not_found": (404, N_("Not found"), N_("There is no change of your organisation's "
                                                  "portfolio with this number.")),
    "bill_file_not_made": (404, N_("Not found"), N_(
        "No bill file was made today for this fiscal year and day: make it with POST /bills, "
        "then read it here or at its address.")),
    "bill_file_not_found": (404, N_("Not found"), N_("There is no bill file of your "
                                                     "organisation with this number.")),
    "invalid_parameter": (400, N_("Invalid parameter"),
                          N_("The parameter %(name)s is not valid.")),
    "invalid_header": (400, N_("Invalid header"),
                       N_("The header %(name)s is missing or not valid.")),
    "invalid_body": (422, N_("Invalid body"),
                     N_("The body is not valid: see each field's error.")),
    "idempotency_key_reused": (409, N_("Key already used"),
                               N_("This Idempotency-Key was used with another body. Use a "
                                  "new key for a new batch.")),
    "duplicate_key": (400, N_("Duplicate key"),
                      N_("The key %(name)s appears more than once in one object of the body: "
                         "send each key once.")),
    "rate_limited": (429, N_("Too many requests"),
                     N_("Too many requests: try again in %(seconds)s seconds.")),
    "too_large": (413, N_("Body too large"),
                  N_("The body is larger than this route takes: at most %(limit)s.")),
    "http": (400, N_("Request not valid"), N_("The request cannot be answered as sent.")),
    "no_route": (404, N_("Not found"), N_("There is nothing at this address of the API: see "
                                          "its document, /api/v1/openapi.json.")),
    "method_not_allowed": (405, N_("Method not allowed"),
                           N_("This address does not take this method: the header Allow "
                              "lists the ones it takes.")),
    "forbidden": (403, N_("Not allowed"), N_("This token may not do this.")),
    "server_error": (500, N_("Server error"),
                     N_("Something went wrong on the portal's side. Try again later; the "
                        "same Idempotency-Key never files a batch twice.")),
    "staff_scope": (403, N_("Not allowed"),
                    N_("This token may not send the CRIM's file of plan payments, or the staff "
                       "member it acts for no longer decides certifications.")),
    "not_crim_file": (422, N_("Not the CRIM's file"),
                      N_("The file is not the CRIM's file of plan payments, and nothing was "
                         "recorded: %(why)s")),
    "parcel_not_found": (404, N_("Not found"), N_("None of your organisation's loans is on "
                                                  "a parcel with this catastro number.")),
}

#: The problem of each status the app answers before or around a view (errors.scope).
BY_STATUS = {401: "invalid_token", 403: "forbidden", 404: "no_route",
             405: "method_not_allowed", 409: "idempotency_key_reused", 429: "rate_limited",
             500: "server_error"}


def language() -> str:
    """The caller's language (Accept-Language: es or en; Spanish by default)."""
    return request.accept_languages.best_match(["es", "en"], default="es") or "es"


_language = language


def problem(code: str, headers: dict[str, str] | None = None,  # noqa: ANN201
            errors: Any = None, status: int | None = None, **params: Any):
    """An RFC 9457 problem in the caller's language (`type` names the kind of problem);
    `errors`: a ValidationError, each of whose errors becomes {field, detail}, or a list of
    (field, message id)."""
    default, title, detail = PROBLEMS[code]
    status = status or default
    lang = _language()
    with i18n.use_language(lang):
        body = {"type": f"https://portal.example.pr/problemas/{code.replace('_', '-')}",
                "title": i18n.gettext(title), "status": status,
                "detail": i18n.gettext(detail, **params) if params else i18n.gettext(detail)}
        if isinstance(errors, ValidationError):
            body["errors"] = schemas.field_errors(errors)
        elif errors is not None:  # [(field, message id)]
            body["errors"] = [{"field": f, "detail": i18n.gettext(m)} for f, m in errors]
    if "name" in params:
        body["field"] = params["name"]  # which parameter or header
    elif body.get("errors"):
        body["field"] = body["errors"][0]["field"]
    resp = make_response(jsonify(body), status)
    resp.mimetype = "application/problem+json"
    resp.headers["Content-Language"] = lang
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


def http_problem(code: int, headers: dict[str, str]) -> Any:
    """Any error of a request under /api (an unknown address, a method not allowed, a body
    too large, an unexpected exception...) as a problem, never the portal's HTML page
    (`portal.web.errors.scope`)."""
    headers = {k: v for k, v in headers.items() if k in ("Allow", "Retry-After")}
    if code == 413:  # the limit said, in the caller's language
        return problem("too_large", headers,
                       limit=upload_limits.size_text(upload_limits.size_of()))
    if code == 429:
        seconds = headers.get("Retry-After", "60")
        return problem("rate_limited", {"Retry-After": seconds, **headers}, seconds=seconds)
    if code >= 500:
        return problem("server_error", headers, status=code)
    return problem(BY_STATUS.get(code, "http"), headers, status=code)


class _Duplicate(Exception):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _Duplicate(key)
        seen[key] = value
    return seen


def duplicate_key(raw: bytes) -> Any:
    """The problem naming the first key a JSON body repeats in one object (JSON leaves it
    undefined, and the parser would keep the last in silence), else None (a body that is
    not JSON at all is the model's to refuse)."""
    try:
        json.loads(raw, object_pairs_hook=_no_duplicates)
    except _Duplicate as exc:
        return problem("duplicate_key", name=str(exc.args[0])[:100])
    except ValueError:
        return None
    return None


def _money(value: Decimal | None) -> str | None:
    return None if value is None else f"{value:.2f}"


def next_link(page: int, pages: int) -> str | None:
    """The address of the page after `page` (the request's own, with its other parameters),
    or None on the last page or past it."""
    if page >= pages:
        return None
    args = request.args.to_dict()
    args["page"] = str(page + 1)
    return f"{request.script_root}{request.path}?{urlencode(args)}"


def body_of(model: type[schemas.BaseModel], raw: bytes) -> Any:
    """The JSON body validated by `model`, or the problem: 400 when it is not JSON (or not
    an object), 422 naming each invalid field otherwise."""
    try:
        return model.model_validate_json(raw)
    except ValidationError as exc:
        if any(e["type"] in ("json_invalid", "json_type") for e in exc.errors()):
            return problem("invalid_body", errors=exc, status=400)
        return problem("invalid_body", errors=exc)


def parameters(model: type[schemas.BaseModel]) -> Any:
    """The query's parameters validated by `model`, or the 400 problem naming the first
    invalid one (and listing each)."""
    try:
        return model.model_validate(request.args.to_dict())
    except ValidationError as exc:
        first = schemas.field_path(tuple(exc.errors()[0]["loc"]))
        return problem("invalid_parameter", errors=exc, name=first)
