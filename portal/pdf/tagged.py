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
The font's objects in the file (the widths, the ToUnicode map, the CIDToGIDMap and the
subset, compressed) are the same for every file with the same glyph map: `TaggedOutput`
writes them from contents made once per process (`_font_parts`), byte for byte what fpdf2's
output would write, and the repertoire's glyph map is built once per font file.
"""

from __future__ import annotations

import copy
import io
import logging
import threading
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import fpdf.output
from fontTools import subset as ftsubset
from fontTools import ttLib
from fpdf import FPDF
from fpdf.fonts import SubsetMap, TTFFont
from fpdf.output import CIDSystemInfo, OutputProducer, PDFFont
from fpdf.syntax import Name, PDFArray, PDFContentStream, PDFObject, PDFString

log = logging.getLogger(__name__)


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

    def output(self, name: object = "", **kwargs: object) -> bytearray | None:  # type: ignore[override]
        """The file, with the fonts' objects written by `TaggedOutput`."""
        kwargs.setdefault("output_producer_class", TaggedOutput)
        return super().output(name, **kwargs)  # type: ignore[arg-type]

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
_FONTS: dict[Path, tuple[TTFFont, bytes, dict]] = {}
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


#: The options fpdf2 subsets a font with (the tables it drops are not used by a PDF viewer).
_OPTIONS = ftsubset.Options(notdef_outline=True, recommended_glyphs=True)
_OPTIONS.drop_tables += ["FFTM", "GDEF", "GPOS", "GSUB", "MATH", "hdmx", "meta", "sbix", "CBDT",
                         "CBLC", "EBDT", "EBLC", "EBSC", "SVG ", "CPAL", "COLR"]
#: A font's PDF objects' contents by (font file, glyph map): the widths, the ToUnicode CMap,
#: the CIDToGIDMap and the font file (both compressed), the font file's length.
_PARTS: dict[tuple, tuple[str, bytes, bytes, bytes, int]] = {}


class _Packed(PDFContentStream):
    """A stream whose contents are already compressed (made once per process)."""

    def __init__(self, packed: bytes, length1: int | None = None) -> None:
        PDFObject.__init__(self)
        self._contents = packed
        self.filter = Name("FlateDecode")
        self.length = len(packed)
        if length1 is not None:
            self.length1 = length1


def _font_parts(font: TTFFont) -> tuple[str, bytes, bytes, bytes, int]:
    """What fpdf2's output writes for a shared font's glyph map, made once per process: the
    same objects (Type0 font, CIDFontType2 with its widths, ToUnicode, CIDToGIDMap, the
    subset as FontFile2) with the same contents, which fpdf2 would build again, and compress
    again, in every file."""
    shared: SharedFont = font.ttfont  # type: ignore[assignment]
    glyphs = [(cid, g) for g, cid in font.subset.items() if g is not None]
    key = (shared.path, tuple(sorted((cid, g.glyph_id, g.glyph_name, g.glyph_width, g.unicode)
                                     for cid, g in glyphs)))
    with _LOCK:
        found = _PARTS.get(key)
    if found is not None:
        return found
    shared.subset_to(frozenset(g.glyph_name for _cid, g in glyphs), _OPTIONS)
    assert shared.subset is not None
    data, glyph_ids = shared.subset
    cid_to_gid = bytearray(256 * 256 * 2)
    chars = []
    for cid, g in sorted(glyphs, key=lambda item: item[0]):
        gid = glyph_ids[g.glyph_name]
        cid_to_gid[cid * 2], cid_to_gid[cid * 2 + 1] = gid >> 8, gid & 0xFF
    for g, cid in font.subset.items():  # fpdf2's order
        # CID 0 (.notdef) and anything mapped to U+0000 get no entry: U+0000 is no text
        # (PDF/UA-1 7.21.7; a validator's FONT-UNICODE-VALUE-001), and .notdef is never drawn
        if (g is not None and isinstance(g.unicode, tuple) and g.unicode and cid != 0
                and 0 not in g.unicode):
            chars.append(f"<{cid:04X}> <{''.join(_utf16(u) for u in g.unicode)}>\n")
    cmap = ("/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CIDSystemInfo\n"
            "<</Registry (Adobe)\n/Ordering (UCS)\n/Supplement 0\n>> def\n"
            "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n1 begincodespacerange\n"
            "<0000> <FFFF>\nendcodespacerange\n"
            f"{fpdf.output._build_cmap_blocks(chars, 'bfchar')}"
            "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend")
    found = (fpdf.output._tt_font_widths(font), cmap.encode("latin-1"),
             zlib.compress(bytes(cid_to_gid)), zlib.compress(data), len(data))
    with _LOCK:
        if len(_PARTS) >= MAX_SUBSETS:
            _PARTS.pop(next(iter(_PARTS)))
        _PARTS[key] = found
    return found


def _utf16(code: int) -> str:
    if code > 0xFFFF:  # a surrogate pair
        return f"{0xD800 | (code - 0x10000) >> 10:04X}{0xDC00 | (code & 0x3FF):04X}"
    return f"{code:04X}"


class TaggedOutput(OutputProducer):
    """fpdf2's output, with the objects of the shared fonts (`add_cached_font`) from
    `_font_parts`: a short document's file is mostly its fonts, the same in every file."""

    def _add_fonts(self, *args: object) -> dict:  # type: ignore[override]
        fonts = self.fpdf.fonts
        shared = {k: f for k, f in fonts.items() if isinstance(f, TTFFont)
                  and isinstance(f.ttfont, SharedFont) and not f.color_font and not f.is_cff}
        every = dict(fonts)  # fpdf2's own output for the others (none, as a rule)
        for k in shared:
            del fonts[k]
        try:
            out = super()._add_fonts(*args)  # type: ignore[arg-type]
        finally:
            fonts.clear()
            fonts.update(every)
        for font in sorted(shared.values(), key=lambda f: f.i):
            out[font.i] = self._shared_font(font)
        return out

    def _shared_font(self, font: TTFFont) -> PDFFont:
        if font.missing_glyphs:
            log.warning("font %s lacks %s", font.name,
                        ", ".join(f"U+{c:04X}" for c in font.missing_glyphs[:10]))
        widths, cmap, cid_to_gid, data, length = _font_parts(font)
        name = f"MPDFAA+{font.name}"
        composite = PDFFont(subtype="Type0", base_font=name, encoding="Identity-H")
        self._add_pdf_obj(composite, "fonts")
        cid_font = PDFFont(subtype="CIDFontType2", base_font=name,
                           d_w=font.desc.missing_width, w=widths)
        self._add_pdf_obj(cid_font, "fonts")
        composite.descendant_fonts = PDFArray([cid_font])
        to_unicode = PDFContentStream(cmap)
        self._add_pdf_obj(to_unicode, "fonts")
        composite.to_unicode = to_unicode
        system = CIDSystemInfo()
        self._add_pdf_obj(system, "fonts")
        cid_font.c_i_d_system_info = system
        desc = font.desc
        desc.font_name = Name(name)
        self._add_pdf_obj(desc, "fonts")
        cid_font.font_descriptor = desc
        mapping = _Packed(cid_to_gid)
        self._add_pdf_obj(mapping, "fonts")
        cid_font.c_i_d_to_g_i_d_map = mapping
        stream = _Packed(data, length)
        self._add_pdf_obj(stream, "fonts")
        desc.font_file2 = stream
        font.subset.pick.cache_clear()
        font.subset.get_glyph.cache_clear()
        font.close()
        return composite


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
            first = loader.fonts["f"]
            first.subset = SubsetMap(first)
            for char in REPERTOIRE:
                first.subset.pick(ord(char))
            picked = dict(first.subset.__dict__)  # the repertoire's glyph map, made once
            cached = _FONTS[path] = (first, data, picked)
    template, data, picked = cached
    font = copy.copy(template)
    font.i = len(pdf.fonts) + 1
    font.fontkey = f"{family.lower()}{style.upper()}"
    font.ttfont = SharedFont(path, data, frozenset(template.ttfont.keys()))
    font.desc = copy.copy(template.desc)  # a PDF object: numbered anew in each file
    font._hbfont = None
    font.missing_glyphs = []
    font.subset = subset = SubsetMap.__new__(SubsetMap)
    subset.__dict__.update(picked, font=font, _reserved=list(picked["_reserved"]),
                           _char_id_per_glyph=dict(picked["_char_id_per_glyph"]))
    font.biggest_size_pt = 0
    pdf.fonts[font.fontkey] = font
    return font
