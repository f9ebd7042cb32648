"""The demand letter kept as queued (R-A17, revision 3: "the letter is kept as mailed: a
later copy is that same document, never re-rendered"), and the owner's copy.

When the run queues a demand (`demands.Run`), the letter is rendered once, in the
addressee's language then the other, worded as of the queue day, and kept: its PDF in the
file store (`portal.storage`, by content hash) and the facts it states, frozen
(`DemandDocument`). The letter's download, the owner's copy and the court packet read that
file; a later change of parameters, payments or words changes nothing in it.

The words are the documents' (`portal.documents.demand_letter`, a layer above this one): it
registers its renderer here when imported (`render_with`; `portal.domains` imports it for
the web app, the worker and the commands), as the job kinds register with the runner.

When the payer is not the owner (a paying lessee, R-A16), the owner gets a copy, queued
with the demand: emailed (through the outbox) to each owner with an account on the parcel,
with the copy attached; otherwise it goes in the staff's print file
(`/personal/cobros/impresion.pdf`), to be mailed by the same last day as the demand
(`core.deadlines.demand_mailing`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import date
from typing import Any

from sqlalchemy import func, select

from portal import storage
from portal.db import UnitOfWork
from portal.models import DemandDocument
from portal.pdf.merge import merge as merge_tagged

#: (the letter's facts, the declared closed days, the payer's name for an owner's copy or
#: None) -> the PDF.
Renderer = Callable[[Any, Sequence[Any], str | None], bytes]
_RENDERER: list[Renderer] = []
#: Owner's copies the print file holds at most (a batch of a few hundred pages).
PRINT_LIMIT = 500


def render_with(renderer: Renderer) -> None:
    """Make `renderer` the one that words a demand letter (`portal.documents.demand_letter`)."""
    _RENDERER[:] = [renderer]


def render(lf: Any, closed: Sequence[Any], payer: str | None = None) -> bytes:
    if not _RENDERER:
        raise RuntimeError("no demand letter renderer: import portal.documents.demand_letter "
                           "(portal.domains does)")
    return _RENDERER[0](lf, closed, payer)


def keep(uow: UnitOfWork, notice_id: int, kind: str, *, party_id: int | None, language: str,
         queued_on: date, mail_by: date, channel: str, pdf: bytes,
         facts: dict[str, Any]) -> DemandDocument:
    """Store the rendered letter (the file store first: a row never names a missing file)."""
    key = storage.store().put(pdf)
    row = DemandDocument(notice_id=notice_id, kind=kind, addressee_party_id=party_id,
                         language=language, queued_on=queued_on, mail_by=mail_by,
                         channel=channel, storage_key=key, size=len(pdf), facts=facts)
    uow.session.add(row)
    uow.session.flush()
    return row


def stored(uow: UnitOfWork, notice_id: int, kind: str = "demand") -> DemandDocument | None:
    return uow.session.scalar(select(DemandDocument).where(
        DemandDocument.notice_id == notice_id, DemandDocument.kind == kind))


def read(doc: DemandDocument) -> bytes:
    """The kept PDF, as stored (the store checks it against its hash)."""
    return storage.store().get(doc.storage_key)


def merge(parts: Iterable[bytes]) -> bytes:
    """PDFs one after the other in one tagged file, each part's pages as they are and its
    structure tree kept (`portal.pdf.merge`); `parts` is read one at a time."""
    return merge_tagged(parts)


def print_days(uow: UnitOfWork) -> list[tuple[date, int]]:
    """The days with owner's copies to print (no owner account to email), newest first."""
    return [(d, n) for d, n in uow.session.execute(_PRINT_DAYS)]


#: `print_days`' (built once: the collections page asks it on every request).
_PRINT_DAYS = (select(DemandDocument.queued_on, func.count())
               .where(DemandDocument.kind == "owner_copy", DemandDocument.channel == "print")
               .group_by(DemandDocument.queued_on).order_by(DemandDocument.queued_on.desc())
               .limit(12))


def print_file(uow: UnitOfWork, day: date) -> bytes | None:
    """The owner's copies queued on `day` to be printed and mailed, in one PDF (None: none)."""
    docs = list(uow.session.scalars(select(DemandDocument).where(
        DemandDocument.kind == "owner_copy", DemandDocument.channel == "print",
        DemandDocument.queued_on == day).order_by(DemandDocument.id).limit(PRINT_LIMIT)))
    if not docs:
        return None
    return merge(read(d) for d in docs)  # one kept letter in memory at a time
