"""Who may see a parcel: claim links, invitations, access codes and the claim attempts (rate
limiting)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    ForeignKey,
    Index,
    Integer,
    String,
    false,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from portal.models.base import AppendOnly, Base, UTCDateTime, created_at

LINK_ROLES = ("owner", "lessee", "delegate")
LINK_SOURCES = ("code", "grant", "staff")


class ParcelLink(Base):
    """A user's access to a parcel: claimed with a code, granted by an owner, or by staff."""

    __tablename__ = "parcel_links"
    __immutable__ = ("user_id", "parcel_id", "role", "source", "granted_by_id", "created_at",
                     "may_pay")
    __table_args__ = (
        CheckConstraint("role IN ('owner', 'lessee', 'delegate')", name="role"),
        CheckConstraint("source IN ('code', 'grant', 'staff')", name="source"),
        # One live link per user and parcel; revoked ones stay as history.
        Index("uq_parcel_links_live", "user_id", "parcel_id", unique=True,
              sqlite_where=text("revoked_at IS NULL"),
              postgresql_where=text("revoked_at IS NULL")),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True,
                                         comment="The user who may see the parcel")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), index=True,
                                           comment="The parcel")
    role: Mapped[str] = mapped_column(String(10),
                                      comment="owner, lessee or delegate (read access granted)")
    may_pay: Mapped[bool] = mapped_column(
        Boolean, default=False, server_default=false(),
        comment="A delegate the owner allows to pay the parcel online too")
    source: Mapped[str] = mapped_column(String(8),
                                        comment="code (claimed), grant (by an owner) or staff")
    granted_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id"), comment="Who granted it (null when claimed with a code)")
    created_at: Mapped[datetime] = created_at()
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime(),
                                                        comment="When access ended")
    revoked_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"),
                                                      comment="Who revoked it")


class AccessCode(Base):
    """The code printed on a parcel's notice; only its hash is kept. Rotating revokes it."""

    __tablename__ = "access_codes"
    __immutable__ = ("parcel_id", "code_hash", "issued_by_id", "issued_at")
    __table_args__ = (CheckConstraint("failed_attempts >= 0", name="failed_attempts"),)

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), index=True,
                                           comment="The parcel the code opens")
    code_hash: Mapped[str] = mapped_column(String(200),
                                           comment="scrypt hash of the normalised code")
    issued_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"),
                                                     comment="Staff who issued it")
    issued_at: Mapped[datetime] = created_at("When it was issued (UTC)")
    revoked_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When it was rotated or withdrawn")
    failed_attempts: Mapped[int] = mapped_column(Integer, default=0,
                                                 comment="Wrong codes tried for this parcel")
    last_used_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="Last successful claim with it")


class ClaimAttempt(AppendOnly, Base):
    """One attempt to claim a parcel (for the rate limit and the audit of guesses)."""

    __tablename__ = "claim_attempts"

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True,
                                         comment="Who tried")
    parcel_id: Mapped[int | None] = mapped_column(
        ForeignKey("parcels.id"), index=True, comment="The parcel, when the catastro matched")
    catastro: Mapped[str] = mapped_column(String(40), comment="The catastro number as typed")
    succeeded: Mapped[bool] = mapped_column(Boolean, comment="Whether the code was right")
    at: Mapped[datetime] = created_at("When it was tried (UTC)")
    ip: Mapped[str | None] = mapped_column(String(45), comment="Client address, if known")


class ParcelInvitation(Base):
    """Read access an owner gave to an email no account uses yet: it becomes a `ParcelLink`
    when an account with that email confirms it. The owner's list shows it like any other
    access (no account enumeration)."""

    __tablename__ = "parcel_invitations"
    __immutable__ = ("parcel_id", "email", "role", "granted_by_id", "created_at", "may_pay")
    __table_args__ = (
        CheckConstraint("role IN ('lessee', 'delegate')", name="role"),
        # One open invitation per email and parcel; accepted or revoked ones stay as history.
        Index("uq_parcel_invitations_open", "email", "parcel_id", unique=True,
              sqlite_where=text("accepted_at IS NULL AND revoked_at IS NULL"),
              postgresql_where=text("accepted_at IS NULL AND revoked_at IS NULL")),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), index=True,
                                           comment="The parcel")
    email: Mapped[str] = mapped_column(String(254), index=True,
                                       comment="The invited email, normalised")
    role: Mapped[str] = mapped_column(String(10), comment="delegate or lessee")
    may_pay: Mapped[bool] = mapped_column(
        Boolean, default=False, server_default=false(),
        comment="The delegate invited may pay the parcel online too")
    granted_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"),
                                               comment="Who gave the access")
    created_at: Mapped[datetime] = created_at()
    accepted_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When an account with the email confirmed it")
    link_id: Mapped[int | None] = mapped_column(ForeignKey("parcel_links.id"),
                                                comment="The link it became")
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime(),
                                                        comment="When it was withdrawn")
    revoked_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"),
                                                      comment="Who withdrew it")
