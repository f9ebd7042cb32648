"""The CRIM's file of plan payments sent by the CRIM's system (R-B16; docs/EXEMPTION.md).

    POST /api/v1/crim/plan-payments   body: the CSV file (Content-Type: text/csv), the same
                                      columns as the staff's upload; answer: the report

Authenticated by `Authorization: Bearer <token>` with a **staff API token** of scope
`plan_payments` (`portal.exemptions.staff_tokens`: it acts as the administrator or reviewer
it was made for, who must still have that role), never by the session cookie; 401
`invalid_token` without a valid one (a lender's token is not one), 403 `insufficient_scope`
for a token of another scope or whose staff member lost the role. Rate-limited per token
and per address as the lenders' API is. Problems in the caller's language
(Accept-Language), from `portal.web.lenders_api.answers`.

The body is streamed to a temporary file and imported row by row, as the staff's upload
is (`portal.web.exemptions.plan_file.run_import`): the same file twice records nothing new,
so the CRIM's system may send again after a timeout.
"""

from __future__ import annotations

import logging

from flask import g, jsonify, request

from portal import i18n
from portal.accounts import audit
from portal.accounts.errors import Forbidden
from portal.exemptions import plan_import, staff_tokens
from portal.web import errors, upload_limits
from portal.web.crim_api import bp
from portal.web.data import uow
from portal.web.exemptions.plan_file import MAX_BYTES, ROW_REASONS, file_problem, run_import
from portal.web.lenders_api.answers import http_problem, language, problem
from portal.web.lenders_api.quotas import limited, rate_limit_headers

log = logging.getLogger(__name__)

PER_TOKEN = (60, 60)  # requests a minute per token
PER_ADDRESS = (300, 60)  # and per address (unknown tokens too)
SCOPE = "plan_payments"


@bp.record_once
def _install(state) -> None:  # noqa: ANN001
    upload_limits.register(state.app, "crim_api.plan_payments", MAX_BYTES, "file")
    errors.scope("/api/", http_problem)



@bp.before_request
def _authenticate():  # noqa: ANN202
    """The staff member the token acts as (g.crim_staff), or the problem."""
    header = request.headers.get("Authorization", "")
    scheme, _, secret = header.partition(" ")
    with uow() as w:
        refused = limited(w, "address", f"crim-ip:{request.remote_addr}", PER_ADDRESS)
        if refused is not None:
            return refused
        try:
            tok, user = staff_tokens.authenticate(
                w, secret.strip() if scheme.lower() == "bearer" else None, SCOPE)
        except staff_tokens.Unauthorized:
            log.info("crim api: token refused from %s", request.remote_addr)
            return problem("invalid_token", {"WWW-Authenticate": 'Bearer realm="crim"'})
        except Forbidden:
            return problem("staff_scope",
                           {"WWW-Authenticate": 'Bearer error="insufficient_scope"'})
        w.session.expunge(user)  # the staff member, read with the token, for the request
        g.crim_token_id, g.crim_staff = tok.id, user
        return limited(w, "token", f"crim-token:{tok.id}", PER_TOKEN)


bp.after_request(rate_limit_headers)


@bp.post("/plan-payments")
def plan_payments():  # noqa: ANN201
    """Each good row recorded as its plan's entry; the report (counts and refused rows)."""
    kind = (request.mimetype or "").lower()
    if kind not in ("text/csv", "text/plain", "application/octet-stream"):
        return problem("invalid_header", name="Content-Type")
    staff = g.crim_staff
    actor = audit.Actor(kind="user", ip=request.remote_addr, user_id=staff.id)
    try:
        with audit.acting(actor):
            report = run_import(staff, request.stream,
                                {"source": "api", "token_id": g.crim_token_id})
    except plan_import.FileProblem as exc:
        with i18n.use_language(language()):
            why = file_problem(exc)
        return problem("not_crim_file", why=why)
    except Forbidden:
        return problem("staff_scope")
    body = report.as_dict()
    with i18n.use_language(language()):
        for p in body["problems"]:
            p["detail"] = i18n.translate(ROW_REASONS[p["code"]])
    return jsonify({**body, "listed_at_most": plan_import.LISTED, "rules": ["R-B16"]})
