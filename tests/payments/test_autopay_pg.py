"""Autopay's day on PostgreSQL: two runs of the day's task at once (two workers, the
provider answering slowly) make one attempt, one off-session PaymentIntent, one posting and
one email of each kind: the attempt's unique row, committed before the provider is called,
and the messages' unique rows do it."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select

from portal.core import payment_states as states
from portal.models import LedgerEntry, OutboxMessage
from portal.models.autopay import AutopayDebit
from portal.models.checkouts import Checkout
from portal.payments.autopay import debits, enrolments
from tests.payments.test_autopay_stripe import CONFIG, save
from tests.support.clock import fixed_on
from tests.support.payments import count, together

pytestmark = pytest.mark.postgres
OCT_1 = date(2026, 10, 1)


def test_two_runs_at_once_debit_once(pg_world, fake_stripe, stripe_gateway) -> None:  # noqa: ANN001
    world = pg_world
    card = save(world, stripe_gateway, fake_stripe)
    with world.uow() as uow:
        enrolments.enrol(uow, world.user(uow), world.parcel["0"], method_id=str(card.id),
                         plan="installments", lump_sum_on=None, language="es")
    fake_stripe.delay = 0.3
    with fixed_on(OCT_1):
        results = together(2, lambda i: debits.run_day(world.database, OCT_1,
                                                       gateway=stripe_gateway, config=CONFIG))
    assert not [r for r in results if isinstance(r, Exception)], results
    assert len(fake_stripe.posts("/v1/payment_intents")) == 1
    assert count(world, AutopayDebit) == 1 and count(world, Checkout) == 1
    assert count(world, LedgerEntry, LedgerEntry.kind == "payment") == 1
    assert count(world, OutboxMessage, OutboxMessage.template == "autopay_debited") == 1
    with world.uow() as uow:
        assert uow.session.scalars(select(Checkout)).one().status == states.SUCCEEDED
