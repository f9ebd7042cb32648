"""Staff: import the parcel roll from a CSV file (J8; DESIGN.md 7). The
upload is kept and checked in the background (a `roll.import` dry run); its page shows the
job's progress (reloading itself while it runs, no JavaScript), the per-row report (paged,
downloadable as CSV) and what the import would change (new, changed, not listed); the
"Import" button starts the import job. The column guide and the template are here too.
The service (`portal/roll/roll_import.py`) does the work; this module validates,
calls it and renders."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path

from flask import (
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import SubmitField

from portal import clock
from portal.accounts import access
from portal.accounts.errors import Conflict, Forbidden, NotFound
from portal.jobs import queue, runner
from portal.roll import roll_csv as parse
from portal.roll import roll_import as service
from portal.web.data import uow
from portal.web.forms import ActionForm
from portal.web.jobs.views import job_view
from portal.web.locale import select_language
from portal.web.paging import page_count, page_number
from portal.web.roll import bp
from portal.web.staff_access import staff_required, staff_role

#: The largest file the page takes (a roll of about 2 million parcels); larger ones: the
#: command line, `portal roll import FILE`.
MAX_UPLOAD = 512 * 1024 * 1024
SUFFIXES = (".csv", ".txt")
PER_PAGE = 50
#: The change lists' names in the address, and the service's.
CHANGE_SLUGS = {"nuevas": "new", "cambiadas": "changed", "no-listadas": "removed"}

#: Why a row was refused, by its message id (portal/roll/roll_csv CODES), in the reader's words.
ROW_REASONS = {
    "required": _l("This column is required: write a value."),
    "too_long": _l("Too long: write at most %(max)s characters."),
    "not_a_number": _l("Not a number: write digits with a period for decimals "
                       "(for example 1250.50)."),
    "negative": _l("It cannot be negative."),
    # A dollar column reads as every amount is read (portal.money_input: the same words).
    "exponent": _l("Write the amount in digits, without an exponent (for example 1500.00, "
                   "not 1.5e3)."),
    "other_separators": _l("Write the cents after a period and use commas, or nothing, "
                           "between thousands: 1,500.00 or 1500.00 (not 1.500,00)."),
    "too_many_decimals": _l("Too many decimals: write at most %(places)s."),
    "too_large": _l("Too large: at most %(digits)s digits before the period."),
    "not_a_municipality": _l("Not one of Puerto Rico's 78 municipalities: check the "
                             "spelling (accents are optional)."),
    "not_a_zone": _l("Not a zone: write urbana, suburbana or rural."),
    "not_an_owner_kind": _l("Not an owner kind: write privado, autoridad or publico."),
    "not_yes_no": _l("Write sí or no."),
    "bad_catastro": _l("Not a catastro number: write it as 040-012-345-67 (11 digits)."),
    "bad_email": _l("Not an email address."),
    "bad_date": _l("Not a date: write it as YYYY-MM-DD (for example 2026-07-01)."),
    "dates_reversed": _l("The lease ends before it starts."),
    "owners_mismatch": _l("%(found)s values for %(owners)s owners: give one per owner, "
                          "separated by |."),
    "bad_share": _l("A share is a fraction greater than 0 and at most 1, with at most "
                    "6 decimals."),
    "shares_sum": _l("The owners' shares add up to %(total)s: they must add up to 1."),
    "lease_without_lessee": _l("The lease's columns are filled in but the lessee's name is "
                               "missing."),
    "lessee_without_start": _l("A lease needs the day it starts."),
    "wrong_column_count": _l("This row has %(found)s columns; the header has %(expected)s."),
    "duplicate": _l("This catastro number is already in row %(first)s: list each parcel "
                    "once."),
}
#: Why the file as a whole was refused.
FILE_REASONS = {
    "empty": _l("The file is empty."),
    "not_text": _l("The file is not a CSV text file. In Excel, choose File, Save as, "
                   "“CSV UTF-8 (comma delimited)”."),
    "missing_columns": _l("The file's header lacks these columns: %(columns)s. Start from "
                          "the template."),
    "unknown_columns": _l("The file's header has columns the roll does not have: "
                          "%(columns)s."),
    "repeated_columns": _l("The file's header repeats these columns: %(columns)s."),
    "file_changed": _l("The stored file changed or is missing: upload it again."),
}
STATUSES = {
    "uploaded": _l("Uploaded: waiting for its check"),
    "checking": _l("Being checked"),
    "invalid": _l("Has errors: nothing was imported"),
    "valid": _l("Checked, without errors: ready to import"),
    "importing": _l("Being imported"),
    "imported": _l("Imported"),
}
#: The parcel's columns by field, for "what changes" (the guide's names).
FIELDS = {
    "address": _l("address"), "municipality": _l("municipality"), "zone": _l("zone"),
    "land_area_cuerdas": _l("area in cuerdas"), "land_valuation": _l("land valuation"),
    "structure_valuation": _l("structures valuation"), "owner_kind": _l("owner kind"),
    "transferred": _l("transferred"), "tax_incentive_exempt": _l("incentives exemption"),
    "benefit_units": _l("benefit units"),
}

#: What to write in each column (the guide), by field.
COLUMN_HELP = {
    "catastro": _l("The parcel's catastro number (CRIM): 11 digits, with or without dashes "
                   "or spaces (040-012-345-67). Each parcel once; it is what matches a row to "
                   "a parcel already on the roll."),
    "address": _l("The street address (at most 300 characters)."),
    "municipality": _l("One of Puerto Rico's 78 municipalities, for example San Juan "
                       "(accents are optional: Mayaguez is Mayagüez)."),
    "zone": _l("urbana, suburbana or rural (urban, suburban or rural)."),
    "land_area_cuerdas": _l("The land's area in cuerdas, up to 6 decimals, with a period "
                            "for decimals."),
    "land_valuation": _l("The land's assessed valuation in dollars, with cents at most "
                         "(60000.00; a $ sign and commas for thousands are accepted)."),
    "structure_valuation": _l("The structures' assessed valuation in dollars (0 for "
                              "none)."),
    "owner_kind": _l("privado, autoridad or publico (private, authority or public). Land of "
                     "the Authority or of another public owner is exempt unless it was "
                     "transferred (R-A2)."),
    "transferred": _l("sí or no (yes or no; empty is no): public land sold, leased or "
                      "transferred as a private parcel, which is assessed (R-A2)."),
    "tax_incentive_exempt": _l("sí or no: exempt from the property tax under an incentives "
                               "program. It is still assessed (R-A2)."),
    "benefit_units": _l("The benefit units the Board assigned, up to 4 decimals: the share "
                        "of the total is in proportion to them (R-A3)."),
    "owner_names": _l("The owners' names, separated by | when there are several. Optional."),
    "owner_emails": _l("Their emails in the same order, separated by |. An owner whose email "
                       "is already on file is the same person."),
    "owner_shares": _l("Their shares in the same order (0.5|0.5), adding up to 1. Empty: equal "
                       "shares."),
    "lessee_name": _l("The lessee's name, when the parcel is leased (R-A16). Optional."),
    "lessee_email": _l("The lessee's email. Optional."),
    "lessee_pays": _l("sí or no: the lease makes the lessee pay the assessment (empty is "
                      "sí) (R-A16)."),
    "lease_contract": _l("The lease contract's number. Optional."),
    "lease_starts": _l("The day the lease starts, as YYYY-MM-DD. Required with a lessee."),
    "lease_ends": _l("The day the lease ends, as YYYY-MM-DD. Optional."),
}


def row_reason(code: str, figures: dict) -> str:
    text = ROW_REASONS.get(code)
    return str(text) % figures if text is not None and figures else str(text or code)


def file_reason(code: str | None, figures: dict | None) -> str:
    if code is None:
        return ""
    text = FILE_REASONS.get(code)
    return str(text) % (figures or {}) if text is not None and figures else str(text or code)


class UploadForm(FlaskForm):
    file = FileField(_l("The roll's CSV file"), validators=[
        FileRequired(message=_l("Choose the CSV file to upload."))])
    submit = SubmitField(_l("Upload and check"))


def _folder() -> Path:
    return Path(current_app.config["INSTANCE_PATH"]) / "roll_imports"


@bp.get("/personal/padron")
@staff_required
def roll_imports():  # noqa: ANN201
    form = UploadForm(formdata=None)
    if request.args.get("demasiado_grande"):
        form.file.errors = [_too_large()]
        return _list_page(form, 413)
    return _list_page(form)


def _list_page(form: UploadForm, status: int = 200):  # noqa: ANN202
    with uow() as w:
        recent = service.recent(w, current_user)
        w.session.expunge_all()
    uploaded_on = {i.id: clock.legal_date(i.created_at) for i in recent}
    return render_template("roll/roll_import_upload.html", form=form, imports=recent,
                           uploaded_on=uploaded_on, statuses=STATUSES,
                           max_mib=MAX_UPLOAD // (1024 * 1024)), status


def _raise_upload_limit():  # noqa: ANN202
    """The app's size limit (MAX_CONTENT_LENGTH) is for forms; the upload route takes a roll
    file of up to MAX_UPLOAD. This runs before the app's other checks read the form (the
    CSRF check, the NUL-byte check): it raises the limit for that route, and sends a file
    announced as larger back to the upload page with the message (a redirect discloses
    nothing: that page is 404 for anyone who is not staff)."""
    if request.endpoint == "roll.roll_import_upload":
        if (request.content_length or 0) > MAX_UPLOAD:
            return redirect(url_for("roll.roll_imports", demasiado_grande=1), 303)
        request.max_content_length = MAX_UPLOAD
    return None


@bp.record_once
def _install(state) -> None:  # noqa: ANN001
    state.app.before_request_funcs.setdefault(None, []).insert(0, _raise_upload_limit)


def _too_large() -> str:
    return _("The file is larger than %(max)s MiB. Import it with the command line: "
             "portal roll import FILE.", max=MAX_UPLOAD // (1024 * 1024))


@bp.post("/personal/padron")
@staff_role(*access.MANAGE)
def roll_import_upload():  # noqa: ANN201
    form = UploadForm()
    valid = form.validate_on_submit()
    if not valid:
        return _list_page(form, 400)
    upload = form.file.data
    name = Path(upload.filename or "").name
    if not name.lower().endswith(SUFFIXES):
        form.file.errors = [_("Upload a .csv file (a spreadsheet saved as CSV).")]
        return _list_page(form, 400)
    try:
        parse.sniff_head(upload.stream.read(65536))
    except parse.FileProblem as exc:
        form.file.errors = [file_reason(exc.code, exc.params)]
        return _list_page(form, 400)
    upload.stream.seek(0)
    try:
        with uow() as w:
            imp = service.register(w, current_user, upload.stream, name, _folder())
            import_id = imp.id
            job_id = runner.submit(w, current_user, "roll.import",
                                 {"import_id": import_id, "dry_run": True}).id
    except Forbidden:
        abort(403)
    _enqueue(job_id)
    return redirect(url_for("roll.roll_import", import_id=import_id), 303)


def _enqueue(job_id: int) -> None:
    queue.enqueue_or_leave(job_id)


@bp.get("/personal/padron/<id:import_id>")
@staff_required
def roll_import(import_id: int):  # noqa: ANN201
    page = page_number()
    try:
        with uow() as w:
            imp = service.get(w, current_user, import_id)
            job = service.latest_job(w, current_user, import_id)
            errors = service.errors_page(w, current_user, import_id, limit=PER_PAGE,
                                         offset=(page - 1) * PER_PAGE)
            w.session.expunge_all()
    except NotFound:
        abort(404)
    stored = min(imp.errors, service.MAX_ERRORS) if not imp.file_error else 0
    pages = page_count(stored, page, PER_PAGE)
    view = job_view(job) if job is not None else None
    rows = [(e.row_number, e.column_name, e.value, row_reason(e.code, e.figures))
            for e in errors]
    return render_template(
        "roll/roll_import.html", imp=imp, job=view, rows=rows, page=page, pages=pages,
        status_text=STATUSES.get(imp.status, imp.status),
        file_problem=file_reason(imp.file_error, imp.file_error_params),
        kept=service.MAX_ERRORS, form=ActionForm(),
        importing=job is not None and not job.params.get("dry_run"))


@bp.get("/personal/padron/<id:import_id>/nuevas", defaults={"kind": "nuevas"})
@bp.get("/personal/padron/<id:import_id>/cambiadas", defaults={"kind": "cambiadas"})
@bp.get("/personal/padron/<id:import_id>/no-listadas", defaults={"kind": "no-listadas"})
@staff_required
def roll_import_changes(import_id: int, kind: str):  # noqa: ANN201
    page = page_number()
    change = CHANGE_SLUGS[kind]
    try:
        with uow() as w:
            imp = service.get(w, current_user, import_id)
            items = service.changes_page(w, current_user, import_id, change, limit=PER_PAGE,
                                         offset=(page - 1) * PER_PAGE)
            w.session.expunge_all()
    except NotFound:
        abort(404)
    total = {"new": imp.new_count, "changed": imp.changed_count,
             "removed": imp.removed_count}[change]
    pages = page_count(total, page, PER_PAGE)
    rows = [(c.row, c.catastro, c.address, ", ".join(str(FIELDS.get(f, f))
                                                     for f in c.changed)) for c in items]
    return render_template("roll/roll_import_changes.html", imp=imp, kind=kind,
                           change=change, rows=rows, total=total, page=page, pages=pages)


def neutralise(cell: object) -> str:
    """A cell a spreadsheet will not run as a formula (OWASP "CSV injection"): text starting
    with =, +, -, @, a tab or a carriage return gets a leading apostrophe."""
    text = "" if cell is None else str(cell)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


@bp.get("/personal/padron/<id:import_id>/informe.csv")
@staff_required
def roll_import_report_csv(import_id: int):  # noqa: ANN201
    try:
        with uow() as w:
            service.get(w, current_user, import_id)
    except NotFound:
        abort(404)
    user = current_user._get_current_object()
    head = [_("Row"), _("Column"), _("Value"), _("Reason")]

    def lines() -> Iterator[str]:
        buf = io.StringIO()
        out = csv.writer(buf, lineterminator="\r\n")

        def flush() -> str:
            text = buf.getvalue()
            buf.seek(0)
            buf.truncate()
            return text

        out.writerow(head)
        yield "\ufeff" + flush()
        with uow() as w:
            for n, e in enumerate(service.all_errors(w, user, import_id), start=1):
                out.writerow([e.row_number, neutralise(e.column_name), neutralise(e.value),
                              neutralise(row_reason(e.code, e.figures))])
                if n % 500 == 0:
                    yield flush()
        yield flush()

    name = f"informe-padron-{import_id}.csv" if select_language() == "es" \
        else f"roll-report-{import_id}.csv"
    return Response(stream_with_context(lines()), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.post("/personal/padron/<id:import_id>/importar")
@staff_role(*access.MANAGE)
def roll_import_start(import_id: int):  # noqa: ANN201
    if not ActionForm().validate_on_submit():
        abort(400)
    try:
        with uow() as w:
            job_id = runner.submit(w, current_user, "roll.import",
                                 {"import_id": import_id, "dry_run": False}).id
    except NotFound:
        abort(404)
    except Forbidden:
        abort(403)
    except Conflict:
        flash(_("This file has errors: correct them in the file and upload it again. "
                "Nothing was imported."), "error")
        return redirect(url_for("roll.roll_import", import_id=import_id), 303)
    _enqueue(job_id)
    return redirect(url_for("roll.roll_import", import_id=import_id), 303)


@bp.get("/personal/padron/plantilla.csv")
@staff_required
def roll_import_template():  # noqa: ANN201
    lang = select_language()
    name = "plantilla-padron.csv" if lang == "es" else "roll-template.csv"
    return Response(service.template_csv(lang), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/personal/padron/guia")
@staff_required
def roll_import_guide():  # noqa: ANN201
    lang = select_language()
    return render_template("roll/roll_import_guide.html", columns=parse.COLUMNS, help=COLUMN_HELP,
                           lang=lang, example=parse.template_rows(lang)[1],
                           max_errors=service.MAX_ERRORS)
