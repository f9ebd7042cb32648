"""The receipt by email (in the payer's language, with the PDF attached), sent once.

`send_receipt` is idempotent: it locks the checkout, sends only when the payment has been
applied, the payer has an email and no receipt was sent yet, and records when it was sent.
"""

from __future__ import annotations

import logging

from flask import current_app

from portal import clock, i18n, mail, pdf
from portal.core import payment_states as states
from portal.i18n import LANGUAGES
from portal.payments import fulfilment, receipts
from portal.web.data import external_url, uow
from portal.web.payments import present

log = logging.getLogger(__name__)


def receipt_pdf(view: present.ReceiptView, lang: str) -> bytes:
    return pdf.render(present.receipt_document(view), lang)


def send_receipt(checkout_id: int) -> bool:
    """Email the receipt if it is due; True when an email went out."""
    with uow() as w:
        chk = fulfilment.lock_checkout(w, checkout_id)
        applied = chk.status in states.APPLIED or chk.status == states.REFUNDED
        if chk.receipt_sent_at is not None or not chk.payer_email or not applied:
            return False
        lang = chk.language if chk.language in LANGUAGES else "es"
        with i18n.use_language(lang):
            view = present.receipt_view(receipts.build(w, chk))
            subject, body = mail.render_text(
                "payments/email_receipt.txt", lang, v=view,
                link=external_url("payments.receipt", checkout_id=chk.id))
            data = receipt_pdf(view, lang)
        config = current_app.config
        msg = mail.build(chk.payer_email, subject, body, lang, config)
        name = ("recibo" if lang == "es" else "receipt") + f"-{chk.receipt_number}.pdf"
        msg.add_attachment(data, maintype="application", subtype="pdf", filename=name)
        del msg["Content-Language"]  # moved to the text part by add_attachment: the whole
        msg["Content-Language"] = "es-PR" if lang == "es" else "en-US"  # email is in `lang`
        mail.deliver(msg, config)
        chk.receipt_sent_at = clock.now()
    log.info("payments: receipt of checkout %s emailed", checkout_id)
    return True


def notify(checkout_id: int, outcome: str) -> None:
    """After an event's commit: email the receipt once the payment is applied."""
    if outcome in ("posted", "settled"):
        send_receipt(checkout_id)
