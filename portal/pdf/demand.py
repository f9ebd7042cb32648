"""Documents in sequence in one tagged PDF: the demand for payment (R-A12, R-A17) in the
addressee's language first and then in the other (`render_bilingual`), and the court packet
of a Rule 60 claim (R-A13: the statement, the demand, the receipt of mailing; `render_all`).

The same layout as every document (`layout.Layout`): the first version is laid out as any
document, with its footnotes; the second starts on a new page, inside a /Sect whose /Lang is
its language (so a screen reader switches voice), with its own title, facts, paragraphs,
amounts and footnotes. The caller words both versions (the layer words nothing of its own but
what `Layout` already does, in each version's language).
"""

from __future__ import annotations

from portal.i18n import use_language
from portal.pdf.layout import Layout
from portal.pdf.model import Document

LANG_TAGS = {"es": "es-PR", "en": "en-US"}


class _SequenceLayout(Layout):
    def __init__(self, first: Document, lang: str, rest: list[tuple[Document, str]]) -> None:
        super().__init__(first, lang)
        self.rest = rest
        self._in_rest = False

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
                with self.pdf.element("Sect", lang=LANG_TAGS[lang]):
                    self.blocks(doc)
                    super().footnotes()
        self.doc = first


def render_bilingual(first: Document, lang: str, second: Document, second_lang: str) -> bytes:
    """One PDF: `first` in `lang` (the document's /Lang), then `second` in `second_lang`."""
    return render_all(first, lang, [(second, second_lang)])


def render_all(first: Document, lang: str, rest: list[tuple[Document, str]]) -> bytes:
    """One PDF: `first` in `lang`, then each of `rest` (a document and its language) from a
    new page, each with its own footnotes."""
    with use_language(lang) as lang:
        return _SequenceLayout(first, lang, rest).render()
