"""The portfolio kept by the bank and the bill file, as pages: one loan added or
removed (its reason on the field, nothing changed), the add/delete file's page and report,
the owner's page naming the bank, the bill file's page, CSV, filters, exceptions report and
the payments' review of one payment; only the lender's members (others 404)."""

from __future__ import annotations

import io
import re

import pytest
from flask import Flask
from sqlalchemy import select

from portal import clock
from portal.jobs import queue
from portal.web.data import database
from tests.support.demo import app_uow
from tests.support.pages import csrf_token, login


@pytest.fixture
def app(demo_app: Flask):  # noqa: ANN201
    with demo_app.app_context():
        queue.use_immediate(database())
    yield demo_app
    queue.reset()


def owner_parcel(app: Flask):  # noqa: ANN201
    """The demo owner's parcel without a loan: (catastro, the owner's name, parcel id)."""
    from portal.models import Loan, OwnershipShare, Parcel, ParcelLink, Party, User
    with app_uow(app) as w:
        user = w.session.scalar(select(User).where(User.email == "owner@demo.pr"))
        return w.session.execute(
            select(Parcel.catastro, Party.name, Parcel.id)
            .join(OwnershipShare, OwnershipShare.parcel_id == Parcel.id)
            .join(Party, Party.id == OwnershipShare.party_id)
            .join(ParcelLink, ParcelLink.parcel_id == Parcel.id)
            .where(ParcelLink.user_id == user.id, ParcelLink.role == "owner",
                   Parcel.id.not_in(select(Loan.parcel_id)),
                   OwnershipShare.ends_on.is_(None))
            .order_by(Parcel.id).limit(1)).one()


def test_one_loan_added_and_the_owner_sees_the_bank(app: Flask) -> None:
    cat, name, pid = owner_parcel(app)
    c = login(app, "lender")
    page = c.get("/prestamista/cartera").get_data(as_text=True)
    tok = csrf_token(page)
    bad = c.post("/prestamista/cartera", data={
        "csrf_token": tok, "action": "add", "loan_number": "W-1", "catastro": cat,
        "owner_name": "Nadie Conocido", "escrow": "yes"})
    assert bad.status_code == 400
    assert "no es un dueño" in bad.get_data(as_text=True).lower() or \
        "owner_name" in bad.get_data(as_text=True)
    ok = c.post("/prestamista/cartera", data={
        "csrf_token": tok, "action": "add", "loan_number": "W-1", "catastro": cat,
        "owner_name": name, "escrow": "yes"})
    assert ok.status_code == 200 and 'id="change-done"' in ok.get_data(as_text=True)
    owner = login(app, "owner")
    text = owner.get(f"/propiedad/{pid}").get_data(as_text=True)
    assert 'id="servicers"' in text and "Banco Hipotecario del Caribe" in text
    # removed: the owner's page no longer names it
    gone = c.post("/prestamista/cartera", data={
        "csrf_token": tok, "action": "delete", "loan_number": "W-1", "catastro": cat})
    assert gone.status_code == 200
    assert 'id="servicers"' not in owner.get(f"/propiedad/{pid}").get_data(as_text=True)


def test_file_upload_report_and_csv(app: Flask) -> None:
    cat, name, _pid = owner_parcel(app)
    c = login(app, "lender")
    tok = csrf_token(c.get("/prestamista/cartera").get_data(as_text=True))
    data = (f"accion,numero_prestamo,catastro,nombre_dueno,cuenta_reserva\r\n"
            f"alta,F-1,{cat},{name},no\r\nalta,F-2,999-999-999-99,{name},\r\n").encode()
    r = c.post("/prestamista/cartera/archivo", data={
        "csrf_token": tok, "file": (io.BytesIO(data), "cartera.csv")},
        content_type="multipart/form-data")
    assert r.status_code == 303
    page = c.get(r.headers["Location"]).get_data(as_text=True)
    assert "Ninguna propiedad del padrón" in page or "No parcel on the roll" in page
    report = c.get(r.headers["Location"] + "/informe.csv").get_data(as_text=True)
    assert report.count("\r\n") == 3
    bad = c.post("/prestamista/cartera/archivo", data={
        "csrf_token": tok, "file": (io.BytesIO(b"foo,bar\r\n1,2\r\n"), "x.csv")},
        content_type="multipart/form-data")
    assert bad.status_code == 400
    assert c.get("/prestamista/cartera/plantilla.csv").status_code == 200


def test_others_get_404(app: Flask) -> None:
    owner = login(app, "owner")
    for path in ("/prestamista/cartera", "/prestamista/facturas"):
        assert owner.get(path).status_code == 404


@pytest.mark.parametrize(("lang", "hint", "refused", "typed", "read"), [
    ("es", "Por ejemplo, 30/11/2026 (día, mes y año), o 2026-11-30.",
     "Escriba la fecha como 30/11/2026 (día, mes y año), o como AAAA-MM-DD.",
     "12/31/2026", "31/12/2026"),
    ("en", "For example 11/30/2026 (month, day and year), or 2026-11-30.",
     "Write the date as 11/30/2026 (month, day and year), or as YYYY-MM-DD.",
     "31/12/2026", "12/31/2026")])
def test_the_bill_pages_date_hint_is_the_readers_order(app: Flask, lang: str, hint: str,
                                                       refused: str, typed: str,
                                                       read: str) -> None:
    """The due date is read in the reader's order (day first in Spanish, month first in
    English): the hint and the refusal say that order, never the other language's."""
    from html import unescape
    c = login(app, "lender")
    tok = csrf_token(c.get("/prestamista/facturas").get_data(as_text=True))
    c.post("/idioma", data={"csrf_token": tok, "lang": lang})
    page = unescape(c.get("/prestamista/facturas").get_data(as_text=True))
    assert hint in page and "15/01/2027" not in page
    bad = c.post("/prestamista/facturas", data={"csrf_token": tok, "due_by": typed})
    assert bad.status_code == 400 and refused in unescape(bad.get_data(as_text=True))
    r = c.post("/prestamista/facturas", data={"csrf_token": tok, "due_by": read})
    assert r.status_code == 303
    body = unescape(c.get(r.headers["Location"]).get_data(as_text=True))
    assert hint in body


def test_bill_file_pages_and_pay(app: Flask) -> None:
    c = login(app, "lender")
    page = c.get("/prestamista/facturas").get_data(as_text=True)
    tok = csrf_token(page)
    bad = c.post("/prestamista/facturas", data={"csrf_token": tok, "fiscal_year": "1999-2000",
                                                "due_by": ""})
    assert bad.status_code == 400
    bad = c.post("/prestamista/facturas", data={"csrf_token": tok, "due_by": "31/31/2027"})
    assert bad.status_code == 400
    r = c.post("/prestamista/facturas", data={"csrf_token": tok, "due_by": ""})
    assert r.status_code == 303
    url = r.headers["Location"]
    text = c.get(url + "?adeudadas=1").get_data(as_text=True)
    assert 'id="bill-total"' in text
    assert c.get(url + "?hasta=xx").status_code == 400
    assert c.get(url + "?pagina=999").status_code == 404  # past the last page
    assert c.get(url + "?pagina=x").status_code == 404
    csv_text = c.get(url + ".csv").get_data(as_text=True)
    assert csv_text.startswith("\ufeffnumero_prestamo")
    first = re.search(r"\r\n([^,]+),", csv_text).group(1)
    prepared = c.post(url + "/pagar", data={"csrf_token": tok, "q": first})
    assert prepared.status_code == 303
    pay_url = prepared.headers["Location"]
    assert "/pagos/" in pay_url
    body = c.get(pay_url).get_data(as_text=True)
    assert 'id="no-exceptions"' in body
    assert c.get(pay_url + "?pagina=2").status_code == 404
    csv_text = c.get(pay_url + "/excepciones.csv").get_data(as_text=True)
    assert csv_text == "\ufeffnumero_prestamo,catastro,cantidad_en_archivo,cantidad_hoy," \
        "excepcion\r\n"
    expected = re.search(r'name="expected_total" value="([^"]+)"', body).group(1)
    stale = c.post(pay_url + "/confirmar", data={"csrf_token": tok, "expected_total": "0.01"})
    assert stale.status_code == 409 and 'id="pay-error"' in stale.get_data(as_text=True)
    r = c.post(pay_url + "/confirmar", data={"csrf_token": tok, "expected_total": expected})
    assert r.status_code == 303, r.get_data(as_text=True)[:400]
    sandbox = r.headers["Location"]
    assert sandbox.startswith("/pagos/prueba/cs_sandbox_")
    r = c.post(sandbox, data={"csrf_token": tok, "outcome": "card_succeeds"})
    assert r.status_code == 303
    r = c.get(r.headers["Location"])  # the success page settles, then the receipt
    assert r.status_code == 303 and "/recibo" in r.headers["Location"], r.headers
    # the whole file, unfiltered: one payment, its exceptions kept (the line just paid:
    # nothing owed any more)
    whole = c.post(url + "/pagar", data={"csrf_token": tok}).headers["Location"]
    page = c.get(whole).get_data(as_text=True)
    assert 'data-code="paid"' in page, re.findall(r'data-code="([a-z_]+)"', page)
    assert c.get(whole + "/excepciones.csv").get_data(as_text=True).count("\r\n") >= 2
    # another lender's user: 404
    from tests.support.lenders import second_lender
    with app_uow(app) as w:
        second_lender(w)
    other = login(app, "user00001@demo.pr")
    assert other.get(url).status_code == 404
    assert clock.today()


def test_no_one_else_posts(app: Flask) -> None:
    """Every other role and another bank's administrator: each POST is 404 (or the sign-in
    page) and nothing is written; another bank's file is 404 to them."""
    from tests.support.hostile import fingerprint
    from tests.support.lenders import second_lender
    c = login(app, "lender")
    tok = csrf_token(c.get("/prestamista/facturas").get_data(as_text=True))
    url = c.post("/prestamista/facturas", data={"csrf_token": tok}).headers["Location"]
    fid = url.rsplit("/", 1)[1]
    pay_id = c.post(url + "/pagar", data={"csrf_token": tok}).headers["Location"].rsplit(
        "/", 1)[1]
    with app_uow(app) as w:
        second_lender(w)
    posts = ["/prestamista/cartera", "/prestamista/cartera/archivo", "/prestamista/facturas",
             f"/prestamista/facturas/{fid}/pagar",
             f"/prestamista/facturas/{fid}/pagos/{pay_id}/confirmar"]
    for who in ("owner", "lessee", "staff", "other"):  # "other" is Banco B's administrator
        client = login(app, who)
        token = csrf_token(client.get("/").get_data(as_text=True))
        for path in posts:
            before = fingerprint(app)
            r = client.post(path, data={"csrf_token": token, "action": "add",
                                        "loan_number": "Z-1", "catastro": "040-000-000-00",
                                        "owner_name": "A B"})
            if who == "other" and path in posts[:3]:
                continue  # its own bank's portfolio and files: allowed
            assert r.status_code == 404, (who, path, r.status_code)
            assert fingerprint(app) == before, (who, path)
        for path in (posts[-1].rsplit("/", 1)[0], posts[-1].rsplit("/", 1)[0]
                     + "/excepciones.csv"):  # the kept payment and its report: theirs only
            assert client.get(path).status_code == 404, (who, path)
    anon = app.test_client()
    for path in posts:
        assert anon.post(path).status_code in (302, 400)


def test_someone_else_paying_is_confirmed_before_the_bill_payment_starts(app: Flask) -> None:
    """The owner has a payment of one of the bank's parcels open: starting the bank's
    payment of the whole file asks to confirm (409, the box, nothing started); checked, it
    starts (one checkout of every item)."""
    from portal.accounts import access
    from portal.models import BillPayment
    from portal.payments import service
    from portal.people import users
    with app_uow(app) as w:
        owner, bank = (users.find_by_email(w, e) for e in ("owner@demo.pr", "lender@demo.pr"))
        lent = sorted({p.id for p, _ in access.linked_parcels(w, owner)}
                      & {p.id for p, _ in access.linked_parcels(w, bank)})
        key = service.payable_accounts(w, owner, parcel_id=lent[0])[-1].key
    o = login(app, "owner")
    otok = csrf_token(o.get("/pagar").get_data(as_text=True))
    data = {"csrf_token": otok, f"choice-{key}": "amount", f"amount-{key}": "1.00"}
    review = o.post("/pagar/revisar", data=data).get_data(as_text=True)
    expected = re.search(r'name="expected_total" value="([^"]+)"', review).group(1)
    assert o.post("/pagar/confirmar", data={**data, "expected_total": expected}
                  ).status_code == 303  # the owner's checkout, open
    c = login(app, "lender")
    tok = csrf_token(c.get("/prestamista/facturas").get_data(as_text=True))
    url = c.post("/prestamista/facturas", data={"csrf_token": tok}).headers["Location"]
    pay_url = c.post(url + "/pagar", data={"csrf_token": tok}).headers["Location"]
    total = re.search(r'name="expected_total" value="([^"]+)"',
                      c.get(pay_url).get_data(as_text=True)).group(1)
    r = c.post(pay_url + "/confirmar", data={"csrf_token": tok, "expected_total": total})
    assert r.status_code == 409
    assert 'id="pay-anyway"' in r.get_data(as_text=True)
    with app_uow(app) as w:
        assert w.session.scalar(select(BillPayment.checkout_id)) is None  # nothing started
    r = c.post(pay_url + "/confirmar", data={"csrf_token": tok, "expected_total": total,
                                             "pay_anyway": "yes"})
    assert r.status_code == 303 and r.headers["Location"].startswith("/pagos/prueba/")
    with app_uow(app) as w:
        assert w.session.scalar(select(BillPayment.checkout_id)) is not None
