"""The sandbox's sessions and SetupIntents in the portal's database (so every worker sees
them)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from portal.db import Database
from portal.models.autopay import SandboxSetup
from portal.models.checkouts import SandboxSession
from portal.payments.gateway import SandboxRecord, SandboxSetupRecord

_FIELDS = ("id", "idempotency_key", "amount", "currency", "locale", "description",
           "success_url", "cancel_url", "created_at", "status", "payment_status", "method",
           "last4", "bank_name", "payment_intent", "intent_status", "refunded")


def _record(row: SandboxSession) -> SandboxRecord:
    values = {f: getattr(row, f) for f in _FIELDS}
    return SandboxRecord(payment_id=row.payment_ref, metadata=dict(row.meta or {}), **values)


class DatabaseSandboxStore:
    """`SandboxStore` on the `sandbox_sessions` table; each call is its own transaction, as a
    provider's state is independent of ours."""

    def __init__(self, database: Database):
        self.database = database

    def _one(self, **where: str) -> SandboxRecord | None:
        with self.database.unit_of_work() as uow:
            stmt = select(SandboxSession)
            for k, v in where.items():
                stmt = stmt.where(getattr(SandboxSession, k) == v)
            row = uow.session.scalar(stmt)
            return _record(row) if row is not None else None

    def by_key(self, idempotency_key: str) -> SandboxRecord | None:
        return self._one(idempotency_key=idempotency_key)

    def get(self, session_id: str) -> SandboxRecord | None:
        return self._one(id=session_id)

    def by_intent(self, payment_intent: str) -> SandboxRecord | None:
        return self._one(payment_intent=payment_intent)

    def add(self, record: SandboxRecord) -> SandboxRecord:
        try:
            with self.database.unit_of_work() as uow:
                values = {f: getattr(record, f) for f in _FIELDS if f != "created_at"}
                uow.session.add(SandboxSession(payment_ref=record.payment_id,
                                               meta=dict(record.metadata), **values))
        except IntegrityError:
            pass  # the same key at the same time: the first one stands
        found = self.by_key(record.idempotency_key)
        assert found is not None
        return found

    def save(self, record: SandboxRecord) -> None:
        with self.database.unit_of_work() as uow:
            row = uow.session.get(SandboxSession, record.id, with_for_update=True)
            if row is None:
                raise LookupError(record.id)
            if row.payment_intent and record.payment_intent != row.payment_intent:
                return  # completed twice at once (two clicks): the first completion stands
            for f in ("status", "payment_status", "method", "last4", "bank_name",
                      "payment_intent", "intent_status", "refunded"):
                setattr(row, f, getattr(record, f))


_SETUP_FIELDS = ("id", "idempotency_key", "customer_id", "reference", "locale", "success_url",
                 "cancel_url", "status", "method_id", "method", "last4", "bank_name",
                 "detached")


class DatabaseSetupStore:
    """`SetupStore` on the `sandbox_setups` table (the sandbox's SetupIntents); each call is
    its own transaction, as a provider's state is independent of ours."""

    def __init__(self, database: Database):
        self.database = database

    def _one(self, **where: str) -> SandboxSetupRecord | None:
        with self.database.unit_of_work() as uow:
            stmt = select(SandboxSetup)
            for k, v in where.items():
                stmt = stmt.where(getattr(SandboxSetup, k) == v)
            row = uow.session.scalar(stmt)
            if row is None:
                return None
            return SandboxSetupRecord(**{f: getattr(row, f) for f in _SETUP_FIELDS})

    def by_key(self, idempotency_key: str) -> SandboxSetupRecord | None:
        return self._one(idempotency_key=idempotency_key)

    def get(self, setup_id: str) -> SandboxSetupRecord | None:
        return self._one(id=setup_id)

    def by_method(self, method_id: str) -> SandboxSetupRecord | None:
        return self._one(method_id=method_id)

    def add(self, record: SandboxSetupRecord) -> SandboxSetupRecord:
        try:
            with self.database.unit_of_work() as uow:
                uow.session.add(SandboxSetup(**{f: getattr(record, f) for f in _SETUP_FIELDS}))
        except IntegrityError:
            pass  # the same key at the same time: the first one stands
        found = self.by_key(record.idempotency_key)
        assert found is not None
        return found

    def save(self, record: SandboxSetupRecord) -> None:
        with self.database.unit_of_work() as uow:
            row = uow.session.get(SandboxSetup, record.id, with_for_update=True)
            if row is None:
                raise LookupError(record.id)
            if row.method_id and record.method_id != row.method_id:
                return  # completed twice at once: the first completion stands
            for f in ("status", "method_id", "method", "last4", "bank_name", "detached"):
                setattr(row, f, getattr(record, f))
