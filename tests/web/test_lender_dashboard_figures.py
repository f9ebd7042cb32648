"""The lender's dashboard reads its loans' rows from their kept figures (`loan_figures`, through
`portfolio.dashboard_loans`), which the core computed at a refresh: every figure a row shows
is what the core computes now for the parcel (`statements.dashboard`, each view), on a day of
the one-payment option (R-A11) and on days with several installments due; a fresh dashboard
computes no loan's figures; and after a payment or a charge on a loan's parcel the page shows
the core's new figures, never the ones kept from before (a cache kept by the day alone fails)."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest
from flask import Flask
from sqlalchemy import select

from portal import clock
from portal.accounts import facts, statements
from portal.models import LedgerEntry, Loan
from portal.people import users
from portal.web.accounts import views
from tests.support.clock import TODAY, at
from tests.support.demo import app_uow
from tests.support.html import vnu_errors, vnu_missing
from tests.support.pages import login


def _plain(row: views.Row) -> views.Row:
    """A row with its lump-sum option as (amount, discount, deadline): the core's option or
    the kept one, compared by what the page shows of it."""
    lump = row.lump
    return replace(row, lump=None if lump is None else (lump.amount, lump.discount,
                                                        lump.deadline))


def _shown(app: Flask, day: date) -> list[views.Row]:
    """The lender's dashboard rows on `day`, as the page builds them."""
    with clock.fixed(at(day, 10)), app.test_request_context("/?lang=es"):
        with app_uow(app) as w:
            user = users.find_by_email(w, "lender@demo.pr")
        rows, apart = views.dashboard_rows(user, day)
    assert apart == 0
    return [_plain(r) for r in rows]


def _core(app: Flask, day: date) -> list[views.Row]:
    """The same rows from the parcels' summaries the core computes now (every link and loan
    through `statements.dashboard`, as the dashboard read them before the figures were kept)."""
    with clock.fixed(at(day, 10)), app.test_request_context("/?lang=es"), app_uow(app) as w:
        user = users.find_by_email(w, "lender@demo.pr")
        memo: dict = {}
        return [_plain(views._row(s, day, memo)) for s in statements.dashboard(w, user, day)]


@pytest.mark.parametrize("day", [
    TODAY,
    date(2026, 6, 15),  # before the fiscal year: the one-payment option open on every loan
    date(2026, 10, 5),  # some loans with several installments due now
    date(2027, 2, 8),
])
def test_the_dashboards_figures_are_the_cores(demo_app: Flask, day: date):
    core = _core(demo_app, day)
    assert len(core) == 50 and {r.relation for r in core} == {"lender"}
    if day == date(2026, 6, 15):
        assert all(r.lump is not None for r in core)
    if day == date(2026, 10, 5):
        assert any(r.due_count > 1 for r in core)
    assert _shown(demo_app, day) == core  # computed and kept on the first view
    assert _shown(demo_app, day) == core  # read from what was kept


def test_a_fresh_dashboard_computes_no_loans_figures(demo_app: Flask, monkeypatch):
    """Once kept, the figures are read: the core's offer is not asked again on a view."""
    kept = _shown(demo_app, TODAY)

    def no_offer(*_a, **_k):  # noqa: ANN002, ANN003, ANN202
        raise AssertionError("a loan's figures computed on a view of fresh figures")
    monkeypatch.setattr(facts.AccountFacts, "offer", no_offer)
    assert _shown(demo_app, TODAY) == kept


# --- after a payment or a charge: the new figures ------------------------------------------

_ROW = re.compile(r'data-parcel="(\d+)".*?data-figure="due-now" data-amount="([0-9.]+)"', re.S)


def _page(client, hour: int) -> dict[int, Decimal]:  # noqa: ANN001
    """{parcel id: what the lender's dashboard says is due now} at `hour` of the demo's day."""
    with clock.fixed(at(TODAY, hour)):
        r = client.get("/mis-propiedades")
    assert r.status_code == 200
    return {int(p): Decimal(a) for p, a in _ROW.findall(r.get_data(as_text=True))}


def _core_due(app: Flask, hour: int) -> dict[int, Decimal]:
    with clock.fixed(at(TODAY, hour)), app_uow(app) as w:
        user = users.find_by_email(w, "lender@demo.pr")
        return {s.parcel.id: s.due_now for s in statements.dashboard(w, user, TODAY)}


def _first_loan_parcel(app: Flask, due: dict[int, Decimal]) -> int:
    """The first loan's parcel with something due now."""
    with app_uow(app) as w:
        parcels = w.session.scalars(select(Loan.parcel_id).order_by(Loan.id)).all()
    return next(p for p in parcels if due.get(p, Decimal(0)) > 0)


def test_after_a_charge_the_dashboard_shows_the_new_figures(demo_app: Flask):
    client = login(demo_app, "lender")
    before = _page(client, 8)
    assert before == _core_due(demo_app, 8) and len(before) == 50
    parcel = _first_loan_parcel(demo_app, before)
    with clock.fixed(at(TODAY, 9)), app_uow(demo_app) as w:
        fy = w.session.scalar(select(LedgerEntry.fiscal_year_id).where(
            LedgerEntry.parcel_id == parcel).limit(1))
        w.session.add(LedgerEntry(parcel_id=parcel, fiscal_year_id=fy, kind="cost",
                                  direction="debit", amount=Decimal("12.34"), legal_date=TODAY,
                                  cost_kind="certified_mail", created_at=clock.now()))
    after = _page(client, 11)
    assert after == _core_due(demo_app, 11)
    assert after[parcel] == before[parcel] + Decimal("12.34")
    assert {p: d for p, d in after.items() if p != parcel} == \
        {p: d for p, d in before.items() if p != parcel}


def test_after_a_payment_the_dashboard_shows_the_new_figures(demo_app: Flask):
    from portal.payments import service
    client = login(demo_app, "lender")
    before = _page(client, 8)
    parcel = _first_loan_parcel(demo_app, before)
    with clock.fixed(at(TODAY, 9)), app_uow(demo_app) as w:
        fy = w.session.scalar(select(LedgerEntry.fiscal_year_id).where(
            LedgerEntry.parcel_id == parcel).limit(1))
        service.post_office_payment(w, users.find_by_email(w, "staff@demo.pr"), parcel, fy,
                                    before[parcel], "check", payer_name="Banco",
                                    reference="77")
    after = _page(client, 11)
    assert after == _core_due(demo_app, 11)
    assert before[parcel] > 0 and after[parcel] == 0


def test_a_lenders_own_parcel_keeps_its_relation_and_place(demo_app: Flask):
    """A parcel both linked to the lender's user (as its owner) and lent shows once, as the
    link's, among the loans in the order of catastro numbers (the database's)."""
    from portal.models import ParcelLink
    with app_uow(demo_app) as w:
        user = users.find_by_email(w, "lender@demo.pr")
        lent = w.session.scalars(select(Loan.parcel_id).order_by(Loan.id)).all()
        owner = users.find_by_email(w, "owner@demo.pr")
        own = w.session.scalars(select(ParcelLink.parcel_id).where(
            ParcelLink.user_id == owner.id, ParcelLink.role == "owner")).all()
        linked = {lent[3], *own[:2]}
        for pid in linked:
            w.session.add(ParcelLink(parcel_id=pid, user_id=user.id, role="owner",
                                     source="staff"))
    core = _core(demo_app, TODAY)
    assert len(core) == len(set(lent) | linked)
    assert [r.id for r in core if r.relation == "owner"] == sorted(
        linked, key=[r.id for r in core].index)
    assert len(linked) == 3 and core[0].relation == "owner" != core[-1].relation
    assert _shown(demo_app, TODAY) == core


# --- every deadline as the pages write one -------------------------------------------------

_TIME = re.compile(r'<time datetime="(\d{4}-\d\d-\d\d)">([^<]+)</time>( \([^)]*\))?')


@pytest.mark.skipif(vnu_missing() is not None, reason=vnu_missing() or "")
def test_every_deadline_is_the_pages_one_and_the_markup_valid(demo_app: Flask, tmp_path):
    """On a day of the one-payment option (R-A11) and a day with several installments due,
    for the lender and the owner in both languages: each date of a row is
    `fragments.deadline`'s (the <time> and its days left, never split by other markup: the
    lump sum's line keeps its deadline whole inside its <strong>), and the page is valid
    HTML under the Nu checker."""
    from portal import i18n
    from portal.web import fragments
    files = []
    for role in ("lender", "owner"):
        client = login(demo_app, role)
        for day in (date(2026, 6, 15), date(2026, 10, 5)):
            for lang in ("es", "en"):
                with clock.fixed(at(day, 10)):
                    html = client.get(f"/mis-propiedades?lang={lang}").get_data(as_text=True)
                    with demo_app.test_request_context(f"/?lang={lang}"):
                        seen = 0
                        for iso, _text, _left in _TIME.findall(html):
                            written = str(fragments.deadline(date.fromisoformat(iso), day,
                                                             i18n.formats()))
                            assert written in html, (role, day, lang, written)
                            seen += 1
                lumps = re.findall(r'<p class="margin-y-1 portal-lump".*', html)
                if day == date(2026, 6, 15):
                    assert lumps and seen
                for line in lumps:
                    assert re.search(r"</time> \([^)]+\)</strong>\.$", line), line
                f = tmp_path / f"{role}-{day}-{lang}.html"
                f.write_text(html, encoding="utf-8")
                files.append(f)
    assert vnu_errors(files) == []
