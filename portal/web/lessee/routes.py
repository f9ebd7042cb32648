"""The lessee's list of leased parcels."""

from __future__ import annotations

from flask import Blueprint, render_template
from flask_login import current_user, login_required

from portal import clock
from portal.web.account import views

bp = Blueprint("lessee", __name__, url_prefix="/arrendamientos")


@bp.get("/")
@login_required
def leases():  # noqa: ANN201
    today = clock.today()
    own, _ = views.dashboard_rows(current_user, today, loans=False)
    rows = [r for r in own if r.relation == "lessee"]
    views.remember_lessee(bool(rows))
    return render_template("lessee/leases.html", rows=rows, today=today)
