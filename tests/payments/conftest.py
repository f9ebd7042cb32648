"""Fixtures of the payments tests: the local Stripe-compatible server and a gateway on it."""

from __future__ import annotations

import os

import pytest

from portal.payments.gateway import StripeGateway

from . import stripe_server

os.environ.setdefault("NO_PROXY", "127.0.0.1,localhost")
os.environ.setdefault("no_proxy", "127.0.0.1,localhost")

WEBHOOK_SECRET = "whsec_test_portal"


@pytest.fixture
def fake_stripe():
    with stripe_server.running() as fake:
        yield fake


@pytest.fixture
def stripe_gateway(fake_stripe):
    return StripeGateway("sk_test_portal", webhook_secret=WEBHOOK_SECRET,
                         api_base=stripe_server.base(fake_stripe), max_network_retries=0)


@pytest.fixture(scope="session")
def schema_template(tmp_path_factory):
    """The schema, from the migrations only, built once and copied for each test."""
    from portal.db import reset_databases, upgrade

    path = tmp_path_factory.mktemp("payments_schema") / "schema.db"
    upgrade(f"sqlite:///{path}", "head")
    reset_databases()
    return path


@pytest.fixture
def database(schema_template, tmp_path):
    from .factory import sqlite_database

    db = sqlite_database(schema_template, tmp_path)
    yield db
    db.dispose()


def make_app(database, tmp_path, **overrides):
    """The portal on `database` (a migrated copy), sandbox payments unless overridden."""
    from portal.app import create_app

    config = {"TESTING": True, "SECRET_KEY": "test-secret-key",
              "INSTANCE_PATH": str(tmp_path / "instance"),
              "DATABASE_URL": database.url if "sqlite" not in database.url
              else str(database.engine.url),
              "OUTBOX_DIR": str(tmp_path / "outbox"), "MAIL_SERVER": None,
              "SERVER_NAME": "localhost", "PORTAL_BASE_URL": "http://localhost",
              "RATELIMIT_ENABLED": False,
              "WTF_CSRF_ENABLED": True, "STRIPE_SECRET_KEY": "", "STRIPE_WEBHOOK_SECRET": "",
              "STRIPE_API_BASE": ""}
    config.update(overrides)
    return create_app(config)
