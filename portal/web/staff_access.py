"""Who may open a staff page, for every package's staff pages (docs/STAFF.md).

Every staff page is `staff_required` (any staff role, read-only included); a route that
changes something is also `staff_role(...)`: staff without the role get 403, and templates
hide its buttons (`staff_can(...)`, a context processor). Staff pages need a session that
passed the second step of signing in (`portal.web.people.two_factor`): `staff_second_factor`
guards them, and a check before every request sends a staff user whose session is not verified
(e.g. one made before the second step existed) to the second step, or to enrolment.
`init_app` installs that check and `staff_can`.
"""

from __future__ import annotations

from functools import wraps

from flask import Flask, abort, redirect, request, session, url_for
from flask_login import current_user, login_required

from portal.accounts import access, policy
from portal.people import two_factor as service

#: The session's mark of a passed second step (the user's id).
VERIFIED = "second_factor"
#: Endpoints a staff user whose session is not verified may still open.
OPEN_TO_UNVERIFIED = frozenset({"static", "people.verify", "people.two_factor_enrol",
                                "people.sign_out", "accounts.language", "accounts.home"})


def is_verified() -> bool:
    return (current_user.is_authenticated and session.get(VERIFIED) == current_user.id
            and service.is_enrolled(current_user))


def second_step_for_staff():  # noqa: ANN201
    """None when the request may go on; else the redirect to the second step or enrolment."""
    if not current_user.is_authenticated or not current_user.is_staff or is_verified():
        return None
    nxt = request.full_path if request.method == "GET" else None
    nxt = nxt[:-1] if nxt and nxt.endswith("?") else nxt
    if not service.is_enrolled(current_user):
        return redirect(url_for("people.two_factor_enrol", next=nxt))
    return redirect(url_for("people.verify", next=nxt))


def staff_second_factor(view):  # noqa: ANN001, ANN201
    """A staff page: its staff user must have passed the second step in this session."""
    @wraps(view)
    def wrapper(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        return second_step_for_staff() or view(*args, **kwargs)
    return wrapper


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


def staff_roles() -> dict:
    """`staff_can("administrator", ...)` in templates: show a button only to those who may
    press it."""
    def staff_can(*roles: str) -> bool:
        return access.has_staff_role(current_user, *roles)
    return {"staff_can": staff_can}


#: The staff's writes whose routes read a form: the policy's action of each, asked before the
#: form is read (staff without the role get 403 and nothing is read; anyone else goes on to
#: the route, which refuses them: tests/web/test_write_matrix.py).
STAFF_WRITES = {f"collections.{e}": policy.RECORD_COLLECTION for e in (
    "start_run", "record_mailings", "record_mailing", "record_receipt", "record_claim",
    "attachments_record_notice", "attachments_record_auction", "attachments_record_result",
    "attachments_record_paid", "attachments_record_deposit_order",
    "attachments_lift_deposit_order", "correct_mailing")}
STAFF_WRITES |= {"collections.certificates_issue": policy.ISSUE_CERTIFICATE,
                 "payments.office": policy.TAKE_PAYMENT, "payments.refund": policy.TAKE_PAYMENT,
                 "people.reset_two_factor": policy.RESET_TWO_FACTOR,
                 "jobs.mail_retry": policy.RETRY_MAIL}


def _staff_sessions_are_verified():  # noqa: ANN202
    if request.endpoint is None or request.endpoint in OPEN_TO_UNVERIFIED:
        return None
    if request.method == "POST" and request.endpoint in STAFF_WRITES \
            and access.is_staff(current_user) \
            and not policy.allows(current_user, STAFF_WRITES[request.endpoint], None):
        abort(403)
    return second_step_for_staff()


def init_app(app: Flask) -> None:
    """The check before every request (after the app's own: the NUL bytes', `errors`) and
    `staff_can` in templates."""
    app.before_request(_staff_sessions_are_verified)
    app.context_processor(staff_roles)
