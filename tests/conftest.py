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

from hypothesis import HealthCheck, settings

import portal.domains  # noqa: F401 - every background job kind registered, as in the app

settings.register_profile("ci", derandomize=True, max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("deep", derandomize=False, max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# The suite passes on any real date: each test sets the clock it needs, and the demo's day
# that `make run` pins (PORTAL_TODAY) never reaches it, even when set in the shell.
os.environ.pop("PORTAL_TODAY", None)


def pytest_sessionfinish(session, exitstatus):  # noqa: ANN001, ANN201, ARG001
    """Cancel the timers libraries leave running (the rate limiter's in-memory store starts
    threading.Timer threads): Python waits for them at exit, and under `faketime` (the run a
    year ahead in .ci/run) their timed wait never ends. Cancelling wakes them at once."""
    import threading

    for thread in threading.enumerate():
        if isinstance(thread, threading.Timer):
            thread.cancel()
