"""Emails: rendered here and queued in the outbox (`send`, `queue`: a row of
`outbox_messages` written in the caller's unit of work, so an email exists exactly when what
caused it committed); `portal.outbox` sends the rows (SMTP when `MAIL_SERVER` is set,
otherwise .eml files in the folder `OUTBOX_DIR`, default `<instance>/outbox/`). Each email is
rendered in its reader's language from `templates/email/TEMPLATE.txt` (subject on the first
line, as `Subject: ...`).

Once a unit of work that queued mail commits, the functions registered with `on_committed`
are told (the queue's kick: the worker sends at once rather than at its next sweep).

No web framework is needed: the templates are rendered by a Jinja environment of their own
with the catalogs and filters of `portal.i18n`, and the settings come from `config`
(the app passes its own; a command gets `portal.config.mail_settings()`)."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from email.message import EmailMessage
from email.policy import default as default_policy
from email.utils import formatdate, make_msgid
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jinja2 import Environment, FileSystemLoader
from sqlalchemy import event
from sqlalchemy.orm import Session

from portal import clock, i18n
from portal.config import DEFAULT_BASE_URL, TEMPLATES, mail_settings
from portal.db import UnitOfWork
from portal.models import OutboxMessage

log = logging.getLogger(__name__)

#: The policy of a message with a one-click unsubscribe address (`build`).
WHOLE_HEADERS = default_policy.clone(max_line_length=998)


@lru_cache(maxsize=1)
def environment() -> Environment:
    """The Jinja environment of the emails (plain text: nothing is HTML-escaped)."""
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=False,
                      extensions=["jinja2.ext.i18n"])
    env.install_gettext_callables(gettext=i18n.template_gettext,
                                  ngettext=i18n.template_ngettext,
                                  pgettext=i18n.template_pgettext, newstyle=True)
    env.filters.update(i18n.FILTERS)
    return env


def render_text(path: str, lang: str, **context: Any) -> tuple[str, str]:
    """(subject, body) of the email template `templates/{path}` in `lang`."""
    with i18n.use_language(lang) as lang:
        text = environment().get_template(path).render(lang=lang, **context)
    first, _, body = text.lstrip().partition("\n")
    subject = first.removeprefix("Subject:").strip()
    return subject, body.strip() + "\n"


def render(template: str, lang: str, **context: Any) -> tuple[str, str]:
    """(subject, body) of `templates/email/{template}.txt` in `lang`."""
    return render_text(f"email/{template}.txt", lang, **context)


def _config(config: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return mail_settings() if config is None else config


def domain(config: Mapping[str, Any] | None = None) -> str:
    """The portal's own domain (PORTAL_BASE_URL's host): the right side of its Message-IDs."""
    base = str(_config(config).get("PORTAL_BASE_URL") or DEFAULT_BASE_URL)
    return urlsplit(base).hostname or "localhost"


def build(to: str, subject: str, body: str, lang: str,
          config: Mapping[str, Any] | None = None, *,
          unsubscribe: str | None = None) -> EmailMessage:
    """The message; `unsubscribe` (a bulk notice's one-click address) adds List-Unsubscribe
    and List-Unsubscribe-Post (RFC 8058)."""
    # A one-click address is one long word: folded at 78 characters, Python's email package
    # writes it as RFC 2047 encoded words, which no mail reader takes for a URL. Lines may be
    # 998 characters (RFC 5322 2.1.1): such a message keeps its headers whole.
    msg = EmailMessage(policy=WHOLE_HEADERS) if unsubscribe else EmailMessage()
    msg["From"] = _config(config)["MAIL_FROM"]
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = formatdate(clock.now().timestamp(), localtime=False)
    msg["Message-ID"] = make_msgid(domain=domain(config))
    if unsubscribe:
        msg["List-Unsubscribe"] = f"<{unsubscribe}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    msg.set_content(body)
    msg["Content-Language"] = language_tag(lang)  # after set_content
    return msg


def language_tag(lang: str) -> str:
    """The Content-Language of an email in `lang` (RFC 3282)."""
    return "es-PR" if lang == "es" else "en-US"


def stored_bytes(msg: EmailMessage) -> bytes:
    """The one form of a message the outbox keeps, the relay is handed and the folder
    writes: Content-Language on the message and on each of its parts (an attachment added
    after `build` turns it multipart/mixed and moves the header onto the text part, the
    message itself losing it), and CRLF line ends throughout (RFC 5322 2.1, RFC 5321
    2.3.8), so nothing converts them on the way out. The headers keep the message's own
    policy (a one-click unsubscribe address stays whole)."""
    tag = msg["Content-Language"] or next(
        (p["Content-Language"] for p in msg.walk() if p["Content-Language"]), None)
    if tag is not None:
        for part in msg.walk():
            if part["Content-Language"] is None:
                part["Content-Language"] = str(tag)
    return msg.as_bytes(policy=msg.policy.clone(linesep="\r\n"))


def send(uow: UnitOfWork, to: str, template: str, lang: str, *,
         config: Mapping[str, Any] | None = None, bulk: bool = False,
         unsubscribe: str | None = None, **context: Any) -> OutboxMessage:
    """Render the email `template` in `lang` and queue it in `uow` (it is sent once `uow`
    commits, never if it rolls back), with the settings `config` (the app's config;
    default: `portal.config.mail_settings()`). `bulk`: a notice sent to many (the staff's
    queue tells them apart); `unsubscribe`: its one-click address (`build`)."""
    msg = compose(to, template, lang, config=config, unsubscribe=unsubscribe, **context)
    return queue(uow, msg, template, config=config, bulk=bulk or unsubscribe is not None)


def compose(to: str, template: str, lang: str, *, config: Mapping[str, Any] | None = None,
            unsubscribe: str | None = None, **context: Any) -> EmailMessage:
    """`send`'s message, rendered and built but not queued: a batch composes its emails
    before its transaction writes, then queues them (`queue`, bulk when `unsubscribe`)."""
    subject, body = render(template, lang, **context)
    return build(to, subject, body, lang, config, unsubscribe=unsubscribe)


#: Told (database URL, config) after a unit of work that queued mail commits.
_COMMITTED: list[Callable[[str, Mapping[str, Any]], None]] = []


def on_committed(hook: Callable[[str, Mapping[str, Any]], None]) -> None:
    """Call `hook(database_url, config)` once each unit of work that queued mail commits
    (a hook's error is logged, never raised: the mail waits in the outbox)."""
    if hook not in _COMMITTED:
        _COMMITTED.append(hook)


def queue(uow: UnitOfWork, msg: EmailMessage, template: str, *,
          config: Mapping[str, Any] | None = None, bulk: bool = False) -> OutboxMessage:
    """Queue a built message (attachments allowed) in the outbox, in `uow`."""
    session = uow.session
    row = OutboxMessage(template=template, recipient=str(msg["To"]),
                        subject=str(msg["Subject"])[:300], message_id=str(msg["Message-ID"]),
                        bulk=bulk, raw=stored_bytes(msg), status="pending", attempts=0,
                        next_attempt_at=clock.now())
    session.add(row)
    after_commit(uow, config)
    return row


def after_commit(uow: UnitOfWork, config: Mapping[str, Any] | None = None) -> None:
    """Tell the `on_committed` hooks once `uow` commits (a message queued or queued again)."""
    session = uow.session
    if not session.info.get("outbox_listening"):
        event.listen(session, "after_commit", _committed)
        session.info["outbox_listening"] = True
    session.info["outbox_config"] = _config(config)


def _committed(session: Session) -> None:
    # SQLAlchemy also calls after_commit when a savepoint is released (`begin_nested`): the
    # outer transaction has not committed yet, so the mail is not there for the sender.
    if session.in_nested_transaction():
        return
    config = session.info.pop("outbox_config", None)
    if config is None:
        return
    url = session.get_bind().url.render_as_string(hide_password=False)
    for hook in list(_COMMITTED):
        try:
            hook(url, config)
        except Exception:  # the mail is safe in the outbox: the worker's sweep sends it
            log.exception("mail: the hook after commit failed")


def write_outbox(msg: EmailMessage | bytes, folder: Path, to: str | None = None) -> Path:
    """Write `msg` (or its bytes, for `to`) as `NNNNNN-<when>-<to>.eml`: the number orders
    the folder by arrival."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = clock.now().strftime("%Y%m%dT%H%M%S")
    recipient = to if to is not None or isinstance(msg, bytes) else str(msg["To"])
    safe_to = "".join(c if c.isalnum() else "_" for c in str(recipient))[:60]
    n = len(list(folder.glob("*.eml")))
    data = msg if isinstance(msg, bytes) else stored_bytes(msg)
    while True:
        n += 1
        path = folder / f"{n:06d}-{stamp}-{safe_to}.eml"
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        return path
