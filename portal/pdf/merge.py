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
    for data in parts:
        reader = PdfReader(io.BytesIO(data))
        part = _Part(writer, reader, next_key)
        part.copy_pages()
        elem = part.copy_tree(document_ref)
        if elem is not None:
            document[_K].append(elem)
        nums.extend(part.parent_tree())
        next_key = part.next_key
        if count == 0:
            _catalog_from(writer, reader)
        count += 1
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

    def copy_pages(self) -> None:
        for page in self.reader.pages:
            new = self.writer.add_page(page)
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

