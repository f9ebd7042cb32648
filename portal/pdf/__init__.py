"""The document layer: every PDF the portal issues (the statement of account, receipts, and
the notices and letters to come), in the reader's language, tagged for screen readers.

No Flask and no database: the caller words the document from the catalogs and formats the
core's figures (`Document`, `Row`, `Why`, `Ref`, `Table`); `render(doc, lang)` lays it out
(`layout.py`: measured, wrapped, paginated so nothing overlaps), names the issuing Authority
on every page (`authority.toml`, dated data) and writes a tagged PDF (`tagged.py`). See
docs/DOCUMENTS.md.
"""

from __future__ import annotations

from collections.abc import Iterable

from portal.i18n import ShownStep, use_language
from portal.pdf.authority import Issuer, issuer
from portal.pdf.fonts import FontMissing, font_files
from portal.pdf.model import Document, Ref, Row, Table, Why

__all__ = ["Document", "FontMissing", "Issuer", "Ref", "Row", "Table", "Why", "font_files",
           "issuer", "render", "whys"]


def whys(steps: Iterable[ShownStep]) -> list[Why]:
    """The explanation steps of a figure as plain lines, each with its rule as a footnote."""
    return [Why(s.text, Ref(s.rule, s.source, s.title) if s.source else None) for s in steps]


def render(doc: Document, lang: str) -> bytes:
    """The PDF of `doc`, in `lang` ('es' or 'en')."""
    from portal.pdf.layout import render_document
    with use_language(lang) as lang:
        return render_document(doc, lang)
