"""Staff: the Board's budgets (R-A1, R-A3) — the fiscal years and their versions; draft a
year's budget with its lines and any parcel amounts the Board fixes; edit a draft; adopt it
(confirmed; a warning when the fiscal year has begun); amend an adopted version (a new draft
copied from it: an adopted version is never edited); two versions side by side.

Thin: the forms are read here (money as the reader writes it, "$1,250,000.00" too, parsed
to Decimal once by `payments.amounts.parse_amount`), the services (`portal.roll.budgets`)
check and write, audit-logged. Changing a budget is the administrator's (`staff_role`); every
staff role sees the pages. Without JavaScript: "Add a line" sends the form back with one more
blank row.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user

from portal import clock, date_input, money_input
from portal.accounts import access
from portal.accounts.errors import Conflict, Forbidden, InvalidInput, NotFound
from portal.core.budget import LINE_KINDS
from portal.core.params import fiscal_year_label, fiscal_year_start
from portal.i18n import LOCALES, current_language, date_long
from portal.i18n import money as fmt_money
from portal.roll import budgets
from portal.roll.budgets import FixedInput, LineInput
from portal.web.data import uow
from portal.web.form_errors import form_errors
from portal.web.forms import ActionForm
from portal.web.present import line_kind_label
from portal.web.roll import bp
from portal.web.roll.forms import (
    BLANK_FIXED,
    BLANK_LINES,
    MAX_AMOUNT,
    MAX_TEXT,
    AdoptForm,
    AdoptionDateForm,
    BudgetForm,
)
from portal.web.staff_access import staff_required, staff_role

#: How many fiscal years ahead a budget may be drafted for (this one and the next two).
YEARS_AHEAD = 2


@bp.get("/personal/presupuestos")
@staff_required
def budgets_page():  # noqa: ANN201
    with uow() as w:
        years = budgets.overview(w, current_user)
    return render_template("roll/budgets.html", years=years, form=ActionForm())


@bp.route("/personal/presupuestos/nuevo", methods=["GET", "POST"])
@staff_role(*access.MANAGE)
def budget_new():  # noqa: ANN201
    with uow() as w:
        taken = {fy.starts_on for fy, versions in budgets.overview(w, current_user) if versions}
    first = fiscal_year_start(clock.today())
    starts = [date(first.year + k, 7, 1) for k in range(YEARS_AHEAD + 1)]
    choices = [(str(s.year), fiscal_year_label(s)) for s in starts if s not in taken]
    if not choices:
        flash(_("Every fiscal year that can be budgeted now has a budget: amend it instead."),
              "info")
        return budgets_page()
    if request.method == "GET":
        form = BudgetForm(formdata=None, data={
            "fiscal_year": choices[0][0],
            "lines": [{"kind": kind} for kind in LINE_KINDS]})  # one row per item of R-A1
        return _edit_page(form, choices=choices)
    form = BudgetForm()
    if _grows(form):
        return _edit_page(form, choices=choices)
    chosen = next((s for s in starts if str(s.year) == form.fiscal_year.data
                   and s not in taken), None)
    lines, fixed, errors = _submitted(form, None if chosen else _("Choose a fiscal year."))
    if errors:
        return _edit_page(form, choices=choices, errors=errors), 400
    try:
        with uow() as w:
            fy = budgets.ensure_fiscal_year(w, chosen)
            version = budgets.draft(w, current_user, fy, lines, reference=form.reference.data
                                    or "", fixed=fixed)
            version_id = version.id
    except InvalidInput as exc:
        return _edit_page(form, choices=choices, errors=_service_error(form, exc)), 400
    except Forbidden:
        abort(403)
    flash(_("The draft is saved. Check it, then adopt it when the Board does."), "success")
    return redirect(url_for("roll.budget_version", version_id=version_id), 303)


@bp.get("/personal/presupuestos/version/<id:version_id>")
@staff_required
def budget_version(version_id: int):  # noqa: ANN201
    return _version_page(_get(version_id))


def _version_page(view: budgets.VersionView, date_form: AdoptionDateForm | None = None,
                  status: int = 200):  # noqa: ANN202
    """The version's page (also where a page that does not apply to it lands, with why:
    editing or adopting an adopted version, comparing a budget of one version); an adopted
    version's date may be corrected until its notices go out."""
    with uow() as w:
        locked = view.version.status != "adopted" or budgets.adoption_locked(w, view.version)
    form = date_form or AdoptionDateForm(formdata=None,
                                         data={"adopted_on": view.version.adopted_on})
    return render_template("roll/budget_version.html", view=view, form=ActionForm(),
                           kind_label=line_kind_label, date_form=form,
                           correctable=not locked), status


def _date_error(exc: InvalidInput, view: budgets.VersionView) -> str:
    """An adoption date refused, in the reader's language: after today (the one date
    parser's words), or before the version it amends."""
    if exc.code == "adopted_in_future":
        return date_input.DateInputError("after", limit=exc.params["today"]).message(
            current_language())
    previous = view.versions[view.version.version - 2] if view.version.version > 1 else None
    if exc.code == "calc" and previous is not None and previous.adopted_on:
        return _("An amendment cannot be dated before the version it amends (adopted on "
                 "%(date)s).", date=date_long(previous.adopted_on))
    return _("Check the adoption date.")


@bp.post("/personal/presupuestos/version/<id:version_id>/fecha")
@staff_role("administrator")
def budget_adoption_date(version_id: int):  # noqa: ANN201
    """Correct an adopted version's adoption date (audited with the old and new date)."""
    view = _get(version_id)
    form = AdoptionDateForm()
    if not form.validate():
        return _version_page(view, form, 400)
    try:
        with uow() as w:
            budgets.correct_adoption_date(w, current_user, version_id, form.adopted_on.data)
    except InvalidInput as exc:
        form.adopted_on.errors = [_date_error(exc, view)]
        return _version_page(view, form, 400)
    except Conflict as exc:
        flash(str(_CONFLICTS.get(exc.code, _("This version cannot be adopted now."))), "error")
        return redirect(url_for("roll.budget_version", version_id=version_id), 303)
    except (Forbidden, NotFound):
        abort(404)
    flash(_("The adoption date is now %(date)s.", date=date_long(form.adopted_on.data)),
          "success")
    return redirect(url_for("roll.budget_version", version_id=version_id), 303)


@bp.route("/personal/presupuestos/version/<id:version_id>/editar",
          methods=["GET", "POST"])
@staff_role(*access.MANAGE)
def budget_edit(version_id: int):  # noqa: ANN201
    view = _get(version_id)
    if view.version.status == "adopted":
        flash(_("An adopted version is never edited: amend it instead (a new version)."),
              "info")
        return _version_page(view)
    if request.method == "GET":
        form = BudgetForm(formdata=None, data={
            "reference": view.version.reference,
            "lines": [{"kind": ln.kind, "description_es": ln.description_es,
                       "description_en": ln.description_en, "amount": _plain(ln.amount),
                       "financed": _plain(ln.financed_by_assessments)} for ln in view.lines],
            "fixed": [{"catastro": catastro, "amount": _plain(f.amount), "reason": f.reason}
                      for f, catastro in view.fixed]})
        return _edit_page(form, view=view)
    form = BudgetForm()
    if _grows(form):
        return _edit_page(form, view=view)
    lines, fixed, errors = _submitted(form)
    if errors:
        return _edit_page(form, view=view, errors=errors), 400
    try:
        with uow() as w:
            budgets.update_draft(w, current_user, version_id, lines,
                                 reference=form.reference.data or "", fixed=fixed)
    except InvalidInput as exc:
        return _edit_page(form, view=view, errors=_service_error(form, exc)), 400
    except Conflict:
        flash(_("An adopted version is never edited: amend it instead (a new version)."),
              "error")
    except (Forbidden, NotFound):
        abort(404)
    else:
        flash(_("The draft is saved."), "success")
    return redirect(url_for("roll.budget_version", version_id=version_id), 303)


@bp.route("/personal/presupuestos/version/<id:version_id>/adoptar",
          methods=["GET", "POST"])
@staff_role(*access.MANAGE)
def budget_adopt(version_id: int):  # noqa: ANN201
    view = _get(version_id)
    if view.version.status == "adopted":
        flash(_("This version is already adopted."), "info")
        return _version_page(view)
    if request.method == "GET":
        form = AdoptForm(formdata=None, data={"adopted_on": clock.today()})
        return _adopt_page(view, form)
    form = AdoptForm()
    if not form.validate():
        return _adopt_page(view, form, errors=form_errors(form)), 400
    late = budgets.is_late(view.fiscal_year, view.version, form.adopted_on.data)
    if late and not form.late.data:
        form.late.errors = [_("The fiscal year has begun: check this box to record a late "
                              "adoption.")]
        return _adopt_page(view, form, errors=form_errors(form)), 400
    try:
        with uow() as w:
            budgets.adopt(w, current_user, version_id, form.adopted_on.data, late=late)
    except InvalidInput as exc:  # R-A1: after today, or before the version it amends
        form.adopted_on.errors = [_date_error(exc, view)]
        return _adopt_page(view, form, errors=form_errors(form)), 400
    except Conflict as exc:
        flash(str(_CONFLICTS.get(exc.code, _("This version cannot be adopted now."))), "error")
        return redirect(url_for("roll.budget_version", version_id=version_id), 303)
    except (Forbidden, NotFound):
        abort(404)
    flash(_("Version %(n)s is adopted. Next: compute the roll on the assessment roll's page.",
            n=view.version.version), "success")
    return redirect(url_for("roll.budget_version", version_id=version_id), 303)


@bp.post("/personal/presupuestos/version/<id:version_id>/enmendar")
@staff_role(*access.MANAGE)
def budget_amend(version_id: int):  # noqa: ANN201
    if not ActionForm().validate_on_submit():
        abort(400)
    try:
        with uow() as w:
            new_id = budgets.amend(w, current_user, version_id).id
    except (Forbidden, NotFound):
        abort(404)
    except Conflict as exc:
        flash(str(_CONFLICTS.get(exc.code, _("This version cannot be amended now."))), "error")
        target = exc.params.get("version_id", version_id)
        return redirect(url_for("roll.budget_version", version_id=target), 303)
    flash(_("A draft amendment was made from the adopted version: change what the Board "
            "amends, then adopt it."), "success")
    return redirect(url_for("roll.budget_edit", version_id=new_id), 303)


@bp.post("/personal/presupuestos/version/<id:version_id>/descartar")
@staff_role(*access.MANAGE)
def budget_discard(version_id: int):  # noqa: ANN201
    if not ActionForm().validate_on_submit():
        abort(400)
    try:
        with uow() as w:
            fy = budgets.discard_draft(w, current_user, version_id)
            label = fy.label
    except (Forbidden, NotFound):
        abort(404)
    except Conflict:
        flash(_("An adopted version is never deleted (R-A1)."), "error")
        return redirect(url_for("roll.budget_version", version_id=version_id), 303)
    flash(_("The draft of %(label)s was discarded.", label=label), "success")
    return redirect(url_for("roll.budgets_page"), 303)


@bp.get("/personal/presupuestos/version/<id:version_id>/comparar")
@staff_required
def budget_compare(version_id: int):  # noqa: ANN201
    view = _get(version_id)
    others = [v for v in view.versions if v.id != view.version.id]
    if not others:
        flash(_("This budget has only one version: there is nothing to compare yet."), "info")
        return _version_page(view)
    before = [v for v in others if v.version < view.version.version]
    default = (before[-1] if before else others[0]).id
    try:
        other_id = access.parse_id(request.args.get("con", default))
    except NotFound:
        other_id = default
    if other_id not in {v.id for v in others}:
        other_id = default
    older, newer = sorted((other_id, view.version.id),
                          key=lambda i: next(v.version for v in view.versions if v.id == i))
    with uow() as w:
        try:
            old, new, cmp = budgets.compare(w, current_user, older, newer)
        except NotFound:
            abort(404)
    return render_template("roll/budget_compare.html", view=view, old=old, new=new, cmp=cmp,
                           others=others, other_id=other_id, kind_label=line_kind_label,
                           signed=_signed)


# --- helpers --------------------------------------------------------------------------------

_CONFLICTS = {
    "budget_adopted": _l("This version is already adopted."),
    "budget_not_adopted": _l("Adopt the version it amends first."),
    "budget_draft_exists": _l("There is already a draft amendment: finish it and adopt it, "
                              "or change it."),
    "budget_not_latest": _l("Only the latest version is amended."),
    "notices_sent": _l("Its notices went out with this date: the adoption date can no longer "
                       "be corrected."),
    "budget_late": _l("A first version is adopted before the fiscal year begins (R-A1)."),
}


def _get(version_id: int) -> budgets.VersionView:
    try:
        with uow() as w:
            return budgets.get(w, current_user, version_id)
    except NotFound:
        abort(404)


def _plain(amount: Decimal) -> str:
    """An amount as the form shows it back: "1,250,000.00" (both languages write it so)."""
    return f"{amount:,.2f}"


def _signed(amount: Decimal) -> str:
    """A change: "+$1,000.00", "−$550.00", "$0.00"."""
    return ("+" if amount > 0 else "") + fmt_money(amount)


def _prepare(form: BudgetForm) -> None:
    """The kinds' choices in the reader's language, on every line (new rows too)."""
    choices = [("", _("Choose the kind"))] + [(k, line_kind_label(k)) for k in LINE_KINDS]
    for entry in form.lines.entries:
        entry.form.kind.choices = choices


def _append(rows: Any) -> bool:
    """One more blank row, unless the list holds its most already (`MAX_ROWS`)."""
    if len(rows.entries) >= rows.max_entries:
        return False
    rows.append_entry()
    return True


def _grows(form: BudgetForm) -> bool:
    """"Add a line" / "Add a fixed amount": one more blank row, nothing saved (at the most
    rows, the page says so)."""
    for wanted, rows in ((form.add_line.data, form.lines), (form.add_fixed.data, form.fixed)):
        if wanted:
            if not _append(rows):
                flash(_("A budget holds at most %(num)d rows of each kind.",
                        num=rows.max_entries), "warning")
            return True
    return False


def _edit_page(form: BudgetForm, *, view: budgets.VersionView | None = None,
               choices: list[tuple[str, str]] | None = None,
               errors: list[tuple[str | None, str]] | None = None) -> str:
    if not errors:  # blank rows to write in (not after an error: the rows stay as they were)
        blank_lines = sum(1 for e in form.lines.entries if _blank(e.form))
        for _k in range(max(0, BLANK_LINES - blank_lines)):
            _append(form.lines)
        blank_fixed = sum(1 for e in form.fixed.entries if _blank(e.form))
        for _k in range(max(0, BLANK_FIXED - blank_fixed)):
            _append(form.fixed)
    _prepare(form)
    if choices is not None:
        form.fiscal_year.choices = choices
    return render_template("roll/budget_edit.html", form=form, view=view,
                           errors=errors or [], new=view is None)


def _adopt_page(view: budgets.VersionView, form: AdoptForm,
                errors: list[tuple[str | None, str]] | None = None) -> str:
    day = form.adopted_on.data if isinstance(form.adopted_on.data, date) else clock.today()
    return render_template("roll/budget_adopt.html", view=view, form=form,
                           errors=errors or [],
                           late=budgets.is_late(view.fiscal_year, view.version, day),
                           kind_label=line_kind_label)


def _blank(sub: Any) -> bool:
    """A row with nothing written (its kind alone chosen counts as blank)."""
    return not any((f.data or "").strip() for f in sub if f.type == "StringField")


def _error(items: list, field: Any, text: str, where: str) -> None:
    field.errors = [*list(field.errors or []), text]
    items.append(("#" + field.id, f"{where}, {field.label.text}: {text}"))


def _money(items: list, field: Any, where: str) -> Decimal | None:
    raw = (field.data or "").strip()
    if not raw:
        _error(items, field, _("Write the amount, for example 1,250,000.00."), where)
        return None
    try:
        value = money_input.parse(raw, LOCALES.get(current_language(), "es_PR"),
                                  maximum=MAX_AMOUNT)
    except money_input.MoneyInputError as exc:
        _error(items, field, exc.message(), where)
        return None
    return value


def _text(items: list, field: Any, where: str, missing: str) -> str:
    value = " ".join((field.data or "").split())
    if not value:
        _error(items, field, missing, where)
    elif len(value) > MAX_TEXT:
        _error(items, field, _("Write at most %(max)d characters.", max=MAX_TEXT), where)
    return value


def _read(form: BudgetForm) -> tuple[list[LineInput], list[FixedInput],
                                     list[tuple[str | None, str]]]:
    """The form's lines and fixed amounts (blank rows left out), and its errors as
    (link, text) for the error summary; each error is also on its field."""
    _prepare(form)
    items: list[tuple[str | None, str]] = []
    lines: list[LineInput] = []
    for k, entry in enumerate(form.lines.entries, start=1):
        f = entry.form
        if _blank(f):
            continue
        where = _("Line %(n)d", n=k)
        if f.kind.data not in LINE_KINDS:
            _error(items, f.kind, _("Choose the kind of line."), where)
        es = _text(items, f.description_es, where, _("Write what the line is, in Spanish."))
        en = _text(items, f.description_en, where, _("Write what the line is, in English."))
        amount = _money(items, f.amount, where)
        financed = _money(items, f.financed, where)
        if amount is not None and financed is not None and financed > amount:
            _error(items, f.financed, _("The part financed by assessments cannot be more "
                                        "than the line's cost."), where)
        if not items:
            lines.append(LineInput(f.kind.data, es, en, amount, financed))
    if not lines and not items:
        first = form.lines.entries[0].form.description_es if form.lines.entries else None
        text = _("Write at least one line of the budget.")
        if first is not None:
            first.errors = [text]
        items.append(("#" + first.id if first is not None else None, text))
    fixed: list[FixedInput] = []
    for k, entry in enumerate(form.fixed.entries, start=1):
        f = entry.form
        if _blank(f):
            continue
        where = _("Fixed amount %(n)d", n=k)
        catastro = _text(items, f.catastro, where, _("Write the parcel's catastro number."))
        amount = _money(items, f.amount, where)
        reason = " ".join((f.reason.data or "").split())
        if len(reason) > MAX_TEXT:
            _error(items, f.reason, _("Write at most %(max)d characters.", max=MAX_TEXT),
                   where)
        if not items:
            fixed.append(FixedInput(catastro, amount, reason))
    return lines, fixed, items


def _submitted(form: BudgetForm, fiscal_year_error: str | None = None
               ) -> tuple[list[LineInput], list[FixedInput], list[tuple[str | None, str]]]:
    """The sent form validated (its own fields first: validation resets their errors) and
    read: lines, fixed amounts and every error for the summary."""
    form.validate()
    if fiscal_year_error:
        form.fiscal_year.errors = [fiscal_year_error]
    errors = form_errors(form)
    lines, fixed, row_errors = _read(form)
    return lines, fixed, errors + row_errors


def _service_error(form: BudgetForm, exc: InvalidInput) -> list[tuple[str | None, str]]:
    """The service's refusal (R-A3's fixed amounts; a line the core refuses) on its field."""
    items: list[tuple[str | None, str]] = []
    field = str(exc.params.get("field", ""))
    if field.startswith("fixed.") and field[6:].isdigit():
        k = int(field[6:])
        rows = [e for e in form.fixed.entries if not _blank(e.form)]
        sub = rows[k].form if k < len(rows) else None
        n = form.fixed.entries.index(rows[k]) + 1 if sub is not None else k + 1
        text = {
            "fixed_unknown_parcel": _("No parcel has this catastro number."),
            "fixed_exempt_parcel": _("This parcel is exempt (R-A2): it takes no amount."),
            "fixed_twice": _("This parcel is already listed above."),
        }.get(exc.code, _("Check this amount."))
        if sub is not None:
            _error(items, sub.catastro, text, _("Fixed amount %(n)d", n=n))
            return items
    if exc.code == "fixed_over_total":
        text = _("The fixed amounts (%(fixed)s) are more than the total to assess "
                 "(%(total)s) (R-A3).", fixed=fmt_money(exc.params["fixed"]),
                 total=fmt_money(exc.params["total"]))
        items.append((None, text))
        return items
    items.append((None, _("Check the lines: a cost or a part financed by assessments was "
                          "refused.")))
    return items
