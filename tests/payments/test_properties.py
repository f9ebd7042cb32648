"""Property tests (hypothesis): any sequence of payments, replays, refunds and failures leaves
the ledger equal to the sum of its effects — no cent created or lost — and replaying every
event once more changes nothing.

Each example builds a fresh migrated database with two parcels, then runs a random program of
operations against the sandbox gateway (the provider's side, which holds the money) and the
same event handling as the webhook."""

from __future__ import annotations

import json
import secrets
from datetime import date, timedelta
from decimal import Decimal as D

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from portal import clock
from portal.core import offer as options
from portal.core import payment_states as states
from portal.core.money import ZERO, to_minor_units
from portal.models import LedgerEntry, Payment, PaymentAllocation
from portal.models.checkouts import Checkout, CheckoutPayment, PaymentRefund
from portal.payments import ledger, service
from portal.payments.gateway import MemorySandboxStore, SandboxGateway
from portal.payments.webhooks import process_event, sandbox_event
from tests.support.payments import checkout
from tests.support.schema import sqlite_database
from tests.support.world import seed

START = date(2026, 9, 5)

SESSION = st.integers(0, 3)  # few sessions, so operations meet on the same ones
op = st.one_of(
    st.tuples(st.just("start"), st.integers(0, 1), st.sampled_from(
        ["due_now", "amount", "installments", "payoff"]), st.integers(1, 12),
        st.integers(100, 40000)),
    st.tuples(st.just("complete"), SESSION, st.sampled_from(
        ["card_succeeds", "card_succeeds", "card_declined", "bank_processing"])),
    st.tuples(st.just("settle"), SESSION, st.booleans()),
    st.tuples(st.just("expire"), SESSION),
    st.tuples(st.just("replay"), st.integers(0, 50)),
    st.tuples(st.just("redeliver"), st.integers(0, 50)),
    st.tuples(st.just("provider_refund"), SESSION, st.integers(1, 30000)),
    st.tuples(st.just("provider_refund"), SESSION, st.integers(1, 3000)),
    st.tuples(st.just("refund_credit"), st.integers(0, 1)),
    st.tuples(st.just("office"), st.integers(0, 1), st.integers(100, 30000)),
    st.tuples(st.just("days"), st.integers(1, 20)),
)


class Run:
    def __init__(self, world):
        self.world = world
        self.gw = SandboxGateway(MemorySandboxStore())
        self.events: list[dict] = []
        self.sessions: list[str] = []

    def deliver(self, event):
        status, _ = process_event(self.world.database, self.gw, event)
        assert status == 200
        self.events.append(event)

    def session(self, n):
        return self.sessions[n % len(self.sessions)] if self.sessions else None

    def step(self, action):
        kind = action[0]
        w = self.world
        if kind == "start":
            _, acct, choice, through, cents = action
            key = w.key(acct)
            if choice == "payoff":
                with w.uow() as uow:
                    accts = {a.key: a for a in service.payable_accounts(uow, w.user(uow))}
                if key not in accts or accts[key].offer.payoff <= 0:
                    return
                c = options.Choice(key, "amount", amount=accts[key].offer.payoff)
            elif choice == "amount":
                c = options.Choice(key, "amount", amount=D(cents) / 100)
            elif choice == "installments":
                c = options.Choice(key, "installments", through=through)
            else:
                c = options.Choice(key, "due_now")
            try:
                started, _ = checkout(w, self.gw, [c])
            except options.ChoiceError:
                return
            with w.uow() as uow:
                sid = uow.session.get(Checkout, started.checkout_id).provider_session_id
            if sid not in self.sessions:
                self.sessions.append(sid)
        elif kind == "complete":
            sid = self.session(action[1])
            if sid:
                _, ev = self.gw.complete(sid, action[2])
                if ev:
                    self.deliver(sandbox_event(ev, sid))
        elif kind == "settle":
            sid = self.session(action[1])
            if sid:
                _, ev = self.gw.settle(sid, action[2])
                if ev:
                    self.deliver(sandbox_event(ev, sid))
        elif kind == "expire":
            sid = self.session(action[1])
            if sid:
                _, ev = self.gw.expire(sid)
                if ev:
                    self.deliver(sandbox_event(ev, sid))
        elif kind == "replay" and self.events:
            status, text = process_event(w.database, self.gw,
                                         self.events[action[1] % len(self.events)])
            assert (status, text) == (200, "duplicate")
        elif kind == "redeliver" and self.events:
            # The same news again under a new event id (a provider retry, or out of order);
            # mostly one of the latest events.
            recent = self.events[-3:] if action[1] % 2 else self.events
            again = json.loads(json.dumps(recent[action[1] % len(recent)]))
            again["id"] = "evt_again_" + secrets.token_hex(8)
            status, text = process_event(w.database, self.gw, again)
            assert status == 200 and text in ("noop", "open"), text
        elif kind == "provider_refund":
            sid = self.session(action[1])
            record = self.gw.store.get(sid) if sid else None
            if record is None or record.payment_status != "paid":
                return
            amount = min(D(action[2]) / 100, record.amount - record.refunded)
            if amount <= 0:
                return
            self.gw.refund(record.payment_intent, amount, "k" + secrets.token_hex(4))
            record = self.gw.store.get(sid)
            self.deliver({"id": "evt_refund_" + secrets.token_hex(8), "type": "charge.refunded",
                          "data": {"object": {"id": "ch_x", "payment_intent":
                                              record.payment_intent,
                                              "amount_refunded": to_minor_units(
                                                  record.refunded)}}})
        elif kind == "refund_credit":
            with w.uow() as uow:
                staff = w.user(uow, "staff")
                acct = service.staff_account(uow, staff, w.parcel_ids[action[1]],
                                             w.fy_id)
                credit = acct.offer.statement.credit
            if credit > 0:
                try:
                    service.refund_credit(w.database, staff, w.parcel_ids[action[1]],
                                          w.fy_id, credit, gateway=self.gw)
                except Exception as exc:  # noqa: BLE001 - only a refusal is acceptable
                    assert getattr(exc, "code", "") == "nothing_to_refund", exc
        elif kind == "office":
            with w.uow() as uow:
                staff = w.user(uow, "staff")
                try:
                    service.post_office_payment(uow, staff, w.parcel_ids[action[1]],
                                                w.fy_id, D(action[2]) / 100, "cash",
                                                payer_name="Caja")
                except options.ChoiceError:
                    pass
        elif kind == "days":
            clock.set_fixed(clock.today() + timedelta(days=action[1]))


def snapshot(world):
    with world.uow() as uow:
        entries = uow.session.execute(select(LedgerEntry.id, LedgerEntry.kind,
                                             LedgerEntry.amount)).all()
        lines = uow.session.execute(select(PaymentAllocation.id, PaymentAllocation.amount)).all()
        chks = uow.session.execute(select(Checkout.id, Checkout.status,
                                          Checkout.refunded_amount)).all()
    return sorted(entries), sorted(lines), sorted(chks)


def check_invariants(run: Run):
    w = run.world
    with w.uow() as uow:
        s = uow.session
        payments = {p.id: p for p in s.scalars(select(Payment))}
        entries = s.scalars(select(LedgerEntry)).all()
        by_payment: dict[int, list[LedgerEntry]] = {}
        for e in entries:
            if e.payment_id is not None:
                by_payment.setdefault(e.payment_id, []).append(e)
        lines = s.scalars(select(PaymentAllocation)).all()
        refunds = s.scalars(select(PaymentRefund)).all()
        for pid, p in payments.items():
            mine = by_payment.get(pid, [])
            posted = [e for e in mine if e.kind == "payment"]
            reversed_ = [e for e in mine if e.kind == "reversal"]
            refunded = sum((e.amount for e in mine if e.kind == "refund"), ZERO)
            # Posted exactly once, and only when the payer completed it.
            assert len(posted) <= 1
            assert bool(posted) == (p.completed_at is not None)
            if posted:
                assert posted[0].amount == p.amount
                applied = sum((ln.amount for ln in lines
                               if ln.payment_id == pid and ln.kind != "discount"), ZERO)
                assert applied == p.amount, (pid, applied, p.amount)  # every cent applied
            # A reversal exactly when a completed bank debit failed.
            assert len(reversed_) == (1 if posted and p.status == states.FAILED else 0)
            assert p.status != states.FAILED or not posted or reversed_
            # Refunds: ledger, payment row and refund records agree.
            assert refunded == p.refunded_amount == sum(
                (r.amount for r in refunds if r.payment_id == pid), ZERO)
            assert p.status in states.APPLIED or p.status == states.REFUNDED or not posted \
                or p.status == states.FAILED
        for chk in s.scalars(select(Checkout)):
            parts = s.scalars(select(Payment).join(CheckoutPayment,
                                                   CheckoutPayment.payment_id == Payment.id)
                              .where(CheckoutPayment.checkout_id == chk.id)).all()
            assert chk.amount == sum((p.amount for p in parts), ZERO)
            assert chk.refunded_amount == sum((p.refunded_amount for p in parts), ZERO)
            if chk.provider == "sandbox" and chk.provider_session_id:
                record = run.gw.store.get(chk.provider_session_id)
                # The provider holds exactly what we think it holds: no cent created or lost.
                held = record.amount - record.refunded if record.payment_status == "paid" \
                    else ZERO
                ours = chk.amount - chk.refunded_amount if chk.status in (
                    states.SUCCEEDED, states.PARTIALLY_REFUNDED, states.REFUNDED) else ZERO
                assert held == ours, (chk.id, chk.status, held, ours)
        for pid in w.parcel_ids:
            assert ledger.check_allocations(uow, pid, w.fy_id) == []
        # The ledger equals the sum of its effects: what was posted, less what failed and
        # what was given back, is what the core sees as paid on each account.
        for pid in w.parcel_ids:
            acct = ledger.load(uow, pid, w.fy_id)
            paid = sum((e.amount for e in acct.credits if e.kind == "payment"), ZERO)
            payment_entries = {e.id for e in acct.credits if e.kind == "payment"}
            undone = sum((e.amount for e in acct.refund_entries), ZERO) + sum(
                (e.amount for e in acct.reversals if e.reverses_id in payment_entries), ZERO)
            expected = sum((p.amount - p.refunded_amount for p in payments.values()
                            if p.parcel_id == pid and p.completed_at is not None
                            and p.status != states.FAILED), ZERO)
            assert paid - undone == expected


@pytest.fixture
def template(schema_template):
    return schema_template


@settings(max_examples=60, deadline=None, suppress_health_check=[
    HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(program=st.lists(op, min_size=3, max_size=18))
def test_any_sequence_keeps_every_cent(template, tmp_path_factory, program):
    tmp = tmp_path_factory.mktemp("prop")
    database = sqlite_database(template, tmp)
    try:
        with clock.fixed(START):
            run = Run(seed(database, ("1200.00", "600.00")))
            for action in program:
                run.step(action)
            check_invariants(run)
            before = snapshot(run.world)
            for event in list(run.events):  # every webhook, replayed once more
                assert process_event(database, run.gw, event) == (200, "duplicate")
            assert snapshot(run.world) == before
    finally:
        database.dispose()


def test_a_known_hard_sequence(template, tmp_path):
    """Bank debit posted, a card payment after it, the debit fails, a refund, replays."""
    database = sqlite_database(template, tmp_path)
    with clock.fixed(START):
        run = Run(seed(database, ("1200.00", "600.00")))
        for action in [("start", 0, "due_now", 1, 0), ("complete", 0, "bank_processing"),
                       ("days", 2), ("start", 0, "installments", 6, 0),
                       ("complete", 1, "card_succeeds"), ("settle", 0, False),
                       ("provider_refund", 1, 5000), ("replay", 0), ("replay", 3),
                       ("redeliver", 1), ("office", 0, 2500), ("refund_credit", 0)]:
            run.step(action)
        check_invariants(run)
        with run.world.uow() as uow:
            statuses = [c.status for c in uow.session.scalars(select(Checkout)
                                                              .order_by(Checkout.id))]
        assert statuses[:2] == ["failed", "partially_refunded"]
    database.dispose()
