"""Autopay's services on the payments' world (tests.support.world.seed: the owner's two
parcels, installments due the 1st, last timely day the 10th): a method saved through the
sandbox's SetupIntent, an enrolment, the day's task (`debits.run_day`) debiting exactly the
offer's figure once through the one payment path, a failure told and retried once, the
enrolment ended by cancelling, by losing the parcel, by a lender's escrow; `covers`."""

from __future__ import annotations

import email
from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from portal import clock
from portal.accounts.errors import Forbidden, InvalidInput
from portal.core import payment_states as states
from portal.models import LedgerEntry, OutboxMessage, Parcel, ParcelLink, Payment
from portal.models.autopay import AutopayDebit, AutopayEnrolment, SavedMethod
from portal.models.checkouts import Checkout
from portal.payments import autopay
from portal.payments.autopay import debits, enrolments, methods
from portal.payments.gateway import MemorySandboxStore, MemorySetupStore, SandboxGateway
from tests.support.clock import fixed_on

CONFIG = {"MAIL_FROM": "portal@example.com", "PORTAL_BASE_URL": "https://portal.test"}
OCT_1 = date(2026, 10, 1)


@pytest.fixture
def gw() -> SandboxGateway:
    return SandboxGateway(MemorySandboxStore(), setup_store=MemorySetupStore())


def save_method(world, gw, outcome: str = "card", who: str = "owner") -> int:  # noqa: ANN001
    with world.uow() as uow:
        user = world.user(uow, who)
    url = methods.start_setup(world.database, user, gateway=gw, language="es",
                              success_url=lambda n: f"/ok/{n}", cancel_url=lambda n: "/no")
    setup_session = url.rsplit("/", 1)[1]
    gw.complete_setup(setup_session, outcome)
    with world.uow() as uow:
        user = world.user(uow, who)
        setup_id = uow.session.scalar(select(func.max(
            __import__("portal.models.autopay", fromlist=["x"]).PaymentMethodSetup.id)))
        method = methods.finish_setup(uow, user, setup_id, gateway=gw)
        assert method is not None
        again = methods.finish_setup(uow, user, setup_id, gateway=gw)
        assert again.id == method.id  # a second return saves nothing more
        return method.id


def enrol(world, method_id: int, plan: str = "installments", lump_sum_on=None,  # noqa: ANN001
          parcel: str = "0") -> int:
    with world.uow() as uow:
        e = enrolments.enrol(uow, world.user(uow), world.parcel[parcel], method_id=str(method_id),
                             plan=plan, lump_sum_on=lump_sum_on, language="es")
        return e.id


def mails(world, template: str) -> list[email.message.Message]:  # noqa: ANN001
    with world.uow() as uow:
        rows = uow.session.scalars(select(OutboxMessage).where(
            OutboxMessage.template == template).order_by(OutboxMessage.id)).all()
        return [email.message_from_bytes(r.raw) for r in rows]


def body(msg: email.message.Message) -> str:
    return msg.get_payload(decode=True).decode()


def offer_on(world, day: date, parcel: str = "0"):  # noqa: ANN001, ANN201
    with fixed_on(day), world.uow() as uow:
        return enrolments.account_offer(uow, uow.session.get(Parcel, world.parcel[parcel]),
                                        day)[1]


def run(world, gw, day: date) -> dict[str, int]:  # noqa: ANN001
    with fixed_on(day):
        return debits.run_day(world.database, day, gateway=gw, config=CONFIG)


def test_installment_debited_on_its_due_date_once(world, gw) -> None:  # noqa: ANN001
    method = save_method(world, gw)
    enrol(world, method)
    # Notice the day before (a card), with the offer's amount on the debit day.
    through_4 = next(o for o in offer_on(world, OCT_1).installments if o.number == 4)
    amount = through_4.amount_through  # the arrears of 1-3 first (R-A10), then 4
    run(world, gw, date(2026, 9, 30))
    notices = mails(world, "autopay_notice")
    assert len(notices) == 1 and f"${amount:,}" in body(notices[0]), body(notices[0])
    run(world, gw, date(2026, 9, 30))
    assert len(mails(world, "autopay_notice")) == 1  # once, whoever runs it
    counts = run(world, gw, OCT_1)
    assert counts.get("posted") == 1
    run(world, gw, OCT_1)  # again: nothing more
    with world.uow() as uow:
        rows = uow.session.scalars(select(AutopayDebit)).all()
        assert [(r.target, r.amount, r.status) for r in rows] == [
            ("through-4", amount, "succeeded")]
        chk = uow.session.get(Checkout, rows[0].checkout_id)
        assert chk.status == states.SUCCEEDED and chk.receipt_number and chk.method == "card"
        assert uow.session.scalar(select(func.count()).select_from(LedgerEntry).where(
            LedgerEntry.kind == "payment")) == 1
    assert len(mails(world, "autopay_debited")) == 1
    assert run(world, gw, date(2026, 10, 2)).get("posted") is None


def test_september_enrolment_pays_the_arrears_with_the_installment(world, gw) -> None:  # noqa: ANN001
    """Enrolled on 5 September with installments 1-3 unpaid: on 1 October the debit is the
    offer's "through 4", which pays the arrears first (R-A10); never more than due now."""
    method = save_method(world, gw)
    enrol(world, method)
    offer = offer_on(world, OCT_1)
    run(world, gw, OCT_1)
    with world.uow() as uow:
        row = uow.session.scalars(select(AutopayDebit)).one()
    # The world's owner paid nothing: through 4 is all that is due now.
    assert row.amount == offer.due_now


def test_declined_card_told_and_retried_once(world, gw) -> None:  # noqa: ANN001
    method = save_method(world, gw, "card_declines")
    enrol(world, method)
    assert run(world, gw, OCT_1).get("failed") == 1
    failed = mails(world, "autopay_failed")
    assert len(failed) == 1 and "https://portal.test/pagar?parcela=" in body(failed[0])
    run(world, gw, OCT_1)
    assert len(mails(world, "autopay_failed")) == 1
    assert run(world, gw, date(2026, 10, 2)).get("failed") == 1  # the one retry
    assert run(world, gw, date(2026, 10, 3)).get("failed") is None  # no third
    with world.uow() as uow:
        rows = uow.session.scalars(select(AutopayDebit).order_by(AutopayDebit.id)).all()
        assert [(r.attempt, r.status) for r in rows] == [(1, "failed"), (2, "failed")]
        assert uow.session.scalar(select(func.count()).select_from(LedgerEntry).where(
            LedgerEntry.kind == "payment")) == 0
        assert all(c.status == states.FAILED for c in uow.session.scalars(select(Checkout)))
    assert len(mails(world, "autopay_failed")) == 2


def test_bank_debit_processing_then_returned(world, gw) -> None:  # noqa: ANN001
    method = save_method(world, gw, "bank")
    enrol(world, method)
    run(world, gw, date(2026, 9, 28))  # three days ahead for a bank debit
    assert len(mails(world, "autopay_notice")) == 1
    assert run(world, gw, OCT_1).get("posted") == 1
    with world.uow() as uow:
        chk = uow.session.scalars(select(Checkout)).one()
        assert chk.status == states.PROCESSING and chk.method == "bank"
        session_id = chk.provider_session_id
    # The bank returns it two days later: failed, told that day, retried once.
    from portal.payments.webhooks import process_event, sandbox_event
    _, kind = gw.settle(session_id, False)
    with fixed_on(date(2026, 10, 3)):
        assert process_event(world.database, gw, sandbox_event(kind, session_id))[0] == 200
    run(world, gw, date(2026, 10, 3))
    assert len(mails(world, "autopay_failed")) == 1
    with world.uow() as uow:
        rows = uow.session.scalars(select(AutopayDebit).order_by(AutopayDebit.id)).all()
        assert [(r.attempt, r.status) for r in rows] == [(1, "failed"), (2, "processing")]


def test_cancel_stops_the_debits(world, gw) -> None:  # noqa: ANN001
    method = save_method(world, gw)
    enrol(world, method)
    with fixed_on(date(2026, 9, 20)), world.uow() as uow:
        enrolments.cancel(uow, world.user(uow), world.parcel["0"])
    assert run(world, gw, OCT_1) == {"enrolments": 0}
    with world.uow() as uow:
        assert uow.session.scalar(select(func.count()).select_from(AutopayDebit)) == 0


def test_lump_sum_on_its_day_while_eligible(world, gw) -> None:  # noqa: ANN001
    method = save_method(world, gw)
    with world.uow() as uow:
        with pytest.raises(InvalidInput) as e:  # the discount's window has passed
            enrolments.enrol(uow, world.user(uow), world.parcel["0"], method_id=str(method),
                             plan="lump_sum", lump_sum_on=date(2026, 9, 10), language="es")
        assert e.value.code == "lump_sum_unavailable"


def test_lost_parcel_and_escrow_end_it(world, gw) -> None:  # noqa: ANN001
    method = save_method(world, gw)
    enrol(world, method)
    enrol(world, method, parcel="1")
    with world.uow() as uow:
        link = uow.session.scalar(select(ParcelLink).where(
            ParcelLink.parcel_id == world.parcel["0"]))
        link.revoked_at = clock.now()
    run(world, gw, date(2026, 9, 6))
    with world.uow() as uow:
        e = uow.session.scalars(select(AutopayEnrolment).order_by(AutopayEnrolment.id)).all()
        assert e[0].end_reason == "lost_parcel" and e[1].ended_at is None
    assert len(mails(world, "autopay_ended")) == 1


def test_only_payers_enrol_and_one_at_a_time(world, gw) -> None:  # noqa: ANN001
    method = save_method(world, gw)
    other_method = save_method(world, gw, who="other")
    with world.uow() as uow:
        with pytest.raises(Exception):  # noqa: B017,PT011 - NotFound: not theirs to see
            enrolments.enrol(uow, world.user(uow, "other"), world.parcel["0"],
                             method_id=str(other_method), plan="installments",
                             lump_sum_on=None, language="en")
        with pytest.raises(InvalidInput):  # someone else's method
            enrolments.enrol(uow, world.user(uow), world.parcel["0"],
                             method_id=str(other_method), plan="installments",
                             lump_sum_on=None, language="es")
    enrol(world, method)
    with world.uow() as uow, pytest.raises(Forbidden):
        enrolments.enrol(uow, world.user(uow), world.parcel["0"], method_id=str(method),
                         plan="installments", lump_sum_on=None, language="es")


def test_removing_the_method_ends_its_enrolments(world, gw) -> None:  # noqa: ANN001
    method = save_method(world, gw)
    enrol(world, method)
    with world.uow() as uow:
        ended = methods.remove(uow, world.user(uow), method, gateway=gw)
        assert len(ended) == 1
        assert uow.session.get(SavedMethod, method).removed_at is not None
    assert run(world, gw, OCT_1) == {"enrolments": 0}


def test_covers(world, gw) -> None:  # noqa: ANN001
    method = save_method(world, gw)
    with world.uow() as uow:
        assert not autopay.covers(uow, world.parcel["0"], date(2026, 9, 25))
    enrol(world, method)
    with world.uow() as uow:
        # 5 September: installments 1-3 are late (arrears): autopay does not pay those now.
        assert not autopay.covers(uow, world.parcel["0"], date(2026, 9, 25))
    run(world, gw, OCT_1)
    with world.uow() as uow:
        assert autopay.covers(uow, world.parcel["0"], date(2026, 10, 25))  # November's next
    with world.uow() as uow:
        assert uow.session.scalar(select(func.count()).select_from(Payment)) == 1


def test_escrow_reported_by_a_lender_ends_it(world, gw) -> None:  # noqa: ANN001
    from portal.models import Lender, LenderIntent, Loan, Party
    method = save_method(world, gw)
    enrol(world, method)
    with world.uow() as uow:
        party = Party(kind="organisation", name="Banco de Prueba")
        uow.session.add(party)
        uow.session.flush()
        lender = Lender(party_id=party.id, code="BPR")
        uow.session.add(lender)
        uow.session.flush()
        loan = Loan(lender_id=lender.id, parcel_id=world.parcel["0"], loan_number="L-1",
                    starts_on=date(2020, 1, 1))
        uow.session.add(loan)
        uow.session.flush()
        uow.session.add(LenderIntent(lender_id=lender.id, loan_id=loan.id,
                                     parcel_id=world.parcel["0"], fiscal_year_id=world.fy_id,
                                     kind="district_due_now", amount=Decimal("312.77"),
                                     marked_by_id=world.user(uow, "other").id))
    assert run(world, gw, date(2026, 9, 28)).get("ended") == 1
    with world.uow() as uow:
        assert uow.session.scalars(select(AutopayEnrolment)).one().end_reason == "escrow"
    assert "escrow" in body(mails(world, "autopay_ended")[0])
    assert run(world, gw, OCT_1) == {"enrolments": 0}


def test_lump_sum_debited_on_its_day(database, gw) -> None:  # noqa: ANN001
    """Enrolled on 10 June for the lump sum on 25 June (before the 1 July deadline): the
    notice three days ahead for a bank account, then exactly the offer's lump sum, once."""
    from tests.support.world import seed
    with fixed_on(date(2026, 6, 10)):
        world = seed(database, ("1200.00",))
        method = save_method(world, gw, "bank")
        enrol(world, method, plan="lump_sum", lump_sum_on=date(2026, 6, 25))
    run(world, gw, date(2026, 6, 22))
    assert len(mails(world, "autopay_notice")) == 1
    lump = offer_on(world, date(2026, 6, 25)).lump_sum
    assert lump.eligible
    assert run(world, gw, date(2026, 6, 25)).get("posted") == 1
    with world.uow() as uow:
        row = uow.session.scalars(select(AutopayDebit)).one()
        assert (row.target, row.amount) == ("lump_sum", lump.amount)
        assert uow.session.scalars(select(Payment)).one().lump_sum
    assert run(world, gw, date(2026, 6, 26)).get("posted") is None
