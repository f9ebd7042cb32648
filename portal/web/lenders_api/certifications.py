"""Where the residential-exemption certifications of a loan's parcel stand (R-B9, R-B21):
the lender asks by catastro number (portal.lenders.certifications).

    GET /api/v1/parcels/<catastro>/certifications?fiscal_year=2026-2027
"""

from __future__ import annotations

import re
from datetime import date

from flask import g, jsonify

from portal import clock
from portal.accounts.errors import NotFound
from portal.lenders import certifications
from portal.web.data import uow
from portal.web.lenders_api import bp, schemas
from portal.web.lenders_api.answers import parameters, problem


@bp.get("/parcels/<string:catastro>/certifications")
def parcel_certifications(catastro: str):  # noqa: ANN201
    if not re.fullmatch(schemas.CATASTRO, catastro):
        return problem("parcel_not_found")
    p = parameters(schemas.CertificationsQuery)
    if not isinstance(p, schemas.CertificationsQuery):
        return p
    fy = None
    if p.fiscal_year:
        first, second = (int(x) for x in p.fiscal_year.split("-"))
        if second != first + 1 or not 1900 < first < 9999:
            return problem("invalid_parameter", name="fiscal_year")
        fy = date(first, 7, 1)
    try:
        with uow() as w:
            loans, found = certifications.of_parcel(w, g.token_lender_id, catastro,
                                                    clock.today(), fy)
    except NotFound:
        return problem("parcel_not_found")
    return jsonify({"catastro": catastro, "loan_numbers": loans, "items": [
        {"id": c.id, "fiscal_year": f"{c.fiscal_year_start.year}-{c.fiscal_year_start.year + 1}",
         "status": c.status, "filing_number": c.filing_number,
         "filed_on": c.filed_on.isoformat() if c.filed_on else None,
         "decided_at": c.decided_at.isoformat() if c.decided_at else None,
         "loan_number": c.loan_number} for c in found]})
