"""Amounts a screen reader says in words: the answer-first figures (the dashboard, the parcel
page, the pay page, the receipt) show "$1,475.36" to the eye and give a voice "mil
cuatrocientos setenta y cinco dólares con treinta y seis centavos" (a
Spanish voice reading the figure may say the group comma as a decimal one).

The figure is hidden from assistive technology (`aria-hidden`) and the words are visually
hidden (USWDS `usa-sr-only`), so each is met once, by the eye or by the ear.
"""

from __future__ import annotations

from decimal import Decimal

from markupsafe import Markup, escape

from portal import i18n


def aloud(shown: str, spoken: str) -> Markup:
    """`shown` to the eye, `spoken` to a screen reader (each escaped: an f-string over
    `escape`, what `Markup.format` gives at a fraction of its cost, a list's rows call it)."""
    return Markup(f'<span aria-hidden="true">{escape(shown)}</span>'
                  f'<span class="usa-sr-only">{escape(spoken)}</span>')


#: money_aloud's markup by (language, the amount's digits): a list of fifty parcels shows
#: a hundred amounts, many alike, and their words are the same every time. Bounded.
_SAID: dict[tuple[str, str], Markup] = {}


def money_aloud(value: Decimal | None) -> Markup | str:
    """The amount as the page shows it, with its words for a screen reader (a Jinja filter)."""
    if value is None:
        return i18n.money(value)
    key = (i18n.current_language(), str(value))
    said = _SAID.get(key)
    if said is None:
        said = aloud(i18n.money(value), i18n.spoken_money(value))
        if len(_SAID) < 20000:
            _SAID[key] = said
    return said


def formats_aloud(f: i18n.Formats, value: Decimal) -> Markup:
    """The same, for a view that formats with a `Formats` of the page's language."""
    return aloud(f.money(value), f.spoken(value))
