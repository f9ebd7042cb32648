"""The signed-in user as Flask-Login sees it (loaded through the accounts service)."""

from __future__ import annotations


def load(user_id: str):  # noqa: ANN201
    try:
        from portal.services import accounts
    except ImportError:  # the data layer has not landed yet
        return None
    return accounts.load_user(user_id)
