"""The lender's portfolio (J7, only for users of a lender organisation): its loans filtered,
sorted, totalled and paged on the server (portal.services.lenders), the CSV export streamed,
and one payment for a filtered set or for a CSV of loan numbers."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)
from flask_babel import gettext as _
from flask_login import current_user, login_required
from werkzeug.datastructures import MultiDict
from wtforms.fields.choices import SelectChoice

from portal import clock
from portal.core.offer import ChoiceError
from portal.i18n import LOCALES, current_language
from portal.services import lenders
from portal.web.data import uow
from portal.web.lender.forms import FilterForm, LoansFileForm
from portal.web.payments.amounts import parse_amount
from portal.web.payments.many import review_many
from portal.web.present import status_label
from portal.web.request_context import register as register_request_context

bp = Blueprint("lender", __name__, url_prefix="/prestamista")
register_request_context(bp)

#: The query string's names, as the filter form's fields.
FILTERS = ("q", "estado", "municipio", "minimo", "maximo", "vence", "orden", "dir")


def _lender_only() -> None:
    if not current_user.is_lender:
        abort(404)


def _filters(args: Any, municipalities: list[str]) -> tuple[FilterForm, lenders.Query | None]:
    """The filter form from the query string, and the query it asks for (None: an error,
    shown on its field)."""
    form = FilterForm(MultiDict({k: args.get(k, "") for k in FILTERS if args.get(k)}))
    form.municipio.choices = [SelectChoice("", _("Any municipality"))] + [
        SelectChoice(m, m) for m in municipalities]
    ok = form.validate()
    amounts: dict[str, Decimal | None] = {}
    locale = LOCALES.get(current_language(), "es_PR")
    for name in ("minimo", "maximo"):
        text = (form[name].data or "").strip()
        amounts[name] = None
        if text:
            try:
                amounts[name] = parse_amount(text, locale)
            except ChoiceError:
                form[name].errors = [*form[name].errors,
                                     _("Write an amount in dollars, for example 1,500.00.")]
                ok = False
    if not ok:
        return form, None
    page = args.get("page", 1, type=int) or 1
    return form, lenders.Query(
        q=form.q.data or "", status=form.estado.data or "", municipality=form.municipio.data or "",
        due_min=amounts["minimo"], due_max=amounts["maximo"],
        due_within=int(form.vence.data) if form.vence.data else None,
        sort=form.orden.data or "loan", desc=form.dir.data == "desc", page=max(1, page))


def _args(query_args: Any, **changes: Any) -> dict[str, Any]:
    """The current filters (for links: sort, pages, export), with `changes`."""
    out = {k: query_args.get(k) for k in FILTERS if query_args.get(k)}
    out.update({k: v for k, v in changes.items() if v is not None})
    return out


@bp.get("/prestamos")
@login_required
def loans():  # noqa: ANN201
    _lender_only()
    page_arg = request.args.get("page", 1, type=int)
    if page_arg is not None and page_arg > 2**31 // lenders.PER_PAGE:
        abort(404)
    with uow() as w:
        places = lenders.municipalities(w, current_user)
        form, query = _filters(request.args, places)
        result = lenders.portfolio(w, current_user, query) if query is not None else None
    if result is not None and (page_arg or 1) > result.pages:
        abort(404)
    errors = [(f"#{f.id}", e) for f in form for e in f.errors]
    return render_template("lender/loans.html", form=form, result=result, today=clock.today(),
                           errors=errors, args=_args(request.args), file_form=LoansFileForm(),
                           max_pay=lenders.MAX_PAY), 400 if errors else 200


def _csv_rows(rows: Any) -> Any:
    for r in rows:
        yield (r.loan_number, r.catastro, r.address, r.municipality, status_label(r.status),
               "" if r.annual is None else f"{r.annual:.2f}", f"{r.due_now:.2f}",
               r.next_due.isoformat() if r.next_due else "")


@bp.get("/prestamos.csv")
@login_required
def export():  # noqa: ANN201
    """The filtered loans as CSV, streamed in batches (constant memory); cells that a
    spreadsheet would run as a formula are neutralised (`lenders.safe_cell`)."""
    _lender_only()
    with uow() as w:
        form, query = _filters(request.args, lenders.municipalities(w, current_user))
    if query is None:
        abort(400)
    header = (_("Loan"), _("Catastro number"), _("Address"), _("Municipality"), _("Status"),
              _("This year's assessment"), _("Due now"), _("Next due date"))
    user = current_user._get_current_object()

    def generate():  # noqa: ANN202
        with uow() as w:
            yield from lenders.csv_lines(header, _csv_rows(lenders.rows(w, user, query)))
    name = f"prestamos-{clock.today().isoformat()}.csv"
    return Response(stream_with_context(generate()), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.post("/pagar")
@login_required
def pay_filtered():  # noqa: ANN201
    """One payment for what is due now on the loans the filter selects (at most MAX_PAY)."""
    _lender_only()
    with uow() as w:
        form, query = _filters(request.form, lenders.municipalities(w, current_user))
        if query is None:
            abort(400)
        parcel_ids, total = lenders.parcels_to_pay(w, current_user, query)
    if total > lenders.MAX_PAY:
        flash(_("These filters select %(num)s loans with something due; one payment covers "
                "at most %(max)s. Narrow the filters.", num=total, max=lenders.MAX_PAY),
              "warning")
        return redirect(url_for("lender.loans", **_args(request.form)), 303)
    page = review_many(parcel_ids) if parcel_ids else None
    if page is None:
        flash(_("Nothing is due now on the loans these filters select."), "info")
        return redirect(url_for("lender.loans", **_args(request.form)), 303)
    return page


@bp.post("/pagar/archivo")
@login_required
def pay_file():  # noqa: ANN201
    """One payment for what is due now on the loans a CSV of loan numbers names."""
    _lender_only()
    form = LoansFileForm()
    message = None
    if form.validate_on_submit():
        try:
            numbers = lenders.read_loan_numbers(form.file.data.read(lenders.MAX_PAY * 64 + 1))
        except ValueError as exc:
            message = (_("The file names more than %(max)s loans; one payment covers at most "
                         "%(max)s.", max=lenders.MAX_PAY) if str(exc) == "too_many"
                       else _("The file names no loan numbers: one per row, in the first "
                              "column."))
        else:
            with uow() as w:
                parcel_ids, unknown = lenders.parcels_of_loans(w, current_user, numbers)
            if unknown:
                message = _("These loan numbers are not among your loans: %(numbers)s.",
                            numbers=", ".join(unknown[:20]) + ("…" if len(unknown) > 20 else ""))
            else:
                page = review_many(parcel_ids)
                if page is not None:
                    return page
                message = _("Nothing is due now on the loans the file names.")
    else:
        message = next((e for f in form for e in f.errors), None) or _(
            "Choose the CSV file to upload.")
    flash(message, "error")
    return redirect(url_for("lender.loans"), 303)

from portal.web.lender import organisation  # noqa: E402,F401  (its routes, on this blueprint)
