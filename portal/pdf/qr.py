"""QR codes on the documents: the payoff certificate's verification address, and the guest
pay link printed on every assessment notice and statement of account.

segno (a maintained pure-Python QR encoder, already the portal's for the two-factor
enrolment) makes the code; `draw` places it at the layout's cursor as filled squares inside a
tagged /Figure whose /Alt text says what it opens, with a caption beside it. The caller words
the caption and the alternative text (this layer words nothing of its own).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import segno

QUIET = 4  # modules of white around the code (ISO/IEC 18004)
SIDE = 32.0  # mm: about 1.3 in, read by any phone at arm's length


@dataclass(frozen=True)
class Code:
    """What the QR code carries (`data`: an address), what a screen reader says for it
    (`alt`) and the caption printed beside it (its first part in bold, as a title; then
    paragraphs)."""

    data: str
    alt: str
    caption: tuple[str, ...]


@lru_cache(maxsize=256)
def modules(data: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code of `data` as rows of dark (True) and light modules, no quiet zone
    (error correction M: 15 % of the code may be smudged). Encoded once per process for
    each address (segno's encoding and choice of mask are most of a code's cost)."""
    qr = segno.make(data, error="m", micro=False)
    return tuple(tuple(bool(m) for m in row) for row in qr.matrix)


#: The width of the column the code and its caption take beside a table (`draw_column`).
COLUMN = 58.0


def _caption(layout: Any, code: Code, width: float) -> tuple[list[str], list[str]]:
    title, *rest = code.caption or ("",)
    return (layout.wrap(title, width, "B", 10),
            [line for part in rest for line in layout.wrap(part, width, "", 9.5)])


def _squares(layout: Any, code: Code, x: float, top: float) -> None:
    """The code's dark modules as filled squares, its top-left corner (quiet zone included)
    at (`x`, `top`), inside a tagged /Figure with its alternative text."""
    pdf = layout.pdf
    with pdf.element("Figure", alt=code.alt):
        with pdf.marked():
            pdf.set_fill_color(0, 0, 0)
            pdf._out(_fills(code.data, x, top, pdf.k, pdf.h))  # noqa: SLF001


@lru_cache(maxsize=64)
def _fills(data: str, x: float, top: float, k: float, page_h: float) -> str:
    """The content-stream operators that fill the code's dark modules, each run of dark
    modules in a row one rectangle: what fpdf2's `rect(..., style="F")` writes for each,
    written at once (the same code at the same place is the same text)."""
    rows = modules(data)
    unit = SIDE / (len(rows) + 2 * QUIET)
    ops = []
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
            left, w = x + (QUIET + start) * unit, (c - start) * unit
            ops.append(f"{left * k:.2f} {(page_h - y) * k:.2f} {w * k:.2f} {-unit * k:.2f} re f")
    return "\n".join(ops)


def height(layout: Any, code: Code) -> float:
    """How tall `draw` draws the code with its caption beside it, across the page."""
    heading, caption = _caption(layout, code, layout.width - SIDE - 4)
    return max(SIDE, len(heading) * layout.leading(10) + len(caption) * layout.leading(9.5))


def draw(layout: Any, code: Code) -> None:
    """The code and its caption at the cursor of `layout` (a `layout.Layout`), on a new page
    when they do not fit whole; the cursor ends below both."""
    pdf = layout.pdf
    margin = pdf.l_margin
    unit = SIDE / (len(modules(code.data)) + 2 * QUIET)
    text_x = margin + SIDE + 4
    heading, caption = _caption(layout, code, layout.width - SIDE - 4)
    height = max(SIDE, len(heading) * layout.leading(10) + len(caption) * layout.leading(9.5))
    layout.need(height + 4)
    top = pdf.y + 2
    _squares(layout, code, margin, top)
    pdf.y = top + QUIET * unit
    with pdf.element("P"):
        layout.lines(text_x, heading, "B", 10)
    with pdf.element("P"):
        layout.lines(text_x, caption, "", 9.5)
    pdf.y = top + height + 2


def column_height(layout: Any, code: Code, width: float = COLUMN) -> float:
    """How tall `draw_column` draws the code with its caption under it, `width` wide."""
    heading, caption = _caption(layout, code, width)
    return SIDE + 1 + len(heading) * layout.leading(10) + len(caption) * layout.leading(9.5)


def draw_column(layout: Any, code: Code, x: float, top: float, width: float = COLUMN) -> float:
    """The code at (`x`, `top`) with its caption under it, `width` wide (a column beside a
    table: the caller has made room). Returns the column's bottom."""
    pdf = layout.pdf
    heading, caption = _caption(layout, code, width)
    _squares(layout, code, x, top)
    pdf.y = top + SIDE + 1
    with pdf.element("P"):
        layout.lines(x, heading, "B", 10)
    with pdf.element("P"):
        layout.lines(x, caption, "", 9.5)
    return pdf.y
