"""Emails: by SMTP when `MAIL_SERVER` is set, otherwise written as .eml files to the outbox
folder (`OUTBOX_DIR`, default `<instance>/outbox/`). Each email is rendered in its reader's
language from `templates/email/TEMPLATE.txt` (subject on the first line, as `Subject: ...`).

No web framework is needed: the templates are rendered by a Jinja environment of their own
with the catalogs and filters of `portal.i18n`, and the settings come from `config`
(the app passes its own; a command gets `portal.config.mail_settings()`)."""

from __future__ import annotations

import os
import smtplib
import ssl
from collections.abc import Mapping
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader

from portal import clock, i18n
from portal.config import TEMPLATES, mail_settings


@lru_cache(maxsize=1)
def environment() -> Environment:
    """The Jinja environment of the emails (plain text: nothing is HTML-escaped)."""
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=False,
                      extensions=["jinja2.ext.i18n"])
    env.install_gettext_callables(gettext=i18n.template_gettext,
                                  ngettext=i18n.template_ngettext, newstyle=True)
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


def build(to: str, subject: str, body: str, lang: str,
          config: Mapping[str, Any] | None = None) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = _config(config)["MAIL_FROM"]
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = formatdate(clock.now().timestamp(), localtime=False)
    msg["Message-ID"] = make_msgid(domain="portal.local")
    msg.set_content(body)
    msg["Content-Language"] = "es-PR" if lang == "es" else "en-US"  # after set_content
    return msg


def send(to: str, template: str, lang: str, *, config: Mapping[str, Any] | None = None,
         **context: Any) -> EmailMessage:
    """Render the email `template` in `lang` and deliver it (SMTP or the outbox) with the
    settings `config` (the app's config; default: `portal.config.mail_settings()`)."""
    subject, body = render(template, lang, **context)
    msg = build(to, subject, body, lang, config)
    deliver(msg, config)
    return msg


def deliver(msg: EmailMessage, config: Mapping[str, Any] | None = None) -> None:
    """Send a built message (attachments allowed): SMTP when configured, else the outbox."""
    cfg = _config(config)
    if cfg.get("MAIL_SERVER"):
        _smtp(msg, cfg)
    else:
        write_outbox(msg, Path(cfg["OUTBOX_DIR"]))


def _smtp(msg: EmailMessage, cfg: Mapping[str, Any]) -> None:
    host, port = cfg["MAIL_SERVER"], int(cfg["MAIL_PORT"])
    context = ssl.create_default_context()
    if cfg.get("MAIL_USE_SSL"):
        server: smtplib.SMTP = smtplib.SMTP_SSL(host, port, context=context, timeout=20)
    else:
        server = smtplib.SMTP(host, port, timeout=20)
    with server:
        if cfg.get("MAIL_USE_TLS") and not cfg.get("MAIL_USE_SSL"):
            server.starttls(context=context)
        if cfg.get("MAIL_USERNAME"):
            server.login(cfg["MAIL_USERNAME"], cfg.get("MAIL_PASSWORD") or "")
        server.send_message(msg)


def write_outbox(msg: EmailMessage, folder: Path) -> Path:
    """Write `msg` as `NNNNNN-<when>-<to>.eml`: the number orders the outbox by arrival."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = clock.now().strftime("%Y%m%dT%H%M%S")
    safe_to = "".join(c if c.isalnum() else "_" for c in str(msg["To"]))[:60]
    n = len(list(folder.glob("*.eml")))
    data = bytes(msg)
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
