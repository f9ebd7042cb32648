"""The roll's staff forms: a budget version (lines and fixed amounts), its adoption, and a
day written YYYY-MM-DD (the budgets' and the Board's parameters')."""

from __future__ import annotations

from decimal import Decimal

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    FieldList,
    Form,
    FormField,
    SelectField,
    StringField,
    SubmitField,
)
from wtforms.validators import DataRequired, InputRequired, Length

from portal.web.date_field import TypedDateField

# --- Budgets (R-A1, R-A3) -------------------------------------------------------------------

#: Blank rows a budget form shows below its lines (more with "Add a line": no JavaScript).
BLANK_LINES = 2
BLANK_FIXED = 1
#: The most rows a form takes (a larger posted index is ignored, not an error).
MAX_ROWS = 60
#: NUMERIC(14, 2): the largest amount a budget line holds.
MAX_AMOUNT = Decimal("999999999999.99")
MAX_TEXT = 500


def _blank(form: Form) -> bool:
    return not any((f.data or "").strip() for f in form if f.type in ("StringField",
                                                                      "SelectField"))


class BudgetLineForm(Form):
    """One line of a budget (R-A1 (1), (2), (5)): no CSRF of its own (its form has one)."""

    kind = SelectField(_l("Kind of line"), choices=[], validate_choice=False)
    description_es = StringField(_l("Description in Spanish"))
    description_en = StringField(_l("Description in English"))
    amount = StringField(_l("Cost"))
    financed = StringField(_l("Part financed by assessments"))


class FixedAmountForm(Form):
    """A parcel's amount fixed by the Board (R-A3)."""

    catastro = StringField(_l("Catastro number"))
    amount = StringField(_l("Fixed amount"))
    reason = StringField(_l("Reason"))


class BudgetForm(FlaskForm):
    """A budget version's content: lines, reference, fixed amounts. Blank rows are left out;
    "Add a line" / "Add a fixed amount" send the form back with one more blank row."""

    fiscal_year = SelectField(_l("Fiscal year"), choices=[], validate_choice=False)
    reference = StringField(_l("Board resolution"), validators=[
        Length(max=200, message=_l("Write at most %(max)d characters.", max=200))])
    lines = FieldList(FormField(BudgetLineForm), min_entries=0, max_entries=MAX_ROWS)
    fixed = FieldList(FormField(FixedAmountForm), min_entries=0, max_entries=MAX_ROWS)
    add_line = SubmitField(_l("Add a line"))
    add_fixed = SubmitField(_l("Add a fixed amount"))
    save = SubmitField(_l("Save the draft"))



class DayField(TypedDateField):
    """A date as the browser's date input sends it (YYYY-MM-DD) or as the reader types it,
    read by the one parser of dates (`portal.web.date_field`); empty (or blank) is left to
    InputRequired (one message)."""


class AdoptionDateForm(FlaskForm):
    """An adopted version's adoption date corrected (before its notices go out)."""

    adopted_on = DayField(_l("The correct adoption date"), validators=[
        InputRequired(message=_l("Write the date the Board adopted it."))])
    submit = SubmitField(_l("Correct the adoption date"))


class AdoptForm(FlaskForm):
    """The Board's adoption of a version (R-A1), confirmed; a late one confirmed apart."""

    adopted_on = DayField(_l("Date the Board adopted it"), validators=[
        InputRequired(message=_l("Write the date the Board adopted it."))])
    confirm = BooleanField(
        _l("I checked its lines and totals: once adopted, this version is never edited"),
        validators=[DataRequired(message=_l("Confirm that you checked the version."))])
    late = BooleanField(_l("The Board adopted it after the fiscal year began: record it so"))
    submit = SubmitField(_l("Adopt this version"))

