"""The assessment notices of a published roll (J8; R-A4, R-A5, R-A16): the roll's notices
page (how many were printed and emailed, how many access codes were issued, the print files,
the "roll.notify" job that publishing the roll started), the button that starts that job
again (to send what was not sent), a parcel's notice as a PDF
(`/personal/tasacion/<roll>/avisos/<parcel>.pdf`, in the payer's language or `?idioma=`) and
a print file's PDF (administrators only: it holds the new access codes). The parcel's notice
is printed by `portal.documents.assessment_notice`.

The parcel's own download (`/propiedad/<parcel>/aviso-de-tasacion.pdf`, its owner's or
paying lessee's, 404 for anyone else) is here too, on the same blueprint. The
service (`portal/roll/notices.py`) does the work; this module calls it and renders.
"""

from __future__ import annotations

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required

from portal import clock
from portal.accounts import access
from portal.accounts.errors import Conflict, Forbidden, NotFound
from portal.documents import assessment_notice
from portal.i18n import current_language
from portal.jobs import queue, runner
from portal.roll import notices as service
from portal.roll.retention import PrintFileDeleted
from portal.web.data import uow
from portal.web.forms import ActionForm
from portal.web.jobs.views import job_view
from portal.web.pdf_response import pdf_response
from portal.web.roll import bp
from portal.web.staff_access import staff_required, staff_role

CONFLICTS = {"roll_not_published": _l("Publish the roll first: its notices are sent once it "
                                      "is published.")}
FILES_SHOWN = 50


@bp.get("/personal/tasacion/<id:roll_id>/avisos")
@staff_required
def roll_notices(roll_id: int):  # noqa: ANN201
    try:
        with uow() as w:
            s = service.summary(w, current_user, roll_id, limit=FILES_SHOWN)
            found = service.notify_jobs(w, current_user, [s.roll.id]).get(s.roll.id)
            sending = job_view(found) if found is not None else None
    except NotFound:
        abort(404)
    made_on = {f.id: clock.legal_date(f.created_at) for f in s.files}
    return render_template("roll/roll_notices.html", s=s, made_on=made_on, form=ActionForm(),
                           can_send=access.has_staff_role(current_user, *access.MANAGE),
                           sending=sending)


@bp.post("/personal/tasacion/<id:roll_id>/avisos/enviar")
@staff_role(*access.MANAGE)
def send_roll_notices(roll_id: int):  # noqa: ANN201
    """Start the job (or find the one already queued or running) and show its page."""
    if not ActionForm().validate_on_submit():
        abort(400)
    try:
        with uow() as w:
            job_id = runner.submit(w, current_user, "roll.notify", {"roll_id": roll_id}).id
    except NotFound:
        abort(404)
    except Conflict as exc:
        flash(str(CONFLICTS.get(exc.code, CONFLICTS["roll_not_published"])), "error")
        return redirect(url_for("roll.roll_notices", roll_id=roll_id), 303)
    queue.enqueue_or_leave(job_id)
    return redirect(url_for("jobs.job", job_id=job_id), 303)


@bp.get("/personal/tasacion/<id:roll_id>/avisos/<id:parcel_id>.pdf")
@staff_required
def roll_notice_pdf(roll_id: int, parcel_id: int):  # noqa: ANN201
    try:
        with uow() as w:
            loaded = service.staff_notice(w, current_user, roll_id, parcel_id)
    except NotFound:
        abort(404)
    lang = request.args.get("idioma", "")
    lang = lang if lang in assessment_notice.LANGS else loaded[0].language
    return pdf_response(assessment_notice.notice_pdf(
        loaded, lang, assessment_notice.base_url(current_app.config),
        current_app.config["SECRET_KEY"]),
        assessment_notice.filename(loaded[0].catastro, lang))


@bp.get("/personal/tasacion/<id:roll_id>/avisos/archivos/<id:file_id>.pdf")
@staff_required
def roll_notice_file(roll_id: int, file_id: int):  # noqa: ANN201
    """An administrator's (403 for other staff: the file holds the new access codes)."""
    try:
        with uow() as w:
            data = service.print_file(w, current_user, roll_id, file_id)
    except PrintFileDeleted:
        flash(_("This print file was deleted under the retention policy: it held access "
                "codes in plain text. The list of files still shows what it contained."),
              "warning")
        return redirect(url_for("roll.roll_notices", roll_id=roll_id), 303)
    except NotFound:
        abort(404)
    except Forbidden:
        abort(403)
    return pdf_response(data, f"avisos-{roll_id}-{file_id}.pdf")


@bp.get("/propiedad/<id:parcel_id>/aviso-de-tasacion.pdf")
@login_required
def assessment_notice_pdf(parcel_id: int):  # noqa: ANN201
    """The parcel's latest assessment notice in the reader's language (its payers, staff)."""
    try:
        with uow() as w:
            loaded = service.latest_notice(w, current_user, parcel_id)
    except NotFound:
        abort(404)
    lang = current_language()
    return pdf_response(assessment_notice.notice_pdf(
        loaded, lang, assessment_notice.base_url(current_app.config),
        current_app.config["SECRET_KEY"]),
        assessment_notice.filename(loaded[0].catastro, lang))


@bp.get("/propiedad/<id:parcel_id>/avisos/<id:notice_id>.pdf")
@login_required
def issued_notice_pdf(parcel_id: int, notice_id: int):  # noqa: ANN201
    """One of the parcel's assessment notices (the parcel page's list of every notice the
    portal issued), in the reader's language: its payers and staff; 404 for anyone else."""
    try:
        with uow() as w:
            loaded = service.issued_notice(w, current_user, parcel_id, notice_id)
    except NotFound:
        abort(404)
    lang = current_language()
    return pdf_response(assessment_notice.notice_pdf(
        loaded, lang, assessment_notice.base_url(current_app.config),
        current_app.config["SECRET_KEY"]),
        assessment_notice.filename(loaded[0].catastro, lang))
