"""The portal's payment gateway built from its settings: Stripe when STRIPE_SECRET_KEY is
set, else the sandbox (its sessions kept in the database). No Flask: the web app passes its
config, `portal payments reconcile` passes `portal.config.settings()`, and both get the same
gateway.

Each Stripe setting (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE: another
Stripe-compatible server, for tests; STRIPE_MAX_RETRIES) is read from the settings given,
then from the environment.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from portal.config import STRIPE_KEYS
from portal.db import Database
from portal.payments.gateway import Gateway, gateway_from_config
from portal.payments.sandbox_store import DatabaseSandboxStore, DatabaseSetupStore

#: The sandbox's checkout page (`payments.sandbox` in portal/web/payments/routes.py).
SANDBOX_URL = "/pagos/prueba/{session_id}"
#: The sandbox's page to save a card or bank account (`payments.sandbox_setup`).
SANDBOX_SETUP_URL = "/pagos/prueba/metodo/{setup_id}"


def stripe_settings(settings: Mapping[str, Any], env: Mapping[str, str] | None = None
                    ) -> dict[str, str]:
    """The Stripe settings that are set: from `settings`, else the environment (`env`)."""
    env = os.environ if env is None else env
    out = {}
    for k in STRIPE_KEYS:
        value = settings.get(k)
        if value is None:
            value = env.get(k)
        if value not in (None, ""):
            out[k] = str(value)
    return out


def gateway(settings: Mapping[str, Any], database: Database) -> Gateway:
    """The gateway of these settings; the sandbox's URL under APPLICATION_ROOT (default /)."""
    root = str(settings.get("APPLICATION_ROOT") or "/")
    return gateway_from_config(stripe_settings(settings), DatabaseSandboxStore(database),
                               sandbox_url=root.rstrip("/") + SANDBOX_URL,
                               setup_store=DatabaseSetupStore(database),
                               setup_url=root.rstrip("/") + SANDBOX_SETUP_URL)
