"""The demo District: loads once (`--if-empty` makes a second run harmless) and holds the
journeys' accounts (J1, J4)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from portal import clock, db
from portal.accounts import access, ledger, parcels, statements
from portal.accounts.errors import Conflict
from portal.cli import main
from portal.core.money import cents
from portal.demo import district
from portal.models import AuditRecord, Lease, Parcel, User
from portal.people import users

MIN = district.MIN_PARCELS


def _count(database, model):
    with database.unit_of_work() as uow:
        return uow.session.scalar(select(func.count()).select_from(model))


def test_demo_loads_once_and_if_empty_skips(database):
    first = district.load(database, parcels_n=MIN, if_empty=True)
    assert first.loaded and first.parcels == MIN and len(first.codes) == 5
    counts = (_count(database, Parcel), _count(database, User), _count(database, AuditRecord))
    second = district.load(database, parcels_n=MIN, if_empty=True)
    assert not second.loaded
    assert (_count(database, Parcel), _count(database, User),
            _count(database, AuditRecord)) == counts
    with pytest.raises(Conflict) as err:
        district.load(database, parcels_n=MIN)
    assert err.value.code == "database_not_empty"


def test_demo_payments_are_numbered_without_gaps(database):
    """The demo's payments (bulk-inserted and featured) get receipt numbers from the year's
    one counter, as at each success: 2026-000001 to 2026-N, none missing, none twice, and in
    the order the payments were completed (the demo writes its history out of order)."""
    from portal.models import Payment, ReceiptSequence

    district.load(database, parcels_n=MIN)
    with database.unit_of_work() as uow:
        rows = uow.session.execute(select(Payment.receipt_number).where(
            Payment.status == "succeeded").order_by(Payment.completed_at, Payment.id)).all()
        numbers = [n for (n,) in rows]
        last = uow.session.get(ReceiptSequence, 2026).last
        assert numbers == [f"2026-{k:06d}" for k in range(1, last + 1)]
        assert len(numbers) > 100


def test_demo_accounts_for_the_journeys(database):
    result = district.load(database, parcels_n=MIN)
    with database.unit_of_work() as uow:
        owner = users.authenticate(uow, "owner@demo.pr", district.DEMO_PASSWORD)
        lessee = users.authenticate(uow, "lessee@demo.pr", district.DEMO_PASSWORD)
        lender = users.authenticate(uow, "lender@demo.pr", district.DEMO_PASSWORD)
        staff = users.authenticate(uow, "staff@demo.pr", district.DEMO_PASSWORD)
        assert owner and lessee and lender and staff and staff.is_staff and lender.is_lender
        rows = statements.dashboard(uow, owner)
        assert [r.status for r in rows] == ["current", "overdue", "current", "current"]
        shop = statements.statement_for(uow, owner, rows[1].parcel.id)
        st = shop.statement
        assert [i.status for i in st.installments[:5]] == \
            ["paid", "paid", "delinquent", "delinquent", "delinquent"]
        assert st.late_fees > 0 and st.interest > 0 and st.costs == district.CERTIFIED_MAIL
        assert shop.collection.stage == "claimable"
        lot = statements.statement_for(uow, owner, rows[2].parcel.id)
        assert lot.statement.discount > 0 and lot.statement.payoff == 0
        # J3 on the demo: Authority land bought in November, notified 2026-11-16 (R-A4: the
        # first installments fall due 2026-12-01), so R-A11's lump sum is still open.
        _lump_sum_open(uow, owner, rows[3].parcel.id)
        # J4: the lessee of the leased Authority parcel.
        (leased,) = statements.dashboard(uow, lessee)
        view = statements.statement_for(uow, lessee, leased.parcel.id)
        assert view.relation == "lessee" and view.payer == "lessee"
        assert view.parcel.owner_kind == "authority" and view.parcel.transferred
        assert view.statement.late_fees > 0 and view.statement.interest > 0
        assert view.statement.costs == district.CERTIFIED_MAIL
        assert view.collection.stage == "demand_window"
        assert view.collection.last_day == date(2026, 12, 2)
        assert view.payoff_amount >= view.statement.payoff > view.statement.total_due_now
        assert {"R-A7", "R-A8", "R-A9"} <= set(view.trace.rules)
        # The lender's 50 loans; staff see everything; the incentive-exempt hotel pays.
        assert statements.lender_portfolio(uow, lender).total == 50
        assert len(statements.lender_portfolio(uow, lender).summaries) == 50
        assert len(access.visible_parcels(uow, staff)) == MIN
        hotel = uow.session.scalar(select(Parcel).where(Parcel.tax_incentive_exempt.is_(True)))
        assert statements.statement_for(uow, staff, hotel.id).annual > 0
        assert uow.session.scalar(select(func.count()).select_from(Lease)) >= 2
        fy = statements.fiscal_years(uow)[0]
        assert fy.label == "2026-2027" and fy.starts_on == date(2026, 7, 1)
        version = shop.budget_version
        assert version.status == "adopted" and len(shop.budget_lines) >= 4
        # DESIGN.md 1 over every account of the demo.
        for p in access.visible_parcels(uow, staff):
            assert ledger.verify_allocations(uow, p.id, fy.id) == [], p.catastro
    # J1: a new person claims an unclaimed parcel with a printed code; the last printed one
    # is also Authority land sold in November, with its lump sum open (J1 then J3).
    with database.unit_of_work() as uow:
        newcomer = users.register(uow, "nuevo@ejemplo.pr", "una clave larga", "Nuevo")
        for catastro, code, _ in (result.codes[0], result.codes[-1]):
            parcels.claim(uow, newcomer, catastro, code)
    with database.unit_of_work() as uow:
        rows = {r.parcel.catastro: r for r in statements.dashboard(uow, newcomer)}
        assert set(rows) == {result.codes[0][0], result.codes[-1][0]}
        assert rows[result.codes[0][0]].annual > Decimal(0)
        _lump_sum_open(uow, newcomer, rows[result.codes[-1][0]].parcel.id)


def _lump_sum_open(uow, user, parcel_id):
    """A parcel notified 2026-11-16: as of the demo's today (2026-11-30) the payer is offered
    the whole year less the FY 2026-2027 discount (2 %), by the first installment's due date
    (R-A11's default deadline, from this parcel's own schedule)."""
    from portal.payments import service
    today = date(2026, 11, 30)
    with clock.fixed(today):
        view = statements.statement_for(uow, user, parcel_id)
        assert view.assessment.notified_on == date(2026, 11, 16)
        assert district.Days(today).late_notice == date(2026, 11, 16)
        assert view.parcel.owner_kind == "private"
        assert view.installments[0].due_date == date(2026, 12, 1)
        assert [i.due_date for i in view.installments[:6]] == [date(2026, 12, 1)] * 6
        assert view.statement.lump_sum_deadline == date(2026, 12, 1)
        assert view.statement.total_due_now == 0 and view.status == "current"
        rate = view.rules.lump_sum_discount_rate
        assert rate == Decimal("0.02")
        discount = cents(rate * view.annual)
        assert view.lump_sum.eligible and view.lump_sum.discount == discount
        assert view.lump_sum.amount == view.annual - discount
        (acct,) = service.payable_accounts(uow, user, today, parcel_id)
        lump = acct.offer.lump_sum
        assert lump.eligible and lump.deadline == date(2026, 12, 1)
        assert (lump.amount, lump.discount) == (view.annual - discount, discount)


def test_commands_migrate_and_load(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    db.reset_databases()
    runner = CliRunner()
    out = runner.invoke(main, ["db", "upgrade"])
    assert out.exit_code == 0, out.output
    assert db.current_revision(url) is not None
    out = runner.invoke(main, ["demo", "--if-empty", "--parcels", "40"])
    assert out.exit_code == 0, out.output
    assert "owner@demo.pr" in out.output and district.DEMO_PASSWORD in out.output
    out = runner.invoke(main, ["demo", "--if-empty", "--parcels", "40"])
    assert out.exit_code == 0 and "nothing loaded" in out.output
    out = runner.invoke(main, ["demo", "--parcels", "40"])
    assert out.exit_code == 1
    db.reset_databases()
    out = runner.invoke(main, ["db", "downgrade", "base"])
    assert out.exit_code == 0, out.output
    assert db.current_revision(url) is None
    db.reset_databases()
