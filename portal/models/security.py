"""Sign-in security: server-side web sessions, staff's second factor (recovery codes) and the
sign-in throttle's counters, shared by every web worker (they live in the database)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from portal.models.base import Base, UTCDateTime, created_at


class WebSession(Base):
    """One signed-in browser. The cookie carries only a random token; the row is found by
    its hash, so a copied database reveals no usable cookie. Deleting a user's rows ends
    their sessions everywhere (sign-out, password change or reset, "sign out other
    devices")."""

    __tablename__ = "web_sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True,
                                    comment="SHA-256 of the cookie's token, hex")
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True,
                                                comment="The user signed in (null: none)")
    data: Mapped[str] = mapped_column(Text, default="{}", comment="The session's data, JSON")
    created_at: Mapped[datetime] = created_at()
    last_seen_at: Mapped[datetime] = mapped_column(
        UTCDateTime(), comment="Last request (UTC): the idle timeout counts from it")
    expires_at: Mapped[datetime] = mapped_column(
        UTCDateTime(), index=True, comment="Absolute end of the session (UTC)")
    address: Mapped[str] = mapped_column(String(45), default="",
                                         comment="The address it was opened from")
    user_agent: Mapped[str] = mapped_column(String(200), default="",
                                            comment="The browser it was opened from")


class RecoveryCode(Base):
    """One of a user's single-use recovery codes for two-factor sign-in, stored hashed."""

    __tablename__ = "recovery_codes"

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True,
                                         comment="Whose code")
    code_hash: Mapped[str] = mapped_column(String(255), comment="The code's hash")
    created_at: Mapped[datetime] = created_at()
    used_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When it was used (null: still usable)")


class ThrottleHit(Base):
    """A throttle's counter for one key (e.g. "signin:account:<id>", "signin:ip:<address>")
    in one time window; every web worker reads and writes the same rows."""

    __tablename__ = "throttle_hits"

    key: Mapped[str] = mapped_column(String(200), primary_key=True,
                                     comment="What is counted: the limit and who")
    window_start: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False,
                                        comment="Window start, seconds since the epoch")
    hits: Mapped[int] = mapped_column(Integer, default=0, comment="Hits in the window")
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True,
                                                 comment="When the row may be deleted (UTC)")
