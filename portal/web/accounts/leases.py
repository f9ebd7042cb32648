"""The lessee's list of leased parcels (R-A14, R-A16), each opening the parcel page."""

from __future__ import annotations

from flask import render_template
from flask_login import current_user, login_required

from portal import clock
from portal.web.accounts import bp, views


@bp.get("/arrendamientos/")
@login_required
def leases():  # noqa: ANN201
    today = clock.today()
    own, _ = views.dashboard_rows(current_user, today, loans=False)
    rows = [r for r in own if r.relation == "lessee"]
    views.remember_lessee(bool(rows))
    return render_template("accounts/leases.html", rows=rows, today=today)
