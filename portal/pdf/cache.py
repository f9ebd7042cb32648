"""Documents rendered once and served again while nothing they show has changed.

`rendered(doc, lang)` is `render(doc, lang)` through a small per-process LRU. The key is a
digest of everything the PDF shows: the whole `Document` as its caller worded it from the
services' figures (every fact, amount, explanation, table cell, note, the QR code's address
and words), the language, the day that picks the issuing Authority, and the version of the
code and data that draw it (this package's source, `authority.toml`, the fonts, the
compiled catalogs, fpdf2's version). A new payment, a fee, another date or wording is
another `Document`, so another key: the cache can serve a document again, never a stale one.
A document is found in it only by building the same `Document`, which only a caller allowed
to see those figures does (the routes check access before they word a document).

The only thing not in the key is what the PDF does not show: its /CreationDate metadata is
the first render's. Each worker process keeps its own cache (several hosts need nothing
shared: a miss renders). docs/DOCUMENTS.md "Speed" has the figures.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from functools import cache
from pathlib import Path

import fpdf

from portal import clock, pdf
from portal.core.explain import TRANSLATIONS_DIR
from portal.pdf.fonts import font_files
from portal.pdf.model import Document

#: Documents kept per process (a three-page statement is about 60 KiB).
SIZE = 128

_lock = threading.Lock()
_kept: OrderedDict[bytes, bytes] = OrderedDict()


@cache
def version() -> bytes:
    """A digest of what draws a document besides its `Document`: this package's code, the
    Authority's dated data, the font files, the compiled catalogs and fpdf2's version."""
    h = hashlib.sha256(fpdf.__version__.encode())
    here = Path(__file__).parent
    files = [*sorted(here.glob("*.py")), here / "authority.toml",
             *sorted(TRANSLATIONS_DIR.glob("*/LC_MESSAGES/*.mo"))]
    for path in files:
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    for path in font_files():
        stat = path.stat()
        h.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}".encode())
    return h.digest()


def key(doc: Document, lang: str) -> bytes:
    """The digest of everything `doc` shows in `lang` (its dataclasses' repr: every field,
    nested rows, explanations, tables and code)."""
    on = doc.on or clock.today()  # the day that picks the Authority's address
    return hashlib.sha256(b"\0".join((version(), lang.encode(), on.isoformat().encode(),
                                      repr(doc).encode()))).digest()


def rendered(doc: Document, lang: str) -> bytes:
    """The PDF of `doc` in `lang`: kept from an earlier render of the same document, else
    rendered (`portal.pdf.render`) and kept."""
    k = key(doc, lang)
    with _lock:
        data = _kept.get(k)
        if data is not None:
            _kept.move_to_end(k)
            return data
    data = pdf.render(doc, lang)
    with _lock:
        _kept[k] = data
        while len(_kept) > SIZE:
            _kept.popitem(last=False)
    return data


def clear() -> None:
    """Forget every kept document (the benches time a render with it)."""
    with _lock:
        _kept.clear()
