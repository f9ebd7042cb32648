"""The signed link that opens a parcel's pay page without an account: the
QR code printed on every assessment notice (`roll.notices`) and statement of account, read
by the guest pay page (`payments.guest.read_pay_link`).

Signed with the portal's SECRET_KEY (itsdangerous, as the email links; its own salt), naming
the parcel only, and good for `LINK_DAYS` after it was made: a notice serves its fiscal year.
Its age is read on the portal's clock (`portal.clock`), not the system's. It lives in the
account kernel, below payments, so that the roll's notices print it without the payments
domain (which alone talks to Stripe).
"""

from __future__ import annotations

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from portal.signing import timed_serializer

#: How long the link opens the pay page.
LINK_DAYS = 550
#: The guest's way in (the form for the catastro number and the access code); the link is
#: `<base>/pagar-sin-cuenta/enlace/<token>`.
START_PATH = "/pagar-sin-cuenta"
_SALT = "portal.guest-pay"


def _signer(secret: str) -> URLSafeTimedSerializer:
    return timed_serializer(secret, _SALT)


def pay_link_token(parcel_id: int, secret: str) -> str:
    """The signed token of the parcel's pay link."""
    return _signer(secret).dumps({"p": int(parcel_id)})


def pay_link(base: str, parcel_id: int, secret: str) -> str:
    """The QR code's address: the parcel's guest pay page, signed."""
    return f"{base.rstrip('/')}{START_PATH}/enlace/{pay_link_token(parcel_id, secret)}"


def parcel_of(token: str, secret: str) -> int | None:
    """The parcel id a token names; None for one changed, signed with another key, older
    than `LINK_DAYS` or naming no parcel."""
    try:
        data = _signer(secret).loads(token, max_age=LINK_DAYS * 86400)
        return int(data["p"])
    except (BadSignature, SignatureExpired, KeyError, TypeError, ValueError):
        return None
