"""The absolute links a reminder carries, on PORTAL_BASE_URL: the daily task runs without a
request (a worker, `portal daily`), so the paths are written here, and
tests/web/test_reminders_pages.py checks that each is the web route it names."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from portal.accounts import pay_links
from portal.config import DEFAULT_BASE_URL, instance_path, secret_key

#: The web routes, by what they are for.
UNSUBSCRIBE = "/recordatorios/baja/{token}"
CONFIRM_RELATIVE = "/recordatorios/confirmar/{token}"
CALENDAR_FEED = "/calendario/{token}.ics"
SETTINGS = "/cuenta/recordatorios"
PAY = "/pagar"
#: The guest pay page: a relative has no account.
GUEST_PAY = pay_links.START_PATH


def base(config: Mapping[str, Any]) -> str:
    return str(config.get("PORTAL_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")


def url(config: Mapping[str, Any], path: str, **query: Any) -> str:
    q = {k: v for k, v in query.items() if v is not None}
    return base(config) + path + (f"?{urlencode(q)}" if q else "")


def unsubscribe(config: Mapping[str, Any], token: str, lang: str | None = None) -> str:
    """The one-click address; `lang`: its page in the reader's language."""
    return url(config, UNSUBSCRIBE.format(token=token), lang=lang)


def confirm_relative(config: Mapping[str, Any], token: str, lang: str | None = None) -> str:
    return url(config, CONFIRM_RELATIVE.format(token=token), lang=lang)


def calendar_feed(config: Mapping[str, Any], token: str) -> str:
    return url(config, CALENDAR_FEED.format(token=token))


def pay(config: Mapping[str, Any], parcel_id: int) -> str:
    return url(config, PAY, parcela=parcel_id)


def guest_pay(config: Mapping[str, Any], parcel_id: int) -> str:
    """The parcel's pay page without an account, by its signed link (the notice's QR code's:
    `accounts.pay_links`), signed with the app's SECRET_KEY, else the instance's key, as the
    notices' are."""
    key = str(config.get("SECRET_KEY") or secret_key(instance_path()))
    return pay_links.pay_link(base(config), parcel_id, key)
