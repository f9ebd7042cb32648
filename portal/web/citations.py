"""A parameter's reference as its record keeps it, marked with its languages (WCAG 3.1.2,
language of parts): the record's own words are English ("23 LPRA § 6432(d): ..."), and each
quotation is in the language of the statute it quotes. The residential-exemption law is in
Spanish (and its Spanish prevails), and the parameters it gives the CRIM quote it; the other
statutes are quoted in English. So on a Spanish page an English reference is read by an
English voice, and on an English page a Spanish quotation by a Spanish voice.
"""

from __future__ import annotations

import re

from markupsafe import Markup, escape

#: The record's words are English (portal/core/parameters/*.toml).
RECORD_LANG = "en"
#: A reference that names the Spanish statute, or the CRIM it empowers, quotes it in Spanish.
_SPANISH_SOURCES = re.compile(r"Exoneración residencial|\bCRIM\b")
_QUOTED = re.compile(r"'([^']+)'")


def quotation_lang(reference: str) -> str:
    """The language of the quotations in `reference`: the statute's it names."""
    return "es" if _SPANISH_SOURCES.search(reference) else "en"


def cited(reference: str | None) -> Markup:
    """`reference` as HTML: the record's words in a `lang="en"` span, each quotation in a span
    of its statute's language (the quotation marks stay as the record has them)."""
    if not reference:
        return Markup("—")
    lang = quotation_lang(reference)
    parts = []
    last = 0
    for m in _QUOTED.finditer(reference):
        parts.append(escape(reference[last:m.start()]))
        parts.append(Markup("'<span lang=\"%s\">%s</span>'") % (lang, m.group(1)))
        last = m.end()
    parts.append(escape(reference[last:]))
    return Markup('<span lang="%s">%s</span>') % (RECORD_LANG, Markup("").join(parts))
