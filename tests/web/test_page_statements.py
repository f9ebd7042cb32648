"""The SQL statements a page runs, counted through SQLAlchemy's public event
(`before_cursor_execute`, tests.support.sql.QueryCounter) on the demo District, each page
asked twice and the second request counted (what is read once per process, the catalogs,
is not the page's). Target: at most 10 statements a page, flat in the number of parcels
(bench/web_bench.py counts them on 20,000 parcels).

The parcel page builds one view model (`portal.web.accounts.views.parcel_page`) in one unit
of work: the account's statement checks access once, and each box the reader's relation
sees (notices, paperless, the lender's marks, the exemption with the CRIM's facts, the
servicers, the attachments) is about one statement more. `PARCEL_CEILING` holds what it
runs per role, below the target."""

from __future__ import annotations

from tests.support.demo import parcel_ids
from tests.support.pages import login
from tests.support.sql import QueryCounter

LIMIT = 10

#: Pages within the limit now, by the role that opens them.
PAGES = {
    "owner": ["/", "/mis-propiedades"],
    "lessee": ["/mis-propiedades"],
    "lender": ["/mis-propiedades", "/prestamista/prestamos"],
    "staff": ["/mis-propiedades", "/personal/auditoria", "/personal/buscar?q=1"],
}

#: The parcel page's statements at most, per role (the worst of the role's demo parcels: the
#: owner's with a demand and its claims in court, or with a loan and the CRIM's facts): a
#: ceiling that only goes down.
PARCEL_CEILING = {"owner": 10, "lessee": 7, "staff": 7}


def _statements(app, client, url: str) -> tuple[int, list[str]]:  # noqa: ANN001
    from portal.web.data import database
    assert client.get(url).status_code == 200, url
    with app.app_context():
        engine = database().engine
    with QueryCounter(engine) as q:
        r = client.get(url)
    assert r.status_code == 200, url
    return q.count, q.statements


def _parcel_counts(app) -> dict[str, list[tuple[str, int, list[str]]]]:  # noqa: ANN001
    ids = parcel_ids(app)
    out: dict[str, list[tuple[str, int, list[str]]]] = {}
    for role, pids in (("owner", ids["owner"]), ("lessee", ids["lessee"]),
                       ("staff", ids["owner"])):
        client = login(app, role)
        out[role] = [(f"/propiedad/{p}", *_statements(app, client, f"/propiedad/{p}"))
                     for p in pids]
    return out


def test_pages_within_ten_statements(demo_app):
    over = []
    for role, urls in PAGES.items():
        client = login(demo_app, role)
        for url in urls:
            n, sql = _statements(demo_app, client, url)
            if n > LIMIT:
                over.append((role, url, n, [s.split("FROM")[0][:80] for s in sql]))
    assert over == []


def test_the_parcel_page_stays_within_its_current_count(demo_app):
    worst = {role: max(n for _u, n, _s in pages)
             for role, pages in _parcel_counts(demo_app).items()}
    assert all(worst[role] <= PARCEL_CEILING[role] for role in PARCEL_CEILING), worst


def test_the_parcel_page_within_ten_statements(demo_app):
    counts = _parcel_counts(demo_app)
    assert all(n <= LIMIT for pages in counts.values() for _u, n, _s in pages), \
        {role: [(u, n) for u, n, _s in pages] for role, pages in counts.items()}
