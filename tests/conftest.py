"""Hypothesis profiles for the property tests, chosen by the environment variable
HYPOTHESIS_PROFILE (default "ci").

- "ci": derandomized (the same examples on every run, so a failure is reproducible), 200
  examples; tests/core/test_properties.py runs 200 per statement property, 400 per cheap
  one and 1,000 for the cents-sized payments. Measured against the core with R-A8 interest
  rounded per period (the revision-1 bug): `test_paying_a_few_cents_never_costs_more` finds
  it from 50 derandomized examples (and in 19 of 20 random runs of 500, 20 of 20 of 1,000),
  `test_where_interest_periods_end_does_not_matter` at 200; the general
  `test_paying_more_never_costs_more` needed between 2,000 and 5,000, hence the targeted
  tests. The whole core property suite: about 30 s on two shared cores (22 s of CPU).
- "deep": ten times as many examples, random ones (a new search on every run).

Tests that set their own `max_examples` keep it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

import portal.domains  # noqa: F401 - every background job kind registered, as in the app
import portal.outbox  # noqa: F401 - MAIL_INLINE's sender registered, as the app and the worker do
from tests.support import demo, schema
from tests.support.clock import TODAY, fixed_on

settings.register_profile("ci", derandomize=True, max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("deep", derandomize=False, max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# The suite passes on any real date: each test sets the clock it needs, and the demo's day
# that `make run` pins (PORTAL_TODAY) never reaches it, even when set in the shell.
os.environ.pop("PORTAL_TODAY", None)


# --- The fixtures every directory shares (helpers: tests/support/) -------------------------

@pytest.fixture(scope="session")
def schema_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to head, built once per session (per worker with pytest-xdist):
    copy it, never write to it (tests.support.schema)."""
    return schema.build_template(tmp_path_factory.mktemp("schema"))


@pytest.fixture(scope="session")
def demo_db(tmp_path_factory: pytest.TempPathFactory, schema_template: Path) -> tuple[Path, Any]:
    """A SQLite file with the demo District, loaded once per session on its day, and the
    demo's result (its codes and secrets): copy the file, never write to it."""
    return demo.load(schema_template, tmp_path_factory.mktemp("demo"))


@pytest.fixture
def fixed_today() -> Iterator[date]:
    """The clock on the demo District's day (tests.support.clock.TODAY) for the test."""
    with fixed_on(TODAY) as today:
        yield today


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium per test module, closed at its end (only one Playwright may run at a
    time in a process: other suites start their own). Skipped with the reason when the
    browser tests cannot run here (tests.support.browser.REASON)."""
    from tests.support.browser import ARGS, CHROMIUM, REASON
    if REASON is not None:
        pytest.skip(REASON)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


def pytest_sessionfinish(session, exitstatus):  # noqa: ANN001, ANN201, ARG001
    """Cancel the timers libraries leave running (the rate limiter's in-memory store starts
    threading.Timer threads): Python waits for them at exit, and under `faketime` (the run a
    year ahead in .ci/run) their timed wait never ends. Cancelling wakes them at once."""
    import threading

    for thread in threading.enumerate():
        if isinstance(thread, threading.Timer):
            thread.cancel()
