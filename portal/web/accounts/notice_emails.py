"""Emailed notices: the one-click unsubscribe of the notices the portal emails in bulk
(`/avisos/baja/<token>`: a GET shows a page with the button, a POST stops them; RFC 8058: no
sign-in and no CSRF token, the signed token is the proof, a mail reader posts it), and the
account page's switch that turns them back on or off (`/cuenta/avisos-por-correo`).
Thin: `portal.accounts.notice_emails` does the work."""

from __future__ import annotations

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required

from portal.accounts import notice_emails
from portal.accounts.errors import NotFound
from portal.web.accounts import bp
from portal.web.data import uow
from portal.web.extensions import csrf
from portal.web.forms import ActionForm

ANSWERS = {"on": True, "off": False}


@bp.route("/avisos/baja/<token>", methods=["GET", "POST"])
@csrf.exempt  # RFC 8058: the mail reader posts "List-Unsubscribe=One-Click"
def notices_unsubscribe(token: str):  # noqa: ANN201
    done = request.method == "POST"
    try:
        with uow() as w:
            what = (notice_emails.stop if done else notice_emails.subscription)(
                w, current_app.config, token)
    except NotFound:
        abort(404)
    return render_template("accounts/notices_unsubscribe.html", what=what, done=done)


@bp.post("/cuenta/avisos-por-correo")
@login_required
def notice_emails_switch():  # noqa: ANN201
    form = ActionForm()
    answer = request.form.get("notice_emails", "")
    if not form.validate_on_submit() or answer not in ANSWERS:
        abort(400)
    with uow() as w:
        notice_emails.set_emails(w, current_user, ANSWERS[answer])
    flash(_("Emailed notices are on: you will get them by email again.") if ANSWERS[answer]
          else _("Emailed notices are off: what the law requires will reach you on paper."),
          "success")
    return redirect(url_for("accounts.account") + "#notices-heading", 303)
