"""Staff: the Board's parameters by fiscal year (R-A6 to R-A11, J8) and the days the Board
declared closed (RULES.md Conventions).

`/personal/parametros` lists a fiscal year's parameters, each value with its reference, who
recorded it and when; a value only the law sets is shown read-only with its clause, and a
statute's default the Board (or the Authority) may replace is shown with that clause too.
`/personal/parametros/<fy>/<name>` records a new value the Board (or the Authority) adopted,
with its effective date and resolution (an input for the parameter's type: a rate, a number,
a choice, a day); `/personal/parametros/<fy>/closed_day` declares days
closed, with the Board's reason in Spanish and English. Recording is the administrator's
(`staff_role`); every staff role sees the pages. Thin: the service
(`portal.accounts.board_parameters`) checks and writes, audit-logged; a change is in force
on the next request.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from flask_wtf import FlaskForm
from wtforms import StringField, SubmitField
from wtforms.validators import InputRequired, Length, Optional

from portal import clock
from portal.accounts import access, in_force
from portal.accounts.errors import Forbidden, InvalidInput
from portal.core import params
from portal.core.params import fiscal_year_label, fiscal_year_of_label, fiscal_year_start
from portal.i18n import formats
from portal.roll import board_parameters
from portal.web.data import uow
from portal.web.form_errors import form_errors
from portal.web.roll import bp
from portal.web.roll.forms import DayField
from portal.web.staff_access import staff_required, staff_role

CLOSED_DAY = "closed_day"

NAMES = {
    "grace_day": _l("Grace day of the month"),
    "late_fee_rate": _l("Late fee rate"),
    "late_fee_base": _l("Late fee base"),
    "interest_rate": _l("Interest rate (yearly)"),
    "lump_sum_discount_rate": _l("Lump-sum discount"),
    "lump_sum_deadline": _l("Lump-sum deadline"),
    "installment_count": _l("Number of installments"),
    "demand_minimum": _l("Demand minimum (R-A17)"),
}
SET_BY = {
    "statute": _l("Statute (read-only)"),
    "board": _l("The Board"),
    "authority": _l("The Authority"),
    "crim": _l("The CRIM"),
}
CHOICES = {
    "installment": _l("the whole installment"),
    "unpaid": _l("the unpaid part"),
    "first_installment_due": _l("the first installment's due date"),
}
#: The lump-sum deadline's choice of a fixed day (its `deadline_day` field says which).
A_DAY = "day"

_MESSAGES = {
    ("value", "required"): _l("Write the new value."),
    ("value", "invalid"): _l("Write a rate such as 0.07 or 7%."),
    ("value", "out_of_range"): _l("Write a rate from %(low)s to %(high)s."),
    ("deadline_day", "required"): _l("Write the last day for the lump sum."),
    ("resolution_number", "required"): _l("Write the resolution's number."),
    ("resolution_number", "too_long"): _l("Write at most %(most)s characters."),
    ("resolution_date", "required"): _l("Write the resolution's date."),
    ("resolution_date", "future"): _l("The resolution's date cannot be after today."),
    ("effective_on", "required"): _l("Write the day it takes effect."),
    ("effective_on", "before_resolution"): _l(
        "It cannot take effect before the resolution's date."),
    ("effective_on", "after_year"): _l("It must take effect by the fiscal year's last day."),
    ("first_day", "required"): _l("Write the first day closed."),
    ("first_day", "already_closed"): _l("%(day)s is already declared closed."),
    ("last_day", "before_first"): _l("The last day cannot be before the first."),
    ("last_day", "too_many_days"): _l("Declare at most %(most)s days at a time."),
    ("reason_es", "required"): _l("Write the reason in Spanish."),
    ("reason_en", "required"): _l("Write the reason in English."),
    ("reason_es", "too_long"): _l("Write at most %(most)s characters."),
    ("reason_en", "too_long"): _l("Write at most %(most)s characters."),
}
#: A value's refusal by parameter, where its type is not a rate's.
_VALUE_MESSAGES = {
    ("grace_day", "invalid"): _l("Write a day of the month from 1 to 31."),
    ("grace_day", "out_of_range"): _l("Write a day of the month from 1 to 31."),
    ("installment_count", "invalid"): _l("Write a number of installments from 1 to 12."),
    ("installment_count", "out_of_range"): _l(
        "Write a number of installments from 1 to 12."),
    ("installment_count", "roll_published"): _l(
        "The installments of this fiscal year are already written: its roll is published. "
        "Their number cannot change now; an amendment changes the amounts, not the number "
        "of installments."),
    ("late_fee_base", "required"): _l("Choose what the late fee is measured on."),
    ("late_fee_base", "invalid"): _l("Choose what the late fee is measured on."),
    ("lump_sum_deadline", "required"): _l("Choose the last day for the lump sum."),
    ("lump_sum_deadline", "invalid"): _l("Write a day that exists, such as 2026-08-31."),
    ("lump_sum_deadline", "outside_year"): _l("Write a day within fiscal year %(label)s."),
    ("demand_minimum", "invalid"): _l("Write an amount in dollars such as 5.00."),
    ("demand_minimum", "out_of_range"): _l("Write an amount from %(low)s to %(high)s."),
}


class _Resolution(FlaskForm):
    resolution_number = StringField(_l("Resolution number"), validators=[
        InputRequired(message=_l("Write the resolution's number.")),
        Length(max=board_parameters.MAX_RESOLUTION,
               message=_l("Write at most %(max)d characters."))])
    resolution_date = DayField(_l("Resolution date"), validators=[
        InputRequired(message=_l("Write the resolution's date."))])


class ValueForm(_Resolution):
    """A value the Board (or the Authority) adopted for a fiscal year."""

    value = StringField(_l("New value"), validators=[
        InputRequired(message=_l("Write the new value.")), Length(max=40)])
    effective_on = DayField(_l("Takes effect on"), validators=[
        InputRequired(message=_l("Write the day it takes effect."))])
    deadline_day = DayField(_l("The last day"), validators=[Optional()])
    submit = SubmitField(_l("Record the new value"))

    def text(self, name: str) -> str:
        """The value as the service reads it: the lump-sum deadline's day when one is
        chosen, else the value as written."""
        value = self.value.data or ""
        if name == "lump_sum_deadline" and value == A_DAY:
            day = self.deadline_day.data
            return day.isoformat() if day is not None else ""
        return value


class ClosedDayForm(_Resolution):
    """Days the Board declared closed, with its reason in both languages."""

    first_day = DayField(_l("First day closed"), validators=[
        InputRequired(message=_l("Write the first day closed."))])
    last_day = DayField(_l("Last day closed (if more than one)"))
    reason_es = StringField(_l("Reason, in Spanish"), validators=[
        InputRequired(message=_l("Write the reason in Spanish.")),
        Length(max=board_parameters.MAX_REASON,
               message=_l("Write at most %(max)d characters."))])
    reason_en = StringField(_l("Reason, in English"), validators=[
        InputRequired(message=_l("Write the reason in English.")),
        Length(max=board_parameters.MAX_REASON,
               message=_l("Write at most %(max)d characters."))])
    submit = SubmitField(_l("Declare closed"))


def shown_value(name: str, value: Any, fy_start: date | None = None) -> str:
    """A parameter's value as people read it: a rate as a percentage, a choice in words, the
    lump-sum deadline's month-day as the day of the fiscal year opening on `fy_start`."""
    f = formats()
    if value is None:
        return "—"
    if isinstance(value, Decimal) and name.endswith("_rate"):
        return f.percent(value)
    if name in params.MONEY:
        return f.money(Decimal(str(value)))
    if isinstance(value, int):
        return f.number(value)
    if value in CHOICES:
        return str(CHOICES[value])
    if name == "lump_sum_deadline" and fy_start is not None:
        try:
            day = params.lump_sum_deadline(value, fy_start)
        except ValueError:
            return str(value)
        return f.date_long(day) if day is not None else str(value)
    return str(value)


def _fiscal_year(label: str) -> date:
    try:
        return fiscal_year_of_label(label)
    except ValueError:
        abort(404)


@bp.get("/personal/parametros")
@staff_required
def parameters_page():  # noqa: ANN201
    today = clock.today()
    offered = board_parameters.fiscal_years(today)
    chosen = request.args.get("fy", "")
    fy = next((s for s in offered if fiscal_year_label(s) == chosen), fiscal_year_start(today))
    with uow() as w:
        view = board_parameters.year_view(w, current_user, fy)
    return render_template("roll/board_parameters.html", view=view, names=NAMES,
                           set_by=SET_BY, shown=shown_value,
                           years=[fiscal_year_label(s) for s in offered])


@bp.route("/personal/parametros/<fy>/<name>", methods=["GET", "POST"])
@staff_role(*access.MANAGE)
def parameter_edit(fy: str, name: str):  # noqa: ANN201
    fy_start = _fiscal_year(fy)
    if name == CLOSED_DAY:
        return _closed_day(fy_start)
    if name not in board_parameters.editable():
        abort(404)
    form = ValueForm()
    if request.method == "GET":
        form = ValueForm(formdata=None, data={"effective_on": clock.today(),
                                              "deadline_day": _deadline_day(fy_start, name)})
        return _value_page(form, fy_start, name)
    if not form.validate():
        errors = form_errors(form)
        if not form.value.errors:  # the value's own check too: every error at once
            errors = _value_error(form, fy_start, name) + errors
        return _value_page(form, fy_start, name, errors), 400
    if name == "lump_sum_deadline" and form.value.data == A_DAY and not form.text(name):
        return _value_page(form, fy_start, name, _service_error(
            form, InvalidInput("required", field="deadline_day"))), 400
    try:
        with uow() as w:
            board_parameters.adopt(w, current_user, fy_start, name, form.text(name),
                                   form.effective_on.data, form.resolution_number.data or "",
                                   form.resolution_date.data)
    except InvalidInput as exc:
        return _value_page(form, fy_start, name,
                           _service_error(form, exc, name, fiscal_year_label(fy_start))), 400
    except Forbidden:
        abort(403)
    flash(_("The new value is recorded. Statements and deadlines use it from now on."),
          "success")
    return redirect(url_for("roll.parameters_page", fy=fiscal_year_label(fy_start)), 303)


def _value_error(form: ValueForm, fy_start: date, name: str) -> list[tuple[str | None, str]]:
    """The value's refusal by its type and bounds (`params.parse_adopted`, what the service
    applies), for a form refused for its other fields: said with theirs, not after them."""
    try:
        params.parse_adopted(name, form.text(name), fy_start)
    except params.AdoptedValueError as exc:
        refusal = InvalidInput(exc.code, field="value",
                               **{k: str(v) for k, v in exc.params.items()})
        return _service_error(form, refusal, name, fiscal_year_label(fy_start))
    return []


def _deadline_day(fy_start: date, name: str) -> date | None:
    """The lump-sum deadline's fixed day in force for the year, to start its form from."""
    if name != "lump_sum_deadline":
        return None
    with uow() as w:
        spec = in_force.parameter_set(w).for_fiscal_year(name, fy_start)
    return params.lump_sum_deadline(spec, fy_start)


def _value_page(form: ValueForm, fy_start: date, name: str,
                errors: list | None = None) -> str:
    with uow() as w:
        view = board_parameters.year_view(w, current_user, fy_start)
    p = next(p for p in view.parameters if p.name == name)
    low, high = params.BOUNDS.get(name, (Decimal("0"), Decimal("1")))
    choices = p.type.split(":", 1)[1].split(",") if p.type.startswith("choice:") else []
    bounds = params.INT_BOUNDS.get(name)
    if bounds is not None:
        form.value.render_kw = {"type": "number", "min": bounds[0], "max": bounds[1],
                                "inputmode": "numeric"}
    if name == "lump_sum_deadline":
        choices = [params.FIRST_INSTALLMENT_DUE, A_DAY]
    return render_template("roll/board_parameter_edit.html", form=form, view=view, p=p,
                           label=NAMES[name], shown=shown_value, errors=errors or [],
                           low=_bound(name, low), high=_bound(name, high),
                           int_bounds=bounds, choices=choices,
                           choice_names=CHOICES, set_by=SET_BY)


def _bound(name: str, value: Decimal) -> str:
    """A bound of a parameter's value as people read it: money for an amount, else a rate."""
    return formats().money(value) if name in params.MONEY else formats().percent(value)


def _closed_day(fy_start: date):  # noqa: ANN202
    form = ClosedDayForm()
    if request.method == "GET":
        form = ClosedDayForm(formdata=None)
        return _closed_page(form, fy_start)
    if not form.validate():
        return _closed_page(form, fy_start, form_errors(form)), 400
    try:
        with uow() as w:
            board_parameters.declare_closed(
                w, current_user, form.first_day.data, form.last_day.data,
                form.reason_es.data or "", form.reason_en.data or "",
                form.resolution_number.data or "", form.resolution_date.data)
    except InvalidInput as exc:
        return _closed_page(form, fy_start, _service_error(form, exc)), 400
    except Forbidden:
        abort(403)
    flash(_("The days are declared closed. Last days that fall on them move to the next "
            "working day from now on."), "success")
    return redirect(url_for("roll.parameters_page", fy=fiscal_year_label(
        fiscal_year_start(form.first_day.data))), 303)


def _closed_page(form: ClosedDayForm, fy_start: date, errors: list | None = None) -> str:
    return render_template("roll/board_closed_day.html", form=form,
                           label=fiscal_year_label(fy_start), errors=errors or [])


def _service_error(form: FlaskForm, exc: InvalidInput, parameter: str = "",
                   label: str = "") -> list[tuple[str | None, str]]:
    """The service's refusal as the error summary and its field show it (a value's in the
    words of `parameter`'s type; a lump-sum deadline's day on its day field)."""
    name = str(exc.params.get("field", ""))
    message = _MESSAGES.get((name, exc.code))
    if name == "value" and (parameter, exc.code) in _VALUE_MESSAGES:
        message = _VALUE_MESSAGES[(parameter, exc.code)]
        chosen = getattr(form, "value", None)
        if parameter == "lump_sum_deadline" and chosen is not None and chosen.data == A_DAY:
            name = "deadline_day"
    values = {k: v for k, v in exc.params.items()
              if k != "field" and not (parameter in params.INT_BOUNDS and k in ("low", "high"))}
    if message is not None and "%(label)s" in str(message):
        values["label"] = label
    f = formats()
    for k in ("low", "high"):
        if k in values:
            values[k] = _bound(parameter, Decimal(values[k]))
    if "day" in values:
        values["day"] = f.date_long(date.fromisoformat(values["day"]))
    text = _("Check this value.") if message is None else (
        str(message) % values if values else str(message))
    field = getattr(form, name, None)
    if field is None:
        return [(None, text)]
    field.errors = [*field.errors, text]
    return [("#" + field.id, f"{field.label.text}: {text}")]
