"""Staff API tokens: how a system (the CRIM's) sends the portal its file of plan payments
(docs/EXEMPTION.md, "The CRIM's file"; docs/SECURITY.md).

A token acts as one staff member who decides certifications (an administrator or a
reviewer, `plans.RECORD`): what it records is recorded as theirs, in the audit log with the
token's id. It has one scope, `plan_payments` (send the CRIM's file; nothing else of the API
or the pages), is shown once and kept as its SHA-256, expires (30, 90 or 365 days) and is
revoked at once. Administrators create and revoke them from the command line
(`portal staff-token create|revoke|list`): a system's credential is set up by whoever runs
the portal, not through a page a stolen session could reach.

Each request checks again that the staff member still has the role: a token of someone
who left or lost the role is refused (403 `insufficient_scope`), as an expired or revoked
one is (401 `invalid_token`).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Any

from sqlalchemy import select

from portal import clock
from portal.accounts import access, audit
from portal.accounts.errors import Forbidden, InvalidInput, NotFound, ServiceError
from portal.db import UnitOfWork
from portal.exemptions import plans
from portal.models import StaffApiToken, User

SCOPES = ("plan_payments",)
TOKEN_DAYS = (30, 90, 365)
TOKEN_PREFIX = "pds_"  # "portal de derramas, staff": findable by secret scanners


class Unauthorized(ServiceError):
    """No token, an unknown one, or one expired or revoked (the API's 401)."""

    code = "invalid_token"


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def create(uow: UnitOfWork, admin: Any, staff_email: str, name: str, *,
           scope: str = "plan_payments", days: int = 90) -> tuple[StaffApiToken, str]:
    """A token acting as the staff member `staff_email` and its secret (shown once).
    `admin`: the administrator who creates it (or None for the command line's operator)."""
    if admin is not None:
        access.require_staff_role(admin, access.ADMINISTRATOR)
    if scope not in SCOPES:
        raise InvalidInput("scope")
    if days not in TOKEN_DAYS:
        raise InvalidInput("days")
    name = (name or "").strip()
    if not name or len(name) > 80:
        raise InvalidInput("name")
    user = uow.session.scalar(select(User).where(User.email == (staff_email or "").strip()
                                                 .lower()))
    if user is None or not access.has_staff_role(user, *plans.RECORD):
        raise NotFound()
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    tok = StaffApiToken(user_id=user.id, name=name, prefix=secret[:12],
                        token_hash=_hash(secret), scope=scope,
                        expires_at=clock.now() + timedelta(days=days))
    uow.session.add(tok)
    uow.session.flush()
    audit.record(uow, admin, "staff.token_created", tok,
                 after=audit.snapshot(tok, ("user_id", "name", "prefix", "scope",
                                            "expires_at")))
    return tok, secret


def revoke(uow: UnitOfWork, admin: Any, token_id: int) -> StaffApiToken:
    if admin is not None:
        access.require_staff_role(admin, access.ADMINISTRATOR)
    tok = uow.session.get(StaffApiToken, int(token_id))
    if tok is None:
        raise NotFound()
    if tok.revoked_at is None:
        tok.revoked_at = clock.now()
        audit.record(uow, admin, "staff.token_revoked", tok)
    return tok


def listing(uow: UnitOfWork) -> list[tuple[StaffApiToken, str]]:
    """Every token with its staff member's email, the newest first (the command line)."""
    return [tuple(r) for r in uow.session.execute(
        select(StaffApiToken, User.email).join(User, User.id == StaffApiToken.user_id)
        .order_by(StaffApiToken.id.desc()))]


def authenticate(uow: UnitOfWork, secret: str | None, scope: str) -> tuple[StaffApiToken, User]:
    """The token of an `Authorization: Bearer` secret and the staff member it acts as, its
    last use written. Unauthorized for none, an unknown, an expired or a revoked one;
    Forbidden for a token without `scope` or whose staff member no longer has the role."""
    if not secret:
        raise Unauthorized()
    tok = uow.session.scalar(select(StaffApiToken).where(
        StaffApiToken.token_hash == _hash(secret)))
    now = clock.now()
    if tok is None or tok.revoked_at is not None or tok.expires_at <= now:
        raise Unauthorized()
    user = uow.session.get(User, tok.user_id)
    if tok.scope != scope or user is None or not access.has_staff_role(user, *plans.RECORD) \
            or getattr(user, "disabled_at", None) is not None:
        raise Forbidden("insufficient_scope")
    tok.last_used_at = now
    return tok, user
