"""The demo District loaded on any day shows its journeys on that day: its dates are placed
from the day it is loaded (portal.demo.district.Days), so on a day of December, of March, of
June and of August (the next fiscal year, whose Board values the demo records as staff do)
the owner's dashboard offers the lump sum of the parcel bought lately and an installment, the
lessee's parcel page answers with a demand in its 15-day window, and the staff's court list
has the shop whose demand's 15 days are over; the residential exemption can be started on the
home while the CRIM's values of the year are on file, and says why not once they are not."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from portal import clock
from portal.db import Database, reset_databases
from portal.demo import district
from tests.support.app import make_app
from tests.support.demo import home_parcel
from tests.support.pages import login, main_text
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
    _exemption(app, owner, day)


#: The last fiscal year the parameter files hold the CRIM's values for (exemption.toml).
CRIM_THROUGH = date(2026, 7, 1)


def _exemption(app, owner, day: date) -> None:  # noqa: ANN001
    """J5 on the home: a year whose CRIM values are on file offers the certification; a later
    one (the demo loaded after June 2027) says, in both languages, that the CRIM has not
    adopted the year's values yet, on the parcel page (the exemption's box and what the bank
    pays the CRIM) and on the start page, and offers no start (never the "valuation" or the
    "facts not on file" of a parcel the CRIM has no row for)."""
    pid = home_parcel(app)
    fy = date(day.year if day.month >= 7 else day.year - 1, 7, 1)
    label = f"{fy.year}-{fy.year + 1}"
    said = {"en": f"The CRIM has not yet adopted its values for fiscal year {label}",
            "es": f"El CRIM todavía no ha adoptado sus valores para el año fiscal {label}"}
    for lang in ("es", "en"):
        start = main_text(owner.get(f"/propiedad/{pid}/exoneracion?lang={lang}")
                          .get_data(as_text=True))
        box = main_text(owner.get(f"/propiedad/{pid}?lang={lang}").get_data(as_text=True))
        offered = ("Start the certification" if lang == "en" else "Comenzar la certificación")
        assert "valuation of this parcel" not in start and "valoración del CRIM" not in start
        if fy <= CRIM_THROUGH:
            assert offered in start and said[lang] not in start, (day, lang, start)
            assert said[lang] not in box, (day, lang)
        else:
            assert offered not in start and said[lang] in start, (day, lang, start)
            assert said[lang] in box, (day, lang, box)
        # What the bank pays the CRIM: figures of a covered year; else why there are none.
        pays = {"en": f"the CRIM has not yet adopted its values for fiscal year {label}",
                "es": f"el CRIM todavía no ha adoptado sus valores para el año fiscal {label}"}
        assert "facts for this year are not on file" not in box
        assert "datos del CRIM de este año no están" not in box
        assert (pays[lang] in box) == (fy > CRIM_THROUGH), (day, lang)
