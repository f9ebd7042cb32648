"""The portfolio and the bill file in a real browser, in Spanish and in English: the demo bank's
administrator opens "Your portfolio" from the loans page, adds one loan (a wrong owner's name
first: the reason on the field), uploads an add/delete file with one good and one bad row and
reads the per-row report; then makes a bill file, filters it to one loan, pays: the payment
prepared and kept with its exceptions report ("nothing changed"), then started (the test
checkout). Every page clean under axe at 1,280 and 375 px (no sideways scroll)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from tests.support.browser import REASON, axe_violations, second_step

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WORDS = {
    "es": {"email": "Correo electrónico", "password": "Contraseña", "sign_in": "Entrar",
           "portfolio": "Su cartera: añadir y quitar préstamos", "loan": "Número de préstamo",
           "catastro": "Número de catastro", "owner": "Nombre del dueño (para añadir)",
           "send": "Enviar", "not_owner": "no es de un dueño registrado",
           "added": "Se añadió el préstamo", "file": "El archivo CSV de altas y bajas",
           "upload": "Subir el archivo", "not_on_roll": "Ninguna propiedad del padrón",
           "bills": "Archivos de facturas", "make": "Hacer el archivo de facturas",
           "q": "Número de préstamo o de catastro", "show": "Mostrar",
           "pay": "Pagar estas líneas en un solo pago",
           "nothing": "Nada cambió desde que se hizo el archivo."},
    "en": {"email": "Email", "password": "Password", "sign_in": "Sign in",
           "portfolio": "Your portfolio: add and remove loans", "loan": "Loan number",
           "catastro": "Catastro number", "owner": "Owner's name (to add)", "send": "Send",
           "not_owner": "is not an owner on record", "added": "added to your portfolio",
           "file": "The add/delete CSV file", "upload": "Upload the file",
           "not_on_roll": "No parcel on the roll", "bills": "Bill files",
           "make": "Make the bill file", "q": "Loan or catastro number", "show": "Show",
           "pay": "Pay these lines in one payment",
           "nothing": "Nothing changed since the file was made."},
}


def _check(page) -> None:  # noqa: ANN001
    assert axe_violations(page) == [], page.url
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= width, f"{page.url} scrolls sideways at {width} px ({wide})"
    page.set_viewport_size({"width": 1280, "height": 900})


def _free_parcels(app):  # noqa: ANN001, ANN202
    """Two parcels with an owner (a person) and no loan: [(catastro, name)]."""
    from portal import clock
    from portal.db import UnitOfWork
    from portal.models import Loan, OwnershipShare, Parcel, Party
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        rows = w.session.execute(
            select(Parcel.catastro, Party.name, Parcel.id)
            .join(OwnershipShare, OwnershipShare.parcel_id == Parcel.id)
            .join(Party, Party.id == OwnershipShare.party_id)
            .where(Party.kind == "person", OwnershipShare.ends_on.is_(None),
                   OwnershipShare.starts_on <= clock.today(),
                   Parcel.id.not_in(select(Loan.parcel_id)))
            .order_by(Parcel.id).limit(40)).all()
    out, seen = [], set()
    for cat, name, pid in rows:
        if pid not in seen:
            seen.add(pid)
            out.append((cat, name))
    return out[:2]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_portfolio_and_bill_file(live, page, lang, tmp_path):  # noqa: ANN001
    from portal.jobs import queue
    from portal.web.data import database
    app, url = live
    w = WORDS[lang]
    with app.app_context():
        queue.use_immediate(database())
    (cat, name), (cat2, name2) = _free_parcels(app)
    try:
        page.set_default_timeout(60_000)
        page.goto(f"{url}/cuenta/entrar?lang={lang}")
        page.get_by_label(w["email"]).fill("lender@demo.pr")
        page.get_by_label(w["password"], exact=True).fill("Distrito2026!")
        page.locator("main").get_by_role("button", name=w["sign_in"]).click()
        second_step(page)
        page.wait_for_url("**/mis-propiedades")
        page.goto(f"{url}/prestamista/prestamos?lang={lang}")
        main = page.locator("main")
        main.get_by_role("link", name=w["portfolio"]).first.click()
        expect(page.locator("html")).to_have_attribute("lang", lang)
        _check(page)
        page.get_by_label(w["loan"]).fill(f"E2E-{lang}-1")
        page.get_by_label(w["catastro"]).fill(cat)
        page.get_by_label(w["owner"]).fill("Nadie Conocido")
        page.get_by_role("button", name=w["send"]).click()
        expect(main).to_contain_text(w["not_owner"])
        _check(page)
        page.get_by_label(w["owner"]).fill(name)
        page.get_by_role("button", name=w["send"]).click()
        expect(main).to_contain_text(w["added"])
        _check(page)
        data = tmp_path / "cartera.csv"
        data.write_bytes((
            "accion;numero_prestamo;catastro;nombre_dueno;cuenta_reserva\r\n"
            f"alta;E2E-{lang}-2;{cat2};{name2};si\r\n"
            f"alta;E2E-{lang}-3;999-999-999-99;{name2};\r\n").encode("cp1252"))
        page.get_by_label(w["file"]).set_input_files(str(data))
        page.get_by_role("button", name=w["upload"]).click()
        expect(main.locator("table tbody tr")).to_have_count(2)
        expect(main.locator("table tbody")).to_contain_text(w["not_on_roll"])
        _check(page)

        page.goto(f"{url}/prestamista/prestamos")
        main.get_by_role("link", name=w["bills"]).first.click()
        _check(page)
        page.get_by_role("button", name=w["make"]).click()
        expect(main.locator("#bill-total")).to_be_visible()
        _check(page)
        first = main.locator("table tbody tr th").first.inner_text()
        page.get_by_label(w["q"]).fill(first)
        main.get_by_role("button", name=w["show"]).click()
        expect(main.locator("table tbody tr")).to_have_count(1)
        page.get_by_role("button", name=w["pay"]).click()
        page.wait_for_url("**/facturas/*/pagos/*")
        expect(main).to_contain_text(w["nothing"])
        _check(page)
        page.locator("#pay-confirm").click()  # the kept payment, started: the checkout
        page.wait_for_url("**/pagos/prueba/**")
    finally:
        queue.reset()
