"""Signed, expiring tokens read on the portal's clock.

Every signed link and cookie (email confirmation, password reset, email change, the guest pay
link, the anonymous session) is an itsdangerous `URLSafeTimedSerializer`. Its timestamps come
from `portal.clock`, not the system clock, so a token's age is the portal's idea of time: a
test that sets the clock sees links expire, and a portal run on a pinned day ages them alike.
"""

from __future__ import annotations

from typing import Any

from itsdangerous import TimestampSigner, URLSafeTimedSerializer

from portal import clock


class ClockSigner(TimestampSigner):
    """A timestamp signer whose "now" is `portal.clock.now()`."""

    def get_timestamp(self) -> int:
        return int(clock.now().timestamp())


def timed_serializer(secret: str | bytes, salt: str, serializer: Any = None
                     ) -> URLSafeTimedSerializer:
    """A URL-safe serializer with `salt`, signing with `secret` on the portal's clock."""
    return URLSafeTimedSerializer(secret, salt=salt, serializer=serializer, signer=ClockSigner)
