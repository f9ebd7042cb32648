"""The collections forms: the run's day, a demand's mailing, its return receipt, the claim
filed, and the list's filter."""

from __future__ import annotations

import re
from decimal import Decimal

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import BooleanField, DateField, DecimalField, SelectField, StringField, SubmitField
from wtforms.validators import (
    DataRequired,
    InputRequired,
    Length,
    NumberRange,
    Optional,
    StopValidation,
)

from portal.web.date_field import TypedDateField
from portal.web.forms import FastText

COST_MESSAGE = _l("Write an amount from 0.00 to 1,000.00.")
DATE_MESSAGE = _l("Write the date as year-month-day, for example 2026-11-30.")
#: A postage cost above this is a typing error (NUMERIC(14, 2) holds more).
MAX_COST = Decimal("1000.00")


class IsoDateField(TypedDateField):
    """A date typed year-month-day or in the reader's own form, read by the one parser of
    dates (`portal.web.date_field`), whose refusal says how to write it. A text input (not
    type=date): what was typed is shown again as typed, which a date input may not hold.
    WTForms' text input's markup, written directly (`FastText`)."""

    widget = FastText()


def iso_date_field(label) -> DateField:  # noqa: ANN001
    """A required date written year-month-day in ASCII digits (also the attachments' forms)."""
    return IsoDateField(label, format="%Y-%m-%d",
                        validators=[InputRequired(message=DATE_MESSAGE)])


#: What a postage amount may be written as: ASCII digits, at most two decimals.
AMOUNT = re.compile(r"^[0-9]{1,4}(\.[0-9]{1,2})?$")


def _plain_amount(form, field) -> None:  # noqa: ANN001
    """Whole cents written in ASCII digits (no "1e3", no full-width digits, no 7.001)."""
    raw = (field.raw_data or [""])[0].strip()
    if raw and not AMOUNT.match(raw):
        raise StopValidation(str(COST_MESSAGE))


class RunForm(FlaskForm):
    run_on = iso_date_field(_l("Day of the run"))
    submit = SubmitField(_l("Start the collections run"))


class MailingForm(FlaskForm):
    certified_mail_number = StringField(_l("Certified-mail number"), validators=[
        DataRequired(message=_l("Write the number on the certified-mail receipt.")),
        Length(max=40, message=_l("Write at most 40 characters."))])
    mailed_on = iso_date_field(_l("Mailing date"))
    cost = DecimalField(_l("Postage charged to the account (optional)"), places=2,
                        validators=[_plain_amount, Optional(), NumberRange(
                            min=Decimal("0"), max=MAX_COST, message=COST_MESSAGE)])
    submit = SubmitField(_l("Record the mailing"))


class CorrectionForm(FlaskForm):
    """A recorded mailing corrected: its number and date (R-A13; the postage stays)."""

    certified_mail_number = StringField(_l("Certified-mail number"), validators=[
        DataRequired(message=_l("Write the number on the certified-mail receipt.")),
        Length(max=40, message=_l("Write at most 40 characters."))])
    mailed_on = iso_date_field(_l("Mailing date"))
    submit = SubmitField(_l("Correct the mailing"))


class ReceiptForm(FlaskForm):
    received_on = iso_date_field(_l("Date on the return receipt"))
    submit = SubmitField(_l("Record the return receipt"))


class ClaimForm(FlaskForm):
    filed_on = iso_date_field(_l("Day the claim was filed"))
    case_number = StringField(_l("Case number"), validators=[
        DataRequired(message=_l("Write the court's case number.")),
        Length(max=40, message=_l("Write at most 40 characters."))])
    #: R-A17 (revision 3): staff confirm a claim for a demand under the Board's minimum.
    confirm_under_minimum = BooleanField(_l(
        "I confirm the claim although the demand listed less than the Board's demand "
        "minimum."))
    submit = SubmitField(_l("Record the claim in court"))


class FilterForm(FlaskForm):
    class Meta:
        csrf = False  # a GET filter changes nothing

    estado = SelectField(_l("Status"), choices=[], validate_choice=True)


class MailingsForm(FlaskForm):
    """The post office's file: one row per demand mailed (R-A12)."""

    file = FileField(_l("The post office's CSV file"), validators=[
        FileRequired(message=_l("Choose the CSV file to upload."))])
    submit = SubmitField(_l("Record the mailings"))
