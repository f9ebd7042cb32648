"""The layout: measured, wrapped text on Letter pages that cannot overlap, tagged.

Every line is measured with the font's own widths and wrapped to its column before it is
drawn; the cursor moves down by each line's height, so nothing is drawn over anything. A
block is placed only where it fits whole, else on a new page: an amount row stays with its
label (its explanation may run on, at least two lines a page), a table row is never split
and the table's header is drawn again at the top of each page it runs onto, a heading
stays with what follows it, a paragraph leaves no single line at a page's foot or top.
Each page names the Authority (name, address, contact) at its top and the document with
"page N of M" at its foot (both artifacts); the rules behind the figures are numbered
footnotes ("[2]") in plain words with the statute's clause.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from xml.sax.saxutils import escape

from fpdf.prefs import ViewerPreferences

import portal.pdf.qr as qr
from portal import clock
from portal.i18n import gettext as _
from portal.i18n import use_language
from portal.pdf.authority import Issuer, issuer
from portal.pdf.fonts import FONT, font_files
from portal.pdf.model import Document, Ref, Row, Table, Why
from portal.pdf.tagged import Element, TaggedPDF, add_cached_font

PT = 25.4 / 72  # one point in mm
MARGIN = 18.0
TOP = 12.0
BOTTOM = 16.0  # the footer's band
GREY = (70, 70, 70)
_WIDTHS: dict[object, dict[str, float]] = {}  # a word's width in font units, per font file


def _clean(text: str) -> str:
    # Babel puts narrow no-break spaces in some formats; the fonts may lack that glyph.
    return text.replace("\u202f", "\u00a0")


class Layout:
    def __init__(self, doc: Document, lang: str) -> None:
        self.doc, self.lang = doc, lang
        pdf = self.pdf = TaggedPDF(format="Letter", unit="mm")
        regular, bold = font_files()
        self.fonts = {"": add_cached_font(pdf, FONT, "", regular),
                      "B": add_cached_font(pdf, FONT, "B", bold)}
        pdf.set_auto_page_break(False)
        pdf.set_margins(MARGIN, TOP, MARGIN)
        self.width = pdf.w - 2 * MARGIN
        self.bottom = pdf.h - BOTTOM - 4
        self.style, self.size = "", 10.0
        self.refs: dict[Ref, int] = {}
        self.head_band = 0.0
        self.repeat: Table | None = None  # the table whose header each new page repeats
        self.issuer: Issuer = issuer(doc.on or clock.today(), lang)
        self.issuer_elements: tuple[Element, Element] | None = None
        self._heads: dict[tuple[Issuer, str], tuple[list[str], list[str]]] = {}
        #: The space between blocks and table rows is halved when the document would
        #: otherwise leave a near-empty last page (`render_document`).
        self.tight = False
        self.last_used = 0.0  # how much of the last page the content fills (0 to 1)
        self.color: tuple[int, int, int] | None = None  # the text colour last set

    def gap(self, space: float) -> float:
        return space / 2 if self.tight else space

    # -- measuring and wrapping -----------------------------------------------------------
    def font(self, style: str, size: float) -> None:
        if (style, size) != (self.style, self.size) or not self.pdf.font_family:
            self.pdf.set_font(FONT, style, size)
            self.style, self.size = style, size

    def measure(self, text: str, style: str, size: float) -> float:
        widths = _WIDTHS.setdefault(self.fonts[style].ttffile, {})
        units = widths.get(text)
        if units is None:
            cw = self.fonts[style].cw
            units = sum(cw[ord(c)] for c in text)
            if len(widths) > 50_000:  # words of the documents: a bound, not an expectation
                widths.clear()
            widths[text] = units
        return units * size / 1000 * PT

    def wrap(self, text: str, width: float, style: str, size: float) -> list[str]:
        """`text` in lines no wider than `width` (at spaces; a word wider than the column is
        cut where it must be)."""
        lines: list[str] = []
        space = self.measure(" ", style, size)
        for para in _clean(text).split("\n"):
            line, used = "", 0.0
            for word in para.split(" "):
                w = self.measure(word, style, size)
                if line and used + space + w <= width:
                    line, used = f"{line} {word}", used + space + w
                    continue
                if line:
                    lines.append(line + " ")
                while w > width:  # a word longer than the column: cut it (an address after
                    cut = len(word)  # a "/" where one fits)
                    while cut > 1 and self.measure(word[:cut], style, size) > width:
                        cut -= 1
                    slash = word.rfind("/", 0, cut) + 1
                    cut = slash if slash > cut // 2 else cut
                    lines.append(word[:cut])
                    word = word[cut:]
                    w = self.measure(word, style, size)
                line, used = word, w
            lines.append(line)
        return lines

    @staticmethod
    def leading(size: float) -> float:
        return size * PT * 1.32

    # -- drawing --------------------------------------------------------------------------
    def text(self, x: float, top: float, line: str, style: str, size: float,
             align: str = "L", width: float = 0.0, color: tuple[int, int, int] = (0, 0, 0)
             ) -> None:
        """One line whose box starts at `top` (its baseline is placed from the font size)."""
        if not line:
            return
        self.font(style, size)
        if align == "R":
            x = x + width - self.measure(line.rstrip(" "), style, size)
        if color != self.color:  # fpdf2 converts a colour each time it is set
            self.pdf.set_text_color(*color)
            self.color = color
        self.pdf.text(x, top + size * PT * 0.95, line)

    def lines(self, x: float, lines: Sequence[str], style: str, size: float, align: str = "L",
              width: float = 0.0, color: tuple[int, int, int] = (0, 0, 0)) -> None:
        """Lines from the cursor down, as content of the open element, breaking pages
        between lines where they must (never leaving one line alone at either side)."""
        lead = self.leading(size)
        i = 0
        while i < len(lines):
            rest = len(lines) - i
            room = int((self.bottom - self.pdf.y) // lead)
            take = rest
            if rest > room:
                take = min(room, rest - 2)  # two lines at least go on to the next page
                if take < 2 and self.pdf.y > self.head_band + lead:
                    self.new_page()
                    continue
                take = max(take, 1)
            with self.pdf.marked():
                for line in lines[i:i + take]:
                    self.text(x, self.pdf.y, line, style, size, align, width, color)
                    self.pdf.y += lead
            i += take

    def rule(self, y: float, grey: int = 150, width: float = 0.2) -> None:
        with self.pdf.artifact():
            self.pdf.set_draw_color(grey, grey, grey)
            self.pdf.set_line_width(width)
            self.pdf.line(MARGIN, y, MARGIN + self.width, y)

    def fits(self, height: float) -> bool:
        return self.pdf.y + height <= self.bottom

    def need(self, height: float) -> None:
        if not self.fits(height):
            self.new_page()

    # -- pages ----------------------------------------------------------------------------
    def header_lines(self) -> tuple[list[str], list[str]]:
        i = self.issuer
        contact = [*i.address, _("Tel. %(phone)s (%(hours)s)", phone=i.phone, hours=i.hours),
                   i.email, i.web]
        if i.illustrative:
            contact.append(_("illustrative contact details (demo)"))
        return (self.wrap(i.name, self.width, "B", 9),
                self.wrap(" · ".join(contact), self.width, "", 7.5))

    def _band(self) -> float:
        name, contact = self.header_lines()
        return TOP + len(name) * self.leading(9) + len(contact) * self.leading(7.5) + 5

    def band_over(self, languages: Sequence[str], on: Any, lang: str) -> None:
        """The header band as tall as the tallest of the Authority's headers in `languages`,
        so no version's first line is drawn under its header; the issuer left in `lang`."""
        bands = []
        for other in dict.fromkeys(languages):
            with use_language(other):
                self.issuer = issuer(on, other)
                bands.append(self._band())
        self.head_band = max(bands)
        self.issuer = issuer(on, lang)

    def new_page(self) -> None:
        pdf = self.pdf
        pdf.add_page()
        pdf.current_font_is_set_on_page = False
        if not self.head_band:
            self.head_band = self._band()
        pdf.y = self.head_band
        if self.repeat is not None:
            self.table_head(self.repeat, repeated=True)

    def page_furniture(self, first: int = 1, last: int | None = None) -> None:
        """The Authority at the top of each page and "page N of M" at its foot (artifacts),
        drawn once every page exists, so the total is known. `first` to `last`: only those
        pages, numbered from 1 (one document of several in a file)."""
        pdf = self.pdf
        end = pdf.page
        last = end if last is None else last
        for number in range(first, last + 1):
            self.furnish(number, number - first + 1, last - first + 1)
        pdf.page = end

    def furnish(self, number: int, shown: int, total: int) -> None:
        """Page `number`'s header (the Authority) and footer (the document, "page `shown` of
        `total`"), in the current language and document."""
        pdf = self.pdf
        key = (self.issuer, self.lang)
        if key not in self._heads:
            self._heads[key] = self.header_lines()
        name, contact = self._heads[key]
        pdf.page = number
        pdf.current_font_is_set_on_page = False
        y = TOP
        with self.letterhead(number, 0):
            for line in name:
                self.text(MARGIN, y, line, "B", 9)
                y += self.leading(9)
        with self.letterhead(number, 1):
            for line in contact:
                self.text(MARGIN, y, line, "", 7.5, color=GREY)
                y += self.leading(7.5)
        self.issuer_elements = None if number == 1 else self.issuer_elements
        self.rule(self.head_band - 2.5, grey=120, width=0.3)
        with pdf.artifact("Footer"):
            page = _("Page %(num)d of %(total)s", num=shown, total=total)
            foot = " · ".join(x for x in (self.doc.title, self.doc.reference, page) if x)
            y = pdf.h - BOTTOM
            for line in self.wrap(foot, self.width, "", 8):
                self.text(MARGIN, y, line, "", 8, color=GREY)
                y += self.leading(8)

    @contextmanager
    def letterhead(self, number: int, part: int) -> Iterator[None]:
        """The Authority's name (`part` 0) or contact (1) on page `number`: once in the file
        as content (the first page's, in the structure tree's first elements, so a screen
        reader says who issued the document: PDF/UA-1 7.1), an artifact on every other page."""
        if self.issuer_elements is None or number != 1:
            with self.pdf.artifact("Header"):
                yield
            return
        with self.pdf.inside(self.issuer_elements[part]), self.pdf.marked():
            yield

    # -- blocks ---------------------------------------------------------------------------
    def marker(self, ref: Ref | None) -> str:
        if ref is None:
            return ""
        number = self.refs.setdefault(ref, len(self.refs) + 1)
        return f"\u00a0[{number}]"  # kept with the last word

    def why_text(self, why: Why | str) -> str:
        if isinstance(why, Why):
            return why.text + self.marker(why.ref)
        return why

    def heading(self, text: str, role: str, size: float, after: float) -> None:
        lines = self.wrap(text, self.width, "B", size)
        self.need(len(lines) * self.leading(size) + after)
        with self.pdf.element(role):
            self.lines(MARGIN, lines, "B", size)

    def paragraph(self, text: str, size: float, color: tuple[int, int, int] = (0, 0, 0)
                  ) -> None:
        with self.pdf.element("P"):
            self.lines(MARGIN, self.wrap(text, self.width, "", size), "", size, color=color)

    def facts(self, facts: list[tuple[str, str]]) -> None:
        label_w = 50.0
        value_w = self.width - label_w - 2
        with self.pdf.element("Table"):
            for label, value in facts:
                left = self.wrap(label, label_w, "B", 9.5)
                right = self.wrap(value, value_w, "", 9.5)
                with self.pdf.element("TR"):
                    self.band([(self.pdf.new_element("TH", attributes="<</O /Table /Scope "
                                                     "/Row>>"), MARGIN, left, "B", "L", label_w),
                               (self.pdf.new_element("TD"), MARGIN + label_w + 2, right, "", "L",
                                value_w)], 9.5, 1.0)

    def band(self, cells: list[tuple[object, float, list[str], str, str, float]], size: float,
             after: float) -> None:
        """A row of cells side by side (element, x, lines, style, align, width), all at one
        size: on one page when it fits on one (else it starts a new page), cut into bands
        across pages only when it is taller than a page."""
        lead = self.leading(size)
        tallest = max(len(c[2]) for c in cells)
        if tallest * lead + after <= self.bottom - self.head_band:
            self.need(tallest * lead + after)
        done = 0
        while done < tallest:
            room = int((self.bottom - self.pdf.y) // lead)
            if room < 1:
                self.new_page()
                continue
            take = min(room, tallest - done)
            top = self.pdf.y
            for elem, x, lines, style, align, width in cells:
                part = lines[done:done + take]
                if not part:
                    continue
                with self.pdf.inside(elem), self.pdf.marked():  # type: ignore[arg-type]
                    y = top
                    for line in part:
                        self.text(x, y, line, style, size, align, width)
                        y += lead
            done += take
            self.pdf.y = top + take * lead
            if done < tallest:
                self.new_page()
        self.pdf.y += after

    def amounts(self, rows: list[Row]) -> None:
        amount_w = 40.0
        label_w = self.width - amount_w - 4
        head = Table((_("What"), _("Amount")), [], (label_w + 4, amount_w), "LR")
        pdf = self.pdf
        self.repeat = head
        with pdf.element("Table"):
            self.need(self.table_head_height(head) + 3 * self.leading(10.5))
            self.table_head(head)
            for row in rows:
                style = "B" if row.strong else ""
                label = self.wrap(row.label, label_w, style, 10.5)
                whys = [self.wrap(self.why_text(line), label_w - 4, "", 8.5) for line in row.why]
                n = sum(len(w) for w in whys)
                first = len(label) * self.leading(10.5) + min(n, 2) * self.leading(8.5)
                whole = len(label) * self.leading(10.5) + n * self.leading(8.5) + 2.5
                self.need(whole if whole <= self.bottom - self.head_band - 20 else first)
                top = pdf.y
                with pdf.element("TR"):
                    label_cell, amount_cell = pdf.new_element("TD"), pdf.new_element("TD")
                    if row.amount:  # beside the label's first line, on the row's first page
                        with pdf.inside(amount_cell):
                            self.lines(MARGIN + label_w + 4, [_clean(row.amount)], style, 10.5,
                                       align="R", width=amount_w)
                    pdf.y = top
                    with pdf.inside(label_cell):
                        with pdf.element("P"):
                            self.lines(MARGIN, label, style, 10.5)
                        for why in whys:
                            with pdf.element("P"):
                                self.lines(MARGIN + 4, why, "", 8.5, color=GREY)
                pdf.y += 1.2
                self.rule(pdf.y - 0.6, grey=210)
                pdf.y += 1.3
        self.repeat = None

    def table_head_height(self, table: Table) -> float:
        widths = self.widths(table)
        return max(len(self.wrap(h, w - 2, "B", 8.5)) for h, w in zip(table.head, widths)
                   ) * self.leading(8.5) + 2.5

    def widths(self, table: Table) -> list[float]:
        weights = list(table.widths) or [1.0] * len(table.head)
        total = sum(weights)
        return [self.width * w / total for w in weights]

    def table_head(self, table: Table, repeated: bool = False) -> None:
        widths = self.widths(table)
        align = table.align or "L" * len(widths)
        top = self.pdf.y
        height = self.table_head_height(table)
        cells = [self.wrap(h, w - 2, "B", 8.5) for h, w in zip(table.head, widths)]

        def draw() -> None:
            x = MARGIN
            for lines, w, a in zip(cells, widths, align):
                self.pdf.y = top
                if repeated:
                    for line in lines:
                        self.text(x, self.pdf.y, line, "B", 8.5, a, w - 2)
                        self.pdf.y += self.leading(8.5)
                else:
                    with self.pdf.element("TH", attributes="<</O /Table /Scope /Column>>"):
                        self.lines(x, lines, "B", 8.5, a, w - 2)
                x += w

        if repeated:
            with self.pdf.artifact("Header"):
                draw()
        else:
            with self.pdf.element("TR"):
                draw()
        self.pdf.y = top + height
        self.rule(self.pdf.y - 1.2, grey=90, width=0.3)

    def table(self, table: Table) -> None:
        widths = self.widths(table)
        align = table.align or "L" * len(widths)
        if table.heading:
            self.heading(table.heading, "H2", 11.5, self.table_head_height(table) + 8)
        self.repeat = table
        with self.pdf.element("Table"):
            self.need(self.table_head_height(table) + 2 * self.leading(9))
            self.table_head(table)
            for values in table.rows:
                cells = [self.wrap(self.why_text(v), w - 2, "", 9)
                         for v, w in zip(values, widths)]
                with self.pdf.element("TR"):
                    xs = [MARGIN + sum(widths[:i]) for i in range(len(widths))]
                    self.band([(self.pdf.new_element("TD"), x, lines, "", a, w - 2)
                               for x, lines, w, a in zip(xs, cells, widths, align)], 9,
                              self.gap(1.6))
                self.rule(self.pdf.y - 0.8, grey=215)
        self.repeat = None
        self.pdf.y += 4

    def footnotes(self) -> None:
        if not self.refs:
            return
        self.pdf.y += 2
        items = [self.wrap(_("[%(number)d] %(title)s: %(source)s (the portal's rule "
                             "%(rule)s).", number=number, title=ref.title,
                             source=ref.source, rule=ref.rule), self.width, "", 8.5)
                 for ref, number in self.refs.items()]
        whole = sum(len(x) for x in items) * self.leading(8.5)
        # a short list is kept whole with its heading: no footnote left alone on a last page
        after = whole if whole <= (self.bottom - self.head_band) / 3 else 2 * self.leading(8.5)
        self.heading(_("The rules and the law behind these amounts"), "H2", 11.5, after)
        with self.pdf.element("L"):
            for lines in items:
                with self.pdf.element("LI"):
                    with self.pdf.element("LBody"):
                        self.lines(MARGIN, lines, "", 8.5)

    # -- the document ---------------------------------------------------------------------
    def blocks(self, doc: Document) -> None:
        """A document's blocks, in order: title, subtitle, facts, body, its QR code, amounts,
        tables, notes, closing (its footnotes are laid out apart)."""
        self.heading(_clean(doc.title), "H1", 16, 12)
        if doc.subtitle:
            self.paragraph(doc.subtitle, 9.5, GREY)
        self.pdf.y += self.gap(2.5)
        if doc.answer:
            self.answer(doc)
        if doc.facts:
            self.facts([(_clean(a), _clean(b)) for a, b in doc.facts])
            self.pdf.y += self.gap(3)
        for paragraph in doc.body:
            self.need(2 * self.leading(10))
            self.paragraph(self.why_text(paragraph), 10)
            self.pdf.y += self.gap(2)
        beside = self.code_beside(doc)
        if doc.code is not None and not beside:
            qr.draw(self, doc.code)
            self.pdf.y += self.gap(2)
        if doc.rows:
            if doc.rows_heading:
                self.heading(doc.rows_heading, "H2", 11.5, 20)
            self.amounts(doc.rows)
            self.pdf.y += self.gap(3)
        for i, table in enumerate(doc.all_tables()):
            if i == 0 and beside:
                self.table_and_code(table, doc.code)
            else:
                self.table(table)
        for note in doc.notes:
            self.need(2 * self.leading(8.5))
            self.paragraph(self.why_text(note), 8.5)
            self.pdf.y += self.gap(1.2)
        if doc.closing:  # a letter's signature block, kept whole on one page
            self.pdf.y += self.gap(4)
            lines = [self.wrap(c, self.width, "", 10) for c in doc.closing]
            self.need(sum(len(x) for x in lines) * self.leading(10) + 3 * len(lines))
            for block in lines:
                with self.pdf.element("P"):
                    self.lines(MARGIN, block, "", 10)
                self.pdf.y += self.gap(3)

    # -- a QR code beside the first table ------------------------------------------------
    def _beside(self) -> float:
        """The width a table keeps beside the code's column."""
        return self.width - qr.COLUMN - 6

    def table_height(self, table: Table) -> float:
        """How tall `table` is drawn whole, its heading included (at the current width)."""
        widths = self.widths(table)
        rows = sum(max(len(self.wrap(self.why_text(v), w - 2, "", 9))
                       for v, w in zip(values, widths)) * self.leading(9) + self.gap(1.6)
                   for values in table.rows)
        heading = (len(self.wrap(table.heading, self.width, "B", 11.5)) * self.leading(11.5)
                   if table.heading else 0.0)
        return heading + self.table_head_height(table) + rows + 4

    def code_beside(self, doc: Document) -> bool:
        """Whether the QR code goes in a column beside the first table instead of across the
        page after the body: when the document asks for it (`Document.code_beside_table`),
        both fit whole on one page that way, and the narrower table grows by less than the
        code would take across the page (measured here, once, before anything is drawn), so
        a notice with its code stays on one sheet."""
        tables = doc.all_tables()
        if doc.code is None or not doc.code_beside_table or not tables or not tables[0].rows:
            return False
        room = self.bottom - self.head_band
        full = self.table_height(tables[0])
        width, self.width = self.width, self._beside()
        try:
            narrow = self.table_height(tables[0])
        finally:
            self.width = width
        code: Any = doc.code
        return (narrow - full < qr.height(self, code) + self.gap(2) + 4 and narrow <= room
                and qr.column_height(self, code) <= room)

    def table_and_code(self, table: Table, code: Any) -> None:
        """`table` in the page's left part and the code with its caption in a column on its
        right, both from the same top, on a new page unless both fit here; the cursor ends
        below the taller (tagged in reading order: the table, then the code)."""
        width, self.width = self.width, self._beside()
        try:
            tall = max(self.table_height(table), qr.column_height(self, code))
            self.need(tall)
            top = self.pdf.y
            self.table(table)
            left = self.pdf.y
        finally:
            self.width = width
        right = qr.draw_column(self, code, MARGIN + self.width - qr.COLUMN, top + 1)
        self.pdf.y = max(left, right + 4)

    def answer(self, doc: Document) -> None:
        """The answer first: its heading, then each line in large bold text, kept together
        on the first page, with a rule under it."""
        lines = [self.wrap(_clean(a), self.width, "B", 14) for a in doc.answer]
        height = sum(len(x) for x in lines) * self.leading(14) + 3 * len(lines)
        if doc.answer_heading:
            self.heading(doc.answer_heading, "H2", 11.5, height)
        for block in lines:
            with self.pdf.element("P"):
                self.lines(MARGIN, block, "B", 14)
            self.pdf.y += self.gap(3)
        self.rule(self.pdf.y - 1.5, grey=120, width=0.3)
        self.pdf.y += self.gap(3)

    def render(self) -> bytes:
        doc, pdf = self.doc, self.pdf
        title = _clean(doc.title)
        pdf.set_lang("es-PR" if self.lang == "es" else "en-US")
        pdf.set_title(title)
        pdf.set_author(self.issuer.name)
        pdf.set_subject(_clean(doc.subtitle) or title)
        pdf.set_creator(_("District Assessments Portal"))
        pdf.set_creation_date(clock.now())
        pdf.viewer_preferences = ViewerPreferences(display_doc_title=True)
        pdf.set_xmp_metadata(xmp(title, self.issuer.name, "es-PR" if self.lang == "es"
                                 else "en-US", _("District Assessments Portal")))
        self.new_page()
        # the Authority's name and contact, drawn on page 1 by `letterhead`
        self.issuer_elements = (pdf.new_element("P"), pdf.new_element("P"))
        self.blocks(doc)
        self.footnotes()
        self.last_used = (pdf.y - self.head_band) / (self.bottom - self.head_band)
        self.page_furniture()
        return bytes(pdf.output())


def xmp(title: str, author: str, lang: str, tool: str) -> str:
    """The XMP metadata: the title, author and language again (PDF/UA wants them there), and
    the PDF/UA-1 identification (docs/DOCUMENTS.md says what was checked of it)."""
    title, author, tool = escape(title), escape(author), escape(tool)
    return f"""<x:xmpmeta xmlns:x="adobe:ns:meta/">
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"
 xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{title}</rdf:li></rdf:Alt></dc:title>
<dc:creator><rdf:Seq><rdf:li>{author}</rdf:li></rdf:Seq></dc:creator>
<dc:language><rdf:Bag><rdf:li>{lang}</rdf:li></rdf:Bag></dc:language>
<dc:format>application/pdf</dc:format>
<xmp:CreatorTool>{tool}</xmp:CreatorTool>
<pdfuaid:part>1</pdfuaid:part>
</rdf:Description>
</rdf:RDF>
</x:xmpmeta>"""


#: A last page the content fills less than this much of is an orphan: the document is laid
#: out again with half the space between blocks, and that one is kept if it has fewer pages.
ORPHAN = 0.2


def render_document(doc: Document, lang: str) -> bytes:
    layout = Layout(doc, lang)
    data = layout.render()
    if layout.pdf.page > 1 and layout.last_used < ORPHAN:
        tight = Layout(doc, lang)
        tight.tight = True
        fitted = tight.render()
        if tight.pdf.page < layout.pdf.page:
            return fitted
    return data
