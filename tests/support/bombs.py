"""Files that are small on disk and enormous once opened: a PNG that declares 10^8
pixels, and a PDF whose object stream (holding its catalog and page tree) inflates to 1 GB.
Both are made here, in a few milliseconds, never read from disk."""

from __future__ import annotations

import struct
import zlib


def png_bomb(side: int = 10_000) -> bytes:
    """A PNG that declares side x side RGBA pixels (10^8: 400 MB decoded) in a few bytes."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))
    rows = zlib.compress(b"\x00" * (side * 4 + 1) * 16)  # the first rows; the rest missing
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 6, 0,
                                                               0, 0))
            + chunk(b"IDAT", rows) + chunk(b"IEND", b""))


def pdf_bomb(inflated: int = 1 << 30) -> bytes:
    """A valid one-page PDF whose catalog and page tree sit in an object stream padded with
    spaces to `inflated` bytes (1 GB: about 1 MB on disk). With `inflated` small it is an
    ordinary PDF that opens (the bomb is its size, nothing else)."""
    catalog = b"<< /Type /Catalog /Pages 3 0 R >>"
    pages = b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>"
    index = b"2 0 3 %d " % (len(catalog) + 1)
    packer = zlib.compressobj(9)
    packed = packer.compress(index + catalog + b" " + pages + b" ")
    block = b" " * (1 << 20)
    for _ in range(inflated // len(block)):
        packed += packer.compress(block)
    packed += packer.flush()
    out = bytearray(b"%PDF-1.7\n")
    at = {1: len(out)}
    out += (b"1 0 obj\n<< /Type /ObjStm /N 2 /First %d /Filter /FlateDecode /Length %d >>\n"
            b"stream\n" % (len(index), len(packed)) + packed + b"\nendstream\nendobj\n")
    at[4] = len(out)
    out += b"4 0 obj\n<< /Type /Page /Parent 3 0 R /MediaBox [0 0 612 792] >>\nendobj\n"
    xref = len(out)
    # a cross-reference stream: free 0; 1 and 4 at their offsets; 2 and 3 in stream 1; itself
    entries = [(0, 0, 65535), (1, at[1], 0), (2, 1, 0), (2, 1, 1), (1, at[4], 0),
               (1, xref, 0)]
    table = b"".join(struct.pack(">BIH", *e) for e in entries)
    out += (b"5 0 obj\n<< /Type /XRef /Size 6 /Root 2 0 R /W [1 4 2] /Length %d >>\nstream\n"
            % len(table) + table + b"\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n" % xref)
    return bytes(out)
