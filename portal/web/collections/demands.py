"""Collections (J9): the staff's pages under /personal/cobros (start the delinquency run as a
background job, the demands by status, one demand with its mailing, return receipt and claim,
the court list) and the demand letter's PDF, for staff and for the account's payer or owner
(404 for anyone else). Thin: validate with WTForms, call `portal.collections.demands`,
render."""

from __future__ import annotations

from datetime import date

from flask import (
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required

from portal import clock, date_input
from portal.accounts import access, closed_days
from portal.accounts.errors import Conflict, Forbidden, InvalidInput, NotFound
from portal.collections import demands, letters, schedule
from portal.core.explain import N_
from portal.documents import court_packet, demand_letter
from portal.i18n import current_language, formats
from portal.jobs import queue, runner
from portal.web.accounts import views as account_views
from portal.web.collections import bp
from portal.web.collections.forms import (
    ClaimForm,
    CorrectionForm,
    FilterForm,
    MailingForm,
    MailingsForm,
    ReceiptForm,
    RunForm,
)
from portal.web.collections.views import STATUS_LABELS, row_view, status_text
from portal.web.data import uow
from portal.web.form_errors import form_errors
from portal.web.jobs import views as jobs_view
from portal.web.pdf_response import pdf_response
from portal.web.staff_access import staff_required

STAFF = "/personal/cobros"

# The job page names this kind and its refusals (the staff's jobs view reads these tables).
jobs_view.KINDS.setdefault(demands.KIND, _l("Collections run: demand letters"))
jobs_view.ERRORS.setdefault("no_fiscal_year", _l("No fiscal year includes that day: the run "
                                                 "needs the year's assessments."))

CONFLICTS = {
    "already_mailed": _l("The mailing of this demand is already recorded."),
    "already_claimed": _l("The claim in court of this demand is already recorded."),
    "not_mailed": _l("Record the mailing first: the 15 days run from it."),
    "unchanged": _l("Nothing was changed: the mailing is recorded with that number and "
                    "date."),
    "no_fiscal_year": _l("No fiscal year includes that day: the run needs the year's "
                         "assessments."),
}


def _after() -> int:
    """The list's page: the id after which it starts (a bad or huge value is the first page)."""
    value = request.args.get("despues", type=int, default=0) or 0
    return value if 0 < value <= access.MAX_ID else 0


def _filter() -> FilterForm:
    form = FilterForm(request.args)
    f = formats()
    form.estado.choices = [("", f.words(N_("Every status")))] + [
        (k, status_text(k, f)) for k in STATUS_LABELS]
    return form


@bp.get(STAFF)
@staff_required
def index():  # noqa: ANN201
    return _index()


def _index(upload: MailingsForm | None = None, row_errors=None, status_code: int = 200
           ):  # noqa: ANN001, ANN202
    form = _filter()  # validated only when a status is asked for: a plain list has no error
    status = form.estado.data if ("estado" in request.args and form.validate()
                                  and form.estado.data) else None
    after = _after()
    f = formats()
    with uow() as w:
        rows = [row_view(r, f) for r in demands.demands(w, current_user, status=status,
                                                             after=after)]
        recent = [jobs_view.job_view(j)
                  for j in runner.recent(w, current_user, limit=5, kinds=[demands.KIND])]
        next_run = schedule.next_run(w, clock.today())
        print_days = letters.print_days(w)
    run_form = RunForm(formdata=None, data={"run_on": clock.today()})
    more = rows[-1].id if len(rows) >= demands.PAGE else None
    return render_template("collections/index.html", rows=rows, form=form, run_form=run_form,
                           jobs=recent, status=status, more=more,
                           upload=upload or MailingsForm(formdata=None),
                           next_run=next_run, print_days=print_days,
                           row_errors=row_errors or [],
                           errors=form_errors(upload) if upload is not None else []), status_code


#: A row error of the post office's file, in the staff's words (`RowError.code`).
ROW_ERRORS = {
    "missing": _l("missing"),
    "invalid": _l("not valid"),
    "not_found": _l("no such demand"),
    "twice": _l("the same demand twice in the file"),
    "future": _l("a day to come"),
    "before_mailing": _l("before the mailing"),
    "before_demand": _l("before the demand existed"),
    "empty": _l("the file is empty"),
    "not_text": _l("not a CSV file (a spreadsheet saved as CSV)"),
    "other_mailing": _l("this demand's mailing is recorded with another number or date"),
    "too_many": _l("more rows than one file takes (5,000)"),
}
def _row_error(p: demands.RowError) -> str:
    """A row's error in the staff's words; for a date or an amount, the parser's own message
    (how to write it)."""
    if p.typed is not None:
        if isinstance(p.typed, date_input.DateInputError):
            return p.typed.message(current_language())
        return p.typed.message()
    return (str(ROW_ERRORS.get(p.code.split(":")[0], p.code))
            + (": " + p.code.split(":", 1)[1] if ":" in p.code else ""))


ROW_FIELDS = {"demand": _l("Demand"), "number": _l("Certified-mail number"),
              "mailed_on": _l("Mailing date"), "received_on": _l("Date on the return receipt"),
              "cost": _l("Postage"), "columns": _l("Columns"), "rows": _l("Rows"),
              "file": _l("File")}


@bp.post(f"{STAFF}/envios")
@staff_required
def record_mailings():  # noqa: ANN201
    """The post office's CSV (columns requerimiento, numero, enviado, and optionally acuse
    and franqueo): all rows recorded, or none and each row's errors."""
    upload = MailingsForm()
    if not upload.validate():
        return _index(upload, status_code=400)
    name = (upload.file.data.filename or "").lower()
    if not name.endswith((".csv", ".txt")):
        upload.file.errors = [_("Upload a .csv file (a spreadsheet saved as CSV, UTF-8).")]
        return _index(upload, status_code=400)
    rows, problems = demands.read_mailings(upload.file.data.stream.read())
    if not problems and not rows:
        upload.file.errors = [_("The file has no rows.")]
        return _index(upload, status_code=400)
    new = 0
    if not problems:
        try:
            with uow() as w:
                new = demands.record_mailings(w, current_user, rows, current_language())
        except Forbidden:
            abort(403)
        except InvalidInput as exc:
            problems = exc.params.get("errors", [])
    if problems:
        shown = [(p.line, str(ROW_FIELDS.get(p.field, p.field)), _row_error(p))
                 for p in problems]
        upload.file.errors = [_("Nothing was recorded: correct the rows listed and upload the "
                                "file again.")]
        return _index(upload, shown, 400)
    if not new:
        flash(_("Nothing new was recorded: every row of the file was already recorded."),
              "info")
    else:
        flash(_("Mailings recorded: %(n)s.", n=new), "success")
    return redirect(url_for("collections.index"), 303)


@bp.post(f"{STAFF}/correr")
@staff_required
def start_run():  # noqa: ANN201
    form = RunForm()
    if not form.validate():
        flash(" ".join(e for _h, e in form_errors(form)), "error")
        return redirect(url_for("collections.index"), 303)
    try:
        with uow() as w:
            job_id = runner.submit(w, current_user, demands.KIND,
                                 {"run_on": form.run_on.data.isoformat()}).id
    except Forbidden:
        abort(403)
    except InvalidInput:
        flash(_("The run's day cannot be a day to come."), "error")
        return redirect(url_for("collections.index"), 303)
    except Conflict as exc:
        flash(str(CONFLICTS.get(exc.code, _("The run cannot start now."))), "error")
        return redirect(url_for("collections.index"), 303)
    queue.enqueue_or_leave(job_id)
    return redirect(url_for("jobs.job", job_id=job_id), 303)


@bp.get(f"{STAFF}/impresion.pdf")
@staff_required
def print_file():  # noqa: ANN201
    """R-A17: the owners' copies queued on a day (`dia`, year-month-day) whose owner has no
    account to email them to, in one PDF, to be printed and mailed with the demands."""
    try:
        day = date.fromisoformat(request.args.get("dia", ""))
    except ValueError:
        abort(404)
    with uow() as w:
        pdf = letters.print_file(w, day)
    if pdf is None:
        abort(404)
    name = ("copias-propietarios-" if current_language() == "es" else "owner-copies-")
    return pdf_response(pdf, f"{name}{day.isoformat()}.pdf")


@bp.get(f"{STAFF}/tribunal")
@staff_required
def court():  # noqa: ANN201
    f = formats()
    after = _after()
    with uow() as w:
        rows = [row_view(r, f) for r in demands.court_list(w, current_user,
                                                               after=after)]
    more = rows[-1].id if len(rows) >= demands.PAGE else None
    return render_template("collections/court.html", rows=rows, more=more)


def _demand_page(notice_id: int, *, mailing=None, receipt=None, claim=None,  # noqa: ANN001
                 correction=None, errors=None, status: int = 200):  # noqa: ANN001, ANN202
    f = formats()
    with uow() as w:
        found = [r for r in demands.demands(w, current_user, after=notice_id - 1, limit=1)
                 if r.notice.id == notice_id]
        if not found:
            abort(404)
        row = row_view(found[0], f)
        minimum = demands.claim_minimum(w, found[0].notice, found[0].fiscal_year)
        copy = demands.owner_copy_of(w, current_user, found[0])
    today = clock.today()
    mailing = mailing or MailingForm(formdata=None, data={"mailed_on": today})
    receipt = receipt or ReceiptForm(formdata=None, data={"received_on": today})
    claim = claim or ClaimForm(formdata=None, data={"filed_on": today})
    correction = correction or CorrectionForm(formdata=None, data={
        "mailed_on": row.mailed_on, "certified_mail_number": row.number_value})
    return render_template("collections/demand.html", d=row, mailing=mailing,
                           receipt=receipt, claim=claim, correction=correction,
                           minimum_text=f.money(minimum) if minimum is not None else "",
                           copy=copy,
                           errors=errors or []), status


#: Why a mailing's date was refused (`InvalidInput.code` of `portal.collections.mailing`).
MAILING_DATE_ERRORS = {
    "future": _l("The mailing date cannot be a day to come."),
    "before_demand": _l("The mailing date cannot be before the demand existed (%(day)s)."),
    "after_receipt": _l("The mailing date cannot be after the date on the return receipt."),
}
NUMBER_ERROR = _l("Write the certified-mail number as printed: 20 or 22 digits (spaces "
                  "allowed), for example 9407 1118 9876 5432 1001 23.")


def _mailing_refused(form, exc: InvalidInput) -> None:  # noqa: ANN001
    """The refusal of a mailing's number or date, on its field."""
    if exc.params.get("field") == "certified_mail_number":
        form.certified_mail_number.errors = [str(NUMBER_ERROR)]
        return
    day = exc.params.get("demand_on")
    form.mailed_on.errors = [str(MAILING_DATE_ERRORS.get(exc.code, MAILING_DATE_ERRORS[
        "future"])) % {"day": formats().date_long(day) if day else ""}]


@bp.get(f"{STAFF}/<id:notice_id>")
@staff_required
def demand(notice_id: int):  # noqa: ANN201
    return _demand_page(notice_id)


def _done(notice_id: int, message: str):  # noqa: ANN202
    flash(message, "success")
    return redirect(url_for("collections.demand", notice_id=notice_id), 303)


def _refused(notice_id: int, exc: Exception, **forms):  # noqa: ANN003, ANN202
    if isinstance(exc, NotFound):
        abort(404)
    if isinstance(exc, Forbidden):
        abort(403)
    if isinstance(exc, Conflict):
        flash(str(CONFLICTS.get(exc.code, _("This cannot be recorded now."))), "error")
        return redirect(url_for("collections.demand", notice_id=notice_id), 303)
    raise exc


@bp.post(f"{STAFF}/<id:notice_id>/envio")
@staff_required
def record_mailing(notice_id: int):  # noqa: ANN201
    form = MailingForm()
    if form.validate():
        try:
            with uow() as w:
                demands.record_mailing(w, current_user, notice_id, form.mailed_on.data,
                                           form.certified_mail_number.data.strip(),
                                           form.cost.data)
            return _done(notice_id, _("The mailing is recorded: the 15 days run from it."))
        except InvalidInput as exc:
            _mailing_refused(form, exc)
        except (NotFound, Forbidden, Conflict) as exc:
            return _refused(notice_id, exc)
    return _demand_page(notice_id, mailing=form, errors=form_errors(form), status=400)


@bp.post(f"{STAFF}/<id:notice_id>/envio/correccion")
@staff_required
def correct_mailing(notice_id: int):  # noqa: ANN201
    """R-A13: correct a recorded mailing's number or date (audited, old and new values); the
    15 days run from the corrected date."""
    form = CorrectionForm()
    if form.validate():
        try:
            with uow() as w:
                demands.correct_mailing(w, current_user, notice_id, form.mailed_on.data,
                                        form.certified_mail_number.data.strip())
            return _done(notice_id, _("The mailing is corrected: the 15 days run from the "
                                      "corrected date."))
        except InvalidInput as exc:
            _mailing_refused(form, exc)
        except (NotFound, Forbidden, Conflict) as exc:
            return _refused(notice_id, exc)
    return _demand_page(notice_id, correction=form, errors=form_errors(form), status=400)


@bp.post(f"{STAFF}/<id:notice_id>/acuse")
@staff_required
def record_receipt(notice_id: int):  # noqa: ANN201
    form = ReceiptForm()
    if form.validate():
        try:
            with uow() as w:
                demands.record_receipt(w, current_user, notice_id, form.received_on.data)
            return _done(notice_id, _("The return receipt is recorded."))
        except InvalidInput:
            form.received_on.errors = [_("The return receipt's date must be on or after the "
                                         "mailing and not a day to come.")]
        except (NotFound, Forbidden, Conflict) as exc:
            return _refused(notice_id, exc)
    return _demand_page(notice_id, receipt=form, errors=form_errors(form), status=400)


@bp.post(f"{STAFF}/<id:notice_id>/reclamacion")
@staff_required
def record_claim(notice_id: int):  # noqa: ANN201
    form = ClaimForm()
    if form.validate():
        try:
            with uow() as w:
                demands.record_claim(
                    w, current_user, notice_id, form.filed_on.data,
                    form.case_number.data.strip(),
                    confirmed_under_minimum=bool(form.confirm_under_minimum.data))
            return _done(notice_id, _("The claim in court is recorded."))
        except InvalidInput:
            form.filed_on.errors = [_("The claim can be filed from the day after the last "
                                      "day to pay, and not on a day to come.")]
        except Conflict as exc:
            if exc.code != "below_minimum":
                return _refused(notice_id, exc)
            f = formats()
            form.confirm_under_minimum.errors = [_(
                "This demand listed %(amount)s, less than the Board's demand minimum of "
                "%(minimum)s (R-A17). Check the box to confirm the claim anyway.",
                amount=f.money(exc.params["amount"]), minimum=f.money(exc.params["minimum"]))]
        except (NotFound, Forbidden) as exc:
            return _refused(notice_id, exc)
    return _demand_page(notice_id, claim=form, errors=form_errors(form), status=400)


@bp.get("/cobros/requerimiento/<id:notice_id>.pdf")
@login_required
def letter_pdf(notice_id: int):  # noqa: ANN201
    """The demand letter (R-A17), the addressee's language first: for staff, the account's
    payer and owner (and their delegate); 404 for anyone else."""
    copy = request.args.get("copia") == "1"
    try:
        with uow() as w:
            kept = demands.kept_letter(w, current_user, notice_id, copy=copy)
            if kept is None:  # queued before letters were kept: from its stored amounts
                lf = demands.letter(w, current_user, notice_id)
                kept = demand_letter.letter_pdf(lf, closed_days.declared(w))
    except NotFound:
        abort(404)
    return pdf_response(kept, demand_letter.letter_filename(notice_id, current_language()))


@bp.get(f"{STAFF}/<id:notice_id>/expediente.pdf")
@staff_required
def packet_pdf(notice_id: int):  # noqa: ANN201
    """The court packet of a Rule 60 claim (R-A13), in the staff's language: the statement of
    account today, the demand as it was sent, and the receipt of mailing. Only for a demand
    that may be claimed (its last day passed, what it listed still owed)."""
    lang = current_language()
    today = clock.today()
    try:
        with uow() as w:
            lf = demands.letter(w, current_user, notice_id)
            closed = closed_days.declared(w)
            kept = demands.kept_letter(w, current_user, notice_id)
    except NotFound:
        abort(404)
    if not court_packet.may_print(lf):
        flash(_("A court packet is for a demand whose last day has passed and that is still "
                "owed."), "error")
        return redirect(url_for("collections.demand", notice_id=notice_id), 303)
    v = account_views.parcel_view(current_user, lf.parcel.id, today)
    if v is None:
        abort(404)
    return pdf_response(court_packet.packet_pdf(v, lf, lang, closed, kept),
                        court_packet.filename(notice_id, lang))
