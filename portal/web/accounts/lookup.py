"""Staff lookup of any parcel (which opens the parcel page) and any person (which opens the
person's page, `portal.web.people.person`); the latest payment disputes are shown on the
lookup page. 404 for anyone who is not staff (`staff_required`)."""

from __future__ import annotations

from flask import render_template, request
from flask_babel import lazy_gettext as _l
from flask_login import current_user

from portal.payments import disputes as payment_disputes
from portal.web.accounts import bp, views
from portal.web.accounts.forms import LookupForm
from portal.web.data import uow
from portal.web.staff_access import staff_required


@bp.get("/personal/buscar")
@staff_required
def lookup():  # noqa: ANN201
    form = LookupForm(request.args)
    parcels = people = None
    if "q" in request.args and form.validate():
        parcels, people = views.staff_search(current_user, form.q.data.strip())
    with uow() as w:
        disputes = payment_disputes.staff_disputes(w, current_user, limit=DISPUTES_SHOWN)
    return render_template("accounts/lookup.html", form=form, parcels=parcels, people=people,
                           disputes=disputes, reasons=DISPUTE_REASONS,
                           statuses=DISPUTE_STATUSES)


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
