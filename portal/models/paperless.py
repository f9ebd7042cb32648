"""An owner's choice of email instead of paper for a parcel's notices and statements (issue
27 item 5): one row per person and parcel, changed in place (the audit log keeps each
change). The roll's print file leaves a parcel out while one of its notice's addressees has
chosen paperless for it; certified demands are mailed on paper whatever the choice (the law)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from portal.models.base import Base, UTCDateTime, created_at


class PaperlessChoice(Base):
    """A person's paper-or-email choice for one parcel."""

    __tablename__ = "paperless_choices"
    __table_args__ = (UniqueConstraint("user_id", "parcel_id"),)

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True,
                                         comment="The owner (or paying lessee) who chose")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), index=True,
                                           comment="The parcel")
    paperless: Mapped[bool] = mapped_column(Boolean, default=True,
                                            comment="Email instead of paper (false: paper)")
    created_at: Mapped[datetime] = created_at()
    changed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(),
                                                        comment="Last change (UTC)")
