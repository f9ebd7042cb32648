"""Account forms, and a staff member's role. Labels are lazy (`_l`) so they follow the
request's language."""

from __future__ import annotations

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import EmailField, PasswordField, RadioField, StringField, SubmitField
from wtforms.validators import Email, EqualTo, InputRequired, Length, ValidationError

from portal.people import password_policy

MIN_PASSWORD = password_policy.MIN_LENGTH


def strong_password(form, field) -> None:  # noqa: ANN001
    """`passwords_policy`, told the person's email and name: the form's own fields, else
    `form.person` (email, name) set by the page (a reset)."""
    email, name = getattr(form, "person", ("", ""))
    if "email" in form:
        email = form.email.data or ""
    if "name" in form:
        name = form.name.data or ""
    found = password_policy.problems(field.data or "", email, name)
    if found:
        num = MIN_PASSWORD if found[0] == password_policy.TOO_SHORT \
            else password_policy.MAX_LENGTH
        raise ValidationError(" ".join(gettext(m, num=num) for m in found))


def password_fields():  # noqa: ANN201
    pw = PasswordField(_l("Password"), validators=[
        InputRequired(message=_l("Enter a password.")), strong_password])
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


class ChangePasswordForm(FlaskForm):
    current = PasswordField(_l("Current password"), validators=[
        InputRequired(message=_l("Enter your current password.")), Length(max=200)])
    password, confirm = password_fields()
    submit = SubmitField(_l("Save the new password"))


class ResendForm(FlaskForm):
    email = email_field()
    submit = SubmitField(_l("Send the confirmation again"))


class RoleForm(FlaskForm):
    """A staff member's role (docs/STAFF.md)."""

    role = RadioField(_l("Role"), choices=[], validate_choice=False, validators=[
        InputRequired(message=_l("Choose a role."))])
    submit = SubmitField(_l("Save the role"))
