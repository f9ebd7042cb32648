"""The lender's portfolio (J7, only for users of a lender organisation): its loans filtered,
sorted, totalled and paged on the server (portal.lenders.portfolio), the CSV export streamed,
and one payment for a filtered set (by the bill file's prepared payment: any number of
loans) or for a CSV of loan numbers (the same path, any number of loans)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal
from typing import Any, NamedTuple

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
from flask_login import current_user, login_required
from markupsafe import Markup, escape
from werkzeug.datastructures import MultiDict
from wtforms.fields.choices import SelectChoice

from portal import clock, csv_text, money_input
from portal.accounts import access
from portal.accounts.errors import InvalidInput, NotFound
from portal.core.explain import N_
from portal.i18n import LOCALES, current_language, days_left, format_address, formats
from portal.jobs import queue
from portal.lenders import bill_jobs, bills, portfolio
from portal.web.data import uow
from portal.web.forms import word_labels
from portal.web.lenders import bp, intents
from portal.web.lenders.forms import FilterForm, LoansFileForm
from portal.web.present import status_css, status_label
from portal.web.request_context import register as register_request_context

register_request_context(bp)

#: The query string's names, as the filter form's fields.
FILTERS = ("q", "estado", "municipio", "minimo", "maximo", "exoneracion", "vence",
           "adquisicion", "orden", "dir")


def _lender_only() -> None:
    if not current_user.is_lender:
        abort(404)


def _filters(args: Any, municipalities: list[str]) -> tuple[FilterForm, portfolio.Query | None]:
    """The filter form from the query string, and the query it asks for (None: an error,
    shown on its field)."""
    form = FilterForm(MultiDict({k: args.get(k, "") for k in FILTERS if args.get(k)}))
    word_labels(form)
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
                amounts[name] = money_input.parse(text, locale)
            except money_input.MoneyInputError as exc:
                form[name].errors = [*form[name].errors, exc.message()]
                ok = False
    if not ok:
        return form, None
    page = args.get("page", 1, type=int) or 1
    notice = form.adquisicion.data or ""
    return form, portfolio.Query(
        q=form.q.data or "", status=form.estado.data or "", municipality=form.municipio.data or "",
        due_min=amounts["minimo"], due_max=amounts["maximo"],
        due_within=int(form.vence.data) if form.vence.data else None,
        certification=form.exoneracion.data or "",
        notice=notice if notice in portfolio.NOTICES else "",
        notice_within=int(notice) if notice.isdigit() else None,
        sort=form.orden.data or "loan", desc=form.dir.data == "desc", page=max(1, page))


def _args(query_args: Any, **changes: Any) -> dict[str, Any]:
    """The current filters (for links: sort, pages, export), with `changes`."""
    out = {k: query_args.get(k) for k in FILTERS if query_args.get(k)}
    out.update({k: v for k, v in changes.items() if v is not None})
    return out


def _id_url(endpoint: str, name: str) -> Any:
    """`url_for(endpoint, name=id)` for many ids: the URL built once, then the id put in its
    place (the same text as url_for's, without building it fifty times)."""
    mark = str(access.MAX_ID)
    head, found, tail = escape(url_for(endpoint, **{name: access.MAX_ID})).rpartition(mark)
    assert found, endpoint
    return lambda value: f"{head}{int(value)}{tail}"


#: The cells' labels (the stacked table's, on a phone), in the reader's words.
_LABELS = (N_("Loan"), N_("Parcel"), N_("Status"), N_("This year's assessment"), N_("Due now"),
           N_("Next due date"), N_("pay by"), N_("Last day to notify the CRIM"),
           N_("overdue"), N_("in time"))


def list_rows(rows: list[portfolio.Row], today: date) -> list[Markup]:
    """The page's rows, each written directly as its table row (as `backoffice.reports`
    writes a report's: fifty rows of seven cells, whose output through the template cost
    more than the rest of the page), in the request's language (`formats`): links, labels,
    amounts and dates worded once here, each distinct date and status once, every text
    escaped (the links are `_id_url`'s, escaped once; the amount's `data-amount` is a
    Decimal's digits); the labels are the catalog's words as the template's `_` gives them.
    The badge and the notice's deadline are the ui.html macros' markup."""
    f = formats()
    loan_url, parcel_url = _id_url("lenders.loan", "loan_id"), _id_url("accounts.parcel",
                                                                        "parcel_id")
    (l_loan, l_parcel, l_status, l_annual, l_due, l_next, l_pay_by, l_notice, w_overdue,
     w_in_time) = (f.words(m) for m in _LABELS)
    days: dict[date, tuple[str, Markup]] = {}
    labels: dict[str, str] = {}

    def day(d: date) -> tuple[str, Markup]:
        found = days.get(d)
        if found is None:
            found = days[d] = (d.isoformat(), escape(f.date_long(d)))
        return found

    head = (f'\n  <tr>\n    <th scope="row" data-label="{l_loan}"><a href="')
    out = []
    for r in rows:
        status = labels.get(r.status)
        if status is None:
            status = labels[r.status] = (
                f'<td data-label="{l_status}"><span class="portal-status portal-status--'
                f'{escape(status_css(r.status))}">{escape(status_label(r.status))}</span></td>')
        if r.due_now_by is not None:
            iso, long = day(r.due_now_by)
            due_by, pay_by = (f' data-by="{iso}"',
                              f'<br>{l_pay_by} <time datetime="{iso}">{long}</time>')
        else:
            due_by = pay_by = ""
        if r.next_due is not None:
            iso, long = day(r.next_due)
            next_due = f'<time datetime="{iso}">{long}</time>'
        else:
            next_due = "—"
        n = r.notice
        if n is not None:
            iso, long = day(n.last_day)
            notice = (f'<time datetime="{iso}">{long}</time> '
                      f'({escape(f.days_left(n.last_day, today))}) '
                      f'<span class="portal-status portal-status--'
                      f'{"overdue" if n.overdue else "pending"}">'
                      f'{w_overdue if n.overdue else w_in_time}</span>')
        else:
            notice = "—"
        out.append(Markup(
            f'{head}{loan_url(r.loan_id)}">{escape(r.loan_number)}</a></th>\n'
            f'    <td data-label="{l_parcel}"><a href="{parcel_url(r.parcel_id)}">'
            f'{escape(r.catastro)}</a><br>'
            f'{escape(format_address(r.address, r.municipality))}</td>\n'
            f'    {status}\n'
            f'    <td data-label="{l_annual}" class="portal-money">{escape(f.money(r.annual))}'
            f'</td>\n'
            f'    <td data-label="{l_due}" data-figure="due-now" data-parcel="{int(r.parcel_id)}" '
            f'data-amount="{r.due_now}"{due_by}><span class="portal-money">'
            f'{escape(f.money(r.due_now))}</span>{pay_by}</td>\n'
            f'    <td data-label="{l_next}">{next_due}</td>\n'
            f'    <td data-label="{l_notice}">{notice}</td>\n'
            f'  </tr>\n  '))
    return out


class _Parts(NamedTuple):
    """What the list shows that follows from the language, the municipalities and the filters
    alone: the links and filter form (`lenders/_loans_filters.html`), the column heads with
    their sort links (`lenders/_loans_head.html`), the form's errors and the query (of the
    first page) it asks for (None: an error)."""

    filters: Markup
    head: Markup
    errors: list[tuple[str, str]]
    query: portfolio.Query | None


#: At most this many `_Parts` kept by an app (then forgotten all at once).
_PARTS_KEPT = 256


def _page_parts(args: Any, places: list[str]) -> _Parts:
    """The list's `_Parts` for these filters, rendered once and then kept by the app under
    everything they follow from (the language, the app's root, the municipalities, each
    filter's text): the same markup as rendering them on every view, without the filter
    form's fields built, validated and written on each."""
    kept = current_app.extensions.setdefault("lenders.list_parts", {})
    key = (current_language(), request.script_root, tuple(places),
           tuple(args.get(k, "") for k in FILTERS))
    found = kept.get(key)
    if found is None:
        form, query = _filters(args, places)
        errors = [(f"#{f.id}", str(e)) for f in form for e in f.errors]
        shown = _args(args)
        found = _Parts(
            Markup(render_template("lenders/_loans_filters.html", form=form, args=shown,
                                   errors=errors)),
            Markup(render_template("lenders/_loans_head.html", form=form, args=shown)),
            errors, None if query is None else replace(query, page=1))
        if len(kept) >= _PARTS_KEPT:
            kept.clear()
        kept[key] = found
    return found


@bp.get("/prestamos")
@login_required
def loans():  # noqa: ANN201
    _lender_only()
    page_arg = request.args.get("page", 1, type=int)
    if page_arg is not None and page_arg > 2**31 // portfolio.PER_PAGE:
        abort(404)
    with uow() as w:
        places = portfolio.municipalities(w, current_user)
        parts = _page_parts(request.args, places)
        query = parts.query
        if query is not None:
            query = replace(query, page=max(1, page_arg or 1))
        result = portfolio.portfolio(w, current_user, query) if query is not None else None
    if result is not None and (page_arg or 1) > result.pages:
        abort(404)
    errors = parts.errors
    today = clock.today()
    rows = list_rows(result.rows, today) if result is not None else []
    return render_template("lenders/loans.html", parts=parts, result=result, rows=rows,
                           today=today, errors=errors, args=_args(request.args),
                           file_form=LoansFileForm()), 400 if errors else 200


@bp.get("/prestamos/<id:loan_id>")
@login_required
def loan(loan_id: int):  # noqa: ANN201
    """One loan: its parcel's figures, what to pay or retain for each CRIM bill (R-B10), its
    acquisitions and what the lender will pay (`intents.loan_page`)."""
    return intents.loan_page(loan_id)


def _money(value: Decimal | None) -> str:
    return "" if value is None else f"{value:.2f}"


def _notice_cells(r: portfolio.Row) -> tuple[str, str, str, str]:
    """The export's acquisition cells (R-B10 iii, R-B21): the date, the notice's last day,
    how far it is ("12 days left", "3 days ago") and "in time" or "overdue"; empty without."""
    n = r.notice
    if n is None:
        return ("", "", "", "")
    return (n.acquired_on.isoformat(), n.last_day.isoformat(), days_left(n.last_day, n.on),
            _("overdue") if n.overdue else _("in time"))


def _csv_rows(w: Any, rows: Any, fy: Any) -> Any:
    """The export's records, the R-B10 figures of each batch of loans read together."""
    batch: list[portfolio.Row] = []

    def flush() -> Any:
        kept = portfolio.retentions(w, [r.parcel_id for r in batch], fy)
        for r in batch:
            ret = kept.get(r.parcel_id)
            bills = ret.bills if ret is not None else []
            first = bills[0] if bills else None
            yield (r.loan_number, r.catastro, r.address, r.municipality, status_label(r.status),
                   _money(r.annual), _money(r.due_now),
                   r.due_now_by.isoformat() if r.due_now_by else "",
                   r.next_due.isoformat() if r.next_due else "",
                   _money(first.billed_with) if first else "",
                   _money(first.with_exemption.amount) if first else "",
                   _money(first.without_exemption.amount) if first else "",
                   _money(first.new_structure) if first else "",
                   _money(ret.total_with_exemption) if ret is not None else "",
                   _money(ret.total_new_structure) if ret is not None else "",
                   *_notice_cells(r))
    for r in rows:
        batch.append(r)
        if len(batch) >= portfolio.BATCH:
            yield from flush()
            batch = []
    if batch:
        yield from flush()


@bp.get("/prestamos.csv")
@login_required
def export():  # noqa: ANN201
    """The filtered loans as CSV, streamed in batches (constant memory); cells that a
    spreadsheet would run as a formula are neutralised (`csv_text.safe_cell`)."""
    _lender_only()
    with uow() as w:
        form, query = _filters(request.args, portfolio.municipalities(w, current_user))
    if query is None:
        abort(400)
    header = (_("Loan"), _("Catastro number"), _("Address"), _("Municipality"), _("Status"),
              _("This year's assessment"), _("Due now"), _("Due now: last day to pay"),
              _("Next due date"),
              _("CRIM bill with the exemption (first bill)"),
              _("To pay, bill with the exemption (i)"),
              _("To pay, bill without it, with the certification (ii)"),
              _("To retain, new structure (iii)"),
              _("To pay in the year, case (i)"), _("To retain in the year, case (iii)"),
              _("Acquired on"), _("Last day to notify the CRIM"),
              _("Days left to notify the CRIM"), _("Notice to the CRIM"))
    user = current_user._get_current_object()
    fy = portfolio.fiscal_year_start(clock.today())

    def generate():  # noqa: ANN202
        with uow() as w:
            yield from csv_text.csv_lines(header,
                                         _csv_rows(w, portfolio.rows(w, user, query), fy))
    name = f"prestamos-{clock.today().isoformat()}.csv"
    return Response(stream_with_context(generate()), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.post("/pagar")
@login_required
def pay_filtered():  # noqa: ANN201
    """One payment for what is due now on the loans the filter selects, however many: a
    bill file of just those loans (due by today) and its whole payment prepared, as the
    bill file page does (the exceptions report, then the confirmation: a large payment
    starts in a job); more than `bill_jobs.INLINE_MAX` loans by a job (its page shows the
    progress, then the payment)."""
    _lender_only()
    job_id = None
    try:
        with uow() as w:
            form, query = _filters(request.form, portfolio.municipalities(w, current_user))
            if query is None:
                abort(400)
            chosen, params, count = portfolio.loans_to_pay(w, current_user, query)
            if count == 0:
                file_id = pay_id = None
            elif count > bill_jobs.INLINE_MAX:
                bills.fiscal_year_of(w, None, clock.today())  # none today: nothing is due
                job_id = bill_jobs.submit_loans(w, current_user, query, size=count).id
            else:
                f = bills.make(w, current_user, due_by=clock.today(), only=(chosen, params))
                pay = bills.prepare(w, current_user, f.id, bills.Filters())
                file_id, pay_id = f.id, pay.id
    except (NotFound, InvalidInput):  # no fiscal year today: nothing can be due
        file_id = pay_id = None
    if job_id is not None:
        queue.enqueue_or_leave(job_id)
        return redirect(url_for("lenders.bill_job", job_id=job_id), 303)
    if pay_id is None:
        flash(_("Nothing is due now on the loans these filters select."), "info")
        return redirect(url_for("lenders.loans", **_args(request.form)), 303)
    return redirect(url_for("lenders.bill_payment", file_id=file_id, payment_id=pay_id), 303)


@bp.post("/pagar/archivo")
@login_required
def pay_file():  # noqa: ANN201
    """One payment for what is due now on the loans a CSV of loan numbers names, however
    many: the numbers kept as a list (`bill_jobs.load_list`, in chunks), a bill file of
    just those loans and its whole payment prepared, as "pay these loans" does (more than
    `bill_jobs.INLINE_MAX` by a job)."""
    _lender_only()
    form = LoansFileForm()
    message = None
    if form.validate_on_submit():
        try:
            numbers = portfolio.read_loan_numbers(form.file.data.read(), limit=None)
        except ValueError as exc:
            message = (_("The file is not a CSV (text) file of loan numbers: one per "
                         "row, in the first column.") if str(exc) == "not_text"
                       else _("The file names no loan numbers: one per row, in the first "
                              "column."))
        else:
            return _pay_listed(numbers)
    else:
        message = next((e for f in form for e in f.errors), None) or _(
            "Choose the CSV file to upload.")
    flash(message, "error")
    return redirect(url_for("lenders.loans"), 303)


class _Unknown(Exception):
    """Numbers not among the lender's loans: nothing is kept."""

    def __init__(self, numbers: list[str]):
        self.numbers = numbers


def _pay_listed(numbers: list[str]):  # noqa: ANN202
    job_id = ids = None
    try:
        with uow() as w:
            key, unknown = bill_jobs.load_list(w, current_user, numbers)
            if unknown:
                raise _Unknown(unknown)
            count = bill_jobs.listed(w, current_user, key)[2]
            if count > bill_jobs.INLINE_MAX:
                bills.fiscal_year_of(w, None, clock.today())  # none today: nothing is due
                job_id = bill_jobs.submit_list(w, current_user, key, size=count).id
            else:  # within the click: the list is deleted with the file made of it
                ids = bill_jobs.pay_list_now(w, current_user, key)
    except _Unknown as exc:
        flash(_("These loan numbers are not among your loans: %(numbers)s.",
                numbers=", ".join(exc.numbers[:20]) + ("…" if len(exc.numbers) > 20 else "")),
              "error")
        return redirect(url_for("lenders.loans"), 303)
    except (NotFound, InvalidInput):  # no fiscal year today: nothing can be due
        ids = None
    if job_id is not None:
        queue.enqueue_or_leave(job_id)
        return redirect(url_for("lenders.bill_job", job_id=job_id), 303)
    if ids is None:
        flash(_("Nothing is due now on the loans the file names."), "error")
        return redirect(url_for("lenders.loans"), 303)
    return redirect(url_for("lenders.bill_payment", file_id=ids[0], payment_id=ids[1]), 303)
