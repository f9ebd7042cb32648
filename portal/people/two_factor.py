"""Two-factor sign-in: a TOTP authenticator (RFC 6238, `pyotp`) and single-use recovery codes.

A user is enrolled when `users.totp_enabled_at` is set. Enrolment keeps the new secret in
`users.totp_secret` with `totp_enabled_at` still null until the user types a code from it.
A code is accepted one 30-second step either side of now (`portal.clock.true_now()`: the
real time, which the demo's pinned day does not move), and each
step once: the step of the last code used is kept in its audit record, and a code of that
step or an earlier one is refused. Recovery codes (10) are shown once and stored hashed
(scrypt). Wrong codes are counted per user in the shared throttle (`accounts.throttle`, which
every web worker sees) and recorded in the audit log ("two_factor.failed"): after
`MAX_FAILURES` in the last `FAILURE_WINDOW` (a sliding window) every code is refused until
the count falls below it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import pyotp
from sqlalchemy import func, or_, select, update

from portal import clock, passwords
from portal.accounts import access, audit, throttle
from portal.accounts.errors import Conflict, Forbidden, InvalidInput, NotFound
from portal.db import UnitOfWork
from portal.models import AuditRecord, User
from portal.models.security import RecoveryCode
from portal.people import users

ISSUER = "Portal de Derramas PR"
STEP = 30
VALID_WINDOW = 1
RECOVERY_CODES = 10
MAX_FAILURES = 5
FAILURE_WINDOW = timedelta(minutes=15)
#: Recovery codes: 10 characters from an alphabet without look-alikes (about 50 bits).
_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
_CODE_LENGTH = 10
#: scrypt for recovery codes: random codes need no password-grade cost (16 MiB, ~30 ms).
_SCRYPT = (2**14, 8, 1)

USED = "two_factor.used"
RECOVERY_USED = "two_factor.recovery_code_used"
FAILED = "two_factor.failed"
ENROLLED = "two_factor.enrolled"
DISABLED = "two_factor.disabled"
REGENERATED = "two_factor.recovery_codes_regenerated"
RESET = "two_factor.reset_by_staff"
#: The longest reason staff may give for a reset (kept in the audit record).
MAX_REASON = 500


@dataclass(frozen=True)
class Outcome:
    """What checking a code gave. Wrong codes are recorded, so the caller commits either
    way: `ok`; `how` ("totp" or "recovery_code"); when refused, the tries `left` before the
    pause, or `retry_after` seconds when paused; `codes`: new recovery codes (shown once)."""

    ok: bool
    how: str = ""
    left: int = 0
    retry_after: int = 0
    codes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Enrolment:
    """A secret being enrolled: the text to type and the URI the QR code carries."""

    secret: str
    uri: str


def is_enrolled(user: User) -> bool:
    return user.totp_enabled_at is not None and bool(user.totp_secret)


def required(user: User) -> bool:
    """Whether signing in asks for a second factor: staff always, others once enrolled."""
    return bool(user.is_staff) or is_enrolled(user)


def new_secret() -> str:
    return pyotp.random_base32()


def provisioning_uri(secret: str, email: str) -> str:
    return pyotp.TOTP(secret, interval=STEP).provisioning_uri(name=email, issuer_name=ISSUER)


def code_at(secret: str, at: datetime) -> str:
    """The 6-digit code of `secret` at an instant (what an authenticator app shows)."""
    return pyotp.TOTP(secret, interval=STEP).at(at)


def matching_step(secret: str, code: str, at: datetime) -> int | None:
    """The time step (±`VALID_WINDOW` around `at`) whose code is `code`, else None."""
    code = "".join((code or "").split())
    if len(code) != 6 or not code.isascii() or not code.isdigit():
        return None
    totp = pyotp.TOTP(secret, interval=STEP)
    now_step = totp.timecode(at)
    for step in range(now_step - VALID_WINDOW, now_step + VALID_WINDOW + 1):
        if hmac.compare_digest(totp.generate_otp(step), code):
            return step
    return None


def normalise_recovery_code(code: str) -> str:
    return "".join(ch for ch in (code or "").lower() if ch.isascii() and ch.isalnum())


def _new_recovery_code() -> str:
    raw = "".join(secrets.choice(_ALPHABET) for _ in range(_CODE_LENGTH))
    return f"{raw[:5]}-{raw[5:]}"


def _hash_code(code: str) -> str:
    """werkzeug's format (`passwords.check_password` reads it) at a lower scrypt cost."""
    n, r, p = _SCRYPT
    salt = "".join(secrets.choice(passwords.SALT_CHARS) for _ in range(16))
    digest = hashlib.scrypt(normalise_recovery_code(code).encode(), salt=salt.encode(),
                            n=n, r=r, p=p, maxmem=132 * n * r * p)
    return f"scrypt:{n}:{r}:{p}${salt}${digest.hex()}"


def _user(uow: UnitOfWork, user_id: int) -> User:
    user = uow.session.get(User, int(user_id))
    if user is None or not user.is_active:
        raise NotFound()
    return user


def _replace_recovery_codes(uow: UnitOfWork, user: User) -> list[str]:
    s = uow.session
    for row in s.scalars(select(RecoveryCode).where(RecoveryCode.user_id == user.id)):
        s.delete(row)
    codes = [_new_recovery_code() for _ in range(RECOVERY_CODES)]
    s.add_all(RecoveryCode(user_id=user.id, code_hash=_hash_code(c)) for c in codes)
    return codes


def recovery_codes_left(uow: UnitOfWork, user_id: int) -> int:
    return uow.session.scalar(
        select(func.count()).select_from(RecoveryCode)
        .where(RecoveryCode.user_id == user_id, RecoveryCode.used_at.is_(None))) or 0


# --- Throttle and replay ------------------------------------------------------------------

def _key(user_id: int) -> str:
    return f"two_factor:user:{int(user_id)}"


def _window() -> int:
    return int(FAILURE_WINDOW.total_seconds())


def retry_after(uow: UnitOfWork, user_id: int) -> int:
    """Seconds until the user may try a code again (0: now)."""
    if throttle.blocked(uow, _key(user_id), MAX_FAILURES, _window()):
        return throttle.retry_after(uow, _key(user_id), MAX_FAILURES, _window())
    return 0


def _last_step(uow: UnitOfWork, user_id: int) -> int:
    rows = uow.session.scalars(
        select(AuditRecord.after).where(AuditRecord.actor_id == user_id,
                                        AuditRecord.action.in_((USED, ENROLLED)))
        .order_by(AuditRecord.id.desc()).limit(1)).all()
    after = rows[0] if rows else None
    return int((after or {}).get("step", -1))


def _fresh_step(uow: UnitOfWork, user: User, secret: str, code: str) -> int | None:
    """The code's step, consumed: one conditional UPDATE moves the user's last step to it
    only if it is later, so of two requests with one code at the same instant (PostgreSQL
    locks the row; SQLite writes one at a time) one is accepted, the other refused."""
    step = matching_step(secret, code, clock.true_now())
    if step is None or step <= _last_step(uow, user.id):
        return None
    taken = uow.session.execute(
        update(User).where(User.id == user.id, or_(User.totp_last_step.is_(None),
                                                   User.totp_last_step < step))
        .values(totp_last_step=step).execution_options(synchronize_session=False))
    return step if taken.rowcount == 1 else None


def _refuse(uow: UnitOfWork, user: User, kind: str) -> Outcome:
    audit.record(uow, user, FAILED, user, after={"kind": kind})
    throttle.hit(uow, _key(user.id), MAX_FAILURES, _window())
    left = MAX_FAILURES - throttle.count(uow, _key(user.id), _window())
    if left <= 0:
        return Outcome(False, retry_after=retry_after(uow, user.id))
    return Outcome(False, left=left)


def _paused(uow: UnitOfWork, user: User) -> Outcome | None:
    wait = retry_after(uow, user.id)
    return Outcome(False, retry_after=wait) if wait else None


# --- Enrolment ----------------------------------------------------------------------------

def begin_enrolment(uow: UnitOfWork, user_id: int) -> Enrolment:
    """The secret to enrol (a new one, or the one already shown and not yet confirmed).
    Raises Conflict("already_enrolled")."""
    user = _user(uow, user_id)
    if is_enrolled(user):
        raise Conflict("already_enrolled")
    if not user.totp_secret:
        user.totp_secret = new_secret()
    return Enrolment(user.totp_secret, provisioning_uri(user.totp_secret, user.email))


def confirm_enrolment(uow: UnitOfWork, user_id: int, code: str) -> Outcome:
    """Turn two-factor sign-in on once `code` comes from the new secret; the outcome carries
    the recovery codes (shown once). Raises Conflict when there is nothing to confirm."""
    user = _user(uow, user_id)
    if is_enrolled(user):
        raise Conflict("already_enrolled")
    if not user.totp_secret:
        raise Conflict("no_enrolment")
    paused = _paused(uow, user)
    if paused:
        return paused
    step = matching_step(user.totp_secret, code, clock.true_now())
    if step is None:
        return _refuse(uow, user, "enrol")
    user.totp_enabled_at = clock.now()
    user.totp_last_step = step  # the enrolling code is used up
    codes = _replace_recovery_codes(uow, user)
    audit.record(uow, user, ENROLLED, user, after={"step": step, "recovery_codes": len(codes)})
    return Outcome(True, how="totp", codes=tuple(codes))


def verify(uow: UnitOfWork, user_id: int, code: str = "", recovery_code: str = "") -> Outcome:
    """Check the second factor at sign-in: a current code of the authenticator, or else
    (`recovery_code` given) an unused recovery code, used up by this. Raises
    Conflict("not_enrolled")."""
    user = _user(uow, user_id)
    if not is_enrolled(user):
        raise Conflict("not_enrolled")
    paused = _paused(uow, user)
    if paused:
        return paused
    if recovery_code:
        if _use_recovery_code(uow, user, recovery_code):
            return Outcome(True, how="recovery_code")
        return _refuse(uow, user, "recovery_code")
    step = _fresh_step(uow, user, user.totp_secret or "", code)
    if step is None:
        return _refuse(uow, user, "totp")
    audit.record(uow, user, USED, user, after={"step": step})
    return Outcome(True, how="totp")


def _use_recovery_code(uow: UnitOfWork, user: User, code: str) -> bool:
    given = normalise_recovery_code(code)
    if len(given) != _CODE_LENGTH:
        return False
    rows = uow.session.scalars(select(RecoveryCode).where(
        RecoveryCode.user_id == user.id, RecoveryCode.used_at.is_(None))
        .order_by(RecoveryCode.id)).all()
    for row in rows:
        if passwords.check_password(row.code_hash, given):
            used = uow.session.execute(  # consumed once, even by two requests at once
                update(RecoveryCode).where(RecoveryCode.id == row.id,
                                           RecoveryCode.used_at.is_(None))
                .values(used_at=clock.now()).execution_options(synchronize_session=False))
            if used.rowcount != 1:
                return False
            audit.record(uow, user, RECOVERY_USED, user,
                         after={"recovery_code": row.id, "left": len(rows) - 1})
            return True
    return False


def _confirm_change(uow: UnitOfWork, user: User, code: str, kind: str) -> Outcome:
    """A current code (or an unused recovery code) confirms a change of one's own factor."""
    if not is_enrolled(user):
        raise Conflict("not_enrolled")
    paused = _paused(uow, user)
    if paused:
        return paused
    step = _fresh_step(uow, user, user.totp_secret or "", code)
    if step is not None:
        audit.record(uow, user, USED, user, after={"step": step, "for": kind})
        return Outcome(True, how="totp")
    if _use_recovery_code(uow, user, code):
        return Outcome(True, how="recovery_code")
    return _refuse(uow, user, kind)


def disable(uow: UnitOfWork, user_id: int, code: str) -> Outcome:
    """Turn one's own two-factor sign-in off, confirmed with a current code."""
    user = _user(uow, user_id)
    outcome = _confirm_change(uow, user, code, "disable")
    if outcome.ok:
        _turn_off(uow, user)
        audit.record(uow, user, DISABLED, user)
    return outcome


def _turn_off(uow: UnitOfWork, user: User) -> None:
    """No authenticator and no recovery codes: the password alone signs the user in."""
    user.totp_secret = None
    user.totp_enabled_at = None
    for row in uow.session.scalars(select(RecoveryCode).where(RecoveryCode.user_id == user.id)):
        uow.session.delete(row)


def reset_by_staff(uow: UnitOfWork, staff: Any, user_id: int, reason: str) -> User:
    """Staff turn another person's two-factor sign-in off (a lost phone and lost recovery
    codes), after checking who the person is; `reason` (required: how they checked) goes
    into the audit record with the staff member and the address. The person's sessions all
    end; with a password alone they sign in again, and a staff member must enrol again
    before any staff page opens. Nobody resets their own (`disable` is for that).
    Raises Forbidden (not staff, or oneself), NotFound, Conflict("not_enrolled"),
    InvalidInput("reason")."""
    access.require_staff_role(staff, access.ADMINISTRATOR)  # docs/STAFF.md
    user = _user(uow, user_id)
    if user.id == staff.id:
        raise Forbidden()
    reason = " ".join((reason or "").split())
    if not reason or len(reason) > MAX_REASON:
        raise InvalidInput("invalid", field="reason")
    if user.totp_enabled_at is None and user.totp_secret is None:
        raise Conflict("not_enrolled")
    was = {"enabled_at": user.totp_enabled_at.isoformat() if user.totp_enabled_at else None,
           "recovery_codes_left": recovery_codes_left(uow, user.id)}
    _turn_off(uow, user)
    ended = users.end_sessions(uow, user.id)
    audit.record(uow, staff, RESET, user, before=was,
                 after={"reason": reason, "sessions_ended": ended})
    return user


def regenerate_recovery_codes(uow: UnitOfWork, user_id: int, code: str) -> Outcome:
    """New recovery codes (the old ones stop working), confirmed with a current code."""
    user = _user(uow, user_id)
    outcome = _confirm_change(uow, user, code, "regenerate")
    if not outcome.ok:
        return outcome
    codes = _replace_recovery_codes(uow, user)
    audit.record(uow, user, REGENERATED, user, after={"recovery_codes": len(codes)})
    return Outcome(True, how=outcome.how, codes=tuple(codes))


def enrol_with_secret(uow: UnitOfWork, user: User, secret: str) -> None:
    """Enrol a known secret without a code (the demo's staff account; never the web)."""
    user.totp_secret = secret
    user.totp_enabled_at = clock.now()
    audit.record(uow, user, ENROLLED, user, after={"step": -1, "recovery_codes": 0})
