"""A document with a verification QR code: the payoff certificate (R-A19).

The same layout as every document (`layout.Layout`), with one block more before the
footnotes: the QR code of the verification address (segno, a maintained pure-Python QR
encoder, already the portal's for the two-factor enrolment), drawn as filled squares inside a
tagged /Figure whose /Alt text gives the address, with a caption beside it. The caller words
the caption and the alternative text (the layer words nothing of its own).
"""

from __future__ import annotations

from dataclasses import dataclass

import segno

from portal.i18n import use_language
from portal.pdf.layout import MARGIN, Layout
from portal.pdf.model import Document

QUIET = 4  # modules of white around the code (ISO/IEC 18004)
SIDE = 32.0  # mm: about 1.3 in, read by any phone at arm's length


@dataclass(frozen=True)
class Code:
    """What the QR code carries (`data`: the verification address with its code), what a
    screen reader says for it (`alt`) and the caption printed beside it (its first part in
    bold, as a title; then paragraphs)."""

    data: str
    alt: str
    caption: tuple[str, ...]


def modules(data: str) -> list[list[bool]]:
    """The QR code of `data` as rows of dark (True) and light modules, no quiet zone
    (error correction M: 15 % of the code may be smudged)."""
    qr = segno.make(data, error="m", micro=False)
    return [[bool(m) for m in row] for row in qr.matrix]


class _CodeLayout(Layout):
    def __init__(self, doc: Document, lang: str, code: Code) -> None:
        super().__init__(doc, lang)
        self.code = code

    def footnotes(self) -> None:
        self.qr_block()
        super().footnotes()

    def qr_block(self) -> None:
        pdf = self.pdf
        rows = modules(self.code.data)
        unit = SIDE / (len(rows) + 2 * QUIET)
        text_x = MARGIN + SIDE + 4
        text_w = self.width - SIDE - 4
        title, *rest = self.code.caption or ("",)
        heading = self.wrap(title, text_w, "B", 10)
        caption = [line for part in rest for line in self.wrap(part, text_w, "", 9.5)]
        height = max(SIDE, len(heading) * self.leading(10) + len(caption) * self.leading(9.5))
        self.need(height + 4)
        top = pdf.y + 2
        with pdf.element("Figure", alt=self.code.alt):
            with pdf.marked():
                pdf.set_fill_color(0, 0, 0)
                for r, row in enumerate(rows):
                    y = top + (QUIET + r) * unit
                    c = 0
                    while c < len(row):
                        if not row[c]:
                            c += 1
                            continue
                        start = c
                        while c < len(row) and row[c]:
                            c += 1
                        pdf.rect(MARGIN + (QUIET + start) * unit, y, (c - start) * unit, unit,
                                 style="F")
        pdf.y = top + QUIET * unit
        with pdf.element("P"):
            self.lines(text_x, heading, "B", 10)
        with pdf.element("P"):
            self.lines(text_x, caption, "", 9.5)
        pdf.y = top + height + 2


def render_with_code(doc: Document, lang: str, code: Code) -> bytes:
    """The PDF of `doc` in `lang`, with the QR code block before the footnotes."""
    with use_language(lang) as lang:
        return _CodeLayout(doc, lang, code).render()
