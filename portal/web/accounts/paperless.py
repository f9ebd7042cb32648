"""Paperless: `/cuenta/sin-papel`, where an owner (or the lessee who pays)
chooses, for each parcel, to receive its notices and statements by email instead of paper.
Certified demands stay on paper (the law). Thin: `portal.accounts.paperless` does the work."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required

from portal.accounts import paperless
from portal.accounts.errors import NotFound
from portal.web.accounts import bp
from portal.web.data import uow
from portal.web.forms import ActionForm

CHOICES = {"email": True, "paper": False}


@bp.route("/cuenta/sin-papel", methods=["GET", "POST"])
@login_required
def paperless_page():  # noqa: ANN201
    form = ActionForm()
    with uow() as w:
        rows = paperless.choices(w, current_user)
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        wanted = {}
        for c in rows:
            answer = request.form.get(f"paperless-{c.parcel.id}", "")
            if answer not in CHOICES:
                continue  # not asked: unchanged
            wanted[c.parcel.id] = CHOICES[answer]
        try:
            with uow() as w:
                for pid, value in wanted.items():
                    if value != next(c.paperless for c in rows if c.parcel.id == pid):
                        paperless.choose(w, current_user, pid, value)
        except NotFound:
            abort(404)
        flash(_("Your choice was saved."), "success")
        return redirect(url_for("accounts.paperless_page"), 303)
    return render_template("accounts/paperless.html", rows=rows, form=form)
