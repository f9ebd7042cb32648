"""The declarative base, shared column types and the ORM guards (DESIGN.md 1, 3).

- `Base.metadata` carries a naming convention, so every constraint and index has a stable
  name the migrations can refer to on SQLite and PostgreSQL alike.
- Money is `Numeric(14, 2)` mapped to `Decimal` (`money()`), never float.
- Instants are `UTCDateTime`: aware UTC datetimes in Python (SQLite hands back naive values,
  which are UTC by construction), `TIMESTAMP WITH TIME ZONE` on PostgreSQL.
- The guard: rows of an `AppendOnly` table are never updated or deleted through the ORM;
  a model may also declare `__immutable__` columns and a `_check_update(changes)` hook (the
  payment state machine, adopted budget versions). Corrections are new rows.
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, ClassVar

from sqlalchemy import DateTime, MetaData, Numeric, event, inspect
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from sqlalchemy.types import TypeDecorator

from portal import clock

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator[datetime]):
    """An instant: stored in UTC, always returned aware (UTC). Naive input is refused."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("instants must be timezone-aware (use portal.clock.now())")
        value = value.astimezone(UTC)
        if dialect.name == "sqlite":
            return value.replace(tzinfo=None)
        return value

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


MONEY = Numeric(14, 2, asdecimal=True)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {datetime: UTCDateTime(), Decimal: MONEY}


def money(comment: str, *, nullable: bool = False, default: Decimal | None = None) -> Any:
    """A money column: NUMERIC(14, 2) as Decimal, with its one-line description."""
    kwargs: dict[str, Any] = {}
    if default is not None:
        kwargs["default"] = default
    return mapped_column(Numeric(14, 2), nullable=nullable, comment=comment, **kwargs)


def created_at(comment: str = "When the row was written (UTC)") -> Mapped[datetime]:
    return mapped_column(UTCDateTime(), default=clock.now, nullable=False, comment=comment)


class ImmutableRowError(RuntimeError):
    """An attempt to update or delete a fact. `code` is stable for the web layer."""

    code = "immutable_row"

    def __init__(self, table: str, operation: str, detail: str = ""):
        super().__init__(f"{table}: {operation} refused" + (f" ({detail})" if detail else ""))
        self.table = table
        self.operation = operation
        self.detail = detail


class AppendOnly:
    """Mixin: rows of this table are facts; the ORM refuses to update or delete them."""

    __append_only__ = True


def _changes(obj: Any) -> dict[str, tuple[Any, Any]]:
    """{attribute: (old, new)} for the column attributes of a persistent object that changed."""
    state = inspect(obj)
    out: dict[str, tuple[Any, Any]] = {}
    for attr in state.mapper.column_attrs:
        hist = state.attrs[attr.key].history
        if hist.has_changes():
            old = hist.deleted[0] if hist.deleted else None
            new = hist.added[0] if hist.added else None
            if old != new:
                out[attr.key] = (old, new)
    return out


@event.listens_for(Session, "before_flush")
def _guard(session: Session, _ctx: Any, _instances: Any) -> None:
    for obj in session.deleted:
        if getattr(obj, "__append_only__", False):
            raise ImmutableRowError(obj.__tablename__, "delete")
        check = getattr(obj, "_check_delete", None)
        if check is not None:
            check()
    for obj in session.dirty:
        if not session.is_modified(obj, include_collections=False):
            continue
        changes = _changes(obj)
        if not changes:
            continue
        table = obj.__tablename__
        if getattr(obj, "__append_only__", False):
            raise ImmutableRowError(table, "update", ", ".join(sorted(changes)))
        frozen = set(getattr(obj, "__immutable__", ())) & set(changes)
        if frozen:
            raise ImmutableRowError(table, "update", ", ".join(sorted(frozen)))
        check = getattr(obj, "_check_update", None)
        if check is not None:
            check(changes)
    for obj in session.new:
        check = getattr(obj, "_check_insert", None)
        if check is not None:
            check(session)
