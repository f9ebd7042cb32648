"""The demo District's access codes again (`portal demo --codes`, J1): only a code's hash is
kept, so a code printed when the demo was loaded cannot be shown twice; each unclaimed parcel
that has a live code gets a new one instead (the earlier stops working, as staff's
"issue a new code" does: `accounts.parcels.issue_code`, audited)."""

from __future__ import annotations

from sqlalchemy import exists, select

from portal.accounts import parcels
from portal.db import Database, UnitOfWork
from portal.models import AccessCode, Parcel, ParcelLink
from portal.people import users

#: The demo's staff member who issues them (an administrator: `access.REVIEW`).
ISSUER = "staff@demo.pr"


def reissue(database: Database) -> list[tuple[str, str, str]]:
    """(catastro, new code, address) of each parcel with a live access code that no one has
    claimed with a code (an owner or a lessee), by catastro; [] when there is none (or no
    demo staff to issue them)."""
    with UnitOfWork(database) as uow:
        staff = users.find_by_email(uow, ISSUER)
        if staff is None:
            return []
        claimed = exists().where(ParcelLink.parcel_id == Parcel.id, ParcelLink.source == "code",
                                 ParcelLink.revoked_at.is_(None))
        live = exists().where(AccessCode.parcel_id == Parcel.id,
                              AccessCode.revoked_at.is_(None))
        rows = uow.session.execute(select(Parcel.id, Parcel.catastro, Parcel.address)
                                   .where(live, ~claimed).order_by(Parcel.catastro)).all()
        return [(catastro, parcels.issue_code(uow, staff, pid), address or "")
                for pid, catastro, address in rows]
