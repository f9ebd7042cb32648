"""Staff lookup of any parcel (which opens the parcel page) and any person; the latest
payment disputes are shown on the lookup page."""

from __future__ import annotations

from functools import wraps

from flask import Blueprint, abort, render_template, request
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required

from portal.payments import disputes as payment_disputes
from portal.web.account import views
from portal.web.auth.two_factor import staff_second_factor
from portal.web.data import uow
from portal.web.staff.forms import LookupForm

bp = Blueprint("staff", __name__, url_prefix="/personal")


def staff_required(view):  # noqa: ANN001, ANN201
    """404 (not 403) for anyone who is not staff: the page's existence is not disclosed;
    staff must have passed the second step of signing in."""
    guarded = staff_second_factor(view)

    @wraps(view)
    @login_required
    def wrapper(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        if not current_user.is_staff:
            abort(404)
        return guarded(*args, **kwargs)
    return wrapper


@bp.get("/buscar")
@staff_required
def lookup():  # noqa: ANN201
    form = LookupForm(request.args)
    parcels = people = None
    if "q" in request.args and form.validate():
        parcels, people = views.staff_search(current_user, form.q.data.strip())
    with uow() as w:
        disputes = payment_disputes.staff_disputes(w, current_user, limit=DISPUTES_SHOWN)
    return render_template("staff/lookup.html", form=form, parcels=parcels, people=people,
                           disputes=disputes, reasons=DISPUTE_REASONS,
                           statuses=DISPUTE_STATUSES)


@bp.get("/persona/<id:user_id>")
@staff_required
def person(user_id: int):  # noqa: ANN201
    p = views.staff_person(current_user, user_id)
    if p is None:
        abort(404)
    return render_template("staff/person.html", p=p)


#: How many of the latest disputes the lookup page shows.
DISPUTES_SHOWN = 20
#: Stripe's dispute reasons and statuses in the staff's words (an unknown one is shown as is).
DISPUTE_REASONS = {
    "bank_cannot_process": _l("The bank cannot process it"),
    "check_returned": _l("Check returned"),
    "credit_not_processed": _l("Refund or credit not processed"),
    "customer_initiated": _l("Started by the payer"),
    "debit_not_authorized": _l("Debit not authorized"),
    "duplicate": _l("Charged twice"),
    "fraudulent": _l("Fraud: the cardholder did not make it"),
    "general": _l("Other reason"),
    "incorrect_account_details": _l("Wrong account details"),
    "insufficient_funds": _l("Insufficient funds"),
    "product_not_received": _l("Product not received"),
    "product_unacceptable": _l("Product unacceptable"),
    "subscription_canceled": _l("Subscription canceled"),
    "unrecognized": _l("Charge not recognized"),
}
DISPUTE_STATUSES = {
    "warning_needs_response": _l("Inquiry: needs a response"),
    "warning_under_review": _l("Inquiry: under review"),
    "warning_closed": _l("Inquiry closed"),
    "needs_response": _l("Needs a response"),
    "under_review": _l("Under review"),
    "won": _l("Won"),
    "lost": _l("Lost"),
    "prevented": _l("Prevented"),
}

