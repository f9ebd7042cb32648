"""Amounts a screen reader says in words: the answer-first figures (the dashboard, the parcel
page, the pay page, the receipt) show "$1,475.36" to the eye and give a voice "mil
cuatrocientos setenta y cinco dólares con treinta y seis centavos" (a
Spanish voice reading the figure may say the group comma as a decimal one).

The figure is hidden from assistive technology (`aria-hidden`) and the words are visually
hidden (USWDS `usa-sr-only`), so each is met once, by the eye or by the ear.
"""

from __future__ import annotations

from decimal import Decimal

from markupsafe import Markup

from portal import i18n

_ALOUD = Markup('<span aria-hidden="true">{}</span><span class="usa-sr-only">{}</span>')


def aloud(shown: str, spoken: str) -> Markup:
    """`shown` to the eye, `spoken` to a screen reader."""
    return _ALOUD.format(shown, spoken)


def money_aloud(value: Decimal | None) -> Markup | str:
    """The amount as the page shows it, with its words for a screen reader (a Jinja filter)."""
    if value is None:
        return i18n.money(value)
    return aloud(i18n.money(value), i18n.spoken_money(value))


def formats_aloud(f: i18n.Formats, value: Decimal) -> Markup:
    """The same, for a view that formats with a `Formats` of the page's language."""
    return aloud(f.money(value), f.spoken(value))
