"""Emailed notices: whether an account gets the notices the portal emails in bulk (the roll's
assessment notices, the owner's copy of a demand, the lenders' daily digest of decisions),
and their one-click unsubscribe (RFC 8058).

Each such email carries `List-Unsubscribe: <BASE/avisos/baja/TOKEN>` and
`List-Unsubscribe-Post: List-Unsubscribe=One-Click`; the token is the account's id signed
with SECRET_KEY (`token`, `link`), so no secret is stored and a forged or altered token is
refused (`NotFound`). `stop` records the choice on the account (`users.notice_emails_off_at`,
audited); `set_emails` turns it back on (or off) from the account page.

What the law requires still reaches the person (docs/MAIL.md, "Emailed notices"): an
assessment notice whose addressees stopped its email is printed for the mail, even where
they chose paperless (`paperless.paperless_parcels` reads this), and the owner's copy of a
demand goes to the staff's print file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from itsdangerous import BadData
from sqlalchemy import select

from portal import clock
from portal.accounts import audit
from portal.accounts.errors import NotFound
from portal.config import DEFAULT_BASE_URL, instance_path, secret_key
from portal.db import UnitOfWork
from portal.models import User
from portal.signing import timed_serializer

#: The one-click web route (tests/web/test_notice_unsubscribe.py checks it is the route's).
UNSUBSCRIBE = "/avisos/baja/{token}"
SALT = "notice-emails-unsubscribe"


@dataclass(frozen=True)
class Subscription:
    email: str
    stopped: bool  # the account gets no emailed notices


def _key(config: Mapping[str, Any]) -> str:
    return str(config.get("SECRET_KEY") or secret_key(instance_path()))


def token(config: Mapping[str, Any], user_id: int) -> str:
    """The account's one-click token: its id, signed with the app's SECRET_KEY."""
    return str(timed_serializer(_key(config), SALT).dumps(int(user_id)))


def link(config: Mapping[str, Any], user_id: int, lang: str | None = None) -> str:
    """The one-click address of the account's emailed notices; `lang`: its page's language."""
    base = str(config.get("PORTAL_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
    query = f"?{urlencode({'lang': lang})}" if lang else ""
    return base + UNSUBSCRIBE.format(token=token(config, user_id)) + query


def _user(uow: UnitOfWork, config: Mapping[str, Any], tok: str) -> User:
    if not tok or len(tok) > 200:
        raise NotFound()
    try:
        uid = timed_serializer(_key(config), SALT).loads(tok)
    except BadData:
        raise NotFound() from None
    user = uow.session.get(User, uid) if isinstance(uid, int) else None
    if user is None:
        raise NotFound()
    return user


def subscription(uow: UnitOfWork, config: Mapping[str, Any], tok: str) -> Subscription:
    """What the one-click link `tok` stops (NotFound for a forged or unknown one)."""
    user = _user(uow, config, tok)
    return Subscription(user.email, user.notice_emails_off_at is not None)


def stop(uow: UnitOfWork, config: Mapping[str, Any], tok: str) -> Subscription:
    """One click: the account's emailed notices stop. No sign-in: the signature is the
    proof. A second click changes nothing more."""
    user = _user(uow, config, tok)
    if user.notice_emails_off_at is None:
        user.notice_emails_off_at = clock.now()
        audit.record(uow, None, "notices.email_stopped", user,
                     after={"notice_emails": False, "by": "one_click"})
    return Subscription(user.email, True)


def emails_on(uow: UnitOfWork, user: Any) -> bool:
    row = uow.session.get(User, int(user.id))
    return row is not None and row.notice_emails_off_at is None


def set_emails(uow: UnitOfWork, user: Any, on: bool) -> bool:
    """The signed-in person's own choice (the account page); audited when it changes.
    Returns whether it changed."""
    row = uow.session.get(User, int(user.id))
    if row is None:
        raise NotFound()
    if (row.notice_emails_off_at is None) == bool(on):
        return False
    row.notice_emails_off_at = None if on else clock.now()
    audit.record(uow, user, "notices.email_started" if on else "notices.email_stopped", row,
                 after={"notice_emails": bool(on), "by": "account"})
    return True


def stopped(uow: UnitOfWork, user_ids: Iterable[int]) -> set[int]:
    """Which of `user_ids` get no emailed notices (one statement per call)."""
    ids = sorted({int(u) for u in user_ids})
    if not ids:
        return set()
    return set(uow.session.scalars(select(User.id).where(
        User.id.in_(ids), User.notice_emails_off_at.is_not(None))))
