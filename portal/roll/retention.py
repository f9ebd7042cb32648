"""The file store's retention policy (docs/OPERATIONS.md "Retention"):

- the notices' print files hold the new access codes in plain text, so their PDFs are deleted
  from the store `RETENTION_PRINT_FILE_DAYS` days after they were made (the mailing house has
  printed them by then; default 60, 0 keeps them). The `NoticePrintFile` row stays
  (append-only: how many notices and codes it held), its PDF is gone, and an audit record
  `print_file.deleted` says when; an administrator who asks for it is told so
  (`PrintFileDeleted`);
- evidence an owner removed from a certification (before filing, or from a returned one
  before resubmitting it: replaced by other files) is read by no one from then on, yet it is
  personal data (deeds, bills, identity documents). Its file is deleted
  `RETENTION_REMOVED_EVIDENCE_DAYS` days after the certification's first decision after the
  removal (approved, returned again, or withdrawn: the review that the removal could
  concern is over; default 90, 0 keeps them). The `ExemptionEvidence` row stays (its name,
  size and hash), and an audit record `exemption.evidence_deleted` names it. Evidence of a
  certification still waiting for its decision is kept, however long ago it was removed.

A daily task (`portal.jobs.daily`, registered in `portal.domains` as "retention"): the
worker calls it each hour, and it is idempotent (a file already gone is not deleted or
recorded again). The store is content-addressed, so a key another record still names (a
newer print file, a demand document, evidence, a roll import) is kept.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any

from sqlalchemy import String, cast, exists, func, select

from portal import clock, config, storage
from portal.accounts import audit
from portal.accounts.errors import NotFound
from portal.db import Database, UnitOfWork
from portal.models import NoticePrintFile
from portal.models.audit import AuditRecord
from portal.models.collections import DemandDocument
from portal.models.exemptions import ExemptionEvent, ExemptionEvidence
from portal.models.roll_imports import RollImport
from portal.operations import settings as operations_settings

NAME = "retention"
DEFAULT_PRINT_FILE_DAYS = 60
DEFAULT_REMOVED_EVIDENCE_DAYS = 90
#: The decisions after which a removed file is no longer needed (the review is over).
DECIDED = ("approved", "returned", "withdrawn")
EVIDENCE_DELETED = "exemption.evidence_deleted"


class PrintFileDeleted(NotFound):
    """The print file's PDF was deleted under the retention policy."""

    code = "print_file_deleted"


def _days(name: str, default: int, env: Any = None) -> int:
    raw = str(config.settings(env, with_key=False).get(name) or "")
    if not raw.strip():
        return default
    days = getattr(operations_settings.load({name: raw}), name)
    return default if days is None else days


def print_file_days(env: Any = None) -> int:
    """RETENTION_PRINT_FILE_DAYS (a whole number of days; 0: never delete; unset: 60). A
    malformed value raises `ConfigurationError` (the web app and the worker refuse to start
    on it: `portal.operations.settings`), never a silent 60."""
    return _days("RETENTION_PRINT_FILE_DAYS", DEFAULT_PRINT_FILE_DAYS, env)


def removed_evidence_days(env: Any = None) -> int:
    """RETENTION_REMOVED_EVIDENCE_DAYS (whole days after the decision; 0: never delete;
    unset: 90); malformed: `ConfigurationError`, as `print_file_days`."""
    return _days("RETENTION_REMOVED_EVIDENCE_DAYS", DEFAULT_REMOVED_EVIDENCE_DAYS, env)


def _kept_elsewhere(uow: UnitOfWork, key: str, cutoff: datetime | None, *,
                   evidence: bool = True) -> bool:
    """Whether another record names `key`: a print file made from `cutoff` on (None: any),
    a demand document, evidence (unless `evidence` is False: the caller asks itself), a roll
    import."""
    s = uow.session
    printed = select(NoticePrintFile.id).where(NoticePrintFile.storage_key == key)
    queries = [
        printed if cutoff is None else printed.where(NoticePrintFile.created_at >= cutoff),
        select(DemandDocument.id).where(DemandDocument.storage_key == key),
        select(RollImport.id).where(RollImport.sha256 == key)]
    if evidence:
        queries.append(select(ExemptionEvidence.id).where(ExemptionEvidence.sha256 == key))
    return any(s.scalar(q.limit(1)) is not None for q in queries)


def delete_print_files(database: Database, day: date, *, days: int | None = None,
                       store: storage.Store | None = None) -> dict[str, int]:
    """Delete the PDFs of the print files made `days` or more days before `day` (Puerto
    Rico days); {"deleted": n, "kept": m} (kept: the key is named by another record)."""
    days = print_file_days() if days is None else days
    if days <= 0:
        return {"deleted": 0, "kept": 0}
    store = store or storage.store()
    cutoff = _cutoff(day, days)
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


def _cutoff(day: date, days: int) -> datetime:
    """Made (or decided) on a Puerto Rico day D: due from day D + `days` on, i.e. before the
    start of the day after D."""
    return datetime.combine(day - timedelta(days=days - 1), time.min, tzinfo=clock.PR_TZ)


def _decided_after_removal() -> Any:
    """The first decision on the evidence's certification at or after its removal."""
    e = ExemptionEvent
    return (select(func.min(e.created_at))
            .where(e.certification_id == ExemptionEvidence.certification_id,
                   e.to_status.in_(DECIDED), e.created_at >= ExemptionEvidence.removed_at)
            .correlate(ExemptionEvidence).scalar_subquery())


def delete_removed_evidence(database: Database, day: date, *, days: int | None = None,
                            store: storage.Store | None = None) -> dict[str, int]:
    """Delete the files of the evidence removed by its owner whose certification was decided
    after the removal `days` or more Puerto Rico days before `day`;
    {"evidence_deleted": n, "evidence_kept": m} (kept: the same bytes are named by a record
    still in use: other evidence, a print file, a demand, a roll import)."""
    days = removed_evidence_days() if days is None else days
    if days <= 0:
        return {"evidence_deleted": 0, "evidence_kept": 0}
    store = store or storage.store()
    decided = _decided_after_removal()
    done = exists().where(AuditRecord.action == EVIDENCE_DELETED,
                          AuditRecord.object_type == ExemptionEvidence.__tablename__,
                          AuditRecord.object_id == cast(ExemptionEvidence.id, String))
    with UnitOfWork(database) as w:
        due = w.session.execute(
            select(ExemptionEvidence.id, ExemptionEvidence.sha256, decided.label("decided"))
            .where(ExemptionEvidence.removed_at.is_not(None), decided < _cutoff(day, days),
                   ~done).order_by(ExemptionEvidence.id)).all()
    ids = {r.id for r in due}
    deleted = kept = 0
    for evidence_id, key, decided_at in due:
        with UnitOfWork(database) as w:
            s = w.session
            named = s.scalar(select(ExemptionEvidence.id).where(
                ExemptionEvidence.sha256 == key, ExemptionEvidence.id.not_in(ids)).limit(1))
            if named is not None or _kept_elsewhere(w, key, None, evidence=False):
                kept += 1
                continue
            audit.record(w, None, EVIDENCE_DELETED, object_type=ExemptionEvidence.__tablename__,
                         object_id=evidence_id,
                         after={"days": days, "decided_at": decided_at.isoformat()})
            if store.exists(key):  # the same bytes removed twice: one deletion
                store.delete(key)  # inside the unit of work: no record without the deletion
        deleted += 1
    return {"evidence_deleted": deleted, "evidence_kept": kept}


def run(database: Database, day: date) -> dict[str, int]:
    """The daily task: both policies."""
    return {**delete_print_files(database, day), **delete_removed_evidence(database, day)}


__all__ = ["DECIDED", "DEFAULT_PRINT_FILE_DAYS", "DEFAULT_REMOVED_EVIDENCE_DAYS",
           "EVIDENCE_DELETED", "NAME", "PrintFileDeleted", "delete_print_files",
           "delete_removed_evidence", "print_file_days", "removed_evidence_days", "run"]
