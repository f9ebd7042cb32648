"""Evidence of a certification (R-B14: the veteran's exemption, an R-B8 statement, the
residential part ...): PDF, JPEG or PNG, checked by content, at most 10 MB each and 10
files, stored by content hash (`portal.storage`).

The type is read from the bytes (the file's signature), never from its name or the browser's
word, and the file must open within bounds (`MAX_PIXELS` from the image's header before
any decoding, `MAX_PDF_PAGES`, `MAX_PDF_OBJECTS`, `MAX_PDF_INFLATED`): Pillow, pypdf
(maintained libraries rather than hand-written parsers: docs/EXEMPTION.md). Anything else is
an `InvalidInput` with a stable code, and nothing is stored. A PDF with scripts or automatic
actions (`active_content`: JavaScript, OpenAction ...) is accepted and flagged to the
reviewer.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import func, select, update

from portal import clock, storage
from portal.accounts import audit
from portal.accounts.errors import Conflict, InvalidInput, NotFound
from portal.db import UnitOfWork
from portal.exemptions import filings
from portal.models import ExemptionCertification, ExemptionEvidence

MAX_BYTES = 10 * 1024 * 1024
MAX_FILES = 10
SIGNATURES = ((b"%PDF-", "application/pdf"), (b"\xff\xd8\xff", "image/jpeg"),
              (b"\x89PNG\r\n\x1a\n", "image/png"))


def sniff(data: bytes) -> str | None:
    """The type its first bytes say, among the three accepted."""
    for magic, kind in SIGNATURES:
        if data.startswith(magic):
            return kind
    return None


#: The most pixels an image may have, read from its header before anything is decoded (a
#: letter page scanned at 600 dpi is 34 million; a phone's photo 12 to 48): a small PNG can
#: declare 10^8 pixels and take gigabytes to decode (a decompression bomb).
MAX_PIXELS = 50_000_000
#: The most pages and objects a PDF may have (pypdf reads only the page tree and the
#: cross-reference table to count them; nothing is decompressed).
MAX_PDF_PAGES = 300
MAX_PDF_OBJECTS = 200_000
#: The most bytes one of a PDF's streams may inflate to while it is read (its object
#: streams hold the page tree; a few MB for 300 pages): a 1 MB stream can inflate to 1 GB (a
#: PDF bomb). pypdf's own bound is 75 MB a stream; this one keeps an upload's memory small.
MAX_PDF_INFLATED = 8 * 1024 * 1024


class _TooBig(Exception):
    """The file declares more than a document needs (pixels, pages, objects, inflated
    bytes): refused as `evidence_oversized`, whatever else is wrong with it."""


@contextmanager
def _pdf_bounds() -> Iterator[None]:
    """pypdf's limits for the current thread only (a context variable), lowered to ours."""
    from pypdf import apply_configuration
    with apply_configuration(zlib_maximum_output_length=MAX_PDF_INFLATED,
                             lzw_maximum_output_length=MAX_PDF_INFLATED,
                             run_length_maximum_output_length=MAX_PDF_INFLATED,
                             brotli_maximum_output_length=MAX_PDF_INFLATED,
                             array_based_stream_maximum_output_length=MAX_PDF_INFLATED,
                             stream_decoding_work_maximum_length=4 * MAX_PDF_INFLATED,
                             maximum_declared_stream_length=MAX_BYTES):
        yield


def _opens(data: bytes, kind: str) -> bool:
    """Does the file actually open as what its signature says, within the bounds? Images:
    the size from the header first (Pillow's `MAX_IMAGE_PIXELS` set to the bound, its
    warning an error); then a PNG's chunks are verified (their checksums, no pixel decoded)
    and a JPEG is decoded at an eighth of its size (`draft`), so an upload costs little
    memory whatever it declares. PDFs: the objects and pages counted, no stream inflated
    past `MAX_PDF_INFLATED`. `_TooBig` when a bound is passed."""
    try:
        if kind == "application/pdf":
            from pypdf import PdfReader
            from pypdf.errors import LimitReachedError
            try:
                with _pdf_bounds():
                    reader = PdfReader(io.BytesIO(data), strict=False)
                    if int(reader.trailer.get("/Size", 0)) > MAX_PDF_OBJECTS:
                        raise _TooBig
                    pages = len(reader.pages)
            except LimitReachedError as exc:
                raise _TooBig from exc
            if pages > MAX_PDF_PAGES:
                raise _TooBig
            return pages > 0
        import warnings

        from PIL import Image
        Image.MAX_IMAGE_PIXELS = MAX_PIXELS
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as img:
                expected = {"image/jpeg": "JPEG", "image/png": "PNG"}[kind]
                if img.width * img.height > MAX_PIXELS:
                    raise _TooBig
                if img.format != expected:
                    return False
                if kind == "image/png":
                    img.verify()
                else:
                    img.draft("L", (max(1, img.width // 8), max(1, img.height // 8)))
                    img.load()
        return True
    except _TooBig:
        raise
    except Exception as exc:  # noqa: BLE001 - any failure to read means "corrupt"
        if _bomb(exc):
            raise _TooBig from exc
        return False


def _bomb(exc: BaseException) -> bool:
    """Pillow's refusal of an image over `MAX_IMAGE_PIXELS` (its warning made an error),
    or pypdf's of a stream over its bound, however deep in the error's causes."""
    from PIL import Image
    from pypdf.errors import LimitReachedError
    while exc is not None:
        if isinstance(exc, (Image.DecompressionBombError, Image.DecompressionBombWarning,
                            LimitReachedError)):
            return True
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return False


#: The PDF names that run something when the file is opened or used (PDF 1.7, 12.6):
#: found in the file's objects, the document is flagged to the reviewer, not refused (a
#: bank's or an agency's PDF may carry a harmless script; the reviewer opens it with care).
ACTIVE_NAMES = ("/JavaScript", "/JS", "/OpenAction", "/AA", "/Launch", "/EmbeddedFile",
                "/RichMedia", "/SubmitForm", "/ImportData")
_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")


def active_content(data: bytes) -> list[str]:
    """The scripts and automatic actions a PDF holds (`ACTIVE_NAMES` without the slash, in
    that order): its objects as pypdf reads them (compressed object streams included) and
    its bytes (names written with #xx escapes decoded). [] for an image or a plain PDF."""
    if not data.startswith(b"%PDF-"):
        return []
    with _pdf_bounds():
        found = set(_names_in_objects(data))
    raw = _NAME_ESCAPE.sub(lambda m: bytes([int(m.group(1), 16)]), data)
    for name in ACTIVE_NAMES:
        # an /OpenAction that is a page to open at ([3 0 R /FitH null], every fpdf2 file)
        # runs nothing: only an action (a dictionary) counts
        after = rb"\s*<<" if name == "/OpenAction" else rb"(?![A-Za-z0-9])"
        if re.search(re.escape(name.encode()) + after, raw):
            found.add(name)
    return [n[1:] for n in ACTIVE_NAMES if n in found]


def _names_in_objects(data: bytes) -> set[str]:
    try:
        from pypdf import PdfReader
        from pypdf.generic import DictionaryObject, IndirectObject
        reader = PdfReader(io.BytesIO(data), strict=False)
        found: set[str] = set()
        seen: set[int] = set()
        todo: list[Any] = [reader.trailer]
        while todo and len(seen) < 20_000:
            obj = todo.pop()
            if isinstance(obj, IndirectObject):
                if obj.idnum in seen:
                    continue
                seen.add(obj.idnum)
                obj = obj.get_object()
            if isinstance(obj, DictionaryObject):
                found |= {k for k in obj if k in ACTIVE_NAMES and (
                    k != "/OpenAction"
                    or isinstance(obj[k].get_object(), DictionaryObject))}
                found |= {str(v) for v in obj.values() if str(v) in ACTIVE_NAMES}
                todo.extend(obj.values())
            elif isinstance(obj, list):
                todo.extend(obj)
        return found
    except Exception:  # noqa: BLE001 - the bytes' scan still runs
        return set()


def check(data: bytes) -> str:
    """The content type of an acceptable file; `InvalidInput` with code `evidence_empty`,
    `evidence_too_large`, `evidence_type`, `evidence_oversized` (more pixels, pages, objects
    or inflated bytes than the bounds: a bomb is refused without being decoded) or
    `evidence_corrupt` otherwise."""
    if not data:
        raise InvalidInput("evidence_empty", field="file")
    if len(data) > MAX_BYTES:
        raise InvalidInput("evidence_too_large", field="file", most=MAX_BYTES // (1024 * 1024))
    kind = sniff(data)
    if kind is None:
        raise InvalidInput("evidence_type", field="file")
    try:
        opens = _opens(data, kind)
    except _TooBig:
        raise InvalidInput("evidence_oversized", field="file", pixels=MAX_PIXELS,
                           pages=MAX_PDF_PAGES) from None
    if not opens:
        raise InvalidInput("evidence_corrupt", field="file")
    return kind


def _count(uow: UnitOfWork, cert_id: int) -> int:
    return uow.session.scalar(select(func.count()).select_from(ExemptionEvidence).where(
        ExemptionEvidence.certification_id == cert_id, ExemptionEvidence.removed_at.is_(None)))


def clean_name(name: str | None) -> str:
    """The name a file was uploaded with, as stored: its last part, printable, 200 at most."""
    base = (name or "").replace("\\", "/").rsplit("/", 1)[-1]
    base = "".join(c for c in base if c.isprintable()).strip()
    return base[:200] or "archivo"


def add(uow: UnitOfWork, user: Any, cert_id: int | str, data: bytes,
        filename: str | None) -> ExemptionEvidence:
    """Check and store one file for the certification (a draft, or one returned to its
    owner). At most `MAX_FILES` files."""
    cert, _parcel = filings.get_for_owner(uow, user, cert_id)
    if cert.status not in filings.EDITABLE:
        raise Conflict("exemption_not_editable")
    if _count(uow, cert.id) >= MAX_FILES:
        raise InvalidInput("evidence_too_many", field="file", most=MAX_FILES)
    kind = check(data)
    # Counted again under the certification's lock, in the transaction of the insert: an
    # UPDATE of its row waits for any other upload's transaction to end (PostgreSQL's row
    # lock, SQLite's write lock), so two uploads at once never make 11 of 10.
    uow.session.execute(update(ExemptionCertification).where(
        ExemptionCertification.id == cert.id).values(id=ExemptionCertification.id)
        .execution_options(synchronize_session=False))
    if _count(uow, cert.id) >= MAX_FILES:
        raise InvalidInput("evidence_too_many", field="file", most=MAX_FILES)
    try:
        key = storage.store().put(data)
    except Exception as exc:  # noqa: BLE001 - a full disk (OSError), an unreachable server
        # (botocore's errors): refused with a clear message, nothing recorded.
        raise Conflict("evidence_store_unavailable", cause=type(exc).__name__) from exc
    active = ", ".join(active_content(data)) or None  # flagged to the reviewer, not refused
    row = ExemptionEvidence(certification_id=cert.id, sha256=key, content_type=kind,
                            size_bytes=len(data), filename=clean_name(filename),
                            uploaded_by_id=user.id, active_content=active)
    uow.session.add(row)
    uow.session.flush()
    audit.record(uow, user, "exemption.evidence_added", row,
                 after={"certification_id": cert.id, "sha256": key, "type": kind,
                        "size": len(data), "active_content": active})
    return row


def remove(uow: UnitOfWork, user: Any, cert_id: int | str, evidence_id: int | str) -> None:
    """Take a file off a draft or a returned certification (the row stays, marked)."""
    cert, _parcel = filings.get_for_owner(uow, user, cert_id)
    if cert.status not in filings.EDITABLE:
        raise Conflict("exemption_not_editable")
    row = _row(uow, cert, evidence_id)
    row.removed_at = clock.now()
    audit.record(uow, user, "exemption.evidence_removed", row,
                 after={"certification_id": cert.id})


def _row(uow: UnitOfWork, cert: ExemptionCertification, evidence_id: int | str
         ) -> ExemptionEvidence:
    from portal.accounts.access import parse_id
    row = uow.session.get(ExemptionEvidence, parse_id(evidence_id))
    if row is None or row.certification_id != cert.id or row.removed_at is not None:
        raise NotFound()
    return row


def read(uow: UnitOfWork, user: Any, cert_id: int | str, evidence_id: int | str
         ) -> tuple[ExemptionEvidence, bytes]:
    """(row, bytes) of a file, for anyone who may see the certification (`NotFound` for
    anyone else, and for a file of another certification)."""
    cert, _parcel, _rel = filings.get_for_view(uow, user, cert_id)
    row = _row(uow, cert, evidence_id)
    return row, storage.store().get(row.sha256)
