"""What the staff's roll and job pages show of a job, worded in the request's language: the
kind, the status, the progress (done of total, rate, time left) and the error's message
(the job stores only its message id, `Job.error_code`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from flask_babel import format_decimal, format_timedelta
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from portal import clock
from portal.jobs import runner

KINDS = {"roll.compute": _l("Compute the roll"), "roll.publish": _l("Publish the roll"),
         "roll.import": _l("Import the parcel roll"),
         "collections.run": _l("Queue the demands of the delinquent accounts"),
         "roll.notify": _l("Send the roll's notices"),
         "lender.certifications": _l("A lender's batch of certifications"),
         "lender.loan_changes": _l("A lender's file of loan changes"),
         "lender.bill_payment": _l("A lender's bill payment"),
         "lender.bill_file": _l("A lender's bill file"),
         "lender.bill_prepare": _l("A lender's bill payment, prepared"),
         "lender.bill_loans": _l("A lender's payment of its filtered loans"),
         "reports.snapshot": _l("Compute a report")}
#: Where a job's page leads back to, by kind: (endpoint, link text).
BACK = {"roll.import": ("roll.roll_imports", _l("Back to the parcel-roll imports")),
        "collections.run": ("collections.index", _l("Back to collections")),
        "reports.snapshot": ("backoffice.reports", _l("Back to the reports"))}
ROLL_BACK = ("roll.roll_page", _l("Back to the assessment roll"))
STATUSES = {"queued": _l("Waiting for the worker"), "running": _l("Running"),
            "succeeded": _l("Finished"), "failed": _l("Failed")}
#: A failed job's message by its error code (ServiceError.code, or jobs.UNEXPECTED).
ERRORS = {
    "budget_not_adopted": _l("The budget version is not adopted: adopt it before computing "
                             "its roll."),
    "roll_published": _l("This roll is already published: a published roll is not computed "
                         "again."),
    "roll_incomplete": _l("The roll's computation did not finish: compute it again before "
                          "publishing it."),
    "roll_parcels_changed": _l("The parcels changed while the roll was computed (an import "
                               "ran meanwhile): compute it again."),
    "parameters_missing": _l("The fiscal year lacks parameters its roll and notices need: "
                             "record them on the Board's parameters page, then publish."),
    "not_found": _l("The budget version or the roll no longer exists."),
    "forbidden": _l("Your account may not do this."),
    "calc": _l("The calculation refused the roll's figures: check the parcels' benefit "
               "units and the budget's total."),
    "import_has_errors": _l("This file has errors: correct them in the file and upload it "
                            "again. Nothing was imported."),
    runner.UNEXPECTED: _l("The job stopped on an unexpected error (the worker's log has it). "
                        "Starting it again is safe: it goes on from its last finished batch."),
}


def error_message(code: str | None) -> str:
    if code is None:
        return ""
    return str(ERRORS.get(code, ERRORS[runner.UNEXPECTED]))


@dataclass(frozen=True)
class JobView:
    id: int
    kind: str
    status: str
    status_code: str
    active: bool
    done: int
    total: int | None
    percent: int
    progress_text: str
    rate_text: str
    left_text: str
    error: str
    roll_id: int | None
    created_on: date  # the Puerto Rico date it was started
    started_by: str
    back: tuple[str, str] = ("", "")  # the page it belongs to: (endpoint, link text)
    kind_code: str = ""  # the job's kind as stored (e.g. "roll.publish")


def job_view(job) -> JobView:  # noqa: ANN001
    f = runner.Figures(job)
    if job.total and job.kind == "lender.certifications":  # a batch counts its rows
        progress = _("%(done)s of %(total)s rows", done=format_decimal(job.done),
                     total=format_decimal(job.total))
    elif job.total:
        progress = _("%(done)s of %(total)s parcels", done=format_decimal(job.done),
                     total=format_decimal(job.total))
    else:
        progress = ""
    rate = (_("%(rate)s parcels a second", rate=format_decimal(round(f.rate)))
            if f.rate else "")
    left = ""
    if f.seconds_left is not None:
        left = _("About %(time)s left",
                 time=format_timedelta(timedelta(seconds=max(1, round(f.seconds_left))),
                                       threshold=1.1))
    return JobView(job.id, str(KINDS.get(job.kind, job.kind)),
                   str(STATUSES.get(job.status, job.status)), job.status, job.active,
                   job.done, job.total, f.percent, progress, rate, left,
                   error_message(job.error_code),
                   (job.result or {}).get("roll_id") or job.params.get("roll_id"),
                   clock.legal_date(job.created_at), getattr(job, "started_by", ""),
                   BACK.get(job.kind, ROLL_BACK), job.kind)
