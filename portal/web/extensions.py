"""Flask extensions shared by the blueprints: CSRF, sessions (Flask-Login), rate limits."""

from __future__ import annotations

from flask import Flask
from flask_babel import gettext
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager
from flask_wtf.csrf import CSRFProtect

from portal.core.explain import N_

csrf = CSRFProtect()
login_manager = LoginManager()
limiter = Limiter(key_func=get_remote_address, default_limits=[], strategy="fixed-window")


@login_manager.user_loader
def load_user(user_id: str):  # noqa: ANN201 - the service's user, or None
    from portal.web import session_user
    return session_user.load(user_id)


def init_app(app: Flask) -> None:
    csrf.init_app(app)
    login_manager.init_app(app)
    login_manager.login_view = "auth.sign_in"
    login_manager.login_message = N_("Please sign in to see this page.")
    login_manager.localize_callback = gettext
    login_manager.login_message_category = "info"
    login_manager.session_protection = "basic"
    limiter.init_app(app)
