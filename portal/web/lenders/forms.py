"""The lender's forms: the portfolio's filters (GET), one payment for a CSV of loan numbers,
a member's invitation and an API token."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import BooleanField, SelectField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Email, Length, Optional

from portal.lenders.portfolio import NOTICE_SORT, SORTS
from portal.web.forms import FastFile, FastSelect, FastText

#: The sort's choices (the phone's stacked table has no column headers to click).
SORT_LABELS = {"loan": _l("Loan"), "catastro": _l("Parcel"), "municipality": _l("Municipality"),
               "status": _l("Status"), "annual": _l("This year's assessment"),
               "due": _l("Due now"), "next_due": _l("Next due date"),
               NOTICE_SORT: _l("Last day to notify the CRIM")}
STATUS_CHOICES = [SelectChoice("", _l("Any status")), SelectChoice("current", _l("up to date")),
                  SelectChoice("pending", _l("pending")), SelectChoice("overdue", _l("overdue")),
                  SelectChoice("none", _l("no assessment"))]
WITHIN_CHOICES = [SelectChoice("", _l("Any date")), SelectChoice("7", _l("Within 7 days")),
                  SelectChoice("30", _l("Within 30 days")),
                  SelectChoice("90", _l("Within 90 days"))]
#: The acquisition notice's filter (R-B10 iii, R-B21): "reported", "overdue" or a number of
#: days (its last day from today to today + N).
NOTICE_CHOICES = [SelectChoice("", _l("Any")),
                  SelectChoice("reported", _l("An acquisition reported")),
                  SelectChoice("7", _l("Last day within 7 days")),
                  SelectChoice("30", _l("Last day within 30 days")),
                  SelectChoice("overdue", _l("Notice overdue"))]


#: The filters' selects: the choice checked, the markup written fast (same HTML).
_CHOICE = {"validate_choice": True, "widget": FastSelect()}


class FilterForm(FlaskForm):
    class Meta:
        csrf = False  # a GET filter changes nothing

    q = StringField(_l("Loan or catastro number"), validators=[
        Optional(), Length(max=40, message=_l("Write at most 40 characters."))],
        widget=FastText())
    estado = SelectField(_l("Status"), choices=STATUS_CHOICES, **_CHOICE,
                         default="")
    municipio = SelectField(_l("Municipality"), choices=[], **_CHOICE, default="")
    minimo = StringField(_l("Due now, at least"), validators=[
        Optional(), Length(max=20, message=_l("Write at most 20 characters."))],
        widget=FastText())
    maximo = StringField(_l("Due now, at most"), validators=[
        Optional(), Length(max=20, message=_l("Write at most 20 characters."))],
        widget=FastText())
    exoneracion = SelectField(_l("Residential exemption this year"), choices=[
        SelectChoice("", _l("Any")), SelectChoice("approved", _l("Approved")),
        SelectChoice("pending", _l("Filed, not yet decided")),
        SelectChoice("none", _l("None filed"))], **_CHOICE, default="")
    vence = SelectField(_l("Next due date"), choices=WITHIN_CHOICES, **_CHOICE,
                        default="")
    adquisicion = SelectField(_l("Acquisition: notice to the CRIM"), choices=NOTICE_CHOICES,
                              **_CHOICE, default="")
    orden = SelectField(_l("Sort by"), choices=[SelectChoice(k, SORT_LABELS[k])
                                                for k in (*SORTS, NOTICE_SORT)],
                        **_CHOICE, default="loan")
    dir = SelectField(_l("Order"), choices=[SelectChoice("asc", _l("Ascending")),
                                            SelectChoice("desc", _l("Descending"))],
                      **_CHOICE, default="asc")


class LoansFileForm(FlaskForm):
    file = FileField(_l("A CSV file of loan numbers"), validators=[
        FileRequired(message=_l("Choose the CSV file to upload."))], widget=FastFile())
    submit = SubmitField(_l("Pay for these loans"))


class InviteForm(FlaskForm):
    email = StringField(_l("Email"), validators=[
        DataRequired(message=_l("Write the email address.")),
        Length(max=254, message=_l("Write at most 254 characters.")),
        Email(message=_l("Enter an email like nombre@ejemplo.com."),
              check_deliverability=False)])
    role = SelectField(_l("Role"), choices=[SelectChoice("employee", _l("Clerk")),
                                            SelectChoice("administrator", _l("Administrator"))],
                       **_CHOICE)
    submit = SubmitField(_l("Send the invitation"))


class TokenForm(FlaskForm):
    name = StringField(_l("Name of the token"), validators=[
        DataRequired(message=_l("Write a name for the token.")),
        Length(max=80, message=_l("Write at most 80 characters."))])
    scope = SelectField(_l("What it may do"), choices=[
        SelectChoice("read", _l("Read loans")), SelectChoice("write", _l("Read and write"))],
        **_CHOICE)
    days = SelectField(_l("Good for"), choices=[
        SelectChoice("30", _l("30 days")), SelectChoice("90", _l("90 days")),
        SelectChoice("365", _l("365 days"))],
        default="90", **_CHOICE)
    submit = SubmitField(_l("Create the token"))


class WebhookForm(FlaskForm):
    """An endpoint for the lender's webhooks."""

    url = StringField(_l("Address (https)"), validators=[
        DataRequired(message=_l("Write the address that receives the events.")),
        Length(max=500, message=_l("Write at most 500 characters."))],
        description=_l("For example https://bank.example/portal-events"))
    batch_finished = BooleanField(_l("A batch of certifications finished"), default=True)
    certification_decided = BooleanField(_l("A certification was approved or returned"),
                                         default=True)
    submit = SubmitField(_l("Add the endpoint"))
