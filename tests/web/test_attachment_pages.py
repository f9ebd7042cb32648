"""The staff's attachment pages under /personal/embargos (R-C1–R-C8, R-A14) on the demo
District: the list, a parcel's debts with the core's figures and "why this amount?", a
notice of attachment and an auction recorded through the forms, bad input refused with a
clear message in the staff's language and nothing changed, an auction's result, a deposit
order recorded and lifted; and the debtor's section of the parcel page."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from sqlalchemy import func, select

from tests.support.demo import parcel_ids
from tests.support.pages import csrf_token, login

#: The demo's figures (portal/collections/attachments.load_demo): the notice's fee 10 % of
#: 2,840.00 + 35.00 custody = 319.00 and total 3,662.65 (R-C1, R-C3); the auction's
#: minimum min(185,000 − 162,450.18, 3,970.19) = 3,970.19, above the floor 3,775.19 (R-C4).
FEE, TOTAL, MINIMUM = "$319.00", "$3,662.65", "$3,970.19"


def _count(app: Flask, model) -> int:  # noqa: ANN001
    from portal.db import UnitOfWork
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        return w.session.scalar(select(func.count()).select_from(model))


def _home(app: Flask) -> int:
    from portal.db import UnitOfWork
    from portal.models import TaxDebt
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        return w.session.scalar(select(TaxDebt.parcel_id).limit(1))


def _with_lang(client, lang: str) -> None:  # noqa: ANN001
    page = client.get("/").get_data(as_text=True)
    client.post("/idioma", data={"csrf_token": csrf_token(page), "lang": lang})


def test_the_list_and_the_parcel_page(demo_app):
    staff = login(demo_app, "staff")
    home = _home(demo_app)
    html = staff.get("/personal/embargos").get_data(as_text=True)
    assert "Embargos y subastas" in html and f"/personal/embargos/propiedad/{home}" in html
    assert "/personal/embargos" in staff.get("/personal/buscar").get_data(as_text=True)
    page = staff.get(f"/personal/embargos/propiedad/{home}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    for text in (FEE, TOTAL, MINIMUM, "R-C2", "R-C3", "R-C4", "16 de diciembre de 2026",
                 "17 de diciembre de 2026"):
        assert text in html, text
    assert html.count('class="portal-why"') >= 3  # the fee, the term, the minimum


def test_find_a_parcel_by_catastro(demo_app):
    staff = login(demo_app, "staff")
    r = staff.get("/personal/embargos?catastro=999-999-999-99")
    assert r.status_code == 400
    assert "Ninguna propiedad tiene ese número de catastro." in r.get_data(as_text=True)


def test_record_a_notice_through_the_form(demo_app):
    from portal.models import AttachmentNotice, TaxDebt
    staff = login(demo_app, "staff")
    pid = parcel_ids(demo_app)["owner"][1]
    url = f"/personal/embargos/propiedad/{pid}"
    token = csrf_token(staff.get(url).get_data(as_text=True))
    form = {"csrf_token": token, "fiscal_years": "2024-2025", "taxes": "$1,000.00",
            "surcharges": "50", "interest": "", "delivery": "personal",
            "notified_on": "2026-11-02"}
    before = _count(demo_app, TaxDebt), _count(demo_app, AttachmentNotice)
    for bad, message in (({"taxes": "mil"}, "Escriba la cantidad solo con números"),
                         ({"taxes": "10.005"}, "Escriba los centavos después de un punto"),
                         ({"taxes": "10.5051"}, "Escriba a lo sumo dos decimales"),
                         ({"notified_on": "2026-13-01"}, "AAAA-MM-DD"),
                         ({"notified_on": "2026-12-25"}, "no puede ser un día por venir"),
                         ({"delivery": "certified_mail"}, "número del correo certificado"),
                         ({"delivery": "fax"}, "Cómo se notificó")):
        r = staff.post(f"{url}/aviso", data={**form, **bad})
        assert r.status_code == 400, bad
        html = r.get_data(as_text=True)
        assert message in html and 'id="error-summary"' in html, (bad, message)
        assert "Traceback" not in html
    assert (_count(demo_app, TaxDebt), _count(demo_app, AttachmentNotice)) == before
    r = staff.post(f"{url}/aviso", data=form)
    assert r.status_code == 303
    html = staff.get(r.headers["Location"]).get_data(as_text=True)
    # R-C3: 10 % of 1,000.00 = 100.00; R-C1: 1,000 + 50 + 100 = 1,150.00; R-C2: 2026-12-02.
    assert "$100.00" in html and "$1,150.00" in html and "2 de diciembre de 2026" in html


def test_bad_input_in_english(demo_app):
    staff = login(demo_app, "staff")
    _with_lang(staff, "en")
    pid = parcel_ids(demo_app)["owner"][1]
    url = f"/personal/embargos/propiedad/{pid}"
    token = csrf_token(staff.get(url).get_data(as_text=True))
    r = staff.post(f"{url}/subasta", data={"csrf_token": token, "s-fiscal_years": "2022",
                                           "s-taxes": "100", "s-appraised_on": "2026-11-01",
                                           "s-real_value": "-5", "s-mortgage_amount": "0",
                                           "s-auction_number": "12"})
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert "The amount cannot be negative." in html
    assert "from 1 to 9" in html


def test_an_auction_and_its_result(demo_app):
    from portal.models import AuctionResult
    staff = login(demo_app, "staff")
    pid = parcel_ids(demo_app)["owner"][1]
    url = f"/personal/embargos/propiedad/{pid}"
    token = csrf_token(staff.get(url).get_data(as_text=True))
    r = staff.post(f"{url}/subasta", data={
        "csrf_token": token, "s-fiscal_years": "2022-2023", "s-taxes": "1000",
        "s-surcharges": "50", "s-interest": "100", "s-costs": "20", "s-appraised_on": "2026-11-01",
        "s-real_value": "50000", "s-mortgage_amount": "49500", "s-auction_number": "1"})
    assert r.status_code == 303
    html = staff.get(url).get_data(as_text=True)
    # R-C4: equity 500.00 < credit 1,170.00, but the floor is 1,150.00.
    assert "$500.00" in html and "$1,170.00" in html and "$1,150.00" in html
    auction_id = int(re.findall(r"/personal/embargos/subasta/(\d+)/resultado", html)[-1])
    p = f"a{auction_id}-"
    result = f"/personal/embargos/subasta/{auction_id}/resultado"
    r = staff.post(result, data={"csrf_token": token, p + "held_on": "2026-11-20",
                                 p + "bids": "2", p + "price": "1149.99"})
    assert r.status_code == 400
    assert "por debajo del tipo mínimo de subasta" in r.get_data(as_text=True)
    assert _count(demo_app, AuctionResult) == 0
    r = staff.post(result, data={"csrf_token": token, p + "held_on": "2026-11-20",
                                 p + "bids": "0"})
    assert r.status_code == 303
    html = staff.get(url).get_data(as_text=True)
    assert "Adjudicada al CRIM" in html
    r = staff.post(result, data={"csrf_token": token, p + "held_on": "2026-11-20",
                                 p + "bids": "0"})
    assert r.status_code == 303 and _count(demo_app, AuctionResult) == 1  # once


def test_a_debtor_who_owes_more_than_the_parcel_keeps_a_shortfall(demo_app):
    """R-C4, R-C6, R-C8 on the staff's page: the debtor owes 1,000 + 50 + 100 = 1,150.00 in
    taxes, surcharges and interest, this parcel itself 300.00. Equity 50,000 − 49,800 =
    200.00; credit 1,170.00; lesser 200.00; floor 300.00: minimum 300.00. Sold for 400.00 to
    a third party: 1,150.00 − 400.00 = 750.00 still owed, shown in Spanish. A parcel's debt
    above the debt's own is refused in the staff's language, nothing recorded."""
    from portal.models import Auction
    staff = login(demo_app, "staff")
    pid = parcel_ids(demo_app)["owner"][1]
    url = f"/personal/embargos/propiedad/{pid}"
    token = csrf_token(staff.get(url).get_data(as_text=True))
    form = {"csrf_token": token, "s-fiscal_years": "2022-2023", "s-taxes": "1000",
            "s-surcharges": "50", "s-interest": "100", "s-costs": "20",
            "s-appraised_on": "2026-11-01", "s-real_value": "50000",
            "s-mortgage_amount": "49800", "s-auction_number": "1"}
    before = _count(demo_app, Auction)
    r = staff.post(f"{url}/subasta", data={**form, "s-property_debt": "1150.01"})
    assert r.status_code == 400 and _count(demo_app, Auction) == before
    assert "no más que las contribuciones, recargos e intereses de la deuda" in \
        r.get_data(as_text=True)
    r = staff.post(f"{url}/subasta", data={**form, "s-property_debt": "300"})
    assert r.status_code == 303
    html = staff.get(url).get_data(as_text=True)
    auction_id = int(re.findall(r"/personal/embargos/subasta/(\d+)/resultado", html)[-1])
    p = f"a{auction_id}-"
    r = staff.post(f"/personal/embargos/subasta/{auction_id}/resultado",
                   data={"csrf_token": token, p + "held_on": "2026-11-20", p + "bids": "1",
                         p + "price": "400"})
    assert r.status_code == 303
    html = staff.get(url).get_data(as_text=True)
    assert "aún adeudado: $750.00" in html


def test_deposit_order_recorded_and_lifted(demo_app):
    """R-A14: the demo's leased Authority parcel with an order in force: a second one is
    refused; lifted, then a new order is recorded; the lessee's parcel page shows it."""
    from portal.db import UnitOfWork
    from portal.models import DepositOrder, Lease
    from portal.web.data import database
    with demo_app.app_context(), UnitOfWork(database()) as w:
        order_id, pid = w.session.execute(
            select(DepositOrder.id, Lease.parcel_id).join(Lease)
            .where(DepositOrder.lifted_on.is_(None))).first()
    staff = login(demo_app, "staff")
    url = f"/personal/embargos/propiedad/{pid}"
    html = staff.get(url).get_data(as_text=True)
    assert "en vigor" in html
    token = csrf_token(html)
    form = {"csrf_token": token, "court": "TPI Sala de Bayamón", "case_number": "BY2026CV7",
            "ordered_on": "2026-11-25"}
    r = staff.post(f"{url}/orden-deposito", data=form)
    assert r.status_code == 303 and _count(demo_app, DepositOrder) == 1
    assert "ya tiene una orden de consignación en vigor" in staff.get(url).get_data(
        as_text=True)
    lift = f"/personal/embargos/orden-deposito/{order_id}/levantar"
    r = staff.post(lift, data={"csrf_token": token, f"o{order_id}-lifted_on": "2026-01-01"})
    assert r.status_code == 400
    r = staff.post(lift, data={"csrf_token": token, f"o{order_id}-lifted_on": "2026-11-24"})
    assert r.status_code == 303
    r = staff.post(f"{url}/orden-deposito", data=form)
    assert r.status_code == 303 and _count(demo_app, DepositOrder) == 2
    r = staff.post(f"{url}/orden-deposito", data={**form, "court": ""})
    assert r.status_code == 400 and "Escriba el tribunal" in r.get_data(as_text=True)


def test_the_debtor_sees_the_section_on_the_parcel_page(demo_app):
    owner = login(demo_app, "owner")
    home = _home(demo_app)
    html = owner.get(f"/propiedad/{home}").get_data(as_text=True)
    assert "Embargo por contribuciones sobre la propiedad" in html
    for text in (FEE, TOTAL, MINIMUM, "16 de diciembre de 2026"):
        assert text in html, text
    assert "/personal/embargos" not in html  # no staff form


@pytest.mark.parametrize("role", ["owner", "lessee", "lender", "other"])
def test_staff_pages_are_404_for_everyone_else(demo_app, role):
    client = login(demo_app, role)
    home = _home(demo_app)
    for path in ("/personal/embargos", f"/personal/embargos/propiedad/{home}"):
        assert client.get(path).status_code == 404
    token = csrf_token(client.get("/").get_data(as_text=True))
    for path in (f"/personal/embargos/propiedad/{home}/aviso",
                 f"/personal/embargos/propiedad/{home}/subasta",
                 "/personal/embargos/subasta/1/resultado", "/personal/embargos/deuda/1/pagada",
                 f"/personal/embargos/propiedad/{home}/orden-deposito",
                 "/personal/embargos/orden-deposito/1/levantar",
                 "/personal/embargos/aviso/1/acumulado"):
        assert client.post(path, data={"csrf_token": token}).status_code == 404


def test_the_lessee_sees_the_deposit_order_but_no_minimum(demo_app):
    """R-A14 and R-C5: staff record a deposit order and a CRIM auction on the lessee's
    Authority parcel: its page, as the lessee sees it, shows the order and nothing of the
    auction (the Authority is the debtor, not the lessee)."""
    staff = login(demo_app, "staff")
    [leased] = parcel_ids(demo_app)["lessee"]
    url = f"/personal/embargos/propiedad/{leased}"
    token = csrf_token(staff.get(url).get_data(as_text=True))
    r = staff.post(f"{url}/orden-deposito", data={
        "csrf_token": token, "court": "TPI Sala de Carolina", "case_number": "CA2026CV0042",
        "ordered_on": "2026-11-27"})
    assert r.status_code == 303
    r = staff.post(f"{url}/subasta", data={
        "csrf_token": token, "s-fiscal_years": "2024-2025", "s-taxes": "2,345.67",
        "s-appraised_on": "2026-11-02", "s-real_value": "80000", "s-mortgage_amount": "0",
        "s-auction_number": "1"})
    assert r.status_code == 303
    assert "$2,345.67" in staff.get(url).get_data(as_text=True)
    lessee = login(demo_app, "lessee")
    html = lessee.get(f"/propiedad/{leased}").get_data(as_text=True)
    assert "CA2026CV0042" in html and "consignar en el tribunal las rentas" in html
    assert "2,345.67" not in html and "Embargo por contribuciones" not in html


def test_read_only_staff_see_but_do_not_record(demo_app):
    from portal.models import TaxDebt
    client = login(demo_app, "readonly@demo.pr")
    home = _home(demo_app)
    url = f"/personal/embargos/propiedad/{home}"
    html = client.get(url).get_data(as_text=True)
    assert MINIMUM in html and f"{url}/aviso" not in html  # no form for this role
    before = _count(demo_app, TaxDebt)
    r = client.post(f"{url}/aviso", data={
        "csrf_token": csrf_token(html), "fiscal_years": "2024", "taxes": "10",
        "delivery": "personal", "notified_on": "2026-11-02"})
    assert r.status_code == 403 and _count(demo_app, TaxDebt) == before


def test_the_pages_are_valid_html(demo_app, tmp_path):
    """vnu on the list, a parcel's page (the demo's debts, every form), its error page, the
    deposit orders' page and the owner's parcel page with its section, in both languages."""
    from tests.support.html import vnu_errors, vnu_missing
    if vnu_missing():
        pytest.skip(vnu_missing())
    home = _home(demo_app)
    [leased] = parcel_ids(demo_app)["lessee"]
    staff, owner = login(demo_app, "staff"), login(demo_app, "owner")
    files = []
    for lang in ("es", "en"):
        _with_lang(staff, lang)
        _with_lang(owner, lang)
        url = f"/personal/embargos/propiedad/{home}"
        html = staff.get(url).get_data(as_text=True)
        bad = staff.post(f"{url}/aviso", data={"csrf_token": csrf_token(html), "taxes": "x",
                                               "delivery": "fax", "notified_on": "mañana"})
        assert bad.status_code == 400
        pages = {"index": staff.get("/personal/embargos"), "parcel": staff.get(url),
                 "error": bad, "leased": staff.get(f"/personal/embargos/propiedad/{leased}"),
                 "owner": owner.get(f"/propiedad/{home}")}
        for name, r in pages.items():
            f = tmp_path / f"{name}-{lang}.html"
            f.write_text(r.get_data(as_text=True), encoding="utf-8")
            files.append(f)
    errors = vnu_errors(files)
    assert errors == [], "\n".join(errors[:40])


def test_the_notice_pdf(demo_app, tmp_path):
    """The notice of attachment as a tagged bilingual PDF (R-C1–R-C3, R-C7), for the debtor
    and staff: the reader's language first, the core's figures, no rule id alone, no auction
    minimum (R-C5); 404 for anyone else."""
    import shutil
    import subprocess
    if shutil.which("pdftotext") is None or shutil.which("pdfinfo") is None:
        pytest.skip("poppler-utils missing")
    from portal.db import UnitOfWork
    from portal.models import AttachmentNotice
    from portal.web.data import database
    with demo_app.app_context(), UnitOfWork(database()) as w:
        n = w.session.scalars(select(AttachmentNotice)).first()
        home, debt = n.parcel_id, n.debt_id
    path = f"/propiedad/{home}/embargos/{debt}.pdf"
    owner = login(demo_app, "owner")
    assert path in owner.get(f"/propiedad/{home}").get_data(as_text=True)
    r = owner.get(path)
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    pdf = tmp_path / "notice.pdf"
    pdf.write_bytes(r.data)
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True,
                          check=True).stdout
    assert "Tagged:          yes" in info
    es, _sep, en = text.partition("Notice of attachment")
    assert "Notificación de embargo" in es and "16 de diciembre de 2026" in es
    assert "December 16, 2026" in en
    assert "Department of the Treasury" in en and "by certified mail" in en  # each its own
    assert "Departamento de Hacienda" in es and "Contribuciones" in es
    for amount in (FEE, TOTAL):
        assert amount in es and amount in en
    assert "3,970.19" not in text
    # A rule id only in a footnote, with its statute ("(regla del portal R-C2)").
    bare = re.sub(r"\((regla del portal|the portal's rule) R-C\d\)", "", text)
    assert not re.search(r"R-C\d", bare), bare
    assert "La fecha de la notificación y lo que detiene la venta" in es
    assert "The notice date, and what stops the sale" in en
    for role in ("lessee", "lender", "other"):
        assert login(demo_app, role).get(path).status_code == 404, role
    assert demo_app.test_client().get(path).status_code == 302
    assert login(demo_app, "staff").get(path).status_code == 200


def test_hostile_input_never_a_500(demo_app, error_log):  # noqa: F811
    """Every field of every staff form, odd values (empty, 100,000 characters, NUL, emoji,
    NaN, huge numbers, twice, as an array), odd ids in the paths: never a 500 (the harness of
    tests/web/test_hostile_input.py)."""
    from tests.support.hostile import IDS, QUICK, Probe
    p = Probe(demo_app, "staff", error_log)
    home = _home(demo_app)
    [leased] = parcel_ids(demo_app)["lessee"]
    base = f"/personal/embargos/propiedad/{home}"
    p.form(f"{base}/aviso", {"fiscal_years": "2024", "taxes": "10", "surcharges": "1",
                             "delivery": "certified_mail", "certified_mail_number": "1",
                             "custody_costs": "1", "notified_on": "2026-11-02"}, QUICK)
    p.form(f"{base}/subasta", {"s-fiscal_years": "2024", "s-taxes": "10",
                               "s-real_value": "100", "s-mortgage_amount": "0",
                               "s-appraised_on": "2026-11-02", "s-auction_number": "1"}, QUICK)
    p.form("/personal/embargos/subasta/1/resultado",
           {"a1-held_on": "2026-11-20", "a1-bids": "1", "a1-price": "1"}, QUICK)
    p.form(f"/personal/embargos/propiedad/{leased}/orden-deposito",
           {"court": "TPI", "case_number": "X", "ordered_on": "2026-11-20", "notes": ""}, QUICK)
    p.form("/personal/embargos/deuda/1/pagada", {"d1-paid_on": "2026-11-20"}, QUICK)
    for value in QUICK:
        p.get("/personal/embargos", query_string={"catastro": value, "despues": value})
    for odd in IDS:
        for path in ("/personal/embargos/propiedad/{}", "/propiedad/{}/embargos/{}.pdf"):
            p.get(path.format(odd, odd))
        for path in ("/personal/embargos/subasta/{}/resultado", "/personal/embargos/deuda/{}/"
                     "pagada", "/personal/embargos/orden-deposito/{}/levantar"):
            p.post(path.format(odd), {"csrf_token": p.token})
    p.report()


def test_staff_see_the_section_with_a_link_to_record(demo_app):
    home = _home(demo_app)
    html = login(demo_app, "staff").get(f"/propiedad/{home}").get_data(as_text=True)
    assert MINIMUM in html and f'href="/personal/embargos/propiedad/{home}"' in html
    assert "Registrar una notificación, una subasta o su resultado" in html


def test_the_deposit_order_is_shown_until_the_debt_is_paid(demo_app):
    """R-A14: "until the debt is paid": the demo's leased parcel with an order in force shows
    it while its account has amounts past due; paid off at the office, the page no longer
    shows it (the order stays on record until staff lift it)."""
    from decimal import Decimal

    from portal.accounts import ledger, statements
    from portal.db import UnitOfWork
    from portal.models import Assessment, DepositOrder, Lease
    from portal.people import users
    from portal.web.data import database
    with demo_app.app_context(), UnitOfWork(database()) as w:
        pid, case = w.session.execute(
            select(Lease.parcel_id, DepositOrder.case_number).join(Lease)
            .where(DepositOrder.lifted_on.is_(None))).first()
    client = login(demo_app, "staff")
    assert case in client.get(f"/propiedad/{pid}").get_data(as_text=True)
    with demo_app.app_context(), UnitOfWork(database()) as w:
        staff = users.find_by_email(w, "staff@demo.pr")
        view = statements.statement_for(w, staff, pid, with_payments=False)
        fy_id = w.session.scalar(select(Assessment.fiscal_year_id).where(
            Assessment.parcel_id == pid).order_by(Assessment.id.desc()))
        ledger.record_office_payment(w, staff, pid, fy_id, view.payoff_amount
                                     or Decimal("10000.00"), reference="R-A14 test")
    html = client.get(f"/propiedad/{pid}").get_data(as_text=True)
    assert case not in html


def _stop_figures(html: str) -> dict[str, str]:
    """The R-C7 figures a page marks: {data-figure: data-amount}."""
    return dict(re.findall(r'data-figure="(sale-stop-[a-z-]+)" data-amount="([0-9.]+)"', html))


def test_what_stops_the_sale_on_both_pages_in_both_languages(demo_app):
    """R-C7: the demo's notice (mailed 2026-11-16; its debt 2,840.00 + 142.00 + 311.65 +
    50.00 = 3,343.65; fee 284.00; custody 35.00). Before any statement of the Treasury, paid
    today (2026-11-30) or on the last day (2026-12-16) it is the notice's total, 3,662.65.
    Staff record the Treasury's statement to 2026-11-25: 18.40 accrued, 0.78 a day after,
    custody 60.00. Today, 5 days after: 18.40 + 3.90 = 22.30; 3,343.65 + 22.30 + 284.00 +
    60.00 = 3,709.95. On the last day, 21 days after: 18.40 + 16.38 = 34.78; 3,722.43. The
    staff's page and the debtor's parcel page show both, in Spanish and in English, equal to
    `portal calc attachment_stop` on the same facts; the notice's PDF states today's."""
    from portal.core.calc import run
    from portal.models import AttachmentAccrual, AttachmentNotice
    staff, owner = login(demo_app, "staff"), login(demo_app, "owner")
    home = _home(demo_app)
    url = f"/personal/embargos/propiedad/{home}"
    html = staff.get(url).get_data(as_text=True)
    assert _stop_figures(html) == {"sale-stop-today": "3662.65",
                                   "sale-stop-last-day": "3662.65"}
    assert "todavía no ha indicado" in html
    from portal.db import UnitOfWork
    from portal.web.data import database
    with demo_app.app_context(), UnitOfWork(database()) as w:
        notice_id = w.session.scalars(select(AttachmentNotice.id)).first()
    p = f"n{notice_id}-"
    path = f"/personal/embargos/aviso/{notice_id}/acumulado"
    form = {"csrf_token": csrf_token(html), p + "stated_on": "2026-11-25",
            p + "accrued": "18.40", p + "per_day": "0.78", p + "custody_costs": "60",
            p + "reference": "Estado 2026-4471"}
    for bad, message in (({p + "stated_on": "2026-11-15"}, "igual o posterior a la fecha de la"),
                         ({p + "stated_on": "2026-12-01"}, "no puede ser un día por venir"),
                         ({p + "accrued": "mucho"}, "Escriba la cantidad solo con números"),
                         ({p + "accrued": ""}, "Escriba la cantidad")):
        r = staff.post(path, data={**form, **bad})
        assert r.status_code == 400, bad
        assert message in r.get_data(as_text=True), (bad, message)
    assert _count(demo_app, AttachmentAccrual) == 0
    r = staff.post(path, data=form)
    assert r.status_code == 303 and _count(demo_app, AttachmentAccrual) == 1
    core = run("attachment_stop", {
        "taxes": "2840.00", "surcharges": "142.00", "interest": "311.65", "penalties": "50.00",
        "custody_costs": "35.00", "notified_on": "2026-11-16", "on": "2026-11-30",
        "accruals": [{"stated_on": "2026-11-25", "accrued": "18.40", "per_day": "0.78",
                      "custody_costs": "60.00"}]})
    assert (core["accrued"], core["stop_amount"], core["stop_amount_on_last_day"]) == \
        ("22.30", "3709.95", "3722.43")
    want = {"sale-stop-today": core["stop_amount"],
            "sale-stop-last-day": core["stop_amount_on_last_day"]}
    texts = {"es": ("Lo que detiene la venta", "$3,709.95", "$3,722.43", "$22.30",
                    "16 de diciembre de 2026"),
             "en": ("What stops the sale", "$3,709.95", "$3,722.43", "$22.30",
                    "December 16, 2026")}
    for lang, expected in texts.items():
        _with_lang(staff, lang)
        _with_lang(owner, lang)
        for who, page in (("staff", staff.get(url)), ("owner", owner.get(f"/propiedad/{home}"))):
            html = page.get_data(as_text=True)
            assert _stop_figures(html) == want, (lang, who)
            for text in expected:
                assert text in html, (lang, who, text)
            assert "Estado 2026-4471" in html
    lessee = login(demo_app, "lessee")
    assert "3,709.95" not in lessee.get(f"/propiedad/{home}").get_data(as_text=True)
    import shutil
    import subprocess
    if shutil.which("pdftotext"):
        with demo_app.app_context(), UnitOfWork(database()) as w:
            debt = w.session.get(AttachmentNotice, notice_id).debt_id
        pdf = owner.get(f"/propiedad/{home}/embargos/{debt}.pdf").data
        text = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True,
                              check=True).stdout.decode()
        assert text.count("$3,709.95") == 2 and text.count("$3,722.43") == 2  # each language


def test_what_stops_the_sale_is_gone_once_paid(demo_app):
    """R-C7: a debt recorded as paid in full shows no amount to stop the sale, and no more
    statements of what accrued are taken (a conflict, nothing written)."""
    from portal.db import UnitOfWork
    from portal.models import AttachmentAccrual, AttachmentNotice
    from portal.web.data import database
    staff = login(demo_app, "staff")
    home = _home(demo_app)
    url = f"/personal/embargos/propiedad/{home}"
    with demo_app.app_context(), UnitOfWork(database()) as w:
        n = w.session.scalars(select(AttachmentNotice)).first()
        notice_id, debt_id = n.id, n.debt_id
    token = csrf_token(staff.get(url).get_data(as_text=True))
    r = staff.post(f"/personal/embargos/deuda/{debt_id}/pagada",
                   data={"csrf_token": token, f"d{debt_id}-paid_on": "2026-11-30"})
    assert r.status_code == 303
    html = staff.get(url).get_data(as_text=True)
    assert _stop_figures(html) == {}
    r = staff.post(f"/personal/embargos/aviso/{notice_id}/acumulado",
                   data={"csrf_token": token, f"n{notice_id}-stated_on": "2026-11-25",
                         f"n{notice_id}-accrued": "1.00"})
    assert r.status_code == 303 and _count(demo_app, AttachmentAccrual) == 0
    assert "ya está registrada como pagada" in staff.get(url).get_data(as_text=True)
