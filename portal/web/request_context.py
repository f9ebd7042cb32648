"""Who acts in this request, for the audit log: the request's address and its signed-in user.

Services never import Flask, so the web layer tells them: before each request it sets the
audit's `Actor` (`portal.accounts.audit.acting`) and resets it after. The user is read only
when a record is written, and only if the request has already loaded it (every signed-in
route has): writing a record never loads a user inside a transaction. The provider's webhook
acts as "provider" (`as_provider`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Blueprint, g, has_request_context, request

from portal.accounts import audit


def _signed_in_id() -> int | None:
    if not has_request_context():
        return None
    user = g.get("_login_user")  # Flask-Login's user of this request, once it is loaded
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return getattr(user, "id", None)


def address() -> str | None:
    """The address the request came from (as the server saw it)."""
    return request.remote_addr if has_request_context() else None


def _begin() -> None:
    g._audit_actor = audit.begin_acting(audit.Actor("user", address(), _signed_in_id))


def _end(_exc: BaseException | None = None) -> None:
    token = g.pop("_audit_actor", None)
    if token is not None:
        try:
            audit.end_acting(token)
        except ValueError:  # set in another context (a streamed response): just clear it
            audit.begin_acting(None)


@contextmanager
def as_provider() -> Iterator[Any]:
    """Records written inside are the payment provider's (a webhook), with its address."""
    with audit.acting(audit.Actor("provider", address())) as actor:
        yield actor


def register(bp: Blueprint) -> None:
    """Set the actor around every request of the app (from a blueprint's registration:
    once per app, however many blueprints ask)."""
    bp.record_once(_install)


def _install(state: Any) -> None:
    app = state.app
    if not app.extensions.get("audit_actor"):
        app.extensions["audit_actor"] = True
        app.before_request(_begin)
        app.teardown_request(_end)
