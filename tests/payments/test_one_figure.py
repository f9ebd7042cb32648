"""One figure for each amount, on every account of the demo District: the parcel page, the
dashboard, the lender list and the pay page read the same offer (`portal.core.offer`), so
what a page quotes is what the pay page charges, on the demo's day and on other days; with a
fixed-date lump-sum deadline too."""

from __future__ import annotations

import shutil
from dataclasses import replace
from datetime import date

import pytest

from portal import clock
from portal.accounts import access, facts, statements
from portal.core.offer import Choice, price
from portal.db import Database, reset_databases
from portal.people.users import find_by_email

DAYS = (date(2026, 11, 30), date(2026, 12, 1), date(2026, 12, 11), date(2027, 2, 20))


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory, schema_template):
    from portal.demo import district
    path = tmp_path_factory.mktemp("one_figure") / "demo.db"
    shutil.copyfile(schema_template, path)
    database = Database(f"sqlite:///{path}")
    with clock.fixed(date(2026, 11, 30)):
        district.load(database, parcels_n=60)
    yield database
    database.dispose()
    reset_databases()


def _compare(uow, staff, parcels, on):
    from portal.payments import service
    offers = {a.parcel.id: a.offer for a in service.account_offers(
        uow, [(p, "staff") for p in parcels], on) if on <= a.fiscal_year.ends_on
        and a.fiscal_year.starts_on <= on}
    checked = 0
    for p in parcels:
        view = statements.statement_for(uow, staff, p.id, as_of=on, rows=True)
        if view.offer is None or p.id not in offers:
            continue
        page, pay = view.offer, offers[p.id]
        assert (page.due_now, page.payoff, page.arrears) == (pay.due_now, pay.payoff,
                                                             pay.arrears), p.catastro
        assert (page.payoff_through, page.payoff_through_amount) == (
            pay.payoff_through, pay.payoff_through_amount), p.catastro
        assert page.installments == pay.installments, p.catastro
        assert (page.lump_sum.eligible, page.lump_sum.amount, page.lump_sum.discount) == (
            pay.lump_sum.eligible, pay.lump_sum.amount, pay.lump_sum.discount), p.catastro
        if view.lump_sum is not None and view.lump_sum.eligible:
            part = price(pay, Choice(pay.account.key, "lump_sum"))
            assert part.amount == view.lump_sum.amount
            assert part.application.lump_sum == "granted"
        if pay.payoff > 0:
            part = price(pay, Choice(pay.account.key, "amount", amount=page.payoff))
            assert part.after.payoff == 0
        checked += 1
    return checked


@pytest.mark.parametrize("on", DAYS, ids=str)
def test_every_page_quotes_what_the_pay_page_charges(demo_db, on):
    with clock.fixed(on), demo_db.unit_of_work() as uow:
        staff = find_by_email(uow, "staff@demo.pr")
        parcels = access.visible_parcels(uow, staff)
        assert _compare(uow, staff, parcels, on) > 20


def test_with_a_fixed_lump_sum_deadline_the_quote_is_what_is_charged(demo_db, monkeypatch):
    """A deadline set to a date (the parameter allows it) after installments fell due: the
    parcel page's quote is what the pay page charges, and paying it earns the discount
    (R-A11; test_offer.py works such an account in cents)."""
    original = facts.rules_for

    def fixed_deadline(start, uow):
        return replace(original(start, uow), lump_sum_deadline=date(2026, 12, 15))

    monkeypatch.setattr(facts, "rules_for", fixed_deadline)
    on = date(2026, 11, 30)
    with clock.fixed(on), demo_db.unit_of_work() as uow:
        staff = find_by_email(uow, "staff@demo.pr")
        parcels = access.visible_parcels(uow, staff)
        assert _compare(uow, staff, parcels, on) > 20
