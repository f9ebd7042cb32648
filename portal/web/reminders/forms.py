"""Forms of the reminders' pages."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, EmailField, SelectField, SubmitField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Email, InputRequired, Length

from portal.core.reminders import DAYS_BEFORE_CHOICES, DEFAULT_DAYS_BEFORE


class SettingsForm(FlaskForm):
    enabled = BooleanField(_l("Send me email reminders"))
    days_before = SelectField(_l("How many days before each last day"), coerce=int,
                              default=DEFAULT_DAYS_BEFORE,
                              choices=[SelectChoice(d, str(d)) for d in DAYS_BEFORE_CHOICES])
    submit = SubmitField(_l("Save reminders"))


class RelativeForm(FlaskForm):
    email = EmailField(_l("Relative's email"), validators=[
        InputRequired(message=_l("Enter the relative's email.")),
        Email(message=_l("Enter an email like nombre@ejemplo.com."), check_deliverability=False),
        Length(max=254)])
    language = SelectField(_l("Language of their reminders"),
                           choices=[SelectChoice("es", "Español"), SelectChoice("en", "English")],
                           default="es")
    submit = SubmitField(_l("Send them a confirmation email"))
