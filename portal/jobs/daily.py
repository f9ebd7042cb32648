"""The portal's daily work: what must happen once for each Puerto Rico day whoever runs it
(reminders, autopay debits, the collections run's demands).

Each domain registers a task (`register(name, task)`); `task(database, day)` does that day's
work and returns counts to log. A task must be **idempotent for its day**: the worker calls
every task each hour (`portal.daily`, so a worker down at the usual hour still does the day's
work when it comes back), several workers may call it at once, and `portal daily --on DAY`
runs it by hand. A task keeps its own record of what it did for which day (a unique key per
item and day), so a second call finds nothing left to do.

This module imports no domain: `portal.domains` imports the modules that register.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from datetime import date

from portal.db import Database

log = logging.getLogger(__name__)

Task = Callable[[Database, date], Mapping[str, int] | None]

#: The registered tasks by name, in the order they run.
TASKS: dict[str, Task] = {}


def register(name: str, task: Task) -> None:
    """Make `task(database, day)` part of each day's work."""
    TASKS[name] = task


def run_all(database: Database, day: date) -> dict[str, Mapping[str, int] | None]:
    """Run every registered task for `day`; one that fails is logged and the others run."""
    done: dict[str, Mapping[str, int] | None] = {}
    for name, task in TASKS.items():
        try:
            done[name] = task(database, day)
        except Exception:
            log.exception("daily task %s for %s failed", name, day)
            done[name] = None
        else:
            log.info("daily task %s for %s: %s", name, day, done[name])
    return done
