"""The bytes of a stored email (portal.mail.stored_bytes): every message says its language
(Content-Language, RFC 3282) on the message and on each part, a multipart one with an
attachment included; the outbox keeps CRLF line ends (RFC 5322 2.1), and the SMTP path
hands the stored bytes over as they are, never converting them twice."""

from __future__ import annotations

from email import message_from_bytes, policy
from pathlib import Path

from sqlalchemy import select

from portal import mail, outbox
from portal.db import Database, UnitOfWork
from portal.models import OutboxMessage

SETTINGS = {"MAIL_FROM": "Portal <no-reply@portal.example.pr>",
            "PORTAL_BASE_URL": "https://portal.example.pr"}


def _no_bare_line_ends(raw: bytes) -> bool:
    rest = raw.replace(b"\r\n", b"")
    return b"\n" not in rest and b"\r" not in rest


def _with_pdf(lang: str, **kw) -> object:  # noqa: ANN003
    msg = mail.build("a@example.pr", "Recibo", "Línea uno\nLínea dos\n", lang, SETTINGS, **kw)
    msg.add_attachment(b"%PDF-1.4\n%fake\n", maintype="application", subtype="pdf",
                       filename="recibo.pdf")
    return msg


def _stored(database: Database, msg) -> bytes:  # noqa: ANN001
    with UnitOfWork(database) as uow:
        mail.queue(uow, msg, "receipt", config=SETTINGS)
    with UnitOfWork(database) as uow:
        return uow.session.scalars(select(OutboxMessage.raw).order_by(
            OutboxMessage.id.desc())).first()


def test_a_multipart_message_keeps_its_language_on_the_message_and_its_parts(
        sqlite_database):
    for lang, tag in (("es", "es-PR"), ("en", "en-US")):
        raw = _stored(sqlite_database, _with_pdf(lang))
        got = message_from_bytes(raw, policy=policy.default)
        assert got.get_content_type() == "multipart/mixed"
        assert got["Content-Language"] == tag
        parts = list(got.iter_parts())
        assert [p.get_content_type() for p in parts] == ["text/plain", "application/pdf"]
        assert [p["Content-Language"] for p in parts] == [tag, tag]
        assert all(len(p.get_all("Content-Language")) == 1 for p in got.walk())


def test_a_single_part_message_says_its_language_once(sqlite_database):
    msg = mail.build("a@example.pr", "S", "Cuerpo\n", "es", SETTINGS)
    raw = _stored(sqlite_database, msg)
    got = message_from_bytes(raw, policy=policy.default)
    assert got.get_all("Content-Language") == ["es-PR"]


def test_the_outbox_stores_crlf_and_smtp_sends_it_unchanged(sqlite_database):
    raw = _stored(sqlite_database, _with_pdf("es", unsubscribe="https://portal.example.pr/"
                                                               "avisos/baja/" + "t" * 150))
    assert b"\r\n" in raw and _no_bare_line_ends(raw)
    assert b"\r\r\n" not in raw
    # The one-click address stays whole on one header line (the message's own policy).
    assert b"List-Unsubscribe: <https://portal.example.pr/avisos/baja/" + b"t" * 150 + b">\r\n" \
        in raw
    assert outbox.smtp_lines(raw) is raw  # handed over as stored: no second conversion
    sent: list[bytes] = []

    class Server:
        def sendmail(self, sender: str, to: list[str], data: bytes) -> dict:
            sent.append(data)
            return {}

    with UnitOfWork(sqlite_database) as uow:
        row = uow.session.scalars(select(OutboxMessage)).first()
        uow.session.expunge(row)
    relay = outbox.Relay(SETTINGS)
    relay.server = Server()  # type: ignore[assignment]
    relay.send(row)
    assert sent == [raw]


def test_a_row_stored_with_lf_before_is_converted_once():
    legacy = b"Subject: S\nContent-Language: es-PR\n\nuno\r\ndos\rtres\n"
    once = outbox.smtp_lines(legacy)
    assert once == b"Subject: S\r\nContent-Language: es-PR\r\n\r\nuno\r\ndos\r\ntres\r\n"
    assert outbox.smtp_lines(once) is once


def test_the_folder_writes_the_stored_bytes(tmp_path: Path):
    msg = _with_pdf("en")
    path = mail.write_outbox(msg, tmp_path)
    data = path.read_bytes()
    assert _no_bare_line_ends(data) and b"Content-Language: en-US\r\n" in data
    got = message_from_bytes(data, policy=policy.default)
    assert got["Content-Language"] == "en-US"
    assert got.get_body(("plain",)).get_content().splitlines() == ["Línea uno", "Línea dos"]
