"""Staff read the audit log (docs/STAFF.md): search and filter it by who (the actor's email),
what (the action's code or its beginning: `payment.`), when (Puerto Rico dates, both
included) and which object (its table and key: `parcels` 12, `users` 7), newest first.
Only staff may read it (`access.require_staff`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any, NamedTuple

from sqlalchemy import Select, select

from portal import clock
from portal.accounts import access
from portal.db import UnitOfWork
from portal.models.audit import AuditRecord
from portal.models.users import User

#: The most records a page shows; an export writes at most EXPORT_MAX.
PAGE_MAX = 200
EXPORT_MAX = 100_000


@dataclass(frozen=True)
class Filters:
    who: str = ""
    action: str = ""
    object_type: str = ""
    object_id: str = ""
    since: date | None = None
    until: date | None = None


class Entry(NamedTuple):
    """A record: when, who (the actor's email), what, on which object, from where, and its
    details (`after`: what the CSV writes; None on the page's list, `search`)."""

    at: datetime
    who: str | None
    action: str
    object_type: str
    object_id: str
    ip: str | None
    after: dict[str, Any] | None


def _query(filters: Filters, columns: tuple[Any, ...] = (AuditRecord, User.email)) -> Select:
    q = (select(*columns).outerjoin(User, User.id == AuditRecord.actor_id)
         .order_by(AuditRecord.at.desc(), AuditRecord.id.desc()))
    if filters.who.strip():
        q = q.where(User.email.contains(filters.who.strip().lower(), autoescape=True))
    if filters.action.strip():
        q = q.where(AuditRecord.action.startswith(filters.action.strip(), autoescape=True))
    if filters.object_type.strip():
        q = q.where(AuditRecord.object_type == filters.object_type.strip())
    if filters.object_id.strip():
        q = q.where(AuditRecord.object_id == filters.object_id.strip())
    if filters.since is not None:
        q = q.where(AuditRecord.at >= datetime.combine(filters.since, time.min, clock.PR_TZ))
    if filters.until is not None:
        end = datetime.combine(filters.until + timedelta(days=1), time.min, clock.PR_TZ)
        q = q.where(AuditRecord.at < end)
    return q


def _entry(record: AuditRecord, email: str | None) -> Entry:
    return Entry(record.at, email, record.action, record.object_type, record.object_id,
                 record.ip, record.after)


def search(uow: UnitOfWork, staff: Any, filters: Filters, *, limit: int = PAGE_MAX
           ) -> list[Entry]:
    """The newest `limit` records the filters select, as the page lists them: read as rows
    of the columns it shows, not as ORM objects with their JSON details decoded (`after`
    is None here; the CSV's `export` has it)."""
    access.require_staff(staff)
    rows = uow.connection().execute(_query(filters, _LISTED).limit(limit))
    return [Entry(*row, None) for row in rows]


_LISTED = (AuditRecord.at, User.email, AuditRecord.action, AuditRecord.object_type,
           AuditRecord.object_id, AuditRecord.ip)


def export(uow: UnitOfWork, staff: Any, filters: Filters) -> Iterator[Entry]:
    """Every record the filters select (at most EXPORT_MAX), streamed."""
    access.require_staff(staff)
    rows = uow.session.execute(_query(filters).limit(EXPORT_MAX).execution_options(
        yield_per=1000))
    for record, email in rows:
        yield _entry(record, email)
