"""A lender's organisation (J7): its users and their roles (administrator, clerk), invitations
by email, removal, and API tokens (shown once, stored as SHA-256, named, scoped read or
write, expiring, revocable, last use kept). Every change is audit-logged with the user; an
API request's changes with the token (`audit.Actor`'s `after["token_id"]`).

Only an administrator of the lender manages it; anyone else gets NotFound (the lender's
users and tokens are not theirs to see). See docs/LENDERS.md.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select

from portal import clock
from portal.accounts import audit
from portal.accounts.errors import Conflict, Forbidden, InvalidInput, NotFound, ServiceError
from portal.db import UnitOfWork
from portal.models import Lender, LenderApiToken, LenderInvitation, Party, PartyMember, User

ROLES = ("administrator", "employee")  # an employee is a clerk
SCOPES = ("read", "write")
TOKEN_DAYS = (30, 90, 365)
TOKEN_PREFIX = "pdl_"  # "portal de derramas, lender": findable by secret scanners
INVITATION_DAYS = 14
#: A token's last use is written when it is this much older than the request: the
#: organisation page shows its day, and a read of the API is not a write on every call.
LAST_USE_STEP = timedelta(minutes=1)


class Unauthorized(ServiceError):
    """No token, an unknown one, or one expired or revoked (the API's 401)."""

    code = "invalid_token"


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _uid(user: Any) -> int:
    uid = getattr(user, "id", None)
    if uid is None:
        raise NotFound()
    return int(uid)


# --- who administers what ---------------------------------------------------------------

def _membership(uow: UnitOfWork, user: Any, lender_id: int) -> PartyMember | None:
    return uow.session.scalar(
        select(PartyMember).join(Lender, Lender.party_id == PartyMember.party_id)
        .where(Lender.id == int(lender_id), PartyMember.user_id == _uid(user),
               PartyMember.revoked_at.is_(None)))


def lender_of(uow: UnitOfWork, user: Any) -> tuple[Lender, str]:
    """The (first) lender the user works for and the user's role there; NotFound for none."""
    row = uow.session.execute(
        select(Lender, PartyMember.role).join(PartyMember, PartyMember.party_id == Lender.party_id)
        .where(PartyMember.user_id == _uid(user), PartyMember.revoked_at.is_(None))
        .order_by(Lender.id).limit(1)).first()
    if row is None:
        raise NotFound()
    return row[0], row[1]


def is_administrator(uow: UnitOfWork, user: Any) -> bool:
    """Whether the user administers a lender (who must use two-step verification)."""
    return uow.session.scalar(
        select(PartyMember.id).join(Lender, Lender.party_id == PartyMember.party_id)
        .where(PartyMember.user_id == _uid(user), PartyMember.revoked_at.is_(None),
               PartyMember.role == "administrator").limit(1)) is not None


def require_admin(uow: UnitOfWork, user: Any, lender_id: int) -> Lender:
    """The lender when the user administers it; NotFound for a non-member, Forbidden for
    a clerk (who may see the organisation's page but change nothing)."""
    m = _membership(uow, user, lender_id)
    if m is None:
        raise NotFound()
    if m.role != "administrator":
        raise Forbidden("administrators_only")
    lender = uow.session.get(Lender, int(lender_id))
    assert lender is not None
    return lender


# --- members -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Member:
    id: int  # the membership's
    name: str
    email: str
    role: str
    since: datetime


def members(uow: UnitOfWork, user: Any, lender_id: int) -> list[Member]:
    """The lender's users (any member may read the list)."""
    if _membership(uow, user, lender_id) is None:
        raise NotFound()
    return _members(uow, lender_id)


def _members(uow: UnitOfWork, lender_id: int) -> list[Member]:
    rows = uow.session.execute(
        select(PartyMember.id, User.name, User.email, PartyMember.role, PartyMember.created_at)
        .join(User, User.id == PartyMember.user_id)
        .join(Lender, Lender.party_id == PartyMember.party_id)
        .where(Lender.id == int(lender_id), PartyMember.revoked_at.is_(None))
        .order_by(User.email))
    return [Member(*r) for r in rows]


def _member_of(uow: UnitOfWork, lender: Lender, member_id: int) -> PartyMember:
    m = uow.session.get(PartyMember, int(member_id))
    if m is None or m.party_id != lender.party_id or m.revoked_at is not None:
        raise NotFound()
    return m


def _admins(uow: UnitOfWork, lender: Lender) -> int:
    return len(uow.session.scalars(
        select(PartyMember.id).where(PartyMember.party_id == lender.party_id,
                                     PartyMember.role == "administrator",
                                     PartyMember.revoked_at.is_(None))).all())


def remove_member(uow: UnitOfWork, user: Any, lender_id: int, member_id: int) -> None:
    """An administrator removes a user from the lender (the last administrator stays)."""
    lender = require_admin(uow, user, lender_id)
    m = _member_of(uow, lender, member_id)
    if m.role == "administrator" and _admins(uow, lender) <= 1:
        raise Conflict("last_administrator")
    before = audit.snapshot(m)
    m.revoked_at = clock.now()
    audit.record(uow, user, "lender.member_removed", m, before=before, after=audit.snapshot(m))


def set_role(uow: UnitOfWork, user: Any, lender_id: int, member_id: int, role: str) -> None:
    if role not in ROLES:
        raise InvalidInput("role")
    lender = require_admin(uow, user, lender_id)
    m = _member_of(uow, lender, member_id)
    if m.role == role:
        return
    if m.role == "administrator" and _admins(uow, lender) <= 1:
        raise Conflict("last_administrator")
    before = audit.snapshot(m)
    m.role = role
    audit.record(uow, user, "lender.role_changed", m, before=before, after=audit.snapshot(m))


def _written(uow: UnitOfWork, user: Any, action: str, row: Any) -> None:
    """Add a new row carrying a secret's hash and audit-log it without the hash."""
    uow.session.add(row)
    uow.session.flush()
    audit.record(uow, user, action, row, after=audit.snapshot(row, exclude=("token_hash",)))


# --- invitations -----------------------------------------------------------------------------

def invite(uow: UnitOfWork, user: Any, lender_id: int, email: str, role: str
           ) -> tuple[LenderInvitation, str]:
    """An invitation (and the link's secret, to email once; only its hash is kept)."""
    from portal.people.users import normalise_email
    if role not in ROLES:
        raise InvalidInput("role")
    require_admin(uow, user, lender_id)
    email = normalise_email(email)
    secret = secrets.token_urlsafe(32)
    inv = LenderInvitation(lender_id=int(lender_id), email=email, role=role,
                           token_hash=_hash(secret), invited_by_id=_uid(user),
                           expires_at=clock.now() + timedelta(days=INVITATION_DAYS))
    _written(uow, user, "lender.invited", inv)
    return inv, secret


def invitations(uow: UnitOfWork, user: Any, lender_id: int) -> list[LenderInvitation]:
    """The open invitations (any member may read them)."""
    if _membership(uow, user, lender_id) is None:
        raise NotFound()
    return _invitations(uow, lender_id)


def _invitations(uow: UnitOfWork, lender_id: int) -> list[LenderInvitation]:
    return list(uow.session.scalars(
        select(LenderInvitation).where(LenderInvitation.lender_id == int(lender_id),
                                       LenderInvitation.accepted_at.is_(None),
                                       LenderInvitation.revoked_at.is_(None),
                                       LenderInvitation.expires_at > clock.now())
        .order_by(LenderInvitation.created_at)))


def withdraw(uow: UnitOfWork, user: Any, lender_id: int, invitation_id: int) -> None:
    require_admin(uow, user, lender_id)
    inv = uow.session.get(LenderInvitation, int(invitation_id))
    if inv is None or inv.lender_id != int(lender_id) or inv.accepted_at or inv.revoked_at:
        raise NotFound()
    inv.revoked_at = clock.now()
    audit.record(uow, user, "lender.invitation_withdrawn", inv,
                 after=audit.snapshot(inv, exclude=("token_hash",)))


def invitation(uow: UnitOfWork, user: Any, secret: str) -> tuple[LenderInvitation, str]:
    """The open invitation of this link for the signed-in user (their email must be the
    invited one) and the lender's name; NotFound otherwise (nothing said about whom)."""
    inv = uow.session.scalar(select(LenderInvitation).where(
        LenderInvitation.token_hash == _hash(secret or "")))
    if (inv is None or inv.accepted_at is not None or inv.revoked_at is not None
            or inv.expires_at <= clock.now()
            or getattr(user, "email", None) != inv.email):
        raise NotFound()
    name = uow.session.scalar(select(Party.name).join(Lender, Lender.party_id == Party.id)
                              .where(Lender.id == inv.lender_id)) or ""
    return inv, name


def accept(uow: UnitOfWork, user: Any, secret: str) -> Lender:
    inv, _name = invitation(uow, user, secret)
    lender = uow.session.get(Lender, inv.lender_id)
    assert lender is not None
    m = uow.session.scalar(select(PartyMember).where(PartyMember.party_id == lender.party_id,
                                                     PartyMember.user_id == _uid(user)))
    if m is None:
        m = PartyMember(party_id=lender.party_id, user_id=_uid(user), role=inv.role)
        uow.session.add(m)
    else:  # back after a removal (or already there): the invitation's role
        m.revoked_at, m.role = None, inv.role
    inv.accepted_at = clock.now()
    uow.session.flush()
    audit.record(uow, user, "lender.invitation_accepted", m, after=audit.snapshot(m))
    return lender


# --- API tokens --------------------------------------------------------------------------------

def create_token(uow: UnitOfWork, user: Any, lender_id: int, name: str, scope: str,
                 days: int) -> tuple[LenderApiToken, str]:
    """A new token and its secret (shown once: only its SHA-256 is kept)."""
    if scope not in SCOPES:
        raise InvalidInput("scope")
    if days not in TOKEN_DAYS:
        raise InvalidInput("days")
    name = (name or "").strip()
    if not name or len(name) > 80:
        raise InvalidInput("name")
    require_admin(uow, user, lender_id)
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    tok = LenderApiToken(lender_id=int(lender_id), name=name, prefix=secret[:12],
                         token_hash=_hash(secret), scope=scope, created_by_id=_uid(user),
                         expires_at=clock.now() + timedelta(days=days))
    _written(uow, user, "lender.token_created", tok)
    return tok, secret


def tokens(uow: UnitOfWork, user: Any, lender_id: int) -> list[LenderApiToken]:
    """The lender's tokens, the newest first (administrators only)."""
    require_admin(uow, user, lender_id)
    return _tokens(uow, lender_id)


def _tokens(uow: UnitOfWork, lender_id: int) -> list[LenderApiToken]:
    return list(uow.session.scalars(
        select(LenderApiToken).where(LenderApiToken.lender_id == int(lender_id))
        .order_by(LenderApiToken.created_at.desc(), LenderApiToken.id.desc())))


@dataclass(frozen=True)
class Organisation:
    """What the organisation's page shows (`organisation`)."""

    lender_id: int
    name: str  # the lender's
    role: str  # the user's there
    members: list[Member]
    invitations: list[LenderInvitation]
    tokens: list[LenderApiToken]  # an administrator's only (else none)


def organisation(uow: UnitOfWork, user: Any) -> Organisation:
    """The user's (first) lender as its page shows it: its name and the user's role read with
    the membership (`lender_of`'s), then its users, open invitations and, for an
    administrator, its tokens (`members`, `invitations`, `tokens`, without reading the
    membership again for each). NotFound for a user of no lender."""
    row = uow.session.execute(
        select(Lender.id, Party.name, PartyMember.role)
        .join(PartyMember, PartyMember.party_id == Lender.party_id)
        .join(Party, Party.id == Lender.party_id)
        .where(PartyMember.user_id == _uid(user), PartyMember.revoked_at.is_(None))
        .order_by(Lender.id).limit(1)).first()
    if row is None:
        raise NotFound()
    lender_id, name, role = row
    return Organisation(lender_id, name, role, _members(uow, lender_id),
                        _invitations(uow, lender_id),
                        _tokens(uow, lender_id) if role == "administrator" else [])


def revoke_token(uow: UnitOfWork, user: Any, lender_id: int, token_id: int) -> None:
    require_admin(uow, user, lender_id)
    tok = uow.session.get(LenderApiToken, int(token_id))
    if tok is None or tok.lender_id != int(lender_id):
        raise NotFound()
    if tok.revoked_at is None:
        tok.revoked_at = clock.now()
        audit.record(uow, user, "lender.token_revoked", tok,
                     after=audit.snapshot(tok, exclude=("token_hash",)))


def authenticate(uow: UnitOfWork, secret: str | None, *, write: bool = False
                 ) -> LenderApiToken:
    """The token of an `Authorization: Bearer` secret, its last use written (to the minute:
    `LAST_USE_STEP`); Unauthorized for none, an unknown, an expired or a revoked one;
    Forbidden("insufficient_scope") for a read token asked to write."""
    if not secret:
        raise Unauthorized()
    tok = uow.session.scalar(select(LenderApiToken).where(
        LenderApiToken.token_hash == _hash(secret)))
    now = clock.now()
    if tok is None or tok.revoked_at is not None or tok.expires_at <= now:
        raise Unauthorized()
    if write and tok.scope != "write":
        raise Forbidden("insufficient_scope")
    if tok.last_used_at is None or now - tok.last_used_at >= LAST_USE_STEP:
        tok.last_used_at = now
    return tok


def authenticated(uow: UnitOfWork, token_id: int) -> LenderApiToken:
    """The token `authenticate` accepted earlier in this request, read again in the request's
    next unit of work (its id kept on `flask.g`); Unauthorized if it was revoked or expired
    in between."""
    tok = uow.session.get(LenderApiToken, int(token_id))
    if tok is None or tok.revoked_at is not None or tok.expires_at <= clock.now():
        raise Unauthorized()
    return tok


def status(tok: LenderApiToken, now: datetime | None = None) -> str:
    """"active", "expired" or "revoked" (the tokens' list)."""
    now = now or clock.now()
    if tok.revoked_at is not None:
        return "revoked"
    return "expired" if tok.expires_at <= now else "active"


__all__ = ["ROLES", "SCOPES", "TOKEN_DAYS", "Member", "Organisation", "Unauthorized", "accept",
           "authenticate", "create_token", "invitation", "invitations", "invite", "lender_of",
           "members", "organisation", "remove_member", "require_admin", "revoke_token",
           "set_role", "status", "tokens", "withdraw"]
