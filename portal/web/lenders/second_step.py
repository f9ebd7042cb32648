"""A lender's administrators use two-step verification: they create API tokens,
invite users and change roles, so before any lender page (`/prestamista/...`, the lenders'
and the exemptions' lender pages) a session of an administrator that has not passed the
second step is sent to set it up (not enrolled) or to pass it (enrolled), and comes back to
the page it asked for. A clerk is not asked; accepting an invitation is open (the new
administrator is asked at the next page)."""

from __future__ import annotations

from flask import flash, redirect, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from portal.lenders import tokens as org
from portal.people import two_factor
from portal.web.data import uow
from portal.web.lenders import bp
from portal.web.staff_access import is_verified

PREFIX = "/prestamista"
#: Lender pages an administrator whose session is not verified may still open.
OPEN = frozenset({"lenders.invitation"})


@bp.before_app_request
def _administrators_use_two_steps():  # noqa: ANN202
    if not (request.path == PREFIX or request.path.startswith(PREFIX + "/")):
        return None
    if request.endpoint is None or request.endpoint in OPEN:
        return None
    if not current_user.is_authenticated or current_user.is_staff or is_verified():
        return None
    with uow() as w:
        if not org.is_administrator(w, current_user):
            return None
    nxt = request.full_path if request.method == "GET" else None
    nxt = nxt[:-1] if nxt and nxt.endswith("?") else nxt
    if not two_factor.is_enrolled(current_user):
        flash(_("Your organisation's administrators use two-step verification: set it up "
                "to go on."), "warning")
        return redirect(url_for("people.two_factor_enrol", next=nxt), 303)
    return redirect(url_for("people.verify", next=nxt), 303)
