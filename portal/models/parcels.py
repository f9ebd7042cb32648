"""Parcels of the District, who owns them (shares) and who leases them (R-A2, R-A14, R-A16)."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import Boolean, CheckConstraint, Date, ForeignKey, Numeric, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from portal.models.base import Base, created_at, money

ZONES = ("urban", "suburban", "rural")
OWNER_KINDS = ("private", "authority", "public")
SHARE_KINDS = ("sole", "co_owner", "spouse")


class Parcel(Base):
    """A parcel of land in the District, as the catastro (CRIM) identifies it."""

    __tablename__ = "parcels"
    __table_args__ = (
        CheckConstraint("zone IN ('urban', 'suburban', 'rural')", name="zone"),
        CheckConstraint("owner_kind IN ('private', 'authority', 'public')", name="owner_kind"),
        CheckConstraint("land_area_cuerdas >= 0", name="land_area"),
        CheckConstraint("land_valuation >= 0", name="land_valuation"),
        CheckConstraint("structure_valuation >= 0", name="structure_valuation"),
        CheckConstraint("benefit_units >= 0", name="benefit_units"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    catastro: Mapped[str] = mapped_column(String(32), unique=True,
                                          comment="Catastro number (CRIM), e.g. 040-012-345-67")
    address: Mapped[str] = mapped_column(String(300), comment="Street address")
    municipality: Mapped[str] = mapped_column(String(60), comment="Municipality, e.g. San Juan")
    zone: Mapped[str] = mapped_column(String(10), default="urban",
                                      comment="urban, suburban or rural (R-B2 lot rule)")
    land_area_cuerdas: Mapped[Decimal] = mapped_column(
        Numeric(12, 6), default=Decimal(0), comment="Land area in cuerdas (3,930.395625 m2)")
    land_valuation: Mapped[Decimal] = money("Assessed valuation of the land",
                                            default=Decimal(0))
    structure_valuation: Mapped[Decimal] = money("Assessed valuation of the structures",
                                                 default=Decimal(0))
    owner_kind: Mapped[str] = mapped_column(
        String(10), default="private", comment="private, authority or public owner (R-A2)")
    transferred: Mapped[bool] = mapped_column(
        Boolean, default=False,
        comment="Public land sold, leased or transferred as a private parcel (R-A2)")
    tax_incentive_exempt: Mapped[bool] = mapped_column(
        Boolean, default=False,
        comment="Property-tax exempt under an incentives program; still assessed (R-A2)")
    benefit_units: Mapped[Decimal] = mapped_column(
        Numeric(14, 4), default=Decimal(0), comment="Benefit units the Board assigned (R-A3)")
    created_at: Mapped[datetime] = created_at()

    shares: Mapped[list[OwnershipShare]] = relationship(back_populates="parcel")
    leases: Mapped[list[Lease]] = relationship(back_populates="parcel")

    def __repr__(self) -> str:
        return f"<Parcel {self.id} {self.catastro}>"


class OwnershipShare(Base):
    """A party's share of a parcel over a period (co-owners, spouses, a sole owner)."""

    __tablename__ = "ownership_shares"
    __table_args__ = (
        CheckConstraint("share > 0 AND share <= 1", name="share"),
        CheckConstraint("kind IN ('sole', 'co_owner', 'spouse')", name="kind"),
        CheckConstraint("ends_on IS NULL OR ends_on >= starts_on", name="period"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), index=True,
                                           comment="The parcel owned")
    party_id: Mapped[int] = mapped_column(ForeignKey("parties.id"), index=True,
                                          comment="The owner")
    share: Mapped[Decimal] = mapped_column(Numeric(7, 6), comment="Fraction owned, 0 < share <= 1")
    kind: Mapped[str] = mapped_column(String(10), default="sole",
                                      comment="sole, co_owner or spouse (marital community)")
    starts_on: Mapped[date] = mapped_column(Date, comment="First day of ownership")
    ends_on: Mapped[date | None] = mapped_column(Date, comment="Last day of ownership, if ended")
    created_at: Mapped[datetime] = created_at()

    parcel: Mapped[Parcel] = relationship(back_populates="shares")


class Lease(Base):
    """A lease of a parcel (often an Authority parcel) to a lessee party (R-A16)."""

    __tablename__ = "leases"
    __table_args__ = (
        CheckConstraint("ends_on IS NULL OR ends_on >= starts_on", name="period"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), index=True,
                                           comment="The parcel leased")
    lessee_party_id: Mapped[int] = mapped_column(ForeignKey("parties.id"), index=True,
                                                 comment="The lessee")
    lessee_pays: Mapped[bool] = mapped_column(
        Boolean, default=True, comment="The lease makes the lessee pay the assessment (R-A16)")
    contract_number: Mapped[str | None] = mapped_column(String(40),
                                                        comment="The lease contract's number")
    starts_on: Mapped[date] = mapped_column(Date, comment="First day of the lease")
    ends_on: Mapped[date | None] = mapped_column(Date, comment="Last day of the lease, if set")
    created_at: Mapped[datetime] = created_at()

    parcel: Mapped[Parcel] = relationship(back_populates="leases")
    deposit_orders: Mapped[list[DepositOrder]] = relationship(back_populates="lease")


class DepositOrder(Base):
    """R-A14: a court orders the lessee to deposit rents and proceeds until the debt is paid."""

    __tablename__ = "deposit_orders"
    __table_args__ = (
        CheckConstraint("lifted_on IS NULL OR lifted_on >= ordered_on", name="period"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    lease_id: Mapped[int] = mapped_column(ForeignKey("leases.id"), index=True,
                                          comment="The lease whose lessee must deposit")
    ordered_on: Mapped[date] = mapped_column(Date, comment="Date of the court order")
    court: Mapped[str] = mapped_column(String(120), comment="The court that ordered it")
    case_number: Mapped[str] = mapped_column(String(40), comment="The court case number")
    notes: Mapped[str] = mapped_column(Text, default="", comment="Staff notes")
    lifted_on: Mapped[date | None] = mapped_column(Date, comment="When the order was lifted")
    created_at: Mapped[datetime] = created_at()

    lease: Mapped[Lease] = relationship(back_populates="deposit_orders")
