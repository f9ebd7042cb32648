"""Commands need no request, nor Flask: `portal payments reconcile` settles the checkouts and
emails the receipts due from a plain process (`portal.config.settings()`, no app, no request
context), in the payer's language, with the PDF and a link from PORTAL_BASE_URL; the receipt
(`portal.documents.receipt`) and the gateway (`portal.payments.gateway_settings`) are built
without the web layer."""

from __future__ import annotations

import email
import json
import os
import subprocess
import sys
import textwrap
from email import policy
from pathlib import Path

import pytest
from flask import has_app_context, has_request_context
from sqlalchemy import select

from portal import clock
from portal import config as portal_config
from portal.db import reset_databases
from portal.models import User
from portal.models.checkouts import Checkout
from tests.support.app import make_app
from tests.support.clock import SEPT_5
from tests.support.pages import PASSWORD
from tests.support.payments import pay_in_sandbox, sign_in_to_pay
from tests.support.schema import sqlite_database
from tests.support.world import seed, set_passwords

ROOT = Path(__file__).resolve().parents[1]
WEB_STACK = ("flask", "flask_babel", "flask_login", "flask_wtf", "werkzeug", "wtforms")
NO_STRIPE = {k: "" for k in portal_config.STRIPE_KEYS}  # the sandbox, whatever the env says


@pytest.fixture
def world(tmp_path: Path, schema_template: Path):
    database = sqlite_database(schema_template, tmp_path)
    with clock.fixed(SEPT_5):
        w = seed(database, ("1200.00",))
        set_passwords(w, PASSWORD)
        yield w
    database.dispose()
    reset_databases()


def paid_without_a_receipt(world, tmp_path: Path, monkeypatch, lang: str):  # noqa: ANN001, ANN201
    """The payer pays in the sandbox on the test client's address; the page's receipt email
    is held back, so the command has one to send. The app (for its configuration)."""
    from portal.web.payments import emails

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
    assert not list(Path(app.config["OUTBOX_DIR"]).glob("*.eml"))
    return app


def check_the_receipt_email(outbox: Path, world, lang: str) -> None:  # noqa: ANN001
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


@pytest.mark.parametrize("lang", ["es", "en"])
def test_reconcile_emails_the_receipt_due_without_a_request(world, tmp_path, monkeypatch,
                                                             lang):
    from portal.cli import reconcile_command
    from portal.documents import receipt

    app = paid_without_a_receipt(world, tmp_path, monkeypatch, lang)
    seen = {}
    real = receipt.send_receipt

    def spy(database, cid: int, config) -> bool:  # noqa: ANN001
        seen["request"], seen["app"] = has_request_context(), has_app_context()
        return real(database, cid, config)

    monkeypatch.setattr(receipt, "send_receipt", spy)
    # The command's settings, as `portal.config.settings()` reads them from the environment.
    settings = {**portal_config.settings({
        "DATABASE_URL": app.config["DATABASE_URL"], "OUTBOX_DIR": app.config["OUTBOX_DIR"],
        "PORTAL_INSTANCE": str(tmp_path / "instance"),
        "PORTAL_BASE_URL": "https://portal.example.pr/"}, with_key=False), **NO_STRIPE}
    with clock.fixed(SEPT_5):
        assert reconcile_command(settings) == 0
    assert seen == {"request": False, "app": False}
    outbox = Path(app.config["OUTBOX_DIR"])
    check_the_receipt_email(outbox, world, lang)
    with clock.fixed(SEPT_5):  # sent once
        assert reconcile_command(settings) == 0
    assert len(list(outbox.glob("*.eml"))) == 1


RECONCILE = textwrap.dedent("""
    import json, sys

    from portal import cli

    try:
        cli.main(["payments", "reconcile"])
    except SystemExit as exc:
        code = exc.code
    print(json.dumps({"code": code, "loaded": sorted({m.split(".")[0] for m in sys.modules})}))
""")


def test_portal_payments_reconcile_runs_without_flask(world, tmp_path, monkeypatch):
    """The command in a process of its own, configured by the environment only: it emails
    the receipt due (PDF attached) and never imports Flask, werkzeug or the web layer."""
    app = paid_without_a_receipt(world, tmp_path, monkeypatch, "es")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("STRIPE_", "MAIL_", "PORTAL_", "DATABASE_", "OUTBOX_"))}
    env.update(DATABASE_URL=app.config["DATABASE_URL"], OUTBOX_DIR=app.config["OUTBOX_DIR"],
               PORTAL_INSTANCE=str(tmp_path / "instance"),
               PORTAL_BASE_URL="https://portal.example.pr", PORTAL_TODAY=SEPT_5.isoformat())
    proc = subprocess.run([sys.executable, "-c", RECONCILE], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    *said, last = proc.stdout.strip().splitlines()
    out = json.loads(last)
    assert out["code"] == 0, proc.stdout
    assert "receipts emailed: 1" in said, said
    assert not set(WEB_STACK) & set(out["loaded"]), out["loaded"]
    assert "portal" in out["loaded"]
    check_the_receipt_email(Path(app.config["OUTBOX_DIR"]), world, "es")


@pytest.mark.parametrize("base", ["http://localhost", "https://portal.example.pr/",
                                  "https://example.pr/portal/"])
def test_the_receipts_link_is_the_pages(world, tmp_path, base):  # noqa: ANN001
    """The email's link, made without the app, is the receipt page's URL on PORTAL_BASE_URL."""
    from portal.documents import receipt
    from portal.web.data import external_url

    app = make_app(tmp_path, world.database, PORTAL_BASE_URL=base, SERVER_NAME=None)
    with app.app_context():
        assert receipt.link(app.config, 42) == external_url("payments.receipt", checkout_id=42)


def test_the_commands_gateway_is_the_apps(world, tmp_path):  # noqa: ANN001
    """The same gateway from the app's config (a page) and from the settings (a command)."""
    from portal.db import get_database
    from portal.payments import gateway_settings
    from portal.web.payments.gateways import gateway

    app = make_app(tmp_path, world.database)
    with app.app_context():
        from_app = gateway()
    settings = {**portal_config.settings({"DATABASE_URL": app.config["DATABASE_URL"]},
                                         with_key=False), **NO_STRIPE}
    database = get_database(settings["DATABASE_URL"])
    from_settings = gateway_settings.gateway(settings, database)
    assert from_app.name == from_settings.name == "sandbox"
    assert from_app.checkout_url == from_settings.checkout_url == "/pagos/prueba/{session_id}"
    key = {"STRIPE_SECRET_KEY": "sk_test_x", "STRIPE_API_BASE": "http://127.0.0.1:1"}
    assert gateway_settings.gateway({**settings, **key}, database).name == "stripe"
