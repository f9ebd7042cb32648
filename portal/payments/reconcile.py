"""`portal payments reconcile`: settle what a missed webhook left behind.

Asks the gateway about every checkout still pending or processing and passes each through the
same `fulfil` a webhook would; a checkout that never reached the provider (created, no session,
older than an hour) is expired. Safe to run at any time, as often as wanted.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta

from sqlalchemy import select

from portal import clock
from portal.core import payment_states as states
from portal.db import Database
from portal.models.checkouts import Checkout
from portal.payments import fulfilment
from portal.payments.gateway import Gateway, GatewayError

log = logging.getLogger(__name__)

ABANDONED_AFTER = timedelta(hours=1)


@dataclass
class Report:
    checked: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)

    def summary(self) -> str:
        parts = [f"{k}: {v}" for k, v in sorted(self.outcomes.items())]
        return f"{self.checked} checked" + ("; " + ", ".join(parts) if parts else "") + (
            f"; {len(self.errors)} errors" if self.errors else "")


def reconcile(database: Database, gateway: Gateway, *, limit: int = 500) -> Report:
    report = Report()
    with database.unit_of_work() as uow:
        rows = uow.session.execute(
            select(Checkout.id, Checkout.status, Checkout.provider_session_id,
                   Checkout.created_at)
            .where(Checkout.provider == gateway.name,
                   Checkout.status.in_([states.CREATED, states.PENDING, states.PROCESSING]))
            .order_by(Checkout.id).limit(limit)).all()
    cutoff = clock.now() - ABANDONED_AFTER
    for chk_id, status, session_id, created in rows:
        report.checked += 1
        try:
            with database.unit_of_work() as uow:
                if session_id is None:
                    if status == states.CREATED and created < cutoff:
                        chk = fulfilment.lock_checkout(uow, chk_id)
                        out = fulfilment.transition(uow, chk, states.EXPIRED)
                        report.outcomes[out.kind] += 1
                    else:
                        report.outcomes["waiting"] += 1
                    continue
                out = fulfilment.fulfil(uow, chk_id, session_id, gateway=gateway)
                report.outcomes[out.kind] += 1
        except (GatewayError, fulfilment.Mismatch, LookupError) as exc:
            log.warning("payments: reconcile checkout %s: %s", chk_id, exc)
            report.errors.append(f"checkout {chk_id}: {exc}")
    return report
