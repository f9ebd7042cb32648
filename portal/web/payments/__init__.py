"""The payments pages (routes.py), their words (present.py), the app's gateway (gateways.py)
and the receipt's email after a page or the webhook (emails.py); the receipt itself (view,
PDF, email) is `portal.documents.receipt`.

One blueprint, `payments`."""

from flask import Blueprint

bp = Blueprint("payments", __name__)
