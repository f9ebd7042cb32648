"""`/personal/informes`: the reports (`portal.reports.reports`), each with its figures on
screen, a page of its rows and its whole CSV (streamed; every cell through
`csv_text.safe_cell`). Staff only."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from flask import Response, abort, render_template, request, stream_with_context
from flask_babel import gettext as _
from flask_login import current_user

from portal import clock, csv_text, date_input
from portal.core.explain import N_
from portal.i18n import current_language, date_short, money, number
from portal.reports import reports as service
from portal.web.backoffice import bp
from portal.web.data import uow
from portal.web.exemptions.present import STATUS_CSS as EXEMPTION_STATUSES
from portal.web.exemptions.present import status_label as status_label_ex
from portal.web.paging import page_number
from portal.web.staff_access import staff_required


def _report(name: str) -> service.Report:
    r = service.REPORTS.get(name)
    if r is None:
        abort(404)
    return r


def _params(report: service.Report) -> tuple[service.Params, dict[str, str]]:
    """The report's parameters from the query, and each refused one's message."""
    errors: dict[str, str] = {}
    start = end = fy = None
    if "range" in report.uses:
        start = _day("desde", errors)
        end = _day("hasta", errors)
        if start and end and end < start:
            errors["hasta"] = _("The last day is before the first.")
    if "fiscal_year" in report.uses and request.args.get("ano"):
        try:
            fy = date.fromisoformat(request.args["ano"])
        except ValueError:
            errors["ano"] = _("Choose a fiscal year from the list.")
    return service.Params(today=clock.today(), start=start, end=end,
                          fiscal_year_start=fy), errors


def _day(key: str, errors: dict[str, str]) -> date | None:
    text = (request.args.get(key) or "").strip()
    if not text:
        return None
    lang = current_language()
    try:
        return date_input.parse(text, lang)
    except date_input.DateInputError as exc:
        errors[key] = exc.message(lang)
        return None


#: Codes a report's rows carry, in the reader's words on screen (the CSV keeps the codes).
WORDS = {**service.METHODS, "owner": N_("Owner"), "lessee": N_("Lessee"), "yes": N_("Yes"),
         "no": N_("No")}


def _cell(value: Any, is_money: bool) -> str:
    """A report's value as the page shows it (Babel, the reader's locale)."""
    if value is None or value == "":
        return "—"
    if is_money and isinstance(value, Decimal):
        return money(value)
    if isinstance(value, date):
        return date_short(value)
    if isinstance(value, bool):
        return _("Yes") if value else _("No")
    if isinstance(value, int):
        return number(value)
    if isinstance(value, str) and value in WORDS:
        return _(WORDS[value])
    if isinstance(value, str) and value in EXEMPTION_STATUSES:
        return status_label_ex(value)
    return str(value)


@bp.get("/personal/informes")
@staff_required
def reports():  # noqa: ANN201
    return render_template("backoffice/reports.html", reports=service.REPORTS)


@bp.get("/personal/informes/<name>")
@staff_required
def report(name: str):  # noqa: ANN201
    r = _report(name)
    p, errors = _params(r)
    page = page_number()
    figures, rows, more, years = [], [], False, []
    with uow() as w:
        if "fiscal_year" in r.uses:
            years = service.fiscal_years(w)
        if not errors:
            figures = service.figures(w, current_user, name, p)
            found, more = service.page(w, current_user, name, p, page)
            if page > 1 and not found:
                abort(404)
            rows = [[_cell(v, i in r.money_columns) for i, v in enumerate(row)]
                    for row in found]
    return render_template("backoffice/report.html", report=r, params=p, errors=errors,
                           figures=figures, rows=rows, page=page, more=more, years=years,
                           args=request.args), 422 if errors else 200


@bp.get("/personal/informes/<name>.csv")
@staff_required
def report_csv(name: str):  # noqa: ANN201
    r = _report(name)
    p, errors = _params(r)
    if errors:
        abort(400)
    staff = current_user._get_current_object()
    header = [_(c) for c in r.columns]

    def generate():  # noqa: ANN202
        with uow() as w:
            yield from csv_text.csv_lines(header, service.rows(w, staff, name, p))

    filename = f"{name}-{clock.today().isoformat()}.csv"
    return Response(stream_with_context(generate()), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"',
                             "Cache-Control": "private, no-store"})
