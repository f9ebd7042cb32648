"""Receipt numbers: one scheme ("YYYY-NNNNNN", the year of the success's Puerto Rico legal
date), one counter per year, a number taken only when a payment succeeds (a declined or
expired checkout takes none), inside the transaction that records it (a rollback gives it
back). Checkouts and payments without one (the office, the demo) share the counter."""

from __future__ import annotations

import threading
import time
from datetime import UTC, date, datetime
from decimal import Decimal as D

import pytest
from sqlalchemy import select

from portal import clock
from portal.accounts import ledger as data_ledger
from portal.core.offer import Choice
from portal.db import Database
from portal.models import Payment, ReceiptSequence
from portal.models.checkouts import Checkout
from portal.payments import receipts, service
from tests.support import schema
from tests.support.clock import SEPT_5
from tests.support.payments import checkout, deliver, session_of, together

#: When the fake provider says the payer completed (never the real date).
SEPT_5_NOON = int(datetime(2026, 9, 5, 16, 0, tzinfo=UTC).timestamp())


def number_of(world, cid):
    with world.uow() as uow:
        return uow.session.get(Checkout, cid).receipt_number


def pay(world, fake_stripe, stripe_gateway, n, *, declined=False):
    started, _ = checkout(world, stripe_gateway, [Choice(world.key(n), "due_now")])
    sid = session_of(world, started.checkout_id)
    if declined:
        fake_stripe.complete(sid, "card", paid=False, at=SEPT_5_NOON)
        fake_stripe.settle(sid, ok=False)
        kind, want = "checkout.session.async_payment_failed", "failed"
    else:
        fake_stripe.complete(sid, "card", at=SEPT_5_NOON)
        kind, want = "checkout.session.completed", "posted"
    assert deliver(world, stripe_gateway, fake_stripe, kind, sid)[:2] == (200, want)
    return started.checkout_id


def test_a_declined_then_a_successful_checkout_get_consecutive_numbers(
        world, fake_stripe, stripe_gateway):
    first = pay(world, fake_stripe, stripe_gateway, 0)
    declined = pay(world, fake_stripe, stripe_gateway, 1, declined=True)
    expired, _ = checkout(world, stripe_gateway, [Choice(world.key(1), "due_now")])
    sid = session_of(world, expired.checkout_id)
    fake_stripe.expire(sid)
    assert deliver(world, stripe_gateway, fake_stripe, "checkout.session.expired",
                   sid)[:2] == (200, "expired")
    after = pay(world, fake_stripe, stripe_gateway, 1)
    assert (number_of(world, first), number_of(world, declined),
            number_of(world, expired.checkout_id), number_of(world, after)) == (
        "2026-000001", None, None, "2026-000002")
    assert after == first + 3  # the checkout ids have the gaps; the receipts do not
    with world.uow() as uow:
        assert uow.session.get(ReceiptSequence, 2026).last == 2


def test_an_office_payment_is_in_the_same_scheme_and_sequence(
        world, fake_stripe, stripe_gateway):
    card = pay(world, fake_stripe, stripe_gateway, 0)
    with clock.fixed(SEPT_5), world.uow() as uow:
        staff = world.user(uow, "staff")
        loose = data_ledger.record_office_payment(uow, staff, world.parcel_ids[1],
                                                  world.fy_id, D("50.00"), "cash")
        loose_id = loose.id
    with clock.fixed(SEPT_5), world.uow() as uow:
        office = service.post_office_payment(
            uow, world.user(uow, "staff"), world.parcel_ids[1], world.fy_id,
            D("20.00"), "check", payer_name="Ana", reference="1234")
        office_id = office.id
    with world.uow() as uow:
        receipt = receipts.build_for_payment(uow, uow.session.get(Payment, loose_id))
        history = receipts.history(uow, world.user(uow, "staff"), world.parcel_ids[1])[1]
        shown = sorted(row.shown.receipt_number for row in history)
    assert number_of(world, card) == "2026-000001"
    assert receipt.number == "2026-000002"
    assert number_of(world, office_id) == "2026-000003"
    assert shown == ["2026-000002", "2026-000003"]


def test_the_year_is_the_legal_dates_and_a_rollback_gives_the_number_back(database):
    # 03:30 UTC on January 1 is still December 31 in Puerto Rico (UTC-4).
    with database.unit_of_work() as uow:
        assert data_ledger.next_receipt_number(
            uow, clock.legal_date(datetime(2027, 1, 1, 3, 30, tzinfo=UTC))) == "2026-000001"
        assert data_ledger.next_receipt_number(
            uow, clock.legal_date(datetime(2027, 1, 1, 4, 30, tzinfo=UTC))) == "2027-000001"
        assert data_ledger.next_receipt_numbers(uow, date(2026, 3, 1), 3) == [
            "2026-000002", "2026-000003", "2026-000004"]
    with pytest.raises(RuntimeError), database.unit_of_work() as uow:
        assert data_ledger.next_receipt_number(uow, date(2026, 5, 1)) == "2026-000005"
        raise RuntimeError("the success is not recorded")
    with database.unit_of_work() as uow:
        assert data_ledger.next_receipt_number(uow, date(2026, 5, 1)) == "2026-000005"


def test_a_payment_keeps_its_number(world):
    from portal.models import ImmutableRowError
    with clock.fixed(SEPT_5), world.uow() as uow:
        p = data_ledger.record_office_payment(uow, world.user(uow, "staff"),
                                              world.parcel_ids[0], world.fy_id,
                                              D("10.00"), "cash")
        assert data_ledger.number_payment(uow, p) == p.receipt_number == "2026-000001"
    with pytest.raises(ImmutableRowError), world.uow() as uow:
        uow.session.get(Payment, p.id).receipt_number = "2026-000099"
        uow.session.flush()


# --- PostgreSQL: two successes at once ------------------------------------------------------


@pytest.mark.postgres
def test_two_successes_at_once_on_postgresql_get_distinct_consecutive_numbers(
        pg_world, fake_stripe, stripe_gateway):
    world = pg_world
    with clock.fixed(SEPT_5):
        sids = []
        for n in (0, 1):
            started, _ = checkout(world, stripe_gateway, [Choice(world.key(n), "due_now")])
            sids.append((started.checkout_id, session_of(world, started.checkout_id)))
            fake_stripe.complete(sids[-1][1], "card", at=SEPT_5_NOON)

        def run(i):
            with clock.fixed(SEPT_5):
                return deliver(world, stripe_gateway, fake_stripe,
                               "checkout.session.completed", sids[i][1])[:2]

        results = together(2, run)
    assert results == [(200, "posted"), (200, "posted")]
    assert sorted(number_of(world, cid) for cid, _ in sids) == ["2026-000001", "2026-000002"]


def _a_backend_waits_on_a_lock(database) -> bool:
    """Whether another connection to this database is waiting on a lock, asked of PostgreSQL
    until it is (no timed wait on a thread: under faketime, as CI runs the suite a year
    ahead, a timed wait never ends)."""
    from sqlalchemy import text
    with database.engine.connect() as conn:
        for _ in range(400):
            waiting = conn.execute(text(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()")).scalar()
            if waiting:
                return True
            conn.rollback()
            time.sleep(0.025)
    return False


@pytest.mark.postgres
def test_a_second_unit_of_work_waits_for_the_first_on_postgresql(pg_world):
    """The first holds its number until it ends: the second waits on the row, then takes
    the next one (first committed) or the same one (first rolled back): never a gap."""
    database = pg_world.database
    for first_commits, want in ((True, ["2026-000001", "2026-000002"]),
                                (False, ["2026-000003", "2026-000003"])):
        took = threading.Event()
        release = threading.Event()
        got: dict[str, str] = {}

        def first(commits=first_commits, took=took, release=release, got=got):
            try:
                with database.unit_of_work() as uow:
                    got["first"] = data_ledger.next_receipt_number(uow, SEPT_5)
                    took.set()
                    release.wait(10)
                    if not commits:
                        raise RuntimeError("rolled back")
            except RuntimeError:
                pass

        def second(got=got):
            with database.unit_of_work() as uow:
                got["second"] = data_ledger.next_receipt_number(uow, SEPT_5)

        a = threading.Thread(target=first)
        a.start()
        assert took.wait(10)
        b = threading.Thread(target=second)
        b.start()
        assert _a_backend_waits_on_a_lock(database), \
            "the second success waits for the first's transaction"
        assert b.is_alive()
        release.set()
        a.join(10)
        b.join(10)
        assert [got["first"], got["second"]] == want
    with database.unit_of_work() as uow:
        assert uow.session.scalar(select(ReceiptSequence.last).where(
            ReceiptSequence.year == 2026)) == 3


# --- the migration on a database with data --------------------------------------------------

def _p0007_with_data(url):
    """A database at p0007 (before the counter) with checkouts numbered by their id and
    payments without a checkout, as the portal recorded them then."""
    from sqlalchemy import text

    from portal import db
    from portal.models import Parcel
    db.upgrade(url, "p0007")
    database = Database(url)
    with database.unit_of_work() as uow:
        s = uow.session
        # A table this revision does not change, through its model; the fiscal year in SQL:
        # its model's insert also raises the District's facts version, a table of a later
        # revision (portal/models/fact_versions.py).
        parcel = Parcel(catastro="060-000-001-01", address="Calle Sol 1",
                        municipality="San Juan", benefit_units=D("1"))
        s.add(parcel)
        s.flush()
        s.execute(text("INSERT INTO fiscal_years (label, starts_on, ends_on, created_at)"
                       " VALUES ('2026-2027', :start, :end, :at)"),
                  {"start": date(2026, 7, 1), "end": date(2027, 6, 30),
                   "at": datetime(2026, 6, 1, tzinfo=UTC)})
        pid = parcel.id
        fid = s.scalar(text("SELECT id FROM fiscal_years WHERE label = '2026-2027'"))

        def payment(key, status, completed_at):
            s.execute(text(
                "INSERT INTO payments (parcel_id, fiscal_year_id, status, method, amount,"
                " lump_sum, purpose, idempotency_key, provider, refunded_amount, created_at,"
                " completed_at) VALUES (:p, :f, :st, 'card', 10, false, 'due_now', :k,"
                " 'sandbox', 0, :at, :done)"),
                {"p": pid, "f": fid, "st": status, "k": key, "at": completed_at
                 or datetime(2026, 9, 1, tzinfo=UTC), "done": completed_at})
            return s.scalar(text("SELECT id FROM payments WHERE idempotency_key = :k"),
                            {"k": key})

        for key, number in (("a", "2026-000007"), ("b", "2026-000003"), ("c", "2025-000010"),
                            ("d", None)):
            s.execute(text(
                "INSERT INTO checkouts (payer_name, language, provider, status, amount,"
                " refunded_amount, currency, idempotency_key, receipt_number, created_at)"
                " VALUES ('', 'es', 'sandbox', :st, 10, 0, 'usd', :k, :n, :at)"),
                {"st": "succeeded" if number else "failed", "k": key, "n": number,
                 "at": datetime(2026, 9, 1, tzinfo=UTC)})
            cid = s.scalar(text("SELECT id FROM checkouts WHERE idempotency_key = :k"),
                           {"k": key})
            in_checkout = payment(f"chk-{key}", "succeeded" if number else "failed",
                                  datetime(2026, 9, 1, 12, tzinfo=UTC) if number else None)
            s.execute(text("INSERT INTO checkout_payments (checkout_id, payment_id, position)"
                           " VALUES (:c, :p, 1)"), {"c": cid, "p": in_checkout})
        loose = {
            "august": payment("l-aug", "succeeded", datetime(2026, 8, 1, 12, tzinfo=UTC)),
            "july": payment("l-jul", "refunded", datetime(2026, 7, 1, 12, tzinfo=UTC)),
            # 03:30 UTC on January 1, 2026 is December 31, 2025 in Puerto Rico.
            "new_years_eve": payment("l-nye", "succeeded", datetime(2026, 1, 1, 3, 30,
                                                                     tzinfo=UTC)),
            "failed": payment("l-failed", "failed", None),
        }
    return database, loose


@pytest.mark.parametrize("engine", ["sqlite", pytest.param("postgresql",
                                                           marks=pytest.mark.postgres)])
def test_the_migration_keeps_numbers_and_numbers_the_rest(engine, tmp_path):
    from contextlib import nullcontext

    from sqlalchemy import inspect, text

    from portal import db
    where = (schema.throwaway_database() if engine == "postgresql"
             else nullcontext(f"sqlite:///{tmp_path / 'm.db'}"))
    with where as url:
        database, loose = _p0007_with_data(url)
        try:
            db.upgrade(url, "p0008")
            with database.unit_of_work() as uow:
                s = uow.session
                numbers = dict(s.execute(text("SELECT id, receipt_number FROM payments")).all())
                counters = dict(s.execute(text("SELECT year, last FROM receipt_sequences")).all())
                kept = sorted(s.scalars(text(
                    "SELECT receipt_number FROM checkouts WHERE receipt_number IS NOT NULL")))
            assert kept == ["2025-000010", "2026-000003", "2026-000007"]
            assert {k: numbers[v] for k, v in loose.items()} == {
                "july": "2026-000008", "august": "2026-000009",
                "new_years_eve": "2025-000011", "failed": None}
            assert sum(1 for n in numbers.values() if n) == 3  # in a checkout: none
            assert counters == {2025: 11, 2026: 9}
            with database.unit_of_work() as uow:  # the next success follows, none reused
                assert data_ledger.next_receipt_number(uow, SEPT_5) == "2026-000010"

            db.downgrade(url, "p0007")
            with database.unit_of_work() as uow:
                conn = uow.session.connection()
                assert "receipt_sequences" not in inspect(conn).get_table_names()
                assert "receipt_number" not in {c["name"] for c in
                                                inspect(conn).get_columns("payments")}
                assert uow.session.scalar(text("SELECT count(*) FROM payments")) == 8
                assert uow.session.scalar(text(
                    "SELECT count(*) FROM checkouts WHERE receipt_number IS NOT NULL")) == 3
            db.upgrade(url, "head")  # and up again
        finally:
            database.dispose()
