"""The data model (SQLAlchemy 2.0 typed models). See docs/DATA.md for a one-line map.

Importing this package registers every table on `Base.metadata` (the Alembic target).
"""

from portal.models.access import AccessCode, ClaimAttempt, ParcelInvitation, ParcelLink
from portal.models.assessments import (
    Assessment,
    AssessmentRoll,
    Installment,
    RollLine,
    RollReviewFigures,
)
from portal.models.attachments import (
    AttachmentAccrual,
    AttachmentNotice,
    Auction,
    AuctionResult,
    TaxDebt,
)
from portal.models.audit import AuditRecord
from portal.models.base import AppendOnly, Base, ImmutableRowError, UTCDateTime
from portal.models.board_parameters import BoardParameterValue
from portal.models.budgets import (
    Budget,
    BudgetFixedAmount,
    BudgetLine,
    BudgetVersion,
    FiscalYear,
)
from portal.models.certificates import DebtCertificate
from portal.models.collections import (
    CourtClaim,
    DemandDocument,
    DemandLetter,
    DemandSchedule,
)
from portal.models.exemption_changes import ExemptionChangeEvidence, ExemptionChangeReport
from portal.models.exemptions import (
    CooperativeElection,
    CooperativeElectionCorrection,
    ExemptionCertification,
    ExemptionEvent,
    ExemptionEvidence,
    ExemptionOwner,
    PlanDefault,
    PlanEntry,
    PropertyTaxFact,
    StaffApiToken,
)
from portal.models.fact_versions import FactsVersion, LenderFigures
from portal.models.jobs import Job
from portal.models.ledger import LedgerEntry, Payment, PaymentAllocation
from portal.models.lender_batches import LenderBatch, LenderBatchRow
from portal.models.lender_intents import LenderAcquisition, LenderIntent
from portal.models.lender_orgs import LenderApiToken, LenderInvitation, LoanFigures
from portal.models.lender_portfolio import (
    BillFile,
    BillLine,
    BillPayment,
    BillPaymentException,
    BillPaymentItem,
    LoanChangeFile,
    LoanChangeRow,
    LoanNumberList,
)
from portal.models.lenders import Lender, Loan
from portal.models.notices import Notice
from portal.models.outbox import OutboxMessage
from portal.models.paperless import PaperlessChoice
from portal.models.parcels import DepositOrder, Lease, OwnershipShare, Parcel
from portal.models.parties import Party, PartyMember
from portal.models.receipts import ReceiptSequence
from portal.models.roll_imports import RollImport, RollImportError, RollImportRow
from portal.models.roll_notices import NoticeDelivery, NoticePrintFile
from portal.models.security import RecoveryCode, ThrottleHit, WebSession
from portal.models.users import User
from portal.models.webhooks import LenderWebhook, WebhookDelivery

__all__ = [
    "LenderWebhook", "WebhookDelivery",
    "CourtClaim", "DemandDocument", "DemandLetter", "DemandSchedule",
    "AccessCode", "AppendOnly", "Assessment", "AssessmentRoll", "AuditRecord", "Base", "Budget",
    "BudgetLine", "BudgetVersion", "ClaimAttempt", "DepositOrder", "FiscalYear",
    "ImmutableRowError", "Installment", "Job", "Lease", "LedgerEntry", "Lender", "Loan", "Notice",
    "OwnershipShare", "Parcel", "ParcelInvitation", "ParcelLink", "Party", "PartyMember", "Payment",
    "PaymentAllocation", "ReceiptSequence", "RecoveryCode", "RollLine", "RollReviewFigures",
    "ThrottleHit",
    "RollImport", "RollImportError", "RollImportRow",
    "NoticeDelivery", "NoticePrintFile",
    "UTCDateTime", "User", "WebSession",
    "DebtCertificate",
    "BudgetFixedAmount",
    "CooperativeElection", "CooperativeElectionCorrection", "ExemptionCertification",
    "ExemptionEvent", "ExemptionEvidence",
    "ExemptionOwner", "PlanDefault", "PlanEntry", "StaffApiToken",
    "PropertyTaxFact",
    "LenderApiToken", "LenderInvitation", "LoanFigures",
    "AttachmentAccrual", "AttachmentNotice", "Auction", "AuctionResult", "TaxDebt",
    "ExemptionChangeEvidence",
    "ExemptionChangeReport",
    "LenderAcquisition", "LenderIntent",
    "BoardParameterValue",
    "LenderBatch", "LenderBatchRow",
    "OutboxMessage",
    "BillFile", "BillLine", "BillPayment", "BillPaymentException", "BillPaymentItem",
    "LoanChangeFile", "LoanChangeRow", "LoanNumberList",
    "PaperlessChoice",
    "FactsVersion", "LenderFigures",
]

# Tables that only payments need (checkouts, provider events, ...), on the same metadata.
from portal.models import (
    autopay,  # noqa: E402,F401  (autopay's tables)
    checkouts,  # noqa: E402,F401
)

# Reminders and the calendar (docs/REMINDERS.md).
from portal.models.reminders import (  # noqa: E402,F401
    ReminderParcelOff,
    ReminderRelative,
    ReminderSent,
    ReminderSettings,
)

# Snapshots of the staff's reports (docs/REPORTS.md).
from portal.models.reports import ReportSnapshot, ReportSnapshotRow  # noqa: E402,F401
