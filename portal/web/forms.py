"""Forms several packages share: a button's form (its CSRF token only), a faster select and
text input."""

from __future__ import annotations

from typing import Any

import flask_babel
from flask_babel.speaklater import LazyString
from flask_wtf import FlaskForm
from markupsafe import Markup, escape
from wtforms.widgets import FileInput, Select, TextInput
from wtforms.widgets.core import clean_key

from portal.i18n import translate


class ActionForm(FlaskForm):
    """A button that starts a job (its CSRF token only)."""


def lazy_text(value: Any) -> Any:
    """A lazy message's text (`lazy_gettext`, `_l`) in the language in force, from the
    portal's catalogs (`i18n.translate`: the same catalogs and language as Flask-Babel's
    `gettext`, without its lookups on every call: a filter form shows some forty); a lazy
    string of anything else through its own function; any other value as it is."""
    if type(value) is not LazyString:
        return value
    if value._func is flask_babel.gettext and not value._kwargs and len(value._args) == 1:
        return translate(value._args[0])
    return str(value)


def word_labels(form: Any) -> Any:
    """The form's lazy labels worded once (`lazy_text`), as the templates show them: a lazy
    label is written as its text, unescaped (`__html__`), and so is its Markup. Other labels
    are left as they are. The form, for chaining."""
    for f in form:
        if type(f.label.text) is LazyString:
            f.label.text = Markup(lazy_text(f.label.text))
    return form


def html_params(**kwargs: Any) -> str:
    """WTForms' `html_params` (the same text: attributes sorted by name, `True` written bare,
    `False` left out, every value escaped with its quotes as `&quot;`), written with one
    f-string per attribute instead of `Markup.format`."""
    params = []
    for k, v in sorted(kwargs.items()):
        k = clean_key(k)
        if v is True:
            params.append(k)
        elif v is not False:
            params.append(f'{escape(k)}="{str(escape(v)).replace(chr(34), "&quot;")}"')
    return " ".join(params)


def _flag_params(widget: Any, field: Any, kwargs: dict[str, Any]) -> None:
    """The field's validation flags the widget writes (`required`, `maxlength`, ...), as
    WTForms' widgets add them: those not given. The flags are the instance's attributes
    (what `dir` finds beyond the class's dunder names)."""
    flags = getattr(field, "flags", None)
    for k, value in (vars(flags).items() if flags is not None else ()):
        if k in widget.validation_attrs and k not in kwargs:
            kwargs[k] = value() if callable(value) else value


class FastSelect(Select):
    """WTForms' `Select` with the same markup, each option written directly: its
    `html_params` builds every attribute through `Markup.format`, much of a filter form's
    render (the lender's list of loans renders seven selects on every page), and a lazy
    label is translated once, not twice. Option groups, `multiple` and an option's own
    `render_kw` are left to WTForms."""

    def __call__(self, field, **kwargs):  # noqa: ANN001, ANN003, ANN204
        if self.multiple or field.has_groups():
            return super().__call__(field, **kwargs)
        kwargs.setdefault("id", field.id)
        _flag_params(self, field, kwargs)
        html = [f"<select {html_params(name=field.name, **kwargs)}>"]
        for choice in field._iter_choices_normalized():
            if choice.render_kw:
                html.append(Select.render_option(choice))
                continue
            value = str(choice.value) if isinstance(choice.value, bool) else choice.value
            label = choice.label
            if hasattr(label, "__html__"):  # a lazy label: its text once, as escape takes it
                label = Markup(lazy_text(label) if type(label) is LazyString
                               else label.__html__())
            label = escape(label or choice.value)
            html.append(f'<option{" selected" if choice.selected else ""} '
                        f'value="{escape(value)}">{label}</option>')
        html.append("</select>")
        return Markup("".join(html))


def _input(widget: Any, field: Any, kwargs: dict[str, Any]) -> Markup:
    """WTForms' `Input.__call__` (a field without a datalist), its attributes written by
    `html_params`."""
    kwargs.setdefault("id", field.id)
    kwargs.setdefault("type", widget.input_type)
    if "value" not in kwargs:
        kwargs["value"] = field._value()
    _flag_params(widget, field, kwargs)
    return Markup(f"<input {html_params(name=field.name, **kwargs)}>")


class FastText(TextInput):
    """WTForms' `TextInput` with the same markup, its attributes written directly
    (`html_params`): a filter form renders several on every page."""

    def __call__(self, field, **kwargs):  # noqa: ANN001, ANN003, ANN204
        if getattr(field, "_datalist", None) is not None:
            return super().__call__(field, **kwargs)
        return _input(self, field, kwargs)


class FastFile(FileInput):
    """WTForms' `FileInput` with the same markup, its attributes written directly."""

    def __call__(self, field, **kwargs):  # noqa: ANN001, ANN003, ANN204
        if getattr(field, "_datalist", None) is not None:
            return super().__call__(field, **kwargs)
        kwargs["value"] = False
        if self.multiple:
            kwargs["multiple"] = True
        return _input(self, field, kwargs)
