"""Sending the outbox (`outbox_messages`, written by `portal.mail.send`/`queue`): exactly
once, as far as the relay and the database let anyone say so.

`send_due(database, config)` claims a batch of due rows with a token of its own, opens ONE
connection to the relay (or the folder `OUTBOX_DIR` when `MAIL_SERVER` is not set) for the
batch, and for each message:

- the relay accepted it: the row is marked sent (only now), conditioned on the token;
- the relay refused it for now (4xx) or the connection failed: the row stays pending, its
  next attempt after an exponential backoff (`backoff`), until `MAX_ATTEMPTS`; then failed;
- the relay refused it for good (5xx): failed, with the relay's reason.

Two senders never hold the same row: the claim is `SELECT ... FOR UPDATE SKIP LOCKED` then
an UPDATE on PostgreSQL, a conditional UPDATE on SQLite (its writers take turns), and every
later write checks the token. A claim lapses after `LEASE` (a sender that died), so the row
is tried again. The one window left is between the relay's acceptance and the commit that
marks the row sent (a crash there sends that message again, with the same Message-ID, which
relays and mail readers use to drop the copy): docs/MAIL.md.
"""

from __future__ import annotations

import logging
import secrets
import smtplib
import ssl
from collections.abc import Mapping
from datetime import datetime, timedelta
from email import message_from_bytes, policy
from email.utils import parseaddr
from pathlib import Path
from typing import Any

from sqlalchemy import and_, or_, select, update

from portal import clock
from portal.config import mail_settings
from portal.db import Database, UnitOfWork, get_database, is_sqlite
from portal.mail import on_committed, write_outbox
from portal.models import OutboxMessage

log = logging.getLogger(__name__)

#: Rows a sender claims at once (one relay connection for them all).
BATCH = 100
#: How long a claim holds: a sender silent for longer is taken for dead.
LEASE = timedelta(minutes=5)
#: The first retry's wait; each later one waits twice the one before, up to `MAX_WAIT`.
FIRST_WAIT = timedelta(seconds=30)
MAX_WAIT = timedelta(hours=2)
#: Attempts before a message is failed (about a day of waits in all).
MAX_ATTEMPTS = 12
#: Seconds a relay has to answer.
TIMEOUT = 20


def backoff(attempts: int) -> timedelta:
    """The wait after the `attempts`-th failed attempt: 30 s, 1 min, 2 min, ... 2 h."""
    return min(FIRST_WAIT * (2 ** max(attempts - 1, 0)), MAX_WAIT)


def _due(now: datetime) -> Any:
    return and_(OutboxMessage.status == "pending", OutboxMessage.next_attempt_at <= now,
                or_(OutboxMessage.claim_token.is_(None), OutboxMessage.claimed_until < now))


def claim(database: Database, token: str, limit: int = BATCH) -> list[OutboxMessage]:
    """Claim up to `limit` due rows for `token` (committed); the rows, oldest first."""
    now = clock.now()
    with UnitOfWork(database) as uow:
        pick = (select(OutboxMessage.id).where(_due(now)).order_by(OutboxMessage.id)
                .limit(limit))
        if not is_sqlite(database.engine):
            ids = list(uow.session.scalars(pick.with_for_update(skip_locked=True)))
            if not ids:
                return []
            pick = ids  # locked by this transaction: nobody else can claim them
        uow.session.execute(
            update(OutboxMessage).where(OutboxMessage.id.in_(pick), _due(now))
            .values(claim_token=token, claimed_until=now + LEASE)
            .execution_options(synchronize_session=False))
    with UnitOfWork(database) as uow:
        rows = list(uow.session.scalars(select(OutboxMessage)
                                        .where(OutboxMessage.claim_token == token)
                                        .order_by(OutboxMessage.id)))
        uow.session.expunge_all()
        return rows


def _mark(database: Database, row_id: int, token: str, **values: Any) -> bool:
    """Write `values` on the row if `token` still holds it (and let it go)."""
    with UnitOfWork(database) as uow:
        done = uow.session.execute(
            update(OutboxMessage).where(OutboxMessage.id == row_id,
                                        OutboxMessage.claim_token == token)
            .values(claim_token=None, claimed_until=None, **values)
            .execution_options(synchronize_session=False))
        return done.rowcount == 1


def _failed_attempt(database: Database, row: OutboxMessage, token: str, reason: str,
                    permanent: bool) -> None:
    attempts = row.attempts + 1
    if permanent or attempts >= MAX_ATTEMPTS:
        _mark(database, row.id, token, status="failed", attempts=attempts,
              last_error=reason[:2000])
        log.warning("mail %s to %s failed: %s", row.id, row.recipient, reason)
    else:
        _mark(database, row.id, token, attempts=attempts, last_error=reason[:2000],
              next_attempt_at=clock.now() + backoff(attempts))
        log.info("mail %s to %s: attempt %s refused (%s)", row.id, row.recipient, attempts,
                 reason)


class Relay:
    """One connection for a batch: the SMTP relay, or the folder when none is set."""

    def __init__(self, config: Mapping[str, Any]):
        self.config = config
        self.server: smtplib.SMTP | None = None

    def __enter__(self) -> Relay:
        cfg = self.config
        if not cfg.get("MAIL_SERVER"):
            return self
        host, port = cfg["MAIL_SERVER"], int(cfg["MAIL_PORT"])
        context = ssl.create_default_context()
        if cfg.get("MAIL_USE_SSL"):
            server: smtplib.SMTP = smtplib.SMTP_SSL(host, port, context=context,
                                                    timeout=TIMEOUT)
        else:
            server = smtplib.SMTP(host, port, timeout=TIMEOUT)
        self.server = server
        if cfg.get("MAIL_USE_TLS") and not cfg.get("MAIL_USE_SSL"):
            server.starttls(context=context)
        if cfg.get("MAIL_USERNAME"):
            server.login(cfg["MAIL_USERNAME"], cfg.get("MAIL_PASSWORD") or "")
        return self

    def __exit__(self, *exc: object) -> None:
        if self.server is not None:
            try:
                self.server.quit()
            except (smtplib.SMTPException, OSError):
                self.server.close()

    def send(self, row: OutboxMessage) -> None:
        """Hand the message over; returns only once the relay accepted it (raises else)."""
        if self.server is None:
            write_outbox(row.raw, Path(self.config["OUTBOX_DIR"]), row.recipient)
            return
        msg = message_from_bytes(row.raw, policy=policy.default)
        sender = parseaddr(str(msg["From"]))[1]
        self.server.sendmail(sender, [row.recipient], smtp_lines(row.raw))


def smtp_lines(raw: bytes) -> bytes:
    """The stored message as SMTP takes it, CRLF line ends (RFC 5321 2.3.8): a row is stored
    with them (`mail.stored_bytes`) and handed over as it is, never converted again; only a
    row stored before then, with LF, is converted here, once. smtplib sends bytes as they
    are, and a relay reads a message without CRLF as one line: over 1,000 octets, refused
    ("500 Line too long", RFC 5321 4.5.3.1.6)."""
    bare = raw.replace(b"\r\n", b"")
    if b"\n" not in bare and b"\r" not in bare:
        return raw
    return raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n").replace(b"\n", b"\r\n")


def send_due(database: Database, config: Mapping[str, Any] | None = None, *,
             limit: int = BATCH) -> dict[str, int]:
    """Send one batch of due messages; the counts {"sent", "retry", "failed"}."""
    cfg = mail_settings() if config is None else config
    token = secrets.token_hex(16)
    rows = claim(database, token, limit)
    counts = {"sent": 0, "retry": 0, "failed": 0}
    if not rows:
        return counts
    left = list(rows)
    try:
        with Relay(cfg) as relay:
            while left:
                row = left[0]
                try:
                    relay.send(row)
                except smtplib.SMTPRecipientsRefused as exc:
                    code, text = next(iter(exc.recipients.values()))
                    _refused(database, row, token, code, text, counts)
                except smtplib.SMTPResponseException as exc:
                    _refused(database, row, token, exc.smtp_code, exc.smtp_error, counts)
                    if exc.smtp_code == 421:  # the relay is closing: the rest wait
                        left.pop(0)
                        raise
                else:
                    _mark(database, row.id, token, status="sent", sent_at=clock.now(),
                          attempts=row.attempts + 1, last_error=None)
                    counts["sent"] += 1
                left.pop(0)
    except (smtplib.SMTPException, OSError) as exc:  # no relay: the batch waits
        reason = f"{type(exc).__name__}: {exc}"
        for row in left:
            _failed_attempt(database, row, token, reason, permanent=False)
            counts["retry"] += 1
    return counts


def _refused(database: Database, row: OutboxMessage, token: str, code: int,
             text: bytes | str, counts: dict[str, int]) -> None:
    reason = f"{code} {text.decode(errors='replace') if isinstance(text, bytes) else text}"
    permanent = 500 <= code < 600
    _failed_attempt(database, row, token, reason, permanent)
    counts["failed" if permanent or row.attempts + 1 >= MAX_ATTEMPTS else "retry"] += 1


def send_all(database: Database, config: Mapping[str, Any] | None = None) -> dict[str, int]:
    """`send_due` until nothing is due (the worker's sweep; the tests)."""
    total = {"sent": 0, "retry": 0, "failed": 0}
    while True:
        counts = send_due(database, config)
        for k, v in counts.items():
            total[k] += v
        if not sum(counts.values()) or not counts["sent"]:
            return total


def _inline(url: str, config: Mapping[str, Any]) -> None:
    """With `MAIL_INLINE` (the tests' apps, as Huey's immediate mode is for jobs): the
    process that queued the mail sends it at once after the commit, through the same claim
    and the same relay code as the worker; a relay that fails leaves it pending."""
    if config.get("MAIL_INLINE"):
        send_all(get_database(url), config)


on_committed(_inline)


def retry(database: Database, message_id: int) -> bool:
    """Queue a failed message again (staff): pending, due now, its attempts from zero; False
    when it is not failed (pending or already sent: nothing changes)."""
    with UnitOfWork(database) as uow:
        return retry_in(uow, message_id)


def retry_in(uow: UnitOfWork, message_id: int) -> bool:
    """`retry` inside the caller's unit of work."""
    done = uow.session.execute(
        update(OutboxMessage).where(OutboxMessage.id == int(message_id),
                                    OutboxMessage.status == "failed")
        .values(status="pending", attempts=0, next_attempt_at=clock.now(),
                claim_token=None, claimed_until=None)
        .execution_options(synchronize_session=False))
    return done.rowcount == 1
