"""Payments: checkout through a gateway (Stripe or the built-in sandbox), one idempotent
fulfilment function, an append-only ledger allocated by the core (R-A10, R-A11), receipts.

DESIGN.md 4: a payment moves forward only (`portal.core.payment_states`), each provider
event is recorded once, and `fulfilment.fulfil` is the one function that posts money,
whoever calls it.
"""

