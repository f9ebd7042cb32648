"""One's own account (the account page, /cuenta): the telephone and a change of email.

The telephone is read with `phonenumbers` (Google's libphonenumber metadata: lengths, area
codes, formats of every country, kept up to date by its maintainers; hand-written patterns
would wrongly refuse or accept numbers), Puerto Rico the default region: "787 555 0142",
"(787) 555-0142" and "+1 787 555 0142" are the same number. It is stored in E.164
("+17875550142") and shown in the national format of Puerto Rico ("(787) 555-0142"), other
countries' numbers in the international one.

A new email is the person's only once they open the signed link sent to it (the web layer
makes the link): `email_change_target` checks the request, `change_email` makes it, only if
the account still has the email the link was made for (so a link works once), and the old
address is then told (the caller sends it).
"""

from __future__ import annotations

import phonenumbers
from sqlalchemy import func, select

from portal import clock
from portal.accounts import audit
from portal.accounts.errors import Conflict, InvalidInput, NotFound
from portal.db import UnitOfWork
from portal.models import User
from portal.people import users

DEFAULT_REGION = "PR"
#: At most this many characters typed (a number with spaces, dashes and an extension fits).
MAX_PHONE_INPUT = 40


def parse_phone(raw: str | None) -> str | None:
    """The number in E.164, or None for an empty answer (no telephone). Raises
    InvalidInput with field "phone" and code "phone_unreadable" (no number in it),
    "phone_length" (too few or too many digits for its country) or "phone_invalid" (a number
    no country uses, such as an area code that does not exist)."""
    text = (raw or "").strip()
    if not text:
        return None
    if len(text) > MAX_PHONE_INPUT:
        raise InvalidInput("phone_length", field="phone")
    try:
        number = phonenumbers.parse(text, DEFAULT_REGION)
    except phonenumbers.NumberParseException as exc:
        if exc.error_type in (phonenumbers.NumberParseException.TOO_SHORT_NSN,
                              phonenumbers.NumberParseException.TOO_SHORT_AFTER_IDD,
                              phonenumbers.NumberParseException.TOO_LONG):
            raise InvalidInput("phone_length", field="phone") from None
        raise InvalidInput("phone_unreadable", field="phone") from None
    if not phonenumbers.is_possible_number(number):
        raise InvalidInput("phone_length", field="phone")
    if not phonenumbers.is_valid_number(number):
        raise InvalidInput("phone_invalid", field="phone")
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def format_phone(e164: str | None) -> str:
    """How a stored number is shown: "(787) 555-0142" for Puerto Rico (and the rest of the
    +1 area: the reader dials it the same way), "+34 912 34 56 78" for another country."""
    if not e164:
        return ""
    try:
        number = phonenumbers.parse(e164, DEFAULT_REGION)
    except phonenumbers.NumberParseException:
        return e164
    style = (phonenumbers.PhoneNumberFormat.NATIONAL if number.country_code == 1
             else phonenumbers.PhoneNumberFormat.INTERNATIONAL)
    return phonenumbers.format_number(number, style)


def _get(uow: UnitOfWork, user_id: int) -> User:
    user = uow.session.get(User, int(user_id))
    if user is None:
        raise NotFound()
    return user


def set_phone(uow: UnitOfWork, user_id: int, raw: str | None) -> User:
    """The person's telephone (empty: none); InvalidInput as `parse_phone`, nothing changed."""
    phone = parse_phone(raw)
    user = _get(uow, user_id)
    if user.phone != phone:
        before = user.phone
        user.phone = phone
        audit.record(uow, user, "user.phone_changed", user, before={"phone": before},
                     after={"phone": phone})
    return user


def _taken(uow: UnitOfWork, email: str, user_id: int) -> bool:
    return bool(uow.session.scalar(select(func.count()).select_from(User).where(
        User.email == email, User.id != int(user_id))))


def email_change_target(uow: UnitOfWork, user_id: int, new_email: str) -> str:
    """The new email, normalised, that a confirmation link may be sent to. Raises
    InvalidInput("same_email") when it is the account's own, InvalidInput("invalid") when it
    is no email, Conflict("email_taken") when another account uses it (the caller answers
    the same either way, and tells that address instead: no account enumeration)."""
    user = _get(uow, user_id)
    email = users.normalise_email(new_email)
    if "@" not in email or len(email) > 254:
        raise InvalidInput("invalid", field="email")
    if email == user.email:
        raise InvalidInput("same_email", field="email")
    if _taken(uow, email, user.id):
        raise Conflict("email_taken")
    return email


def change_email(uow: UnitOfWork, user_id: int, old_email: str, new_email: str) -> User:
    """The account's email becomes `new_email`, confirmed now (the person opened the link sent
    to it). Raises NotFound when the account no longer has `old_email` (the link was used, or
    the email changed since) and Conflict("email_taken") when another account took the new
    email meanwhile; nothing changes then."""
    user = _get(uow, user_id)
    if user.email != users.normalise_email(old_email):
        raise NotFound()
    email = users.normalise_email(new_email)
    if _taken(uow, email, user.id):
        raise Conflict("email_taken")
    before = user.email
    user.email = email
    user.email_confirmed_at = clock.now()
    audit.record(uow, user, "user.email_changed", user, before={"email": before},
                 after={"email": email})
    return user
