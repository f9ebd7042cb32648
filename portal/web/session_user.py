"""The signed-in user as Flask-Login sees it (loaded through the users service)."""

from __future__ import annotations

from portal.services import users
from portal.web.data import uow


def load(user_id: str):  # noqa: ANN201
    with uow() as w:
        user = users.load_user(w, user_id)
    if user is None or not user.is_active:
        return None
    return user
