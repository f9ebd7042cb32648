"""Forms several packages share: a button's form (its CSRF token only), a faster select."""

from __future__ import annotations

from flask_wtf import FlaskForm
from markupsafe import Markup, escape
from wtforms.widgets import Select, html_params


class ActionForm(FlaskForm):
    """A button that starts a job (its CSRF token only)."""


class FastSelect(Select):
    """WTForms' `Select` with the same markup, each option written directly: its
    `html_params` builds every attribute through `Markup.format`, much of a filter form's
    render (the lender's list of loans renders seven selects on every page). Option groups,
    `multiple` and an option's own `render_kw` are left to WTForms."""

    def __call__(self, field, **kwargs):  # noqa: ANN001, ANN003, ANN204
        if self.multiple or field.has_groups():
            return super().__call__(field, **kwargs)
        kwargs.setdefault("id", field.id)
        flags = getattr(field, "flags", {})
        for k in dir(flags):
            if k in self.validation_attrs and k not in kwargs:
                kwargs[k] = getattr(flags, k)
        html = [f"<select {html_params(name=field.name, **kwargs)}>"]
        for choice in field._iter_choices_normalized():
            if choice.render_kw:
                html.append(Select.render_option(choice))
                continue
            value = str(choice.value) if isinstance(choice.value, bool) else choice.value
            label = escape(choice.label or choice.value)
            html.append(f'<option{" selected" if choice.selected else ""} '
                        f'value="{escape(value)}">{label}</option>')
        html.append("</select>")
        return Markup("".join(html))
