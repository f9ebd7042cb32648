"""Payments: checkout through a gateway (Stripe or the built-in sandbox), one idempotent
fulfilment function, an append-only ledger allocated by the core (R-A10, R-A11), receipts.

DESIGN.md 4: a payment moves forward only (`states`), each provider event is recorded once, and
`fulfilment.fulfil` is the one function that posts money, whoever calls it.
"""

# Register the payments tables (portal/models/payments_ext.py) on `Base.metadata` whenever the
# models are loaded: `portal.models.ledger` imports this package. (Asked in docs/REQUESTS.md to
# be an explicit import in portal/models/__init__.py; harmless twice.)
from portal.models import payments_ext as _payments_ext  # noqa: E402,F401
