"""The mail outbox (portal.mail, portal.outbox): an email is a row written with what caused
it, sent by a sender that claims it; marked sent only once the relay accepted it, retried
with backoff while the relay refuses, never sent twice (two senders at once on PostgreSQL)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import select

from portal import clock, mail, outbox
from portal.db import Database, UnitOfWork
from portal.models import OutboxMessage
from tests.support.relay import free_port, relay


def _queue(database: Database, n: int, settings, **kw) -> None:
    with UnitOfWork(database) as uow:
        for k in range(n):
            mail.send(uow, f"p{k}@example.pr", "reset", "es", config=settings,
                      name=f"P{k}", link=f"https://portal.example.pr/r/{k}", **kw)


def _rows(database: Database) -> list[OutboxMessage]:
    with UnitOfWork(database) as uow:
        rows = list(uow.session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))
        uow.session.expunge_all()
        return rows


def test_a_rolled_back_unit_of_work_queues_nothing(sqlite_database):
    with relay() as (handler, settings):
        with pytest.raises(RuntimeError), UnitOfWork(sqlite_database) as uow:
            mail.send(uow, "a@example.pr", "reset", "es", config=settings, name="A", link="x")
            raise RuntimeError("the request failed")
        assert _rows(sqlite_database) == []
        assert outbox.send_all(sqlite_database, settings)["sent"] == 0
        assert handler.accepted == []


def test_refused_then_accepted_nothing_lost_nothing_doubled(sqlite_database):
    with relay() as (handler, settings):
        _queue(sqlite_database, 5, settings)
        handler.refusing = True
        start = clock.now()
        assert outbox.send_due(sqlite_database, settings) == {"sent": 0, "retry": 5,
                                                              "failed": 0}
        rows = _rows(sqlite_database)
        assert {(r.status, r.attempts, r.sent_at, r.claim_token) for r in rows} == {
            ("pending", 1, None, None)}
        assert all(r.next_attempt_at == start + outbox.FIRST_WAIT for r in rows)
        assert "451" in rows[0].last_error
        # not due before the backoff: nothing is tried
        assert outbox.send_due(sqlite_database, settings) == {"sent": 0, "retry": 0,
                                                              "failed": 0}
        handler.refusing = False
        with clock.fixed(start + outbox.FIRST_WAIT):
            assert outbox.send_all(sqlite_database, settings)["sent"] == 5
            assert outbox.send_all(sqlite_database, settings)["sent"] == 0  # again: nothing
        rows = _rows(sqlite_database)
        assert {r.status for r in rows} == {"sent"}
        assert sorted(handler.message_ids()) == sorted(r.message_id for r in rows)
        assert handler.refused == 5 and len(handler.accepted) == 5


def test_backoff_doubles_and_the_last_attempt_fails_with_the_reason(sqlite_database):
    assert [outbox.backoff(n).total_seconds() for n in (1, 2, 3)] == [30, 60, 120]
    assert outbox.backoff(30) == outbox.MAX_WAIT
    settings = {"MAIL_SERVER": "127.0.0.1", "MAIL_PORT": free_port(), "MAIL_USE_TLS": False,
                "MAIL_FROM": "Portal <no-reply@portal.example.pr>",
                "PORTAL_BASE_URL": "https://portal.example.pr"}
    _queue(sqlite_database, 1, settings)
    now = clock.now()
    for _ in range(outbox.MAX_ATTEMPTS):
        with clock.fixed(now):
            outbox.send_due(sqlite_database, settings)
        now += outbox.MAX_WAIT
    [row] = _rows(sqlite_database)
    assert (row.status, row.attempts) == ("failed", outbox.MAX_ATTEMPTS)
    assert "ConnectionRefused" in row.last_error


def test_a_permanent_refusal_fails_at_once_and_staff_can_retry(sqlite_database):
    with relay() as (handler, settings):
        _queue(sqlite_database, 1, settings)

        async def refuse(server, session, envelope):  # noqa: ANN001, ANN202
            return "550 5.1.1 No such user"
        handler.handle_DATA = refuse
        assert outbox.send_due(sqlite_database, settings)["failed"] == 1
        [row] = _rows(sqlite_database)
        assert row.status == "failed" and row.last_error.startswith("550")
        del handler.handle_DATA
        assert outbox.retry(sqlite_database, row.id) is True
        assert outbox.send_all(sqlite_database, settings)["sent"] == 1
        assert len(handler.accepted) == 1 and _rows(sqlite_database)[0].status == "sent"
        assert outbox.retry(sqlite_database, row.id) is False  # a sent one stays sent


def test_a_dead_senders_claim_lapses(sqlite_database):
    with relay() as (handler, settings):
        _queue(sqlite_database, 2, settings)
        assert len(outbox.claim(sqlite_database, "dead-sender")) == 2  # then it dies
        assert outbox.send_all(sqlite_database, settings)["sent"] == 0
        with clock.fixed(clock.now() + outbox.LEASE + timedelta(seconds=1)):
            assert outbox.send_all(sqlite_database, settings)["sent"] == 2
        assert len(handler.accepted) == 2


def test_a_long_message_reaches_the_relay_with_crlf_line_ends(sqlite_database):
    """A message over 1,000 octets (a bulk notice with its unsubscribe footer, an
    attachment): the relay reads it line by line, not as one line too long."""
    with relay() as (handler, settings):
        with UnitOfWork(sqlite_database) as uow:
            mail.send(uow, "a@example.pr", "reset", "es", config=settings, name="A " * 600,
                      link="https://portal.example.pr/r/1",
                      unsubscribe="https://portal.example.pr/avisos/baja/t")
        assert outbox.send_all(sqlite_database, settings)["sent"] == 1
        [got] = handler.accepted
        assert got["List-Unsubscribe"] == "<https://portal.example.pr/avisos/baja/t>"
    assert outbox.smtp_lines(b"a\nb\r\nc\rd\n") == b"a\r\nb\r\nc\r\nd\r\n"


def test_headers_on_the_portals_domain_and_one_click_unsubscribe():
    settings = {"MAIL_FROM": "Portal <no-reply@portal.example.pr>",
                "PORTAL_BASE_URL": "https://portal.example.pr/"}
    msg = mail.build("a@example.pr", "S", "B", "es", settings,
                     unsubscribe="https://portal.example.pr/correo/baja/t")
    assert str(msg["Message-ID"]).endswith("@portal.example.pr>")
    assert msg["List-Unsubscribe"] == "<https://portal.example.pr/correo/baja/t>"
    assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert mail.build("a@example.pr", "S", "B", "es", settings)["List-Unsubscribe"] is None


@pytest.mark.postgres
def test_two_senders_at_once_on_postgresql_send_each_row_once(pg_database):
    from tests.support import schema
    database = Database(pg_database)
    schema.truncate(database)
    try:
        with relay() as (handler, settings):
            _queue(database, 60, settings)
            gate = threading.Barrier(2)
            counts: list[dict] = []

            def sender() -> None:
                gate.wait()
                total = {"sent": 0}
                while (n := outbox.send_due(database, settings, limit=7)["sent"]):
                    total["sent"] += n
                counts.append(total)

            threads = [threading.Thread(target=sender) for _ in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            ids = handler.message_ids()
            assert len(ids) == 60 and len(set(ids)) == 60
            assert sum(c["sent"] for c in counts) == 60
            assert {r.status for r in _rows(database)} == {"sent"}
    finally:
        database.dispose()
