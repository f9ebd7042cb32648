"""The file store's retention policy (docs/OPERATIONS.md "Retention"): the notices'
print files hold the new access codes in plain text, so their PDFs are deleted from the
store `RETENTION_PRINT_FILE_DAYS` days after they were made (the mailing house has printed
them by then; default 60, 0 keeps them). The `NoticePrintFile` row stays (append-only: how
many notices and codes it held), its PDF is gone, and an audit record
`print_file.deleted` says when; an administrator who asks for it is told so
(`PrintFileDeleted`).

A daily task (`portal.jobs.daily`, registered in `portal.domains` as "retention"): the
worker calls it each hour, and it is idempotent (a file already gone is not deleted or
recorded again). The store is content-addressed, so a key another record still names (a
newer print file, a demand document, evidence, a roll import) is kept.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any

from sqlalchemy import select

from portal import clock, config, storage
from portal.accounts import audit
from portal.accounts.errors import NotFound
from portal.db import Database, UnitOfWork
from portal.models import NoticePrintFile
from portal.models.collections import DemandDocument
from portal.models.exemptions import ExemptionEvidence
from portal.models.roll_imports import RollImport
from portal.operations import settings as operations_settings

NAME = "retention"
DEFAULT_PRINT_FILE_DAYS = 60


class PrintFileDeleted(NotFound):
    """The print file's PDF was deleted under the retention policy."""

    code = "print_file_deleted"


def print_file_days(env: Any = None) -> int:
    """RETENTION_PRINT_FILE_DAYS (a whole number of days; 0: never delete; unset: 60). A
    malformed value raises `ConfigurationError` (the web app and the worker refuse to start
    on it: `portal.operations.settings`), never a silent 60."""
    raw = str(config.settings(env, with_key=False).get("RETENTION_PRINT_FILE_DAYS") or "")
    if not raw.strip():
        return DEFAULT_PRINT_FILE_DAYS
    days = operations_settings.load({"RETENTION_PRINT_FILE_DAYS": raw}).RETENTION_PRINT_FILE_DAYS
    return DEFAULT_PRINT_FILE_DAYS if days is None else days


def _kept_elsewhere(uow: UnitOfWork, key: str, cutoff: datetime) -> bool:
    s = uow.session
    return any(s.scalar(q.limit(1)) is not None for q in (
        select(NoticePrintFile.id).where(NoticePrintFile.storage_key == key,
                                         NoticePrintFile.created_at >= cutoff),
        select(DemandDocument.id).where(DemandDocument.storage_key == key),
        select(ExemptionEvidence.id).where(ExemptionEvidence.sha256 == key),
        select(RollImport.id).where(RollImport.sha256 == key)))


def delete_print_files(database: Database, day: date, *, days: int | None = None,
                       store: storage.Store | None = None) -> dict[str, int]:
    """Delete the PDFs of the print files made `days` or more days before `day` (Puerto
    Rico days); {"deleted": n, "kept": m} (kept: the key is named by another record)."""
    days = print_file_days() if days is None else days
    if days <= 0:
        return {"deleted": 0, "kept": 0}
    store = store or storage.store()
    # made on a Puerto Rico day D: deleted from day D + days on (before the start of the day
    # after D)
    cutoff = datetime.combine(day - timedelta(days=days - 1), time.min, tzinfo=clock.PR_TZ)
    deleted = kept = 0
    with UnitOfWork(database) as w:
        old = w.session.execute(select(NoticePrintFile.id, NoticePrintFile.storage_key)
                                .where(NoticePrintFile.created_at < cutoff)
                                .order_by(NoticePrintFile.id)).all()
    for file_id, key in old:
        if not store.exists(key):
            continue
        with UnitOfWork(database) as w:
            if _kept_elsewhere(w, key, cutoff):
                kept += 1
                continue
            audit.record(w, None, "print_file.deleted", object_type="notice_print_files",
                         object_id=file_id, after={"days": days})
            store.delete(key)  # inside the unit of work: no record without the deletion
        deleted += 1
    return {"deleted": deleted, "kept": kept}


def run(database: Database, day: date) -> dict[str, int]:
    """The daily task."""
    return delete_print_files(database, day)


__all__ = ["DEFAULT_PRINT_FILE_DAYS", "NAME", "PrintFileDeleted", "delete_print_files",
           "print_file_days", "run"]
