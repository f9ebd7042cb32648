"""`portal payments reconcile`: the command behind the CLI. The CLI builds the app (the
gateway's settings and the mail settings are the app's configuration) and hands it here."""

from __future__ import annotations

import click
from flask import Flask
from sqlalchemy import select

from portal.core import payment_states as states
from portal.models.checkouts import Checkout
from portal.payments.reconcile import reconcile


def reconcile_command(app: Flask, limit: int = 500) -> int:
    from portal.web.data import database, uow
    from portal.web.payments import emails
    from portal.web.payments.gateways import gateway

    with app.app_context():
        gw = gateway()
        report = reconcile(database(), gw, limit=limit)
        click.echo(f"reconcile ({gw.name}): {report.summary()}")
        for line in report.errors:
            click.echo(f"  {line}", err=True)
        with uow() as w:
            due = w.session.scalars(select(Checkout.id).where(
                Checkout.receipt_sent_at.is_(None), Checkout.payer_email.is_not(None),
                Checkout.status.in_(sorted(states.APPLIED)))).all()
        sent = sum(1 for cid in due if emails.send_receipt(cid))
        if sent:
            click.echo(f"receipts emailed: {sent}")
    return 1 if report.errors else 0
