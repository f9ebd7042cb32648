"""`/personal/informes`: the reports (`portal.reports.reports`), each with its figures on
screen, a page of its rows and its whole CSV (streamed; every cell through
`csv_text.safe_cell`). Staff only."""

from __future__ import annotations

import dataclasses
from datetime import date
from decimal import Decimal
from typing import Any

from babel.dates import format_time
from flask import (
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
from flask_login import current_user
from markupsafe import Markup, escape

from portal import clock, csv_text, date_input
from portal.core.explain import N_
from portal.i18n import current_language, current_locale, date_short, formats
from portal.jobs import queue
from portal.reports import reports as service
from portal.reports import snapshots
from portal.web.backoffice import bp
from portal.web.data import uow
from portal.web.exemptions.present import STATUS_CSS as EXEMPTION_STATUSES
from portal.web.exemptions.present import status_label as status_label_ex
from portal.web.forms import ActionForm
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


class _Cells:
    """A report's values as the page shows them (Babel, the reader's locale), bound to the
    request's language once: a page shows 50 rows of up to ten values."""

    WORD, MONEY = "portal-report__word", "portal-money"
    TH_END, TD_END = Markup("</th>"), Markup("</td>")

    def __init__(self, report: service.Report) -> None:
        self.f = formats()
        self.money_columns = report.money_columns
        self.labels = [self.f.words(c) for c in report.columns]
        self._tags: dict[tuple[int, bool], Markup] = {}
        self._dates: dict[date, str] = {}

    def text(self, value: Any, is_money: bool) -> str:
        if value is None or value == "":
            return "—"
        if is_money and isinstance(value, Decimal):
            return self.f.money(value)
        if isinstance(value, date):  # a page's dates repeat (a fiscal year, a notice's day)
            text = self._dates.get(value)
            if text is None:
                text = self._dates[value] = date_short(value)
            return text
        if isinstance(value, bool):
            return self.f.words("Yes") if value else self.f.words("No")
        if isinstance(value, int):
            return self.f.number(value)
        if isinstance(value, str) and value in WORDS:
            return self.f.words(WORDS[value])
        if isinstance(value, str) and value in EXEMPTION_STATUSES:
            return status_label_ex(value)
        return str(value)

    def row(self, values: tuple) -> Markup:
        """A row's cells, written directly (as `forms.FastSelect` writes its options: a page
        shows 50 rows of up to ten cells, and a template's output per cell costs more than
        the rest of the page). A value of one word (a catastro or filing number, a date) is
        kept on one line on a desktop (portal.css), an amount is aligned as money; each
        column's opening tags are made once for the page (`_tag`), every text escaped."""
        parts = []
        for i, v in enumerate(values):
            text = self.text(v, i in self.money_columns)
            parts += (self._tag(i, " " not in text), escape(text),
                      self.TH_END if i == 0 else self.TD_END)
        return Markup("".join(parts))  # every part is markup already: joined as it is

    def _tag(self, i: int, one_word: bool) -> Markup:
        tag = self._tags.get((i, one_word))
        if tag is None:
            if i and i in self.money_columns:
                css = self.MONEY
            else:
                css = self.WORD if one_word else ""
            attrs = Markup(' data-label="{}"').format(self.labels[i])
            if css:
                attrs += Markup(' class="{}"').format(css)
            tag = self._tags[(i, one_word)] = (
                Markup('<th scope="row"{}>') if i == 0 else Markup("<td{}>")).format(attrs)
        return tag


@bp.get("/personal/informes")
@staff_required
def reports():  # noqa: ANN201
    return render_template("backoffice/reports.html", reports=service.REPORTS)


#: The most columns a report's table shows as a table on a tablet (768 px): a report with
#: more (the demands, the register, the exemption queue) stacks each row's cells under their
#: column's names below a desktop's width (`portal-report--wide`, portal.css), as every
#: report does on a phone, and never scrolls sideways.
TABLET_COLUMNS = 7


@bp.get("/personal/informes/<name>")
@staff_required
def report(name: str):  # noqa: ANN201
    r = _report(name)
    p, errors = _params(r)
    page = page_number()
    figures, rows, more, years = [], [], False, []
    key = None if errors else snapshots.key_of(name, p)
    snap, pending, computed_at = None, False, ""
    with uow() as w:
        if "fiscal_year" in r.uses:
            years = service.fiscal_years(w)
        if key is not None:  # read from the latest snapshot (docs/REPORTS.md)
            snap, pending = snapshots.latest_and_pending(w, current_user, name, key)
            if snap is not None and (p.start or p.end):  # a range of days: its days' rows
                days = snapshots.in_range(w, snap, p.start, p.end)
                figures = r.figures_of(days)
                first = (page - 1) * service.PAGE
                found, more = days[first:first + service.PAGE], first + service.PAGE < len(days)
            elif snap is not None:
                figures = snap.figures
                found, more = snapshots.page(w, snap, page)
            if snap is not None:
                p = dataclasses.replace(p, today=snap.day)
                computed_at = format_time(snap.computed_at.astimezone(clock.PR_TZ), "short",
                                          locale=current_locale())
            else:
                found = []
        elif not errors:
            figures = service.figures(w, current_user, name, p)
            found, more = service.page(w, current_user, name, p, page)
        if not errors:
            if page > 1 and not found:
                abort(404)
            cells = _Cells(r)
            rows = [cells.row(row) for row in found]
    return render_template("backoffice/report.html", report=r, params=p, errors=errors,
                           figures=figures, rows=rows, page=page, more=more, years=years,
                           args=request.args, snapshot=key is not None,
                           computed=snap is not None, computed_at=computed_at,
                           pending=pending, wide=len(r.columns) > TABLET_COLUMNS
                           ), 422 if errors else 200


@bp.post("/personal/informes/<name>/calcular")
@staff_required
def report_refresh(name: str):  # noqa: ANN201
    """Staff ask for a fresh snapshot (a job for the worker: long work leaves the
    request); back to the report, which says a computation is waiting or running."""
    r = _report(name)
    if not ActionForm().validate_on_submit():
        abort(400)
    p, errors = _params(r)
    key = None if errors else snapshots.key_of(name, p)
    if key is None:
        abort(404)
    with uow() as w:
        job_id = snapshots.request_fresh(w, current_user, name, key)
    queue.enqueue_or_leave(job_id)
    flash(_("The report is being computed again. Reload this page in a few minutes to "
            "see it."), "info")
    return redirect(url_for("backoffice.report", name=name, **request.args.to_dict()), 303)


@bp.get("/personal/informes/<name>.csv")
@staff_required
def report_csv(name: str):  # noqa: ANN201
    r = _report(name)
    p, errors = _params(r)
    if errors:
        abort(400)
    staff = current_user._get_current_object()
    header = [_(c) for c in r.columns]
    key = snapshots.key_of(name, p)
    snap, day = None, clock.today()
    if key is not None:  # the snapshot's rows, as on the page; the file named by its day
        with uow() as w:
            snap = snapshots.latest(w, staff, name, key)
        day = snap.day if snap is not None else day

    def generate():  # noqa: ANN202
        with uow() as w:
            if key is None:
                found = service.rows(w, staff, name, p)
            else:
                found = (iter(()) if snap is None
                         else snapshots.in_range(w, snap, p.start, p.end) if p.start or p.end
                         else snapshots.rows(w, snap))
            yield from csv_text.csv_lines(header, found)

    filename = f"{name}-{day.isoformat()}.csv"
    return Response(stream_with_context(generate()), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"',
                             "Cache-Control": "private, no-store"})
