"""A lender with more loans than one page (a bank's escrow team): the list goes page by page
and reads only its page; the dashboard counts the loans and links to the list."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from sqlalchemy import select

from tests.support.demo import add_loans, app_uow, filed_exemption
from tests.support.html import vnu_errors, vnu_missing
from tests.support.lenders import loan_with_facts, page_statements
from tests.support.pages import csrf_token, login

PER_PAGE = 50  # portal.web.accounts.views.LOANS_PER_PAGE
EXTRA = 75  # the demo lender's 50 loans + 75 = 125 loans: three pages


def _loan_numbers(html: str) -> list[str]:
    return re.findall(r'<th scope="row"[^>]*>(?:<a [^>]*>)?([A-Z]+-[\d-]+)(?:</a>)?</th>', html)


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


def _in_pages(client, pages: int, order: str = "") -> list[str]:  # noqa: ANN001
    return [n for k in range(1, pages + 1) for n in _loan_numbers(client.get(
        f"/prestamista/prestamos?page={k}{order}").get_data(as_text=True))]


@pytest.mark.parametrize("order", ["", "&orden=loan&dir=desc"])
def test_one_lenders_loans_and_two_lenders_loans_are_in_loan_number_order(demo_app, order):
    """One lender's loans are read through its index by loan number (the fifty of a page,
    unsorted); a clerk of two lenders gets both lenders' loans in the same order."""
    from portal.models import Lender, Loan, PartyMember
    from tests.support.lenders import other_lender
    add_loans(demo_app, EXTRA)
    with app_uow(demo_app) as w:
        _other, clerk = other_lender(w)
        bank = w.session.get(Lender, w.session.scalars(
            select(Loan.lender_id).where(Loan.loan_number.startswith("ZZ-"))).first())
        w.session.add(PartyMember(party_id=bank.party_id, user_id=clerk.id, role="employee"))
    desc = "desc" in order
    one = _in_pages(login(demo_app, "lender"), 3, order)
    assert len(one) == 125 and one == sorted(one, reverse=desc)
    two = _in_pages(login(demo_app, "user00001@demo.pr"), 3, order)
    assert len(two) == 126 and two == sorted(two, reverse=desc)
    assert sorted(set(two) - set(one)) == ["OT-1"]


def test_a_page_reads_only_its_loans(demo_app, monkeypatch):
    """The figures are computed by the core once per loan and day (in batches); after that a
    page reads no account at all and costs the same statements for page 1 as for the last
    page, whatever the number of loans (J7)."""
    from portal.accounts import facts
    from portal.lenders import portfolio
    read: list[int] = []
    load_many = facts.load_many

    def spy(uow, parcel_ids, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        parcel_ids = list(parcel_ids)
        read.append(len(parcel_ids))
        return load_many(uow, parcel_ids, *args, **kwargs)
    monkeypatch.setattr(facts, "load_many", spy)
    add_loans(demo_app, EXTRA)
    client = login(demo_app, "lender")
    page_statements(demo_app, client, "/prestamista/prestamos")
    assert sum(read) == 125 and max(read) <= portfolio.BATCH  # every loan, once, in batches
    read.clear()
    first, _ = page_statements(demo_app, client, "/prestamista/prestamos")
    last, html = page_statements(demo_app, client, "/prestamista/prestamos?page=3")
    assert first == last and read == []
    assert len(_loan_numbers(html)) == 25

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


# --- J7: filters, sort, totals, export, one payment for many loans -------------------------

def _all_pages(client, query: str) -> list[str]:  # noqa: ANN001
    html = client.get(f"/prestamista/prestamos?{query}").get_data(as_text=True)
    pages = int(m.group(1)) if (m := re.search(r"Página \d+ de (\d+)", html)) else 1
    out = [html] + [client.get(f"/prestamista/prestamos?{query}&page={n}").get_data(as_text=True)
                    for n in range(2, pages + 1)]
    return out


def _money(text: str) -> Decimal:
    return Decimal(text.replace("$", "").replace(",", "").replace("\xa0", "").strip())


def test_filters_totals_and_sort_come_from_the_figures(demo_app):
    """The totals are the filtered set's (SQL sums over every page, not the page shown); the
    status filter selects only that status; the sort by due now is ordered (J7)."""
    from portal.db import UnitOfWork
    from portal.lenders import portfolio
    from portal.people.users import find_by_email
    from portal.web.data import database
    add_loans(demo_app, EXTRA)
    client = login(demo_app, "lender")
    client.get("/prestamista/prestamos")  # the figures of the day
    with demo_app.app_context(), UnitOfWork(database()) as w:
        user = find_by_email(w, "lender@demo.pr")
        every = list(portfolio.rows(w, user, portfolio.Query()))
        overdue = portfolio.portfolio(w, user, portfolio.Query(status="overdue"))
        by_due = portfolio.portfolio(w, user, portfolio.Query(sort="due", desc=True))
        found = portfolio.portfolio(w, user, portfolio.Query(q="ZZ-000"))
        big = portfolio.portfolio(w, user, portfolio.Query(due_min=Decimal("100.00")))
    assert len(every) == 125
    expect = [r for r in every if r.status == "overdue"]
    assert overdue.count == len(expect) > 0
    assert overdue.due_total == sum((r.due_now for r in expect), Decimal("0.00"))
    assert {r.status for r in overdue.rows} == {"overdue"}
    dues = [r.due_now for r in by_due.rows]
    assert dues == sorted(dues, reverse=True) and dues[0] == max(r.due_now for r in every)
    assert found.count == 10 and all(r.loan_number.startswith("ZZ-000") for r in found.rows)
    assert big.count == sum(1 for r in every if r.due_now >= Decimal("100.00"))
    # the page says the same totals
    html = client.get("/prestamista/prestamos?estado=overdue").get_data(as_text=True)
    assert f"{len(expect)} préstamo" in html
    shown = re.search(r"portal-money\">([^<]+)</strong>", html)
    assert shown and _money(shown.group(1)) == overdue.due_total


def test_odd_filters_are_refused_with_a_message(demo_app):
    client = login(demo_app, "lender")
    for query in ("minimo=abc", "maximo=-5", "estado=nada", "orden=password", "vence=2"):
        r = client.get(f"/prestamista/prestamos?{query}")
        assert r.status_code == 400, query
        assert "Traceback" not in r.get_data(as_text=True)
    r = client.get("/prestamista/prestamos?minimo=abc&lang=en")
    assert "Write the amount with numbers only" in r.get_data(as_text=True)


def test_the_export_is_the_filtered_set_with_no_formulas(demo_app):
    from portal.csv_text import safe_cell
    client = login(demo_app, "lender")
    r = client.get("/prestamista/prestamos.csv?estado=overdue")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    lines = r.get_data(as_text=True).lstrip("\ufeff").splitlines()
    page = client.get("/prestamista/prestamos?estado=overdue").get_data(as_text=True)
    n = int(re.search(r"(\d+) préstamos?\b", page).group(1))
    assert len(lines) == n + 1 and lines[0].startswith("Préstamo,")
    assert all(",vencido," in ln for ln in lines[1:])
    for bad in ("=HYPERLINK(1)", "+1", "-2", "@SUM(A1)", "\tx"):
        assert safe_cell(bad) == "'" + bad
    assert safe_cell("CAT-1") == "CAT-1" and safe_cell(None) == ""


def test_one_payment_for_the_filtered_loans(demo_app):
    """The filter's loans with something due, however many, go to one prepared payment by
    the bill file's path: a file of just those loans (due by today), its whole payment
    prepared with its exceptions report, then the confirmation."""
    client = login(demo_app, "lender")
    page = client.get("/prestamista/prestamos?estado=overdue").get_data(as_text=True)
    total = _money(re.search(r'portal-money">([^<]+)</strong>', page).group(1))
    assert "sean cuantos sean" in page  # no ceiling on the loans of one payment
    r = client.post("/prestamista/pagar", data={"csrf_token": csrf_token(page),
                                                "estado": "overdue"})
    assert r.status_code == 303 and "/prestamista/facturas/" in r.headers["Location"]
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    assert 'id="pay-confirm"' in html and 'id="no-exceptions"' in html
    expected = re.search(r'name="expected_total" value="([^"]+)"', html).group(1)
    assert Decimal(expected) == total > 0
    count = int(re.search(r'id="pay-count">(\d+)<', html).group(1))
    assert count == len(re.findall(r'portal-status--overdue', page))
    file_url = r.headers["Location"].split("/pagos/")[0]
    assert 'id="bill-source"' in client.get(file_url).get_data(as_text=True)
    # Nothing due: nothing made, said on the loans page.
    r = client.post("/prestamista/pagar", data={"csrf_token": csrf_token(page),
                                                "q": "NO-SUCH-LOAN"})
    assert r.status_code == 303 and "/prestamista/prestamos" in r.headers["Location"]


def test_one_payment_for_a_file_of_loan_numbers(demo_app):
    import io

    client = login(demo_app, "lender")
    page = client.get("/prestamista/prestamos?sort=due&orden=due&dir=desc").get_data(as_text=True)
    numbers = _loan_numbers(page)[:3]
    data = ("Préstamo\r\n" + "\r\n".join(numbers) + "\r\n").encode("utf-8-sig")
    r = client.post("/prestamista/pagar/archivo", data={
        "csrf_token": csrf_token(page), "file": (io.BytesIO(data), "loans.csv")},
        content_type="multipart/form-data")
    assert r.status_code == 303 and "/prestamista/facturas/" in r.headers["Location"]
    assert "/pagos/" in r.headers["Location"]  # the bill path: a file of those loans, paid
    r = client.post("/prestamista/pagar/archivo", data={
        "csrf_token": csrf_token(page),
        "file": (io.BytesIO(b"NOT-MINE-1;x\r\n"), "loans.csv")},
        content_type="multipart/form-data", follow_redirects=True)
    assert "NOT-MINE-1" in r.get_data(as_text=True)  # named back, nothing about anyone else's


def test_the_menu_offers_a_lender_no_parcel_to_add(demo_app):
    html = login(demo_app, "lender").get("/prestamista/prestamos").get_data(as_text=True)
    assert "Añadir una propiedad" not in html
    assert "Añadir una propiedad" in login(demo_app, "owner").get("/").get_data(as_text=True) \
        or "Añadir una propiedad" in login(demo_app, "owner").get("/cuenta").get_data(as_text=True)


# --- J7 item 4: what to retain (R-B10) -----------------------------------------------------

def test_a_loan_page_says_what_to_pay_or_retain_per_bill(demo_app):
    loan_id, _pid, expected = loan_with_facts(demo_app)
    client = login(demo_app, "lender")
    html = client.get(f"/prestamista/prestamos/{loan_id}").get_data(as_text=True)
    assert len(expected.bills) == 2
    for b in expected.bills:
        assert f"${b.with_exemption.amount:,.2f}" in html
        assert f"${b.new_structure:,.2f}" in html
    assert "R-B10" in html and "portal-why" in html  # why this amount?
    english = client.get(f"/prestamista/prestamos/{loan_id}?lang=en").get_data(as_text=True)
    assert "New structure bought with a certification: retain" in english
    # another user, and an unknown loan: not found
    assert login(demo_app, "owner").get(f"/prestamista/prestamos/{loan_id}").status_code == 404
    assert client.get("/prestamista/prestamos/999999").status_code == 404


def test_the_export_has_the_retention_of_each_loan(demo_app):
    loan_id, pid, expected = loan_with_facts(demo_app)
    client = login(demo_app, "lender")
    lines = client.get("/prestamista/prestamos.csv").get_data(as_text=True).splitlines()
    import csv
    rows = list(csv.reader(lines))
    header = rows[0]
    assert header[7] == "A pagar ahora: último día para pagar"
    assert header[10] == "Por pagar, factura con la exoneración (i)"
    page = client.get(f"/prestamista/prestamos/{loan_id}").get_data(as_text=True)
    number = re.search(r"<h1>Préstamo ([^<]+)</h1>", page).group(1)
    [mine] = [r for r in rows if r[0] == number]
    first = expected.bills[0]
    assert mine[10] == f"{first.with_exemption.amount:.2f}"
    assert mine[12] == f"{first.new_structure:.2f}"
    assert mine[13] == f"{expected.total_with_exemption:.2f}"


def test_the_owner_sees_what_the_lender_pays(demo_app):
    """The parcel page of a parcel with a loan tells its owner what the bank pays the CRIM."""
    from sqlalchemy import select

    from portal.db import UnitOfWork
    from portal.models import Loan, ParcelLink, PropertyTaxFact, User
    from portal.web.data import database
    with demo_app.app_context(), UnitOfWork(database()) as w:
        pid = w.session.scalar(
            select(ParcelLink.parcel_id).join(User, User.id == ParcelLink.user_id)
            .join(Loan, Loan.parcel_id == ParcelLink.parcel_id)
            .join(PropertyTaxFact, PropertyTaxFact.parcel_id == ParcelLink.parcel_id)
            .where(User.email == "owner@demo.pr", ParcelLink.role == "owner").limit(1))
    if pid is None:
        pytest.skip("no demo owner's parcel carries a loan")
    html = login(demo_app, "owner").get(f"/propiedad/{pid}").get_data(as_text=True)
    assert "Lo que su acreedor hipotecario paga al CRIM" in html


def test_the_certification_filter_follows_the_exemption_filings(demo_app):
    """A certification filed on a loan's parcel (J5) moves that loan from "none filed" to
    "filed, not yet decided" (R-B6: approved or pending)."""
    from portal.accounts import access
    from portal.db import UnitOfWork
    from portal.people import users
    from portal.web.data import database

    def file_one() -> None:  # the owner's certification of a parcel the bank lends on
        with demo_app.app_context(), UnitOfWork(database()) as w:
            owner = users.find_by_email(w, "owner@demo.pr")
            bank = users.find_by_email(w, "lender@demo.pr")
            lent = {p.id for p, _ in access.linked_parcels(w, bank)}
            pid = min(p.id for p, rel in access.linked_parcels(w, owner)
                      if rel == "owner" and p.id in lent)
        filed_exemption(demo_app, pid)
    client = login(demo_app, "lender")

    def count(kind: str) -> int:
        html = client.get(f"/prestamista/prestamos?exoneracion={kind}").get_data(as_text=True)
        m = re.search(r"(\d+) préstamos?\b", html)
        return int(m.group(1)) if m else 0
    before = (count("pending"), count("none"), count("approved"))
    file_one()
    after = (count("pending"), count("none"), count("approved"))
    assert after[0] == before[0] + 1 and after[1] == before[1] - 1 and after[2] == before[2]
    assert sum(after) == 50
    assert client.get("/prestamista/prestamos?exoneracion=maybe").status_code == 400


@pytest.mark.skipif(vnu_missing() is not None, reason=vnu_missing() or "")
def test_the_j7_pages_are_valid_html(demo_app, tmp_path):
    """The portfolio filtered and with an error, a loan's page, the organisation with a new
    token, in both languages: valid HTML (vnu)."""
    loan_id, _pid, _r = loan_with_facts(demo_app)
    client = login(demo_app, "lender")
    pages = []
    for lang in ("es", "en"):
        for path in ("/prestamista/prestamos?estado=overdue&orden=due&dir=desc",
                     "/prestamista/prestamos?minimo=abc", f"/prestamista/prestamos/{loan_id}",
                     "/prestamista/organizacion"):
            pages.append(client.get(f"{path}{'&' if '?' in path else '?'}lang={lang}")
                         .get_data(as_text=True))
    org = client.get("/prestamista/organizacion").get_data(as_text=True)
    pages.append(client.post("/prestamista/organizacion/tokens", data={
        "csrf_token": csrf_token(org), "name": "vnu", "scope": "read", "days": "30"}
        ).get_data(as_text=True))
    pages.append(client.post("/prestamista/organizacion/tokens", data={
        "csrf_token": csrf_token(org), "name": "", "scope": "read", "days": "30"}
        ).get_data(as_text=True))  # the error page
    files = []
    for n, html in enumerate(pages):
        f = tmp_path / f"j7-{n}.html"
        f.write_text(html, encoding="utf-8")
        files.append(f)
    assert vnu_errors(files) == []
