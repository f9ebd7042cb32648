"""Every domain that registers background jobs' kinds (`portal.jobs.runner.register`),
imported once: the web app, the worker and the job commands import this module, so a job
of any kind runs wherever it is picked up. The runner itself imports no domain.
"""

from datetime import date

from portal import config
from portal.collections import demands, schedule
from portal.db import Database
from portal.documents import (
    demand_letter,  # noqa: F401 - words the letters the run keeps
    receipt,
)
from portal.jobs import daily
from portal.lenders import (
    batches,
    loan_changes,  # The add/delete files
)
from portal.payments.autopay import debits as autopay_debits
from portal.reminders import sending as reminders_sending  # the day's reminders (daily)
from portal.roll import notices, roll, roll_import

#: The modules whose import registers the kinds (read by the test that every kind is here).
REGISTERING = (demands, batches, notices, roll, roll_import)
REGISTERING += (loan_changes,)


def _autopay(database: Database, day: date) -> dict[str, int]:
    """Autopay's day (portal.payments.autopay.debits), each debit's receipt emailed."""
    settings = config.settings()
    return autopay_debits.run_day(
        database, day, config=settings,
        send_receipt=lambda checkout_id: receipt.send_receipt(database, checkout_id, settings))


daily.register("autopay", _autopay)

# Each lender's daily digest of the exemption decisions on its loans.
from portal.exemptions import digest as exemption_digest  # noqa: E402
from portal.jobs import daily as _daily  # noqa: E402

_daily.register(exemption_digest.NAME, exemption_digest.send)

# R-B16: each approved payment plan the core finds in default, its owner told once.
from portal.exemptions import plan_defaults  # noqa: E402

_daily.register(plan_defaults.NAME, plan_defaults.find)
#: The modules whose import registers a task of the day's work (`portal.jobs.daily`).
DAILY = (reminders_sending, schedule)


def _sessions(database: Database, day: date) -> dict[str, int]:
    """The session rows past their absolute end (purged by the worker each hour,
    never by a request). Idempotent: a second pass finds none left."""
    from portal.db import UnitOfWork
    from portal.people import users
    with UnitOfWork(database) as w:
        return {"deleted": users.purge_sessions(w)}


_daily.register("sessions", _sessions)


# The file store's retention policy (print files with plain-text access codes).
from portal.roll import retention  # noqa: E402

_daily.register(retention.NAME, retention.run)
