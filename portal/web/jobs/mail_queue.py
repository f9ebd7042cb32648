"""Staff: the mail outbox's queue (`portal.jobs.mail_queue`): pending, sent and failed with
the relay's reason; a failed message can be queued again. 404 for anyone who is not staff."""

from __future__ import annotations

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from portal.accounts.errors import Conflict, NotFound
from portal.jobs import mail_queue
from portal.web.data import uow
from portal.web.jobs import bp
from portal.web.staff_access import staff_required


@bp.get("/personal/correo")
@staff_required
def mail_queue_page():  # noqa: ANN201
    status = request.args.get("estado", "failed")
    with uow() as w:
        counts = mail_queue.counts(w, current_user)
        rows = mail_queue.latest(w, current_user, status)
        w.session.expunge_all()
    return render_template("jobs/mail_queue.html", counts=counts, rows=rows, status=status)


@bp.post("/personal/correo/<id:message_id>/reintentar")
@staff_required
def mail_retry(message_id: int):  # noqa: ANN201
    try:
        with uow() as w:
            w.info["ip"] = request.remote_addr
            mail_queue.retry(w, current_user, message_id, current_app.config)
    except NotFound:
        abort(404)
    except Conflict:
        flash(_("That message is not failed: nothing changed."), "info")
    else:
        flash(_("The message is queued again; the worker sends it shortly."), "success")
    return redirect(url_for("jobs.mail_queue_page", estado="failed"), 303)
