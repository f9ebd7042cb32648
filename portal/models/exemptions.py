"""The residential exemption (exoneración residencial, R-B1–R-B21): the CRIM's
property-tax facts of a parcel per fiscal year, the owners' certifications (drafts, filings and
their review), their evidence and the history of each certification's states.

- `property_tax_facts`: one row per parcel and fiscal year (the CRIM's valuation on the
  1957 basis: land, structure, the residential part where the CRIM has it; zone, cuerdas,
  municipality; the property tax past due on the January 1 before the year, R-B11).
- `exemption_certifications`: a certification, from the draft the wizard keeps (answers as
  JSON, resumable) to its filing (a filing number, the attestation) and review. Its `status`
  only moves forward (`EXEMPTION_TRANSITIONS`, enforced by `_check_update`).
- `exemption_owners`: the owners a certification names (parties), for the one-dwelling
  check across the registry (R-B6).
- `exemption_evidence`: uploaded files, stored by content hash (`portal.storage`).
- `exemption_events`: append-only history of every state change, with the reviewer's
  reasons (R-B13: named reviewers).
- `coop_elections`: a housing cooperative's election of a year (R-B4, R-B20), the
  cooperative's own; its units' certifications point to it.
- `coop_election_corrections`: staff corrections of an election recorded in error, the
  latest one in force (append-only, with the reason and the staff member).
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Date,
    ForeignKey,
    Index,
    Integer,
    Numeric,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from portal import clock
from portal.models.base import AppendOnly, Base, ImmutableRowError, UTCDateTime, created_at, money

EXEMPTION_STATUSES = ("draft", "filed", "under_review", "returned", "resubmitted", "approved",
                      "withdrawn", "revoked")
#: R-B13: states move forward only (a returned filing is resubmitted, then reviewed
#: again); a draft, a filing or a returned one may be withdrawn by its owner.
EXEMPTION_TRANSITIONS = {
    "draft": {"filed", "withdrawn"},
    "filed": {"under_review", "withdrawn"},
    "under_review": {"approved", "returned"},
    "returned": {"resubmitted", "withdrawn"},
    "resubmitted": {"under_review", "withdrawn"},
    "approved": {"revoked"},  # R-B15, R-B18: a change report acknowledged by staff
    "withdrawn": set(),
    "revoked": set(),
}
#: A certification that holds the year's exemption or may still get it (R-B6: "approved or
#: pending").
EXEMPTION_PENDING = ("filed", "under_review", "returned", "resubmitted")
EXEMPTION_HOLDING = ("approved", *EXEMPTION_PENDING)


class PropertyTaxFact(Base):
    """The CRIM's property-tax facts of a parcel for one fiscal year (R-B1, R-B2, R-B7,
    R-B11). Valuations are on the CRIM's 1957 replacement-cost basis."""

    __tablename__ = "property_tax_facts"
    __table_args__ = (
        UniqueConstraint("parcel_id", "fiscal_year_start"),
        CheckConstraint("zone IN ('urban', 'suburban', 'rural')", name="zone"),
        CheckConstraint("land_valuation >= 0 AND structure_valuation >= 0", name="valuation"),
        CheckConstraint("residential_valuation IS NULL OR residential_valuation >= 0",
                        name="residential_valuation"),
        CheckConstraint("land_area_cuerdas >= 0", name="land_area"),
        CheckConstraint("debt_on_january_1 >= 0", name="debt"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), index=True,
                                           comment="The parcel")
    fiscal_year_start: Mapped[date] = mapped_column(Date, comment="July 1 opening the FY")
    municipality: Mapped[str] = mapped_column(String(60), comment="Municipality (its tax rate)")
    zone: Mapped[str] = mapped_column(String(10), comment="urban, suburban or rural (R-B7)")
    land_area_cuerdas: Mapped[Decimal] = mapped_column(Numeric(12, 6),
                                                       comment="Land area in cuerdas")
    land_valuation: Mapped[Decimal] = money("CRIM valuation of the land (1957 basis)")
    structure_valuation: Mapped[Decimal] = money("CRIM valuation of the structures")
    residential_valuation: Mapped[Decimal | None] = money(
        "CRIM valuation of the residential part, lot included, where it has one (R-B2)",
        nullable=True)
    debt_on_january_1: Mapped[Decimal] = money(
        "Property tax on this parcel past due on the January 1 before the FY (R-B11, R-B16)",
        default=Decimal(0))
    illustrative: Mapped[bool] = mapped_column(default=False,
                                               comment="Demo values, not the CRIM's")
    source: Mapped[str] = mapped_column(String(200), comment="Where the facts come from")
    created_at: Mapped[datetime] = created_at()


class ExemptionCertification(Base):
    """An owner's residential-exemption certification for a parcel and fiscal year."""

    __tablename__ = "exemption_certifications"
    __table_args__ = (
        CheckConstraint("status IN ('draft', 'filed', 'under_review', 'returned', "
                        "'resubmitted', 'approved', 'withdrawn', 'revoked')", name="status"),
        CheckConstraint("(status = 'revoked') = (revoked_from IS NOT NULL)", name="revoked"),
        CheckConstraint("plan_payments IS NULL OR plan_payments >= 1", name="plan_payments"),
    )
    __immutable__ = ("parcel_id", "fiscal_year_start", "created_by_id")

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    parcel_id: Mapped[int] = mapped_column(ForeignKey("parcels.id"), index=True,
                                           comment="The parcel")
    fiscal_year_start: Mapped[date] = mapped_column(Date, index=True,
                                                    comment="July 1 opening the FY (R-B15)")
    status: Mapped[str] = mapped_column(String(14), default="draft", index=True,
                                        comment="draft, filed, under_review, returned, "
                                                "resubmitted, approved, withdrawn or revoked")
    created_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True,
                                               comment="The user who files it")
    language: Mapped[str] = mapped_column(String(2), default="es",
                                          comment="The filer's language (receipt, emails)")
    answers: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict,
                                                    comment="The wizard's answers (R-B14)")
    step: Mapped[str] = mapped_column(String(20), default="owners",
                                      comment="The wizard's step to resume at")
    filing_number: Mapped[str | None] = mapped_column(String(24), unique=True,
                                                      comment="Given at filing")
    filed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), comment="When filed")
    filed_on: Mapped[date | None] = mapped_column(
        Date, comment="Filing date: the Puerto Rico day submitted (R-B13)")
    coop_election_id: Mapped[int | None] = mapped_column(
        ForeignKey("coop_elections.id"), index=True,
        comment="A cooperative's unit: the cooperative's election it is filed under (R-B4)")
    delivered_on: Mapped[date | None] = mapped_column(
        Date, comment="A lender's filing: the day the owner delivered the certification to "
                      "the lender, its filing date (R-B13, R-B21)")
    loan_id: Mapped[int | None] = mapped_column(
        ForeignKey("loans.id"), comment="The loan whose lender receives it (R-B9, R-B13)")
    attested_name: Mapped[str | None] = mapped_column(String(200),
                                                      comment="Full name typed (R-B12)")
    attested_at: Mapped[datetime | None] = mapped_column(UTCDateTime(),
                                                         comment="When it was attested")
    plan_payments: Mapped[int | None] = mapped_column(
        Integer, comment="Payment plan requested: monthly payments (R-B11, R-B16)")
    plan_first_due: Mapped[date | None] = mapped_column(
        Date, comment="Payment plan requested: first due date")
    returned_steps: Mapped[list[str]] = mapped_column(
        JSON, default=list, comment="The steps a return asks to fix (only these are editable)")
    decided_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id"), comment="The reviewer of the last decision (R-B13)")
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime(),
                                                        comment="When it was last decided")
    revoked_from: Mapped[date | None] = mapped_column(
        Date, comment="Revoked: July 1 of the first fiscal year without the exemption "
                      "(R-B15, R-B18)")
    revoked_through: Mapped[date | None] = mapped_column(
        Date, comment="Revoked: July 1 of the last fiscal year billed again without it")
    revoked_by_report_id: Mapped[int | None] = mapped_column(
        ForeignKey("exemption_change_reports.id"),
        comment="Revoked: the acknowledged change report that ended it")
    created_at: Mapped[datetime] = created_at()
    updated_at: Mapped[datetime] = mapped_column(
        UTCDateTime(), default=clock.now, onupdate=clock.now, nullable=False,
        comment="When the row last changed (UTC)")

    def _check_update(self, changes: dict[str, tuple[Any, Any]]) -> None:
        if "status" in changes:
            old, new = changes["status"]
            if new not in EXEMPTION_TRANSITIONS.get(old, set()):
                raise ImmutableRowError(self.__tablename__, "update",
                                        f"status {old} -> {new}")
        if "filing_number" in changes and changes["filing_number"][0] is not None:
            raise ImmutableRowError(self.__tablename__, "update", "filing_number")
        for once in ("revoked_from", "revoked_through", "revoked_by_report_id"):
            if once in changes and changes[once][0] is not None:
                raise ImmutableRowError(self.__tablename__, "update", f"{once} is set once")

    def holds_in(self, fiscal_year_start: date) -> bool:
        """Does this certification give the exemption in the fiscal year opening
        `fiscal_year_start`? Approved, or revoked from a later year (R-B15, R-B18)."""
        return self.status == "approved" or (
            self.status == "revoked" and self.revoked_from is not None
            and fiscal_year_start < self.revoked_from)


class ExemptionOwner(Base):
    """An owner a certification names (R-B5: both spouses; R-B6: every co-owner)."""

    __tablename__ = "exemption_owners"
    __table_args__ = (UniqueConstraint("certification_id", "party_id"),)

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    certification_id: Mapped[int] = mapped_column(
        ForeignKey("exemption_certifications.id"), index=True, comment="The certification")
    party_id: Mapped[int] = mapped_column(ForeignKey("parties.id"), index=True,
                                          comment="The owner (a party of the registry)")
    created_at: Mapped[datetime] = created_at()


class ExemptionEvidence(Base):
    """A file uploaded with a certification, stored by its content hash (`portal.storage`)."""

    __tablename__ = "exemption_evidence"
    __table_args__ = (
        CheckConstraint("size_bytes > 0", name="size"),
        CheckConstraint("content_type IN ('application/pdf', 'image/jpeg', 'image/png')",
                        name="content_type"),
    )
    __immutable__ = ("certification_id", "sha256", "content_type", "size_bytes",
                     "active_content")

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    certification_id: Mapped[int] = mapped_column(
        ForeignKey("exemption_certifications.id"), index=True, comment="The certification")
    sha256: Mapped[str] = mapped_column(String(64), comment="Content hash (the storage key)")
    content_type: Mapped[str] = mapped_column(String(40), comment="Type read from the content")
    size_bytes: Mapped[int] = mapped_column(Integer, comment="Size in bytes")
    filename: Mapped[str] = mapped_column(String(200), comment="The name it was uploaded with")
    uploaded_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"),
                                                comment="Who uploaded it")
    removed_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When its owner removed it before filing or resubmitting")
    active_content: Mapped[str | None] = mapped_column(
        String(200), comment="A PDF's scripts or automatic actions found (JavaScript, "
                             "OpenAction ...), flagged to the reviewer; null for none")
    created_at: Mapped[datetime] = created_at()


class ExemptionEvent(AppendOnly, Base):
    """One state change of a certification, with who made it and why (R-B13)."""

    __tablename__ = "exemption_events"

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    certification_id: Mapped[int] = mapped_column(
        ForeignKey("exemption_certifications.id"), index=True, comment="The certification")
    from_status: Mapped[str] = mapped_column(String(14), comment="State before")
    to_status: Mapped[str] = mapped_column(String(14), comment="State after")
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"),
                                                 comment="Who made the change")
    reasons: Mapped[list[str]] = mapped_column(JSON, default=list,
                                               comment="Return reasons (codes)")
    note: Mapped[str] = mapped_column(Text, default="", comment="The reviewer's free text")
    created_at: Mapped[datetime] = created_at()


class PlanEntry(AppendOnly, Base):
    """R-B16: what the CRIM reports of an approved payment plan: a payment received (its
    day and amount) or the auction notice costs charged after a default. The portal keeps no
    CRIM ledger: these rows are the plan's state, the figures are the core's
    (`core.payment_plan.plan_status`)."""

    __tablename__ = "plan_entries"
    __table_args__ = (
        CheckConstraint("kind IN ('payment', 'notice_costs')", name="kind"),
        CheckConstraint("amount > 0", name="amount"),
        # The CRIM's receipt is recorded once per plan and kind: the same file twice
        # records nothing new (portal.exemptions.plan_import).
        Index("uq_plan_entries_receipt", "certification_id", "kind", "reference", unique=True,
              sqlite_where=text("reference <> ''"), postgresql_where=text("reference <> ''")),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    certification_id: Mapped[int] = mapped_column(
        ForeignKey("exemption_certifications.id"), index=True,
        comment="The certification whose plan it is")
    kind: Mapped[str] = mapped_column(String(14),
                                      comment="payment or notice_costs (R-B16)")
    entry_on: Mapped[date] = mapped_column(Date, comment="The day the CRIM received or charged it")
    amount: Mapped[Decimal] = money("The amount, as the CRIM reports it")
    reference: Mapped[str] = mapped_column(String(120), default="",
                                           comment="The CRIM's receipt or report")
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"),
                                                      comment="Staff who recorded it")
    created_at: Mapped[datetime] = created_at()


class PlanDefault(AppendOnly, Base):
    """R-B16: a plan the core found in default on a day (the daily task
    `exemptions.plan_defaults`), once per certification: the owner's email is queued with
    it, so it is sent exactly once; staff list these rows."""

    __tablename__ = "plan_defaults"

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    certification_id: Mapped[int] = mapped_column(
        ForeignKey("exemption_certifications.id"), unique=True,
        comment="The certification whose plan went into default")
    defaulted_on: Mapped[date] = mapped_column(
        Date, comment="The day after the missed payment's last day")
    missed: Mapped[int] = mapped_column(Integer, comment="The number of the payment missed")
    due_now: Mapped[Decimal] = money("The balance then due with the notice costs (R-B16)")
    found_on: Mapped[date] = mapped_column(Date, comment="The day the daily task found it")
    owner_told: Mapped[bool] = mapped_column(
        Boolean, comment="Whether an email to the filer was queued (false: no address)")
    lenders_told: Mapped[int | None] = mapped_column(
        Integer, nullable=True,
        comment="How many of the lenders' users were emailed (null: found before this was "
                "kept)")
    created_at: Mapped[datetime] = created_at()


class StaffApiToken(Base):
    """A token with which a system acts as a staff member through the API (the CRIM's file
    of plan payments): only its SHA-256 is kept, the secret is shown once
    (`portal.exemptions.staff_tokens`)."""

    __tablename__ = "staff_api_tokens"
    __table_args__ = (
        CheckConstraint("scope IN ('plan_payments')", name="scope"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True,
                                         comment="The staff member it acts as")
    name: Mapped[str] = mapped_column(String(80), comment="What it is for (the system's name)")
    prefix: Mapped[str] = mapped_column(String(16), comment="Its first characters (shown)")
    token_hash: Mapped[str] = mapped_column(String(64), unique=True,
                                            comment="SHA-256 of the secret")
    scope: Mapped[str] = mapped_column(String(16), comment="What it may do: plan_payments")
    created_at: Mapped[datetime] = created_at()
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime(), comment="Refused from then")
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime(),
                                                        comment="When it was revoked")
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime(),
                                                          comment="Its last accepted request")


class CooperativeElection(AppendOnly, Base):
    """R-B4, R-B20: a housing cooperative's election for a fiscal year, the cooperative's
    own (not a member's): the residential exemption unit by unit, or the cooperatives law's
    exemption instead. One per cooperative and year (by its name as compared,
    `name_key`); its units are the certifications filed under it
    (`ExemptionCertification.coop_election_id`). Who recorded it: the lender that
    filed the cooperative's units, and its user."""

    __tablename__ = "coop_elections"
    __table_args__ = (
        CheckConstraint("election IN ('residential', 'cooperative_law')", name="election"),
        UniqueConstraint("fiscal_year_start", "name_key"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    fiscal_year_start: Mapped[date] = mapped_column(Date, comment="July 1 opening the FY")
    cooperative_name: Mapped[str] = mapped_column(String(200),
                                                  comment="The housing cooperative, as written")
    name_key: Mapped[str] = mapped_column(String(200), comment="The name as compared (no "
                                                               "accents, case or spaces)")
    election: Mapped[str] = mapped_column(String(16),
                                          comment="residential or cooperative_law (R-B4)")
    lender_id: Mapped[int | None] = mapped_column(ForeignKey("lenders.id"),
                                                  comment="The lender that recorded it")
    recorded_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"),
                                                comment="The user who recorded it")
    created_at: Mapped[datetime] = created_at()


class CooperativeElectionCorrection(AppendOnly, Base):
    """A staff correction of a cooperative's election recorded in error (R-B4, R-B20): the
    election as it should read, why, and who corrected it. Elections and corrections are
    facts, never changed: the election in force is the latest correction's, else the one
    recorded (`portal.exemptions.cooperatives.in_force`)."""

    __tablename__ = "coop_election_corrections"
    __table_args__ = (
        CheckConstraint("election IN ('residential', 'cooperative_law')", name="election"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    coop_election_id: Mapped[int] = mapped_column(
        ForeignKey("coop_elections.id"), index=True, comment="The election corrected")
    election: Mapped[str] = mapped_column(String(16),
                                          comment="residential or cooperative_law, corrected")
    reason: Mapped[str] = mapped_column(Text, comment="Why staff corrected it")
    corrected_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"),
                                                 comment="The staff member who corrected it")
    created_at: Mapped[datetime] = created_at()
