"""Staff lookup of any parcel (which opens the parcel page) and any person; the latest
payment disputes are shown on the lookup page. The roll's page starts computing and
publishing as background jobs (DESIGN.md 7); a job's page shows its progress and reloads
itself while the job runs (a Refresh header: no JavaScript).

Every staff page is `staff_required` (any staff role, read-only included); a route that
changes something is also `staff_role(...)` (docs/STAFF.md): staff without the role get 403,
and templates hide its buttons (`staff_can(...)`). The budgets' pages (`budgets.py`) and
the role form (`roles.py`) add their routes to this blueprint."""

from __future__ import annotations

from functools import wraps

from flask import (
    Blueprint,
    abort,
    flash,
    g,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required

from portal.accounts import access
from portal.accounts.errors import Conflict, NotFound
from portal.jobs import queue, runner
from portal.payments import disputes as payment_disputes
from portal.roll import notices as notices_service
from portal.roll import roll as roll_service
from portal.web.account import views
from portal.web.auth.two_factor import staff_second_factor
from portal.web.data import uow
from portal.web.staff.forms import ActionForm, LookupForm
from portal.web.staff.jobs_view import error_message, job_view

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


def staff_role(*roles: str):  # noqa: ANN201
    """`staff_required`, and 403 for staff without one of `roles` (they know the page is
    there; the services refuse too: `access.require_staff_role`)."""
    def decorate(view):  # noqa: ANN001, ANN202
        @wraps(view)
        def checked(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            if not access.has_staff_role(current_user, *roles):
                abort(403)
            return view(*args, **kwargs)
        return staff_required(checked)
    return decorate


@bp.app_context_processor
def staff_roles() -> dict:
    """`staff_can("administrator", ...)` in templates: show a button only to those who may
    press it."""
    def staff_can(*roles: str) -> bool:
        return access.has_staff_role(current_user, *roles)
    return {"staff_can": staff_can}


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
    from portal.web.staff.two_factor_reset import person_page  # (it adds a route to bp)
    g.role_panel = roles.panel(user_id)  # the person's staff role (templates/staff/_role.html)
    return person_page(user_id)


@bp.get("/tasacion")
@staff_required
def roll_page():  # noqa: ANN201
    with uow() as w:
        versions = roll_service.overview(w, current_user)
        recent = [job_view(j) for j in runner.recent(w, current_user, limit=JOBS_SHOWN)]
        sending = {r: job_view(j) for r, j in notices_service.notify_jobs(
            w, current_user, [v.roll.id for v in versions if v.roll is not None]).items()}
    return render_template("staff/roll.html", versions=versions, jobs=recent,
                           form=ActionForm(), sending=sending)


@bp.post("/tasacion/version/<id:version_id>/calcular")
@staff_role(*access.MANAGE)
def compute_roll(version_id: int):  # noqa: ANN201
    return _start("roll.compute", {"version_id": version_id})


@bp.post("/tasacion/<id:roll_id>/publicar")
@staff_role(*access.MANAGE)
def publish_roll(roll_id: int):  # noqa: ANN201
    return _start("roll.publish", {"roll_id": roll_id})


def _start(kind: str, params: dict):  # noqa: ANN202
    """Record the job (or find the one already queued or running for the same input), put
    it on the queue once recorded, and show its page."""
    if not ActionForm().validate_on_submit():
        abort(400)
    try:
        with uow() as w:
            job_id = runner.submit(w, current_user, kind, params).id
    except NotFound:
        abort(404)
    except Conflict as exc:
        flash(str(ROLL_CONFLICTS.get(exc.code) or error_message(exc.code)), "error")
        return redirect(url_for("staff.roll_page"))
    queue.enqueue_or_leave(job_id)
    return redirect(url_for("staff.job", job_id=job_id))


@bp.get("/trabajos/<id:job_id>")
@staff_required
def job(job_id: int):  # noqa: ANN201
    try:
        with uow() as w:
            view = job_view(runner.get(w, current_user, job_id))
            found = (notices_service.notify_jobs(w, current_user, [view.roll_id])
                     if view.kind_code == "roll.publish" and view.roll_id else {})
            sending = job_view(found[view.roll_id]) if found else None
    except NotFound:
        abort(404)
    response = make_response(render_template("staff/job.html", job=view, sending=sending))
    if view.active:
        response.headers["Refresh"] = str(REFRESH_SECONDS)
    return response


#: Refusals of a job's input this page explains itself (the others: jobs_view.ERRORS).
ROLL_CONFLICTS: dict[str, str] = {}
#: How many of the latest jobs the roll page lists; how often a running job's page reloads.
JOBS_SHOWN = 10
REFRESH_SECONDS = 3
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



# The budgets' pages and the role form add their routes to `bp` (imported last: they import it).
from portal.web.staff import budgets, roles  # noqa: E402, F401
