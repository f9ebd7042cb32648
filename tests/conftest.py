"""Hypothesis profiles for the property tests, chosen by the environment variable
HYPOTHESIS_PROFILE (default "ci").

- "ci": derandomized (the same examples on every run, so a failure is reproducible) and
  enough examples for the core's property suite to find the classes of bugs it is written
  for: with the R-A8 interest rounded per period instead of as a total, the cents-sized
  payments of tests/core/test_properties.py find the counterexample at 50 derandomized
  examples (and in 19 of 20 random runs of 500); the whole core property suite takes about
  20-30 s on two shared cores.
- "deep": ten times as many examples, random ones (a new search on every run).

Tests that set their own `max_examples` keep it; tests/core/test_properties.py scales its
budgets from the profile's.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", derandomize=True, max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("deep", derandomize=False, max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# The suite passes on any real date: each test sets the clock it needs, and the demo's day
# that `make run` pins (PORTAL_TODAY) never reaches it, even when set in the shell.
os.environ.pop("PORTAL_TODAY", None)
