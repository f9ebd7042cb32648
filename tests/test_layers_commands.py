"""Commands need no request: `portal payments reconcile` emails the receipts due from a plain
process (the app's configuration, no request context), in the payer's language, with the PDF
and a link from PORTAL_BASE_URL."""

from __future__ import annotations

import email
from email import policy
from pathlib import Path

import pytest
from flask import has_app_context, has_request_context
from sqlalchemy import select

from portal import clock
from portal.db import reset_databases
from portal.models import User
from portal.models.checkouts import Checkout
from tests.support.app import make_app
from tests.support.clock import SEPT_5
from tests.support.pages import PASSWORD
from tests.support.payments import pay_in_sandbox, sign_in_to_pay
from tests.support.schema import sqlite_database
from tests.support.world import seed, set_passwords


@pytest.fixture
def world(tmp_path: Path, schema_template: Path):
    database = sqlite_database(schema_template, tmp_path)
    with clock.fixed(SEPT_5):
        w = seed(database, ("1200.00",))
        set_passwords(w, PASSWORD)
        yield w
    database.dispose()
    reset_databases()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_reconcile_emails_the_receipt_due_without_a_request(world, tmp_path, monkeypatch,
                                                             lang):
    from portal.web.payments import commands, emails

    # The payer pays on the test client's address; the command then mails from the
    # configured one (links never come from a request).
    app = make_app(tmp_path, world.database, PORTAL_BASE_URL="http://localhost",
                   SERVER_NAME=None)
    with world.uow() as uow:
        for u in uow.session.scalars(select(User)):
            u.language = lang
    sent = []
    monkeypatch.setattr(emails, "send_receipt", lambda cid: sent.append(cid) or False)
    with clock.fixed(SEPT_5):
        client = app.test_client()
        tok = sign_in_to_pay(client, lang=lang)
        pay_in_sandbox(client, tok, {f"choice-{world.key(0)}": "due_now"})
    assert sent, "the page would have emailed the receipt"
    monkeypatch.undo()
    outbox = Path(app.config["OUTBOX_DIR"])
    assert not list(outbox.glob("*.eml"))

    seen = {}
    real = emails.send_receipt

    def spy(cid: int) -> bool:
        seen["request"], seen["app"] = has_request_context(), has_app_context()
        return real(cid)

    monkeypatch.setattr(emails, "send_receipt", spy)
    app.config["PORTAL_BASE_URL"] = "https://portal.example.pr/"
    with clock.fixed(SEPT_5):
        assert commands.reconcile_command(app) == 0
    assert seen == {"request": False, "app": True}

    [eml] = outbox.glob("*.eml")
    msg = email.message_from_bytes(eml.read_bytes(), policy=policy.default)
    with world.uow() as uow:
        chk = uow.session.scalars(select(Checkout)).one()
        assert chk.receipt_sent_at is not None
    assert chk.receipt_number in msg["Subject"]
    assert msg["Content-Language"] == {"es": "es-PR", "en": "en-US"}[lang]
    body = msg.get_body(("plain",)).get_content()
    assert f"https://portal.example.pr/pagos/{chk.id}/recibo" in body
    assert {"es": "El recibo va adjunto en PDF. También puede verlo aquí:",
            "en": "The receipt is attached as a PDF. You can also see it here:"}[lang] in body
    [pdf] = [p for p in msg.iter_attachments() if p.get_content_type() == "application/pdf"]
    assert pdf.get_filename() == {"es": "recibo", "en": "receipt"}[lang] + \
        f"-{chk.receipt_number}.pdf"
    assert pdf.get_content().startswith(b"%PDF")
    with clock.fixed(SEPT_5):  # sent once
        assert commands.reconcile_command(app) == 0
    assert len(list(outbox.glob("*.eml"))) == 1
