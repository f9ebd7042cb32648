"""Signed, expiring links (itsdangerous) for email confirmation and password reset.

A reset token carries a fingerprint of the current password hash, so it stops working once
the password has been changed (it works once).
"""

from __future__ import annotations

import hashlib

from flask import current_app
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

CONFIRM = "confirm-email"
RESET = "reset-password"


def _serializer(salt: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=salt)


def fingerprint(password_hash: str) -> str:
    return hashlib.sha256(password_hash.encode()).hexdigest()[:16]


def make_confirm(user_id: int, email: str) -> str:
    return _serializer(CONFIRM).dumps({"u": user_id, "e": email})


def read_confirm(token: str) -> dict | None:
    try:
        data = _serializer(CONFIRM).loads(token,
                                          max_age=current_app.config["EMAIL_TOKEN_MAX_AGE"])
    except (SignatureExpired, BadSignature):
        return None
    return data if isinstance(data, dict) else None


def make_reset(user_id: int, password_hash: str) -> str:
    return _serializer(RESET).dumps({"u": user_id, "f": fingerprint(password_hash)})


def read_reset(token: str) -> dict | None:
    try:
        data = _serializer(RESET).loads(token, max_age=current_app.config["RESET_TOKEN_MAX_AGE"])
    except (SignatureExpired, BadSignature):
        return None
    return data if isinstance(data, dict) else None
