"""A paying lessee on two delinquent private parcels of the demo, so the collections run
sends their owners a copy of the demand (R-A17): one owner with an account (emailed), one
without (the staff's print file). Used by tests/web/test_collections_kept.py and the J9
browser journey."""

from __future__ import annotations

from datetime import date

from flask import Flask
from sqlalchemy import select

from portal import clock
from portal.accounts import facts
from portal.db import UnitOfWork
from portal.models import FiscalYear, Lease, OwnershipShare, Parcel, ParcelLink, Party
from portal.web.data import database


def lease_private_parcels(app: Flask) -> dict[str, int]:
    """A paying lessee (R-A16) on two private parcels with an owner on record: one whose
    owner has an account on the portal (the copy is emailed), one whose owner has none (the
    copy is printed)."""
    with app.app_context(), UnitOfWork(database()) as w:
        s = w.session
        linked = set(s.scalars(select(ParcelLink.parcel_id).where(ParcelLink.role == "owner")))
        owned = dict.fromkeys(s.scalars(select(OwnershipShare.parcel_id).join(
            Parcel, Parcel.id == OwnershipShare.parcel_id).where(
            Parcel.owner_kind == "private").order_by(OwnershipShare.parcel_id)))
        leased = set(s.scalars(select(Lease.parcel_id)))
        fy = s.scalar(select(FiscalYear).where(FiscalYear.starts_on == date(2026, 7, 1)))

        def delinquent(pid: int) -> bool:
            return facts.load(w, pid, fy).evaluate(date(2026, 11, 30)).delinquent_principal > 0

        candidates = (p for p in owned if p not in leased and delinquent(p))
        picked = {"email": next(p for p in candidates if p in linked),
                  "print": next(candidates)}
        for link in s.scalars(select(ParcelLink).where(  # its owner has no account now
                ParcelLink.parcel_id == picked["print"], ParcelLink.revoked_at.is_(None))):
            link.revoked_at = clock.now()
        for key, pid in picked.items():
            lessee = Party(kind="organisation", name=f"Arrendatario {key}")
            s.add(lessee)
            s.flush()
            s.add(Lease(parcel_id=pid, lessee_party_id=lessee.id, lessee_pays=True,
                        starts_on=date(2020, 1, 1)))
        return picked
