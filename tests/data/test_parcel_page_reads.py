"""The parcel page's read (`statement_for(..., rows=True)`): the access check, the parcel,
the account's one-row lookups and its demands in one statement; the same answers as the
ORM path (`rows=False`), in one statement (the account's installments, ledger entries and
budget lines are JSON columns of it: `facts.installments_json`, `facts.entries_json`), and
so are the Board's recorded parameters (`in_force.rows_json`) and the claims in court filed
for its demands."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from portal import clock
from portal.accounts import access, ledger, statements
from portal.accounts.errors import NotFound
from portal.models import Lease, Lender, Loan, Notice, Party, PartyMember
from tests.support.clock import TODAY, at
from tests.support.sql import QueryCounter
from tests.support.world import pay


def _read(uow, user, pid, *, rows):
    return statements.statement_for(uow, user, pid, as_of=TODAY, with_payments=False, rows=rows)


def _ids(xs):
    return [x.id for x in xs]


def _fields(x, names):
    return tuple(getattr(x, n) for n in names)


def _same(a, b) -> None:
    def one(x):
        return None if x is None else x.id

    assert (a.relation, a.parcel.id, a.parcel.catastro, a.payer) == \
        (b.relation, b.parcel.id, b.parcel.catastro, b.payer)
    for name in ("fiscal_year", "assessment", "budget_version", "roll", "lease",
                 "deposit_order"):
        assert one(getattr(a, name)) == one(getattr(b, name)), name
    assert _ids(a.history) == _ids(b.history)
    assert _ids(a.budget_lines) == _ids(b.budget_lines)
    line = ("id", "version_id", "position", "kind", "description_es", "description_en",
            "amount", "financed_by_assessments")
    assert [_fields(x, line) for x in a.budget_lines] == [_fields(x, line) for x in b.budget_lines]
    entry = ("id", "parcel_id", "kind", "direction", "legal_date", "amount", "payment_id",
             "cost_kind", "description")
    for name in ("credits", "costs"):
        assert [_fields(x, entry) for x in getattr(a, name)] == \
            [_fields(x, entry) for x in getattr(b, name)], name
    if a.facts is not None:
        assert a.facts.installments == b.facts.installments
        assert a.facts.lump_sum_flags == b.facts.lump_sum_flags
        assert [_fields(x, entry) for x in a.facts.other] == \
            [_fields(x, entry) for x in b.facts.other]
    assert _ids(a.demands) == _ids(b.demands)
    assert a.statement == b.statement
    assert a.collection == b.collection


def _add_demands(uow, world, key: str, *mailed: date) -> None:
    for day in mailed:
        uow.session.add(Notice(parcel_id=world.parcel[key], fiscal_year_id=world.fy_id,
                               kind="demand", amount=Decimal("100.00"), mailed_on=day))
        uow.session.flush()


def test_rows_see_exactly_what_the_orm_path_sees(world):
    with world.uow() as uow:
        _add_demands(uow, world, "B", date(2026, 10, 1), date(2026, 11, 2))
    users = (world.staff, world.alice, world.bob, world.lender_user, None)
    with world.uow() as uow:
        for user in users:
            for pid in [*world.parcel.values(), 999999, "x", "0", None]:
                try:
                    expected = _read(uow, user, pid, rows=False)
                except NotFound:
                    with pytest.raises(NotFound):
                        _read(uow, user, pid, rows=True)
                    assert pid not in world.parcel.values() or \
                        access.relation(uow, user, pid) is None
                    continue
                got = _read(uow, user, pid, rows=True)
                _same(got, expected)
                assert got.relation == access.relation(uow, user, pid)


def test_the_strongest_relation_names_it(world):
    """Bob owns B and works for the bank that lends on it (and on C): owner on B, lender
    on C; the ended loan on B gives nothing."""
    b, c = world.parcel["B"], world.parcel["C"]
    with world.uow() as uow:
        s = uow.session
        lender = s.query(Lender).one()
        s.add(PartyMember(party_id=lender.party_id, user_id=world.bob.id, role="employee"))
        s.add(Loan(lender_id=lender.id, parcel_id=b, loan_number="L-2",
                   starts_on=date(2021, 1, 1)))
    with world.uow() as uow:
        assert _read(uow, world.bob, b, rows=True).relation == "owner"
        assert _read(uow, world.bob, c, rows=True).relation == "lender"
        assert _read(uow, world.lender_user, b, rows=True).relation == "lender"


def test_several_leases_in_force_keep_each_demand_once(world):
    d = world.parcel["D"]
    with world.uow() as uow:
        _add_demands(uow, world, "D", date(2026, 10, 1), date(2026, 11, 2))
        other = Party(kind="organisation", name="Second lessee")
        uow.session.add(other)
        uow.session.flush()
        uow.session.add(Lease(parcel_id=d, lessee_party_id=other.id, lessee_pays=False,
                              starts_on=date(2024, 1, 1)))
    with world.uow() as uow:
        got, expected = (_read(uow, world.staff, d, rows=rows) for rows in (True, False))
        _same(got, expected)
        assert len(got.demands) == 2
        assert [n.mailed_on for n in got.demands] == [date(2026, 10, 1), date(2026, 11, 2)]


def test_the_parcel_page_reads_in_one_statement(world):
    with world.uow() as uow:
        _add_demands(uow, world, "B", date(2026, 11, 2))
    for user in (world.bob, world.staff):
        with world.uow() as uow, QueryCounter(world.database) as q:
            view = _read(uow, user, world.parcel["B"], rows=True)
        assert view.budget_lines and view.demands and view.installments
        # the account in one statement, with the Board's recorded parameters and, its
        # demands sent, the claims filed for them (the collection timeline's last step)
        assert q.count == 1, q.statements
    with world.uow() as uow, QueryCounter(world.database) as q:  # not visible: one statement
        with pytest.raises(NotFound):
            _read(uow, world.alice, world.parcel["B"], rows=True)
    assert q.count == 1


def test_payments_costs_and_budget_lines_read_as_json_as_the_orm_reads_them(world):
    """The installments, ledger entries and budget lines read as JSON keep their fields and
    types: a lump-sum payment (its flag), an ordinary one, a cost with its kind and
    description, amounts as Decimal with two decimals, dates as dates, the budget lines in
    order, and the same statement."""
    d = world.parcel["D"]
    pay(world, "D", "1000.00", date(2026, 7, 1), lump_sum=True)
    pay(world, "D", "25.50", date(2026, 9, 3))
    with clock.fixed(at(date(2026, 11, 3))), world.uow() as uow:
        ledger.record_cost(uow, world.staff, d, world.fy_id, Decimal("12.34"),
                           date(2026, 11, 3), "certified_mail", "Carta 7")
    with world.uow() as uow:
        got, expected = (_read(uow, world.staff, d, rows=rows) for rows in (True, False))
    _same(got, expected)
    assert [e.amount for e in got.credits] == [Decimal("1000.00"), Decimal("25.50")]
    assert sorted(got.facts.lump_sum_flags.values()) == [False, True]
    assert [(e.amount, e.cost_kind, e.description) for e in got.costs] == \
        [(Decimal("12.34"), "certified_mail", "Carta 7")]
    for e in [*got.credits, *got.costs]:
        assert type(e.amount) is Decimal and e.amount.as_tuple().exponent == -2
        assert type(e.legal_date) is date
    for i in got.facts.installment_rows:
        assert type(i.amount) is Decimal and i.amount.as_tuple().exponent == -2
    for ln in got.budget_lines:
        assert type(ln.amount) is Decimal and type(ln.financed_by_assessments) is Decimal
    assert [ln.position for ln in got.budget_lines] == \
        sorted(ln.position for ln in got.budget_lines) and len(got.budget_lines) > 1


def test_accounts_read_with_their_last_demand_as_demands_by_account_reads_it(world):
    """`facts.load_years(demands=True)` (the pay page's offers): each account's last demand
    mailed, read in the accounts' statement, is the one `statements.demands_by_account`
    reads apart: the last mailed in the order the notices were made (a queued demand and an
    earlier one do not count), None where none was mailed."""
    from portal.accounts import facts
    from portal.core.collection import Demand
    from portal.models import FiscalYear
    with world.uow() as uow:
        _add_demands(uow, world, "B", date(2026, 11, 2), date(2026, 10, 1))
        uow.session.add(Notice(parcel_id=world.parcel["B"], fiscal_year_id=world.fy_id,
                               kind="demand", amount=Decimal("90.00")))  # queued, not mailed
    with world.uow() as uow:
        years = list(uow.session.query(FiscalYear))
        ids = list(world.parcel.values())
        facts.rules_for(years[0].starts_on, uow)  # the Board's parameters: read apart
        with QueryCounter(uow.session.get_bind()) as q:
            folded = facts.load_years(uow, ids, years, demands=True)
        apart = statements.demands_by_account(uow, ids)
        assert q.count == 1
        assert {k: f.last_demand for k, f in folded.items() if f.last_demand} == apart
        # Made last, mailed first: the one made last is the account's last demand.
        assert apart[(world.parcel["B"], world.fy_id)] == Demand(date(2026, 10, 1),
                                                                 Decimal("100.00"), None)
        assert all(f.last_demand is None for k, f in folded.items() if k not in apart)
        plain = facts.load_years(uow, ids, years)
        assert all(f.last_demand is None for f in plain.values())
        assert {k: f.installments for k, f in plain.items()} == \
            {k: f.installments for k, f in folded.items()}
