"""The receipt's email after a page or the webhook settled a payment: the document's own
(`portal.documents.receipt.send_receipt`: in the payer's language, with the PDF attached,
sent once) on the app's database and configuration."""

from __future__ import annotations

from flask import current_app

from portal.documents import receipt
from portal.web.data import database


def send_receipt(checkout_id: int) -> bool:
    """Email the receipt if it is due; True when an email went out."""
    return receipt.send_receipt(database(), checkout_id, current_app.config)


def notify(checkout_id: int, outcome: str) -> None:
    """After an event's commit: email the receipt once the payment is applied."""
    if outcome in ("posted", "settled"):
        send_receipt(checkout_id)
