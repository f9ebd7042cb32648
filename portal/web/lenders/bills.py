"""The bank's bill files: `/prestamista/facturas` makes one for a fiscal year
(optionally only what falls due by a day) and lists the latest; a file's page shows its
lines (paged, filtered by loan or catastro number, last timely day and "something due"),
its CSV, and pays the filtered lines in one payment: first the exceptions report (what
changed since the file), then the payments' own review and confirmation. Thin: validate,
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
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_login import current_user, login_required

from portal import clock, date_input
from portal.accounts.errors import InvalidInput, NotFound
from portal.i18n import current_language
from portal.lenders import bills as service
from portal.web.data import uow
from portal.web.lenders import bp
from portal.web.payments.many import review_through

REFUSALS = {"unknown_fiscal_year": _l("Choose one of the fiscal years listed."),
            "due_by_outside": _l("The due date must be within the fiscal year."),
            "bad_date": _l("Write the date as day/month/year, e.g. 15/01/2027.")}


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
                           errors=errors or []), status


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
    try:
        due_by = _day(values["due_by"])
        with uow() as w:
            f = service.make(w, current_user, fiscal_year=values["fiscal_year"] or None,
                             due_by=due_by)
            fid = f.id
    except NotFound:
        abort(404)
    except InvalidInput as e:
        field = "#fiscal_year" if e.code == "unknown_fiscal_year" else "#due_by"
        return _index([(field, str(REFUSALS.get(e.code, REFUSALS["bad_date"])))], values, 400)
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
    try:
        page = int(request.args.get("pagina", "1"))
    except ValueError:
        abort(404)
    if not 1 <= page <= 10**6:
        abort(404)
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
                           values=args, max_pay=service.MAX_PAY)


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


def _report(file_id: int) -> tuple[Any, service.ToPay, dict[str, str]]:
    flt, args = _filters()
    try:
        with uow() as w:
            f = service.get(w, current_user, file_id)
            report = service.to_pay(w, current_user, file_id, flt)
            w.session.expunge_all()
    except NotFound:
        abort(404)
    return f, report, args


@bp.post("/facturas/<id:file_id>/pagar")
@login_required
def bill_pay(file_id: int):  # noqa: ANN201
    """The exceptions report of the filtered lines, and what one payment would cover."""
    _lender_only()
    f, report, args = _report(file_id)
    rows = [{"loan": e.line.loan_number, "catastro": e.line.catastro,
             "billed": e.line.amount, "now": e.now, "code": e.code,
             "text": service.exception_text(e.code)} for e in report.exceptions]
    return render_template("lenders/bill_pay.html", file=f, report=report, rows=rows,
                           values=args, max_pay=service.MAX_PAY,
                           status=400 if report.too_many else 200), \
        400 if report.too_many else 200


@bp.post("/facturas/<id:file_id>/pagar/revisar")
@login_required
def bill_review(file_id: int):  # noqa: ANN201
    """The payments' review of the lines to pay (computed again: the same report), then the
    payments' own confirmation (one checkout, one idempotency key)."""
    _lender_only()
    _f, report, args = _report(file_id)
    if report.too_many or not report.choices:
        return redirect(url_for("lenders.bill", file_id=file_id, **{
            k: v for k, v in args.items() if v}), 303)
    n = len(report.exceptions)
    notice = ngettext("%(num)s loan of the file is left out or paid at a new amount: see the "
                      "exceptions report on the file's page.",
                      "%(num)s loans of the file are left out or paid at a new amount: see "
                      "the exceptions report on the file's page.", n, num=n) if n else None
    page = review_through([(p, fy, through) for p, fy, through, _a in report.choices], notice)
    if page is None:
        return redirect(url_for("lenders.bill", file_id=file_id), 303)
    return page


@bp.post("/facturas/<id:file_id>/excepciones.csv")
@login_required
def bill_exceptions(file_id: int):  # noqa: ANN201
    _lender_only()
    _f, report, _args = _report(file_id)
    lang = current_language()
    name = f"excepciones_{file_id}.csv" if lang == "es" else f"exceptions_{file_id}.csv"
    return Response("".join(service.exceptions_csv(report, lang)), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})
