"""The statement of account (estado de cuenta) and receipts as PDFs, in the reader's language
(fpdf2).

The text comes from the same catalogs as the pages (the caller words the document in the
reader's language; the page footer is worded here in `lang`); no request is needed. The font
is a Unicode TrueType font: Public Sans from the USWDS package the setup installs
(portal/static/vendor/), or DejaVu Sans where Debian's fonts-dejavu-core is present.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from fpdf import FPDF
from fpdf.enums import XPos, YPos

from portal.i18n import gettext as _
from portal.i18n import use_language

HERE = Path(__file__).resolve().parent
FONT_CANDIDATES = (
    (HERE / "static/vendor/uswds/fonts/public-sans/PublicSans-Regular.ttf",
     HERE / "static/vendor/uswds/fonts/public-sans/PublicSans-Bold.ttf"),
    (Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
     Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")),
)


class FontMissing(RuntimeError):
    pass


def font_files() -> tuple[Path, Path]:
    for regular, bold in FONT_CANDIDATES:
        if regular.exists() and bold.exists():
            return regular, bold
    raise FontMissing("no Unicode TTF font: run `make setup` (npm ci installs Public Sans)")


@dataclass
class Row:
    """A label, its formatted amount, and the explanation lines behind it."""

    label: str
    amount: str
    why: list[str] = field(default_factory=list)
    strong: bool = False


@dataclass
class Document:
    """Everything the PDF prints, already translated and formatted by the caller."""

    title: str
    subtitle: str
    facts: list[tuple[str, str]]  # (label, value): parcel, address, fiscal year, as of...
    rows: list[Row]
    table_head: Sequence[str]
    table: list[Sequence[str]]
    notes: list[str] = field(default_factory=list)
    footer: str = ""


def _clean(text: str) -> str:
    # Babel puts narrow no-break spaces in some formats; the fonts may lack that glyph.
    return text.replace("\u202f", "\u00a0")


class _PDF(FPDF):
    footer_text = ""

    def footer(self) -> None:
        self.set_y(-14)
        self.set_font("body", size=8)
        self.set_text_color(90, 90, 90)
        page = _("Page %(num)d of %(total)s", num=self.page_no(), total="{nb}")
        self.cell(0, 5, _clean(f"{self.footer_text}    {page}"), align="C")


def render(doc: Document, lang: str) -> bytes:
    """The PDF of `doc`, in `lang` ('es' or 'en')."""
    with use_language(lang) as lang:
        return _render(doc, lang)


def _render(doc: Document, lang: str) -> bytes:
    regular, bold = font_files()
    pdf = _PDF(format="Letter", unit="mm")
    pdf.footer_text = doc.footer
    pdf.set_lang("es-PR" if lang == "es" else "en-US")
    pdf.set_title(_clean(doc.title))
    pdf.set_creator("Portal")
    pdf.add_font("body", "", str(regular))
    pdf.add_font("body", "B", str(bold))
    pdf.set_auto_page_break(True, margin=18)
    pdf.alias_nb_pages()
    pdf.add_page()
    width = pdf.epw

    pdf.set_font("body", "B", 16)
    pdf.multi_cell(width, 8, _clean(doc.title), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font("body", "", 10)
    pdf.multi_cell(width, 5, _clean(doc.subtitle), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(3)
    for label, value in doc.facts:
        pdf.set_font("body", "B", 10)
        pdf.cell(48, 6, _clean(label))
        pdf.set_font("body", "", 10)
        pdf.multi_cell(width - 48, 6, _clean(value), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(3)

    for row in doc.rows:
        pdf.set_font("body", "B" if row.strong else "", 11)
        pdf.cell(width - 40, 7, _clean(row.label))
        pdf.cell(40, 7, _clean(row.amount), align="R", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.set_font("body", "", 8)
        pdf.set_text_color(70, 70, 70)
        for line in row.why:
            pdf.set_x(pdf.l_margin + 4)
            pdf.multi_cell(width - 4, 4, _clean(line), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.set_text_color(0, 0, 0)
        pdf.ln(1)

    if doc.table:
        pdf.ln(3)
        pdf.set_font("body", "", 9)
        with pdf.table(col_widths=_widths(len(doc.table_head)), text_align="LEFT",
                       line_height=5.5) as table:
            head = table.row()
            for h in doc.table_head:
                head.cell(_clean(h))
            for values in doc.table:
                r = table.row()
                for v in values:
                    r.cell(_clean(v))

    if doc.notes:
        pdf.ln(4)
        pdf.set_font("body", "", 8)
        for note in doc.notes:
            pdf.multi_cell(width, 4, _clean(note), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    return bytes(pdf.output())


def _widths(n: int) -> Iterable[int]:
    if n == 7:
        return (8, 20, 20, 16, 18, 14, 14)
    return tuple([1] * n)
