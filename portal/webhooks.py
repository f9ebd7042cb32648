"""Webhooks: a lender's events written as rows in the unit of work that caused
them, posted by the worker, signed, retried; the same outbox pattern as the mail's
(`portal.outbox`), one level of the house below the domains so that any of them (a batch
finishing in `lenders`, a decision in `exemptions`) writes its event.

- `emit(uow, lender_id, event, data)`: a `webhook_deliveries` row for each of the lender's
  endpoints that takes `event`, in the caller's unit of work: the event exists if and only
  if what caused it was committed.
- `deliver_due(database)`: the worker claims due rows with a token of its own (`SELECT ...
  FOR UPDATE SKIP LOCKED` on PostgreSQL, a conditional UPDATE on SQLite, as the mail's
  outbox), posts each as JSON with `Portal-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of
  "<t>.<body>" with the endpoint's secret>` (Stripe's scheme: the receiver checks the
  signature and that t is recent, so a captured request cannot be replayed later), and marks
  it delivered on a 2xx; otherwise it is tried again after 30 s, 1 min, 2 min, ... up to 2 h
  between attempts, and failed after `MAX_ATTEMPTS` (about a day). A redirect is not
  followed (an answer that is not 2xx). An endpoint whose address resolves to a private,
  loopback or link-local address is refused (the portal's own network is not reachable
  through it) unless `allow_local` (the tests' local receiver).
- `verify(secret, header, body, now)`: the receiver's check, for the bank's developers and
  the tests.

No library: the standard library's `hmac`, `hashlib`, `http.client`, `ssl` and `ipaddress`
(a webhook client library would bring its own queue; the portal already has one, its
worker's).
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import ipaddress
import json
import logging
import secrets
import socket
import ssl
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import and_, or_, select, update

from portal import clock
from portal.db import Database, UnitOfWork, is_sqlite
from portal.models import LenderWebhook, WebhookDelivery

log = logging.getLogger(__name__)

SIGNATURE = "Portal-Signature"
#: How old a signature's timestamp may be when the receiver checks it (seconds).
TOLERANCE = 300
BATCH = 50
LEASE = timedelta(minutes=5)
FIRST_WAIT = timedelta(seconds=30)
MAX_WAIT = timedelta(hours=2)
MAX_ATTEMPTS = 12
TIMEOUT = 10
USER_AGENT = "portal-webhooks/1"


def backoff(attempts: int) -> timedelta:
    """The wait after the `attempts`-th failed attempt: 30 s, 1 min, 2 min, ... 2 h."""
    return min(FIRST_WAIT * (2 ** max(attempts - 1, 0)), MAX_WAIT)


def emit(uow: UnitOfWork, lender_id: int, event: str, data: dict[str, Any]) -> int:
    """The event for each of the lender's endpoints that takes it (rows in `uow`); how many."""
    now = clock.now()
    hooks = uow.session.scalars(select(LenderWebhook).where(
        LenderWebhook.lender_id == int(lender_id), LenderWebhook.revoked_at.is_(None)))
    n = 0
    for hook in hooks:
        if event not in (hook.events or []):
            continue
        event_id = "evt_" + secrets.token_hex(12)
        uow.session.add(WebhookDelivery(
            webhook_id=hook.id, lender_id=hook.lender_id, event_id=event_id, event=event,
            payload={"id": event_id, "type": event, "created": now.isoformat(), "data": data},
            status="pending", attempts=0, next_attempt_at=now))
        n += 1
    return n


def body_of(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode()


def sign(secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), f"{int(timestamp)}.".encode() + body, hashlib.sha256)
    return f"t={int(timestamp)},v1={mac.hexdigest()}"


def verify(secret: str, header: str, body: bytes, now: datetime,
           tolerance: int = TOLERANCE) -> bool:
    """Whether `header` (Portal-Signature) signs `body` with `secret`, made within
    `tolerance` seconds of `now`."""
    parts = dict(p.split("=", 1) for p in header.split(",") if "=" in p)
    try:
        t = int(parts.get("t", ""))
    except ValueError:
        return False
    if abs(now.timestamp() - t) > tolerance:
        return False
    expected = sign(secret, t, body).split(",v1=", 1)[1]
    return hmac.compare_digest(expected, parts.get("v1", ""))


def _due(now: datetime) -> Any:
    return and_(WebhookDelivery.status == "pending", WebhookDelivery.next_attempt_at <= now,
                or_(WebhookDelivery.claim_token.is_(None), WebhookDelivery.claimed_until < now))


def _claim(database: Database, token: str, limit: int) -> list[tuple[WebhookDelivery, Any]]:
    now = clock.now()
    with UnitOfWork(database) as uow:
        pick: Any = (select(WebhookDelivery.id).where(_due(now))
                     .order_by(WebhookDelivery.id).limit(limit))
        if not is_sqlite(database.engine):
            ids = list(uow.session.scalars(pick.with_for_update(skip_locked=True)))
            if not ids:
                return []
            pick = ids
        uow.session.execute(
            update(WebhookDelivery).where(WebhookDelivery.id.in_(pick), _due(now))
            .values(claim_token=token, claimed_until=now + LEASE)
            .execution_options(synchronize_session=False))
    with UnitOfWork(database) as uow:
        rows = list(uow.session.execute(
            select(WebhookDelivery, LenderWebhook)
            .join(LenderWebhook, LenderWebhook.id == WebhookDelivery.webhook_id)
            .where(WebhookDelivery.claim_token == token).order_by(WebhookDelivery.id)).all())
        uow.session.expunge_all()
        return [(d, h) for d, h in rows]


def _mark(database: Database, row_id: int, token: str, **values: Any) -> bool:
    with UnitOfWork(database) as uow:
        done = uow.session.execute(
            update(WebhookDelivery).where(WebhookDelivery.id == row_id,
                                          WebhookDelivery.claim_token == token)
            .values(claim_token=None, claimed_until=None, **values)
            .execution_options(synchronize_session=False))
        return done.rowcount == 1


class Refused(Exception):
    """The endpoint cannot be posted to at all (its address): failed at once."""


def public_address(host: str, port: int) -> None:
    """Refused unless every address `host` resolves to is a public one."""
    try:
        infos = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except OSError as exc:
        raise ConnectionError(f"cannot resolve {host}: {exc}") from None
    for info in infos:
        ip = ipaddress.ip_address(info[4][0])
        if not ip.is_global:
            raise Refused(f"{host} is not a public address")


def post(url: str, body: bytes, headers: dict[str, str], allow_local: bool = False
         ) -> int:
    """POST `body` to `url`; the answer's status (no redirect followed)."""
    parts = urlsplit(url)
    if parts.scheme != "https" and not (allow_local and parts.scheme == "http"):
        raise Refused("not an https address")
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    if not allow_local:
        public_address(host, port)
    conn: http.client.HTTPConnection
    if parts.scheme == "https":
        conn = http.client.HTTPSConnection(host, port, timeout=TIMEOUT,
                                           context=ssl.create_default_context())
    else:
        conn = http.client.HTTPConnection(host, port, timeout=TIMEOUT)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        conn.request("POST", path, body=body, headers=headers)
        resp = conn.getresponse()
        resp.read(4096)
        return resp.status
    finally:
        conn.close()


def _failed(database: Database, d: WebhookDelivery, token: str, reason: str,
            status: int | None, permanent: bool) -> str:
    attempts = d.attempts + 1
    if permanent or attempts >= MAX_ATTEMPTS:
        _mark(database, d.id, token, status="failed", attempts=attempts,
              last_status=status, last_error=reason[:2000])
        log.warning("webhook %s (%s) failed: %s", d.id, d.event, reason)
        return "failed"
    _mark(database, d.id, token, attempts=attempts, last_status=status,
          last_error=reason[:2000], next_attempt_at=clock.now() + backoff(attempts))
    return "retry"


def deliver_due(database: Database, *, limit: int = BATCH, allow_local: bool = False
                ) -> dict[str, int]:
    """Post one batch of due deliveries; the counts {"delivered", "retry", "failed"}."""
    token = secrets.token_hex(16)
    counts = {"delivered": 0, "retry": 0, "failed": 0}
    for d, hook in _claim(database, token, limit):
        if hook.revoked_at is not None:
            counts[_failed(database, d, token, "endpoint removed", None, True)] += 1
            continue
        body = body_of(d.payload)
        headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT,
                   "Portal-Event": d.event, "Portal-Event-Id": d.event_id,
                   SIGNATURE: sign(hook.secret, int(clock.now().timestamp()), body)}
        try:
            status = post(hook.url, body, headers, allow_local)
        except Refused as exc:
            counts[_failed(database, d, token, str(exc), None, True)] += 1
            continue
        except (OSError, http.client.HTTPException) as exc:
            counts[_failed(database, d, token, f"{type(exc).__name__}: {exc}", None,
                           False)] += 1
            continue
        if 200 <= status < 300:
            _mark(database, d.id, token, status="delivered", attempts=d.attempts + 1,
                  last_status=status, last_error=None, delivered_at=clock.now())
            counts["delivered"] += 1
        else:
            counts[_failed(database, d, token, f"HTTP {status}", status, False)] += 1
    return counts


def deliver_all(database: Database, *, allow_local: bool = False) -> dict[str, int]:
    """`deliver_due` until nothing due is left (the worker's sweep; the tests)."""
    total = {"delivered": 0, "retry": 0, "failed": 0}
    while True:
        counts = deliver_due(database, allow_local=allow_local)
        for k, v in counts.items():
            total[k] += v
        if not sum(counts.values()):
            return total
