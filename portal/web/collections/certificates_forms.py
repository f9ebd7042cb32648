"""The certificate's forms: the good-through date (owner or staff) and a code to verify
(anyone)."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import StringField, SubmitField
from wtforms.validators import InputRequired, Length, ValidationError

from portal.web.date_field import TypedDateField


class _Date(TypedDateField):
    """A date as `<input type="date">` sends it (YYYY-MM-DD) or as the reader types it (the
    one parser of dates); anything else is refused in the reader's language."""


class CertificateForm(FlaskForm):
    good_through = _Date(_l("Good through"), validators=[
        InputRequired(message=_l("Enter the date the certificate must hold through."))])
    submit = SubmitField(_l("Issue the certificate"))

    def __init__(self, *args: Any, today: date | None = None, last: date | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.today, self.last = today, last

    def validate_good_through(self, field: _Date) -> None:
        from portal.i18n import date_long
        if field.data is None or self.today is None or self.last is None:
            return
        if field.data < self.today:
            raise ValidationError(str(_l("The date cannot be before today, %(today)s.",
                                         today=date_long(self.today))))
        if field.data > self.last:
            raise ValidationError(str(_l("The date can be at most %(last)s (%(days)s days "
                                         "from today).", last=date_long(self.last),
                                         days=(self.last - self.today).days)))


class VerifyForm(FlaskForm):
    code = StringField(_l("Verification code"), validators=[
        InputRequired(message=_l("Enter the code printed on the certificate.")),
        Length(max=60, message=_l("The code has 28 letters and numbers; check it and try "
                                  "again."))])
    submit = SubmitField(_l("Verify"))
