"""Forms of the certification wizard (one question a step) and of the staff's review.

The choices' labels are the catalogs' (`_l`); the services check every value again."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    BooleanField,
    IntegerField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
    SubmitField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError
from wtforms.widgets import CheckboxInput, ListWidget

from portal.exemptions.answers import OCCUPANTS_MAX
from portal.web.date_field import TypedDateField


def choices(pairs) -> list[SelectChoice]:  # noqa: ANN001
    """(value, label) pairs as WTForms' choices."""
    return [SelectChoice(v, label) for v, label in pairs]


YES_NO = [("no", _l("No")), ("yes", _l("Yes"))]


class MultiCheckboxField(SelectMultipleField):
    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


def _required_if(other: str, value: str, message: str):  # noqa: ANN202
    def check(form, field):  # noqa: ANN001, ANN202
        if form[other].data == value and (field.data is None or field.data == ""):
            raise ValidationError(message)
    return check


class AtLeastOne:
    """At least one box checked (without the `required` attribute on each box, which would
    ask the browser for every one of them)."""

    def __init__(self, message: str):
        self.message = message

    def __call__(self, form, field) -> None:  # noqa: ANN001
        if not field.data:
            raise ValidationError(self.message)


class ContinueForm(FlaskForm):
    submit = SubmitField(_l("Continue"))


class OwnersForm(FlaskForm):
    owners = MultiCheckboxField(_l("Owners who file"), coerce=int, validators=[
        AtLeastOne(_l("Choose at least one owner."))])
    submit = SubmitField(_l("Continue"))


class OccupantsForm(FlaskForm):
    occupants = TextAreaField(_l("Who lives in the home, and their relationship to the owner"),
                              validators=[InputRequired(message=_l(
                                  "Write who lives in the home (at least the owner).")),
                                  Length(max=OCCUPANTS_MAX, message=_l(
                                      "Write at most 1,000 characters."))])
    submit = SubmitField(_l("Continue"))


class UseForm(FlaskForm):
    use = RadioField(
        _l("How was the property used on January 1?"), choices=choices([
        ("home", _l("It was the home of the owner or the family")),
        ("new_structure", _l("A new structure bought from its builder, the buyer's home")),
        ("away", _l("The owner or the family lived away for a while, for a reason the law "
                    "accepts")),
        ("not_home", _l("It was not the home of the owner or the family"))]),
        validators=[InputRequired(message=_l("Choose one answer."))])
    deed_date = TypedDateField(_l("Date of the deed of purchase"), validators=[
        Optional(), _required_if("use", "new_structure", _l("Enter the date of the deed."))])
    submit = SubmitField(_l("Continue"))


class AbsenceForm(FlaskForm):
    absence_reason = RadioField(
        _l("Why do you live away from the home?"), choices=choices([
        ("care_relative_60_plus", _l("To care for a relative aged 60 or more with a critical "
                                     "illness or a disability that requires care")),
        ("own_illness_or_disability", _l("Because of my own critical illness or disability, I "
                                         "live with a relative or in a care centre")),
        ("obligation_8_lpra_1511", _l("To meet obligations under 8 LPRA section 1511 and "
                                      "following"))]),
        validators=[InputRequired(message=_l("Choose one answer."))])
    absence_sworn = BooleanField(
        _l("I swear that this is the reason and that no rent is received for the home."),
        validators=[InputRequired(message=_l("Check the box to make the sworn statement."))])
    submit = SubmitField(_l("Continue"))


class RentForm(FlaskForm):
    rent = RadioField(_l("Is any rent received for the property or a part of it?"),
                      choices=choices(YES_NO),
                      validators=[InputRequired(message=_l("Choose one answer."))])
    rent_part = TextAreaField(_l("Which part is rented"), validators=[
        Optional(), Length(max=500, message=_l("Write at most 500 characters."))])
    submit = SubmitField(_l("Continue"))


class ResidentialForm(FlaskForm):
    residential = RadioField(
        _l("Which part of the property is your home?"), choices=choices([
        ("all", _l("All of it")),
        ("fraction", _l("A part: I give the fraction")),
        ("valuation", _l("A part: I give its valuation"))]),
        validators=[InputRequired(message=_l("Choose one answer."))])
    fraction = StringField(_l("Fraction used as the home (for example 0.5)"), validators=[
        Optional(), _required_if("residential", "fraction", _l("Enter the fraction.")),
        Length(max=12)])
    fraction_basis = StringField(_l("How you measured it (for example, the area of each "
                                    "part)"), validators=[Optional(), Length(max=500)])
    residential_valuation = StringField(_l("Valuation of the residential part, lot included"),
                                        validators=[Optional(), _required_if(
                                            "residential", "valuation",
                                            _l("Enter the valuation.")), Length(max=20)])
    submit = SubmitField(_l("Continue"))


class VeteranForm(FlaskForm):
    veteran = RadioField(
        _l("Does an owner have the veterans' exemption?"), choices=choices(YES_NO),
                         validators=[InputRequired(message=_l("Choose one answer."))])
    veteran_amount = StringField(_l("Veterans' exemption amount (valuation)"), validators=[
        Optional(), _required_if("veteran", "yes", _l("Enter the amount.")), Length(max=20)])
    submit = SubmitField(_l("Continue"))


class CooperativeForm(FlaskForm):
    cooperative = RadioField(_l("Is the home a unit of a housing cooperative?"),
                             choices=choices(YES_NO),
                             validators=[InputRequired(message=_l("Choose one answer."))])
    unit_share = StringField(_l("The unit's share of the cooperative (for example 0.025)"),
                             validators=[Optional(), _required_if(
                                 "cooperative", "yes", _l("Enter the share.")),
                                 Length(max=12)])
    cooperative_name = StringField(
        _l("The housing cooperative's name"),
        validators=[Optional(), _required_if("cooperative", "yes",
                                             _l("Enter the cooperative's name.")),
                    Length(max=200)])
    coop_election = RadioField(
        _l("The cooperative's election, if it is not on record yet"), choices=choices([
        ("residential", _l("The residential exemption, unit by unit")),
        ("cooperative_law", _l("The exemption of the cooperatives law instead"))]),
        validators=[Optional()])
    submit = SubmitField(_l("Continue"))


class DebtForm(FlaskForm):
    plan = RadioField(
        _l("How will you settle the property tax owed on January 1?"), choices=choices([
        ("request", _l("I request a payment plan")),
        ("pay_in_full", _l("I will pay it in full within the 30 days"))]),
        validators=[InputRequired(message=_l("Choose one answer."))])
    plan_payments = IntegerField(_l("Number of monthly payments"), validators=[
        Optional(), NumberRange(min=1, max=120, message=_l("Enter a whole number of payments.")),
        _required_if("plan", "request", _l("Enter the number of payments."))])
    plan_first_due = TypedDateField(_l("Date of the first payment"), validators=[
        Optional(), _required_if("plan", "request", _l("Enter the date of the first payment."))])
    submit = SubmitField(_l("Continue"))


class EvidenceForm(FlaskForm):
    file = FileField(_l("Document (PDF, JPEG or PNG, at most 10 MB)"))
    submit = SubmitField(_l("Upload"))


class AttestForm(FlaskForm):
    attest = BooleanField(_l("I certify that everything I stated is true and complete."),
                          validators=[InputRequired(message=_l(
                              "Check the box to certify the statement."))])
    full_name = StringField(_l("Your full name"), validators=[
        InputRequired(message=_l("Type your full name.")), Length(max=200)])
    submit = SubmitField(_l("File the certification"))


STEP_FORMS = {"owners": OwnersForm, "occupants": OccupantsForm, "use": UseForm,
              "absence": AbsenceForm, "rent": RentForm, "residential": ResidentialForm,
              "veteran": VeteranForm, "cooperative": CooperativeForm, "debt": DebtForm,
              "evidence": ContinueForm, "result": ContinueForm, "attest": AttestForm}


class QueueFilterForm(FlaskForm):
    class Meta:
        csrf = False

    status = SelectField(_l("Status"), validators=[Optional()])
    municipality = SelectField(_l("Municipality"), validators=[Optional()])
    age = IntegerField(_l("Filed at least this many days ago"), validators=[
        Optional(), NumberRange(min=0, max=3650, message=_l("Enter days from 0 to 3,650."))])
    submit = SubmitField(_l("Filter"))


class ReturnForm(FlaskForm):
    reasons = MultiCheckboxField(_l("Reasons"), validators=[
        AtLeastOne(_l("Choose at least one reason."))])
    note = TextAreaField(_l("Note to the owner (optional)"), validators=[
        Optional(), Length(max=2000, message=_l("Write at most 2,000 characters."))])
    submit = SubmitField(_l("Return to the owner"))


class DecisionForm(FlaskForm):
    note = TextAreaField(_l("Note (optional)"), validators=[Optional(), Length(max=2000)])
    submit = SubmitField(_l("Approve"))


class PlanEntryForm(FlaskForm):
    """R-B16: what the CRIM reports of an approved plan: a payment, or the auction notice
    costs after a default. The amount is read by the one parser of typed amounts."""

    kind = RadioField(_l("What the CRIM reports"), choices=[
        SelectChoice("payment", _l("A payment received")),
        SelectChoice("notice_costs", _l("Auction notice costs charged"))],
        validators=[InputRequired(message=_l("Choose one answer."))])
    entry_on = TypedDateField(_l("Day received or charged"), validators=[
        InputRequired(message=_l("Enter the day."))])
    amount = StringField(_l("Amount"), validators=[
        InputRequired(message=_l("Write the amount."))])
    reference = StringField(_l("The CRIM's receipt or report (optional)"), validators=[
        Optional(), Length(max=120, message=_l("Write at most 120 characters."))])
    submit = SubmitField(_l("Record what the CRIM reports"))

    def validate_amount(self, field) -> None:  # noqa: ANN001
        from portal import money_input
        from portal.i18n import current_locale
        try:
            field.parsed = money_input.parse(field.data or "", current_locale())
        except money_input.MoneyInputError as e:
            raise ValidationError(e.message()) from None
        if field.parsed <= 0:
            raise ValidationError(_l("Write an amount above 0.00."))


class CoopElectionCorrectionForm(FlaskForm):
    """Staff correct a cooperative's election recorded in error (R-B4, R-B20): the election
    as it should read and why (`portal.exemptions.cooperatives.correct`)."""

    election = RadioField(_l("The cooperative's election, corrected"), choices=choices([
        ("residential", _l("The residential exemption, unit by unit")),
        ("cooperative_law", _l("The exemption of the cooperatives law instead"))]),
        validators=[InputRequired(message=_l("Choose the election the cooperative made."))])
    reason = TextAreaField(_l("Why it is corrected"), validators=[
        InputRequired(message=_l("Say why the election is corrected.")),
        Length(max=500, message=_l("Write at most 500 characters."))])
    submit = SubmitField(_l("Record the correction"))
