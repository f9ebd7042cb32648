"""The one date field of the forms: a date as the reader types it, read by `portal.date_input`
(ISO in either language, or the reader's own day/month/year or month/day/year), refused with
that parser's message in the reader's language. Blank is no input: the field's
InputRequired says so (one message, not two)."""

from __future__ import annotations

from wtforms import DateField

from portal import date_input
from portal.i18n import current_language


class TypedDateField(DateField):
    """A `DateField` whose text goes through `date_input.parse` (one parser per
    kind of input); the bounds a date must keep (not after today, not before a demand) stay
    with the form or the service, which name them."""

    def process_formdata(self, valuelist: list[str]) -> None:
        text = "".join(valuelist or []).strip()
        if not text:
            self.data, self.raw_data = None, []
            return
        lang = current_language()
        try:
            self.data = date_input.parse(text, lang)
        except date_input.DateInputError as exc:
            self.data = None
            raise ValueError(exc.message(lang)) from None
