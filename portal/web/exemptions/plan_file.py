"""Staff: the CRIM's file of plan payments (R-B16) uploaded and its per-row report, the
file's template, and the list of plans found in default. Every staff role reads the page and
the template; only administrators and reviewers (`plans.RECORD`) get the form and upload.
Thin: the upload is streamed to a temporary file, `portal.exemptions.plan_import` reads and
records it, this renders the report; `portal.exemptions.plan_defaults` lists the defaults."""

from __future__ import annotations

import tempfile
from typing import Any

from flask import Response, abort, render_template
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import SubmitField

from portal.accounts.errors import Forbidden
from portal.core.explain import N_
from portal.csv_text import csv_lines
from portal.exemptions import plan_defaults, plan_import, plans
from portal.i18n import current_language, gettext, translate
from portal.web import paging, upload_limits
from portal.web.data import uow
from portal.web.exemptions import bp
from portal.web.form_errors import form_errors
from portal.web.paging import page_count
from portal.web.staff_access import staff_required, staff_role

#: The largest upload the page takes (about 400,000 rows); the API takes the same.
MAX_BYTES = 32 * 1024 * 1024
PER_PAGE = 50

#: Why a row was refused (plan_import's codes), in the reader's words.
ROW_REASONS = {
    "wrong_column_count": N_("The row has a different number of cells than the header."),
    "required": N_("This column is required: write a value."),
    "bad_kind": N_("Not a kind: write pago (a payment) or costas (auction notice costs)."),
    "bad_date": N_("Not a date: write it as YYYY-MM-DD (for example 2026-11-30)."),
    "future": N_("The day cannot be a day to come."),
    "before_filing": N_("The day cannot be before the certification was filed."),
    "bad_amount": N_("Not an amount: write more than 0.00 with a period for the cents "
                     "(for example 1,218.98)."),
    "too_long": N_("Too long: write at most 120 characters."),
    "unknown_filing": N_("No filed certification has this number."),
    "no_plan": N_("This certification has no approved payment plan."),
    "receipt_differs": N_("This receipt is already recorded for the plan with another day "
                          "or amount: ask the CRIM which is right; nothing was changed."),
}
#: Why the whole file was refused (nothing recorded).
FILE_REASONS = {
    "empty": N_("The file is empty."),
    "not_text": N_("The file is not a CSV text file (is it a spreadsheet or a PDF?). "
                   "Save it as CSV and upload it again."),
    "missing_columns": N_("The file lacks these columns: %(columns)s. Start from the "
                          "template."),
    "unknown_columns": N_("The file has columns the CRIM's file does not: %(columns)s."),
    "repeated_columns": N_("A column is repeated: %(columns)s."),
    "too_large": N_("The file is too large."),
}


class PlanFileForm(FlaskForm):
    file = FileField(_l("The CRIM's file of plan payments (CSV)"), validators=[
        FileRequired(message=_l("Choose the CSV file to upload."))])
    submit = SubmitField(_l("Record the payments"))


@bp.record_once
def _install(state) -> None:  # noqa: ANN001
    upload_limits.register(state.app, "exemptions.plan_file_upload", MAX_BYTES, "file")


def file_problem(exc: plan_import.FileProblem) -> str:
    msg = FILE_REASONS.get(exc.code, FILE_REASONS["not_text"])
    return gettext(msg, **exc.params) if exc.params else translate(msg)


def run_import(actor: Any, stream: Any, note: dict[str, Any], most: int = MAX_BYTES
               ) -> plan_import.Report:
    """The upload `stream` copied to a temporary file in chunks (never whole in memory),
    then imported; FileProblem("too_large") past `most` bytes."""
    with tempfile.NamedTemporaryFile(suffix=".csv") as tmp:
        copied = 0
        while chunk := stream.read(1 << 20):
            copied += len(chunk)
            if copied > most:
                raise plan_import.FileProblem("too_large")
            tmp.write(chunk)
        tmp.flush()
        with uow() as w:
            return plan_import.import_file(w, actor, tmp.name, note)


def _filename(upload: Any) -> str:
    name = "".join(c for c in (getattr(upload, "filename", "") or "") if c.isprintable())
    return name[-200:]


def _page(form: PlanFileForm, errors: list[tuple[str | None, str]] | None = None,
          report: plan_import.Report | None = None, status: int = 200):  # noqa: ANN202
    return render_template("exemptions/plan_file.html", form=form, errors=errors or [],
                           report=report, reasons=ROW_REASONS, listed=plan_import.LISTED,
                           columns=plan_import.COLUMNS), status


@bp.get("/personal/exoneraciones/planes/archivo")
@staff_required
def plan_file():  # noqa: ANN201
    return _page(PlanFileForm(formdata=None))


@bp.post("/personal/exoneraciones/planes/archivo")
@staff_role(*plans.RECORD)
def plan_file_upload():  # noqa: ANN201
    """Each good row recorded, each refused one reported (docs/EXEMPTION.md)."""
    form = PlanFileForm()
    if not form.validate_on_submit():
        return _page(form, form_errors(form), status=400)
    try:
        report = run_import(current_user, form.file.data.stream,
                            {"source": "upload", "filename": _filename(form.file.data)})
    except plan_import.FileProblem as exc:
        return _page(form, [("#" + form.file.id, file_problem(exc))], status=400)
    except Forbidden:
        abort(403)
    return _page(PlanFileForm(formdata=None), report=report)


@bp.get("/personal/exoneraciones/planes/plantilla.csv")
@staff_required
def plan_file_template():  # noqa: ANN201
    lang = current_language()
    rows = plan_import.template_rows(lang)
    name = "plantilla_pagos_plan.csv" if lang == "es" else "plan_payments_template.csv"
    return Response("".join(csv_lines(rows[0], rows[1:])), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/personal/exoneraciones/planes/incumplidos")
@staff_required
def plan_defaults_list():  # noqa: ANN201
    page = paging.page_asked()
    with uow() as w:
        rows, count = plan_defaults.listing(w, current_user, offset=(page - 1) * PER_PAGE,
                                            limit=PER_PAGE)
        w.session.expunge_all()
    return render_template("exemptions/plan_defaults.html", rows=rows, count=count, page=page,
                           pages=page_count(count, page, PER_PAGE))
