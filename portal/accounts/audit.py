"""The audit log (DESIGN.md 6): every staff action and every money movement writes a record.

Who acted and from which address: the caller's `actor` (a user or an id), else the one acting
now (`acting`: the web layer sets it for each request, with the request's address and its
signed-in user; the provider's webhook acts as "provider"). The address goes in the record's
`ip` column; an actor that is not a user (the provider) is named in `after["actor"]`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Actor:
    """Who is acting now: `kind` "user" (the signed-in user, if any: `user_id` is an id or a
    function giving it, read only when a record is written) or "provider" (a payment
    provider's event); `ip`, the address the request came from."""

    kind: str = "user"
    ip: str | None = None
    user_id: int | Callable[[], int | None] | None = None

    def uid(self) -> int | None:
        value = self.user_id() if callable(self.user_id) else self.user_id
        return int(value) if value is not None else None


_acting: ContextVar[Actor | None] = ContextVar("audit_actor", default=None)


def current_actor() -> Actor | None:
    return _acting.get()


def begin_acting(actor: Actor | None) -> Any:
    """Set who acts now; returns the token `end_acting` takes."""
    return _acting.set(actor)


def end_acting(token: Any) -> None:
    _acting.reset(token)


@contextmanager
def acting(actor: Actor | None) -> Iterator[Actor | None]:
    """`with audit.acting(Actor(...)):` records written inside name that actor."""
    token = begin_acting(actor)
    try:
        yield actor
    finally:
        end_acting(token)


def _actor_id(actor: Any) -> int | None:
    if actor is None:
        return None
    if isinstance(actor, int):
        return actor
    return getattr(actor, "id", None)


def _who(uow: UnitOfWork, actor: Any, after: dict | None) -> tuple[int | None, str | None,
                                                                  dict | None]:
    """(actor id, address, after) for a record: the caller's actor, else the one acting."""
    now = _acting.get()
    actor_id = _actor_id(actor)
    ip = uow.info.get("ip") or (now.ip if now is not None else None)
    if actor_id is None and now is not None:
        if now.kind == "user":
            actor_id = now.uid()
        else:
            after = {**(after or {}), "actor": now.kind}
    return actor_id, ip, after


def record(uow: UnitOfWork, actor: Any, action: str, obj: Any = None, *,
           object_type: str | None = None, object_id: Any = None,
           before: dict | None = None, after: dict | None = None) -> AuditRecord:
    """Append one audit record: who (`actor`: a user, an id, or None for the one acting now,
    else the system), what (`action`, a code such as "payment.posted"), to which object,
    before and after; the address is the unit of work's `info["ip"]` or the one acting's."""
    if obj is not None:
        object_type = object_type or obj.__tablename__
        if object_id is None:
            object_id = getattr(obj, "id", None)
    actor_id, ip, after = _who(uow, actor, after)
    row = AuditRecord(actor_id=actor_id, action=action,
                      object_type=object_type or "", object_id=str(object_id or ""),
                      before=_json(before) if before is not None else None,
                      after=_json(after) if after is not None else None, ip=ip)
    uow.session.add(row)
    return row


def bulk(uow: UnitOfWork, actor: Any, action: str, object_type: str,
         items: Iterable[tuple[Any, dict | None]], *, before: dict | None = None) -> int:
    """Many records at once (a batch): items are (object_id, after); `before`, the same for
    each. Written by `accounts.bulk` (COPY on PostgreSQL)."""
    import json

    from portal import clock
    from portal.accounts import bulk as bulk_rows

    now = clock.now()
    # PostgreSQL's COPY takes the JSON's text; SQLite's path encodes it
    text = uow.session.get_bind().dialect.name == "postgresql"

    def js(value: Any) -> Any:
        if value is None:
            return None
        return json.dumps(_json(value)) if text else _json(value)

    rows = []
    for oid, after in items:
        actor_id, ip, after = _who(uow, actor, after)
        rows.append({"actor_id": actor_id, "action": action, "object_type": object_type,
                     "object_id": str(oid), "before": js(before), "after": js(after),
                     "ip": ip, "at": now})
    if rows:
        bulk_rows.insert_rows(uow, AuditRecord, rows)
    return len(rows)
