"""Read access given to an email no account uses yet (`ParcelInvitation`).

An owner who gives access to an email is answered the same whether or not an account uses
it (no account enumeration): with an account, a `ParcelLink` is made at once
(`parcels.grant`); without one, an invitation is kept here, and becomes a link when an
account with that email is confirmed (`accept`, called by `users.confirm_email`: the
confirmation proves the person controls the email). The owner's list (`parcels.access_list`)
shows both alike, and either is withdrawn by its email (`parcels.revoke_email`).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from portal import clock
from portal.accounts import audit, policy
from portal.db import UnitOfWork
from portal.models import ParcelInvitation, ParcelLink, User


def open_for(uow: UnitOfWork, parcel_id: int, email: str | None = None) -> list[ParcelInvitation]:
    """The parcel's invitations not yet accepted or withdrawn (for one email if given)."""
    stmt = select(ParcelInvitation).where(ParcelInvitation.parcel_id == int(parcel_id),
                                          ParcelInvitation.accepted_at.is_(None),
                                          ParcelInvitation.revoked_at.is_(None))
    if email is not None:
        stmt = stmt.where(ParcelInvitation.email == email)
    return list(uow.session.scalars(stmt.order_by(ParcelInvitation.created_at,
                                                  ParcelInvitation.id)))


def invite(uow: UnitOfWork, owner: Any, parcel_id: int, email: str,
           role: str, *, may_pay: bool = False,
           reason: str = "") -> ParcelInvitation | None:
    """Keep an invitation for `email` (already normalised); None when one is open already."""
    if open_for(uow, parcel_id, email):
        return None
    invitation = ParcelInvitation(parcel_id=int(parcel_id), email=email, role=role,
                                  granted_by_id=owner.id, may_pay=may_pay)
    uow.session.add(invitation)
    uow.session.flush()
    audit.record(uow, owner, "access.invited", invitation,
                 after=policy.snapshot(invitation, reason))
    return invitation


def withdraw(uow: UnitOfWork, user: Any, invitation: ParcelInvitation, *,
             reason: str = "") -> None:
    before = audit.snapshot(invitation)
    invitation.revoked_at = clock.now()
    invitation.revoked_by_id = user.id
    uow.session.flush()
    audit.record(uow, user, "access.invitation_withdrawn", invitation, before=before,
                 after=policy.snapshot(invitation, reason))



def accept(uow: UnitOfWork, user: User) -> list[ParcelLink]:
    """The confirmed `user`'s open invitations become links (one per parcel)."""
    made = []
    for invitation in uow.session.scalars(select(ParcelInvitation).where(
            ParcelInvitation.email == user.email, ParcelInvitation.accepted_at.is_(None),
            ParcelInvitation.revoked_at.is_(None)).order_by(ParcelInvitation.id)):
        live = uow.session.scalar(select(ParcelLink.id).where(
            ParcelLink.user_id == user.id, ParcelLink.parcel_id == invitation.parcel_id,
            ParcelLink.revoked_at.is_(None)))
        if live is None:
            link = ParcelLink(user_id=user.id, parcel_id=invitation.parcel_id,
                              role=invitation.role, source="grant",
                              granted_by_id=invitation.granted_by_id,
                              may_pay=invitation.may_pay)
            uow.session.add(link)
            uow.session.flush()
            audit.record(uow, user, "access.granted", link, after=audit.snapshot(link))
            made.append(link)
            live = link.id
        invitation.accepted_at = clock.now()
        invitation.link_id = live
    uow.session.flush()
    return made
