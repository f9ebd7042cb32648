"""The receipt by email (in the payer's language, with the PDF attached), sent once.

`send_receipt` is idempotent: it locks the checkout, sends only when the payment has been
applied, the payer has an email and no receipt was sent yet, and records when it was sent.
"""

from __future__ import annotations

import logging

from flask import render_template
from flask_babel import force_locale

from portal import clock, mail, pdf
from portal.core import payment_states as states
from portal.i18n import LANGUAGES, LOCALES
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
        with force_locale(LOCALES[lang]):
            view = present.receipt_view(receipts.build(w, chk))
            text = render_template("payments/email_receipt.txt", v=view, lang=lang,
                                   link=external_url("payments.receipt",
                                                     checkout_id=chk.id))
            data = receipt_pdf(view, lang)
        first, _, body = text.lstrip().partition("\n")
        msg = mail.build(chk.payer_email, first.removeprefix("Subject:").strip(),
                         body.strip() + "\n", lang)
        name = ("recibo" if lang == "es" else "receipt") + f"-{chk.receipt_number}.pdf"
        msg.add_attachment(data, maintype="application", subtype="pdf", filename=name)
        del msg["Content-Language"]  # moved to the text part by add_attachment: the whole
        msg["Content-Language"] = "es-PR" if lang == "es" else "en-US"  # email is in `lang`
        mail.deliver(msg)
        chk.receipt_sent_at = clock.now()
    log.info("payments: receipt of checkout %s emailed", checkout_id)
    return True


def notify(checkout_id: int, outcome: str) -> None:
    """After an event's commit: email the receipt once the payment is applied."""
    if outcome in ("posted", "settled"):
        send_receipt(checkout_id)
