"""The certificate's forms: the good-through date (owner or staff) and a code to verify
(anyone)."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import DateField, StringField, SubmitField
from wtforms.validators import InputRequired, Length, ValidationError


class _Date(DateField):
    """A date as `<input type="date">` sends it (YYYY-MM-DD); anything else is the form's own
    message in the reader's language (WTForms' would be in English)."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        try:
            super().process_formdata(valuelist)
        except ValueError:
            self.data = None
            raise ValueError(str(_l("Enter a date like 2026-12-15 (year, month, day)."))
                             ) from None


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
