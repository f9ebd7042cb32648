"""The attachment and auction forms (R-C1–R-C8) and the deposit order's (R-A14). Dates as
year-month-day text inputs (collections' `IsoDateField`: what was typed is shown again);
amounts as text read by the one parser of typed amounts (`portal.money_input`: "$1,234.50"
and "1234.50" alike, each refusal with its own message)."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import IntegerField, RadioField, StringField, SubmitField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

from portal import money_input
from portal.i18n import current_locale
from portal.web.collections.forms import iso_date_field

#: NUMERIC(14, 2): the largest amount the tables hold.
MAX_AMOUNT = money_input.MAXIMUM


class MoneyField(StringField):
    """An amount; blank is 0.00 unless the field is required (`InputRequired`)."""

    def process_formdata(self, valuelist):  # noqa: ANN001, ANN201
        self.raw_data = valuelist
        text = "".join(valuelist or []).strip()
        if not text:
            self.data = None
            return
        try:
            self.data = money_input.parse(text, current_locale())
        except money_input.MoneyInputError as e:
            self.data = None
            raise ValueError(e.message()) from None

    def _value(self) -> str:
        if self.raw_data:
            return self.raw_data[0]
        return "" if self.data is None else f"{self.data:,.2f}"


def _money(label, required: bool = False) -> MoneyField:  # noqa: ANN001
    validators = [InputRequired(message=_l("Write the amount (0.00 if none)."))] \
        if required else [Optional()]
    return MoneyField(label, validators=validators)


def _years() -> StringField:
    return StringField(_l("Fiscal years owed"), validators=[
        DataRequired(message=_l("Write the fiscal years the debt is for.")),
        Length(max=120, message=_l("Write at most 120 characters."))])


class _DebtForm(FlaskForm):
    """What every debt states (R-C1, R-C4): the fiscal years and the amounts they share."""

    fiscal_years = _years()
    taxes = _money(_l("Taxes (principal)"), required=True)
    surcharges = _money(_l("Surcharges"))
    interest = _money(_l("Interest"))
    penalties = _money(_l("Penalties"))


class NoticeForm(_DebtForm):
    """R-C1, R-C3, R-C7: the Treasury's debt and its notice of attachment."""

    levies = _money(_l("Levies"))
    fines = _money(_l("Fines"))
    custody_costs = _money(_l("Custody and deposit costs"))
    delivery = RadioField(_l("How the notice was served"), choices=[
        SelectChoice("personal", _l("In person, to the debtor or a family member in charge")),
        SelectChoice("certified_mail", _l("By certified mail with return receipt"))],
        validators=[InputRequired(message=_l("Choose how the notice was served."))])
    certified_mail_number = StringField(_l("Certified-mail number"), validators=[
        Optional(), Length(max=40, message=_l("Write at most 40 characters."))])
    notified_on = iso_date_field(_l("Notice date"))
    submit = SubmitField(_l("Record the notice of attachment"))


class AuctionForm(_DebtForm):
    """R-C4, R-C8: the CRIM's debt and the auction of the attached parcel."""

    costs = _money(_l("Costs"))
    appraised_on = iso_date_field(_l("Appraisal date"))
    real_value = _money(_l("Real value by the appraisal"), required=True)
    mortgage_amount = _money(_l("Balance of the recorded mortgages at the appraisal date"),
                             required=True)
    property_debt = _money(_l("This parcel's own taxes, surcharges and interest"))
    auction_number = IntegerField(_l("Auction number"), default=1, validators=[
        InputRequired(message=_l("Write the auction's number, from 1 to 9.")),
        NumberRange(min=1, max=9, message=_l("Write the auction's number, from 1 to 9."))])
    submit = SubmitField(_l("Record the auction and its minimum"))


class ResultForm(FlaskForm):
    """R-C6: the auction's result."""

    held_on = iso_date_field(_l("Day of the auction"))
    bids = IntegerField(_l("Bids received"), validators=[
        InputRequired(message=_l("Write how many bids were received (0 if none).")),
        NumberRange(min=0, max=10000, message=_l("Write a whole number from 0 to 10,000."))])
    price = _money(_l("Sale price (with bids)"))
    submit = SubmitField(_l("Record the result"))


class PaidForm(FlaskForm):
    paid_on = iso_date_field(_l("Day it was paid in full"))
    submit = SubmitField(_l("Record the payment in full"))


class AccrualForm(FlaskForm):
    """R-C7: what the Treasury states accrued on a notice's debt since the notice."""

    stated_on = iso_date_field(_l("Figures to the day"))
    accrued = _money(_l("Accrued since the notice"), required=True)
    per_day = _money(_l("Each later day adds"))
    custody_costs = _money(_l("Custody and deposit costs to that day"))
    reference = StringField(_l("The Treasury's statement (optional)"), validators=[
        Optional(), Length(max=120, message=_l("Write at most 120 characters."))])
    submit = SubmitField(_l("Record what accrued"))


class DepositOrderForm(FlaskForm):
    """R-A14: the court's order for the lessee to deposit the rents."""

    court = StringField(_l("Court"), validators=[
        DataRequired(message=_l("Write the court that issued the order.")),
        Length(max=120, message=_l("Write at most 120 characters."))])
    case_number = StringField(_l("Case number"), validators=[
        DataRequired(message=_l("Write the court's case number.")),
        Length(max=40, message=_l("Write at most 40 characters."))])
    ordered_on = iso_date_field(_l("Date of the order"))
    notes = TextAreaField(_l("Notes (optional)"), validators=[
        Optional(), Length(max=2000, message=_l("Write at most 2,000 characters."))])
    submit = SubmitField(_l("Record the deposit order"))


class LiftForm(FlaskForm):
    lifted_on = iso_date_field(_l("Day the order ends"))
    submit = SubmitField(_l("Lift the order"))


class FindForm(FlaskForm):
    class Meta:
        csrf = False  # a GET look-up changes nothing

    catastro = StringField(_l("Catastro number"), validators=[
        DataRequired(message=_l("Write the parcel's catastro number.")),
        Length(max=32, message=_l("Write at most 32 characters."))])
