"""R-A17 (revision 3): the Board's `demand_minimum` (default 0.00, adopted for a fiscal year
with its resolution like the other Board parameters). An account whose demand would list
less waits for the first later month whose demand reaches it; a claim in court for a demand
that listed less is recorded only once staff confirm it, and the audit says so."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import select

from portal import clock
from portal.accounts import facts, in_force
from portal.accounts.errors import Conflict, InvalidInput
from portal.collections import demands, mailing
from portal.core import params
from portal.models import AuditRecord, FiscalYear, Notice, User
from portal.roll import board_parameters
from tests.support.clock import at

FY = date(2026, 7, 1)


def _staff(uow, world):
    staff = uow.session.get(User, world.staff.id)
    staff.staff_role = "administrator"
    return staff


def _adopt(world, amount: str) -> None:
    with world.uow() as uow:
        board_parameters.adopt(uow, _staff(uow, world), FY, "demand_minimum", amount,
                               date(2026, 11, 2), "2026-30", date(2026, 11, 2))


def _due(world, key: str, on: date) -> Decimal:
    with world.uow() as uow:
        fy = uow.session.get(FiscalYear, world.fy_id)
        return facts.load(uow, world.parcel[key], fy).evaluate(on).total_due_now


def _demanded(world) -> set[int]:
    with world.uow() as uow:
        return set(uow.session.scalars(select(Notice.parcel_id).where(
            Notice.kind == "demand")))


def test_no_minimum_until_the_board_adopts_one(world):
    with world.uow() as uow:
        assert in_force.demand_minimum(uow, FY) == Decimal("0.00")
        assert in_force.demand_minimum(uow, date(2027, 7, 1)) == Decimal("0.00")
    _adopt(world, "25")
    with world.uow() as uow:
        assert in_force.demand_minimum(uow, FY) == Decimal("25.00")
        assert in_force.demand_minimum(uow, date(2027, 7, 1)) == Decimal("0.00")


@pytest.mark.parametrize(("typed", "code"), [("7%", "invalid"), ("5.001", "invalid"),
                                             ("1e3", "invalid"), ("-1", "invalid"),
                                             ("1000.01", "out_of_range")])
def test_the_minimum_is_an_amount_of_dollars(typed, code):
    with pytest.raises(params.AdoptedValueError) as info:
        params.parse_adopted("demand_minimum", typed)
    assert info.value.code == code
    assert params.parse_adopted("demand_minimum", "5") == "5.00"


def test_an_account_under_the_minimum_waits_for_a_later_month(world):
    """On 13 November A owes less than the minimum set a cent above it: no demand for A (the
    others owe more); on 11 December another installment is delinquent and A's demand
    reaches the minimum: it is queued then."""
    nov, dec = date(2026, 11, 13), date(2026, 12, 11)
    owed = _due(world, "A", nov)
    assert _due(world, "A", dec) > owed + Decimal("0.01")
    _adopt(world, str(owed + Decimal("0.01")))
    with clock.fixed(at(nov)), world.uow() as uow:
        demands.run(uow, _staff(uow, world))
    first = _demanded(world)
    assert world.parcel["A"] not in first and first  # the others owe more than A
    with clock.fixed(at(dec)), world.uow() as uow:
        demands.run(uow, _staff(uow, world))
    assert world.parcel["A"] in _demanded(world)


def test_a_claim_under_the_minimum_needs_staff_to_confirm(world):
    """A's demand, mailed 3 November and claimable from 20 November; the Board then adopts
    a minimum above what it listed: the claim is refused with the amount and the minimum
    until staff confirm it; confirmed, it is recorded and the audit names the minimum."""
    with clock.fixed(at(date(2026, 11, 3))), world.uow() as uow:
        demands.run(uow, _staff(uow, world))
        a = uow.session.scalar(select(Notice).where(
            Notice.parcel_id == world.parcel["A"], Notice.kind == "demand"))
        demands.record_mailing(uow, _staff(uow, world), a.id, date(2026, 11, 3),
                               "9400 1000 0000 0000 0001")
        a_id, listed = a.id, a.amount
    minimum = listed + Decimal("100.00")
    _adopt(world, str(minimum))
    with pytest.raises(Conflict) as info, world.uow() as uow:
        demands.record_claim(uow, _staff(uow, world), a_id, date(2026, 11, 30), "SJ1")
    assert (info.value.code, info.value.params) == ("below_minimum", {
        "amount": listed, "minimum": minimum})
    with pytest.raises(InvalidInput), world.uow() as uow:  # the other checks still hold
        demands.record_claim(uow, _staff(uow, world), a_id, date(2026, 11, 10), "SJ1",
                             confirmed_under_minimum=True)
    with world.uow() as uow:
        demands.record_claim(uow, _staff(uow, world), a_id, date(2026, 11, 30), "SJ1",
                             confirmed_under_minimum=True)
    with world.uow() as uow:
        rec = uow.session.scalar(select(AuditRecord).where(
            AuditRecord.action == "demand.claimed"))
        assert rec.after["under_demand_minimum"] == str(minimum)


def test_a_demand_queued_by_hand_respects_the_minimum(world):
    """Staff queueing a demand by hand for an account under the minimum are refused."""
    owed = _due(world, "A", date(2026, 11, 30))
    _adopt(world, str(owed + Decimal("0.01")))
    with pytest.raises(Conflict) as info, world.uow() as uow:
        mailing.queue_demand(uow, _staff(uow, world), world.parcel["A"], world.fy_id)
    assert info.value.code == "below_minimum"
