"""The roll's review page (J8) and an amendment's differences per parcel (R-A5), on a small
roll with known numbers: the total to assess $1,000.00, the Board's $100.00 on one parcel and
$900.00 shared by 10 benefit units (90, 180, 270, 360), three parcels exempt (R-A2) for two
reasons; then an amendment to $1,100.00 with the fixed amount cut to $50.00: four parcels
up, one down."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from decimal import Decimal

import pytest
from flask import Flask
from sqlalchemy import select

from portal.accounts.errors import NotFound
from portal.core import roll_review as core
from portal.db import Database, UnitOfWork
from portal.demo.district import STAFF_TOTP_SECRET
from portal.models import AssessmentRoll, Parcel, RollLine, RollReviewFigures
from portal.people import two_factor, users
from portal.roll import budgets, review, roll
from portal.roll.budgets import FixedInput, LineInput
from portal.web.data import database
from tests.support.clock import TODAY
from tests.support.pages import PASSWORD, login
from tests.support.sql import QueryCounter

ADMIN, READER = "admin@review.pr", "reader@review.pr"
#: catastro: (owner kind, transferred, units, incentives-exempt)
PARCELS = {
    "100-000-000-01": ("private", False, "1", False),
    "100-000-000-02": ("private", False, "2", False),
    "100-000-000-03": ("private", False, "3", True),  # still assessed (R-A2)
    "100-000-000-04": ("private", False, "4", False),  # the Board's fixed amount
    "100-000-000-05": ("authority", False, "5", False),  # exempt
    "100-000-000-06": ("authority", True, "4", False),  # transferred: assessed
    "100-000-000-07": ("public", False, "1", False),  # exempt
    "100-000-000-08": ("public", False, "0", False),  # exempt
}
FY = date(2026, 7, 1)


def _line(total: str) -> list[LineInput]:
    return [LineInput("project", "Paseo", "Promenade", Decimal(total), Decimal(total))]


def build(w: UnitOfWork) -> tuple[object, int]:
    """The staff, the parcels and version 1 adopted and computed: (admin, roll id)."""
    s = w.session
    admin = None
    for email, role in ((ADMIN, "administrator"), (READER, "read_only")):
        u = users.register(w, email, PASSWORD, "Staff", "es")
        u.email_confirmed_at = u.created_at
        u.is_staff, u.staff_role = True, role
        two_factor.enrol_with_secret(w, u, STAFF_TOTP_SECRET)
        admin = admin or u
    for catastro, (owner, transferred, units, incentive) in PARCELS.items():
        s.add(Parcel(catastro=catastro, address=f"Calle {catastro[-2:]}",
                     municipality="San Juan", owner_kind=owner, transferred=transferred,
                     benefit_units=Decimal(units), tax_incentive_exempt=incentive))
    s.flush()
    fy = budgets.ensure_fiscal_year(w, FY)
    v1 = budgets.draft(w, admin, fy, _line("1000.00"), reference="Res. 2026-1",
                       fixed=[FixedInput("100-000-000-04", Decimal("100.00"), "Acuerdo")])
    budgets.adopt(w, admin, v1.id, TODAY, late=True)  # after the year began
    return admin, roll.compute(w, admin, v1.id).id


def amend(w: UnitOfWork, admin: object, total: str = "1100.00") -> int:
    """The next version (by default $1,100.00; the fixed amount $50.00) adopted and
    computed: its roll's id."""
    fy = budgets.ensure_fiscal_year(w, FY)
    v2 = budgets.draft(w, admin, fy, _line(total), reference="Res. 2026-2",
                       effective_on=TODAY,
                       fixed=[FixedInput("100-000-000-04", Decimal("50.00"), "Acuerdo")])
    budgets.adopt(w, admin, v2.id, TODAY)
    return roll.compute(w, admin, v2.id).id


def check_first_roll(w: UnitOfWork, admin: object, roll_id: int) -> None:
    v = review.review(w, admin, roll_id)
    assert (v.lines, v.assessed, v.exempt, v.fixed) == (8, 5, 3, 1) and v.complete
    assert v.total_assessed == v.total_to_assess == Decimal("1000.00") and v.balanced
    assert v.reasons == [("public", 2), ("authority", 1)]
    assert [(t.catastro[-2:], t.amount) for t in v.top] == [
        ("06", Decimal("360.00")), ("03", Decimal("270.00")), ("02", Decimal("180.00")),
        ("04", Decimal("100.00")), ("01", Decimal("90.00"))]
    assert [(f.catastro, f.amount, f.line_amount) for f in v.fixed_amounts] == [
        ("100-000-000-04", Decimal("100.00"), Decimal("100.00"))]
    # $25 bins from $75 to $375: 90, 100, 180, 270 and 360 each in its own
    assert (v.bins[0].low, v.bins[-1].high, len(v.bins)) == (Decimal("75.00"),
                                                             Decimal("375.00"), 12)
    assert sum(b.count for b in v.bins) == v.assessed
    assert [k for k, b in enumerate(v.bins) if b.count] == [0, 1, 4, 7, 11]
    assert not v.amendment and review.differences(w, admin, roll_id) is None
    exempt = review.exempt_page(w, admin, roll_id, limit=2, offset=0)
    assert [(e.catastro[-2:], e.reason) for e in exempt] == [("05", "authority"),
                                                            ("07", "public")]
    assert [e.catastro[-2:] for e in review.exempt_page(w, admin, roll_id, limit=2,
                                                            offset=2)] == ["08"]


EXPECTED_CHANGES = [("06", "360.00", "420.00", "60.00"), ("04", "100.00", "50.00", "-50.00"),
                    ("03", "270.00", "315.00", "45.00"), ("02", "180.00", "210.00", "30.00"),
                    ("01", "90.00", "105.00", "15.00")]


def check_amendment(w: UnitOfWork, admin: object, roll_id: int) -> None:
    v = review.review(w, admin, roll_id)
    assert v.amendment and v.balanced and v.total_assessed == Decimal("1100.00")
    d = review.differences(w, admin, roll_id)
    assert (d.changed, d.increased, d.decreased) == (5, 4, 1)
    assert (d.increases, d.decreases, d.net) == (Decimal("150.00"), Decimal("50.00"),
                                                 Decimal("100.00"))
    assert d.why.parts == (("budget", Decimal("100.00")),) and d.why.explained
    rows = review.differences_page(w, admin, roll_id, limit=50, offset=0)
    assert [(r.catastro[-2:], str(r.old), str(r.new), str(r.change)) for r in rows] \
        == EXPECTED_CHANGES
    assert list(review.all_differences(w, admin, roll_id)) == rows
    assert review.differences_page(w, admin, roll_id, limit=2, offset=1) == rows[1:3]


def check_third(w: UnitOfWork, admin: object, roll_id: int) -> None:
    """Version 3 ($1,200.00) against version 2's amounts, not version 1's (which 2
    superseded): $1,150.00 by units, 115, 230, 345, 460; the fixed $50.00 unchanged."""
    rows = review.differences_page(w, admin, roll_id, limit=50, offset=0)
    assert [(r.catastro[-2:], str(r.old), str(r.change)) for r in rows] == [
        ("06", "420.00", "40.00"), ("03", "315.00", "30.00"), ("02", "210.00", "20.00"),
        ("01", "105.00", "10.00")]
    d = review.differences(w, admin, roll_id)
    assert (d.changed, d.increases, d.decreases) == (4, Decimal("100.00"), Decimal(0))


@pytest.fixture
def world(app: Flask):  # noqa: ANN201
    with app.app_context(), UnitOfWork(database()) as w:
        admin, roll_id = build(w)
    return app, roll_id


def _amend(app: Flask) -> int:
    with app.app_context(), UnitOfWork(database()) as w:
        return amend(w, users.find_by_email(w, ADMIN))


def test_the_figures_of_a_small_roll(world):
    app, roll_id = world
    with app.app_context(), UnitOfWork(database()) as w:
        check_first_roll(w, users.find_by_email(w, ADMIN), roll_id)


def test_an_amendments_differences_before_and_after_publication(world):
    app, first = world
    with app.app_context(), UnitOfWork(database()) as w:
        admin = users.find_by_email(w, ADMIN)
        roll.publish(w, admin, first)
    second = _amend(app)
    with app.app_context(), UnitOfWork(database()) as w:
        admin = users.find_by_email(w, ADMIN)
        check_amendment(w, admin, second)
        roll.publish(w, admin, second)
    with app.app_context(), UnitOfWork(database()) as w:  # the same once published
        check_amendment(w, users.find_by_email(w, ADMIN), second)
        third = amend(w, users.find_by_email(w, ADMIN), "1200.00")
    with app.app_context(), UnitOfWork(database()) as w:
        check_third(w, users.find_by_email(w, ADMIN), third)


def test_the_review_page_in_both_languages(world):
    app, roll_id = world
    client = login(app, ADMIN)
    html = client.get(f"/personal/tasacion/{roll_id}/revision").get_data(as_text=True)
    assert "Revisión del registro 2026-2027, versión 1" in html
    assert "suman el total a imponer del presupuesto, al centavo" in html
    assert html.count("$1,000.00") >= 2  # the sum of the shares and the total to assess
    assert "Terreno de la Autoridad" in html and "Terreno de otro dueño público" in html
    assert re.search(r'<svg role="img" aria-labelledby="hist-title hist-desc"', html)
    assert html.count("<rect ") == 12 and "$75–$100" in html and "$350–$375" in html
    assert "Publicar el registro" in html  # a link to the roll's page, for an administrator
    en = client.get(f"/personal/tasacion/{roll_id}/revision?lang=en").get_data(as_text=True)
    assert "The shares add up to the budget's total to assess, to the cent" in en
    assert "Land of the Authority, not sold" in en and "The ten largest shares" in en
    assert "$75.00 to less than $100.00" in en and "$350.00 to $375.00" in en
    roll_page = client.get("/personal/tasacion?lang=en").get_data(as_text=True)
    assert f"/personal/tasacion/{roll_id}/revision" in roll_page


def test_the_differences_pages_and_their_csv(world):
    app, first = world
    with app.app_context(), UnitOfWork(database()) as w:
        roll.publish(w, users.find_by_email(w, ADMIN), first)
    second = _amend(app)
    client = login(app, READER)
    page = client.get(f"/personal/tasacion/{second}/revision?lang=en").get_data(as_text=True)
    assert "Parcels whose amount changes" in page and "+$150.00" in page
    assert "Publish the roll" not in page  # read-only staff: no publishing
    html = client.get(f"/personal/tasacion/{second}/diferencias?lang=en").get_data(
        as_text=True)
    found = re.findall(r">(100-000-000-0\d)</a>", html)
    assert [c[-2:] for c in found] == [c for c, *_ in EXPECTED_CHANGES]
    assert "-$50.00" in html and "+$60.00" in html
    r = client.get(f"/personal/tasacion/{second}/diferencias.csv?lang=en")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    assert 'filename="roll-differences-' in r.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(r.get_data(as_text=True).lstrip("\ufeff"))))
    assert rows[0] == ["Catastro number", "Previous amount", "New amount", "Increase",
                       "Decrease"]
    assert rows[1] == ["100-000-000-06", "360.00", "420.00", "60.00", ""]
    assert rows[2] == ["100-000-000-04", "100.00", "50.00", "", "50.00"]
    # a roll that amends nothing has no differences
    assert client.get(f"/personal/tasacion/{first}/diferencias").status_code == 404
    assert client.get(f"/personal/tasacion/{first}/diferencias.csv").status_code == 404


def test_roles_and_a_roll_that_does_not_exist(world):
    app, roll_id = world
    for path in (f"/personal/tasacion/{roll_id}/revision", "/personal/tasacion/999/revision",
                 "/personal/tasacion/999/diferencias", "/personal/tasacion/999/diferencias.csv"):
        assert app.test_client().get(path).status_code == 302  # sign in first
    reader = login(app, READER)
    assert reader.get(f"/personal/tasacion/{roll_id}/revision").status_code == 200
    for path in ("/personal/tasacion/999/revision", "/personal/tasacion/999/diferencias",
                 "/personal/tasacion/999/diferencias.csv",
                 f"/personal/tasacion/{roll_id}/revision?pagina=9",
                 f"/personal/tasacion/{roll_id}/revision?pagina=-1"):
        assert reader.get(path).status_code == 404, path
    with app.app_context(), UnitOfWork(database()) as w:
        owner = users.register(w, "owner@review.pr", PASSWORD, "Ana", "es")
        owner.email_confirmed_at = owner.created_at
        with pytest.raises(NotFound):
            review.review(w, users.find_by_email(w, ADMIN), 999)
    assert login(app, "owner@review.pr").get(
        f"/personal/tasacion/{roll_id}/revision").status_code == 404


# --- the figures kept with the roll -----------------------------------------------------------

def kept(w: UnitOfWork, roll_id: int) -> dict | None:
    """The roll's kept review figures as stored (None: none kept)."""
    row = w.session.get(RollReviewFigures, roll_id, populate_existing=True)
    return None if row is None else {c.key: getattr(row, c.key)
                                     for c in RollReviewFigures.__table__.columns}


def check_kept_is_live(w: UnitOfWork, roll_id: int) -> dict:
    """The kept figures are what the aggregates over the roll's lines measure now: dropped,
    then measured again and kept (`review.keep`), they are the same."""
    before = kept(w, roll_id)
    assert before is not None
    review.forget(w, roll_id)
    assert kept(w, roll_id) is None
    measured = review.keep(w, roll_id)
    assert {"roll_id": roll_id, **measured} == before == kept(w, roll_id)
    return before


def test_a_computed_roll_keeps_its_figures_without_a_view(world):
    app, roll_id = world
    with app.app_context(), UnitOfWork(database()) as w:
        k = check_kept_is_live(w, roll_id)
    assert (k["lines"], k["exempt"], k["total_assessed"]) == (8, 3, Decimal("1000.00"))
    assert (k["low"], k["high"], sum(k["bins"])) == (Decimal("90.00"), Decimal("360.00"), 5)
    assert k["reasons"] == [["public", 2], ["authority", 1]]
    assert [t[1][-2:] for t in k["top"]] == ["06", "03", "02", "04", "01"]
    assert k["top"][0][2:] == [36000, "4.0000"]  # cents and units: exact
    assert k["amends"] is False and k["changed"] is None


def test_the_kept_figures_of_an_amendment_before_and_after_publication(world):
    app, first = world
    with app.app_context(), UnitOfWork(database()) as w:
        roll.publish(w, users.find_by_email(w, ADMIN), first)
    second = _amend(app)
    with app.app_context(), UnitOfWork(database()) as w:
        k = check_kept_is_live(w, second)
        assert (k["amends"], k["changed"], k["increased"], k["decreased"]) == (True, 5, 4, 1)
        assert (k["increases"], k["decreases"]) == (Decimal("150.00"), Decimal("50.00"))
        check_amendment(w, users.find_by_email(w, ADMIN), second)
        roll.publish(w, users.find_by_email(w, ADMIN), second)
    with app.app_context(), UnitOfWork(database()) as w:
        after = check_kept_is_live(w, second)  # kept again by the publication: the same
        assert {c: v for c, v in after.items() if c != "seen"} == {
            c: v for c, v in k.items() if c != "seen"} and after["seen"] > k["seen"]


def _statements(client, url: str) -> list[str]:
    with QueryCounter(database().engine) as q:
        assert client.get(url).status_code == 200
    return q.statements


AGGREGATES = re.compile(r"\b(count|sum|min|max)\(|GROUP BY", re.IGNORECASE)


def test_a_roll_without_kept_figures_gets_them_on_its_first_view(world):
    """As a roll computed before the figures were kept: its first view measures them (in a
    transaction of its own) and keeps them; the next reads them, with no aggregate."""
    app, roll_id = world
    with app.app_context(), UnitOfWork(database()) as w:
        before = kept(w, roll_id)
        review.forget(w, roll_id)
    client = login(app, READER)
    url = f"/personal/tasacion/{roll_id}/revision"
    with app.app_context():
        first = _statements(client, url)
        with UnitOfWork(database()) as w:
            assert kept(w, roll_id) == before
        second = _statements(client, url)
    assert any(AGGREGATES.search(s) for s in first)
    aggregates = [s for s in second if AGGREGATES.search(s)]
    # only the greatest assessment id (an index's end), in the roll's one read
    assert len(aggregates) == 1 and "max(assessments.id)" in aggregates[0].lower()
    assert len(second) <= len(first) - 6


def test_a_roll_still_being_computed_keeps_nothing(world):
    """A computation stopped midway (fewer lines than its counts): the view measures what
    is there and keeps nothing."""
    app, roll_id = world
    with app.app_context(), UnitOfWork(database()) as w:
        review.forget(w, roll_id)
        w.session.execute(RollLine.__table__.delete().where(
            RollLine.roll_id == roll_id, RollLine.amount == Decimal("360.00")))
    with app.app_context(), UnitOfWork(database()) as w:
        v = review.review(w, users.find_by_email(w, ADMIN), roll_id)
        assert (v.lines, v.complete, v.total_assessed) == (7, False, Decimal("640.00"))
        assert kept(w, roll_id) is None


def test_changed_parcel_facts_and_a_new_computation_are_seen(world):
    """A parcel exempt in the roll whose facts now say it is assessed is counted as changed
    (R-A2) once the import says parcels changed; computing again keeps the new lines'."""
    app, roll_id = world
    with app.app_context(), UnitOfWork(database()) as w:
        admin = users.find_by_email(w, ADMIN)
        sold = w.session.scalar(select(Parcel).where(Parcel.catastro == "100-000-000-05"))
        sold.owner_kind = "private"
        w.session.flush()
        review.parcels_changed(w)
    with app.app_context(), UnitOfWork(database()) as w:
        admin = users.find_by_email(w, ADMIN)
        v = review.review(w, admin, roll_id)
        assert v.reasons == [("public", 2), ("changed", 1)]
        assert kept(w, roll_id)["reasons"] == [["public", 2], ["changed", 1]]
        assert (v.lines, v.exempt) == (8, 3)  # the lines are the roll's as computed
        roll.compute(w, admin, v.version.id)
    with app.app_context(), UnitOfWork(database()) as w:
        k = check_kept_is_live(w, roll_id)
        assert (k["lines"], k["exempt"], k["reasons"]) == (8, 2, [["public", 2]])


@contextmanager
def on_postgresql() -> Iterator[tuple[Database, int]]:
    """(database, the first roll's id): the known-number roll built on a throwaway
    PostgreSQL database (a visible skip without a server), on the tests' day."""
    from portal import clock
    from tests.support.schema import migrated_postgresql
    with migrated_postgresql() as url, clock.fixed(TODAY):
        db = Database(url)
        try:
            with UnitOfWork(db) as w:
                _admin, first = build(w)
            yield db, first
        finally:
            db.dispose()


def test_the_same_figures_on_postgresql():
    with on_postgresql() as (db, first):
        with UnitOfWork(db) as w:
            admin = users.find_by_email(w, ADMIN)
            check_first_roll(w, admin, first)
            check_kept_is_live(w, first)
            roll.publish(w, admin, first)
        with UnitOfWork(db) as w:
            second = amend(w, users.find_by_email(w, ADMIN))
        with UnitOfWork(db) as w:
            check_kept_is_live(w, second)
        _views_at_once(db, second)
        with UnitOfWork(db) as w:
            check_amendment(w, users.find_by_email(w, ADMIN), second)
            assert w.session.scalar(select(AssessmentRoll.status).where(
                AssessmentRoll.id == second)) == "computed"
            roll.publish(w, users.find_by_email(w, ADMIN), second)
        with UnitOfWork(db) as w:
            third = amend(w, users.find_by_email(w, ADMIN), "1200.00")
        with UnitOfWork(db) as w:
            check_third(w, users.find_by_email(w, ADMIN), third)


def test_a_view_in_a_transaction_holding_the_kept_row_does_not_wait_for_itself(monkeypatch):
    """A caller's transaction that holds the kept row (it dropped the reasons) and then reads
    the review: the view's own transaction cannot write the row until the caller's ends, so
    after `LOCK_WAIT_MS` it measures the figures in the caller's transaction, keeping none;
    the next view keeps them."""
    monkeypatch.setattr(review, "LOCK_WAIT_MS", 200)
    stored, keep = [], review.keep

    def spy(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        stored.append(kwargs.get("store", True))
        return keep(*args, **kwargs)

    monkeypatch.setattr(review, "keep", spy)
    with on_postgresql() as (db, first):
        with UnitOfWork(db) as w:
            review.parcels_changed(w)
            stored.clear()
            v = review.review(w, users.find_by_email(w, ADMIN), first)
            assert v.reasons == [("public", 2), ("authority", 1)]
            assert stored == [True, False]  # its own transaction gave up, then measured
        with UnitOfWork(db) as w:
            assert kept(w, first)["reasons"] is None
            review.review(w, users.find_by_email(w, ADMIN), first)
        with UnitOfWork(db) as w:
            assert kept(w, first)["reasons"] == [["public", 2], ["authority", 1]]


def test_an_import_dropping_the_reasons_while_a_view_measures_them_is_not_lost(monkeypatch):
    """READ COMMITTED: a view measures the exempt lines' reasons (`keep`, its own
    transaction); an import then changes a parcel's owner kind and drops the reasons
    (`parcels_changed`) before the view keeps what it measured. The import waits for the
    view's lock on the kept row, so its drop comes after: the next view measures again and
    counts the parcel as changed (R-A2), never keeping the reasons from before the import."""
    import threading
    import time

    from sqlalchemy import text
    measure = review._reasons
    with on_postgresql() as (db, first):
        with UnitOfWork(db) as w:
            review.parcels_changed(w)

        def sold() -> None:  # the import: a parcel's facts, then the rolls' reasons dropped
            with UnitOfWork(db) as w:
                w.session.execute(text("UPDATE parcels SET owner_kind = 'private' "
                                       "WHERE catastro = '100-000-000-05'"))
                review.parcels_changed(w)

        waited = []

        def spy(uow, roll_id):  # noqa: ANN001, ANN202
            found = measure(uow, roll_id)  # measured before the import commits
            t = threading.Thread(target=sold)
            t.start()
            with UnitOfWork(db) as w:  # until it waits on a lock or it is done
                while t.is_alive() and not waited:
                    if w.session.scalar(text(
                            "SELECT count(*) FROM pg_stat_activity WHERE datname = "
                            "current_database() AND wait_event_type = 'Lock'")):
                        waited.append(True)
                    w.session.rollback()
                    time.sleep(0.01)
            threads.append(t)
            return found

        threads: list[threading.Thread] = []
        monkeypatch.setattr(review, "_reasons", spy)
        with UnitOfWork(db) as w:
            v = review.review(w, users.find_by_email(w, ADMIN), first)
        assert v.reasons == [("public", 2), ("authority", 1)]  # as before the import
        for t in threads:
            t.join()
        assert waited == [True]  # the import waited for the view
        monkeypatch.setattr(review, "_reasons", measure)
        with UnitOfWork(db) as w:
            assert kept(w, first)["reasons"] is None  # dropped after the view kept them
            v = review.review(w, users.find_by_email(w, ADMIN), first)
        assert v.reasons == [("public", 2), ("changed", 1)]


def _views_at_once(db: Database, roll_id: int) -> None:
    """Four views of a roll without kept figures at once: each measures them, all write the
    same row (an upsert), none fails."""
    from concurrent.futures import ThreadPoolExecutor
    with UnitOfWork(db) as w:
        before = kept(w, roll_id)
        review.forget(w, roll_id)

    def view(_n: int) -> Decimal:
        with UnitOfWork(db) as w:
            return review.review(w, users.find_by_email(w, ADMIN), roll_id).total_assessed

    with ThreadPoolExecutor(4) as pool:
        assert set(pool.map(view, range(4))) == {before["total_assessed"]}
    with UnitOfWork(db) as w:
        assert kept(w, roll_id) == before


# --- the pure helpers (portal/core/roll_review.py) -------------------------------------------

def test_exemption_reasons_agree_with_the_rule():
    assert core.exemption_reason("private", False) is None
    assert core.exemption_reason("authority", True) is None
    assert core.exemption_reason("public", True) is None
    assert core.exemption_reason("authority", False) == "authority"
    assert core.exemption_reason("public", False) == "public"


@pytest.mark.parametrize(("low", "high", "edges"), [
    (9000, 36000, list(range(7500, 37501, 2500))),
    (0, 100, list(range(0, 101, 10))),
    (12345, 12345, [12345, 12345]),
    (1, 2, [1, 2]),
    (0, 120_000_000, list(range(0, 120_000_001, 10_000_000))),
    (0, 120_000_001, list(range(0, 140_000_001, 20_000_000))),
])
def test_bins_have_round_edges(low, high, edges):
    assert core.bin_edges(low, high) == edges


@pytest.mark.parametrize("seed", range(20))
def test_every_amount_falls_in_one_bin_of_at_most_twelve(seed):
    import random
    rnd = random.Random(seed)
    amounts = [rnd.randrange(0, 10 ** rnd.randrange(1, 10)) for _ in range(200)]
    edges = core.bin_edges(min(amounts), max(amounts))
    assert 2 <= len(edges) <= 13 and edges[0] <= min(amounts) and edges[-1] >= max(amounts)
    widths = {b - a for a, b in zip(edges, edges[1:])}
    assert len(widths) <= 1
    counts = [0] * (len(edges) - 1)
    for a in amounts:
        k = core.bin_index(a, edges)
        assert edges[k] <= a and (a < edges[k + 1] or k == len(counts) - 1)
        counts[k] += 1
    assert sum(counts) == len(amounts)


def test_the_chart_geometry():
    c = core.chart(list(range(0, 1201, 100)), [0, 1, 2, 4, 8, 4, 2, 1, 0, 0, 1, 5])
    longest = c.width - core.LABELS - core.COUNTS
    assert [b.width for b in c.bars][:5] == [0, longest // 8, longest // 4, longest // 2,
                                             longest]
    assert all(b.x == c.axis_x and b.count_x > b.x + b.width for b in c.bars)
    assert all(b.count_x + len(f"{b.count:,}") * 9 <= c.width for b in c.bars)
    assert all(a.y + a.height < b.y for a, b in zip(c.bars, c.bars[1:]))  # rows apart
    assert c.label_x < c.axis_x and c.bars[-1].y + c.bars[-1].height <= c.bottom < c.height
    one = core.chart([500, 500], [7])
    assert len(one.bars) == 1 and one.bars[0].width == longest
    tiny = core.chart([0, 10, 20], [1_500_000, 1])
    assert tiny.bars[1].width == 1  # a bin with a parcel is never invisible
    with pytest.raises(ValueError):
        core.chart([0, 10], [1, 2])


def test_the_net_change_is_the_budgets_change_and_its_parts(world):
    """R-A5: Authority land exempt in the published roll (05) is sold and assessed $80.00
    outside it; the amendment (+$100.00) then shares $1,100.00 with it too, so the net change
    is +$20.00: the budget's +$100.00 less the $80.00 already charged outside the roll. The
    parts add up to the net change exactly and the page names them in both languages."""
    from portal.models import Assessment  # noqa: PLC0415 - only this test writes one
    app, first = world
    with app.app_context(), UnitOfWork(database()) as w:
        admin = users.find_by_email(w, ADMIN)
        roll.publish(w, admin, first)
        sold = w.session.scalar(select(Parcel).where(Parcel.catastro == "100-000-000-05"))
        sold.owner_kind = "private"
        r1 = w.session.get(AssessmentRoll, first)
        w.session.add(Assessment(parcel_id=sold.id, fiscal_year_id=r1.fiscal_year_id,
                                 budget_version_id=r1.budget_version_id, roll_id=first,
                                 annual_amount=Decimal("80.00"), benefit_units=Decimal("5"),
                                 payer="owner", notified_on=TODAY, credit=Decimal("0.00")))
    second = _amend(app)
    with app.app_context(), UnitOfWork(database()) as w:
        d = review.differences(w, users.find_by_email(w, ADMIN), second)
    assert d.net == Decimal("20.00") and d.why.net == d.net and d.why.explained
    assert dict(d.why.parts) == {"budget": Decimal("100.00"), "outside_roll": Decimal("-80.00")}
    assert sum(a for _, a in d.why.parts) == d.net
    client = login(app, READER)
    for lang, words in (("es", "Por qué el cambio neto"), ("en", "Why the net change")):
        html = client.get(f"/personal/tasacion/{second}/revision?lang={lang}").get_data(
            as_text=True)
        assert words in html
        shown = dict(re.findall(r'data-part="(\w+)" data-amount="(-?[\d.]+)"', html))
        assert shown == {"budget": "100.00", "outside_roll": "-80.00"}
        assert "+$100.00" in html and "-$80.00" in html and "+$20.00" in html


@pytest.mark.parametrize("figures", [
    dict(total_before="1000.00", total_after="1100.00", assessed_after="1099.99",
         earlier="1080.01", outside_roll="80.00", removed="12.34"),
    dict(total_before="1000.00", total_after="900.00", assessed_after="900.00",
         earlier="1000.00", outside_roll="0.00", removed="0.00")])
def test_the_net_changes_parts_add_up_to_it(figures):
    n = core.net_change(**{k: Decimal(v) for k, v in figures.items()})
    assert n.explained and n.parts[0][0] == "budget"
    assert sum(a for _, a in n.parts) == n.net == (Decimal(figures["assessed_after"])
                                                   - Decimal(figures["earlier"])
                                                   + Decimal(figures["removed"]))
    assert all(a != 0 for c, a in n.parts if c != "budget")
