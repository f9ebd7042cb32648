"""The absolute links a reminder carries, on PORTAL_BASE_URL: the daily task runs without a
request (a worker, `portal daily`), so the paths are written here, and
tests/web/test_reminders_pages.py checks that each is the web route it names."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from portal.config import DEFAULT_BASE_URL

#: The web routes, by what they are for.
UNSUBSCRIBE = "/recordatorios/baja/{token}"
CONFIRM_RELATIVE = "/recordatorios/confirmar/{token}"
CALENDAR_FEED = "/calendario/{token}.ics"
SETTINGS = "/cuenta/recordatorios"
PAY = "/pagar"
#: The guest pay page (issue 27 item 4): a relative has no account.
GUEST_PAY = "/pagar-sin-cuenta"


def base(config: Mapping[str, Any]) -> str:
    return str(config.get("PORTAL_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")


def url(config: Mapping[str, Any], path: str, **query: Any) -> str:
    q = {k: v for k, v in query.items() if v is not None}
    return base(config) + path + (f"?{urlencode(q)}" if q else "")


def unsubscribe(config: Mapping[str, Any], token: str) -> str:
    return url(config, UNSUBSCRIBE.format(token=token))


def confirm_relative(config: Mapping[str, Any], token: str) -> str:
    return url(config, CONFIRM_RELATIVE.format(token=token))


def calendar_feed(config: Mapping[str, Any], token: str) -> str:
    return url(config, CALENDAR_FEED.format(token=token))


def pay(config: Mapping[str, Any], parcel_id: int) -> str:
    return url(config, PAY, parcela=parcel_id)


def guest_pay(config: Mapping[str, Any], catastro: str) -> str:
    return url(config, GUEST_PAY, catastro=catastro)
