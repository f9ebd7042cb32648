"""Signed, expiring links for email confirmation and password reset (itsdangerous, aged on
the portal's clock: `portal.signing`).

A reset token carries a fingerprint of the current password hash (`users.password_fingerprint`),
so it stops working once the password has been changed (it works once).
"""

from __future__ import annotations

from flask import current_app
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from portal.signing import timed_serializer

CONFIRM = "confirm-email"
RESET = "reset-password"


def _serializer(salt: str) -> URLSafeTimedSerializer:
    return timed_serializer(current_app.config["SECRET_KEY"], salt)


def make_confirm(user_id: int, email: str) -> str:
    return _serializer(CONFIRM).dumps({"u": user_id, "e": email})


def read_confirm(token: str) -> dict | None:
    try:
        data = _serializer(CONFIRM).loads(token,
                                          max_age=current_app.config["EMAIL_TOKEN_MAX_AGE"])
    except (SignatureExpired, BadSignature):
        return None
    return data if isinstance(data, dict) else None


def make_reset(user_id: int, fingerprint: str) -> str:
    """`fingerprint`: the services' `users.password_fingerprint(user)`."""
    return _serializer(RESET).dumps({"u": user_id, "f": fingerprint})


def read_reset(token: str) -> dict | None:
    try:
        data = _serializer(RESET).loads(token, max_age=current_app.config["RESET_TOKEN_MAX_AGE"])
    except (SignatureExpired, BadSignature):
        return None
    return data if isinstance(data, dict) else None
