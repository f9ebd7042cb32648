"""Fixtures of the payments tests: the local Stripe-compatible server and a gateway on it;
the payments' world (tests.support.world.seed: two parcels, on 5 September 2026) on a copy
of the schema template or on a throwaway PostgreSQL database; the app on it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from portal.db import Database, reset_databases
from portal.payments.gateway import StripeGateway
from tests.support import schema, stripe_server
from tests.support.app import make_app
from tests.support.clock import SEPT_5, fixed_on
from tests.support.payments import WEBHOOK_SECRET
from tests.support.world import World, seed

os.environ.setdefault("NO_PROXY", "127.0.0.1,localhost")
os.environ.setdefault("no_proxy", "127.0.0.1,localhost")


@pytest.fixture
def fake_stripe():  # noqa: ANN201
    with stripe_server.running() as fake:
        yield fake


@pytest.fixture
def stripe_gateway(fake_stripe) -> StripeGateway:  # noqa: ANN001
    return StripeGateway("sk_test_portal", webhook_secret=WEBHOOK_SECRET,
                         api_base=stripe_server.base(fake_stripe), max_network_retries=0)


@pytest.fixture
def database(schema_template: Path, tmp_path: Path) -> Iterator[Database]:
    """A fresh copy of the schema template."""
    db = schema.sqlite_database(schema_template, tmp_path)
    yield db
    db.dispose()


@pytest.fixture
def world(database: Database) -> Iterator[World]:
    """Two parcels of the owner's (annual 1,200.00 and 600.00), the clock on 5 September
    2026 for the whole test; a module that needs more overrides it, asking for this one."""
    with fixed_on(SEPT_5):
        yield seed(database, ("1200.00", "600.00"))


@pytest.fixture
def pg_world() -> Iterator[World]:
    """The same world on a throwaway PostgreSQL database (skipped, with the reason, without
    one)."""
    with schema.migrated_postgresql() as url:
        database = Database(url)
        try:
            with fixed_on(SEPT_5):
                yield seed(database, ("1200.00", "600.00"))
        finally:
            database.dispose()
            reset_databases()


@pytest.fixture
def app(world: World, tmp_path: Path) -> Iterator[Flask]:
    """The portal on the world's database: the built-in sandbox, no Stripe key."""
    yield make_app(tmp_path, world.database)
    reset_databases()
