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
widths) and each document gets a shallow copy with its own glyph map. Every document's map
starts with the same repertoire (ASCII, Spanish letters, the punctuation of amounts and
statutes), so documents share one glyph set, and the embedded subset of a glyph set is made
once per process (`SharedFont`): fpdf2 would run fontTools' subsetter on every file, most of
a short document's time. fpdf2's output calls the subsetter through its module global
`fpdf.output.ftsubset`; `_Subsets` stands in for it and hands any other font to fontTools.
"""

from __future__ import annotations

import copy
import io
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import fpdf.output
from fontTools import subset as ftsubset
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

    def serialize(self, obj_dict: object = None, _security_handler: object = None) -> str:
        """Written directly (fpdf2's generic path reads every attribute through `dir`, the
        largest part of a long document's time)."""
        def ref(x: object) -> str:
            return x.ref if isinstance(x, PDFObject) else x.serialize()  # type: ignore[attr-defined]

        entries = [f"/Type {self.type}", f"/S {self.s}", f"/P {self.p.ref}"]
        if self.pg is not None:
            entries.append(f"/Pg {ref(self.pg)}")
        entries.append(f"/K [{' '.join(ref(k) for k in self.k)}]")
        for key, value in (("/Lang", self.lang), ("/Alt", self.alt)):
            if value is not None:
                entries.append(f"{key} {value.serialize()}")
        if self.a is not None:
            entries.append(f"/A {self.a}")
        return f"{self.id} 0 obj\n<<\n" + "\n".join(entries) + "\n>>\nendobj"

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
#: What every document's font holds from the start, in this order (so that documents share
#: one glyph set, and its subset is made once).
REPERTOIRE = ("".join(chr(c) for c in range(0x20, 0x7F))
              + "\u00a0ÁÉÍÓÚÜÑáéíóúüñ¿¡§·—–−‘’“”°ªº×…•")
_FONTS: dict[Path, tuple[TTFFont, bytes]] = {}
_SUBSETS: dict[tuple[Path, frozenset[str]], tuple[bytes, dict[str, int]]] = {}
_LOCK = threading.Lock()
MAX_SUBSETS = 32


class SharedFont:
    """Stands in for a document font's fontTools object: what fpdf2's output asks of it
    (`in`, `getGlyphID`, `save`, `close`), from the subset of its glyph set kept for the
    process."""

    def __init__(self, path: Path, data: bytes, tables: frozenset[str]) -> None:
        self.path, self.data, self.tables = path, data, tables
        self.subset: tuple[bytes, dict[str, int]] | None = None

    def __contains__(self, tag: str) -> bool:
        return tag in self.tables

    def subset_to(self, glyphs: frozenset[str], options: object) -> None:
        key = (self.path, glyphs)
        with _LOCK:
            found = _SUBSETS.get(key)
        if found is None:
            font = ttLib.TTFont(io.BytesIO(self.data), recalcTimestamp=False, lazy=True)
            subsetter = ftsubset.Subsetter(options)  # type: ignore[arg-type]
            subsetter.populate(glyphs=sorted(glyphs))
            subsetter.subset(font)
            out = io.BytesIO()
            font.save(out)
            found = (out.getvalue(), {n: i for i, n in enumerate(font.getGlyphOrder())})
            with _LOCK:
                if len(_SUBSETS) >= MAX_SUBSETS:
                    _SUBSETS.pop(next(iter(_SUBSETS)))
                _SUBSETS[key] = found
        self.subset = found

    def getGlyphID(self, name: str) -> int:  # noqa: N802 (fontTools' name)
        assert self.subset is not None
        return self.subset[1][name]

    def save(self, out: io.BytesIO) -> None:
        assert self.subset is not None
        out.write(self.subset[0])

    def close(self) -> None:
        pass


class _Subsetter:
    def __init__(self, options: object) -> None:
        self.options = options
        self.glyphs: frozenset[str] = frozenset()

    def populate(self, glyphs: object = (), **kwargs: object) -> None:
        self.glyphs = frozenset(glyphs)  # type: ignore[arg-type]
        self.kwargs = kwargs

    def subset(self, font: object) -> None:
        if isinstance(font, SharedFont):
            font.subset_to(self.glyphs, self.options)
            return
        real = ftsubset.Subsetter(self.options)  # type: ignore[arg-type]
        real.populate(glyphs=self.glyphs, **self.kwargs)  # type: ignore[arg-type]
        real.subset(font)


class _Subsets:
    Options = ftsubset.Options
    Subsetter = _Subsetter


fpdf.output.ftsubset = _Subsets  # type: ignore[assignment]


def add_cached_font(pdf: FPDF, family: str, style: str, path: Path) -> TTFFont:
    """`pdf.add_font(family, style, path)`, with the file parsed once per process."""
    with _LOCK:
        cached = _FONTS.get(path)
        if cached is None:
            data = path.read_bytes()
            loader = FPDF()
            loader.add_font("f", "", str(path))
            cached = _FONTS[path] = (loader.fonts["f"], data)
    template, data = cached
    font = copy.copy(template)
    font.i = len(pdf.fonts) + 1
    font.fontkey = f"{family.lower()}{style.upper()}"
    font.ttfont = SharedFont(path, data, frozenset(template.ttfont.keys()))
    font.desc = copy.copy(template.desc)  # a PDF object: numbered anew in each file
    font._hbfont = None
    font.missing_glyphs = []
    font.subset = SubsetMap(font)
    for char in REPERTOIRE:
        font.subset.pick(ord(char))
    font.biggest_size_pt = 0
    pdf.fonts[font.fontkey] = font
    return font
