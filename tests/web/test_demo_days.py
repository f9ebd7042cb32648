"""The demo District loaded on any day shows its journeys on that day: its dates are placed
from the day it is loaded (portal.demo.district.Days), so on a day of December, of March, of
June and of August (the next fiscal year, whose Board values the demo records as staff do)
the owner's dashboard offers the lump sum of the parcel bought lately and an installment, the
lessee's parcel page answers with a demand in its 15-day window, and the staff's court list
has the shop whose demand's 15 days are over."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from portal import clock
from portal.db import Database, reset_databases
from portal.demo import district
from tests.support.app import make_app
from tests.support.pages import login
from tests.support.schema import copy_of

#: Early December, mid-March, the fiscal year's last month, and August of the next year.
DAYS = (date(2026, 12, 6), date(2027, 3, 15), date(2027, 6, 20), date(2027, 8, 20))
#: The featured parcels' catastro numbers (their order in `district._Builder.featured_specs`).
SHOP, LEASED, BOUGHT = "040-000-001-07", "040-000-003-21", "040-000-006-42"


def _cards(html: str) -> dict[str, str]:
    """{catastro: its dashboard card}."""
    out = {}
    for card in html.split("<li>")[1:]:
        found = re.search(r"\d{3}-\d{3}-\d{3}-\d{2}", card)
        if found:
            out[found.group(0)] = card.split("</li>", 1)[0]
    return out


def _figure(html: str, name: str) -> tuple[str, str] | None:
    """(amount, by) of the first element with data-figure=`name`, None without."""
    for tag in re.findall(rf'<[^>]*data-figure="{name}"[^>]*>', html):
        amount = re.search(r'data-amount="([^"]*)"', tag)
        by = re.search(r'data-by="([\d-]+)"', tag)
        return (amount.group(1) if amount else "", by.group(1) if by else "")
    return None


@pytest.mark.parametrize("day", DAYS, ids=[d.isoformat() for d in DAYS])
def test_the_demo_loaded_on_a_day_shows_its_journeys_that_day(day: date, tmp_path: Path,
                                                              schema_template: Path) -> None:
    path = copy_of(schema_template, tmp_path / "load", "demo.db")
    database = Database(f"sqlite:///{path}")
    with clock.fixed(day):
        district.load(database, parcels_n=district.MIN_PARCELS)
    database.dispose()
    with clock.fixed(day):
        app = make_app(tmp_path / "app", path)
        try:
            _journeys(app, day)
        finally:
            reset_databases()


def _journeys(app, day: date) -> None:  # noqa: ANN001
    owner = login(app, "owner")
    cards = _cards(owner.get("/mis-propiedades").get_data(as_text=True))
    assert BOUGHT in cards and SHOP in cards, sorted(cards)
    lump = _figure(cards[BOUGHT], "lump")  # J3: the lump sum still open
    assert lump is not None and date.fromisoformat(lump[1]) >= day, (day, cards[BOUGHT])
    nxt = _figure(cards[BOUGHT], "next")  # and the installments it would replace
    assert nxt is not None and date.fromisoformat(nxt[1]) >= day, day
    due = _figure(cards[SHOP], "due-now")  # the delinquent shop owes now, with its last day
    assert due is not None and float(due[0]) > 0 and due[1], day

    lessee = login(app, "lessee")
    cards = _cards(lessee.get("/mis-propiedades").get_data(as_text=True))
    assert LEASED in cards, sorted(cards)
    pid = re.search(r'data-parcel="(\d+)"', cards[LEASED]).group(1)
    page = lessee.get(f"/propiedad/{pid}").get_data(as_text=True)
    demand = _figure(page, "demand")  # J4: a demand in its 15-day window
    assert demand is not None and date.fromisoformat(demand[1]) >= day, (day, demand)

    staff = login(app, "staff")
    court = staff.get("/personal/cobros/tribunal").get_data(as_text=True)
    assert SHOP in court, day  # its 15 days over: on the court list
    assert LEASED not in court, day  # still in its window
