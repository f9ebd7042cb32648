"""`portal payments reconcile`: the command behind the CLI (it needs the app for the gateway's
settings and for emailing receipts in the payer's language)."""

from __future__ import annotations

import click
from sqlalchemy import select

from portal.core import payment_states as states
from portal.models.payments_ext import Checkout
from portal.payments.reconcile import reconcile


def reconcile_command(limit: int = 500) -> int:
    from portal.app import create_app
    from portal.web.data import database, uow
    from portal.web.payments import emails
    from portal.web.payments.gateways import gateway

    app = create_app()
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
