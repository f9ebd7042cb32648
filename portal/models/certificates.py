"""`debt_certificates`: payoff certificates (certificación de deuda) as issued (R-A19).

An issued certificate is a fact: never updated or deleted (`AppendOnly`). It keeps what it
said (`content`, the core's `CertificateContent` as JSON), the PDF as issued (`document`,
byte for byte: a later change of wording or of the Authority's address never rewrites an
issued document) and the digest of its verification code (never the code itself).

Whether it still holds is decided when it is read (`collections.certificates.standing`), from
the facts recorded after it: the ids of the parcel's last ledger entry and assessment when it
was issued are kept here (`last_*_id`); any later one (a payment, a cost, an adjustment, a
refund, a reversal, an amendment), a demand mailed that it does not state, or a later
certificate of the parcel supersedes it. Ids, not instants: they grow in the order rows are
written, whatever the clock says.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import CheckConstraint, Date, ForeignKey, Integer, LargeBinary, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from portal.models.base import AppendOnly, Base, UTCDateTime, money


class DebtCertificate(AppendOnly, Base):
    """A payoff certificate of a parcel, good through a date (R-A19)."""

    __tablename__ = "debt_certificates"
    __table_args__ = (
        CheckConstraint("total_due >= 0", name="total_due"),
        CheckConstraint("upcoming >= 0", name="upcoming"),
        CheckConstraint("payoff >= 0", name="payoff"),
        CheckConstraint("good_through >= issued_on", name="good_through"),
        CheckConstraint("language IN ('es', 'en')", name="language"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), index=True,
                                           comment="The parcel certified")
    issued_at: Mapped[datetime] = mapped_column(UTCDateTime(), comment="When it was issued (UTC)")
    issued_on: Mapped[date] = mapped_column(Date, comment="Puerto Rico date of issue")
    issued_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"),
                                              comment="Who asked for it (the owner or staff)")
    good_through: Mapped[date] = mapped_column(Date, comment="Last day its amounts hold")
    total_due: Mapped[Decimal] = money("Past due and due on the good-through date, all years")
    upcoming: Mapped[Decimal] = money("Principal of installments not yet due then (apart)")
    payoff: Mapped[Decimal] = money("Pay-off amount good through that date: the two above")
    language: Mapped[str] = mapped_column(String(2), comment="Language of the document issued")
    code_digest: Mapped[str] = mapped_column(
        String(64), unique=True, comment="SHA-256 (hex) of the verification code, normalised")
    content: Mapped[str] = mapped_column(Text, comment="What it says (R-A19), as JSON")
    document: Mapped[bytes] = mapped_column(LargeBinary, comment="The PDF as issued")
    last_entry_id: Mapped[int] = mapped_column(
        Integer, default=0, comment="The parcel's last ledger entry id at issue (0: none)")
    last_assessment_id: Mapped[int] = mapped_column(
        Integer, default=0, comment="The parcel's last assessment id at issue (0: none)")
