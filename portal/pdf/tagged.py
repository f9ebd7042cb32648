"""A tagged PDF on fpdf2: a structure tree for screen readers, marked content, artifacts.

fpdf2 (2.8) builds a structure tree only for images' alternate text and the outline: its
`StructureTreeBuilder` is flat (every element a child of /Document, each one /Figure) and
internal. This module replaces the document's builder with a nested one (Document > H1, P,
Table > TR > TH | TD, L > LI, Note ...), marks every run of text as the marked content of
its element (`/P <</MCID n>> BDC ... EMC`, one MCID per run and page, linked back through
the parent tree), and marks what is not content (page headers and footers, rules) as
/Artifact. It uses three fpdf2 internals, all checked by `tests/documents/`: the builder's
interface (`struct_builder`: `empty`, iteration, `doc_struct_elem.k`), a page's
`struct_parents` and `FPDF._out`.

Fonts are read once per process: the TrueType file is parsed once (metrics, character
widths) and each document gets a shallow copy with its own glyph subset and a fresh
fontTools object from the bytes in memory (fpdf2 subsets that object in place on output).
"""

from __future__ import annotations

import copy
import io
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from fontTools import ttLib
from fpdf import FPDF
from fpdf.fonts import SubsetMap, TTFFont
from fpdf.syntax import PDFArray, PDFObject, PDFString


class PageRef:
    """A page as a reference, resolved when the file is written (fpdf2 numbers the pages'
    objects only then)."""

    __slots__ = ("pdf", "number")

    def __init__(self, pdf: FPDF, number: int) -> None:
        self.pdf, self.number = pdf, number

    def serialize(self, _security_handler: object = None, _obj_id: object = None) -> str:
        return self.pdf.pages[self.number].ref


class MarkedRef:
    """A marked-content reference: the run `mcid` on page `page` belongs to an element."""

    __slots__ = ("page", "mcid")

    def __init__(self, page: PageRef, mcid: int) -> None:
        self.page, self.mcid = page, mcid

    def serialize(self, _security_handler: object = None, _obj_id: object = None) -> str:
        return f"<</Type /MCR /Pg {self.page.serialize()} /MCID {self.mcid}>>"


class Element(PDFObject):
    """A structure element (PDF 32000-1, 14.7.2). Attribute names become PDF keys."""

    def __init__(self, role: str, parent: PDFObject, page: PageRef | None,
                 lang: str | None = None, attributes: str | None = None,
                 alt: str | None = None) -> None:
        super().__init__()
        self.type = "/StructElem"
        self.s = f"/{role}"
        self.p = parent
        self.k = PDFArray()
        self.pg = page
        self.lang = None if lang is None else PDFString(lang)
        self.a = attributes  # e.g. "<</O /Table /Scope /Column>>"
        self.alt = None if alt is None else PDFString(alt)
        self._page = page.number if page else 1
        self._children: list[Element] = []

    def page_number(self) -> int:  # fpdf2 sets /Pg of the root's children from this
        return self._page

    def descendants(self) -> Iterator[Element]:
        for child in self._children:
            yield child
            yield from child.descendants()


class ParentTree(PDFObject):
    """The number tree from each page's StructParents key to the elements of its MCIDs."""

    def __init__(self) -> None:
        super().__init__()
        self.nums: dict[int, list[Element]] = {}

    def serialize(self, obj_dict: object = None, _security_handler: object = None) -> str:
        entries = "\n".join(f"{key} [{' '.join(e.ref for e in elems)}]"
                            for key, elems in sorted(self.nums.items()))
        return super().serialize({"/Nums": f"[{entries}]"})


class StructTreeRoot(PDFObject):
    def __init__(self) -> None:
        super().__init__()
        self.type = "/StructTreeRoot"
        self.parent_tree = ParentTree()
        self.k = PDFArray()


class StructureTree:
    """Stands in for fpdf2's `StructureTreeBuilder`: the same interface for its output code."""

    def __init__(self) -> None:
        self.struct_tree_root = StructTreeRoot()
        self.doc_struct_elem = Element("Document", self.struct_tree_root, None)
        self.struct_tree_root.k.append(self.doc_struct_elem)

    def empty(self) -> bool:
        return not self.doc_struct_elem.k

    def __iter__(self) -> Iterator[PDFObject]:
        yield self.struct_tree_root
        yield self.doc_struct_elem
        yield self.struct_tree_root.parent_tree
        yield from self.doc_struct_elem.descendants()


class TaggedPDF(FPDF):
    """An FPDF whose text is tagged: open elements with `element`, draw inside `marked`."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.struct_builder = StructureTree()  # type: ignore[assignment]
        self._open: list[Element] = [self.struct_builder.doc_struct_elem]
        self._page_keys: dict[int, int] = {}

    # -- structure ---------------------------------------------------------------------
    def new_element(self, role: str, lang: str | None = None, attributes: str | None = None,
                    alt: str | None = None) -> Element:
        """A new element, the next child of the innermost open one (reading order)."""
        parent = self._open[-1]
        elem = Element(role, parent, PageRef(self, self.page), lang, attributes, alt)
        parent.k.append(elem)
        parent._children.append(elem)
        return elem

    @contextmanager
    def inside(self, elem: Element) -> Iterator[Element]:
        """Content drawn and elements opened inside belong to `elem`."""
        self._open.append(elem)
        try:
            yield elem
        finally:
            self._open.pop()

    @contextmanager
    def element(self, role: str, lang: str | None = None, attributes: str | None = None,
                alt: str | None = None) -> Iterator[Element]:
        with self.inside(self.new_element(role, lang, attributes, alt)) as elem:
            yield elem

    @contextmanager
    def marked(self) -> Iterator[None]:
        """What is drawn inside is content of the innermost open element, on this page."""
        elem = self._open[-1]
        key = self._page_keys.get(self.page)
        if key is None:
            key = self._page_keys[self.page] = len(self._page_keys)
            self.pages[self.page].struct_parents = key
            self.struct_builder.struct_tree_root.parent_tree.nums[key] = []
        owners = self.struct_builder.struct_tree_root.parent_tree.nums[key]
        mcid = len(owners)
        owners.append(elem)
        elem.k.append(MarkedRef(PageRef(self, self.page), mcid))
        self._out(f"{elem.s} <</MCID {mcid}>> BDC")
        yield
        self._out("EMC")

    @contextmanager
    def artifact(self, kind: str | None = None) -> Iterator[None]:
        """What is drawn inside is not content (a page's header, footer, a rule)."""
        if kind:
            self._out(f"/Artifact <</Type /Pagination /Subtype /{kind}>> BDC")
        else:
            self._out("/Artifact BMC")
        yield
        self._out("EMC")


# -- fonts, read once per process ----------------------------------------------------------
_FONTS: dict[Path, tuple[TTFFont, bytes]] = {}
_FONTS_LOCK = threading.Lock()


def add_cached_font(pdf: FPDF, family: str, style: str, path: Path) -> TTFFont:
    """`pdf.add_font(family, style, path)`, with the file parsed once per process."""
    with _FONTS_LOCK:
        cached = _FONTS.get(path)
        if cached is None:
            data = path.read_bytes()
            loader = FPDF()
            loader.add_font("f", "", str(path))
            cached = _FONTS[path] = (loader.fonts["f"], data)
    template, data = cached
    font = copy.copy(template)
    fontkey = f"{family.lower()}{style.upper()}"
    font.i = len(pdf.fonts) + 1
    font.fontkey = fontkey
    font.name = template.name
    font.ttfont = ttLib.TTFont(io.BytesIO(data), recalcTimestamp=False, lazy=True)
    font.desc = copy.copy(template.desc)  # a PDF object: numbered anew in each file
    font._hbfont = None
    font.missing_glyphs = []
    font.subset = SubsetMap(font)
    font.biggest_size_pt = 0
    pdf.fonts[fontkey] = font
    return font
