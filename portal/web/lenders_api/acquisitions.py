"""The API's report of an acquisition of a new structure (R-B10 case iii, R-B21): a write
token of the lender tells that a loan's parcel was bought after January 1 with a
certification; the answer carries the 30-day notice deadline, rolled to a business day
(portal.lenders.acquisitions, the loan page's own path).

    POST /api/v1/loans/<loan number>/acquisitions   {"acquired_on": "YYYY-MM-DD"}: 201
"""

from __future__ import annotations

import re
from typing import Any

from flask import g, jsonify, request

from portal import clock
from portal.accounts.errors import InvalidInput, NotFound
from portal.core.explain import N_
from portal.lenders import acquisitions, tokens
from portal.web.data import uow
from portal.web.lenders_api import bp, schemas
from portal.web.lenders_api.answers import body_of, duplicate_key, problem

#: The service's refusals (InvalidInput codes), in the loan page's words.
REFUSALS = {
    "future": N_("The date cannot be later than today."),
    "before_law": N_("The date cannot be before the law that governs this notice took "
                     "effect (30 August 1991)."),
    "certification": N_("This certification is not of this loan's parcel."),
}


def _refused(exc: InvalidInput) -> Any:
    field = str(exc.params.get("field") or "acquired_on")
    return problem("invalid_body", name=field,
                   errors=[(field, REFUSALS.get(exc.code, schemas.INVALID))])


@bp.post("/loans/<string:number>/acquisitions")
def report_acquisition(number: str):  # noqa: ANN201
    """R-B10 (iii), R-B21: the acquisition, with its notice deadline."""
    if not re.fullmatch(schemas.LOAN_NUMBER, number):
        return problem("not_found")
    repeated = duplicate_key(request.get_data())
    if repeated is not None:
        return repeated
    body = body_of(schemas.AcquisitionIn, request.get_data())
    if not isinstance(body, schemas.AcquisitionIn):
        return body
    try:
        with uow() as w:
            tok = tokens.authenticated(w, g.token_id)
            row = acquisitions.report(w, tok, number, acquired_on=body.acquired_on,
                                             certification_id=body.certification_id)
            due = acquisitions.deadline(w, row.acquired_on, clock.today())
            answer = {"id": row.id, "loan_number": number, "acquired_on":
                      row.acquired_on.isoformat(), "certification_id": row.certification_id,
                      "reported_at": row.reported_at.isoformat(),
                      "notice_deadline": {"last_day": due.last_day.isoformat(),
                                          "days_left": due.days_left,
                                          "overdue": due.overdue}}
    except NotFound:
        return problem("not_found")
    except InvalidInput as exc:
        return _refused(exc)
    resp = jsonify(answer)
    resp.status_code = 201
    return resp
