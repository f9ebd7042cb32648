"""Parties: the people and organisations that own, lease, lend and act for one another."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.models.base import Base, UTCDateTime, created_at

PARTY_KINDS = ("person", "organisation")
MEMBER_ROLES = ("self", "representative", "employee", "administrator")


class Party(Base):
    """A person or an organisation (a company, a lender, the Authority itself)."""

    __tablename__ = "parties"
    __table_args__ = (CheckConstraint("kind IN ('person', 'organisation')", name="kind"),)

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    kind: Mapped[str] = mapped_column(String(12), comment="'person' or 'organisation'")
    name: Mapped[str] = mapped_column(String(200), comment="Full name or registered name")
    email: Mapped[str | None] = mapped_column(String(254), comment="Contact email, if known")
    phone: Mapped[str | None] = mapped_column(String(40), comment="Contact phone, if known")
    mailing_address: Mapped[str | None] = mapped_column(
        Text, comment="Postal address for notices and certified mail")
    language: Mapped[str] = mapped_column(String(2), default="es",
                                          comment="Language for letters: 'es' or 'en'")
    created_at: Mapped[datetime] = created_at()

    members: Mapped[list[PartyMember]] = relationship(back_populates="party")

    def __repr__(self) -> str:
        return f"<Party {self.id} {self.kind} {self.name!r}>"


class PartyMember(Base):
    """Which user acts for which party (the person themself, an employee of a lender, ...)."""

    __tablename__ = "party_members"
    __table_args__ = (
        UniqueConstraint("party_id", "user_id"),
        CheckConstraint("role IN ('self', 'representative', 'employee', 'administrator')",
                        name="role"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    party_id: Mapped[int] = mapped_column(ForeignKey("parties.id"), index=True,
                                          comment="The party acted for")
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True,
                                         comment="The user who acts")
    role: Mapped[str] = mapped_column(String(16),
                                      comment="self, representative, employee or administrator")
    created_at: Mapped[datetime] = created_at()
    revoked_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When the user stopped acting for the party")

    party: Mapped[Party] = relationship(back_populates="members")
