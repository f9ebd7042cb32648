"""Change reports of the residential exemption (J6; R-B9, R-B17 to R-B19).

A report is a fact: what was reported, by whom, when, and how it stood against its deadline
(December 31 of the change's year, R-B9) are written once and never changed; a report is
never deleted. Only its status moves, and only forward (filed -> acknowledged by staff); the
lender that forwards it to the CRIM records when, once. Each is audit-logged by the service
(portal/exemptions/changes.py).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import Boolean, CheckConstraint, Date, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from portal.core.exemption_changes import KINDS
from portal.models.base import Base, ImmutableRowError, UTCDateTime, created_at

CHANGE_STATUSES = ("filed", "acknowledged")  # forward only
#: What staff found on acknowledging a report (R-B13: named reviewers): the exemption was
#: revoked from the year the change counts from, or it continues (R-B8, R-B19, no exemption
#: on file, a change that does not end it).
DECISIONS = ("revoked", "continues")


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


class ExemptionChangeReport(Base):
    """An owner's report of a change in the qualifications for the exemption, or a transfer."""

    __tablename__ = "exemption_change_reports"
    __immutable__ = ("parcel_id", "kind", "change_date", "details", "original_titleholder",
                     "residential_use_confirmed", "reporter_id", "reported_at", "reported_on",
                     "deadline", "late", "lender_id", "language",
                     "attested_name")
    __table_args__ = (
        CheckConstraint(_in("kind", KINDS), name="kind"),
        CheckConstraint(_in("status", CHANGE_STATUSES), name="status"),
        CheckConstraint("change_date <= reported_on", name="change_before_report"),
        CheckConstraint("(status = 'acknowledged') = (acknowledged_at IS NOT NULL)",
                        name="acknowledged"),
        CheckConstraint("language IN ('es', 'en')", name="language"),
        CheckConstraint("forwarded_at IS NULL OR lender_id IS NOT NULL", name="forwarded"),
        CheckConstraint("decision IS NULL OR " + _in("decision", DECISIONS), name="decision"),
        CheckConstraint("decision IS NULL OR status = 'acknowledged'", name="decided"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), index=True,
                                           comment="The parcel whose exemption it concerns")
    kind: Mapped[str] = mapped_column(
        String(24),
        comment="moved, rented, use_changed, sold_or_transferred, co_owner_changed, "
                "spouse_died, divorce or other (R-B17)")
    change_date: Mapped[date] = mapped_column(Date, comment="When the change happened")
    details: Mapped[str] = mapped_column(Text, default="", comment="The new facts, as written")
    original_titleholder: Mapped[bool | None] = mapped_column(
        Boolean, comment="spouse_died: the survivor is named on the certification (R-B5)")
    residential_use_confirmed: Mapped[bool | None] = mapped_column(
        Boolean, comment="spouse_died: the survivor confirms the home is still used as such")
    reporter_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True,
                                             comment="Who reported it")
    attested_name: Mapped[str] = mapped_column(
        String(200), comment="The full name typed to attest the report is true (R-B12)")
    language: Mapped[str] = mapped_column(String(2), default="es",
                                          comment="The reporter's language (its email)")
    reported_at: Mapped[datetime] = created_at("When it was reported (UTC)")
    reported_on: Mapped[date] = mapped_column(Date, comment="The Puerto Rico day of the report")
    deadline: Mapped[date] = mapped_column(Date, comment="Last good day: December 31 (R-B9)")
    late: Mapped[bool] = mapped_column(Boolean, comment="Reported after the deadline (flagged)")
    lender_id: Mapped[int | None] = mapped_column(
        ForeignKey("lenders.id"), index=True,
        comment="The lender of a loan on the parcel that forwards it to the CRIM (R-B9)")
    forwarded_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When the lender recorded forwarding it to the CRIM (R-B9)")
    forwarded_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id"), comment="The lender's user who recorded it")
    status: Mapped[str] = mapped_column(String(16), default="filed",
                                        comment="filed or acknowledged (forward only)")
    acknowledged_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When staff acknowledged it")
    acknowledged_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id"), comment="Staff who acknowledged it")
    decision: Mapped[str | None] = mapped_column(
        String(10), comment="On acknowledgement: revoked or continues (R-B15, R-B18)")

    @property
    def number(self) -> str:
        """The report number shown to the owner: "C-2026-000017" (year of the report, id)."""
        return f"C-{self.reported_on.year}-{self.id:06d}"

    def _check_update(self, changes: dict[str, tuple[Any, Any]]) -> None:
        if "status" in changes:
            old, new = changes["status"]
            if CHANGE_STATUSES.index(new) <= CHANGE_STATUSES.index(old):
                raise ImmutableRowError(self.__tablename__, "update",
                                        f"status {old} -> {new} is not forward")
        for once in ("acknowledged_at", "acknowledged_by_id", "forwarded_at", "forwarded_by_id",
                     "decision"):
            if once in changes and changes[once][0] is not None:
                raise ImmutableRowError(self.__tablename__, "update", f"{once} is set once")

    def _check_delete(self) -> None:
        raise ImmutableRowError(self.__tablename__, "delete")


class ExemptionChangeEvidence(Base):
    """A file the owner attached to a change report (R-B17: its evidence), checked and stored
    as a certification's evidence is (`portal.exemptions.evidence`)."""

    __tablename__ = "exemption_change_evidence"
    __table_args__ = (
        CheckConstraint("size_bytes > 0", name="size"),
        CheckConstraint("content_type IN ('application/pdf', 'image/jpeg', 'image/png')",
                        name="content_type"),
    )
    __immutable__ = ("report_id", "sha256", "content_type", "size_bytes", "filename",
                     "uploaded_by_id", "active_content")

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    report_id: Mapped[int] = mapped_column(ForeignKey("exemption_change_reports.id"),
                                           index=True, comment="The change report")
    sha256: Mapped[str] = mapped_column(String(64), comment="Content hash (the storage key)")
    content_type: Mapped[str] = mapped_column(String(40), comment="Type read from the content")
    size_bytes: Mapped[int] = mapped_column(Integer, comment="Size in bytes")
    filename: Mapped[str] = mapped_column(String(200), comment="The name it was uploaded with")
    uploaded_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"),
                                                comment="Who uploaded it")
    active_content: Mapped[str | None] = mapped_column(
        String(200), comment="A PDF's scripts or automatic actions found, flagged to the "
                             "reviewer; null for none")
    created_at: Mapped[datetime] = created_at()

    def _check_delete(self) -> None:
        raise ImmutableRowError(self.__tablename__, "delete")
