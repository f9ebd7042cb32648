"""The app's payment gateway: Stripe when STRIPE_SECRET_KEY is set, else the sandbox.

Settings are read from the app's config, then the environment:
STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE (another Stripe-compatible server,
for tests), STRIPE_MAX_RETRIES.
"""

from __future__ import annotations

import os

from flask import Flask, current_app

from portal.payments.gateway import Gateway, gateway_from_config
from portal.payments.sandbox_store import DatabaseSandboxStore
from portal.web.data import database

KEYS = ("STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "STRIPE_API_BASE", "STRIPE_MAX_RETRIES")
SANDBOX_URL = "/pagos/prueba/{session_id}"


def settings(app: Flask) -> dict[str, str]:
    out = {}
    for k in KEYS:
        value = app.config.get(k)
        if value is None:
            value = os.environ.get(k)
        if value not in (None, ""):
            out[k] = str(value)
    return out


def gateway() -> Gateway:
    app = current_app
    gw = app.extensions.get("portal.payments.gateway")
    if gw is None:
        gw = gateway_from_config(settings(app), DatabaseSandboxStore(database()),
                                 sandbox_url=(app.config.get("APPLICATION_ROOT", "/")
                                              .rstrip("/") + SANDBOX_URL))
        app.extensions["portal.payments.gateway"] = gw
    return gw


def is_sandbox() -> bool:
    return gateway().name == "sandbox"
