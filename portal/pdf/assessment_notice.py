"""The assessment notice (J8; R-A4, R-A5): one notice as a tagged PDF (`render_notice`), and a
batch of notices in one tagged PDF for the mail (`render_print_file`).

Both use the layout of every document (`layout.Layout`): measured, wrapped, paginated text,
the Authority at the top of every page, the rules as footnotes. In the print file each
notice starts on a new page, inside a /Sect whose /Lang is its language (a screen reader
switches voice), with its own footnotes; each page's header names the Authority in the
notice's language and its footer counts the notice's own pages ("Aviso de tasación ·
Propiedad … · Página 1 de 2"), so each notice can be folded into its envelope as is. The
caller (`roll.notices`) words the notices (the layer words nothing of its own but
what `Layout` already does, in each notice's language).
"""

from __future__ import annotations

from collections.abc import Sequence

from portal import clock
from portal.i18n import use_language
from portal.pdf.authority import issuer
from portal.pdf.layout import Layout
from portal.pdf.model import Document

LANG_TAGS = {"es": "es-PR", "en": "en-US"}


def render_notice(doc: Document, lang: str) -> bytes:
    """One notice, in `lang`."""
    from portal.pdf import render
    return render(doc, lang)


class _PrintLayout(Layout):
    """The first notice laid out as any document; the others after it, each from a new page
    and in its own language; the page furniture drawn per notice."""

    def __init__(self, docs: Sequence[tuple[Document, str]]) -> None:
        first, lang = docs[0]
        super().__init__(first, lang)
        self.rest = list(docs[1:])
        self.spans: list[tuple[int, Document, str]] = [(1, first, lang)]  # first page, doc
        self._in_rest = False
        # The header band is as tall as the tallest of the Authority's names and contacts in
        # the file's languages, so no notice's first line is drawn under its header.
        self.band_over([x for _doc, x in docs], first.on or clock.today(), lang)

    def footnotes(self) -> None:
        super().footnotes()
        if self._in_rest:
            return
        self._in_rest = True
        for doc, lang in self.rest:
            with use_language(lang):
                self.doc, self.refs = doc, {}
                self.new_page()
                self.spans.append((self.pdf.page, doc, lang))
                with self.pdf.element("Sect", lang=LANG_TAGS[lang]):
                    self.blocks(doc)
                    super().footnotes()
        self.doc = self.spans[0][1]

    def page_furniture(self, first: int = 1, last: int | None = None) -> None:
        """Each notice's pages with its own Authority header (in its language) and page
        count (`first`, `last`: as `Layout`'s, unused: the file is drawn whole)."""
        pdf = self.pdf
        last = pdf.page
        ends = [start - 1 for start, _, _ in self.spans[1:]] + [last]
        first_doc, first_lang = self.doc, self.lang
        for (start, doc, lang), end in zip(self.spans, ends):
            with use_language(lang):
                self.doc, self.lang = doc, lang
                self.issuer = issuer(doc.on or clock.today(), lang)
                super().page_furniture(start, end)
        self.doc, self.lang = first_doc, first_lang
        pdf.page = last


def render_print_file(docs: Sequence[tuple[Document, str]]) -> bytes:
    """The notices `docs` (each a document and its language) in one PDF, in order."""
    if not docs:
        raise ValueError("a print file holds at least one notice")
    with use_language(docs[0][1]):
        return _PrintLayout(docs).render()
