"""The portfolio kept by the bank: `/prestamista/cartera` adds or removes one loan
(the form), takes an add/delete CSV (processed by a job; the file's page shows its progress
and per-row report) and lists the latest changes. Thin: validate, call
`portal.lenders.loan_changes`, render. Only a lender's members; anyone else gets 404."""

from __future__ import annotations

from typing import Any

from flask import (
    Response,
    abort,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import RadioField, SelectField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, Optional

from portal.accounts.errors import InvalidInput, NotFound
from portal.i18n import current_language, gettext, translate
from portal.jobs import queue
from portal.lenders import loan_changes as service
from portal.web import paging, upload_limits
from portal.web.data import uow
from portal.web.form_errors import form_errors
from portal.web.lenders import bp
from portal.web.paging import page_count

PER_PAGE = 50
MAX_BYTES = 8 * 1024 * 1024
STATUSES = {"queued": _l("Waiting to start"), "running": _l("Processing"),
            "done": _l("Processed"), "failed": _l("Stopped")}
FILTERS = {"": _l("All rows"), "done": _l("Added or removed"), "rejected": _l("Rejected"),
           "unchanged": _l("No change")}
SOURCES = {"csv": _l("File"), "api": "API", "form": _l("One loan")}


class LoanForm(FlaskForm):
    action = RadioField(_l("What to do"), choices=[SelectChoice("add", _l("Add the loan")),
                                                   SelectChoice("delete",
                                                                _l("Remove the loan"))],
                        default="add",
                        validators=[DataRequired(message=_l("Choose add or remove."))])
    loan_number = StringField(_l("Loan number"), validators=[
        DataRequired(message=_l("Write the loan number.")),
        Length(max=40, message=_l("Write at most 40 characters."))])
    catastro = StringField(_l("Catastro number"), validators=[
        DataRequired(message=_l("Write the catastro number.")),
        Length(max=40, message=_l("Write at most 40 characters."))])
    owner_name = StringField(_l("Owner's name (to add)"), validators=[
        Optional(), Length(max=200, message=_l("Write at most 200 characters."))])
    escrow = SelectField(_l("Escrow account (to add)"), choices=[
        SelectChoice("", _l("Not said")),
        SelectChoice("yes", _l("Yes: we pay the charges from escrow")),
        SelectChoice("no", _l("No"))], default="")
    submit = SubmitField(_l("Send"))


class LoanFileForm(FlaskForm):
    file = FileField(_l("The add/delete CSV file"), validators=[
        FileRequired(message=_l("Choose the CSV file to upload."))])
    submit = SubmitField(_l("Upload the file"))


@bp.record_once
def _install(state) -> None:  # noqa: ANN001
    upload_limits.register(state.app, "lenders.portfolio_upload", MAX_BYTES, "file")


def _lender_only() -> None:
    if not current_user.is_lender:
        abort(404)


def _page(form: LoanForm, file_form: LoanFileForm, *, errors: Any = None, done: Any = None,
          status: int = 200):  # noqa: ANN202
    try:
        with uow() as w:
            recent, _count = service.files(w, current_user, limit=10)
            w.session.expunge_all()
    except NotFound:
        abort(404)
    return render_template("lenders/portfolio_files.html", form=form, file_form=file_form,
                           errors=errors or [], done=done, recent=recent, statuses=STATUSES,
                           sources=SOURCES, max_rows=service.MAX_CSV_ROWS,
                           guide=[(service.HEADERS["es"][c], service.HEADERS["en"][c],
                                   c in service.REQUIRED, translate(service.GUIDE[c]))
                                  for c in service.COLUMNS]), status


@bp.get("/cartera")
@login_required
def portfolio_files():  # noqa: ANN201
    _lender_only()
    return _page(LoanForm(formdata=None), LoanFileForm(formdata=None))


@bp.post("/cartera")
@login_required
def portfolio_change():  # noqa: ANN201
    """One loan added or removed: done, or its reason on the field (400, nothing changed)."""
    _lender_only()
    form = LoanForm()
    if not form.validate_on_submit():
        return _page(form, LoanFileForm(formdata=None), errors=form_errors(form), status=400)
    values = {"action": form.action.data, "loan_number": form.loan_number.data.strip(),
              "catastro": form.catastro.data.strip(),
              "owner_name": (form.owner_name.data or "").strip(), "escrow": form.escrow.data}
    try:
        with uow() as w:
            row = service.change_one(w, current_user, values)
            outcome, column = service.what(row), row.error_column
            reason = service.reason_text(row)
    except NotFound:
        abort(404)
    if outcome == "rejected":
        field = getattr(form, column or "loan_number", form.loan_number)
        field.errors = [reason]
        return _page(form, LoanFileForm(formdata=None), errors=form_errors(form), status=400)
    return _page(LoanForm(formdata=None), LoanFileForm(formdata=None),
                 done={"what": outcome, "loan": values["loan_number"]})


@bp.post("/cartera/archivo")
@login_required
def portfolio_upload():  # noqa: ANN201
    _lender_only()
    form = LoanFileForm()
    if not form.validate_on_submit():
        return _page(LoanForm(formdata=None), form, errors=form_errors(form), status=400)
    upload = form.file.data
    data = upload.read(MAX_BYTES + 1)
    name = "".join(c for c in (upload.filename or "") if c.isprintable())[-200:] or "cartera.csv"
    try:
        if len(data) > MAX_BYTES:
            raise InvalidInput("too_many_rows", field="file", most=service.MAX_CSV_ROWS)
        with uow() as w:
            f = service.submit_csv(w, current_user, data, name)
            file_id, job_id = f.id, f.job_id
    except NotFound:
        abort(404)
    except InvalidInput as e:
        msg = service.FILE_REASONS.get(e.code, service.FILE_REASONS["not_text"])
        params = {k: v for k, v in e.params.items() if k != "field"}
        form.file.errors = [gettext(msg, **params) if params else translate(msg)]
        return _page(LoanForm(formdata=None), form, errors=form_errors(form), status=400)
    queue.enqueue_or_leave(job_id)
    return redirect(url_for("lenders.portfolio_file", file_id=file_id), 303)


@bp.get("/cartera/plantilla.csv")
@login_required
def portfolio_template():  # noqa: ANN201
    _lender_only()
    lang = current_language()
    name = "plantilla_cartera.csv" if lang == "es" else "portfolio_template.csv"
    return Response(service.template_csv(lang), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/cartera/<id:file_id>")
@login_required
def portfolio_file(file_id: int):  # noqa: ANN201
    _lender_only()
    outcome = request.args.get("resultado", "")
    if outcome not in FILTERS:
        abort(400)
    page = paging.page_asked()
    lang = current_language()
    try:
        with uow() as w:
            f = service.get(w, current_user, file_id)
            rows, count = service.rows_page(w, current_user, file_id, outcome=outcome or None,
                                            offset=(page - 1) * PER_PAGE, limit=PER_PAGE)
            shown = [{"number": r.row_number, "action": (r.raw_values or {}).get("action", ""),
                      "loan": (r.raw_values or {}).get("loan_number", ""),
                      "catastro": (r.raw_values or {}).get("catastro", ""),
                      "what": service.what(r),
                      "column": service.column_header(r.error_column, lang),
                      "reason": service.reason_text(r)} for r in rows]
            w.session.expunge_all()
    except NotFound:
        abort(404)
    pages = page_count(count, page, PER_PAGE)
    active = f.status in ("queued", "running")
    percent = 100 * f.processed // f.total if f.total else 100
    return render_template(
        "lenders/portfolio_file.html", file=f, rows=shown, page=page, pages=pages,
        outcome=outcome, filters=FILTERS, status_text=STATUSES.get(f.status, f.status),
        active=active, percent=percent,
        labels={k: translate(v) for k, v in service.OUTCOME_LABELS.items()})


@bp.get("/cartera/<id:file_id>/informe.csv")
@login_required
def portfolio_report(file_id: int):  # noqa: ANN201
    _lender_only()
    lang = current_language()
    try:
        with uow() as w:
            service.get(w, current_user, file_id)
    except NotFound:
        abort(404)
    name = f"cartera_{file_id}_informe.csv" if lang == "es" else f"portfolio_{file_id}_report.csv"

    def lines() -> Any:
        with uow() as w:
            yield from service.report_csv(w, current_user, file_id, lang=lang)

    return Response(stream_with_context(lines()), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})
