"""Staff: the mail outbox as a queue (docs/MAIL.md): how many messages are pending, sent and
failed, the latest of each with the relay's reason, and a failed one queued again (audited).
The sending itself is `portal.outbox`, run by the worker (`jobs.queue`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import func, select

from portal import mail, outbox
from portal.accounts import access, audit
from portal.accounts.errors import Conflict, NotFound
from portal.db import UnitOfWork
from portal.models import OutboxMessage
from portal.models.outbox import OUTBOX_STATUSES


def counts(uow: UnitOfWork, user: Any) -> dict[str, int]:
    """{status: how many} for pending, sent and failed (staff)."""
    access.require_staff(user)
    found = dict(uow.session.execute(select(OutboxMessage.status, func.count())
                                     .group_by(OutboxMessage.status)).all())
    return {s: int(found.get(s, 0)) for s in OUTBOX_STATUSES}


def latest(uow: UnitOfWork, user: Any, status: str, limit: int = 50) -> list[OutboxMessage]:
    """The latest messages in `status`, newest first (staff; an unknown status: none)."""
    access.require_staff(user)
    if status not in OUTBOX_STATUSES:
        return []
    return list(uow.session.scalars(select(OutboxMessage)
                                    .where(OutboxMessage.status == status)
                                    .order_by(OutboxMessage.id.desc()).limit(limit)))


def retry(uow: UnitOfWork, user: Any, message_id: int,
          config: Mapping[str, Any] | None = None) -> OutboxMessage:
    """Queue a failed message again (staff): NotFound for an unknown id, Conflict when it
    is not failed (pending or sent: nothing changes). `config`: the mail settings (the
    worker is told once this commits, `mail.after_commit`)."""
    access.require_staff(user)
    row = uow.session.get(OutboxMessage, int(message_id))
    if row is None:
        raise NotFound()
    reason = row.last_error
    if not outbox.retry_in(uow, row.id):
        raise Conflict("not_failed")
    mail.after_commit(uow, config)
    audit.record(uow, user, "mail.retried", row,
                 before={"status": "failed", "error": reason},
                 after={"status": "pending", "to": row.recipient, "template": row.template})
    return row
