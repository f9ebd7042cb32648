"""Tagged PDFs one after the other in one tagged PDF, each part's pages as they are.

A file kept as issued (the demand letter, R-A17: "a later copy is that same document, never
re-rendered") is put in a larger file as it is: the court packet (the statement, the letter
as kept, the receipt of mailing) and the staff's print file of the owners' copies. Copying
pages alone (pypdf's `PdfWriter.append`) drops the structure tree, and the file would be
untagged; here each part is read with pypdf and its objects are written unchanged (content
streams, marked content, fonts), renumbered, and each part's structure tree is carried over:

- the file's tree is Document > Part (one per part, with the part's /Lang) > the part's
  own elements, their page references (/Pg, /MCR) pointing at the copied pages;
- each page's /StructParents key moves past the keys of the parts before it, and the parent
  tree lists every part's entries under the new keys;
- the catalog has /MarkInfo /Marked true, the first part's /Lang, /ViewerPreferences and
  XMP metadata, and the Info dictionary is the first part's (its title and author).

The file is written as the parts are read (`parts` may be a generator): a part's objects go
straight to the output, and only each object's offset, the pages' and the parent tree's
numbers are kept, so memory grows by the output's bytes alone. A font the same in several
parts (the layer's shared subset, `tagged.SharedFont`) is written once.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterable, Iterator

from pypdf import PdfReader
from pypdf.generic import (
    ArrayObject,
    DictionaryObject,
    IndirectObject,
    NameObject,
    PdfObject,
    StreamObject,
    TextStringObject,
)


class _Out:
    """The output file, written as the objects come: only each object's offset is kept."""

    def __init__(self) -> None:
        self.buf = io.BytesIO()
        self.buf.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
        self.offsets: dict[int, int] = {}
        self.count = 0

    def reserve(self) -> int:
        self.count += 1
        return self.count

    def put(self, num: int, body: bytes) -> None:
        self.offsets[num] = self.buf.tell()
        self.buf.write(b"%d 0 obj\n" % num + body + b"\nendobj\n")

    def finish(self, root: int, info: int | None) -> bytes:
        start = self.buf.tell()
        size = self.count + 1
        lines = [b"xref\n0 %d\n" % size, b"0000000000 65535 f \n"]
        lines += [b"%010d 00000 n \n" % self.offsets[n] for n in range(1, size)]
        self.buf.write(b"".join(lines))
        trailer = b"trailer\n<< /Size %d /Root %d 0 R" % (size, root)
        if info is not None:
            trailer += b" /Info %d 0 R" % info
        self.buf.write(trailer + b" >>\nstartxref\n%d\n%%%%EOF\n" % start)
        return self.buf.getvalue()


def _ser(obj: PdfObject, num) -> bytes:  # noqa: ANN001
    """An object's bytes, each reference renumbered by `num` (old object number -> new)."""
    if isinstance(obj, IndirectObject):
        return b"%d 0 R" % num(obj.idnum)
    if isinstance(obj, StreamObject):
        head = DictionaryObject({k: v for k, v in obj.items() if k != "/Length"})
        return (_ser(head, num)[:-2] + b" /Length %d>>\nstream\n" % len(obj._data)
                + obj._data + b"\nendstream")
    if isinstance(obj, DictionaryObject):
        out = [b"<<"]
        for key, value in obj.items():
            out.append(_name(key) + b" " + _ser(value, num))
        return b" ".join(out) + b">>"
    if isinstance(obj, ArrayObject):
        return b"[" + b" ".join(_ser(v, num) for v in obj) + b"]"
    if isinstance(obj, TextStringObject) and str(obj).isascii() and str(obj).isprintable():
        text = str(obj).replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        return b"(" + text.encode("ascii") + b")"  # as written (pypdf escapes "-" too)
    b = io.BytesIO()
    obj.write_to_stream(b)
    return b.getvalue()


def _name(key: str) -> bytes:
    b = io.BytesIO()
    NameObject(key).write_to_stream(b)
    return b.getvalue()


def merge(parts: Iterable[bytes]) -> bytes:
    """The PDFs `parts` in one tagged PDF, in order (at least one), written as read."""
    out = _Out()
    pages_num, tree_num, doc_num = out.reserve(), out.reserve(), out.reserve()
    kids: list[int] = []        # the pages
    part_nums: list[int] = []   # the Part elements
    nums: list[tuple[int, list[int] | int]] = []  # the parent tree
    fonts: dict[bytes, int] = {}
    catalog: list[bytes] = []
    info: int | None = None
    next_key = 0
    for index, data in enumerate(parts):
        reader = PdfReader(io.BytesIO(data))
        remap: dict[int, int] = {}
        queue: list[int] = []

        def num(idnum: int, remap=remap, queue=queue) -> int:  # noqa: ANN001
            if idnum not in remap:
                remap[idnum] = out.reserve()
                queue.append(idnum)
            return remap[idnum]

        root = reader.root_object
        tree = root.get("/StructTreeRoot")
        tree = tree.get_object() if tree is not None else None
        doc_elem = None
        if tree is not None:
            k = tree.get("/K")
            k = k.get_object() if k is not None else None
            first = k[0] if isinstance(k, ArrayObject) and len(k) == 1 else k
            if isinstance(first, IndirectObject) and first.get_object().get("/S") == "/Document":
                doc_elem = first
        part_num = out.reserve()
        if doc_elem is not None:
            remap[doc_elem.idnum] = part_num  # its children's /P: the Part
        offset = next_key
        page_objs = []
        for page in reader.pages:
            ref = page.indirect_reference
            remap[ref.idnum] = out.reserve()
            kids.append(remap[ref.idnum])
            page_objs.append((remap[ref.idnum], page))
            for font in _fonts_of(page):
                if font.idnum in remap:
                    continue
                key = _digest(font)
                if key in fonts:
                    remap[font.idnum] = fonts[key]
                else:
                    fonts[key] = num(font.idnum)
        for new, page in page_objs:
            copy = DictionaryObject({k: v for k, v in page.items()
                                     if k not in ("/Parent", "/StructParents")})
            body = _ser(copy, num)[:-2]
            body += b" /Parent %d 0 R" % pages_num
            if "/StructParents" in page:
                key = offset + int(page["/StructParents"])
                body += b" /StructParents %d" % key
                next_key = max(next_key, key + 1)
            out.put(new, body + b">>")
        # the Part, its elements and everything the pages use
        if doc_elem is not None:
            elem = doc_elem.get_object()
            lang = root.get("/Lang")
            part = (b"<</Type /StructElem /S /Part /P %d 0 R /K " % doc_num
                    + _ser(elem.get("/K", ArrayObject()), num))
            if lang is not None:
                part += b" /Lang " + _ser(lang.get_object(), num)
            out.put(part_num, part + b">>")
            part_nums.append(part_num)
        if index == 0:
            for key in ("/Lang", "/ViewerPreferences", "/Metadata"):
                if key in root:  # as referred to (a stream is an indirect object: raw_get)
                    catalog.append(_name(key) + b" " + _ser(root.raw_get(key), num))
            if "/Info" in reader.trailer:
                info = out.reserve()
                out.put(info, _ser(reader.trailer["/Info"].get_object(), num))
        while queue:
            idnum = queue.pop()
            obj = reader.get_object(idnum)
            out.put(remap[idnum], _ser(obj, num))
        if tree is not None and "/ParentTree" in tree:
            for key, value in _number_tree(tree["/ParentTree"].get_object()):
                if isinstance(value, IndirectObject) and not isinstance(
                        value.get_object(), ArrayObject):
                    nums.append((offset + key, remap.get(value.idnum, 0)))
                else:
                    nums.append((offset + key, [remap.get(v.idnum, 0)
                                                for v in value.get_object()]))
        del reader
    if not kids:
        raise ValueError("nothing to merge")
    out.put(pages_num, b"<</Type /Pages /Count %d /Kids [%s]>>" % (
        len(kids), b" ".join(b"%d 0 R" % k for k in kids)))
    out.put(doc_num, b"<</Type /StructElem /S /Document /P %d 0 R /K [%s]>>" % (
        tree_num, b" ".join(b"%d 0 R" % k for k in part_nums)))
    parent_tree = out.reserve()

    def entry(v: list[int] | int) -> bytes:
        if isinstance(v, int):
            return b"%d 0 R" % v if v else b"null"
        return b"[" + b" ".join(b"%d 0 R" % x if x else b"null" for x in v) + b"]"

    out.put(parent_tree, b"<</Nums [" + b" ".join(b"%d %s" % (k, entry(v))
                                                   for k, v in nums) + b"]>>")
    out.put(tree_num, b"<</Type /StructTreeRoot /K [%d 0 R] /ParentTree %d 0 R "
            b"/ParentTreeNextKey %d>>" % (doc_num, parent_tree, next_key))
    catalog_num = out.reserve()
    out.put(catalog_num, b"<</Type /Catalog /Pages %d 0 R /StructTreeRoot %d 0 R "
            b"/MarkInfo <</Marked true>> " % (pages_num, tree_num) + b" ".join(catalog)
            + b">>")
    return out.finish(catalog_num, info)


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


def _number_tree(node: DictionaryObject) -> Iterator[tuple[int, PdfObject]]:
    nums = node.get("/Nums")
    if nums is not None:
        nums = nums.get_object()
        for i in range(0, len(nums) - 1, 2):
            yield int(nums[i]), nums[i + 1]
    for kid in node.get("/Kids") or []:
        yield from _number_tree(kid.get_object())

