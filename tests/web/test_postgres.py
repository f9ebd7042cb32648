"""The portal on PostgreSQL (DATABASE_URL): migrated, the demo loaded, the pages of J1 and J4
served and explained. Skipped with the reason when the server is not reachable."""

from __future__ import annotations

import re

import pytest

from tests.support.app import demo_on_postgresql
from tests.support.pages import csrf_token, login


@pytest.mark.postgres
def test_pages_on_postgresql(tmp_path):
    with demo_on_postgresql(tmp_path) as (app, result):
        lessee = login(app, "lessee")
        html = lessee.get("/mis-propiedades").get_data(as_text=True)
        [pid] = {int(x) for x in re.findall(r'href="/propiedad/(\d+)"', html)}
        page = lessee.get(f"/propiedad/{pid}?lang=en").get_data(as_text=True)
        for words in ("Late fees", "Interest to date", "Certified mail", "R-A8",
                      "Pay-off amount", "good through"):
            assert words in page, words
        assert lessee.get(f"/propiedad/{pid}/estado-de-cuenta.pdf").data[:4] == b"%PDF"
        owner = login(app, "owner")
        html = owner.get("/mis-propiedades").get_data(as_text=True)
        pages = [owner.get(f"/propiedad/{p}?lang=en").get_data(as_text=True)
                 for p in sorted({int(x) for x in re.findall(r'href="/propiedad/(\d+)"', html)})]
        # The demo's home parcel's property-tax debts, read as JSON from PostgreSQL with the
        # account's boxes: the notice's figures and the auction's minimum (R-C1, R-C4).
        [debts] = [p for p in pages if 'id="attachment-debts"' in p]
        for words in ("Notice of attachment", "$3,662.65", "$35.00", "Auction 1",
                      "$185,000.00", "$3,970.19", "R-C4"):
            assert words in debts, words
        form = owner.get("/propiedad/reclamar").get_data(as_text=True)
        catastro, code, _ = result.codes[0]
        r = owner.post("/propiedad/reclamar", data={"csrf_token": csrf_token(form),
                                                    "catastro": catastro, "code": code})
        assert r.status_code == 303
        assert owner.get(r.headers["Location"]).status_code == 200
        assert owner.get(f"/propiedad/{pid}").status_code == 404

