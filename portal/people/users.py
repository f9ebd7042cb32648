"""Sign-ins: registration, authentication, confirmation, password and language.

Passwords are hashed here (scrypt, `portal.passwords`); the web layer makes and checks the signed
tokens (email confirmation, password reset) and may bind a reset token to
`password_fingerprint(user)` so that it works once.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, bindparam, delete, func, insert, or_, select, update
from sqlalchemy.orm import make_transient_to_detached

from portal import clock, passwords
from portal.accounts import audit, invitations, throttle
from portal.accounts.errors import Conflict, Forbidden, InvalidInput, NotFound
from portal.db import Database, UnitOfWork
from portal.models import Lender, PartyMember, User
from portal.models.security import WebSession
from portal.models.users import LANGUAGES
from portal.people import password_policy

MIN_PASSWORD_LENGTH = password_policy.MIN_LENGTH
_DUMMY_HASH = passwords.hash_password("not a password of anyone")

#: Sign-in throttle (docs/WEB.md, "Throttling and passwords"): (failures, seconds).
SIGNIN_ACCOUNT = (10, 15 * 60)   # wrong passwords for one email, from every address
SIGNIN_ADDRESS = (50, 60 * 60)   # wrong passwords from one address, for every email


def normalise_email(email: str) -> str:
    return (email or "").strip().lower()


def hash_password(password: str) -> str:
    """The password's hash (no strength check: `choose_password` is the one a person's new
    password goes through)."""
    if len(password or "") < MIN_PASSWORD_LENGTH:
        raise InvalidInput("password_too_short", field="password", min=MIN_PASSWORD_LENGTH)
    return passwords.hash_password(password)


def choose_password(password: str, email: str = "", name: str = "") -> str:
    """The hash of a password a person chose, after `passwords_policy.require` (raises
    InvalidInput("weak_password", problems=[...]))."""
    password_policy.require(password, email, name)
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
    """A new, unconfirmed sign-in. Raises Conflict("email_taken") for a known email, after
    the same work as for a new one (the password checked and hashed: no timing tells)."""
    email = normalise_email(email)
    if "@" not in email or len(email) > 254:
        raise InvalidInput("invalid", field="email")
    if language not in LANGUAGES:
        raise InvalidInput("invalid", field="language")
    password_hash = choose_password(password, email, name)
    if uow.session.scalar(select(func.count()).select_from(User).where(User.email == email)):
        raise Conflict("email_taken")
    user = User(email=email, password_hash=password_hash, name=(name or "").strip(),
                language=language, is_staff=False)
    uow.session.add(user)
    uow.session.flush()
    user.__dict__["_lender_ids"] = ()
    return user


def _signin_keys(email: str, address: str | None) -> tuple[str, str | None, str | None]:
    """The throttle's keys: the email (its digest: unknown emails are counted the same as
    known ones, so the throttle tells nothing), the email from this address, the address."""
    digest = hashlib.sha256(normalise_email(email).encode()).hexdigest()[:32]
    if not address:
        return f"signin:account:{digest}", None, None
    return (f"signin:account:{digest}", f"signin:pair:{digest}:{address}",
            f"signin:ip:{address}")


def _check_signin_throttle(uow: UnitOfWork, email: str, address: str | None) -> None:
    account, pair, ip = _signin_keys(email, address)
    if ip is not None and throttle.blocked(uow, ip, *SIGNIN_ADDRESS):
        raise throttle.Throttled(retry_after=throttle.retry_after(uow, ip, *SIGNIN_ADDRESS))
    if throttle.blocked(uow, account, *SIGNIN_ACCOUNT) and (
            pair is None or throttle.count(uow, pair, SIGNIN_ACCOUNT[1]) > 0):
        raise throttle.Throttled(retry_after=throttle.retry_after(uow, account, *SIGNIN_ACCOUNT))


def _count_signin_failure(uow: UnitOfWork, email: str, address: str | None) -> None:
    account, pair, ip = _signin_keys(email, address)
    throttle.hit(uow, account, *SIGNIN_ACCOUNT)
    if pair is not None and ip is not None:
        throttle.hit(uow, pair, *SIGNIN_ACCOUNT)
        throttle.hit(uow, ip, *SIGNIN_ADDRESS)


def lift_signin_throttle(uow: UnitOfWork, email: str) -> None:
    """Forget the wrong passwords counted for this email (a reset link or a verified second
    factor proves the person: they sign in even while the account is throttled)."""
    account, _pair, _ip = _signin_keys(email, None)
    throttle.clear(uow, account)
    throttle.clear(uow, account.replace("signin:account:", "signin:pair:") + ":", prefix=True)


def authenticate(uow: UnitOfWork, email: str, password: str,
                 address: str | None = None) -> User | None:
    """The user if the email and password match and the sign-in is active; else None.

    Takes as long for an unknown email as for a wrong password. With the client's
    `address`, wrong passwords are counted (per address, per email, per email and address)
    and `throttle.Throttled` (with `retry_after`) is raised, before any password is checked,
    while that address made `SIGNIN_ADDRESS` failures, or the email had `SIGNIN_ACCOUNT`
    failures and this address is one of those that failed on it: the right password from
    an address that did not guess still signs in (docs/WEB.md, "Throttling and passwords").
    """
    _check_signin_throttle(uow, email, address)
    user = uow.session.scalar(select(User).where(User.email == normalise_email(email)))
    if user is None:
        passwords.check_password(_DUMMY_HASH, password or "")
        _count_signin_failure(uow, email, address)
        return None
    if not passwords.check_password(user.password_hash, password or ""):
        _count_signin_failure(uow, email, address)
        return None
    if not user.is_active:
        return None
    pair = _signin_keys(email, address)[1]
    if pair is not None:
        throttle.clear(uow, pair)
    user.last_sign_in_at = clock.now()
    return _with_lenders(uow, user)


def _get(uow: UnitOfWork, user_id: int) -> User:
    user = uow.session.get(User, int(user_id))
    if user is None:
        raise NotFound()
    return user


def confirm_email(uow: UnitOfWork, user_id: int) -> User:
    """Mark the email confirmed; the access owners gave to this email before the account
    existed (`accounts.invitations`) becomes the user's."""
    user = _get(uow, user_id)
    if user.email_confirmed_at is None:
        user.email_confirmed_at = clock.now()
    invitations.accept(uow, user)
    return user


def set_password(uow: UnitOfWork, user_id: int, password: str) -> User:
    """A new password the user chose (`passwords_policy`); the wrong passwords counted for
    the account are forgotten (a reset link proves the person)."""
    user = _get(uow, user_id)
    user.password_hash = choose_password(password, user.email, user.name)
    lift_signin_throttle(uow, user.email)
    audit.record(uow, user, "user.password_changed", user)
    return user


def change_password(uow: UnitOfWork, user_id: int, current: str, new: str,
                    address: str | None = None) -> User:
    """A signed-in user's new password: the current one is checked first, throttled and
    counted as a sign-in is (`authenticate`); raises InvalidInput("wrong_password",
    field="current") or `throttle.Throttled`, then `set_password`'s checks."""
    user = check_password(uow, user_id, current, address)
    return set_password(uow, user.id, new)


def check_password(uow: UnitOfWork, user_id: int, current: str,
                   address: str | None = None) -> User:
    """The signed-in user, once `current` is their password (before a change the password
    protects: the password itself, the email); throttled and counted as a sign-in is; raises
    InvalidInput("wrong_password", field="current") or `throttle.Throttled`."""
    user = _get(uow, user_id)
    _check_signin_throttle(uow, user.email, address)
    if not passwords.check_password(user.password_hash, current or ""):
        _count_signin_failure(uow, user.email, address)
        uow.commit()  # the failure counts although the change is refused
        raise InvalidInput("wrong_password", field="current")
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


# --- Web sessions (server-side: the web layer keeps only a token in the cookie) --------------

@dataclass(frozen=True)
class OpenSession:
    """A live web session's row: its data (JSON text) and the user signed in, if any."""

    data: str
    user_id: int | None
    last_seen_at: datetime
    expires_at: datetime
    user: User | None


# Built once with bound parameters: the first statement runs on every signed-in request and
# reads the session and its user (as `load_user` does) together, in SQLAlchemy Core on a
# connection of its own: no ORM session, no identity map, no unit of work (they were most of
# the statement's cost; docs/WEB.md, "Speed").
_SESSIONS, _USERS = WebSession.__table__, User.__table__
_USER_COLUMNS = tuple((attr.key, attr.columns[0]) for attr in User.__mapper__.column_attrs)
_OPEN_SESSION = (select(_SESSIONS.c.data, _SESSIONS.c.user_id, _SESSIONS.c.last_seen_at,
                        _SESSIONS.c.expires_at, Lender.__table__.c.id,
                        *(column for _, column in _USER_COLUMNS))
                 .select_from(_SESSIONS)
                 .outerjoin(_USERS, _USERS.c.id == _SESSIONS.c.user_id)
                 .outerjoin(PartyMember.__table__, and_(
                     PartyMember.__table__.c.user_id == _USERS.c.id,
                     PartyMember.__table__.c.revoked_at.is_(None)))
                 .outerjoin(Lender.__table__,
                            Lender.__table__.c.party_id == PartyMember.__table__.c.party_id)
                 .where(_SESSIONS.c.id == bindparam("sid")))
_DELETE_SESSION = delete(WebSession).where(WebSession.id == bindparam("sid"))
_DELETE_EXPIRED = delete(WebSession).where(WebSession.expires_at <= bindparam("now"))
_SAVE_SESSION = (update(WebSession).where(WebSession.id == bindparam("sid"))
                 .values(data=bindparam("data"), user_id=bindparam("uid"),
                         last_seen_at=bindparam("now")))
_TOUCH_SESSION = (update(WebSession).where(WebSession.id == bindparam("sid"))
                  .values(last_seen_at=bindparam("now")))


def open_session(database: Database, sid: str, idle: timedelta) -> OpenSession | None:
    """The session whose id (the hash of the cookie's token) is `sid`, with its user (a
    detached `User`, as one loaded by a unit of work that has ended); None when there is none
    or it has ended: idle for `idle` or past its absolute end (then its row is deleted). One
    read-only statement while it lives."""
    with database.engine.connect() as conn:
        rows = conn.execute(_OPEN_SESSION, {"sid": sid}).all()
        # Ended with a COMMIT, not the ROLLBACK of a connection closed in a transaction: at a
        # ROLLBACK psycopg deallocates every statement it prepared on the connection, so
        # PostgreSQL would plan the reads of every request again (docs/DATA.md).
        conn.commit()
    if not rows:
        return None
    data, user_id, last_seen, expires = rows[0][:4]
    now = clock.now()
    if now >= expires or now - last_seen >= idle:
        with database.engine.begin() as conn:
            conn.execute(_DELETE_SESSION, {"sid": sid})
        return None
    user = None
    if rows[0][_USER_ID_AT] is not None:  # signed in (the row's user exists)
        user = _detached_user(rows[0][5:], tuple(sorted({r[4] for r in rows
                                                         if r[4] is not None})))
    return OpenSession(data, user_id, last_seen, expires, user)


def _detached_user(values: tuple, lender_ids: tuple[int, ...]) -> User:
    """A `User` from its columns' values, detached (its identity set, every column loaded,
    nothing pending): what a unit of work's query leaves once it has ended."""
    user = _new_user()
    state = user.__dict__
    for (key, _), value in zip(_USER_COLUMNS, values, strict=True):
        state[key] = value
    make_transient_to_detached(user)
    state["_lender_ids"] = lender_ids
    return user


_new_user = User.__mapper__.class_manager.new_instance
_USER_ID_AT = 5 + [key for key, _ in _USER_COLUMNS].index("id")


def create_session(uow: UnitOfWork, sid: str, data: str, user_id: int | None,
                   lifetime: timedelta, address: str = "", user_agent: str = "") -> None:
    """A new session row (its absolute end `lifetime` from now). The rows past their end are
    deleted by the worker's hourly pass (`purge_sessions`), not here: signing in writes one
    row and nothing else."""
    now = clock.now()
    uow.session.execute(insert(WebSession).values(
        id=sid, data=data, user_id=user_id, created_at=now, last_seen_at=now,
        expires_at=now + lifetime, address=(address or "")[:45],
        user_agent=(user_agent or "")[:200]))


def purge_sessions(uow: UnitOfWork, now: datetime | None = None) -> int:
    """Delete the session rows past their absolute end (an indexed range); how many. An
    idle one past its idle timeout is refused when it is next opened (`open_session`) and
    deleted here once its absolute end has passed too."""
    return uow.session.execute(_DELETE_EXPIRED, {"now": now or clock.now()}).rowcount or 0


def save_session(uow: UnitOfWork, sid: str, data: str, user_id: int | None) -> bool:
    """Write a session's data; False when its row is gone (the session was ended meanwhile:
    it is not brought back)."""
    result = uow.session.execute(_SAVE_SESSION, {"sid": sid, "data": data, "uid": user_id,
                                                 "now": clock.now()})
    return bool(result.rowcount)


def touch_session(uow: UnitOfWork, sid: str) -> None:
    """The session was used now (its idle timeout counts from here)."""
    uow.session.execute(_TOUCH_SESSION, {"sid": sid, "now": clock.now()})


def delete_session(uow: UnitOfWork, sid: str) -> None:
    uow.session.execute(_DELETE_SESSION, {"sid": sid})


def end_sessions(uow: UnitOfWork, user_id: int, except_sid: str | None = None) -> int:
    """End every session of the user (sign-out, a new password, "sign out other devices"),
    but `except_sid`'s when given; how many were ended."""
    stmt = delete(WebSession).where(WebSession.user_id == int(user_id))
    if except_sid is not None:
        stmt = stmt.where(WebSession.id != except_sid)
    return uow.session.execute(stmt).rowcount or 0
