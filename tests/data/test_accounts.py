"""statement_for: the core's statement over the stored facts, and what the page needs."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from portal import clock
from portal.accounts import access, facts, ledger, parcels, statements
from portal.core import params
from portal.core.installments import schedule
from portal.core.statement import Cost, Payment, StatementRules, evaluate
from portal.models import Lender, Loan, PartyMember, User
from portal.people import users
from tests.support.clock import at
from tests.support.sql import QueryCounter
from tests.support.world import FY_START, pay


def _rules() -> StatementRules:
    on = FY_START
    return StatementRules(
        grace_day=params.value("grace_day", on), late_fee_rate=params.value("late_fee_rate", on),
        late_fee_base=params.value("late_fee_base", on),
        interest_rate=params.value("interest_rate", on),
        lump_sum_discount_rate=params.value("lump_sum_discount_rate", on),
        closed_days=frozenset(c.day for c in params.closed_days()))


def test_roll_amounts_follow_the_units_and_the_law(world):
    """R-A2: the leased Authority parcel and the incentive-exempt one pay; unleased Authority
    land does not. R-A3: the total is shared by units, exactly."""
    with world.uow() as uow:
        views = {k: statements.statement_for(uow, world.staff, pid)
                 for k, pid in world.parcel.items()}
    assert views["E"].assessment is None and views["E"].status == "none"
    annual = {k: v.annual for k, v in views.items() if v.assessment is not None}
    assert sum(annual.values()) == Decimal("12000.00")
    # units 10, 30, 60, 20 of 120 -> 1000, 3000, 6000, 2000
    assert annual == {"A": Decimal("1000.00"), "B": Decimal("3000.00"),
                      "C": Decimal("6000.00"), "D": Decimal("2000.00")}
    assert views["D"].payer == "lessee" and views["A"].payer == "owner"
    assert views["A"].total_units == Decimal("120")
    assert views["A"].share == Decimal("0.08333333")
    assert [ln.description("en") for ln in views["A"].budget_lines] == ["Project", "Maintenance"]
    assert views["A"].budget_version.total_to_assess == Decimal("12000.00")


def test_statement_for_reproduces_the_core(world):
    """Facts stored through the services give exactly the core's statement on them."""
    pay(world, "B", "250.00", date(2026, 7, 3))
    pay(world, "B", "250.00", date(2026, 8, 12))  # after day G: August is late
    with clock.fixed(at(date(2026, 10, 20))), world.uow() as uow:
        staff = uow.session.get(User, world.staff.id)
        ledger.record_cost(uow, staff, world.parcel["B"], world.fy_id, Decimal("10.35"),
                           date(2026, 10, 20), "certified_mail", "9407")
    pay(world, "B", "30.00", date(2026, 11, 11), hh=23)  # 23:00 PR = Nov 12 UTC
    as_of = date(2026, 11, 30)
    with world.uow() as uow:
        view = statements.statement_for(uow, world.bob, world.parcel["B"], as_of=as_of)
    inst = schedule(Decimal("3000.00"), FY_START, 12, date(2026, 6, 10))
    expected = evaluate(as_of, inst,
                        [Payment(date(2026, 7, 3), Decimal("250.00")),
                         Payment(date(2026, 8, 12), Decimal("250.00")),
                         Payment(date(2026, 11, 11), Decimal("30.00"))],
                        [Cost(date(2026, 10, 20), Decimal("10.35"), "certified_mail")],
                        _rules(), Decimal("3000.00"))
    st = view.statement
    for name in ("interest", "late_fees", "costs", "delinquent_principal", "due_principal",
                 "upcoming_principal", "credit", "total_due_now", "payoff"):
        assert getattr(st, name) == getattr(expected, name), name
    assert [(i.number, i.status, i.principal, i.late_fee, i.interest) for i in st.installments] \
        == [(i.number, i.status, i.principal, i.late_fee, i.interest)
            for i in expected.installments]
    assert st.late_fees > 0 and st.interest > 0 and st.costs == Decimal("10.35")
    assert view.status == "overdue"
    assert view.relation == "owner"
    assert [c.cost_kind for c in view.costs] == ["certified_mail"]
    # The payoff quoted today holds to the next last timely day (December 10).
    assert view.payoff_through == date(2026, 12, 10)
    later = evaluate(view.payoff_through, inst, expected_payments(), expected_costs(),
                     _rules(), Decimal("3000.00"))
    assert view.payoff_amount == later.payoff > st.payoff
    assert view.trace.rules[:2] == ["R-A6", "R-A7"]


def expected_payments():
    return [Payment(date(2026, 7, 3), Decimal("250.00")),
            Payment(date(2026, 8, 12), Decimal("250.00")),
            Payment(date(2026, 11, 11), Decimal("30.00"))]


def expected_costs():
    return [Cost(date(2026, 10, 20), Decimal("10.35"), "certified_mail")]


def test_lump_sum_before_the_deadline_earns_the_discount(world):
    """R-A11: the whole year by July 1 earns the 2% set for FY 2026-2027."""
    rate = params.value("lump_sum_discount_rate", FY_START)
    assert rate == Decimal("0.02")
    with clock.fixed(date(2026, 6, 20)), world.uow() as uow:
        before = statements.statement_for(uow, world.alice, world.parcel["A"])
    assert before.lump_sum.eligible and before.lump_sum.amount == Decimal("980.00")
    assert (before.lump_sum.discount, before.lump_sum.deadline) == (Decimal("20.00"),
                                                                    date(2026, 7, 1))
    pay(world, "A", "980.00", date(2026, 6, 25), lump_sum=True)
    with world.uow() as uow:
        view = statements.statement_for(uow, world.alice, world.parcel["A"])
    assert view.statement.discount == Decimal("20.00")
    assert view.statement.payoff == 0 and view.status == "current"
    assert all(i.status == "paid" for i in view.statement.installments)
    assert view.statement.applications[0].lump_sum == "granted"


def test_statuses_current_pending_overdue(world):
    with clock.fixed(date(2026, 7, 5)), world.uow() as uow:
        assert statements.statement_for(uow, world.alice, world.parcel["A"]).status == "pending"
    with clock.fixed(date(2026, 7, 14)), world.uow() as uow:
        assert statements.statement_for(uow, world.alice, world.parcel["A"]).status == "overdue"
    with clock.fixed(date(2026, 6, 30)), world.uow() as uow:
        rows = statements.dashboard(uow, world.alice)
    assert [(r.status, r.next_due_date, r.next_due_amount) for r in rows] == \
        [("current", date(2026, 7, 1), Decimal("83.34"))]


def test_dashboard_queries_do_not_grow_with_parcels(world, database):
    with QueryCounter(database) as one, world.uow() as uow:
        statements.dashboard(uow, world.bob)
    with world.uow() as uow:
        for key in ("C", "D", "E"):
            parcels.grant(uow, world.staff, world.parcel[key], "bob@test.pr",
                          reason="papers checked at the office")
    with QueryCounter(database) as four, world.uow() as uow:
        rows = statements.dashboard(uow, world.bob)
    assert len(rows) == 4
    assert four.account_reads == one.account_reads == 1, (one.statements, four.statements)
    assert four.count == one.count <= 2  # and the Board's recorded parameters, once
    with QueryCounter(database) as page, world.uow() as uow:
        statements.statement_for(uow, world.bob, world.parcel["B"])
    assert page.account_reads <= 9, page.statements


def _summary(s):
    return (s.parcel.id, s.parcel.catastro, s.parcel.address, s.relation,
            s.fiscal_year.id if s.fiscal_year else None, s.annual, s.statement, s.next_due_date,
            s.next_due_amount, s.status)


def test_dashboard_reads_what_the_linked_parcels_and_their_facts_say(world):
    """The dashboard's one statement (parcels, relations, fiscal year, assessments and the
    accounts' installments and entries as JSON) summarises as the parcels, the fiscal year
    and the facts loaded one by one do: a parcel linked two ways is listed once, by its
    strongest relation (Bob owns B and lends on it through the bank). The facts one by one
    are ORM objects (`load_many` without rows)."""
    with world.uow() as uow:
        s = uow.session
        lender = s.query(Lender).one()
        s.add(PartyMember(party_id=lender.party_id, user_id=world.bob.id, role="employee"))
        s.add(Loan(lender_id=lender.id, parcel_id=world.parcel["B"], loan_number="L-2",
                   starts_on=date(2021, 1, 1)))
    pay(world, "B", "50.00", date(2026, 7, 8))
    for day in (date(2026, 6, 30), date(2026, 11, 30), date(2027, 9, 1)):
        with clock.fixed(at(day)), world.uow() as uow:
            for user in (world.alice, world.bob, world.lender_user, world.staff):
                pairs = access.linked_parcels(uow, user)
                fy = facts.fiscal_year_on(uow, day)
                orm = facts.load_many(uow, [p.id for p, _ in pairs], fy) if fy else {}
                expected = [_summary(s) for s in statements._summarise(pairs, orm, day, fy)]
                got = [_summary(s) for s in statements.dashboard(uow, user)]
                assert got == expected, (user.email, day)
                assert len({g[0] for g in got}) == len(got)
        with world.uow() as uow:
            bob = {s.parcel.id: s.relation for s in statements.dashboard(uow, world.bob)}
        assert bob[world.parcel["B"]] == "owner" and "lender" in bob.values()


def test_fiscal_year_by_label_and_none(world):
    with world.uow() as uow:
        v = statements.statement_for(uow, world.alice, world.parcel["A"], fiscal_year="2026-2027")
        assert v.fiscal_year.label == "2026-2027"
        v = statements.statement_for(uow, world.alice, world.parcel["A"],
                                   as_of=FY_START + timedelta(days=400))
        assert v.fiscal_year is None and v.statement is None and v.status == "none"


def test_load_user_is_one_statement_and_knows_lenders(world, database):
    with QueryCounter(database) as q, world.uow() as uow:
        lender = users.load_user(uow, world.lender_user.id)
        alice = users.load_user(uow, str(world.alice.id))
        assert users.load_user(uow, "nobody") is None
        assert users.load_user(uow, 999999) is None
    assert q.count == 3
    assert lender.is_lender and len(lender.lender_ids) == 1
    assert not alice.is_lender and alice.is_active and alice.get_id() == str(world.alice.id)


def test_statement_for_without_payments_and_with_the_payoff_statement(world, database):
    pay(world, "A", "83.34", date(2026, 7, 2))
    with QueryCounter(database) as full, world.uow() as uow:
        v = statements.statement_for(uow, world.alice, world.parcel["A"])
    with QueryCounter(database) as lean, world.uow() as uow:
        w = statements.statement_for(uow, world.alice, world.parcel["A"], with_payments=False)
    assert len(v.payments) == 1 and w.payments == []
    assert lean.count == full.count - 1
    assert w.payoff_statement.as_of == w.payoff_through
    assert w.payoff_statement.payoff == w.payoff_amount
