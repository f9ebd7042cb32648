"""A validated form's errors as the error summary lists them (`macros/ui.html`
`error_summary`): each linked to its field, an expired form said as such."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

#: Fields whose errors the summary does not list: buttons, and lists of rows (their rows'
#: errors are read apart, on the row's own fields).
SKIPPED = ("SubmitField", "FieldList")


def form_errors(form: Any) -> list[tuple[str | None, str]]:
    """(the field's #id or None, the message) for each error of the form's fields."""
    out: list[tuple[str | None, str]] = []
    for f in form:
        if f.type in SKIPPED:
            continue
        for e in f.errors or []:
            if f.type == "CSRFTokenField":
                out.append((None, _("The form expired: send it again.")))
            else:
                out.append(("#" + f.id, f"{f.label.text}: {e}"))
    return out
