"""The audit log (DESIGN.md 6): every staff action and every money movement writes a record."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import inspect

from portal.db import UnitOfWork
from portal.models import AuditRecord


def _json(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_json(v) for v in value]
    return value


def snapshot(obj: Any, fields: Iterable[str] | None = None,
             exclude: Iterable[str] = ("password_hash", "totp_secret", "code_hash")) -> dict:
    """The JSON-safe column values of a model object (secrets left out)."""
    mapper = inspect(type(obj))
    names = list(fields) if fields is not None else [a.key for a in mapper.column_attrs]
    skip = set(exclude)
    return {n: _json(getattr(obj, n)) for n in names if n not in skip}


def _actor_id(actor: Any) -> int | None:
    if actor is None:
        return None
    if isinstance(actor, int):
        return actor
    return getattr(actor, "id", None)


def record(uow: UnitOfWork, actor: Any, action: str, obj: Any = None, *,
           object_type: str | None = None, object_id: Any = None,
           before: dict | None = None, after: dict | None = None) -> AuditRecord:
    """Append one audit record: who (`actor`: a user, an id or None for the system), what
    (`action`, a code such as "payment.posted"), to which object, before and after."""
    if obj is not None:
        object_type = object_type or obj.__tablename__
        if object_id is None:
            object_id = getattr(obj, "id", None)
    row = AuditRecord(actor_id=_actor_id(actor), action=action,
                      object_type=object_type or "", object_id=str(object_id or ""),
                      before=_json(before) if before is not None else None,
                      after=_json(after) if after is not None else None,
                      ip=uow.info.get("ip"))
    uow.session.add(row)
    return row


def bulk(uow: UnitOfWork, actor: Any, action: str, object_type: str,
         items: Iterable[tuple[Any, dict | None]]) -> int:
    """Many records at once (a batch): items are (object_id, after)."""
    from sqlalchemy import insert

    from portal import clock

    now = clock.now()
    rows = [{"actor_id": _actor_id(actor), "action": action, "object_type": object_type,
             "object_id": str(oid), "before": None,
             "after": _json(after) if after is not None else None, "ip": uow.info.get("ip"),
             "at": now}
            for oid, after in items]
    if rows:
        uow.session.execute(insert(AuditRecord), rows)
    return len(rows)
