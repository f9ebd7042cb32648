"""Autopay's pages through the Flask test client on the payments' world (the sandbox): a
method saved on the sandbox's setup page, enrolling, the day's debit shown on the page and
to staff, bad input said in the payer's language and changing nothing, cancelling, saved
methods listed and removed; nobody reads or changes another person's."""

from __future__ import annotations

import re
from datetime import date

import pytest
from sqlalchemy import select

from portal.models.autopay import AutopayEnrolment, SavedMethod
from portal.payments import gateway_settings
from portal.payments.autopay import debits
from tests.support.clock import fixed_on
from tests.support.pages import PASSWORD, csrf_token, error_messages, main_text
from tests.support.payments import count, sign_in_to_pay
from tests.support.world import set_passwords

OCT_1 = date(2026, 10, 1)


@pytest.fixture
def world(world):  # noqa: ANN001, ANN201
    set_passwords(world, PASSWORD)
    return world


def save_card(client, parcel_id: int, outcome: str = "card") -> str:  # noqa: ANN001
    page = client.get(f"/propiedad/{parcel_id}/pago-automatico")
    assert page.status_code == 200
    r = client.post(f"/propiedad/{parcel_id}/pago-automatico/metodo",
                    data={"csrf_token": csrf_token(page.text)})
    assert r.status_code == 303 and "/pagos/prueba/metodo/" in r.headers["Location"]
    setup = client.get(r.headers["Location"])
    assert "MODO DE PRUEBA" in setup.text
    back = client.post(r.headers["Location"], data={"csrf_token": csrf_token(setup.text),
                                                    "outcome": outcome})
    assert back.status_code == 303 and "/pagos/metodo/" in back.headers["Location"]
    done = client.get(back.headers["Location"])
    assert done.status_code == 303
    return client.get(done.headers["Location"]).text


@pytest.mark.parametrize("lang", ["es", "en"])
def test_enrol_debit_cancel(app, world, lang) -> None:  # noqa: ANN001
    pid = world.parcel_ids[0]
    client = app.test_client()
    sign_in_to_pay(client, lang=lang)
    page = save_card(client, pid)
    words = {"es": ("Tarjeta", "terminada en 4242"), "en": ("Card", "ending in 4242")}[lang]
    assert all(w in page for w in words), main_text(page)
    with world.uow() as uow:
        method = uow.session.scalars(select(SavedMethod)).one()
    r = client.post(f"/propiedad/{pid}/pago-automatico", data={
        "csrf_token": csrf_token(page), "method": str(method.id), "plan": "installments"})
    assert r.status_code == 303
    page = client.get(f"/propiedad/{pid}/pago-automatico").text
    assert 'data-autopay="on"' in page and 'data-figure="autopay-next"' in page
    with fixed_on(OCT_1):
        db = world.database
        counts = debits.run_day(db, OCT_1, gateway=gateway_settings.gateway(app.config, db),
                                config=app.config)
    assert counts.get("posted") == 1
    page = client.get(f"/propiedad/{pid}/pago-automatico").text
    assert 'data-debit="succeeded"' in page and "2026-000001" in page
    # Staff see it.
    staff = app.test_client()
    sign_in_to_pay(staff, "staff@example.com", lang=lang)
    listed = staff.get("/personal/pago-automatico")
    assert listed.status_code == 200 and 'data-enrolment="live"' in listed.text
    # Cancel.
    r = client.post(f"/propiedad/{pid}/pago-automatico/cancelar",
                    data={"csrf_token": csrf_token(page)})
    assert r.status_code == 303
    with world.uow() as uow:
        assert uow.session.scalars(select(AutopayEnrolment)).one().end_reason == "cancelled"
    assert 'data-autopay="on"' not in client.get(f"/propiedad/{pid}/pago-automatico").text


@pytest.mark.parametrize(("lang", "typed", "message"), [
    ("es", "", "Escriba la fecha"), ("en", "", "Write the date"),
    ("en", "31/02/2026", "Write the date as"), ("es", "2026-13-01", "Escriba la fecha como"),
])
def test_bad_lump_sum_day_changes_nothing(app, world, lang, typed, message) -> None:  # noqa: ANN001
    """Before the lump-sum deadline (1 July), a day missing or malformed is said, on its
    field, in the payer's language; nothing is enrolled."""
    with fixed_on(date(2026, 6, 10)):
        pid = world.parcel_ids[0]
        client = app.test_client()
        sign_in_to_pay(client, lang=lang)
        page = save_card(client, pid)
        with world.uow() as uow:
            method = uow.session.scalars(select(SavedMethod)).one()
        r = client.post(f"/propiedad/{pid}/pago-automatico", data={
            "csrf_token": csrf_token(page), "method": str(method.id), "plan": "lump_sum",
            "lump_sum_on": typed})
        assert r.status_code == 400
        assert any(message in m for m in error_messages(r.text)), error_messages(r.text)
        assert count(world, AutopayEnrolment) == 0
        r = client.post(f"/propiedad/{pid}/pago-automatico", data={
            "csrf_token": csrf_token(page), "method": str(method.id), "plan": "lump_sum",
            "lump_sum_on": "2026-07-15"})
        assert r.status_code == 400 and count(world, AutopayEnrolment) == 0
        r = client.post(f"/propiedad/{pid}/pago-automatico", data={
            "csrf_token": csrf_token(page), "method": str(method.id), "plan": "lump_sum",
            "lump_sum_on": "2026-06-30"})
        assert r.status_code == 303 and count(world, AutopayEnrolment) == 1


def test_methods_listed_removed_and_nobody_elses(app, world) -> None:  # noqa: ANN001
    pid = world.parcel_ids[0]
    client = app.test_client()
    sign_in_to_pay(client)
    save_card(client, pid)
    listing = client.get("/cuenta/metodos-de-pago")
    assert listing.status_code == 200 and "4242" in listing.text
    method_id = re.search(r"/cuenta/metodos-de-pago/(\d+)/quitar", listing.text).group(1)
    other = app.test_client()
    tok = sign_in_to_pay(other, "otro@example.com", lang="en")
    assert "4242" not in other.get("/cuenta/metodos-de-pago").text
    assert other.post(f"/cuenta/metodos-de-pago/{method_id}/quitar",
                      data={"csrf_token": tok}).status_code == 404
    assert other.get(f"/propiedad/{pid}/pago-automatico").status_code == 404
    assert other.post(f"/propiedad/{pid}/pago-automatico", data={
        "csrf_token": tok, "method": method_id, "plan": "installments"}).status_code == 404
    assert other.post(f"/propiedad/{pid}/pago-automatico/metodo",
                      data={"csrf_token": tok}).status_code == 404
    staff = app.test_client()
    sign_in_to_pay(staff, "staff@example.com")
    assert staff.get(f"/propiedad/{pid}/pago-automatico").status_code == 200  # reads only
    assert other.get("/personal/pago-automatico").status_code in (403, 404)
    r = client.post(f"/cuenta/metodos-de-pago/{method_id}/quitar",
                    data={"csrf_token": csrf_token(listing.text)})
    assert r.status_code == 303
    with world.uow() as uow:
        assert uow.session.scalars(select(SavedMethod)).one().removed_at is not None
