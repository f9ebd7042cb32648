"""The app's payment gateway, built once per app from its config by
`portal.payments.gateway_settings.gateway` (Stripe when STRIPE_SECRET_KEY is set, else the
sandbox; each Stripe setting from the app's config, then the environment): the same gateway
`portal payments reconcile` builds from `portal.config.settings()`.
"""

from __future__ import annotations

from flask import current_app

from portal.payments import gateway_settings
from portal.payments.gateway import Gateway
from portal.web.data import database


def gateway() -> Gateway:
    app = current_app
    gw = app.extensions.get("portal.payments.gateway")
    if gw is None:
        gw = gateway_settings.gateway(app.config, database())
        app.extensions["portal.payments.gateway"] = gw
    return gw


def is_sandbox() -> bool:
    return gateway().name == "sandbox"
