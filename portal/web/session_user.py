"""The signed-in user as Flask-Login sees it (loaded through the users service).

The session's row is read with its user in one statement (`session_store`); the user is
loaded apart only when the session did not read it."""

from __future__ import annotations

from portal.people import users
from portal.web import session_store
from portal.web.data import uow


def load(user_id: str):  # noqa: ANN201
    found, user = session_store.preloaded_user(user_id)
    if not found:
        with uow() as w:
            user = users.load_user(w, user_id)
    if user is None or not user.is_active:
        return None
    return user
