"""Every domain that registers background jobs' kinds (`portal.jobs.runner.register`),
imported once: the web app, the worker and the job commands import this module, so a job
of any kind runs wherever it is picked up. The runner itself imports no domain.
"""

from datetime import date
from decimal import Decimal
from typing import Any

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
    bill_jobs,  # Making a large bill file, preparing a large bill payment
    bill_start,  # Starting a large bill payment
    loan_changes,  # The add/delete files
)
from portal.lenders import portfolio as lender_portfolio
from portal.payments.autopay import debits as autopay_debits
from portal.reminders import sending as reminders_sending  # the day's reminders (daily)
from portal.roll import notices, roll, roll_import

#: The modules whose import registers the kinds (read by the test that every kind is here).
REGISTERING = (demands, batches, notices, roll, roll_import)
REGISTERING += (loan_changes, bill_start, bill_jobs)

# The reports' snapshots (docs/REPORTS.md): the job and the day's task.
from portal.reports import snapshots as report_snapshots  # noqa: E402

REGISTERING += (report_snapshots,)


def _autopay(database: Database, day: date) -> dict[str, int]:
    """Autopay's day (portal.payments.autopay.debits), each debit's receipt emailed."""
    settings = config.settings()
    return autopay_debits.run_day(
        database, day, config=settings,
        send_receipt=lambda checkout_id: receipt.send_receipt(database, checkout_id, settings))


daily.register("autopay", _autopay)
# Each lender's loans' figures and kept totals of the day (the list's first view computes none).
daily.register(lender_portfolio.DAY_TASK, lender_portfolio.keep_day)


def _start_bill_payment(database: Database, who: Any, params: dict[str, Any],
                        progress: Any) -> int:
    """The bill payment job's start (`lenders.bill_start`): the prepared payment's plan
    (`lenders.bills.to_start`) started by the payments (`start_planned`, the configured
    gateway); its checkout's id. A refusal is the job's error, worded by its page."""
    from portal.accounts.errors import ServiceError
    from portal.lenders import bills
    from portal.payments import gateway_settings
    from portal.payments.gateway import GatewayError
    from portal.payments.service import OthersPaying, PricesChanged, start_planned
    try:
        plan = bills.to_start(database, who, int(params["file_id"]),
                              int(params["payment_id"]),
                              expected_total=Decimal(params["expected_total"]))
        started = start_planned(
            database, plan, user=who, language=params["language"],
            gateway=gateway_settings.gateway(config.settings(with_key=False), database),
            description=bill_start.description(int(params["file_id"]), params["language"]),
            success_url=params["success_url"], cancel_url=params["cancel_url"],
            pay_anyway=bool(params.get("pay_anyway")), progress=progress)
    except (bills.Changed, PricesChanged):
        raise ServiceError(bill_start.CHANGED) from None
    except OthersPaying as exc:
        raise ServiceError(bill_start.OTHERS, count=len(exc.others)) from None
    except GatewayError as exc:
        raise ServiceError(bill_start.GATEWAY, kind=exc.kind) from None
    return started.checkout_id


bill_start.use_starter(_start_bill_payment)

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


def _statistics(database: Database, day: date) -> dict[str, int]:
    """SQLite: the planner's statistics of every table again (`bulk.analyze_all`), as
    PostgreSQL's autovacuum keeps its own (there: nothing to do)."""
    if database.engine.dialect.name != "sqlite":
        return {"analyzed": 0}
    from portal.accounts import bulk
    from portal.db import UnitOfWork
    with UnitOfWork(database) as w:
        bulk.analyze_all(w)
    return {"analyzed": 1}


_daily.register("statistics", _statistics)


# The file store's retention policy (print files with plain-text access codes).
from portal.roll import retention  # noqa: E402

_daily.register(retention.NAME, retention.run)

# The lists of loan numbers a lender uploaded to pay, left behind (a failed job): 7 days.
_daily.register(bill_jobs.LISTS_TASK, bill_jobs.purge_lists)
