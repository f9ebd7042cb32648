"""A relay outage delays mail and never fails a request: `POST /cuenta/olvide` with the
relay down answers as usual, and the email waits in the outbox until the relay is back."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from portal import outbox
from portal.db import get_database
from portal.jobs import queue
from portal.models import OutboxMessage
from tests.support.app import make_app
from tests.support.pages import csrf_token
from tests.support.relay import free_port, relay


@pytest.mark.parametrize("inline", [False, True])
def test_forgot_with_the_relay_down_answers_and_the_mail_waits(tmp_path, schema_template,
                                                                 monkeypatch, inline):
    monkeypatch.setenv("PORTAL_INSTANCE", str(tmp_path / "instance"))  # the queue's file
    queue.reset()
    down = free_port()
    app = make_app(tmp_path, schema_template, MAIL_SERVER="127.0.0.1", MAIL_PORT=down,
                   MAIL_USE_TLS=False, MAIL_INLINE=inline)
    client = app.test_client()
    page = client.get("/cuenta/olvide").get_data(as_text=True)
    r = client.post("/cuenta/olvide", data={"csrf_token": csrf_token(page),
                                           "email": "nadie@example.com"})
    assert r.status_code == 303 and r.headers["Location"].endswith("/cuenta/entrar")
    database = get_database(app.config["DATABASE_URL"])
    with database.unit_of_work() as uow:
        [row] = uow.session.scalars(select(OutboxMessage)).all()
        assert (row.status, row.recipient) == ("pending", "nadie@example.com")
        assert row.attempts == (1 if inline else 0)  # inline: tried once, refused
        assert str(row.message_id).endswith("@localhost>")
    with relay() as (handler, settings):  # the relay is back: the worker's sweep sends it
        with database.unit_of_work() as uow:
            uow.session.execute(OutboxMessage.__table__.update().values(
                next_attempt_at=row.created_at))
        assert outbox.send_all(database, {**settings, "MAIL_FROM": app.config["MAIL_FROM"]})[
            "sent"] == 1
        assert [str(m["To"]) for m in handler.accepted] == ["nadie@example.com"]
    queue.reset()
