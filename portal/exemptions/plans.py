"""R-B16: an approved payment plan's state, from what the CRIM reports (docs/EXEMPTION.md).

The plan's payments are made to the CRIM; the portal keeps no CRIM ledger. Staff who decide
certifications record what the CRIM reports (`record_entry`: a payment received, or the
auction notice costs charged after a default) as `plan_entries` rows, append-only; the
plan's schedule and whether it is kept (paid, due, missed, the default and the balance that
then falls due) are the core's (`core.payment_plan.plan_status`) over those rows, computed
when a page asks (`plan_state`).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy import select

from portal import clock
from portal.accounts import access, audit
from portal.accounts.errors import Conflict, InvalidInput, NotFound
from portal.core.money import ZERO, cents, fits_money
from portal.core.payment_plan import PlanStatus, plan_status
from portal.db import UnitOfWork
from portal.exemptions import filings
from portal.exemptions.filings import Figures
from portal.models import ExemptionCertification, PlanEntry

#: Who records what the CRIM reports of a plan: the staff who decide certifications and
#: approve plans (R-B13).
RECORD = ("administrator", "reviewer")
KINDS = ("payment", "notice_costs")


def record_entry(uow: UnitOfWork, staff: Any, cert_id: int | str, *, kind: str,
                 entry_on: date, amount: Decimal, reference: str = "") -> PlanEntry:
    """A payment the CRIM received on `entry_on`, or the auction notice costs it charged
    (R-B16), for the approved plan of certification `cert_id`. Not a day to come, not before
    the filing; an amount above 0.00 in cents; a receipt of the CRIM recorded once for the
    plan and kind (InvalidInput "duplicate" on `reference`)."""
    access.require_staff_role(staff, *RECORD)
    cert = uow.session.get(ExemptionCertification, access.parse_id(cert_id))
    if cert is None or cert.status == "draft":
        raise NotFound()
    row, new = add_entry(uow, staff, cert, kind=kind, entry_on=entry_on, amount=amount,
                         reference=reference)
    if not new:
        raise InvalidInput("duplicate", field="reference")
    return row


def add_entry(uow: UnitOfWork, actor: Any, cert: ExemptionCertification, *, kind: str,
              entry_on: date, amount: Decimal, reference: str = "",
              note: dict[str, Any] | None = None) -> tuple[PlanEntry, bool]:
    """The entry checked and added, and True; or the entry of the same receipt already
    recorded with the same day and amount, and False (the same report twice records
    nothing). Conflict "no_plan" without an approved plan; Conflict "receipt_differs" for
    the same receipt with another day or amount. The caller checked who acts; `note` joins
    the audit record (the file's source, an API token's id)."""
    if cert.status != "approved" or not cert.plan_payments:
        raise Conflict("no_plan")
    if kind not in KINDS:
        raise InvalidInput("invalid", field="kind")
    if not isinstance(entry_on, date) or entry_on > clock.today():
        raise InvalidInput("future", field="entry_on")
    if cert.filed_on is not None and entry_on < cert.filed_on:
        raise InvalidInput("before_filing", field="entry_on")
    if not isinstance(amount, Decimal) or not amount.is_finite() or amount <= 0 \
            or cents(amount) != amount or not fits_money(amount):
        raise InvalidInput("invalid", field="amount")
    ref = (reference or "").strip()
    if len(ref) > 120:
        raise InvalidInput("invalid", field="reference")
    if ref:
        same = uow.session.scalar(select(PlanEntry).where(
            PlanEntry.certification_id == cert.id, PlanEntry.kind == kind,
            PlanEntry.reference == ref))
        if same is not None:
            if same.entry_on == entry_on and same.amount == amount:
                return same, False
            raise Conflict("receipt_differs")
    row = PlanEntry(certification_id=cert.id, kind=kind, entry_on=entry_on, amount=amount,
                    reference=ref, created_by_id=filings.actor_id(actor))
    uow.session.add(row)
    uow.session.flush()
    audit.record(uow, actor, "payment_plan.entry_recorded", row,
                 after={**audit.snapshot(row), **(note or {})})
    return row, True


def entries(uow: UnitOfWork, cert_id: int) -> list[PlanEntry]:
    return list(uow.session.scalars(select(PlanEntry).where(
        PlanEntry.certification_id == cert_id).order_by(PlanEntry.entry_on, PlanEntry.id)))


def plan_state(uow: UnitOfWork, cert: ExemptionCertification, fig: Figures,
               on: date | None = None) -> PlanStatus | None:
    """The approved plan's state on `on` (today) from the core, over what the CRIM reported;
    None while the plan is only requested (or there is none). The caller has read the
    certification through its access rules."""
    if fig.plan is None or cert.status != "approved":
        return None
    rows = entries(uow, cert.id)
    payments = [(e.entry_on, e.amount) for e in rows if e.kind == "payment"]
    costs = sum((e.amount for e in rows if e.kind == "notice_costs"), ZERO)
    return plan_status(fig.plan, payments, on or clock.today(), costs)
