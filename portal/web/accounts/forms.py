"""Forms of the owner's pages, and the staff's lookup."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    EmailField,
    HiddenField,
    PasswordField,
    RadioField,
    SearchField,
    StringField,
    SubmitField,
    TelField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Email, InputRequired, Length, Regexp


class ClaimForm(FlaskForm):
    catastro = StringField(_l("Catastro number"), validators=[
        InputRequired(message=_l("Enter the catastro number.")),
        Length(max=32, message=_l("The catastro number is at most 32 characters.")),
        Regexp(r"^[0-9 \-.]+$", message=_l("Use only digits and dashes, like 040-012-345-67."))])
    code = StringField(_l("Access code"), validators=[
        InputRequired(message=_l("Enter the access code.")),
        Length(max=40, message=_l("The access code is at most 40 characters."))])
    submit = SubmitField(_l("Add the parcel"))


class GrantForm(FlaskForm):
    email = EmailField(_l("Email of the person"), validators=[
        InputRequired(message=_l("Enter the person's email.")),
        Email(message=_l("Enter an email like nombre@ejemplo.com."), check_deliverability=False),
        Length(max=254)])
    may_pay = BooleanField(_l("They may also pay this parcel's assessment online"))
    #: Staff only (administrators): why, told to the owners (`policy.MANAGE_ACCESS`).
    reason = StringField(_l("Reason (the owners are told)"), validators=[Length(max=500)])
    submit = SubmitField(_l("Give read access"))


class RevokeEmailForm(FlaskForm):
    """The access page's "remove access for …" button: the email whose access ends."""

    email = HiddenField(validators=[InputRequired(), Length(max=254)])
    reason = StringField(validators=[Length(max=500)])  # staff only, as `GrantForm.reason`


class LookupForm(FlaskForm):
    class Meta:
        csrf = False  # a GET search changes nothing

    q = SearchField(_l("Catastro number, address, name or email"), validators=[
        InputRequired(message=_l("Write at least 3 characters to search.")),
        Length(min=3, max=100, message=_l("Write from 3 to 100 characters."))])


# --- the account page (/cuenta) -------------------------------------------------------------

class EmailChangeForm(FlaskForm):
    """A new email: the link goes to it; the account keeps the old one until it is opened."""

    new_email = EmailField(_l("New email"), validators=[
        InputRequired(message=_l("Enter the new email.")),
        Email(message=_l("Enter an email like nombre@ejemplo.com."), check_deliverability=False),
        Length(max=254, message=_l("An email is at most 254 characters."))])
    email_password = PasswordField(_l("Your current password"), validators=[
        InputRequired(message=_l("Enter your current password.")), Length(max=200)])
    submit = SubmitField(_l("Send me the link"))


class PhoneForm(FlaskForm):
    """The telephone (`portal.people.profile.parse_phone` reads it; empty removes it)."""

    phone = TelField(_l("Telephone"), validators=[Length(max=40, message=_l(
        "A telephone number is at most 40 characters."))])
    submit = SubmitField(_l("Save the telephone"))


class LanguageForm(FlaskForm):
    lang = RadioField(_l("Language of the portal and its emails"),
                      choices=[SelectChoice("es", "Español", render_kw={"lang": "es"}),
                               SelectChoice("en", "English", render_kw={"lang": "en"})],
                      validators=[InputRequired(message=_l("Choose a language."))])
    submit = SubmitField(_l("Save the language"))
