"""Fixtures for the web tests: an app on a fresh copy of the schema template or of the demo
District (tests/conftest.py builds both once per session), a test client, the app's error
log, fpdf2's warnings. The helpers are in tests/support/ (pages, demo, app, ...)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from portal.db import reset_databases
from tests.support.app import make_app
from tests.support.hostile import ErrorLog


@pytest.fixture
def app(tmp_path: Path, schema_template: Path, fixed_today: date) -> Iterator[Flask]:
    """The portal on an empty database (migrated), on the demo's day."""
    application = make_app(tmp_path, schema_template)
    yield application
    reset_databases()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def demo_app(tmp_path: Path, demo_db: tuple[Path, Any], fixed_today: date) -> Iterator[Flask]:
    """The portal on a copy of the demo District, on its day; config["DEMO"] is the demo's
    result (its codes and secrets)."""
    application = make_app(tmp_path, demo_db[0])
    application.config["DEMO"] = demo_db[1]
    yield application
    reset_databases()


@pytest.fixture
def error_log() -> Iterator[ErrorLog]:
    """The exceptions the app's error handler logs while the test runs."""
    handler = ErrorLog()
    logger = logging.getLogger("portal.web.errors")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


@pytest.fixture
def no_missing_glyph(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """fpdf2 logs a warning for a character its font lacks (it would print as a box): none
    may be logged (`pytestmark = pytest.mark.usefixtures("no_missing_glyph")`)."""
    with caplog.at_level(logging.WARNING, logger="fpdf"):
        yield
    missing = [r.getMessage() for r in caplog.records if "missing" in r.getMessage()]
    assert not missing, missing
