"""Sign-ins: registration, authentication, confirmation, password and language.

Passwords are hashed here (scrypt, `portal.passwords`); the web layer makes and checks the signed
tokens (email confirmation, password reset) and may bind a reset token to
`password_fingerprint(user)` so that it works once.
"""

from __future__ import annotations

import hashlib

from sqlalchemy import and_, bindparam, func, or_, select

from portal import clock, passwords
from portal.db import UnitOfWork
from portal.models import Lender, PartyMember, User
from portal.models.users import LANGUAGES
from portal.services import audit
from portal.services.errors import Conflict, Forbidden, InvalidInput, NotFound

MIN_PASSWORD_LENGTH = 10
_DUMMY_HASH = passwords.hash_password("not a password of anyone")


def normalise_email(email: str) -> str:
    return (email or "").strip().lower()


def hash_password(password: str) -> str:
    if len(password or "") < MIN_PASSWORD_LENGTH:
        raise InvalidInput("password_too_short", field="password", min=MIN_PASSWORD_LENGTH)
    return passwords.hash_password(password)


def password_fingerprint(user: User) -> str:
    """Changes whenever the password changes: bind a reset token to it so it works once."""
    return hashlib.sha256(user.password_hash.encode()).hexdigest()[:16]


def _with_lenders(uow: UnitOfWork, user: User | None) -> User | None:
    if user is None:
        return None
    ids = uow.session.scalars(
        select(Lender.id).join(PartyMember, PartyMember.party_id == Lender.party_id)
        .where(PartyMember.user_id == user.id, PartyMember.revoked_at.is_(None))
        .order_by(Lender.id)).all()
    user.__dict__["_lender_ids"] = tuple(ids)
    return user


# Built once with a bound parameter: it runs on every request (docs/WEB.md, "Speed").
_LOAD_USER = (select(User, Lender.id)
              .outerjoin(PartyMember, and_(PartyMember.user_id == User.id,
                                           PartyMember.revoked_at.is_(None)))
              .outerjoin(Lender, Lender.party_id == PartyMember.party_id)
              .where(User.id == bindparam("uid")))


def load_user(uow: UnitOfWork, user_id: int | str) -> User | None:
    """The user for a session (Flask-Login's loader), with `is_lender`; None if unknown.
    One statement: it runs on every request."""
    try:
        uid = int(user_id)
    except (TypeError, ValueError):
        return None
    rows = uow.session.execute(_LOAD_USER, {"uid": uid}).all()
    if not rows:
        return None
    user = rows[0][0]
    user.__dict__["_lender_ids"] = tuple(sorted({lid for _, lid in rows if lid is not None}))
    return user


def find_by_email(uow: UnitOfWork, email: str) -> User | None:
    user = uow.session.scalar(select(User).where(User.email == normalise_email(email)))
    return _with_lenders(uow, user)


def register(uow: UnitOfWork, email: str, password: str, name: str = "",
             language: str = "es") -> User:
    """A new, unconfirmed sign-in. Raises Conflict("email_taken") for a known email."""
    email = normalise_email(email)
    if "@" not in email or len(email) > 254:
        raise InvalidInput("invalid", field="email")
    if language not in LANGUAGES:
        raise InvalidInput("invalid", field="language")
    if uow.session.scalar(select(func.count()).select_from(User).where(User.email == email)):
        raise Conflict("email_taken")
    user = User(email=email, password_hash=hash_password(password), name=(name or "").strip(),
                language=language, is_staff=False)
    uow.session.add(user)
    uow.session.flush()
    user.__dict__["_lender_ids"] = ()
    return user


def authenticate(uow: UnitOfWork, email: str, password: str) -> User | None:
    """The user if the email and password match and the sign-in is active; else None.

    Takes as long for an unknown email as for a wrong password.
    """
    user = uow.session.scalar(select(User).where(User.email == normalise_email(email)))
    if user is None:
        passwords.check_password(_DUMMY_HASH, password or "")
        return None
    if not passwords.check_password(user.password_hash, password or ""):
        return None
    if not user.is_active:
        return None
    user.last_sign_in_at = clock.now()
    return _with_lenders(uow, user)


def _get(uow: UnitOfWork, user_id: int) -> User:
    user = uow.session.get(User, int(user_id))
    if user is None:
        raise NotFound()
    return user


def confirm_email(uow: UnitOfWork, user_id: int) -> User:
    user = _get(uow, user_id)
    if user.email_confirmed_at is None:
        user.email_confirmed_at = clock.now()
    return user


def set_password(uow: UnitOfWork, user_id: int, password: str) -> User:
    user = _get(uow, user_id)
    user.password_hash = hash_password(password)
    audit.record(uow, user, "user.password_changed", user)
    return user


def set_language(uow: UnitOfWork, user_id: int, language: str) -> User:
    if language not in LANGUAGES:
        raise InvalidInput("invalid", field="language")
    user = _get(uow, user_id)
    user.language = language
    return user


def set_totp_secret(uow: UnitOfWork, user_id: int, secret: str | None) -> User:
    user = _get(uow, user_id)
    user.totp_secret = secret
    audit.record(uow, user, "user.totp_enabled" if secret else "user.totp_disabled", user)
    return user


def search_people(uow: UnitOfWork, staff: User, query: str, limit: int = 50) -> list[User]:
    """Staff only: users whose email or name contains `query` (its "%" and "_" are the
    characters themselves, not wildcards)."""
    if not getattr(staff, "is_staff", False):
        raise Forbidden()
    q = (query or "").strip().lower()
    return list(uow.session.scalars(
        select(User).where(or_(User.email.contains(q, autoescape=True),
                               func.lower(User.name).contains(q, autoescape=True)))
        .order_by(User.email).limit(limit)))
