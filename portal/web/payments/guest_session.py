"""The guest's session (paying without an account, `guest.py`): the guest pass kept in the
server-side session, and the checkouts it started (read by the sandbox's test checkout as
well as by the guest's pages)."""

from __future__ import annotations

from typing import Any

from flask import session

from portal.accounts.errors import NotFound
from portal.payments import guest
from portal.web.data import uow

SESSION_KEY = "guest_pay"


def current_pass() -> guest.GuestPass | None:
    """The live guest pass of this session, if any (an ended one is forgotten)."""
    found = guest.GuestPass.from_dict(session.get(SESSION_KEY))
    if found is None and SESSION_KEY in session:
        session.pop(SESSION_KEY, None)
    return found


def keep(p: guest.GuestPass) -> None:
    session[SESSION_KEY] = p.as_dict()


def forget() -> None:
    session.pop(SESSION_KEY, None)


def guest_checkout(checkout_id: int) -> Any:
    """The checkout, if this browser's guest session started it (None otherwise)."""
    try:
        with uow() as w:
            return guest.checkout(w, current_pass(), checkout_id)
    except NotFound:
        return None
