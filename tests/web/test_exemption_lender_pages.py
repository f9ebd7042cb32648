"""The lender's list of certifications (R-B9) goes page by page: each page reads only its
rows with the count of all of them, and a page past the end is 404."""

from __future__ import annotations

from portal.db import UnitOfWork
from tests.support.demo import filed_exemption, parcel_ids
from tests.support.pages import login


def test_the_lenders_certifications_page_by_page(demo_app):
    from portal.exemptions import filings
    from portal.people import users
    from portal.web.data import database
    owner_parcels = set(parcel_ids(demo_app)["owner"])
    [lent, *_] = sorted(owner_parcels & set(parcel_ids(demo_app)["lender"]))
    cert_id = filed_exemption(demo_app, lent)
    with demo_app.app_context(), UnitOfWork(database()) as w:
        bank = users.find_by_email(w, "lender@demo.pr")
        rows, total = filings.lender_certifications(w, bank, offset=0, limit=1)
        assert total == 1 and [c.id for c, _, _ in rows] == [cert_id]
        rows, total = filings.lender_certifications(w, bank, offset=1, limit=1)
        assert total == 1 and rows == []
    lender = login(demo_app, "lender")
    html = lender.get("/prestamista/exoneraciones").get_data(as_text=True)
    assert "EXR-" in html
    assert lender.get("/prestamista/exoneraciones?pagina=2").status_code == 404
    assert lender.get("/prestamista/exoneraciones?pagina=99999999999").status_code == 404
