"""The assessment notices' deliveries (J8, R-A4, R-A5, R-A16): each email queued to a linked
owner or paying lessee, each notice printed for the mail (with the access code of an
unclaimed parcel), and the print files that hold a batch of printed notices. Facts: written
once, never updated, so the notification job knows what it already did."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, Index, Integer, String, text
from sqlalchemy.orm import Mapped, mapped_column

from portal.models.base import AppendOnly, Base, created_at

DELIVERY_CHANNELS = ("email", "print")


class NoticePrintFile(AppendOnly, Base):
    """One batch of printed assessment notices in one PDF (the mailing), kept in the file
    store by its content hash."""

    __tablename__ = "notice_print_files"
    __table_args__ = (CheckConstraint("notices > 0", name="notices"),)

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    roll_id: Mapped[int] = mapped_column(ForeignKey("assessment_rolls.id"), index=True,
                                         comment="The published roll the notices are of")
    storage_key: Mapped[str] = mapped_column(String(64),
                                             comment="SHA-256 of the PDF in the file store")
    first_parcel_id: Mapped[int] = mapped_column(Integer,
                                                 comment="The batch's first parcel id")
    last_parcel_id: Mapped[int] = mapped_column(Integer, comment="The batch's last parcel id")
    notices: Mapped[int] = mapped_column(Integer, comment="How many notices the file holds")
    codes: Mapped[int] = mapped_column(Integer, default=0,
                                       comment="How many of them print a new access code")
    created_at: Mapped[datetime] = created_at()
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"),
                                                      comment="Staff whose job made it")


class NoticeDelivery(AppendOnly, Base):
    """An assessment notice sent one way: an email to a user (`channel` email), or printed
    for the mail in a print file (`channel` print, with the access code issued for it when
    the parcel had no owner account and no live code)."""

    __tablename__ = "notice_deliveries"
    __table_args__ = (
        CheckConstraint("channel IN ('email', 'print')", name="channel"),
        CheckConstraint("language IN ('es', 'en')", name="language"),
        CheckConstraint("(channel = 'email') = (user_id IS NOT NULL)", name="addressee"),
        CheckConstraint("(channel = 'print') = (print_file_id IS NOT NULL)", name="print_file"),
        # One email per notice and user; one printing per notice.
        Index("uq_notice_deliveries_email", "notice_id", "user_id", unique=True,
              sqlite_where=text("channel = 'email'"),
              postgresql_where=text("channel = 'email'")),
        Index("uq_notice_deliveries_print", "notice_id", unique=True,
              sqlite_where=text("channel = 'print'"),
              postgresql_where=text("channel = 'print'")),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    notice_id: Mapped[int] = mapped_column(ForeignKey("notices.id"), index=True,
                                           comment="The assessment notice delivered")
    channel: Mapped[str] = mapped_column(String(5), comment="email or print")
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id"), comment="The email's addressee (owner or paying lessee)")
    email: Mapped[str | None] = mapped_column(String(254),
                                              comment="The address it was sent to")
    print_file_id: Mapped[int | None] = mapped_column(
        ForeignKey("notice_print_files.id"), comment="The print file holding the notice")
    access_code_id: Mapped[int | None] = mapped_column(
        ForeignKey("access_codes.id"), comment="The access code printed on it, if any")
    language: Mapped[str] = mapped_column(String(2), comment="Language of the notice")
    created_at: Mapped[datetime] = created_at()
