"""Staff: a background job's page (DESIGN.md 7): its progress, updated in place while the job
runs by static/live-progress.js, which the person can pause (never reloaded by itself: WCAG
2.2.1); for a roll's publication, the notices' job it started too. 404 for anyone who is not
staff, and for a job the user may not see."""

from __future__ import annotations

from flask import abort, render_template
from flask_login import current_user

from portal.accounts.errors import NotFound
from portal.jobs import runner
from portal.roll import notices as notices_service
from portal.web.data import uow
from portal.web.jobs import bp
from portal.web.jobs.views import job_view
from portal.web.staff_access import staff_required


@bp.get("/personal/trabajos/<id:job_id>")
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
    return render_template("jobs/job.html", job=view, sending=sending)
