"""The lender's bulk certifications (J7, R-B9, R-B21): the upload page (the template, the
column guide in both languages, the latest batches), a batch's page with its progress while
the job runs and its per-row report (paged, filtered by outcome), the report and the failed
rows as CSV (the failed rows with the same columns and the error, to fix and upload again).
Thin: validate, call `portal.lenders.batches`, render. Only a lender's members
(administrator or clerk); anyone else gets 404."""

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
from wtforms import BooleanField, SelectField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Length, Optional

from portal import clock
from portal.accounts.errors import InvalidInput, NotFound
from portal.documents.exemption_certification import KINSHIP_LABELS
from portal.i18n import current_language, gettext, translate
from portal.jobs import queue
from portal.lenders import batches as service
from portal.web import paging, upload_limits
from portal.web.data import uow
from portal.web.form_errors import form_errors
from portal.web.lenders import bp
from portal.web.paging import page_count

PER_PAGE = 50
#: The largest upload read: a realistic 20,000-row file (MAX_CSV_ROWS) is 2 to 3 MB, over the
#: app's limit for forms; this route's own request limit is raised to this (`_install`).
MAX_BYTES = 8 * 1024 * 1024
FILTERS = {"": _l("All rows"), "accepted": _l("Accepted"), "rejected": _l("Rejected"),
           "duplicate": _l("Already filed")}
STATUSES = {"queued": _l("Waiting to start"), "running": _l("Processing"),
            "done": _l("Processed"), "failed": _l("Stopped")}


class BatchFileForm(FlaskForm):
    file = FileField(_l("The CSV file of certifications"), validators=[
        FileRequired(message=_l("Choose the CSV file to upload."))])
    submit = SubmitField(_l("Upload the certifications"))


def _text(label: Any, most: int = 200) -> StringField:
    return StringField(label, validators=[Optional(), Length(max=most, message=_l(
        "Write at most %(most)s characters.", most=most))])


class OneCertificationForm(FlaskForm):
    """One certification, as a row of the bulk file (`service.COLUMNS`): the row's checks
    are the service's (`service.submit_one`); the form only bounds the lengths."""

    loan_number = _text(_l("Loan number"), 40)
    catastro = _text(_l("Catastro number"), 40)
    fiscal_year = _text(_l("Fiscal year"), 20)
    delivery_date = _text(_l("Day the owner delivered the signed certification to you"), 20)
    owners = _text(_l("Owners who claim the home (as on record, separated by |)"), 500)
    residential_use = SelectField(_l("Was it the home of the owners or their family on "
                                     "January 1?"),
                                  choices=[SelectChoice("yes", _l("Yes")),
                                           SelectChoice("no", _l("No"))], default="yes")
    occupant = SelectField(_l("Who lives in the home?"), choices=[
        SelectChoice("owner", _l("The owners (with or without their family)")),
        SelectChoice("family", _l("Only the owners' family"))], default="owner")
    family_relationship = SelectField(_l("The family's relationship to the owner"),
                                      choices=[], default="", validate_choice=False)
    rent = SelectField(_l("Is rent received for the home or a part of it?"),
                       choices=[SelectChoice("no", _l("No")), SelectChoice("yes", _l("Yes"))],
                       default="no")
    rent_part = _text(_l("Which part is rented"), 500)
    residential_fraction = _text(_l("Residential fraction, when not the whole property"), 20)
    residential_valuation = _text(_l("Or the residential valuation, in dollars"), 20)
    veteran_amount = _text(_l("Veterans' exemption, in dollars"), 20)
    cooperative_share = _text(_l("A housing cooperative's unit: its share"), 20)
    cooperative_name = _text(_l("The housing cooperative's name"), 200)
    cooperative_election = SelectField(_l("The cooperative's election, for all its units"),
                                       choices=[SelectChoice("", _l("Not applicable")),
                                                SelectChoice("residential",
                                                             _l("The residential exemption, "
                                                                "unit by unit")),
                                                SelectChoice("cooperative_law",
                                                             _l("The exemption of the "
                                                                "cooperatives law instead"))],
                                       default="")
    acquisition_date = _text(_l("A new structure bought after January 1: the deed date"), 20)
    officer_name = _text(_l("Full name of the officer who attests"), 200)
    officer_attests = BooleanField(_l("I attest that the lender holds the certification the "
                                      "owner signed (R-B21)."))
    submit = SubmitField(_l("File the certification"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.family_relationship.choices = [SelectChoice("", _l("Not applicable"))] + [
            SelectChoice(code, label) for code, label in _kinship_choices()]

    def row(self) -> dict[str, str]:
        """The row as the bulk file would hold it."""
        out = {c: (getattr(self, c).data or "") for c in service.COLUMNS
               if c != "officer_attests"}
        out["officer_attests"] = "yes" if self.officer_attests.data else "no"
        return {k: v.strip() if isinstance(v, str) else v for k, v in out.items()}


def _kinship_choices() -> list[tuple[str, Any]]:
    return [(code, _l(KINSHIP_LABELS[code])) for code in KINSHIP_LABELS]


@bp.record_once
def _install(state) -> None:  # noqa: ANN001
    upload_limits.register(state.app, "lenders.batch_upload", MAX_BYTES, "file")


def _lender_only() -> None:
    if not current_user.is_lender:
        abort(404)


def _filename(name: str) -> str:
    return "".join(c for c in (name or "") if c.isprintable())[-200:] or "certificaciones.csv"


def _upload_page(form: BatchFileForm, errors: list[tuple[str | None, str]] | None = None,
                 status: int = 200):  # noqa: ANN202
    with uow() as w:
        recent = service.recent(w, current_user)
        w.session.expunge_all()
    return render_template("lenders/batches.html", form=form, errors=errors or [],
                           recent=recent, statuses=STATUSES, max_rows=service.MAX_CSV_ROWS,
                           columns=service.COLUMNS), status


@bp.get("/certificaciones/lote")
@login_required
def batches():  # noqa: ANN201
    _lender_only()
    try:
        return _upload_page(BatchFileForm(formdata=None))
    except NotFound:
        abort(404)


@bp.post("/certificaciones/lote")
@login_required
def batch_upload():  # noqa: ANN201
    """R-B21: the file is recorded with its rows and processed by a background job (put on
    the queue once recorded); the batch's page shows its progress and report."""
    _lender_only()
    form = BatchFileForm()
    if not form.validate_on_submit():
        return _upload_page(form, form_errors(form), 400)
    upload = form.file.data
    data = upload.read(MAX_BYTES + 1)
    try:
        if len(data) > MAX_BYTES:
            raise InvalidInput("too_many_rows", field="file", most=service.MAX_CSV_ROWS)
        with uow() as w:
            batch = service.submit_csv(w, current_user, data, _filename(upload.filename))
            batch_id, job_id = batch.id, batch.job_id
    except NotFound:
        abort(404)
    except InvalidInput as e:
        msg = service.FILE_REASONS.get(e.code, service.FILE_REASONS["not_text"])
        params = {k: v for k, v in e.params.items() if k != "field"}
        text = gettext(msg, **params) if params else translate(msg)
        return _upload_page(form, [("#" + form.file.id, text)], 400)
    queue.enqueue_or_leave(job_id)
    return redirect(url_for("lenders.batch", batch_id=batch_id), 303)


def _one_page(form: OneCertificationForm, errors: list[tuple[str | None, str]] | None = None,
              status: int = 200):  # noqa: ANN202
    today = clock.today()
    hints = {c: service.guide(c, today) for c in service.COLUMNS}
    return render_template("lenders/certification_one.html", form=form, errors=errors or [],
                           hints=hints), status


@bp.get("/certificaciones/una")
@login_required
def certification_one():  # noqa: ANN201
    _lender_only()
    return _one_page(OneCertificationForm(formdata=None))


@bp.post("/certificaciones/una")
@login_required
def certification_one_file():  # noqa: ANN201
    """One certification (R-B13, R-B21): checked as a row of the bulk file, filed by the
    background job as a batch of one row; its page shows the outcome and the reason."""
    _lender_only()
    form = OneCertificationForm()
    if not form.validate_on_submit():
        return _one_page(form, form_errors(form), 400)
    try:
        with uow() as w:
            batch = service.submit_one(w, current_user, form.row())
            batch_id, job_id = batch.id, batch.job_id
    except NotFound:
        abort(404)
    except InvalidInput as e:
        params = {k: v for k, v in e.params.items() if k != "field"}
        text = service.reason_message(e.code or "cannot_compute", params)
        target = getattr(form, str(e.params.get("field") or ""), None) or form.loan_number
        target.errors = [text]
        return _one_page(form, [("#" + target.id, f"{target.label.text}: {text}")], 400)
    queue.enqueue_or_leave(job_id)
    return redirect(url_for("lenders.batch", batch_id=batch_id), 303)


@bp.get("/certificaciones/lote/plantilla.csv")
@login_required
def batch_template():  # noqa: ANN201
    _lender_only()
    lang = current_language()
    name = "plantilla_certificaciones.csv" if lang == "es" else "certifications_template.csv"
    return Response(service.template_csv(lang), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/certificaciones/lote/guia")
@login_required
def batch_guide():  # noqa: ANN201
    _lender_only()
    today = clock.today()
    rows = [(service.HEADERS["es"][c], service.HEADERS["en"][c], c in service.REQUIRED,
             service.guide(c, today)) for c in service.COLUMNS]
    spanish = {code: word for word, code in service.KINSHIP_WORDS_ES.items()}
    kinship = [(spanish.get(code, ""), code, translate(KINSHIP_LABELS[code]))
               for code in KINSHIP_LABELS]
    return render_template("lenders/batch_guide.html", rows=rows, kinship=kinship)


def _reason(row: Any) -> str:
    return service.reason_text(row)


@bp.get("/certificaciones/lote/<id:batch_id>")
@login_required
def batch(batch_id: int):  # noqa: ANN201
    _lender_only()
    outcome = request.args.get("resultado", "")
    if outcome not in FILTERS:
        abort(400)
    page = paging.page_asked()
    lang = current_language()
    try:
        with uow() as w:
            b = service.get(w, current_user, batch_id)
            count = service.rows_count(w, current_user, batch_id, outcome=outcome or None)
            rows = service.rows_page(w, current_user, batch_id, outcome=outcome or None,
                                     offset=(page - 1) * PER_PAGE, limit=PER_PAGE)
            numbers = service.filing_numbers(w, rows)
            shown = [{"number": r.row_number, "loan": r.loan_number, "catastro": r.catastro,
                      "outcome": r.outcome, "column": service.column_header(r.error_column,
                                                                           lang),
                      "reason": _reason(r), "exemption": r.exemption_amount,
                      "net_tax": r.net_tax,
                      "filing": numbers.get(r.certification_id or 0, ""),
                      "certification_id": r.certification_id} for r in rows]
            w.session.expunge_all()
    except NotFound:
        abort(404)
    pages = page_count(count, page, PER_PAGE)
    active = b.status in ("queued", "running")
    percent = 100 * b.processed // b.total if b.total else 100
    return render_template(
        "lenders/batch.html", batch=b, rows=shown, page=page, pages=pages, outcome=outcome,
        filters=FILTERS, status_text=STATUSES.get(b.status, b.status), active=active,
        percent=percent,
        outcome_labels={k: translate(v) for k, v in service.OUTCOME_LABELS.items()})


def _csv(batch_id: int, *, only_failed: bool) -> Response:
    _lender_only()
    lang = current_language()
    try:
        with uow() as w:
            service.get(w, current_user, batch_id)
    except NotFound:
        abort(404)
    if only_failed:
        name = f"lote_{batch_id}_fallidas.csv" if lang == "es" else f"batch_{batch_id}_failed.csv"
    else:
        name = f"lote_{batch_id}_informe.csv" if lang == "es" else f"batch_{batch_id}_report.csv"

    def lines() -> Any:
        with uow() as w:
            yield from service.report_csv(w, current_user, batch_id, only_failed=only_failed,
                                          lang=lang)

    return Response(stream_with_context(lines()), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/certificaciones/lote/<id:batch_id>/informe.csv")
@login_required
def batch_report(batch_id: int):  # noqa: ANN201
    return _csv(batch_id, only_failed=False)


@bp.get("/certificaciones/lote/<id:batch_id>/fallidas.csv")
@login_required
def batch_failed(batch_id: int):  # noqa: ANN201
    return _csv(batch_id, only_failed=True)
