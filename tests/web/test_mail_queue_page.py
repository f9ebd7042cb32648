"""Staff see the mail outbox's queue (pending, sent, failed with the relay's reason) in both
languages and can queue a failed message again; nobody else sees the page."""

from __future__ import annotations

from sqlalchemy import select, update

from portal import mail
from portal.db import get_database
from portal.models import AuditRecord, OutboxMessage
from tests.support.pages import csrf_token, login, outbox


def test_staff_see_a_failed_message_and_retry_it(demo_app):
    database = get_database(demo_app.config["DATABASE_URL"])
    owner = login(demo_app, "owner")  # a sign-in that queues nothing; then a failed email
    with database.unit_of_work() as uow:
        mail.send(uow, "x@example.pr", "reset", "es", config=demo_app.config, name="X",
                  link="http://localhost/x")
    with database.unit_of_work() as uow:
        row_id = uow.session.scalar(select(OutboxMessage.id).where(
            OutboxMessage.recipient == "x@example.pr"))
        uow.session.execute(update(OutboxMessage).where(OutboxMessage.id == row_id).values(
            status="failed", attempts=12, last_error="550 5.1.1 No such user"))
    assert owner.get("/personal/correo").status_code == 404
    page = owner.get("/mis-propiedades").get_data(as_text=True)
    for who in (owner, demo_app.test_client()):  # an owner, anonymous: refused, nothing moves
        r = who.post(f"/personal/correo/{row_id}/reintentar",
                     data={"csrf_token": csrf_token(page)})
        assert r.status_code in (302, 400, 404)
        with database.unit_of_work() as uow:
            assert uow.session.get(OutboxMessage, row_id).status == "failed"
    staff = login(demo_app, "staff")
    page = staff.get("/personal/correo").get_data(as_text=True)
    assert "Correo saliente" in page and "Intentar de nuevo" in page
    assert "550 5.1.1 No such user" in page and "x@example.pr" in page
    english = staff.get("/personal/correo?lang=en").get_data(as_text=True)
    assert "Outgoing mail" in english and "Try again" in english
    page = staff.get("/personal/correo?lang=es").get_data(as_text=True)
    sent_before = len(outbox(demo_app))
    r = staff.post(f"/personal/correo/{row_id}/reintentar",
                   data={"csrf_token": csrf_token(page)})
    assert r.status_code == 303
    with database.unit_of_work() as uow:
        row = uow.session.get(OutboxMessage, row_id)
        assert row.status in ("pending", "sent")
        assert uow.session.scalar(select(AuditRecord.action).where(
            AuditRecord.action == "mail.retried")) == "mail.retried"
    assert len(outbox(demo_app)) == sent_before + 1  # the test app sends after the commit
    again = staff.post(f"/personal/correo/{row_id}/reintentar",
                       data={"csrf_token": csrf_token(page)}, follow_redirects=True)
    assert "no está fallido" in again.get_data(as_text=True)

