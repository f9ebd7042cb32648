"""The bank's bill files: `/prestamista/facturas` makes one for a fiscal year
(optionally only what falls due by a day) and lists the latest; a file's page shows its
lines (paged, filtered by loan or catastro number, last timely day and "something due"),
its CSV, and pays the filtered lines (the whole file when unfiltered) in one payment: the
payment is prepared and kept with its exceptions report (what changed since the file; a
page and a CSV to read later), then confirmed: one checkout of its items. Thin: validate,
call `portal.lenders.bills`, render."""

from __future__ import annotations

from datetime import date
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
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required

from portal import clock, date_input
from portal.accounts.errors import InvalidInput, NotFound
from portal.core.money import parse_money
from portal.i18n import current_language
from portal.jobs import queue, runner
from portal.lenders import bill_jobs, bill_start
from portal.lenders import bills as service
from portal.payments.gateway import GatewayError
from portal.payments.service import OthersPaying, PricesChanged, start_planned
from portal.web import paging
from portal.web.data import database, uow
from portal.web.lenders import bp
from portal.web.payments.gateways import gateway
from portal.web.payments.present import gateway_error

REFUSALS = {"unknown_fiscal_year": _l("Choose one of the fiscal years listed."),
            "due_by_outside": _l("The due date must be within the fiscal year.")}


def _lender_only() -> None:
    if not current_user.is_lender:
        abort(404)


def _day(text: str) -> date | None:
    """A date typed by the reader (`date_input`), None when empty; InvalidInput otherwise."""
    text = (text or "").strip()
    if not text:
        return None
    try:
        return date_input.parse(text, current_language())
    except date_input.DateInputError:
        raise InvalidInput("bad_date") from None


def _index(errors: list[tuple[str | None, str]] | None = None, values: Any = None,
           status: int = 200):  # noqa: ANN202
    try:
        with uow() as w:
            recent = service.recent(w, current_user)
            years = [fy.label for fy in service.fiscal_years(w)]
            try:
                current = service.fiscal_year_of(w, None, clock.today()).label
            except InvalidInput:
                current = years[-1] if years else ""
            w.session.expunge_all()
    except NotFound:
        abort(404)
    return render_template("lenders/bills.html", recent=recent, years=years,
                           values=values or {"fiscal_year": current, "due_by": ""},
                           errors=errors or [],
                           date_hint=date_input.hint(current_language())), status


@bp.get("/facturas")
@login_required
def bills():  # noqa: ANN201
    _lender_only()
    return _index()


@bp.post("/facturas")
@login_required
def bill_make():  # noqa: ANN201
    """The file of the lender's loans in force today (kept: a payment later says what
    changed since)."""
    _lender_only()
    values = {"fiscal_year": request.form.get("fiscal_year", "")[:9],
              "due_by": request.form.get("due_by", "")[:40]}
    fid = job_id = None
    try:
        due_by = _day(values["due_by"])
        with uow() as w:
            size = bill_jobs.file_size(w, current_user)
            if size > bill_jobs.INLINE_MAX:
                fy = service.fiscal_year_of(w, values["fiscal_year"] or None, clock.today())
                job_id = bill_jobs.submit_file(w, current_user, fiscal_year=fy.label,
                                               due_by=due_by, size=size).id
            else:
                fid = service.make(w, current_user, fiscal_year=values["fiscal_year"] or None,
                                   due_by=due_by).id
    except NotFound:
        abort(404)
    except InvalidInput as e:
        field = "#fiscal_year" if e.code == "unknown_fiscal_year" else "#due_by"
        text = (str(REFUSALS[e.code]) if e.code in REFUSALS else
                date_input.DateInputError("bad_date").message(current_language()))
        return _index([(field, text)], values, 400)
    if job_id is not None:
        queue.enqueue_or_leave(job_id)
        return redirect(url_for("lenders.bill_job", job_id=job_id), 303)
    return redirect(url_for("lenders.bill", file_id=fid), 303)


def _filters() -> tuple[service.Filters, dict[str, str]]:
    """The file page's filters from the query (or the pay form); 400 on a bad one."""
    src = request.form if request.method == "POST" else request.args
    args = {"q": src.get("q", "").strip()[:40], "hasta": src.get("hasta", "").strip()[:40],
            "adeudadas": "1" if src.get("adeudadas") == "1" else ""}
    try:
        by = _day(args["hasta"])
    except InvalidInput:
        abort(400)
    return service.Filters(q=args["q"], by=by, owed=bool(args["adeudadas"])), args


@bp.get("/facturas/<id:file_id>")
@login_required
def bill(file_id: int):  # noqa: ANN201
    _lender_only()
    flt, args = _filters()
    page = paging.page_asked()
    try:
        with uow() as w:
            f = service.get(w, current_user, file_id)
            label = service.fiscal_year_label(w, f)
            lines = service.lines_page(w, current_user, file_id, flt, page)
            w.session.expunge_all()
    except NotFound:
        abort(404)
    if page > lines.pages:
        abort(404)
    shown = {k: v for k, v in args.items() if v}
    return render_template("lenders/bill.html", file=f, label=label, lines=lines, args=shown,
                           values=args, date_hint=date_input.hint(current_language()))


@bp.get("/facturas/<id:file_id>.csv")
@login_required
def bill_csv(file_id: int):  # noqa: ANN201
    _lender_only()
    flt, _args = _filters()
    lang = current_language()
    try:
        with uow() as w:
            service.get(w, current_user, file_id)
    except NotFound:
        abort(404)
    name = f"facturas_{file_id}.csv" if lang == "es" else f"bills_{file_id}.csv"

    def lines() -> Any:
        with uow() as w:
            yield from service.lines_csv(w, current_user, file_id, flt, lang)

    return Response(stream_with_context(lines()), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.post("/facturas/<id:file_id>/pagar")
@login_required
def bill_pay(file_id: int):  # noqa: ANN201
    """One payment of the filtered lines owed (the whole file when unfiltered): prepared and
    kept with its exceptions report, then its page."""
    _lender_only()
    flt, _args = _filters()
    pid = job_id = None
    try:
        with uow() as w:
            size = bill_jobs.prepare_size(w, current_user, file_id, flt)
            if size > bill_jobs.INLINE_MAX:
                job_id = bill_jobs.submit_prepare(w, current_user, file_id, flt, size=size).id
            else:
                pid = service.prepare(w, current_user, file_id, flt).id
    except NotFound:
        abort(404)
    if job_id is not None:
        queue.enqueue_or_leave(job_id)
        return redirect(url_for("lenders.bill_job", job_id=job_id), 303)
    return redirect(url_for("lenders.bill_payment", file_id=file_id, payment_id=pid), 303)


#: What a making job's page says, by the job's kind and status.
MAKING_TITLES = {bill_jobs.FILE: _l("Making your bill file"),
                 bill_jobs.PREPARE: _l("Preparing your payment"),
                 bill_jobs.LOANS: _l("Preparing the payment of your loans")}
MAKING = {"queued": _l("Waiting to start"), "running": _l("Reading your loans"),
          "succeeded": _l("Done"), "failed": _l("Not done")}


@bp.get("/facturas/trabajos/<id:job_id>")
@login_required
def bill_job(job_id: int):  # noqa: ANN201
    """A bill file being made, or a payment being prepared, out of the click: its progress
    (a polite live region, never reloaded by itself without script), then the file or the
    payment it made (303)."""
    _lender_only()
    try:
        with uow() as w:
            job = bill_jobs.job_of(w, current_user, job_id)
            w.session.expunge_all()
    except NotFound:
        abort(404)
    made = job.result or {}
    if job.status == "succeeded" and made.get("payment_id"):
        return redirect(url_for("lenders.bill_payment", file_id=made["file_id"],
                                payment_id=made["payment_id"]), 303)
    if job.status == "succeeded" and made.get("file_id"):
        return redirect(url_for("lenders.bill", file_id=made["file_id"]), 303)
    figures = runner.Figures(job)
    params = job.params or {}
    back = (url_for("lenders.bill", file_id=params["file_id"]) if job.kind == bill_jobs.PREPARE
            else url_for("lenders.loans") if job.kind == bill_jobs.LOANS
            else url_for("lenders.bills"))
    error = None
    if job.status == "failed":
        error = _("It could not be done. Try again from the page you started it on: nothing "
                  "was made.")
    elif job.status == "succeeded" and params.get("list"):  # a CSV of loan numbers
        error = _("Nothing is due now on the loans the file names.")
    elif job.status == "succeeded":  # the loans page's set had nothing due by then
        error = _("Nothing is due now on the loans these filters select.")
    return render_template(
        "lenders/bill_job.html", job=job, title=str(MAKING_TITLES[job.kind]),
        status_text=str(MAKING.get(job.status, job.status)), percent=figures.percent,
        total=job.total or 0, back=back, error=error)


#: What the payment's page says while its start runs, by the job's status.
STARTING = {"queued": _l("Waiting to start"), "running": _l("Writing the payment"),
            "succeeded": _l("Ready to pay"), "failed": _l("Not started")}
CHANGED_TEXT = _l("The amounts changed since this payment was prepared, or it was already "
                  "started: prepare it again from the file.")
OTHERS_TEXT = _l("Someone else is already paying some of these loans. To pay them too, "
                 "check the box below.")


def _starting(w: Any, pay: Any) -> dict[str, Any] | None:
    """The job that starts the payment, as the page shows it (None: no job)."""
    job = bill_start.job_of(w, pay)
    if job is None:
        return None
    figures = runner.Figures(job)
    url = bill_start.open_url(w, pay) if job.status == "succeeded" else None
    error = None
    if job.status == "failed":
        code = job.error_code
        error = (str(OTHERS_TEXT) if code == bill_start.OTHERS
                 else gateway_error((job.error_params or {}).get("kind", ""))
                 if code == bill_start.GATEWAY else str(CHANGED_TEXT)
                 if code == bill_start.CHANGED else _(
                     "The payment could not be started. Try again: nothing was charged."))
    return {"id": job.id, "status": job.status, "active": job.active,
            "status_text": str(STARTING.get(job.status, job.status)),
            "percent": figures.percent, "done": job.done, "total": job.total or pay.items,
            "url": url, "error": error, "others": job.error_code == bill_start.OTHERS}


def _payment_page(file_id: int, payment_id: int, *, error: str | None = None,
                  others: bool = False, status: int = 200):  # noqa: ANN202
    page = paging.page_asked()
    try:
        with uow() as w:
            f = service.get(w, current_user, file_id)
            pay = service.payment_of(w, current_user, file_id, payment_id)
            found = service.exceptions_page(w, current_user, file_id, payment_id, page)
            rows = [{"loan": e.loan_number, "catastro": e.catastro, "billed": e.billed,
                     "now": e.now, "code": e.code, "text": service.exception_text(e.code)}
                    for e in found.rows]
            starting = _starting(w, pay)
            w.session.expunge_all()
    except NotFound:
        abort(404)
    if page > found.pages:
        abort(404)
    if starting is not None and starting["error"] and error is None:
        error, others = starting["error"], starting["others"]
    failed = starting is not None and starting["status"] == "failed"
    stale = pay.as_of != clock.today() or (pay.checkout_id is not None and starting is None)
    return render_template("lenders/bill_pay.html", file=f, pay=pay, rows=rows,
                           exceptions=found, error=error, others=others,
                           stale=stale, starting=None if failed else starting), status


@bp.get("/facturas/<id:file_id>/pagos/<id:payment_id>")
@login_required
def bill_payment(file_id: int, payment_id: int):  # noqa: ANN201
    """A prepared payment: what it pays, its exceptions report (paged, kept), and the
    confirmation that starts it; once confirmed, the progress of its start, then the link
    to pay."""
    _lender_only()
    return _payment_page(file_id, payment_id)


@bp.get("/facturas/<id:file_id>/pagos/<id:payment_id>/excepciones.csv")
@login_required
def bill_exceptions_csv(file_id: int, payment_id: int):  # noqa: ANN201
    """The payment's exceptions report as kept, streamed."""
    _lender_only()
    lang = current_language()
    try:
        with uow() as w:
            service.payment_of(w, current_user, file_id, payment_id)
    except NotFound:
        abort(404)
    name = (f"excepciones_{file_id}_{payment_id}.csv" if lang == "es"
            else f"exceptions_{file_id}_{payment_id}.csv")

    def lines() -> Any:
        with uow() as w:
            yield from service.stored_exceptions_csv(w, current_user, file_id, payment_id,
                                                     lang)

    return Response(stream_with_context(lines()), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


def _return_to(endpoint: str) -> str:
    """The payer's way back from the provider, "{id}" for the checkout's id (the job fills
    it in once the checkout is written)."""
    return url_for(endpoint, checkout_id=_PLACEHOLDER, _external=True).replace(
        str(_PLACEHOLDER), "{id}")


_PLACEHOLDER = 987654321


@bp.post("/facturas/<id:file_id>/pagos/<id:payment_id>/confirmar")
@login_required
def bill_payment_confirm(file_id: int, payment_id: int):  # noqa: ANN201
    """Start the prepared payment: at most `bill_start.INLINE_MAX` items within the click
    (the provider's page next), more by a job (this payment's page shows its progress, then
    the link to pay)."""
    _lender_only()
    try:
        expected = parse_money(request.form.get("expected_total", ""))
    except ValueError:
        expected = None
    pay_anyway = request.form.get("pay_anyway") == "yes"
    success, cancel = _return_to("payments.success"), _return_to("payments.cancel")
    try:
        plan = service.to_start(database(), current_user, file_id, payment_id,
                                expected_total=expected)
        if plan.open is not None:  # started already, its checkout still open
            return redirect(plan.open[1], 303)
        with uow() as w:
            items = service.payment_of(w, current_user, file_id, payment_id).items
            job_id = None
            if items > bill_start.INLINE_MAX:
                job_id = bill_start.submit(
                    w, current_user, file_id, payment_id, expected_total=expected,
                    language=current_language(), success_url=success, cancel_url=cancel,
                    pay_anyway=pay_anyway).id
        if job_id is not None:
            queue.enqueue_or_leave(job_id)
            return redirect(url_for("lenders.bill_payment", file_id=file_id,
                                    payment_id=payment_id), 303)
        started = start_planned(
            database(), plan, user=current_user, language=current_language(),
            gateway=gateway(), description=bill_start.description(file_id, current_language()),
            success_url=success, cancel_url=cancel, ip=request.remote_addr,
            pay_anyway=pay_anyway)
    except NotFound:
        abort(404)
    except (service.Changed, PricesChanged):
        return _payment_page(file_id, payment_id, status=409, error=str(CHANGED_TEXT))
    except OthersPaying:
        return _payment_page(file_id, payment_id, status=409, others=True,
                             error=str(OTHERS_TEXT))
    except GatewayError as exc:
        return _payment_page(file_id, payment_id, status=503, error=gateway_error(exc.kind))
    return redirect(started.url, 303)
