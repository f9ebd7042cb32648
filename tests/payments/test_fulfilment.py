"""Checkout, webhooks and fulfilment end to end: the real stripe library, the local test
server, signed webhooks, a migrated SQLite database. Each test says what the payer did and
checks the money: ledger entries, receipt lines (R-A10 order), states, what Stripe was sent."""

from __future__ import annotations

from datetime import date
from decimal import Decimal as D

import pytest
from sqlalchemy import func, select

from portal import clock
from portal.accounts import facts as facts_service
from portal.accounts import statements
from portal.core.offer import Choice
from portal.models import LedgerEntry, Payment, PaymentAllocation
from portal.models.checkouts import Checkout, ProviderEvent
from portal.payments import ledger, service
from portal.payments.gateway import GatewayError, StripeGateway
from portal.payments.reconcile import reconcile
from tests.support import stripe_server
from tests.support.clock import SEPT_5
from tests.support.payments import checkout, deliver, ledger_sums, session_of
from tests.support.world import add_cost, seed


def statement(world, n=0, on=None):
    from portal.models import FiscalYear
    with world.uow() as uow:
        fy = uow.session.get(FiscalYear, world.fy_id)
        return facts_service.load(uow, world.parcel_ids[n], fy).evaluate(on or clock.today())


def pages(world, n=0):
    """The account as the pay page and the parcel page show it today: they must agree.
    Returns the pay page's offer."""
    with world.uow() as uow:
        owner = world.user(uow)
        [pay] = [a for a in service.payable_accounts(uow, owner) if a.key == world.key(n)]
        view = statements.statement_for(uow, owner, world.parcel_ids[n], rows=True)
    assert (pay.offer.due_now, pay.offer.payoff) == (view.statement.total_due_now,
                                                     view.statement.payoff)
    assert pay.offer.payoff_through_amount == view.payoff_amount
    assert pay.offer.statement.late_fees == view.statement.late_fees
    return pay.offer


def never_received(world, n, payment_id, on):
    """The statement as of `on` as if the payment had never been made."""
    from portal.core.statement import evaluate
    from portal.models import FiscalYear
    with world.uow() as uow:
        f = facts_service.load(uow, world.parcel_ids[n],
                               uow.session.get(FiscalYear, world.fy_id))
    c = f.core(on)
    kept = [p for p, e in zip(c.payments, c.payment_entries) if e.payment_id != payment_id]
    return evaluate(on, f.installments, kept, c.costs, f.rules, f.annual,
                    adjustments=c.adjustments, refunds=c.refunds)


def chk(world, cid) -> Checkout:
    with world.uow() as uow:
        c = uow.session.get(Checkout, cid)
        c.parts  # noqa: B018 - load while the session is open
        return c


def lines(world, cid):
    with world.uow() as uow:
        pids = [p.payment_id for p in uow.session.get(Checkout, cid).parts]
        live = ledger.receipt_lines(uow, pids)
        return [(a.kind, a.amount, a.installment_number, a.rule)
                for pid in pids for a in live[pid]]


def count(world, model, *where):
    with world.uow() as uow:
        return uow.session.scalar(select(func.count()).select_from(model).where(*where))


def test_pay_what_is_due_by_card(world, fake_stripe, stripe_gateway):
    due = statement(world).total_due_now
    assert due == D("312.77")  # July and August late (fees, interest) + September
    started, priced = checkout(world, stripe_gateway, [Choice(world.key(0), "due_now")])
    assert started.url.startswith("https://checkout.stripe.test/")
    assert chk(world, started.checkout_id).status == "pending"
    [sent] = fake_stripe.session_creates
    assert sent.form["line_items"][0]["price_data"]["unit_amount"] == "31277"
    assert sent.form["metadata"]["payment_id"] == str(started.checkout_id)
    assert sent.form["client_reference_id"] == str(started.checkout_id)
    assert sent.form["metadata"]["parcel_ids"] == str(world.parcel_ids[0])
    assert sent.form["locale"] == "es-419"
    assert sent.idempotency_key == chk(world, started.checkout_id).idempotency_key
    # Nothing is posted before the payer pays.
    assert count(world, LedgerEntry, LedgerEntry.kind == "payment") == 0

    sid = session_of(world, started.checkout_id)
    fake_stripe.complete(sid, "card")
    status, text, event = deliver(world, stripe_gateway, fake_stripe,
                                  "checkout.session.completed", sid)
    assert (status, text) == (200, "posted")
    c = chk(world, started.checkout_id)
    assert (c.status, c.method, c.last4, c.card_brand) == ("succeeded", "card", "4242", "visa")
    assert c.receipt_number == "2026-000001"  # the first success of the year (its counter)
    got = lines(world, c.id)
    assert [k for k, *_ in got] == ["interest", "interest", "late_fee", "late_fee",
                                    "principal", "principal", "principal"]
    assert sum(a for _, a, *_ in got) == D("312.77")
    assert [n for k, _, n, _ in got if k == "principal"] == [1, 2, 3]
    after = statement(world)
    assert after.total_due_now == 0 and after.payoff == D("900.00")
    # Replaying the very same delivery changes nothing.
    assert deliver(world, stripe_gateway, fake_stripe, "checkout.session.completed",
                   event=event)[:2] == (200, "duplicate")
    assert count(world, LedgerEntry, LedgerEntry.kind == "payment") == 1
    assert count(world, PaymentAllocation) == 7
    assert statement(world).payoff == D("900.00")


def test_bank_account_is_processing_then_settles(world, fake_stripe, stripe_gateway):
    started, _ = checkout(world, stripe_gateway, [Choice(world.key(1), "due_now")])
    sid = session_of(world, started.checkout_id)
    fake_stripe.complete(sid, "us_bank_account")
    assert deliver(world, stripe_gateway, fake_stripe, "checkout.session.completed",
                   sid)[:2] == (200, "posted")
    c = chk(world, started.checkout_id)
    assert (c.status, c.method, c.bank_name, c.last4) == ("processing", "bank",
                                                          "STRIPE TEST BANK", "6789")
    # It counts as received when completed (R-A6): the account is up to date already.
    assert statement(world, 1).total_due_now == 0
    fake_stripe.settle(sid, ok=True)
    assert deliver(world, stripe_gateway, fake_stripe,
                   "checkout.session.async_payment_succeeded", sid)[:2] == (200, "settled")
    assert chk(world, started.checkout_id).status == "succeeded"
    assert count(world, LedgerEntry, LedgerEntry.kind == "payment") == 1


def test_failed_bank_debit_is_reversed_never_deleted(world, fake_stripe, stripe_gateway):
    started, priced = checkout(world, stripe_gateway, [Choice(world.key(1), "due_now")])
    sid = session_of(world, started.checkout_id)
    fake_stripe.complete(sid, "us_bank_account")
    deliver(world, stripe_gateway, fake_stripe, "checkout.session.completed", sid)
    posted_lines = count(world, PaymentAllocation)
    fake_stripe.settle(sid, ok=False)
    assert deliver(world, stripe_gateway, fake_stripe,
                   "checkout.session.async_payment_failed", sid)[:2] == (200, "reversed")
    c = chk(world, started.checkout_id)
    assert c.status == "failed" and c.failure_code == "debit_failed"
    with world.uow() as uow:
        entries = uow.session.scalars(select(LedgerEntry).where(
            LedgerEntry.parcel_id == world.parcel_ids[1]).order_by(LedgerEntry.id)).all()
        kinds = [(e.kind, e.direction, e.amount) for e in entries]
    assert kinds == [("payment", "credit", priced.total), ("reversal", "debit", priced.total)]
    assert count(world, PaymentAllocation) >= posted_lines  # nothing deleted
    credits, debits = ledger_sums(world, 1)
    assert credits - debits == 0
    # The money is owed again from today, the day the failure is known (R-A6): the payment
    # was never received, and the pay page and the parcel page say so alike.
    with world.uow() as uow:
        reversal = uow.session.scalar(select(LedgerEntry).where(LedgerEntry.kind == "reversal"))
        assert reversal.legal_date == SEPT_5
    assert statement(world, 1).total_due_now == priced.total
    assert pages(world, 1).payoff == statement(world, 1).payoff
    with world.uow() as uow:
        assert ledger.check_allocations(uow, world.parcel_ids[1], world.fy_id) == []


def test_a_failed_debit_counts_until_the_day_the_failure_is_known(database, fake_stripe,
                                                                   stripe_gateway):
    """A bank debit completed on September 5 pays what is due; on September 15 the bank says
    it failed. Until the 14th the pay page and the parcel page count it (R-A6: received when
    completed); from the 15th, not the 16th, it was never received: September's late fee and
    the interest run as if it had not been made, and both pages say the same."""
    with clock.fixed(SEPT_5):
        world = seed(database, ("1200.00", "600.00"))
        started, priced = checkout(world, stripe_gateway, [Choice(world.key(1), "due_now")])
        sid = session_of(world, started.checkout_id)
        fake_stripe.complete(sid, "us_bank_account")
        deliver(world, stripe_gateway, fake_stripe, "checkout.session.completed", sid)
        [pid] = [p.payment_id for p in chk(world, started.checkout_id).parts]
    with clock.fixed(date(2026, 9, 14)):
        before = pages(world, 1)
        assert before.due_now == 0 and before.statement.late_fees == 0
    with clock.fixed(date(2026, 9, 15)):
        fake_stripe.settle(sid, ok=False)
        assert deliver(world, stripe_gateway, fake_stripe,
                       "checkout.session.async_payment_failed", sid)[:2] == (200, "reversed")
        after = pages(world, 1)
        unpaid = never_received(world, 1, pid, date(2026, 9, 15))
        assert (after.due_now, after.payoff) == (unpaid.total_due_now, unpaid.payoff)
        assert after.statement.late_fees == unpaid.late_fees > 0  # July to September
        assert after.payoff > before.payoff + priced.total  # and September's fee, interest
        with world.uow() as uow:
            assert ledger.check_allocations(uow, world.parcel_ids[1],
                                            world.fy_id) == []
        assert lines(world, started.checkout_id)  # its receipt stays as issued


def test_session_expires_unpaid(world, fake_stripe, stripe_gateway):
    started, _ = checkout(world, stripe_gateway, [Choice(world.key(0), "due_now")])
    sid = session_of(world, started.checkout_id)
    fake_stripe.expire(sid)
    assert deliver(world, stripe_gateway, fake_stripe, "checkout.session.expired",
                   sid)[:2] == (200, "expired")
    assert chk(world, started.checkout_id).status == "expired"
    assert count(world, LedgerEntry, LedgerEntry.kind == "payment") == 0
    # A late "completed" for an expired session changes nothing.
    assert deliver(world, stripe_gateway, fake_stripe, "checkout.session.completed",
                   sid)[:2] == (200, "noop")


def test_events_out_of_order(world, fake_stripe, stripe_gateway):
    """The settlement arrives before the completion: posted once, as succeeded."""
    started, _ = checkout(world, stripe_gateway, [Choice(world.key(1), "due_now")])
    sid = session_of(world, started.checkout_id)
    fake_stripe.complete(sid, "us_bank_account")
    fake_stripe.settle(sid)
    assert deliver(world, stripe_gateway, fake_stripe,
                   "checkout.session.async_payment_succeeded", sid)[:2] == (200, "posted")
    assert deliver(world, stripe_gateway, fake_stripe, "checkout.session.completed",
                   sid)[:2] == (200, "noop")
    assert chk(world, started.checkout_id).status == "succeeded"
    assert count(world, LedgerEntry, LedgerEntry.kind == "payment") == 1


@pytest.mark.parametrize("tamper", [
    {"metadata": {"payment_id": "999", "parcel_ids": "1"}},
    {"client_reference_id": "999"},
    {"amount_total": 100},
    {"currency": "eur"},
])
def test_tampered_session_changes_no_money(world, fake_stripe, stripe_gateway, tamper, caplog):
    started, _ = checkout(world, stripe_gateway, [Choice(world.key(0), "due_now")])
    sid = session_of(world, started.checkout_id)
    fake_stripe.complete(sid, "card")
    fake_stripe.tamper(sid, **tamper)
    status, text, _ = deliver(world, stripe_gateway, fake_stripe,
                              "checkout.session.completed", sid)
    assert (status, text) == (400, "session does not match")
    assert chk(world, started.checkout_id).status == "pending"
    assert count(world, LedgerEntry) == 0
    assert count(world, ProviderEvent) == 0
    assert "does not match" in caplog.text


def test_unsigned_or_stale_webhooks_are_refused(world, fake_stripe, stripe_gateway, caplog):
    from portal.payments.webhooks import handle_webhook
    started, _ = checkout(world, stripe_gateway, [Choice(world.key(0), "due_now")])
    sid = session_of(world, started.checkout_id)
    fake_stripe.complete(sid, "card")
    event = fake_stripe.event("checkout.session.completed", sid)
    payload, _ = stripe_server.signed(event, "whsec_test_portal")
    assert handle_webhook(world.database, stripe_gateway, payload.encode(), None)[0] == 400
    _, stale = stripe_server.signed(event, "whsec_test_portal", timestamp=1_600_000_000)
    assert handle_webhook(world.database, stripe_gateway, payload.encode(), stale)[0] == 400
    assert deliver(world, stripe_gateway, fake_stripe, "", event=event,
                   secret="whsec_wrong")[0] == 400
    assert chk(world, started.checkout_id).status == "pending"
    assert "webhook refused" in caplog.text


def test_double_click_and_second_tab_make_one_session(world, fake_stripe, stripe_gateway):
    choice = [Choice(world.key(0), "installments", through=3)]
    first, _ = checkout(world, stripe_gateway, choice)
    second, _ = checkout(world, stripe_gateway, choice)
    assert second.checkout_id == first.checkout_id and second.reused
    assert second.url == first.url
    assert len(fake_stripe.sessions) == 1
    assert count(world, Checkout) == 1 and count(world, Payment) == 1


def test_provider_down_at_checkout_changes_no_money(world, fake_stripe, stripe_gateway):
    fake_stripe.fail_next(500, code="api_error", kind="api_error", message="down")
    with pytest.raises(GatewayError) as err:
        checkout(world, stripe_gateway, [Choice(world.key(0), "due_now")])
    assert err.value.kind == "unavailable"
    [c] = [chk(world, i) for i in (1,)]
    assert c.status == "failed" and c.failure_code == "gateway_unavailable"
    assert c.open_key is None
    assert count(world, LedgerEntry) == 0
    # The payer tries again: a new attempt, and it works.
    again, _ = checkout(world, stripe_gateway, [Choice(world.key(0), "due_now")])
    assert again.checkout_id != c.id


def test_unreachable_provider_on_webhook_is_retried_later(world, fake_stripe, stripe_gateway):
    started, _ = checkout(world, stripe_gateway, [Choice(world.key(0), "due_now")])
    sid = session_of(world, started.checkout_id)
    fake_stripe.complete(sid, "card")
    fake_stripe.fail_next(503, code="api_error", kind="api_error", message="down")
    status, _, event = deliver(world, stripe_gateway, fake_stripe,
                               "checkout.session.completed", sid)
    assert status == 503
    assert count(world, ProviderEvent) == 0
    assert deliver(world, stripe_gateway, fake_stripe, "", event=event)[:2] == (200, "posted")


def test_reconcile_settles_a_missed_webhook(world, fake_stripe, stripe_gateway):
    a, _ = checkout(world, stripe_gateway, [Choice(world.key(0), "due_now")])
    b, _ = checkout(world, stripe_gateway, [Choice(world.key(1), "due_now")])
    fake_stripe.complete(session_of(world, a.checkout_id), "card")
    report = reconcile(world.database, stripe_gateway)
    assert report.checked == 2 and report.outcomes == {"posted": 1, "open": 1}
    assert chk(world, a.checkout_id).status == "succeeded"
    assert reconcile(world.database, stripe_gateway).outcomes == {"open": 1}
    fake_stripe.expire(session_of(world, b.checkout_id))
    assert reconcile(world.database, stripe_gateway).outcomes == {"expired": 1}
    assert count(world, LedgerEntry, LedgerEntry.kind == "payment") == 1


def test_reconcile_dates_a_payment_when_the_payer_completed_it(database, fake_stripe,
                                                               stripe_gateway):
    """R-A6: a card payment counts when the payer completes it. The payer pays at 23:30 on
    day G (September 10, San Juan time; already the 11th in UTC); the webhook is lost and
    reconcile finds the payment two days later: it is still timely (no late fee)."""
    from datetime import datetime

    with clock.fixed(date(2026, 9, 10)):
        world = seed(database, ("1200.00",))
        started, priced = checkout(world, stripe_gateway, [Choice(world.key(0), "due_now")])
    paid_at = datetime(2026, 9, 11, 3, 30, tzinfo=clock.UTC)  # 23:30 on the 10th in San Juan
    fake_stripe.complete(session_of(world, started.checkout_id), "card",
                         at=int(paid_at.timestamp()))
    with clock.fixed(date(2026, 9, 12)):
        assert reconcile(world.database, stripe_gateway).outcomes == {"posted": 1}
        c = chk(world, started.checkout_id)
        assert clock.legal_date(c.completed_at) == date(2026, 9, 10)
        st = statement(world)
        assert (st.late_fees, st.interest, st.costs) == (0, 0, 0)
        assert st.installments[2].due_date == date(2026, 9, 1)
        assert st.installments[2].status == "paid"


def test_several_parcels_in_one_payment(world, fake_stripe, stripe_gateway):
    started, priced = checkout(world, stripe_gateway, [
        Choice(world.key(0), "installments", through=4),
        Choice(world.key(1), "due_now")])
    [sent] = fake_stripe.session_creates
    assert sent.form["metadata"]["parcel_ids"] == ",".join(str(p) for p in world.parcel_ids)
    assert int(sent.form["line_items"][0]["price_data"]["unit_amount"]) == int(
        priced.total * 100)
    sid = session_of(world, started.checkout_id)
    fake_stripe.complete(sid, "card")
    deliver(world, stripe_gateway, fake_stripe, "checkout.session.completed", sid)
    with world.uow() as uow:
        rows = uow.session.scalars(select(Payment).order_by(Payment.id)).all()
        assert [(p.parcel_id, p.status) for p in rows] == [
            (world.parcel_ids[0], "succeeded"), (world.parcel_ids[1], "succeeded")]
    assert statement(world, 0).installments[3].status == "paid"
    assert statement(world, 1).total_due_now == 0
    assert sum(a for _, a, *_ in lines(world, started.checkout_id)) == priced.total


def test_costs_are_paid_after_fees_and_before_principal(world, fake_stripe, stripe_gateway):
    add_cost(world, 0, "12.50", date(2026, 9, 1))
    started, _ = checkout(world, stripe_gateway, [Choice(world.key(0), "amount",
                                                         amount=D("30.00"))])
    sid = session_of(world, started.checkout_id)
    fake_stripe.complete(sid, "card")
    deliver(world, stripe_gateway, fake_stripe, "checkout.session.completed", sid)
    got = lines(world, started.checkout_id)
    assert [k for k, *_ in got] == ["interest", "interest", "late_fee", "late_fee", "cost",
                                    "principal"]
    assert got[4][1] == D("12.50") and got[5] == ("principal", D("4.73"), 1, "R-A10")


def test_lump_sum_with_discount_before_the_deadline(database, fake_stripe, stripe_gateway):
    with clock.fixed(date(2026, 6, 20)):
        world = seed(database, ("1200.00",))
        started, priced = checkout(world, stripe_gateway, [Choice(world.key(0), "lump_sum")])
        assert priced.total == D("1176.00")
        sid = session_of(world, started.checkout_id)
        fake_stripe.complete(sid, "card")
        deliver(world, stripe_gateway, fake_stripe, "checkout.session.completed", sid)
        got = lines(world, started.checkout_id)
        assert ("discount", D("24.00"), 1, "R-A11") in got  # from installment 1 forward
        assert sum(a for k, a, *_ in got if k == "principal") == D("1176.00")
        with world.uow() as uow:
            disc = uow.session.scalars(select(LedgerEntry).where(
                LedgerEntry.kind == "discount")).all()
        assert [(d.amount, d.rule) for d in disc] == [(D("24.00"), "R-A11")]
        assert statement(world).payoff == 0


def test_a_lump_sum_paid_after_the_deadline_is_an_ordinary_payment(database, fake_stripe,
                                                                   stripe_gateway):
    with clock.fixed(date(2026, 6, 30)):
        world = seed(database, ("1200.00",))
        started, priced = checkout(world, stripe_gateway, [Choice(world.key(0), "lump_sum")])
        sid = session_of(world, started.checkout_id)
        fake_stripe.complete(sid, "card")
    # The payer completes it only on July 2, after the deadline (July 1).
    with clock.fixed(date(2026, 7, 2)):
        deliver(world, stripe_gateway, fake_stripe, "checkout.session.completed", sid)
        got = lines(world, started.checkout_id)
        assert not any(k == "discount" for k, *_ in got)
        st = statement(world)
        assert st.payoff == D("24.00")
        assert st.applications[0].lump_sum == "late"


def test_a_credit_is_refunded_through_stripe(world, fake_stripe, stripe_gateway):
    """Two tabs pay the same parcel: the second payment becomes a credit; staff refunds it."""
    payoff = statement(world, 1).payoff
    a, _ = checkout(world, stripe_gateway, [Choice(world.key(1), "amount", amount=payoff)])
    b, pb = checkout(world, stripe_gateway, [Choice(world.key(1), "installments",
                                                    through=12)])
    assert pb.total == payoff
    for s in (a, b):
        sid = session_of(world, s.checkout_id)
        fake_stripe.complete(sid, "card")
        deliver(world, stripe_gateway, fake_stripe, "checkout.session.completed", sid)
    st = statement(world, 1)
    assert st.credit == payoff
    credit = st.credit
    with world.uow() as uow:
        staff = world.user(uow, "staff")
    with pytest.raises(Exception) as err:
        service.refund_credit(world.database, staff, world.parcel_ids[1], world.fy_id,
                              credit + D("0.01"), gateway=stripe_gateway)
    assert getattr(err.value, "code", "") == "more_than_credit"
    done = service.refund_credit(world.database, staff, world.parcel_ids[1],
                                 world.fy_id, credit, gateway=stripe_gateway,
                                 note="overpaid twice")
    assert done.amount == credit
    [sent] = fake_stripe.posts("/v1/refunds")
    assert sent.form["amount"] == str(int(credit * 100))
    assert sent.idempotency_key.startswith(f"refund-{b.checkout_id}-")
    # The refund is dated today, taken from the credit after today's payments.
    assert statement(world, 1).credit == 0 and statement(world, 1).payoff == 0
    assert chk(world, b.checkout_id).status == "refunded"
    # Stripe then sends charge.refunded: already recorded, nothing changes.
    pi = chk(world, b.checkout_id).provider_payment_id
    assert deliver(world, stripe_gateway, fake_stripe, "", event=fake_stripe.refund_event(pi)
                   )[:2] == (200, "noop")
    assert count(world, LedgerEntry, LedgerEntry.kind == "refund") == 1


class _SecondRefundRefused:
    """The gateway, except that the provider refuses the second refund asked of it."""

    def __init__(self, inner, fake):  # noqa: ANN001
        self.inner, self.fake, self.calls = inner, fake, 0

    def __getattr__(self, name):  # noqa: ANN001, ANN204
        return getattr(self.inner, name)

    def refund(self, *args, **kwargs):  # noqa: ANN002, ANN003, ANN201
        self.calls += 1
        if self.calls == 2:
            self.fake.fail_next(400, "charge_disputed", "This charge is disputed.",
                                "invalid_request_error")
        return self.inner.refund(*args, **kwargs)


def test_a_refund_in_parts_keeps_the_parts_stripe_gave_back(world, fake_stripe, stripe_gateway):
    """A credit made of two payments goes back in two Stripe refunds, the latest payment
    first. When Stripe refuses the second, the first stays recorded (it was given back); the
    rest stays as credit and can be refunded later."""
    payoff = statement(world, 1).payoff
    made = [checkout(world, stripe_gateway, [Choice(world.key(1), "amount", amount=a)])[0]
            for a in (payoff, D("30.00"), D("20.00"))]
    for s in made:
        sid = session_of(world, s.checkout_id)
        fake_stripe.complete(sid, "card")
        deliver(world, stripe_gateway, fake_stripe, "checkout.session.completed", sid)
    assert statement(world, 1).credit == D("50.00")
    with world.uow() as uow:
        staff = world.user(uow, "staff")
    gateway = _SecondRefundRefused(stripe_gateway, fake_stripe)
    done = service.refund_credit(world.database, staff, world.parcel_ids[1],
                                 world.fy_id, D("50.00"), gateway=gateway)
    assert (done.amount, done.asked, done.short) == (D("20.00"), D("50.00"), True)
    assert done.checkouts == [made[2].checkout_id]
    assert [r.form["amount"] for r in fake_stripe.posts("/v1/refunds")] == ["2000", "3000"]
    assert count(world, LedgerEntry, LedgerEntry.kind == "refund") == 1
    assert chk(world, made[2].checkout_id).refunded_amount == D("20.00")
    assert chk(world, made[1].checkout_id).refunded_amount == 0
    assert statement(world, 1).credit == D("30.00")
    # Later, the rest goes back too.
    again = service.refund_credit(world.database, staff, world.parcel_ids[1],
                                  world.fy_id, D("30.00"), gateway=stripe_gateway)
    assert (again.amount, again.short, again.checkouts) == (D("30.00"), False,
                                                            [made[1].checkout_id])
    assert statement(world, 1).credit == 0
    assert count(world, LedgerEntry, LedgerEntry.kind == "refund") == 2


def test_a_refused_first_part_refunds_nothing(world, fake_stripe, stripe_gateway):
    payoff = statement(world, 1).payoff
    made = [checkout(world, stripe_gateway, [Choice(world.key(1), "amount", amount=a)])[0]
            for a in (payoff, D("30.00"))]
    for s in made:
        sid = session_of(world, s.checkout_id)
        fake_stripe.complete(sid, "card")
        deliver(world, stripe_gateway, fake_stripe, "checkout.session.completed", sid)
    with world.uow() as uow:
        staff = world.user(uow, "staff")
    fake_stripe.fail_next(400, "charge_disputed", "This charge is disputed.",
                          "invalid_request_error")
    with pytest.raises(GatewayError):
        service.refund_credit(world.database, staff, world.parcel_ids[1], world.fy_id,
                              D("30.00"), gateway=stripe_gateway)
    assert count(world, LedgerEntry, LedgerEntry.kind == "refund") == 0
    assert statement(world, 1).credit == D("30.00")


def test_refund_made_at_stripe_is_recorded_once(world, fake_stripe, stripe_gateway):
    started, priced = checkout(world, stripe_gateway, [Choice(world.key(1), "due_now")])
    sid = session_of(world, started.checkout_id)
    fake_stripe.complete(sid, "card")
    deliver(world, stripe_gateway, fake_stripe, "checkout.session.completed", sid)
    pi = chk(world, started.checkout_id).provider_payment_id
    StripeGateway("sk_test_portal", api_base=stripe_server.base(fake_stripe),
                  max_network_retries=0).refund(pi, D("10.00"), "dashboard-1")
    first = fake_stripe.refund_event(pi)
    assert deliver(world, stripe_gateway, fake_stripe, "", event=first)[:2] == (200, "refunded")
    assert deliver(world, stripe_gateway, fake_stripe, "", event=first)[:2] == (200,
                                                                               "duplicate")
    again = fake_stripe.refund_event(pi)  # same total, another event id
    assert deliver(world, stripe_gateway, fake_stripe, "", event=again)[:2] == (200, "noop")
    c = chk(world, started.checkout_id)
    assert (c.status, c.refunded_amount) == ("partially_refunded", D("10.00"))
    assert count(world, LedgerEntry, LedgerEntry.kind == "refund") == 1
    # No credit to take the $10 from: it is owed again, as a cost from the next day (never
    # before a payment posted today).
    assert statement(world, 1).total_due_now == 0
    assert statement(world, 1, date(2026, 9, 6)).total_due_now == D("10.00")
    with world.uow() as uow:
        assert ledger.check_allocations(uow, world.parcel_ids[1], world.fy_id) == []


def test_office_payment_through_the_same_ledger(world):
    with world.uow() as uow:
        staff = world.user(uow, "staff")
        c = service.post_office_payment(uow, staff, world.parcel_ids[0], world.fy_id,
                                        D("100.00"), "check", payer_name="María Rivera",
                                        reference="1042")
        cid = c.id
    c = chk(world, cid)
    assert (c.provider, c.status, c.method, c.reference) == ("office", "succeeded", "check",
                                                             "1042")
    assert c.receipt_number == "2026-000001"  # the same scheme and counter as a card's
    assert [k for k, *_ in lines(world, cid)][:2] == ["interest", "interest"]
    with world.uow() as uow, pytest.raises(Exception) as err:
        service.post_office_payment(uow, world.user(uow, "owner"), world.parcel_ids[0],
                                    world.fy_id, D("1"), "cash", payer_name="x")
    assert getattr(err.value, "code", "") == "forbidden"


def test_someone_elses_account_is_not_payable(world, stripe_gateway):
    from portal.core.offer import ChoiceError
    with pytest.raises(ChoiceError) as err:
        checkout(world, stripe_gateway, [Choice(world.key(0), "due_now")], user="other")
    assert err.value.code == "not_yours"


def test_allocations_are_what_the_core_computes(world, fake_stripe, stripe_gateway):
    """DESIGN.md 1: recomputing the statement reproduces every standing receipt line."""
    for choice in ([Choice(world.key(0), "amount", amount=D("50.00"))],
                   [Choice(world.key(0), "due_now")],
                   [Choice(world.key(0), "installments", through=6)]):
        s, _ = checkout(world, stripe_gateway, choice)
        sid = session_of(world, s.checkout_id)
        fake_stripe.complete(sid, "card")
        deliver(world, stripe_gateway, fake_stripe, "checkout.session.completed", sid)
    with world.uow() as uow:
        assert ledger.check_allocations(uow, world.parcel_ids[0], world.fy_id) == []


def test_two_refunds_at_stripe_arriving_out_of_order(world, fake_stripe, stripe_gateway):
    """charge.refunded carries the cumulative total: whatever the order, we record what
    Stripe gave back, no more and no less."""
    started, _ = checkout(world, stripe_gateway, [Choice(world.key(1), "due_now")])
    sid = session_of(world, started.checkout_id)
    fake_stripe.complete(sid, "card")
    deliver(world, stripe_gateway, fake_stripe, "checkout.session.completed", sid)
    pi = chk(world, started.checkout_id).provider_payment_id
    dashboard = StripeGateway("sk_test_portal", api_base=stripe_server.base(fake_stripe),
                              max_network_retries=0)
    dashboard.refund(pi, D("10.00"), "d-1")
    first = fake_stripe.refund_event(pi)  # says 10.00 so far
    dashboard.refund(pi, D("5.50"), "d-2")
    second = fake_stripe.refund_event(pi)  # says 15.50 so far
    assert deliver(world, stripe_gateway, fake_stripe, "", event=second)[1] == "refunded"
    assert deliver(world, stripe_gateway, fake_stripe, "", event=first)[1] == "noop"
    assert chk(world, started.checkout_id).refunded_amount == D("15.50")
    assert count(world, LedgerEntry, LedgerEntry.kind == "refund") == 1


def test_replaying_every_webhook_twice_changes_nothing(world, fake_stripe, stripe_gateway):
    """A day of payments through Stripe; then every delivery is replayed twice."""
    from portal.payments.webhooks import handle_webhook

    sent: list[tuple[bytes, str]] = []

    def send(kind, sid=None, event=None):
        event = event or fake_stripe.event(kind, sid)
        payload, header = stripe_server.signed(event, "whsec_test_portal")
        sent.append((payload.encode(), header))
        return handle_webhook(world.database, stripe_gateway, payload.encode(), header)

    card, _ = checkout(world, stripe_gateway, [Choice(world.key(0), "due_now")])
    bank_ok, _ = checkout(world, stripe_gateway, [Choice(world.key(1), "installments",
                                                         through=3)])
    bank_ko, _ = checkout(world, stripe_gateway, [Choice(world.key(1), "amount",
                                                         amount=D("40.00"))])
    gone, _ = checkout(world, stripe_gateway, [Choice(world.key(0), "amount",
                                                      amount=D("5.00"))])
    s = {k: session_of(world, v.checkout_id) for k, v in
         {"card": card, "ok": bank_ok, "ko": bank_ko, "gone": gone}.items()}
    fake_stripe.complete(s["card"], "card")
    fake_stripe.complete(s["ok"], "us_bank_account")
    fake_stripe.complete(s["ko"], "us_bank_account")
    fake_stripe.expire(s["gone"])
    for key in ("card", "ok", "ko"):
        send("checkout.session.completed", s[key])
    send("checkout.session.expired", s["gone"])
    fake_stripe.settle(s["ok"])
    send("checkout.session.async_payment_succeeded", s["ok"])
    fake_stripe.settle(s["ko"], ok=False)
    send("checkout.session.async_payment_failed", s["ko"])
    pi = chk(world, card.checkout_id).provider_payment_id
    StripeGateway("sk_test_portal", api_base=stripe_server.base(fake_stripe),
                  max_network_retries=0).refund(pi, D("2.77"), "d-1")
    send("", event=fake_stripe.refund_event(pi))

    def snap():
        with world.uow() as uow:
            return (sorted(uow.session.execute(select(LedgerEntry.id, LedgerEntry.kind,
                                                      LedgerEntry.amount)).all()),
                    uow.session.scalar(select(func.count()).select_from(PaymentAllocation)),
                    sorted(uow.session.execute(select(Checkout.id, Checkout.status,
                                                      Checkout.refunded_amount)).all()))

    before = snap()
    assert [s for _, s, _ in before[2]] == ["partially_refunded", "succeeded", "failed",
                                            "expired"]
    for payload, header in sent * 2:
        assert handle_webhook(world.database, stripe_gateway, payload, header) == (
            200, "duplicate")
    assert snap() == before
    with world.uow() as uow:
        for pid in world.parcel_ids:
            assert ledger.check_allocations(uow, pid, world.fy_id) == []
