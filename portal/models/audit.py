"""The audit log (DESIGN.md 6): who did what to which object, with before and after."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from portal.models.base import AppendOnly, Base, created_at


class AuditRecord(AppendOnly, Base):
    """One staff action or money movement (append-only)."""

    __tablename__ = "audit_log"
    __table_args__ = (Index("ix_audit_log_object", "object_type", "object_id"),)

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    at: Mapped[datetime] = created_at("When it happened (UTC)")
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True,
                                                 comment="Who did it (null: the system)")
    action: Mapped[str] = mapped_column(String(64), comment="What, as a code: payment.posted")
    object_type: Mapped[str] = mapped_column(String(40), comment="Table of the object")
    object_id: Mapped[str] = mapped_column(String(40), comment="Key of the object")
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON, comment="State before")
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON, comment="State after")
    ip: Mapped[str | None] = mapped_column(String(45), comment="Client address, if known")
