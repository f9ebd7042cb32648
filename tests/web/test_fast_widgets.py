"""The fast widgets (portal/web/forms.py) write what WTForms' own widgets write, and a lazy
label's text is the one Flask-Babel gives: they read WTForms' and Flask-Babel's internals
(`html_params`' rules, `LazyString`'s function and arguments), so an upgrade of either that
changes them fails here rather than on a page."""

from __future__ import annotations

import pytest
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, Optional
from wtforms.widgets import FileInput, Select, TextInput

from portal.app import create_app
from portal.web.forms import FastFile, FastSelect, FastText, lazy_text


class _Form(FlaskForm):
    class Meta:
        csrf = False

    kind = SelectField(_l("Status"), choices=[SelectChoice("", _l("Any")),
                                              SelectChoice("a", 'A "quoted" <b>'),
                                              SelectChoice("b", _l("Paid"))])
    need = SelectField("Need", choices=[SelectChoice("x", "X"), SelectChoice("y", "Y")],
                       validators=[DataRequired()])
    text = StringField(_l("Catastro number"), validators=[Optional(), Length(max=20)])
    must = StringField("Must", validators=[DataRequired(), Length(min=2, max=5)])
    upload = FileField(_l("File"), validators=[FileRequired()])


@pytest.fixture(scope="module")
def app():  # noqa: ANN201
    return create_app({"SECRET_KEY": "t", "DATABASE_URL": "sqlite://", "TESTING": True})


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("query", ["", "?kind=a&need=y&text=%3Cx%22%3E&must=ab"])
def test_the_fast_widgets_write_what_wtforms_writes(app, lang, query):
    with app.test_request_context(f"/{query}{'&' if query else '?'}lang={lang}"):
        from flask import request
        form = _Form(formdata=request.args)
        form.validate()
        for name in ("kind", "need"):
            field = form[name]
            assert FastSelect()(field) == Select()(field), name
            assert FastSelect()(field, class_="usa-select", required=False) == \
                Select()(field, class_="usa-select", required=False), name
        for name in ("text", "must"):
            field = form[name]
            assert FastText()(field) == TextInput()(field), name
            assert FastText()(field, class_="usa-input", aria_describedby="x-hint") == \
                TextInput()(field, class_="usa-input", aria_describedby="x-hint"), name
        assert FastFile()(form.upload) == FileInput()(form.upload)
        assert FastFile()(form.upload, accept=".csv") == FileInput()(form.upload, accept=".csv")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_lazy_label_is_the_text_flask_babel_gives(app, lang):
    with app.test_request_context(f"/?lang={lang}"):
        for lazy in (_l("Status"), _l("Any"), _l("Catastro number")):
            assert lazy_text(lazy) == str(lazy)
        assert lazy_text("plain") == "plain"
