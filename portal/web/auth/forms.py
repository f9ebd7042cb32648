"""Account forms. Labels are lazy (`_l`) so they follow the request's language."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import EmailField, PasswordField, StringField, SubmitField
from wtforms.validators import Email, EqualTo, InputRequired, Length, ValidationError

MIN_PASSWORD = 10

COMMON = frozenset({"password12", "contraseña", "1234567890", "qwertyuiop", "puertorico1",
                    "password123", "0123456789", "abcdefghij", "iloveyou12"})


def strong_password(_form, field) -> None:  # noqa: ANN001
    value = field.data or ""
    if value.lower() in COMMON or len(set(value)) < 4:
        raise ValidationError(_l("Choose a less common password: mix words, numbers or symbols."))


def password_fields():  # noqa: ANN201
    pw = PasswordField(_l("Password"), validators=[
        InputRequired(message=_l("Enter a password.")),
        Length(min=MIN_PASSWORD, max=200,
               message=_l("Use at least %(num)d characters.", num=MIN_PASSWORD)),
        strong_password])
    again = PasswordField(_l("Repeat the password"), validators=[
        InputRequired(message=_l("Repeat the password.")),
        EqualTo("password", message=_l("The two passwords are different: type them again."))])
    return pw, again


def email_field():  # noqa: ANN201
    return EmailField(_l("Email"), validators=[
        InputRequired(message=_l("Enter your email.")),
        Email(message=_l("Enter an email like nombre@ejemplo.com."), check_deliverability=False),
        Length(max=254)])


class SignUpForm(FlaskForm):
    name = StringField(_l("Full name"), validators=[
        InputRequired(message=_l("Enter your name.")), Length(max=200)])
    email = email_field()
    password, confirm = password_fields()
    submit = SubmitField(_l("Create account"))


class SignInForm(FlaskForm):
    email = email_field()
    password = PasswordField(_l("Password"), validators=[
        InputRequired(message=_l("Enter your password.")), Length(max=200)])
    submit = SubmitField(_l("Sign in"))


class ForgotForm(FlaskForm):
    email = email_field()
    submit = SubmitField(_l("Send me a link"))


class ResetForm(FlaskForm):
    password, confirm = password_fields()
    submit = SubmitField(_l("Save the new password"))


class ResendForm(FlaskForm):
    email = email_field()
    submit = SubmitField(_l("Send the confirmation again"))
