"""Tagged PDFs one after the other in one tagged PDF, each part's pages as they are.

A file kept as issued (the demand letter, R-A17: "a later copy is that same document, never
re-rendered") is put in a larger file as it is: the court packet (the statement, the letter
as kept, the receipt of mailing) and the staff's print file of the owner's copies. Copying
pages alone (pypdf's `PdfWriter.append`) drops the structure tree, and the file would be
untagged; here each part's pages are copied with pypdf, unchanged (their content streams
and their marked content), and each part's structure tree is carried over:

- the file's tree is Document > Part (one per part, with the part's /Lang) > the part's
  own elements, each one copied with its page references (/Pg, /MCR) pointing at the
  copied pages;
- each page's /StructParents key (and an annotation's /StructParent) moves past the keys of
  the parts before it, and the parent tree lists every part's entries under the new keys;
- the catalog has /MarkInfo /Marked true, the first part's /Lang, /ViewerPreferences and
  XMP metadata, and the Info dictionary the first part's (its title and author).

Parts are read one at a time (`parts` may be a generator): a part's bytes and its reader are
dropped once its pages and elements are copied, so a print file of hundreds of letters holds
the output's objects once. The parts' fonts are the same bytes in each (the layer's shared
subset, `tagged.SharedFont`): identical objects are written once (pypdf's
`compress_identical_objects`), so the file grows by each letter's own pages only.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterable, Iterator

from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    BooleanObject,
    DictionaryObject,
    IndirectObject,
    NameObject,
    NullObject,
    NumberObject,
    PdfObject,
    StreamObject,
    TextStringObject,
)

_P, _K, _PG = NameObject("/P"), NameObject("/K"), NameObject("/Pg")


def merge(parts: Iterable[bytes]) -> bytes:
    """The PDFs `parts` in one tagged PDF, in order (at least one)."""
    writer = PdfWriter()
    root = writer.root_object
    tree = DictionaryObject({NameObject("/Type"): NameObject("/StructTreeRoot")})
    tree_ref = writer._add_object(tree)
    document = DictionaryObject({NameObject("/Type"): NameObject("/StructElem"),
                                 NameObject("/S"): NameObject("/Document"),
                                 _P: tree_ref, _K: ArrayObject()})
    document_ref = writer._add_object(document)
    tree[_K] = ArrayObject([document_ref])
    nums = ArrayObject()
    next_key = 0
    count = 0
    fonts: dict[bytes, int] = {}
    for data in parts:
        reader = PdfReader(io.BytesIO(data))
        part = _Part(writer, reader, next_key)
        part.copy_pages(fonts)
        elem = part.copy_tree(document_ref)
        if elem is not None:
            document[_K].append(elem)
        nums.extend(part.parent_tree())
        next_key = part.next_key
        if count == 0:
            _catalog_from(writer, reader)
        count += 1
        # pypdf keeps every reader cloned from alive (its "PreventGC" entry); nothing more
        # is cloned from this one, so let it go, and its bytes with it
        writer._id_translated.pop(id(reader), None)
        del reader, part
    if not count:
        raise ValueError("nothing to merge")
    tree[NameObject("/ParentTree")] = writer._add_object(
        DictionaryObject({NameObject("/Nums"): nums}))
    tree[NameObject("/ParentTreeNextKey")] = NumberObject(next_key)
    root[NameObject("/StructTreeRoot")] = tree_ref
    root[NameObject("/MarkInfo")] = DictionaryObject(
        {NameObject("/Marked"): BooleanObject(True)})
    writer.compress_identical_objects(remove_duplicates=True, remove_unreferenced=False)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _catalog_from(writer: PdfWriter, reader: PdfReader) -> None:
    """The file's language, viewer preferences, XMP and Info: the first part's."""
    source = reader.root_object
    root = writer.root_object
    for key in ("/Lang", "/ViewerPreferences", "/Metadata"):
        if key in source:
            root[NameObject(key)] = source[key].clone(writer)
    if reader.metadata:
        writer.add_metadata({k: v for k, v in reader.metadata.items()
                             if isinstance(v, str)})


class _Part:
    """One part's pages and structure elements, copied into `writer`; its parent tree's
    keys moved by `offset`."""

    def __init__(self, writer: PdfWriter, reader: PdfReader, offset: int) -> None:
        self.writer, self.reader, self.offset = writer, reader, offset
        self.pages: dict[int, IndirectObject] = {}  # the part's page object -> the copy's
        self.elems: dict[int, IndirectObject] = {}  # the part's element -> the copy's
        self.annots: dict[int, IndirectObject] = {}
        self.next_key = offset

    def copy_pages(self, fonts: dict[bytes, int]) -> None:
        """The part's pages, copied; a font the same as one copied before (`fonts`: its
        digest -> its object in the writer) is that one, not a copy more."""
        translated = self.writer._id_translated.setdefault(
            id(self.reader), {"PreventGC": self.reader})
        for page in self.reader.pages:
            new_fonts = {}
            for ref in _fonts_of(page):
                key = _digest(ref)
                if key in fonts:
                    translated[ref.idnum] = fonts[key]  # pypdf's clone reuses it
                else:
                    new_fonts[ref.idnum] = key
            new = self.writer.add_page(page)
            for idnum, key in new_fonts.items():
                if idnum in translated:
                    fonts[key] = translated[idnum]
            self.pages[page.indirect_reference.idnum] = new.indirect_reference
            if "/StructParents" in page:  # pypdf leaves it out of the copy
                key = self.offset + int(page["/StructParents"])
                new[NameObject("/StructParents")] = NumberObject(key)
                self.next_key = max(self.next_key, key + 1)
            old_annots = page.get("/Annots") or []
            for old, copied in zip(old_annots, new.get("/Annots") or []):
                if isinstance(old, IndirectObject) and isinstance(copied, IndirectObject):
                    self.annots[old.idnum] = copied
                    annot = copied.get_object()
                    if "/StructParent" in annot:
                        key = self.offset + int(annot["/StructParent"])
                        annot[NameObject("/StructParent")] = NumberObject(key)
                        self.next_key = max(self.next_key, key + 1)

    def copy_tree(self, parent: IndirectObject) -> IndirectObject | None:
        """The part's Document element, copied as a /Part under `parent`, with the part's
        /Lang (None: the part is untagged)."""
        tree = self.reader.root_object.get("/StructTreeRoot")
        if tree is None:
            return None
        tree = tree.get_object()
        kids = tree.get("/K")
        kids = kids.get_object() if kids is not None else ArrayObject()
        if not isinstance(kids, ArrayObject):
            kids = ArrayObject([kids])
        part = DictionaryObject({NameObject("/Type"): NameObject("/StructElem"),
                                 NameObject("/S"): NameObject("/Part"), _P: parent,
                                 _K: ArrayObject()})
        lang = self.reader.root_object.get("/Lang")
        if lang is not None:
            part[NameObject("/Lang")] = TextStringObject(str(lang))
        ref = self.writer._add_object(part)
        for kid in kids:
            elem = kid.get_object()
            if isinstance(elem, DictionaryObject) and elem.get("/S") == "/Document":
                # the part's own Document element: its children go straight into the Part
                for inner in _as_list(elem.get("/K")):
                    part[_K].append(self._copy(inner, ref, elem.get("/Pg")))
            else:
                part[_K].append(self._copy(kid, ref, None))
        return ref

    def _copy(self, kid: PdfObject, parent: IndirectObject, page: PdfObject | None
              ) -> PdfObject:
        """A kid of an element: an element (copied), a marked-content reference (its page
        mapped) or an MCID (as is)."""
        if isinstance(kid, NumberObject):
            return NumberObject(int(kid))
        obj = kid.get_object()
        if not isinstance(obj, DictionaryObject):
            return obj.clone(self.writer)
        kind = obj.get("/Type")
        if kind in ("/MCR", "/OBJR"):
            copy = DictionaryObject()
            for key, value in obj.items():
                if key == "/Pg":
                    copy[_PG] = self._page(value)
                elif key == "/Obj":
                    copy[NameObject(key)] = self.annots.get(
                        value.idnum, value) if isinstance(value, IndirectObject) else value
                else:
                    copy[NameObject(key)] = value.clone(self.writer)
            return copy
        # a structure element
        copy = DictionaryObject()
        ref = self.writer._add_object(copy)
        if isinstance(kid, IndirectObject):
            self.elems[kid.idnum] = ref
        for key, value in obj.items():
            if key in ("/P", "/K"):
                continue
            copy[NameObject(key)] = self._page(value) if key == "/Pg" else value.clone(
                self.writer)
        copy[_P] = parent
        own_page = obj.get("/Pg", page)
        copy[_K] = ArrayObject(self._copy(k, ref, own_page) for k in _as_list(obj.get("/K")))
        return ref

    def _page(self, value: PdfObject) -> PdfObject:
        if isinstance(value, IndirectObject) and value.idnum in self.pages:
            return self.pages[value.idnum]
        raise ValueError("a structure element on a page that is not in the part")

    def parent_tree(self) -> Iterator[PdfObject]:
        """The part's parent tree entries, each key moved by the offset, each element
        the copy's."""
        tree = self.reader.root_object.get("/StructTreeRoot")
        if tree is None:
            return
        node = tree.get_object().get("/ParentTree")
        if node is None:
            return
        for key, value in _number_tree(node.get_object()):
            yield NumberObject(self.offset + key)
            value = value.get_object() if isinstance(value, IndirectObject) and not \
                isinstance(value.get_object(), DictionaryObject) else value
            if isinstance(value, ArrayObject):
                yield ArrayObject(self._elem(v) for v in value)
            else:
                yield self._elem(value)

    def _elem(self, value: PdfObject) -> PdfObject:
        if isinstance(value, IndirectObject) and value.idnum in self.elems:
            return self.elems[value.idnum]
        return NullObject()


def _fonts_of(page: DictionaryObject) -> list[IndirectObject]:
    resources = page.get("/Resources")
    fonts = resources.get_object().get("/Font") if resources is not None else None
    if fonts is None:
        return []
    return [v for v in fonts.get_object().values() if isinstance(v, IndirectObject)]


def _digest(value: PdfObject) -> bytes:
    """What an object is, whole (its referenced objects too): the same bytes, the same
    digest."""
    h = hashlib.sha256()

    def feed(v: PdfObject) -> None:
        v = v.get_object() if isinstance(v, IndirectObject) else v
        if isinstance(v, StreamObject):
            h.update(b"S%d:" % len(v._data))
            h.update(v._data)
        if isinstance(v, DictionaryObject):
            h.update(b"<<")
            for key in sorted(v):
                h.update(key.encode() + b" ")
                feed(v[key])
            h.update(b">>")
        elif isinstance(v, ArrayObject):
            h.update(b"[")
            for item in v:
                feed(item)
            h.update(b"]")
        else:
            h.update(repr(v).encode() + b" ")

    feed(value)
    return h.digest()


def _as_list(value: PdfObject | None) -> list[PdfObject]:
    if value is None:
        return []
    obj = value.get_object()
    return list(obj) if isinstance(obj, ArrayObject) else [value]


def _number_tree(node: DictionaryObject) -> Iterator[tuple[int, PdfObject]]:
    nums = node.get("/Nums")
    if nums is not None:
        nums = nums.get_object()
        for i in range(0, len(nums) - 1, 2):
            yield int(nums[i]), nums[i + 1]
    for kid in node.get("/Kids") or []:
        yield from _number_tree(kid.get_object())

