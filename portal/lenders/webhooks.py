"""A lender's webhooks: its administrators register https endpoints (each gets a
signing secret, shown once) and remove them; any member reads the endpoints and the
delivery log. The events are written and posted by `portal.webhooks` (an outbox the worker
sends); the domains emit them: `batch.finished` (lenders.batches), `certification.decided`
(exemptions.review). Every change is audit-logged without the secret."""

from __future__ import annotations

import ipaddress
import secrets
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import func, select

from portal import clock
from portal.accounts import audit
from portal.accounts.errors import Conflict, InvalidInput, NotFound
from portal.db import UnitOfWork
from portal.lenders.tokens import _membership, require_admin
from portal.models import LenderWebhook, WebhookDelivery
from portal.models.webhooks import DELIVERY_STATUSES, WEBHOOK_EVENTS

SECRET_PREFIX = "whsec_"
#: Endpoints a lender may have at once.
MAX_ENDPOINTS = 5
MAX_URL = 500


def check_url(url: str, allow_local: bool = False) -> str:
    """The endpoint's address, or InvalidInput("url"): https, a host name (or a public IP
    address), no user or password in it; `allow_local`: http and local addresses too (the
    tests' receiver)."""
    url = (url or "").strip()
    if not url or len(url) > MAX_URL or any(c.isspace() or ord(c) < 32 for c in url):
        raise InvalidInput("url", field="url")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - a bad port raises
    except ValueError:
        raise InvalidInput("url", field="url") from None
    if parts.scheme != "https" and not (allow_local and parts.scheme == "http"):
        raise InvalidInput("url_https", field="url")
    host = parts.hostname or ""
    if not host or parts.username or parts.password or parts.fragment:
        raise InvalidInput("url", field="url")
    if not allow_local:
        if host == "localhost" or host.endswith((".localhost", ".local", ".internal")):
            raise InvalidInput("url_public", field="url")
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            ip = None
        if ip is not None and not ip.is_global:
            raise InvalidInput("url_public", field="url")
    return url


def register(uow: UnitOfWork, user: Any, lender_id: int, url: str, events: list[str],
             allow_local: bool = False) -> tuple[LenderWebhook, str]:
    """A new endpoint and its signing secret (shown once: the page that answers the form)."""
    require_admin(uow, user, lender_id)
    url = check_url(url, allow_local)
    chosen = [e for e in WEBHOOK_EVENTS if e in set(events or [])]
    if not chosen or len(chosen) != len(set(events)):
        raise InvalidInput("events", field="events")
    active = uow.session.scalar(select(func.count()).select_from(LenderWebhook).where(
        LenderWebhook.lender_id == int(lender_id), LenderWebhook.revoked_at.is_(None)))
    if active >= MAX_ENDPOINTS:
        raise Conflict("too_many_endpoints", most=MAX_ENDPOINTS)
    secret = SECRET_PREFIX + secrets.token_urlsafe(32)
    hook = LenderWebhook(lender_id=int(lender_id), url=url, secret=secret, events=chosen,
                         created_by_id=int(user.id))
    uow.session.add(hook)
    uow.session.flush()
    audit.record(uow, user, "lender.webhook_created", hook,
                 after={"url": url, "events": chosen})
    return hook, secret


def remove(uow: UnitOfWork, user: Any, lender_id: int, hook_id: int) -> None:
    """Nothing more is sent to it (its pending deliveries fail as "endpoint removed")."""
    require_admin(uow, user, lender_id)
    hook = uow.session.get(LenderWebhook, int(hook_id))
    if hook is None or hook.lender_id != int(lender_id) or hook.revoked_at is not None:
        raise NotFound()
    hook.revoked_at = clock.now()
    audit.record(uow, user, "lender.webhook_removed", hook, after={"url": hook.url})


def resend(uow: UnitOfWork, user: Any, lender_id: int, delivery_id: int) -> None:
    """A failed delivery to an endpoint still in force is sent again (its attempts counted
    afresh); an administrator's, audit-logged."""
    require_admin(uow, user, lender_id)
    d = uow.session.get(WebhookDelivery, int(delivery_id))
    if d is None or d.lender_id != int(lender_id):
        raise NotFound()
    hook = uow.session.get(LenderWebhook, d.webhook_id)
    if d.status != "failed" or hook is None or hook.revoked_at is not None:
        raise Conflict("not_failed")
    d.status, d.attempts, d.next_attempt_at = "pending", 0, clock.now()
    audit.record(uow, user, "lender.webhook_resent", d, after={"event_id": d.event_id})


def _member(uow: UnitOfWork, who: Any, lender_id: int) -> None:
    if getattr(who, "lender_id", None) == int(lender_id) and hasattr(who, "token_hash"):
        return  # the lender's API token
    if _membership(uow, who, lender_id) is None:
        raise NotFound()


def endpoints(uow: UnitOfWork, who: Any, lender_id: int) -> list[LenderWebhook]:
    """The lender's endpoints in force, oldest first (any member)."""
    _member(uow, who, lender_id)
    return list(uow.session.scalars(select(LenderWebhook).where(
        LenderWebhook.lender_id == int(lender_id), LenderWebhook.revoked_at.is_(None))
        .order_by(LenderWebhook.id)))


def deliveries(uow: UnitOfWork, who: Any, lender_id: int, *, status: str | None = None,
               offset: int = 0, limit: int = 50
               ) -> tuple[list[tuple[WebhookDelivery, str]], int]:
    """The delivery log, newest first: (delivery, its endpoint's address), and how many in
    all (any member, or the lender's token)."""
    _member(uow, who, lender_id)
    q = select(WebhookDelivery, LenderWebhook.url).join(
        LenderWebhook, LenderWebhook.id == WebhookDelivery.webhook_id).where(
        WebhookDelivery.lender_id == int(lender_id))
    if status is not None:
        if status not in DELIVERY_STATUSES:
            raise InvalidInput("status", field="status")
        q = q.where(WebhookDelivery.status == status)
    total = uow.session.scalar(select(func.count()).select_from(q.subquery())) or 0
    rows = uow.session.execute(q.order_by(WebhookDelivery.id.desc())
                               .offset(max(0, int(offset))).limit(max(1, int(limit)))).all()
    return [(d, url) for d, url in rows], total
