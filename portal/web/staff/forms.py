"""The staff lookup form."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import SearchField
from wtforms.validators import InputRequired, Length


class LookupForm(FlaskForm):
    class Meta:
        csrf = False  # a GET search changes nothing

    q = SearchField(_l("Catastro number, address, name or email"), validators=[
        InputRequired(message=_l("Write at least 3 characters to search.")),
        Length(min=3, max=100, message=_l("Write from 3 to 100 characters."))])


class ActionForm(FlaskForm):
    """A button that starts a job (its CSRF token only)."""
