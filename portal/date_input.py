"""A date as a person types it: the one parser of every CSV cell, API field and text box that
takes a date.

`parse(text, lang)` takes the ISO form (2026-11-30) in either language and the reader's own
short form: day/month/year in Spanish (30/11/2026), month/day/year in English (11/30/2026),
with a four-digit year. It refuses, each with its own code and message:

- `required`: nothing written;
- `bad_date`: any other form, or a day that does not exist (2026-02-30);
- `before`: earlier than `not_before` (what the date must follow: a filing, a demand);
- `after`: later than `not_after` (today, for a date that has happened).

Both bounds are named in the message, in the reader's language.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from portal.core.explain import N_
from portal.i18n import date_long, gettext
from portal.typed_input import TypedInputError

MESSAGES = {
    "required": N_("Write the date."),
    "bad_date": N_("Write the date as %(example)s (%(order)s), or as YYYY-MM-DD."),
    "before": N_("The date cannot be before %(limit)s."),
    "after": N_("The date cannot be after %(limit)s."),
}
#: How each language writes a date by hand (the example of `bad_date`).
EXAMPLES = {"es": "30/11/2026", "en": "11/30/2026"}
#: The order of that example's parts, said in words.
ORDERS = {"es": N_("day, month and year"), "en": N_("month, day and year")}

#: The hint beside a field read by `parse`: the reader's own form and the ISO one.
HINT = N_("For example %(example)s (%(order)s), or %(iso)s.")

_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_SLASH = re.compile(r"^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$")


class DateInputError(TypedInputError):
    """A date refused: `code` (a key of `MESSAGES`) and `params` for its message."""

    MESSAGES = MESSAGES

    def shown_params(self, lang: str = "es") -> dict[str, Any]:
        params = dict(self.params)
        if "limit" in params:
            params["limit"] = date_long(params["limit"])
        if self.code == "bad_date":
            params["example"] = EXAMPLES.get(lang, EXAMPLES["es"])
            params["order"] = gettext(ORDERS.get(lang, ORDERS["es"]))
        return params

    def message(self, lang: str = "es") -> str:
        """The reason in the language in force (`lang` chooses the example)."""
        return gettext(self.MESSAGES[self.code], **self.shown_params(lang))


def hint(lang: str = "es") -> str:
    """What a field read by `parse` takes, in the language in force (`lang` chooses the
    order): "For example 11/30/2026 (month, day and year), or 2026-11-30."."""
    return gettext(HINT, example=EXAMPLES.get(lang, EXAMPLES["es"]),
                   order=gettext(ORDERS.get(lang, ORDERS["es"])), iso="2026-11-30")


def parse(text: str | date | None, lang: str = "es", *, not_before: date | None = None,
          not_after: date | None = None) -> date:
    """The date `text` as the reader of `lang` writes it; raises `DateInputError`."""
    if isinstance(text, date):
        value = text
    else:
        raw = (text or "").strip()
        if not raw:
            raise DateInputError("required")
        value = _read(raw, lang)
    if not_before is not None and value < not_before:
        raise DateInputError("before", limit=not_before)
    if not_after is not None and value > not_after:
        raise DateInputError("after", limit=not_after)
    return value


def ambiguous(text: str | None) -> tuple[date, date] | None:
    """The two days a short form such as 11/02/2026 names, read day first and month first,
    when both exist and differ (a file or a form whose reader's order is not known for sure
    asks for YYYY-MM-DD instead); None for any other text (ISO, 30/11/2026, 05/05/2026)."""
    raw = (text or "").strip()
    m = _SLASH.match(raw) if raw.isascii() else None
    if not m:
        return None
    a, b, y = (int(g) for g in m.groups())
    if a == b or a > 12 or b > 12 or a < 1 or b < 1:
        return None
    try:
        return date(y, b, a), date(y, a, b)
    except ValueError:
        return None


def _read(raw: str, lang: str) -> date:
    if not raw.isascii():  # ASCII digits only: no full-width or Arabic-Indic digits
        raise DateInputError("bad_date")
    m = _ISO.match(raw)
    if m:
        y, mo, d = (int(g) for g in m.groups())
    else:
        m = _SLASH.match(raw)
        if not m:
            raise DateInputError("bad_date")
        a, b, y = (int(g) for g in m.groups())
        d, mo = (b, a) if lang == "en" else (a, b)
    try:
        return date(y, mo, d)
    except ValueError:
        raise DateInputError("bad_date") from None
