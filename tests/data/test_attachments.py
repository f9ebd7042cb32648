"""Property-tax attachment and auction (R-C1–R-C8) and the lessee's deposit order (R-A14):
the services record the core's figures, refuse bad input with nothing changed, audit every
change, keep the rows append-only, and show the auction minimum only to staff and the
debtor (R-C5)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from portal.accounts.errors import Conflict, Forbidden, InvalidInput, NotFound
from portal.collections import attachments, deposit_orders
from portal.models import (
    AttachmentNotice,
    Auction,
    AuctionResult,
    AuditRecord,
    DepositOrder,
    ImmutableRowError,
    TaxDebt,
    User,
)

D = Decimal
AMOUNTS = {"taxes": D("1200.00"), "surcharges": D("60.00"), "interest": D("90.50"),
           "penalties": D("25.00")}


def _u(uow, user):
    return uow.session.get(User, user.id)


def _count(world, model):
    with world.uow() as uow:
        return uow.session.scalar(select(func.count()).select_from(model))


def _notice(world, **kw):
    args = {"fiscal_years": "2024-2025", "amounts": AMOUNTS,
            "notified_on": date(2026, 11, 2), "delivery": "certified_mail",
            "certified_mail_number": "9407 1000 0000 0001", "custody_costs": D("15.00"), **kw}
    with world.uow() as uow:
        n = attachments.record_notice(uow, _u(uow, world.staff), world.parcel["A"], **args)
        return n.id


def test_a_notice_states_the_core_figures(world):
    """R-C1, R-C3: fee = 10 % of the tax principal 1,200.00 (surcharges excluded) = 120.00,
    plus custody 15.00 = 135.00; the notice's total = 1,200 + 60 + 90.50 + 25 + 135 =
    1,510.50. R-C2, R-C7: mailed Monday 2026-11-02: 30 days = 2026-12-02 (a Wednesday, no
    roll-over), the earliest sale 2026-12-03."""
    nid = _notice(world)
    with world.uow() as uow:
        n = uow.session.get(AttachmentNotice, nid)
        assert (n.dunning_fee, n.total) == (D("135.00"), D("1510.50"))
        assert (n.last_day, n.earliest_sale_on) == (date(2026, 12, 2), date(2026, 12, 3))
        debt = uow.session.get(TaxDebt, n.debt_id)
        assert debt.creditor == "treasury" and debt.taxes == D("1200.00")
        actions = set(uow.session.scalars(select(AuditRecord.action)))
        assert {"tax_debt.recorded", "attachment_notice.recorded"} <= actions
        n.total = D("1.00")
        with pytest.raises(ImmutableRowError):
            uow.session.flush()
        uow.session.rollback()


def test_the_last_day_rolls_over_a_weekend(world):
    """R-C2: notified 2026-10-02 (Friday): day 30 is Sunday 2026-11-01, rolled to Monday
    2026-11-02; sale from 2026-11-03."""
    nid = _notice(world, notified_on=date(2026, 10, 2))
    with world.uow() as uow:
        n = uow.session.get(AttachmentNotice, nid)
        assert (n.last_day, n.earliest_sale_on) == (date(2026, 11, 2), date(2026, 11, 3))


@pytest.mark.parametrize("kw, field", [
    ({"delivery": "fax"}, "delivery"),
    ({"certified_mail_number": " "}, "certified_mail_number"),
    ({"notified_on": date(2026, 12, 25)}, "notified_on"),
    ({"custody_costs": D("-1.00")}, "custody_costs"),
    ({"custody_costs": D("1.005")}, "custody_costs"),
    ({"amounts": {**AMOUNTS, "taxes": D("0.00")}}, "taxes"),
    ({"amounts": {**AMOUNTS, "interest": D("NaN")}}, "interest"),
    ({"fiscal_years": ""}, "fiscal_years"),
])
def test_bad_input_changes_nothing(world, kw, field):
    with pytest.raises(InvalidInput) as exc:
        _notice(world, **kw)
    assert exc.value.params["field"] == field
    assert _count(world, TaxDebt) == _count(world, AttachmentNotice) == 0


def test_only_staff_who_may_record(world):
    with world.uow() as uow, pytest.raises(Forbidden):
        attachments.record_notice(uow, _u(uow, world.alice), world.parcel["A"],
                                  fiscal_years="2024", amounts=AMOUNTS,
                                  notified_on=date(2026, 11, 2), delivery="personal")
    with world.uow() as uow:
        staff = _u(uow, world.staff)
        staff.staff_role = "read_only"
    with pytest.raises(Forbidden):
        _notice(world)
    assert _count(world, TaxDebt) == 0


def _auction(world, parcel="A", **kw):
    args = {"fiscal_years": "2023-2024, 2024-2025", "appraised_on": date(2026, 10, 1),
            "real_value": D("90000.00"), "mortgage_amount": D("88000.00"),
            "amounts": {**AMOUNTS, "costs": D("40.00")}, **kw}
    with world.uow() as uow:
        return attachments.record_auction(uow, _u(uow, world.staff), world.parcel[parcel],
                                          **args).id


def test_the_auction_minimum_and_its_results(world):
    """R-C4: equity 90,000 − 88,000 = 2,000; credit 1,200 + 60 + 90.50 + 25 + 40 = 1,415.50;
    floor 1,200 + 60 + 90.50 = 1,350.50; minimum = max(min(2,000, 1,415.50), 1,350.50) =
    1,415.50. R-C6: no bid → adjudicated to the CRIM at the minimum; a sale below the
    minimum is refused; a sale at 1,500.00 leaves no shortfall."""
    aid = _auction(world)
    with world.uow() as uow:
        a = uow.session.get(Auction, aid)
        assert (a.equity, a.credit, a.floor, a.minimum) == (
            D("2000.00"), D("1415.50"), D("1350.50"), D("1415.50"))
    with world.uow() as uow, pytest.raises(InvalidInput) as exc:
        attachments.record_result(uow, _u(uow, world.staff), aid, held_on=date(2026, 11, 20),
                                  bids=2, price=D("1415.49"))
    assert exc.value.code == "below_minimum" and _count(world, AuctionResult) == 0
    with world.uow() as uow:
        r = attachments.record_result(uow, _u(uow, world.staff), aid,
                                      held_on=date(2026, 11, 20), bids=0)
        assert (r.outcome, r.price, r.shortfall) == ("adjudicated_to_crim", D("1415.50"),
                                                     D("0.00"))
    with world.uow() as uow, pytest.raises(Conflict):
        attachments.record_result(uow, _u(uow, world.staff), aid, held_on=date(2026, 11, 20),
                                  bids=1, price=D("2000.00"))
    other = _auction(world, parcel="B", real_value=D("200000.00"), mortgage_amount=D("0.00"))
    with world.uow() as uow:
        r = attachments.record_result(uow, _u(uow, world.staff), other,
                                      held_on=date(2026, 11, 20), bids=3, price=D("1500.00"))
        assert (r.outcome, r.price, r.shortfall) == ("sold", D("1500.00"), D("0.00"))


def test_the_floor_with_this_parcels_own_debt_and_a_shortfall(world):
    """R-C4, R-C6, R-C8: the debtor owes 1,200 + 60 + 90.50 = 1,350.50 in taxes, surcharges and
    interest, of which this parcel itself 400.00. Equity 90,000 − 89,500 = 500.00; credit
    1,415.50 (as above); lesser 500.00; floor 400.00: minimum 500.00. Sold to a third party
    for 600.00: the shortfall is 1,350.50 − 600.00 = 750.50, recorded and still owed."""
    aid = _auction(world, mortgage_amount=D("89500.00"), property_debt=D("400.00"))
    with world.uow() as uow:
        a = uow.session.get(Auction, aid)
        assert (a.equity, a.credit, a.floor, a.minimum) == (
            D("500.00"), D("1415.50"), D("400.00"), D("500.00"))
        r = attachments.record_result(uow, _u(uow, world.staff), aid,
                                      held_on=date(2026, 11, 20), bids=1, price=D("600.00"))
        assert (r.outcome, r.price, r.shortfall) == ("sold", D("600.00"), D("750.50"))
    with world.uow() as uow:
        summary = attachments.parcel_summary(uow, _u(uow, world.staff), world.parcel["A"])
        (view,) = summary.debts[0].auctions
        assert (view.minimum.floor, view.minimum.minimum) == (D("400.00"), D("500.00"))
        assert view.result.shortfall == D("750.50")


def test_the_auction_number_selects_the_regulations_rate(world, monkeypatch):
    """R-C8: the CRIM's regulation sets auction 2 at half the lesser of equity and credit.
    Equity 90,000 − 50,000 = 40,000.00; credit 1,415.50; lesser 1,415.50 × 0.5 = 707.75;
    this parcel's floor 400.00 is below it: minimum 707.75. Auction 1 at rate 1: 1,415.50.
    An auction the regulation does not set is refused, nothing recorded."""
    from portal.core import auction as core_auction
    rates = {1: D("1"), 2: D("0.5")}

    def rate_for(number, on):
        if number not in rates:
            raise core_auction.ParameterNotFound("none", field="auction_number")
        return rates[number]

    monkeypatch.setattr(core_auction, "minimum_rate_for", rate_for)
    kw = {"mortgage_amount": D("50000.00"), "property_debt": D("400.00")}
    second = _auction(world, auction_number=2, **kw)
    first = _auction(world, parcel="B", auction_number=1, **kw)
    with world.uow() as uow:
        assert uow.session.get(Auction, second).minimum == D("707.75")
        assert uow.session.get(Auction, first).minimum == D("1415.50")
        summary = attachments.parcel_summary(uow, _u(uow, world.staff), world.parcel["A"])
        assert summary.debts[0].auctions[0].minimum.trace.steps[-1].rule == "R-C8"
    before = _count(world, Auction)
    with pytest.raises(InvalidInput) as exc:
        _auction(world, auction_number=3, **kw)
    assert (exc.value.code, exc.value.params["field"]) == ("no_regulation", "auction_number")
    assert _count(world, Auction) == before


@pytest.mark.parametrize("own", [D("0.00"), D("1350.51")])
def test_this_parcels_debt_is_part_of_the_debtors(world, own):
    """R-C4: this parcel's own taxes, surcharges and interest are more than 0 and at most the
    debt's 1,350.50; anything else is refused with nothing recorded."""
    with pytest.raises(InvalidInput) as exc:
        _auction(world, property_debt=own)
    assert (exc.value.code, exc.value.params["field"]) == ("above_debt", "property_debt")
    assert _count(world, TaxDebt) == _count(world, Auction) == 0


def test_equity_below_the_floor(world):
    """R-C4: a fully mortgaged parcel (equity 0) still has the property's floor as minimum."""
    aid = _auction(world, mortgage_amount=D("95000.00"))
    with world.uow() as uow:
        a = uow.session.get(Auction, aid)
        assert (a.equity, a.minimum) == (D("0.00"), D("1350.50"))


def test_r_c5_the_minimum_only_for_staff_and_the_debtor(world):
    """R-C5: staff and the owner (Alice, parcel A) read the auction; Bob (another owner) gets
    404; the lender of C and the lessee's view of D see the parcel but no section-C figure."""
    _auction(world)
    _auction(world, parcel="C")
    with world.uow() as uow:
        staff, alice, bob = (_u(uow, u) for u in (world.staff, world.alice, world.bob))
        lender = _u(uow, world.lender_user)
        for user in (staff, alice):
            s = attachments.parcel_summary(uow, user, world.parcel["A"])
            assert s.debts[0].auctions[0].minimum.minimum == D("1415.50")
        with pytest.raises(NotFound):
            attachments.parcel_summary(uow, bob, world.parcel["A"])
        assert attachments.parcel_summary(uow, lender, world.parcel["C"]) is None
        assert not attachments.may_see_minimum(uow, lender, world.parcel["C"])
        assert not attachments.may_see_minimum(uow, None, world.parcel["A"])


def test_paid_once(world):
    aid = _auction(world)
    with world.uow() as uow:
        debt_id = uow.session.get(Auction, aid).debt_id
        attachments.mark_paid(uow, _u(uow, world.staff), debt_id, date(2026, 11, 25))
    with world.uow() as uow, pytest.raises(Conflict):
        attachments.mark_paid(uow, _u(uow, world.staff), debt_id, date(2026, 11, 26))
    with world.uow() as uow, pytest.raises(Conflict):  # a paid debt goes to no auction
        attachments.record_result(uow, _u(uow, world.staff), aid, held_on=date(2026, 11, 26),
                                  bids=0)


def test_deposit_order_on_a_leased_authority_parcel(world):
    """R-A14: recorded on D's lease, one in force at a time, lifted once; refused for a
    private parcel (A) and an Authority parcel with no lease (E), nothing changed."""
    with world.uow() as uow:
        staff = _u(uow, world.staff)
        o = deposit_orders.record(uow, staff, world.parcel["D"], court="TPI San Juan",
                                  case_number="SJ2026CV01234", ordered_on=date(2026, 11, 10))
        oid = o.id
    for pid, code in ((world.parcel["A"], "not_authority"), (world.parcel["E"], "no_lease"),
                      (world.parcel["D"], "order_in_force")):
        with world.uow() as uow, pytest.raises(Conflict) as exc:
            deposit_orders.record(uow, _u(uow, world.staff), pid, court="TPI",
                                  case_number="X1", ordered_on=date(2026, 11, 12))
        assert exc.value.code == code
    assert _count(world, DepositOrder) == 1
    with world.uow() as uow, pytest.raises(InvalidInput):
        deposit_orders.lift(uow, _u(uow, world.staff), oid, date(2026, 11, 9))
    with world.uow() as uow:
        deposit_orders.lift(uow, _u(uow, world.staff), oid, date(2026, 11, 28))
    with world.uow() as uow, pytest.raises(Conflict):
        deposit_orders.lift(uow, _u(uow, world.staff), oid, date(2026, 11, 29))
    with world.uow() as uow:
        actions = list(uow.session.scalars(select(AuditRecord.action).where(
            AuditRecord.action.like("deposit_order.%"))))
        assert actions == ["deposit_order.recorded", "deposit_order.lifted"]


def test_what_accrued_since_the_notice_and_what_stops_the_sale(world):
    """R-C7: a notice of 2026-11-02 (taxes 1,200.00, surcharges 60.00, interest 90.50,
    penalties 25.00: 1,375.50; fee 120.00; custody 15.00). Today (2026-11-30) before any
    statement: 1,375.50 + 120.00 + 15.00 = 1,510.50. The Treasury states 9.40 accrued to
    2026-11-20, 0.35 a day after, custody 30.00: today, 10 days later, 9.40 + 3.50 = 12.90;
    1,375.50 + 12.90 + 120.00 + 30.00 = 1,538.40. The last day 2026-12-02, 12 days after:
    9.40 + 4.20 = 13.60: 1,539.10. Refused, nothing written: a day before the notice, a day
    to come, a role that may not record, a debt paid in full; audited once."""
    from portal.models import AttachmentAccrual
    nid = _notice(world)

    def stop():  # noqa: ANN202
        with world.uow() as uow:
            n = attachments.parcel_summary(uow, _u(uow, world.staff),
                                           world.parcel["A"]).debts[0].notice
            return n.stop.on.amount, n.stop.on_last_day.amount

    assert stop() == (D("1510.50"), D("1510.50"))
    with world.uow() as uow:
        staff = _u(uow, world.staff)
        for kw, field in (({"stated_on": date(2026, 11, 1)}, "stated_on"),
                          ({"stated_on": date(2026, 12, 1)}, "stated_on"),
                          ({"accrued": D("-1")}, "accrued")):
            args = {"stated_on": date(2026, 11, 20), "accrued": D("9.40"), **kw}
            with pytest.raises(InvalidInput) as e:
                attachments.record_accrual(uow, staff, nid, **args)
            assert e.value.params["field"] == field
    with world.uow() as uow, pytest.raises(Forbidden):
        attachments.record_accrual(uow, _u(uow, world.alice), nid,
                                   stated_on=date(2026, 11, 20), accrued=D("9.40"))
    assert _count(world, AttachmentAccrual) == 0
    with world.uow() as uow:
        attachments.record_accrual(uow, _u(uow, world.staff), nid,
                                   stated_on=date(2026, 11, 20), accrued=D("9.40"),
                                   per_day=D("0.35"), custody_costs=D("30.00"))
    assert stop() == (D("1538.40"), D("1539.10"))
    with world.uow() as uow:
        assert uow.session.scalar(select(func.count()).select_from(AuditRecord).where(
            AuditRecord.action == "attachment_accrual.recorded")) == 1
        debt_id = uow.session.get(AttachmentNotice, nid).debt_id
        attachments.mark_paid(uow, _u(uow, world.staff), debt_id, date(2026, 11, 30))
    with world.uow() as uow, pytest.raises(Conflict):
        attachments.record_accrual(uow, _u(uow, world.staff), nid,
                                   stated_on=date(2026, 11, 25), accrued=D("10.00"))
    with world.uow() as uow:
        assert attachments.parcel_summary(uow, _u(uow, world.staff),
                                          world.parcel["A"]).debts[0].notice.stop is None
    assert _count(world, AttachmentAccrual) == 1
