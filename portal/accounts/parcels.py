"""Claiming a parcel with its access code, granting and revoking access, issuing codes.

- The code printed on a parcel's notice opens it: `claim(uow, user, catastro, code)` links
  the user as its owner (or as the lessee who pays, for a leased public parcel, R-A16).
- Wrong codes are rate limited for whoever guesses, never for the parcel: after
  `MAX_FAILURES` failed claims in `WINDOW` by the same user, or `MAX_ADDRESS_FAILURES` from
  the same address (`uow.info["ip"]`, counted in `accounts.throttle`), that user or address
  is refused for a while (`ClaimRateLimited`, with `retry_after` seconds); the owner typing
  the right code succeeds however many others guessed wrong. Failed attempts are committed
  even though the claim raises, so they count.
- Only the code's hash is stored (salted SHA-256, `hash_code`); staff issue and rotate codes
  (`issue_code`), the plain code is returned once, to print.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from datetime import timedelta
from typing import Any

from sqlalchemy import func, select

from portal import clock
from portal.accounts import access, audit, invitations, policy, throttle
from portal.accounts.errors import (
    ClaimRateLimited,
    ClaimRefused,
    Conflict,
    Forbidden,
    InvalidInput,
    NotFound,
)
from portal.db import UnitOfWork
from portal.models import AccessCode, ClaimAttempt, Lease, Parcel, ParcelLink, User

MAX_FAILURES = 5
MAX_ADDRESS_FAILURES = 20
WINDOW = timedelta(minutes=15)
ADDRESS_WINDOW = 60 * 60
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
CODE_LENGTH = 12
_SCRYPT = {"r": 8, "p": 1}  # codes stored as scrypt before: their n is in the hash
GRANT_ROLES = ("delegate", "lessee")


def normalise_catastro(text: str) -> str:
    """The catastro number as stored: groups joined by dashes ("040 012 345 67",
    "040-012-345-67" and "04001234567" are the same parcel)."""
    groups = [g for g in re.split(r"[\s\-\u2010-\u2015.]+", (text or "").strip()) if g]
    if len(groups) == 1 and groups[0].isdigit() and len(groups[0]) == 11:
        d = groups[0]
        groups = [d[:3], d[3:6], d[6:9], d[9:]]
    return "-".join(groups).upper()


def normalise_code(code: str) -> str:
    """Upper case, without spaces or dashes: "abcd-efgh jk23" -> "ABCDEFGHJK23"."""
    return "".join(c for c in (code or "").upper() if c.isalnum())


def format_code(code: str) -> str:
    c = normalise_code(code)
    return "-".join(c[i:i + 4] for i in range(0, len(c), 4))


def generate_code() -> str:
    return format_code("".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH)))


def hash_code(code: str, *, salt: bytes | None = None) -> str:
    """The stored form of an access code: a salted SHA-256, `sha256$salt$digest`.

    An access code is 12 random characters of a 32-letter alphabet (60 bits, `secrets`), not
    a password a person chose: a slow hash adds nothing against guessing it offline that its
    length does not already give, and a claim is throttled per user and address. So it is
    hashed as the lenders' API tokens are (fast), which lets a roll's first mailing issue a
    code for each of 1.5 M unclaimed parcels in seconds rather than core-hours. Codes stored
    as scrypt (`scrypt$n$salt$digest`) still check."""
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.sha256(salt + normalise_code(code).encode()).hexdigest()
    return f"sha256${salt.hex()}${digest}"


def check_code(stored: str, code: str) -> bool:
    try:
        kind, *parts = stored.split("$")
        if kind == "sha256":
            salt, digest = parts
            candidate = hash_code(code, salt=bytes.fromhex(salt)).split("$")[2]
        elif kind == "scrypt":
            n, salt, digest = parts
            candidate = hashlib.scrypt(normalise_code(code).encode(), salt=bytes.fromhex(salt),
                                       n=int(n), r=_SCRYPT["r"], p=_SCRYPT["p"],
                                       dklen=32).hex()
        else:
            return False
    except ValueError:
        return False
    return hmac.compare_digest(candidate, digest)


def _claim_role(uow: UnitOfWork, parcel: Parcel) -> str:
    """The code goes to whoever pays (R-A16): the lessee of a leased public parcel."""
    if parcel.owner_kind == "private":
        return "owner"
    today = clock.today()
    lease = uow.session.scalar(
        select(Lease.id).where(Lease.parcel_id == parcel.id, Lease.lessee_pays.is_(True),
                               Lease.starts_on <= today,
                               (Lease.ends_on.is_(None)) | (Lease.ends_on >= today)))
    return "lessee" if lease is not None else "owner"


def _retry_after(uow: UnitOfWork, condition: Any, limit: int) -> int | None:
    since = clock.now() - WINDOW
    times = uow.session.scalars(
        select(ClaimAttempt.at).where(condition, ClaimAttempt.succeeded.is_(False),
                                      ClaimAttempt.at > since)
        .order_by(ClaimAttempt.at.desc()).limit(limit)).all()
    if len(times) < limit:
        return None
    oldest = min(times)
    return max(1, int((oldest + WINDOW - clock.now()).total_seconds()) + 1)


def _address_key(uow: UnitOfWork) -> str | None:
    ip = uow.info.get("ip")
    return f"claim:ip:{ip}" if ip else None


def _fail(uow: UnitOfWork, user: Any, typed: str, parcel: Parcel | None) -> None:
    key = _address_key(uow)
    if key is not None:
        throttle.hit(uow, key, MAX_ADDRESS_FAILURES, ADDRESS_WINDOW)
    uow.session.add(ClaimAttempt(user_id=user.id, parcel_id=parcel.id if parcel else None,
                                 catastro=typed[:40], succeeded=False, ip=uow.info.get("ip")))
    if parcel is not None:
        for code in uow.session.scalars(select(AccessCode).where(
                AccessCode.parcel_id == parcel.id, AccessCode.revoked_at.is_(None))):
            code.failed_attempts += 1
    uow.commit()  # the attempt counts even though the claim is refused


def claim(uow: UnitOfWork, user: Any, catastro: str, code: str) -> Parcel:
    """Link the user to the parcel whose catastro number and access code they typed.

    Raises `ClaimRateLimited` (too many wrong codes lately) or `ClaimRefused` (unknown
    catastro or wrong code: the same error for both). Claiming again is harmless.
    """
    if user is None or getattr(user, "id", None) is None:
        raise Forbidden()
    wait = _retry_after(uow, ClaimAttempt.user_id == user.id, MAX_FAILURES)
    if wait is not None:
        raise ClaimRateLimited(retry_after=wait)
    key = _address_key(uow)
    if key is not None and throttle.blocked(uow, key, MAX_ADDRESS_FAILURES, ADDRESS_WINDOW):
        raise ClaimRateLimited(retry_after=throttle.retry_after(
            uow, key, MAX_ADDRESS_FAILURES, ADDRESS_WINDOW))
    typed = normalise_catastro(catastro)
    parcel = uow.session.scalar(select(Parcel).where(Parcel.catastro == typed)) if typed else None
    codes = [] if parcel is None else list(uow.session.scalars(
        select(AccessCode).where(AccessCode.parcel_id == parcel.id,
                                 AccessCode.revoked_at.is_(None))))
    match = next((c for c in codes if check_code(c.code_hash, code)), None)
    if parcel is None or match is None:
        _fail(uow, user, typed or (catastro or ""), parcel)
        raise ClaimRefused()
    uow.session.add(ClaimAttempt(user_id=user.id, parcel_id=parcel.id, catastro=typed,
                                 succeeded=True, ip=uow.info.get("ip")))
    match.last_used_at = clock.now()
    live = uow.session.scalar(select(ParcelLink).where(
        ParcelLink.user_id == user.id, ParcelLink.parcel_id == parcel.id,
        ParcelLink.revoked_at.is_(None)))
    if live is None:
        link = ParcelLink(user_id=user.id, parcel_id=parcel.id, role=_claim_role(uow, parcel),
                          source="code")
        uow.session.add(link)
        uow.session.flush()
        audit.record(uow, user, "parcel.claimed", link, after=audit.snapshot(link))
    return parcel


def issue_code(uow: UnitOfWork, staff: Any, parcel_id: int) -> str:
    """Staff: a new access code for the parcel (any earlier one stops working). The plain
    code is returned once, to print on the notice; only its hash is kept."""
    access.require_staff_role(staff, *access.REVIEW)
    parcel = uow.session.get(Parcel, int(parcel_id))
    if parcel is None:
        raise NotFound()
    now = clock.now()
    rotated = 0
    for old in uow.session.scalars(select(AccessCode).where(
            AccessCode.parcel_id == parcel.id, AccessCode.revoked_at.is_(None))):
        old.revoked_at = now
        rotated += 1
    code = generate_code()
    row = AccessCode(parcel_id=parcel.id, code_hash=hash_code(code), issued_by_id=staff.id)
    uow.session.add(row)
    uow.session.flush()
    audit.record(uow, staff, "access_code.rotated" if rotated else "access_code.issued", row,
                 after={"parcel_id": parcel.id, "rotated": rotated})
    return code


def revoke_codes(uow: UnitOfWork, staff: Any, parcel_id: int) -> int:
    """Staff: withdraw the parcel's codes without issuing a new one."""
    access.require_staff_role(staff, *access.REVIEW)
    n = 0
    for old in uow.session.scalars(select(AccessCode).where(
            AccessCode.parcel_id == int(parcel_id), AccessCode.revoked_at.is_(None))):
        old.revoked_at = clock.now()
        n += 1
    audit.record(uow, staff, "access_code.revoked", object_type="parcels",
                 object_id=parcel_id, after={"revoked": n})
    return n


def grant(uow: UnitOfWork, owner: Any, parcel_id: int, email: str,
          role: str = "delegate", *, may_pay: bool = False,
          reason: str = "") -> ParcelLink | None:
    """An owner (or an administrator, saying why: `policy.MANAGE_ACCESS`) gives another
    registered person read access to the parcel, as a `delegate` (`may_pay`: allowed to pay
    it online too) or as its `lessee`. None when no account uses that email: an invitation is
    kept instead (`accounts.invitations`), which becomes the link when an account with that
    email is confirmed; the caller answers the same either way (no account enumeration)."""
    if role not in GRANT_ROLES:
        raise InvalidInput("invalid", field="role")
    parcel, reason = policy.require_manager(uow, owner, parcel_id, reason=reason)
    email = (email or "").strip().lower()
    if email == (getattr(owner, "email", "") or "").lower():
        raise InvalidInput("cannot_grant_self", field="email")
    grantee = uow.session.scalar(select(User).where(User.email == email))
    if grantee is None:
        if invitations.invite(uow, owner, parcel.id, email, role,
                              may_pay=may_pay and role == "delegate", reason=reason) is None:
            raise Conflict("already_linked")
        return None
    if grantee.id == owner.id:
        raise InvalidInput("cannot_grant_self", field="email")
    live = uow.session.scalar(select(func.count()).select_from(ParcelLink).where(
        ParcelLink.user_id == grantee.id, ParcelLink.parcel_id == parcel.id,
        ParcelLink.revoked_at.is_(None)))
    if live:
        raise Conflict("already_linked")
    link = ParcelLink(user_id=grantee.id, parcel_id=parcel.id, role=role,
                      source="staff" if access.is_staff(owner) else "grant",
                      granted_by_id=owner.id, may_pay=may_pay and role == "delegate")
    uow.session.add(link)
    uow.session.flush()
    audit.record(uow, owner, "access.granted", link, after=policy.snapshot(link, reason))
    return link


def revoke(uow: UnitOfWork, user: Any, parcel_id: int, link_id: int, *,
           reason: str = "") -> ParcelLink:
    """End a link: an owner revokes what was granted on the parcel (not a claim with its
    code), anyone may leave a parcel (their own link), an administrator may end any link,
    saying why (`policy.MANAGE_ACCESS`)."""
    parcel = access.get_parcel(uow, user, parcel_id)
    link = uow.session.get(ParcelLink, int(link_id))
    if link is None or link.parcel_id != parcel.id or link.revoked_at is not None:
        raise NotFound()
    if link.user_id != user.id:
        if link.source == "code" and not access.is_staff(user):
            raise Forbidden()
        _parcel, reason = policy.require_manager(uow, user, parcel.id, reason=reason)
    before = audit.snapshot(link)
    link.revoked_at = clock.now()
    link.revoked_by_id = user.id
    uow.session.flush()
    audit.record(uow, user, "access.revoked", link, before=before,
                 after=policy.snapshot(link, reason))
    return link



def links(uow: UnitOfWork, user: Any, parcel_id: int) -> list[tuple[ParcelLink, User]]:
    """The live links of the parcel with their users: all of them for whoever manages it,
    only one's own otherwise."""
    parcel = access.get_parcel(uow, user, parcel_id)
    stmt = (select(ParcelLink, User).join(User, User.id == ParcelLink.user_id)
            .where(ParcelLink.parcel_id == parcel.id, ParcelLink.revoked_at.is_(None))
            .order_by(ParcelLink.created_at, ParcelLink.id))
    if not (access.is_staff(user) or policy.can_manage(uow, user, parcel.id)):
        stmt = stmt.where(ParcelLink.user_id == user.id)
    return [(link, u) for link, u in uow.session.execute(stmt)]


def access_list(uow: UnitOfWork, manager: Any, parcel_id: int) -> list[dict[str, Any]]:
    """For whoever manages the parcel: every other person who can see it, or will once their
    account is confirmed, alike ({"email", "role", "since"}), oldest first."""
    parcel = (access.get_parcel(uow, manager, parcel_id) if access.is_staff(manager)
              else policy.require_manager(uow, manager, parcel_id)[0])
    rows = [{"email": person.email, "role": link.role, "since": link.created_at}
            for link, person in links(uow, manager, parcel.id) if person.id != manager.id]
    rows += [{"email": inv.email, "role": inv.role, "since": inv.created_at}
             for inv in invitations.open_for(uow, parcel.id)]
    return sorted(rows, key=lambda r: (r["since"], r["email"]))


def revoke_email(uow: UnitOfWork, manager: Any, parcel_id: int, email: str, *,
                 reason: str = "") -> None:
    """Whoever manages the parcel ends the access given to `email`: its link (one given by an
    owner or staff; not a claim with a code) or its open invitation. NotFound otherwise."""
    parcel, reason = policy.require_manager(uow, manager, parcel_id, reason=reason)
    email = (email or "").strip().lower()
    link = uow.session.scalar(
        select(ParcelLink).join(User, User.id == ParcelLink.user_id)
        .where(ParcelLink.parcel_id == parcel.id, ParcelLink.revoked_at.is_(None),
               User.email == email, User.id != manager.id))
    if link is not None:
        revoke(uow, manager, parcel.id, link.id, reason=reason)
        return
    found = invitations.open_for(uow, parcel.id, email)
    if not found:
        raise NotFound()
    invitations.withdraw(uow, manager, found[0], reason=reason)


def staff_link(uow: UnitOfWork, staff: Any, parcel_id: int, user_id: int,
               role: str = "owner") -> ParcelLink:
    """Staff link a user to a parcel directly (e.g. after checking papers at the office)."""
    access.require_staff_role(staff, *access.REVIEW)
    if role not in ("owner", "lessee", "delegate"):
        raise InvalidInput("invalid", field="role")
    if uow.session.get(Parcel, int(parcel_id)) is None or uow.session.get(User, int(user_id)) \
            is None:
        raise NotFound()
    live = uow.session.scalar(select(ParcelLink).where(
        ParcelLink.user_id == int(user_id), ParcelLink.parcel_id == int(parcel_id),
        ParcelLink.revoked_at.is_(None)))
    if live is not None:
        raise Conflict("already_linked")
    link = ParcelLink(user_id=int(user_id), parcel_id=int(parcel_id), role=role,
                      source="staff", granted_by_id=staff.id)
    uow.session.add(link)
    uow.session.flush()
    audit.record(uow, staff, "access.linked_by_staff", link, after=audit.snapshot(link))
    return link
