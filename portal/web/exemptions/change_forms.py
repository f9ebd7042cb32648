"""Forms of the change report (J6). Validation only; what a change means is the core's."""

from __future__ import annotations

from datetime import date

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, DateField, RadioField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, Optional, ValidationError

from portal import clock
from portal.core.explain import N_
from portal.exemptions.changes import DETAILS_MAX, NAME_MAX
from portal.web.date_field import TypedDateField

#: The kinds of change, in the order the form lists them (RULES.md R-B17).
KIND_LABELS = (
    ("moved", N_("I moved out: the property is no longer my home")),
    ("rented", N_("I rented out the property, in whole or in part")),
    ("use_changed", N_("The use of the property changed (for example, a business)")),
    ("sold_or_transferred", N_("I sold, donated or otherwise transferred the property, or it "
                               "was inherited")),
    ("co_owner_changed", N_("A co-owner was added or removed")),
    ("spouse_died", N_("My spouse died")),
    ("divorce", N_("I divorced")),
    ("other", N_("Another change")),
)
#: What the law says of each kind, under its choice: the rule and what follows (the core's
#: `change_outcome` words it in full on the next step).
KIND_HINTS = {
    "moved": N_("R-B7: the exemption is for the home of the owner or the family. It ends from "
                "the first January 1 after the move, unless the absence is temporary for one "
                "of the reasons of R-B8 and no rent is received."),
    "rented": N_("R-B7, R-B2: rent received means the rented part is no longer residential, "
                 "from the first January 1 after the change."),
    "use_changed": N_("R-B7, R-B2: only the part used as a home counts; the exemption ends or "
                      "is reduced from the first January 1 after the change."),
    "sold_or_transferred": N_("R-B18: the exemption does not pass to the new owner, who files "
                              "anew. Failing to report a transfer is an offence whatever the "
                              "intent (R-B12)."),
    "co_owner_changed": N_("R-B6, R-B20: the CRIM reviews who may hold the exemption. Failing "
                           "to report a change in ownership is an offence whatever the intent "
                           "(R-B12)."),
    "spouse_died": N_("R-B19: a surviving spouse named on the approved certification keeps it "
                      "while the property is still the home; the death is still reported as "
                      "a change of ownership (R-B12)."),
    "divorce": N_("R-B5: a couple has one exemption; after a divorce the CRIM reviews who "
                  "keeps it (a change in qualifications, R-B12)."),
    "other": N_("R-B15: any other change in the qualifications for the exemption; the CRIM "
                "reviews whether the property still qualifies on the next January 1."),
}
KIND_SHORT = {
    "moved": N_("Moved out"), "rented": N_("Rented out"), "use_changed": N_("Use changed"),
    "sold_or_transferred": N_("Sold or transferred"),
    "co_owner_changed": N_("Co-owner added or removed"), "spouse_died": N_("Spouse died"),
    "divorce": N_("Divorce"), "other": N_("Other change"),
}
YES_NO = [SelectChoice("yes", _l("Yes")), SelectChoice("no", _l("No"))]
EARLIEST = date(1950, 1, 1)


class ChangeDateField(TypedDateField):
    """A date as the browser's date input sends it (YYYY-MM-DD) or as the reader types it
    (the one parser of dates); empty is left to InputRequired, so one message is shown."""


class ChangeForm(FlaskForm):
    kind = RadioField(_l("What changed?"),
                      choices=[SelectChoice(k, _l(label)) for k, label in KIND_LABELS],
                      validators=[InputRequired(message=_l("Choose what changed."))])
    change_date = ChangeDateField(
        _l("Date of the change"),
        validators=[InputRequired(message=_l("Enter the date of the change, like 2026-11-15."))])
    details = TextAreaField(
        _l("What is new (optional)"), validators=[Optional(), Length(
            max=DETAILS_MAX, message=_l("Write at most %(max)d characters.", max=DETAILS_MAX))])
    original_titleholder = RadioField(
        _l("Only if your spouse died: were you named as an owner on the approved "
           "certification?"), choices=YES_NO, validate_choice=False)
    residential_use = RadioField(
        _l("Is the property still your home?"), choices=YES_NO, validate_choice=False)

    # The attestation (R-B12, RULES.md R-B17), asked and checked on the review step only.
    attest = BooleanField(_l("I certify that what I report here is true and complete."))
    full_name = StringField(_l("Your full name (it serves as your signature)"))

    def attestation_errors(self) -> bool:
        """On "send": the box and the typed name are required; False when both are there."""
        if not self.attest.data:
            self.attest.errors = [_l("Check the box to certify the report.")]
        name = " ".join((self.full_name.data or "").split())
        if not name:
            self.full_name.errors = [_l("Type your full name to certify the report.")]
        elif len(name) > NAME_MAX:
            self.full_name.errors = [_l("Write at most %(max)d characters.", max=NAME_MAX)]
        return bool(self.attest.errors or self.full_name.errors)

    def validate_change_date(self, field: DateField) -> None:
        if field.data is None:
            return
        if field.data > clock.today():
            raise ValidationError(_l("The date of the change cannot be after today: report a "
                                     "change once it has happened."))
        if field.data < EARLIEST:
            raise ValidationError(_l("Enter a date from 1950 on."))

    def validate_original_titleholder(self, field: RadioField) -> None:
        if field.data not in (None, "", "yes", "no"):
            field.data = None
        if self.kind.data == "spouse_died" and field.data not in ("yes", "no"):
            raise ValidationError(_l("Say whether you were named as an owner on the "
                                     "certification."))

    def validate_residential_use(self, field: RadioField) -> None:
        if field.data not in ("yes", "no"):
            field.data = None  # asked, and checked, by the review step only

    @property
    def titleholder(self) -> bool | None:
        if self.kind.data != "spouse_died":
            return None
        return self.original_titleholder.data == "yes"
