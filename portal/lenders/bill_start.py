"""Starting a prepared bill payment: its checkout (one payment of every item, each checked
again against today's offer, written in one transaction) and the provider's session.

Thousands of items take seconds to write, so a large payment leaves the request (DESIGN.md
7): the click submits a job (`submit`, kind "lender.bill_payment"), a worker runs it
(`Starting`: one step, the whole checkout in one transaction, its progress written aside as
each batch is written) and the payment's page shows the job's progress, then the link to
the provider's page. The checkout itself is the payments' (`payments.service.start_planned`
of `bills.to_start`'s plan): `portal.domains` gives the job that start (`use_starter`),
this domain does not talk to the provider. A payment of at most `INLINE_MAX` items
starts within the click, as before: well under a second, and the payer goes straight to
the provider.

Exactly once, whoever runs it and however often: the checkout's key is the payment's
(`Checkout.open_key`, unique), so a second run, or a run that takes over from a worker that
died (`jobs.runner.recover`), finds the checkout already written and only opens its session
if it was not opened yet, with the checkout's own idempotency key (the provider answers the
same session). A run that died inside the transaction wrote nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from portal.accounts.errors import NotFound, ServiceError
from portal.core import payment_states as states
from portal.db import Database, UnitOfWork
from portal.i18n import gettext, use_language
from portal.jobs import runner
from portal.lenders import bills
from portal.models import BillPayment, Job
from portal.models.checkouts import Checkout

KIND = "lender.bill_payment"
#: A payment of at most this many items starts within the click (about 2 ms an item).
INLINE_MAX = 100
#: The reasons a start is refused (a job's error code, the page's message).
CHANGED = "bill_payment_changed"
OTHERS = "others_paying"
GATEWAY = "gateway"


def description(file_id: int, language: str) -> str:
    """What the provider's page says the payment is for, in the payer's language."""
    with use_language(language):
        return gettext("Bill file %(id)s: District benefit assessments", id=file_id)


#: How the job starts the payment: `start(database, who, params, progress)` gives the
#: checkout's id, or raises ServiceError(CHANGED | OTHERS | GATEWAY). Set by
#: `portal.domains` (the payments' side: this domain does not talk to the provider).
STARTER: list[Callable[[Database, Any, dict[str, Any], Any], int]] = []


def use_starter(start: Callable[[Database, Any, dict[str, Any], Any], int]) -> None:
    STARTER[:] = [start]


def submit(uow: UnitOfWork, who: Any, file_id: int, payment_id: int, *,
           expected_total: Decimal, language: str, success_url: str, cancel_url: str,
           pay_anyway: bool = False) -> Job:
    """The job that starts the payment (the one already queued or running for the same
    click if there is one), kept on the payment; the caller enqueues it once this unit of
    work commits."""
    pay = bills.payment_of(uow, who, file_id, payment_id)
    job = runner.submit(uow, who, KIND, {
        "file_id": int(file_id), "payment_id": pay.id, "expected_total": str(expected_total),
        "language": "en" if language == "en" else "es", "success_url": success_url,
        "cancel_url": cancel_url, "pay_anyway": bool(pay_anyway)})
    pay.job_id = job.id
    return job


def job_of(uow: UnitOfWork, pay: BillPayment) -> Job | None:
    return uow.session.get(Job, pay.job_id) if pay.job_id else None


def open_url(uow: UnitOfWork, pay: BillPayment) -> str | None:
    """The provider's page of the payment's checkout while it is open; None otherwise."""
    if pay.checkout_id is None:
        return None
    chk = uow.session.get(Checkout, pay.checkout_id)
    return chk.checkout_url if chk is not None and chk.status in states.OPEN else None


class Starting:
    """The job's work: one step, the whole start (`start`); `report` is set by the runner
    (the accounts written so far, on a connection of its own)."""

    report: Any = None

    def __init__(self, user: Any, params: dict[str, Any]):
        self.user = user
        self.params = params
        self.items = 0
        self.checkout_id: int | None = None

    def begin(self, uow: UnitOfWork) -> int:
        pay = uow.session.get(BillPayment, int(self.params["payment_id"]))
        if pay is None or self.user is None:
            raise NotFound()
        self.items = pay.items
        return pay.items

    def step(self, uow: UnitOfWork) -> int:
        if self.checkout_id is not None:
            return 0
        if not STARTER:
            raise ServiceError("not_configured")
        self.checkout_id = STARTER[0](uow.database, self.user, self.params, self.report)
        return max(self.items, 1)

    def finish(self, uow: UnitOfWork) -> Starting:
        return self

    def job_result(self) -> dict[str, Any]:
        return {"payment_id": int(self.params["payment_id"]), "checkout_id": self.checkout_id}


def work(user: Any, params: dict[str, Any]) -> Starting:
    return Starting(user, params)


def runnable(uow: UnitOfWork, user: Any, params: dict[str, Any]) -> None:
    """Only the payment's lender's users start it (NotFound for anyone else)."""
    bills.payment_of(uow, user, int(params["file_id"]), params["payment_id"])


runner.register(KIND, work, runnable, lender=True)

__all__ = ["CHANGED", "GATEWAY", "INLINE_MAX", "KIND", "OTHERS", "STARTER", "Starting",
           "description", "job_of", "open_url", "submit", "use_starter"]
