"""The payments pages (routes.py), their words (present.py), gateway (gateways.py), emails.

One blueprint, `payments`."""

from flask import Blueprint

bp = Blueprint("payments", __name__)
