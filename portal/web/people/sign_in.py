"""The end of every sign-in, the password path's and the second step's alike."""

from __future__ import annotations

from flask import redirect, session, url_for
from flask_login import login_user

from portal.i18n import LANGUAGES
from portal.people import users
from portal.web.accounts import views
from portal.web.data import uow
from portal.web.redirects import safe_next


def finish_sign_in(user, next_url: str | None):  # noqa: ANN001, ANN201
    """Sign `user` in (the password, and the second factor when asked, are checked)."""
    chosen = session.get("lang") if session.pop("lang_switched", False) else None
    if chosen in LANGUAGES and chosen != user.language:
        # Switched language before signing in: that choice becomes the preference.
        with uow() as w:
            users.set_language(w, user.id, chosen)
        user.language = chosen
    login_user(user)
    session["lang"] = user.language
    views.remember_lessee(views.is_lessee(user))
    return redirect(safe_next(next_url, url_for("accounts.dashboard")), 303)
