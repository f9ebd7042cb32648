"""A lender with more loans than one page (a bank's escrow team): the list goes page by page
and reads only its page; the dashboard counts the loans and links to the list."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import event

from tests.web.conftest import add_loans, login
from tests.web.test_html_valid import vnu_errors, vnu_missing

PER_PAGE = 50  # portal.web.account.views.LOANS_PER_PAGE
EXTRA = 75  # the demo lender's 50 loans + 75 = 125 loans: three pages


def _loan_numbers(html: str) -> list[str]:
    return re.findall(r'<th scope="row"[^>]*>([A-Z]+-[\d-]+)</th>', html)


def _statements(app, client, path: str) -> tuple[int, str]:  # noqa: ANN001
    from portal.web.data import database
    with app.app_context():
        engine = database().engine
    seen = []

    def count(*_args) -> None:  # noqa: ANN002
        seen.append(1)
    event.listen(engine, "before_cursor_execute", count)
    try:
        r = client.get(path)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert r.status_code == 200, (path, r.status_code)
    return len(seen), r.get_data(as_text=True)


def test_the_list_goes_page_by_page(demo_app):
    add_loans(demo_app, EXTRA)
    client = login(demo_app, "lender")
    first = client.get("/prestamista/prestamos").get_data(as_text=True)
    assert "125 préstamos" in first and "Página 1 de 3" in first
    pages = [_loan_numbers(first)]
    pages += [_loan_numbers(client.get(f"/prestamista/prestamos?page={n}")
                            .get_data(as_text=True)) for n in (2, 3)]
    assert [len(p) for p in pages] == [PER_PAGE, PER_PAGE, 25]
    numbers = [n for p in pages for n in p]
    assert numbers == sorted(numbers) and len(set(numbers)) == 125  # by loan number, each once
    assert numbers[-EXTRA:] == [f"ZZ-{k:04d}" for k in range(EXTRA)]
    assert client.get("/prestamista/prestamos?page=4").status_code == 404
    for past in ("184467440737095517", "9223372036854775807", "99999999999999999999"):
        assert client.get(f"/prestamista/prestamos?page={past}").status_code == 404, past
    for odd in ("0", "-3", "dos"):  # the first page
        assert _loan_numbers(client.get(f"/prestamista/prestamos?page={odd}")
                             .get_data(as_text=True)) == pages[0]
    english = client.get("/prestamista/prestamos?page=3&lang=en").get_data(as_text=True)
    assert "125 loans" in english and "Page 3 of 3" in english


def test_a_page_reads_only_its_loans(demo_app, monkeypatch):
    """A page reads and computes the accounts of its own loans only, in the same statements
    for page 1 as for the last page; 50 loans fit one page and need no count."""
    from portal.services import facts
    read: list[int] = []
    load_many = facts.load_many

    def spy(uow, parcel_ids, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        parcel_ids = list(parcel_ids)
        read.append(len(parcel_ids))
        return load_many(uow, parcel_ids, *args, **kwargs)
    monkeypatch.setattr(facts, "load_many", spy)
    client = login(demo_app, "lender")
    before, _ = _statements(demo_app, client, "/prestamista/prestamos")
    add_loans(demo_app, EXTRA)
    first, _ = _statements(demo_app, client, "/prestamista/prestamos")
    last, html = _statements(demo_app, client, "/prestamista/prestamos?page=3")
    assert first == last == before + 1
    assert len(_loan_numbers(html)) == 25
    assert read == [PER_PAGE, PER_PAGE, 25]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_dashboard_of_many_loans_links_to_the_list(demo_app, lang):
    client = login(demo_app, "lender")
    small = client.get(f"/mis-propiedades?lang={lang}").get_data(as_text=True)
    assert len(re.findall(r'href="/propiedad/\d+"', small)) == 50  # one page: shown here
    assert 'href="/prestamista/prestamos"' not in small.split("<main")[1]
    add_loans(demo_app, EXTRA)
    html = client.get(f"/mis-propiedades?lang={lang}").get_data(as_text=True)
    main = html.split("<main")[1]
    assert re.findall(r'href="/propiedad/\d+"', main) == []  # the loans are in the list
    assert 'href="/prestamista/prestamos"' in main
    words = {"es": ("Su organización tiene 125 préstamos sobre propiedades del Distrito.",
                    "Ver las propiedades de sus préstamos"),
             "en": ("Your organisation has 125 loans on District parcels.",
                    "See the parcels of your loans")}[lang]
    for text in words:
        assert text in main
    assert "You have no parcels yet." not in main and "Todavía no tiene propiedades" not in main


def test_a_large_portfolio_keeps_the_counts_in_the_locale(demo_app):
    add_loans(demo_app, 1000)  # 1,050 loans
    client = login(demo_app, "lender")
    assert "1,050 préstamos" in client.get("/prestamista/prestamos").get_data(as_text=True)
    assert "1,050 loans" in client.get("/prestamista/prestamos?lang=en").get_data(as_text=True)
    assert "21 de 21" in client.get("/prestamista/prestamos?page=21").get_data(as_text=True)


@pytest.mark.skipif(vnu_missing() is not None, reason=vnu_missing() or "")
def test_the_large_portfolio_pages_are_valid_html(demo_app, tmp_path):
    add_loans(demo_app, EXTRA)
    client = login(demo_app, "lender")
    files = []
    for n, path in enumerate(["/mis-propiedades", "/mis-propiedades?lang=en",
                              "/prestamista/prestamos?page=2", "/prestamista/prestamos?page=3"]):
        f = tmp_path / f"page{n}.html"
        f.write_text(client.get(path).get_data(as_text=True), encoding="utf-8")
        files.append(f)
    assert vnu_errors(files) == []
