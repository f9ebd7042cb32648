"""Documents in sequence in one tagged PDF: the demand for payment (R-A12, R-A17) in the
addressee's language first and then in the other (`render_bilingual`), and the court packet
of a Rule 60 claim (R-A13: the statement, the demand, the receipt of mailing; `render_all`).

The same layout as every document (`layout.Layout`): the first version is laid out as any
document, with its footnotes; the second starts on a new page, inside a /Sect whose /Lang is
its language (so a screen reader switches voice), with its own title, facts, paragraphs,
amounts and footnotes; the header and footer of each page are in the language of the
version on it (its Authority's name and hours, its title), the pages numbered across the
file. The caller words both versions (the layer words nothing of its own but
what `Layout` already does, in each version's language).
"""

from __future__ import annotations

from portal import clock
from portal.i18n import use_language
from portal.pdf.authority import issuer
from portal.pdf.layout import Layout
from portal.pdf.model import Document

LANG_TAGS = {"es": "es-PR", "en": "en-US"}


class _SequenceLayout(Layout):
    def __init__(self, first: Document, lang: str, rest: list[tuple[Document, str]]) -> None:
        super().__init__(first, lang)
        self.rest = rest
        self._in_rest = False
        self.spans: list[tuple[int, Document, str]] = [(1, first, lang)]  # first page, doc
        # The header band as tall as the tallest of the Authority's headers in the file's
        # languages, so no version's first line is drawn under its header.
        self.band_over([lang] + [x for _doc, x in rest], first.on or clock.today(), lang)

    def footnotes(self) -> None:
        super().footnotes()
        if self._in_rest:
            return
        self._in_rest = True
        first = self.doc
        for doc, lang in self.rest:
            with use_language(lang):
                self.doc, self.refs = doc, {}
                self.new_page()
                self.spans.append((self.pdf.page, doc, lang))
                with self.pdf.element("Sect", lang=LANG_TAGS[lang]):
                    self.blocks(doc)
                    super().footnotes()
        self.doc = first

    def page_furniture(self, first: int = 1, last: int | None = None) -> None:
        """Each page's header and footer in the language of the version on it (its
        Authority's name and hours, its title), numbered across the file (`first`, `last`:
        as `Layout`'s, unused: the file is drawn whole)."""
        pdf = self.pdf
        end = pdf.page
        stops = [start - 1 for start, _doc, _lang in self.spans[1:]] + [end]
        kept = self.doc, self.lang, self.issuer
        for (start, doc, lang), stop in zip(self.spans, stops):
            with use_language(lang):
                self.doc, self.lang = doc, lang
                self.issuer = issuer(doc.on or clock.today(), lang)
                for number in range(start, stop + 1):
                    self.furnish(number, number, end)
        self.doc, self.lang, self.issuer = kept
        pdf.page = end


def render_bilingual(first: Document, lang: str, second: Document, second_lang: str) -> bytes:
    """One PDF: `first` in `lang` (the document's /Lang), then `second` in `second_lang`."""
    return render_all(first, lang, [(second, second_lang)])


def render_all(first: Document, lang: str, rest: list[tuple[Document, str]]) -> bytes:
    """One PDF: `first` in `lang`, then each of `rest` (a document and its language) from a
    new page, each with its own footnotes."""
    with use_language(lang) as lang:
        return _SequenceLayout(first, lang, rest).render()
