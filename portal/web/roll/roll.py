"""Staff: the roll's page (its versions, the latest jobs) starts computing and publishing as
background jobs (DESIGN.md 7), whose page (`portal.web.jobs`) shows their progress. Every
staff role reads it; computing and publishing are an administrator's (`staff_role`)."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user

from portal.accounts import access
from portal.accounts.errors import Conflict, NotFound
from portal.jobs import queue, runner
from portal.roll import notices as notices_service
from portal.roll import roll as roll_service
from portal.web.data import uow
from portal.web.forms import ActionForm
from portal.web.jobs.views import error_message, job_view
from portal.web.roll import bp
from portal.web.roll.board_parameters import NAMES as PARAMETER_NAMES
from portal.web.staff_access import staff_required, staff_role


@bp.get("/personal/tasacion")
@staff_required
def roll_page():  # noqa: ANN201
    with uow() as w:
        versions = roll_service.overview(w, current_user)
        recent = [job_view(j) for j in runner.recent(w, current_user, limit=JOBS_SHOWN,
                                                     kinds=ROLL_KINDS)]
        sending = {r: job_view(j) for r, j in notices_service.notify_jobs(
            w, current_user, [v.roll.id for v in versions if v.roll is not None]).items()}
    return render_template("roll/roll.html", versions=versions, jobs=recent,
                           form=ActionForm(), sending=sending)


@bp.post("/personal/tasacion/version/<id:version_id>/calcular")
@staff_role(*access.MANAGE)
def compute_roll(version_id: int):  # noqa: ANN201
    return _start("roll.compute", {"version_id": version_id})


@bp.post("/personal/tasacion/<id:roll_id>/publicar")
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
        flash(_refusal(exc), "error")
        return redirect(url_for("roll.roll_page"))
    queue.enqueue_or_leave(job_id)
    return redirect(url_for("jobs.job", job_id=job_id))


#: Refusals of a job's input this page explains itself (the others: jobs.views.ERRORS).
ROLL_CONFLICTS: dict[str, str] = {}


def _refusal(exc: Conflict) -> str:
    """A refusal in the staff's words; a roll missing parameters names each (their page's
    names) and the fiscal year."""
    if exc.code == "parameters_missing":
        return _("Fiscal year %(label)s lacks parameters its roll and notices need: "
                 "%(names)s. Record them on the Board's parameters page, then publish.",
                 label=exc.params["fiscal_year"],
                 names=", ".join(str(PARAMETER_NAMES.get(n, n)) for n in exc.params["missing"]))
    return str(ROLL_CONFLICTS.get(exc.code) or error_message(exc.code))
#: How many of the latest jobs the roll page lists.
JOBS_SHOWN = 10
#: The roll page's jobs: computing, publishing and noticing a roll (not a lender's batches, not
#: the collections' runs, which have their own pages).
ROLL_KINDS = ("roll.compute", "roll.publish", "roll.notify")
