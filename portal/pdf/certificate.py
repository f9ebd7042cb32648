"""A document with a verification QR code: the payoff certificate (R-A19).

The same layout as every document (`layout.Layout`), with one block more before the
footnotes: the QR code of the verification address (`qr.draw`: a tagged /Figure whose /Alt
text gives the address, with a caption beside it). The caller words the caption and the
alternative text (the layer words nothing of its own).
"""

from __future__ import annotations

from portal.i18n import use_language
from portal.pdf.layout import Layout
from portal.pdf.model import Document
from portal.pdf.qr import Code, draw, modules

__all__ = ["Code", "modules", "render_with_code"]


class _CodeLayout(Layout):
    def __init__(self, doc: Document, lang: str, code: Code) -> None:
        super().__init__(doc, lang)
        self.code = code

    def footnotes(self) -> None:
        self.qr_block()
        super().footnotes()

    def qr_block(self) -> None:
        draw(self, self.code)


def render_with_code(doc: Document, lang: str, code: Code) -> bytes:
    """The PDF of `doc` in `lang`, with the QR code block before the footnotes."""
    with use_language(lang) as lang:
        return _CodeLayout(doc, lang, code).render()
