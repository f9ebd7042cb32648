"""The access policy (DESIGN.md 6): a user sees only what they are linked to; staff see all."""

from __future__ import annotations

from datetime import date

import pytest

from portal.accounts import access, parcels, statements
from portal.accounts.errors import Forbidden, NotFound
from portal.models import Notice
from tests.support.world import pay


def test_linked_user_sees_a_and_not_b(world):
    a, b = world.parcel["A"], world.parcel["B"]
    with world.uow() as uow:
        assert [p.id for p in access.visible_parcels(uow, world.alice)] == [a]
        assert access.get_parcel(uow, world.alice, a).id == a
        assert access.relation(uow, world.alice, a) == "owner"
        for pid in (b, world.parcel["C"], world.parcel["E"], 999999, "x", None):
            with pytest.raises(NotFound):
                access.get_parcel(uow, world.alice, pid)
        with pytest.raises(NotFound):
            statements.statement_for(uow, world.alice, b)
        with pytest.raises(NotFound):
            access.visible_payments(uow, world.alice, b)
        with pytest.raises(NotFound):
            access.visible_notices(uow, world.alice, b)
        assert access.search_parcels(uow, world.alice, "040-000") == \
            [access.get_parcel(uow, world.alice, a)]


def test_search_takes_percent_and_underscore_as_written(world):
    """Staff search: "%" and "_" are characters to find, not wildcards that match all."""
    from portal.people import users
    with world.uow() as uow:
        staff = world.staff
        assert len(access.search_parcels(uow, staff, "040-000")) == 5
        assert access.search_parcels(uow, staff, "%%%") == []
        assert access.search_parcels(uow, staff, "040_000") == []
        assert access.search_parcels(uow, staff, "040%000") == []
        assert users.search_people(uow, staff, "%") == []
        assert users.search_people(uow, staff, "_") == []
        assert [u.email for u in users.search_people(uow, staff, "LENDER@")] == \
            ["lender@test.pr"]


def test_payments_and_notices_follow_their_parcel(world):
    pb = pay(world, "B", "100.00", date(2026, 7, 5))
    with world.uow() as uow:
        notice_b = uow.session.query(Notice).filter_by(parcel_id=world.parcel["B"]).first()
        with pytest.raises(NotFound):
            access.get_payment(uow, world.alice, pb)
        with pytest.raises(NotFound):
            access.get_notice(uow, world.alice, notice_b.id)
        assert access.get_payment(uow, world.bob, pb).id == pb
        assert access.get_notice(uow, world.bob, notice_b.id).id == notice_b.id
        assert access.get_payment(uow, world.staff, pb).id == pb


def test_staff_see_every_parcel(world):
    with world.uow() as uow:
        ids = {p.id for p in access.visible_parcels(uow, world.staff)}
        assert ids == set(world.parcel.values())
        for pid in world.parcel.values():
            assert access.relation(uow, world.staff, pid) == "staff"
            assert statements.statement_for(uow, world.staff, pid).parcel.id == pid
        assert access.linked_parcels(uow, world.staff) == []  # staff's own dashboard


def test_nobody_sees_anything(world):
    with world.uow() as uow:
        assert access.visible_parcels(uow, None) == []
        with pytest.raises(NotFound):
            access.get_parcel(uow, None, world.parcel["A"])


def test_lender_sees_active_loans_only(world):
    with world.uow() as uow:
        assert access.relation(uow, world.lender_user, world.parcel["C"]) == "lender"
        with pytest.raises(NotFound):  # the loan on B ended in 2020
            access.get_parcel(uow, world.lender_user, world.parcel["B"])
        assert [p.id for _, p in access.lender_loans(uow, world.lender_user).loans] == \
            [world.parcel["C"]]
        rows, total = statements.lender_portfolio(uow, world.lender_user)
        assert [r.loan.loan_number for r in rows] == ["L-1"] and total == 1


def test_lender_loans_come_page_by_page_with_the_count(world):
    """The lender's list reads one page of loans by loan number, and counts them all."""
    from portal.models import Loan
    with world.uow() as uow:
        lender_id = uow.session.query(Loan.lender_id).filter_by(loan_number="L-1").scalar()
        uow.session.add_all([  # A and D: active; E would start next year (not yet a loan)
            Loan(lender_id=lender_id, parcel_id=world.parcel["A"], loan_number="L-0",
                 starts_on=date(2020, 1, 1)),
            Loan(lender_id=lender_id, parcel_id=world.parcel["D"], loan_number="L-2",
                 starts_on=date(2021, 1, 1), ends_on=date(2030, 1, 1)),
            Loan(lender_id=lender_id, parcel_id=world.parcel["E"], loan_number="L-3",
                 starts_on=date(2030, 1, 1))])
    numbers = ["L-0", "L-1", "L-2"]
    with world.uow() as uow:
        user = world.lender_user
        assert access.lender_loan_count(uow, user) == 3
        everything = access.lender_loans(uow, user)
        assert [loan.loan_number for loan, _ in everything.loans] == numbers
        assert everything.total == 3
        assert [p.id for _, p in everything.loans] == \
            [world.parcel["A"], world.parcel["C"], world.parcel["D"]]
        for offset in range(4):
            page = access.lender_loans(uow, user, offset=offset, limit=2)
            assert [loan.loan_number for loan, _ in page.loans] == numbers[offset:offset + 2]
            assert page.total == 3, offset
        portfolio = statements.lender_portfolio(uow, user, offset=2, limit=2)
        assert [s.loan.loan_number for s in portfolio.summaries] == ["L-2"]
        assert portfolio.total == 3
        assert access.lender_loans(uow, world.alice) == ([], 0)  # works for no lender
        assert access.lender_loan_count(uow, world.alice) == 0


def test_grant_read_access_and_revoke(world):
    a = world.parcel["A"]
    with world.uow() as uow:
        link = parcels.grant(uow, world.alice, a, "BOB@test.pr")
        link_id = link.id
    with world.uow() as uow:
        assert access.relation(uow, world.bob, a) == "delegate"
        assert statements.statement_for(uow, world.bob, a).relation == "delegate"
        with pytest.raises(Forbidden):  # a delegate sees but does not manage
            parcels.grant(uow, world.bob, a, "lender@test.pr")
        assert [u.email for _, u in parcels.links(uow, world.bob, a)] == ["bob@test.pr"]
        assert {u.email for _, u in parcels.links(uow, world.alice, a)} == \
            {"alice@test.pr", "bob@test.pr"}
    with world.uow() as uow:
        parcels.revoke(uow, world.alice, a, link_id)
    with world.uow() as uow:
        with pytest.raises(NotFound):
            access.get_parcel(uow, world.bob, a)
        with pytest.raises(NotFound):  # not Alice's parcel B: she cannot touch its links
            parcels.grant(uow, world.alice, world.parcel["B"], "lender@test.pr")
