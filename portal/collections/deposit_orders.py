"""The lessee's rent-deposit order (R-A14, 23 LPRA § 6432(d)): for a parcel the Authority
owns and leases, a court may order the lessee to deposit in court the rents, proceeds or
products received from it until the debt is paid. Staff record the order (the court, its
date, the case number) on the lease in force and lift it when the debt is paid; the parcel
page (owner, lessee, and whoever may see the account) shows the order in force
(`accounts.statements`). Money released under an order is a payment dated the day it is
released (R-A18): staff record it at the office like any payment. Every change is
audit-logged.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import or_, select

from portal import clock
from portal.accounts import access, audit
from portal.accounts.errors import Conflict, InvalidInput, NotFound
from portal.collections.attachments import RECORD
from portal.db import UnitOfWork
from portal.models import DepositOrder, Lease, Parcel


def lease_in_force(uow: UnitOfWork, parcel_id: int, on: date) -> Lease | None:
    """The lease of the parcel in force on `on` (the latest to start)."""
    return uow.session.scalar(
        select(Lease).where(Lease.parcel_id == parcel_id, Lease.starts_on <= on,
                            or_(Lease.ends_on.is_(None), Lease.ends_on >= on))
        .order_by(Lease.starts_on.desc()).limit(1))


def orders(uow: UnitOfWork, staff: Any, parcel_id: int) -> list[DepositOrder]:
    """Every deposit order on the parcel's leases, newest first (staff)."""
    access.require_staff(staff)
    return list(uow.session.scalars(
        select(DepositOrder).join(Lease, Lease.id == DepositOrder.lease_id)
        .where(Lease.parcel_id == parcel_id)
        .order_by(DepositOrder.ordered_on.desc(), DepositOrder.id.desc())))


def _text(name: str, value: str | None, limit: int) -> str:
    text = (value or "").strip()
    if not text or len(text) > limit:
        raise InvalidInput("invalid", field=name)
    return text


def record(uow: UnitOfWork, staff: Any, parcel_id: int, *, court: str, case_number: str,
           ordered_on: date, notes: str = "") -> DepositOrder:
    """R-A14: the court's order on the lease in force of an Authority parcel."""
    access.require_staff_role(staff, *RECORD)
    parcel = uow.session.get(Parcel, access.parse_id(parcel_id))
    if parcel is None:
        raise NotFound()
    if not isinstance(ordered_on, date) or ordered_on > clock.today():
        raise InvalidInput("future", field="ordered_on")
    court_text = _text("court", court, 120)
    case = _text("case_number", case_number, 40)
    if len(notes or "") > 2000:
        raise InvalidInput("invalid", field="notes")
    if parcel.owner_kind != "authority":
        raise Conflict("not_authority")
    lease = lease_in_force(uow, parcel.id, ordered_on)
    if lease is None:
        raise Conflict("no_lease")
    if uow.session.scalar(select(DepositOrder.id).where(
            DepositOrder.lease_id == lease.id, DepositOrder.lifted_on.is_(None))) is not None:
        raise Conflict("order_in_force")
    order = DepositOrder(lease_id=lease.id, ordered_on=ordered_on, court=court_text,
                         case_number=case, notes=(notes or "").strip())
    uow.session.add(order)
    uow.session.flush()
    audit.record(uow, staff, "deposit_order.recorded", order, after=audit.snapshot(order))
    return order


def lift(uow: UnitOfWork, staff: Any, order_id: int, lifted_on: date) -> DepositOrder:
    """The order ends on `lifted_on` (the debt paid, or the court lifted it); once."""
    access.require_staff_role(staff, *RECORD)
    order = uow.session.get(DepositOrder, access.parse_id(order_id))
    if order is None:
        raise NotFound()
    if order.lifted_on is not None:
        raise Conflict("already_lifted")
    if not isinstance(lifted_on, date) or lifted_on > clock.today():
        raise InvalidInput("future", field="lifted_on")
    if lifted_on < order.ordered_on:
        raise InvalidInput("before_order", field="lifted_on")
    before = audit.snapshot(order)
    order.lifted_on = lifted_on
    uow.session.flush()
    audit.record(uow, staff, "deposit_order.lifted", order, before=before,
                 after=audit.snapshot(order))
    return order


def parcel_of(uow: UnitOfWork, staff: Any, order_id: int) -> int:
    """The parcel of a deposit order's lease, for staff (`NotFound`)."""
    access.require_staff(staff)
    order = uow.session.get(DepositOrder, access.parse_id(order_id))
    if order is None:
        raise NotFound()
    return uow.session.get(Lease, order.lease_id).parcel_id
