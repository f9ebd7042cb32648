"""Paying on the demo District (as `make run` serves it), with the sandbox: the lessee pays a
delinquent balance and sees how interest, fees, costs and principal were paid; the owner pays
installments of two parcels in one payment; history shows the demo's own payments too;
replaying nothing changes anything."""

from __future__ import annotations

import re
import shutil
from decimal import Decimal

import pytest
from sqlalchemy import select

from portal import clock
from portal.db import Database, reset_databases
from portal.models import Assessment, Parcel, ParcelLink, User
from tests.support.app import make_app
from tests.support.clock import TODAY
from tests.support.pages import PASSWORD, csrf_token, error_messages, main_text


@pytest.fixture(scope="module")
def demo_file(tmp_path_factory, schema_template):
    from portal.demo import district
    path = tmp_path_factory.mktemp("pay_demo") / "demo.db"
    shutil.copyfile(schema_template, path)
    database = Database(f"sqlite:///{path}")
    with clock.fixed(TODAY):
        district.load(database, parcels_n=60)
    database.dispose()
    return path


@pytest.fixture
def demo_app(demo_file, tmp_path):
    target = tmp_path / "portal.db"
    shutil.copyfile(demo_file, target)
    database = Database(f"sqlite:///{target}")
    with clock.fixed(TODAY):
        yield make_app(tmp_path, database), database
    database.dispose()
    reset_databases()


def sign_in(client, address, lang="es"):
    page = client.get(f"/cuenta/entrar?lang={lang}")
    r = client.post("/cuenta/entrar", data={"csrf_token": csrf_token(page.text), "email": address,
                                            "password": PASSWORD})
    assert r.status_code == 303, error_messages(r.text)
    return csrf_token(client.get("/pagar").text)


def linked(database, address):
    with database.unit_of_work() as uow:
        uid = uow.session.scalar(select(User.id).where(User.email == address))
        return [(p.id, p.catastro) for p in uow.session.scalars(
            select(Parcel).join(ParcelLink, ParcelLink.parcel_id == Parcel.id)
            .where(ParcelLink.user_id == uid, ParcelLink.revoked_at.is_(None))
            .order_by(Parcel.catastro))]


def pay(client, tok, data):
    review = client.post("/pagar/revisar", data={"csrf_token": tok, **data})
    assert review.status_code == 200, error_messages(review.text)
    expected = re.search(r'name="expected_total" value="([^"]+)"', review.text).group(1)
    r = client.post("/pagar/confirmar", data={"csrf_token": tok, "expected_total": expected,
                                              **data})
    assert r.status_code == 303, main_text(r.text)[:300]
    r = client.post(r.headers["Location"], data={"csrf_token": tok,
                                                 "outcome": "card_succeeds"})
    r = client.get(r.headers["Location"])
    return review, client.get(r.headers["Location"])


def test_lessee_pays_a_delinquent_balance(demo_app):
    app, database = demo_app
    client = app.test_client()
    tok = sign_in(client, "lessee@demo.pr")
    choose = client.get("/pagar")
    assert "R-A10" in choose.text  # arrears: the old debt first
    key = re.search(r'name="choice-(\d+-\d+)" value="due_now"', choose.text).group(1)
    review, receipt = pay(client, tok, {f"choice-{key}": "due_now"})
    assert "deuda vencida" in review.text
    body = main_text(receipt.text)
    for words in ("Intereses del plazo", "Cargo por demora del plazo",
                  "Costa de cobro: correo certificado", "Plazo", "R-A8", "R-A7", "R-A9"):
        assert words in body, words
    again = client.get("/pagar")
    assert "No hay nada a pagar ahora" in again.text


def test_paying_what_the_demand_listed_stops_the_court_claim(demo_app):
    """R-A13, R-A18 on the demo: the lessee's demand is in its window; what clears its items
    (with the interest since it was mailed) is quoted on the parcel page, today and on the
    last day, and the pay page charges today's figure. Paying it stops the claim."""
    def dollars(shown):
        return Decimal(shown.lstrip("$").replace(",", ""))

    app, database = demo_app
    client = app.test_client()
    tok = sign_in(client, "lessee@demo.pr", "en")
    [pid] = [p for p, _ in linked(database, "lessee@demo.pr")]
    page = main_text(client.get(f"/propiedad/{pid}?lang=en").text)
    today, by_last = re.search(r"To stop a claim in court, pay (\$[\d,]+\.\d\d) today, or "
                               r"(\$[\d,]+\.\d\d) by the last day", page).groups()
    assert dollars(by_last) > dollars(today)  # interest runs to the last day
    demanded = re.search(r"Demand mailed by certified mail on .+? for (\$[\d,]+\.\d\d)", page)
    assert dollars(today) > dollars(demanded.group(1))  # interest since the demand
    choose = client.get("/pagar?lang=en")
    key = re.search(r'name="choice-(\d+-\d+)" value="stop_claim"', choose.text).group(1)
    assert today in main_text(choose.text)
    review, receipt = pay(client, tok, {f"choice-{key}": "stop_claim"})
    assert today in main_text(receipt.text)
    after = main_text(client.get(f"/propiedad/{pid}?lang=en").text)
    assert "the claim in court is stopped" in after
    assert 'value="stop_claim"' not in client.get("/pagar").text


def test_owner_pays_installments_of_two_parcels_in_one_payment(demo_app):
    app, database = demo_app
    client = app.test_client()
    tok = sign_in(client, "owner@demo.pr")
    choose = client.get("/pagar")
    # Each "installments through N" is its own radio button: the first one of each parcel.
    firsts = {}
    for key, value in re.findall(r'name="choice-(\d+-\d+)" value="(through-\d+)"', choose.text):
        firsts.setdefault(key, value)
    keys = list(firsts)
    assert len(keys) >= 2
    data = {f"choice-{key}": firsts[key] for key in keys[:2]}
    review, receipt = pay(client, tok, data)
    body = main_text(receipt.text)
    assert body.count("Propiedad ") >= 2 and "Tarjeta terminada en 4242" in body
    # The history lists the demo's earlier payments too (recorded without a checkout).
    pid = int(keys[0].split("-")[0])
    history = client.get(f"/propiedad/{pid}/pagos")
    assert history.status_code == 200
    links = re.findall(r'href="(/pagos/(?:pago/)?\d+/recibo)"', history.text)
    assert links
    for link in links:
        page = client.get(link, follow_redirects=True)
        assert page.status_code == 200 and "Traceback" not in page.text


def test_the_demo_offers_the_owner_a_lump_sum_with_its_discount(demo_app):
    """J3 on the demo itself (its "today" is after July 1): the owner's parcel bought from the
    Authority in November, notified 2026-11-16, has its first installments due 2026-12-01, so
    the parcel page and /pagar offer the whole year less 2 % (R-A11); paying it grants it."""
    from decimal import Decimal as D

    from portal.core.money import cents
    app, database = demo_app
    client = app.test_client()
    tok = sign_in(client, "owner@demo.pr")
    with database.unit_of_work() as uow:
        pid, annual = uow.session.execute(
            select(Parcel.id, Assessment.annual_amount)
            .join(Assessment, Assessment.parcel_id == Parcel.id)
            .where(Parcel.address.like("Calle San Agustín 310%"))).one()
    assert pid in [p for p, _ in linked(database, "owner@demo.pr")]
    discount = cents(D("0.02") * annual)
    page = main_text(client.get(f"/propiedad/{pid}").text)
    assert "Pagar todo el año de una vez" in page
    assert (f"Pague ${annual - discount:,.2f} en un solo pago y ahorre ${discount:,.2f}"
            in page), page[page.find("Pagar todo el año"):][:300]
    assert "no está disponible" not in page
    choose = client.get(f"/pagar?parcela={pid}")
    key = re.search(r'name="choice-(\d+-\d+)" value="lump_sum"', choose.text).group(1)
    body = main_text(choose.text)
    for figure in (annual - discount, discount):
        assert f"${figure:,.2f}" in body, figure
    assert "1 de diciembre de 2026" in body
    review, receipt = pay(client, tok, {f"choice-{key}": "lump_sum"})
    assert "Descuento por pago global (R-A11)" in review.text
    body = main_text(receipt.text)
    assert "Descuento por pago global (R-A11)" in body and f"${discount:,.2f}" in body
    assert f"Total pagado ${annual - discount:,.2f}" in body
    after = main_text(client.get(f"/pagar?parcela={pid}").text)
    assert "se concedió el 30 de noviembre de 2026" in after, after[:600]
    # The parcel page's "What you owe" lists what is owed, never the discount.
    page = client.get(f"/propiedad/{pid}").text
    owed = page.split("<h2>Lo que debe</h2>", 1)[1].split("<h2", 1)[0]
    listed = owed.split("No se debe:", 1)[0]
    assert "Descuento por pago global" not in listed
    assert f"No se debe: Descuento por pago global de ${discount:,.2f}" in main_text(page)
    # The paid receipt says what was due when paid and what is left (nothing, the year paid).
    body = main_text(receipt.text)
    assert "Lo que vence ahora" not in body
    assert ("Lo que queda en esta cuenta el 30 de noviembre de 2026: $0.00 a pagar ahora; "
            "$0.00 para saldar el año.") in body
