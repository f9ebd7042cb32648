"""The lender's list of its loans' parcels (only for users of a lender organisation)."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request
from flask_login import current_user, login_required

from portal import clock
from portal.web.account import views

bp = Blueprint("lender", __name__, url_prefix="/prestamista")

@bp.get("/prestamos")
@login_required
def loans():  # noqa: ANN201
    if not current_user.is_lender:
        abort(404)
    page = max(1, request.args.get("page", 1, type=int) or 1)
    if page > views.LAST_LOAN_PAGE:
        abort(404)
    today = clock.today()
    rows, total = views.lender_rows(current_user, today, page)
    pages = max(1, -(-total // views.LOANS_PER_PAGE))
    if page > pages:
        abort(404)
    return render_template("lender/loans.html", rows=rows, today=today, page=page,
                           pages=pages, total=total)
