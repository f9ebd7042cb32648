"""Paying without an account, through the pages: the catastro number and
the access code, or the notice's signed link, open one parcel's pay flow; the guest pays in
the sandbox and gets the receipt on screen and by email; nothing else opens with the guest
session; wrong codes are refused and throttled; a changed link is refused."""

from __future__ import annotations

import re
from email import message_from_bytes
from email.policy import default as email_policy

from flask import Flask

from portal.payments import guest
from tests.support.demo import app_uow
from tests.support.pages import csrf_token, outbox


def _demo_code(app: Flask) -> tuple[str, str]:
    catastro, code, _address = app.config["DEMO"].codes[0]
    return catastro, code


def _parcel_id(app: Flask, catastro: str) -> int:
    from sqlalchemy import select

    from portal.models import Parcel
    with app_uow(app) as w:
        return w.session.scalar(select(Parcel.id).where(Parcel.catastro == catastro))


def _open_by_code(client, catastro: str, code: str, lang: str = "es"):  # noqa: ANN001, ANN202
    page = client.get("/pagar-sin-cuenta").get_data(as_text=True)
    return client.post("/pagar-sin-cuenta", data={"csrf_token": csrf_token(page),
                                                  "catastro": catastro, "code": code})


def _pay(client, lang: str = "es"):  # noqa: ANN001, ANN202
    """Choose what is due now (or the first option), review, confirm: the sandbox's page."""
    page = client.get("/pagar-sin-cuenta/pagar")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    options = re.findall(r'name="choice-([0-9]+-[0-9]+)" value="(due_now|through-\d+)"', html)
    assert options, "something to pay"
    key, kind = options[0]
    form = {"csrf_token": csrf_token(html), f"choice-{key}": kind,
            "payer_email": "visita@example.com", "payer_name": "Visita Pérez"}
    review = client.post("/pagar-sin-cuenta/revisar", data=form)
    assert review.status_code == 200, review.get_data(as_text=True)[:2000]
    total = re.search(r'name="expected_total" value="([0-9.]+)"', review.get_data(as_text=True))
    confirm = client.post("/pagar-sin-cuenta/confirmar",
                          data={**form, "expected_total": total.group(1)})
    assert confirm.status_code == 303
    return confirm.headers["Location"]


def test_a_guest_pays_by_code_and_gets_the_receipt_on_screen_and_by_email(demo_app: Flask):
    client = demo_app.test_client()
    catastro, code = _demo_code(demo_app)
    r = _open_by_code(client, catastro, code.lower().replace("-", " "))
    assert r.status_code == 303 and r.headers["Location"].endswith("/pagar-sin-cuenta/pagar")
    checkout = _pay(client)
    assert "/pagos/prueba/" in checkout
    sandbox = client.get(checkout)
    assert sandbox.status_code == 200
    back = client.post(checkout, data={"csrf_token": csrf_token(sandbox.get_data(as_text=True)),
                                       "outcome": "card_succeeds"})
    assert back.status_code == 303 and "/pagar-sin-cuenta/pagos/" in back.headers["Location"]
    receipt = client.get(back.headers["Location"], follow_redirects=True)
    html = receipt.get_data(as_text=True)
    assert receipt.status_code == 200 and "Recibo de pago" in html and catastro in html
    assert "visita@example.com" in html and "Visita Pérez" in html
    assert "/propiedad/" not in html  # nothing else of the account
    mails = [message_from_bytes(p.read_bytes(), policy=email_policy) for p in outbox(demo_app)]
    sent = [m for m in mails if m["To"] == "visita@example.com"]
    assert sent and catastro in sent[0].get_body(("plain",)).get_content()
    assert any(part.get_content_type() == "application/pdf" for part in sent[0].iter_attachments())
    pdf = re.search(r'href="(/pagar-sin-cuenta/pagos/\d+/recibo\.pdf)"', html)
    assert pdf and client.get(pdf.group(1)).mimetype == "application/pdf"


def test_the_notice_link_opens_the_pay_page_and_a_changed_one_does_not(demo_app: Flask):
    catastro, _code = _demo_code(demo_app)
    pid = _parcel_id(demo_app, catastro)
    token = guest.pay_link_token(pid, demo_app.config["SECRET_KEY"])
    client = demo_app.test_client()
    r = client.get(f"/pagar-sin-cuenta/enlace/{token}")
    assert r.status_code == 303
    assert catastro in client.get("/pagar-sin-cuenta/pagar").get_data(as_text=True)
    payload, stamp, signature = token.split(".")
    other_payload = guest.pay_link_token(pid + 1, "k").split(".")[0]  # another parcel's
    middle = len(signature) // 2
    flipped = signature[:middle] + ("A" if signature[middle] != "A" else "B") + \
        signature[middle + 1:]
    for bad in (f"{other_payload}.{stamp}.{signature}", f"{payload}.{stamp}.{flipped}",
                guest.pay_link_token(pid, "another-key"), "not-a-token"):
        other = demo_app.test_client()
        r = other.get(f"/pagar-sin-cuenta/enlace/{bad}")
        assert r.status_code == 400 and "no funciona" in r.get_data(as_text=True)
        assert other.get("/pagar-sin-cuenta/pagar").status_code == 403


def test_a_wrong_code_is_refused_and_the_address_throttled(demo_app: Flask):
    from portal.accounts import parcels
    demo_app.config["RATELIMIT_CLAIM"] = "1000 per hour"  # the service's own counter here
    client = demo_app.test_client()
    catastro, code = _demo_code(demo_app)
    for _ in range(parcels.MAX_ADDRESS_FAILURES):
        r = _open_by_code(client, catastro, "AAAA-BBBB-CCCC")
        assert r.status_code == 400 and "no coinciden" in r.get_data(as_text=True)
    r = _open_by_code(client, catastro, code)  # even the right code waits now
    assert r.status_code == 429 and "Demasiados códigos incorrectos" in r.get_data(as_text=True)
    assert client.get("/pagar-sin-cuenta/pagar").status_code == 403


def test_the_guest_session_opens_nothing_else(demo_app: Flask):
    client = demo_app.test_client()
    catastro, code = _demo_code(demo_app)
    assert _open_by_code(client, catastro, code).status_code == 303
    pid = _parcel_id(demo_app, catastro)
    for path in (f"/propiedad/{pid}", f"/propiedad/{pid}/estado-de-cuenta.pdf",
                 f"/propiedad/{pid}/pagos", f"/pagar?parcela={pid}", "/mis-propiedades",
                 f"/propiedad/{pid}/aviso-de-tasacion.pdf"):
        r = client.get(path)
        assert r.status_code == 302 and "/cuenta/entrar" in r.headers["Location"], path
    # another parcel's account posted to the guest's form is refused
    html = client.get("/pagar-sin-cuenta/pagar").get_data(as_text=True)
    r = client.post("/pagar-sin-cuenta/revisar", data={
        "csrf_token": csrf_token(html), f"choice-{pid + 1}-1": "due_now",
        "payer_email": "visita@example.com"})
    assert r.status_code == 400
    # a checkout the guest did not start is not theirs
    assert client.get("/pagar-sin-cuenta/pagos/1/recibo").status_code == 404
    # closing the page ends the session
    client.post("/pagar-sin-cuenta/salir", data={"csrf_token": csrf_token(html)})
    assert client.get("/pagar-sin-cuenta/pagar").status_code == 403


def test_the_guest_session_ends_by_itself(demo_app: Flask):
    from datetime import timedelta

    from portal import clock
    client = demo_app.test_client()
    catastro, code = _demo_code(demo_app)
    assert _open_by_code(client, catastro, code).status_code == 303
    later = clock.now() + timedelta(minutes=guest.SESSION_MINUTES + 1)
    with clock.fixed(later):
        r = client.get("/pagar-sin-cuenta/pagar")
    assert r.status_code == 403 and "se cerró" in r.get_data(as_text=True)


def test_an_email_is_required_for_the_receipt(demo_app: Flask):
    client = demo_app.test_client()
    catastro, code = _demo_code(demo_app)
    _open_by_code(client, catastro, code)
    html = client.get("/pagar-sin-cuenta/pagar").get_data(as_text=True)
    key = re.search(r'name="choice-([0-9]+-[0-9]+)"', html).group(1)
    r = client.post("/pagar-sin-cuenta/revisar", data={
        "csrf_token": csrf_token(html), f"choice-{key}": "through-6", "payer_email": "no"})
    assert r.status_code == 400
    assert "nombre@ejemplo.com" in r.get_data(as_text=True)


def test_a_guest_pays_from_a_bank_account_and_the_bank_settles(demo_app: Flask):
    client = demo_app.test_client()
    catastro, code = _demo_code(demo_app)
    _open_by_code(client, catastro, code)
    checkout = _pay(client)
    sandbox = client.get(checkout)
    back = client.post(checkout, data={"csrf_token": csrf_token(sandbox.get_data(as_text=True)),
                                       "outcome": "bank_processing"})
    receipt = client.get(back.headers["Location"], follow_redirects=True)
    html = receipt.get_data(as_text=True)
    assert "MODO DE PRUEBA" in html  # the bank's answer, test mode
    settle = re.search(r'action="(/pagos/prueba/[^"]+/banco)"', html).group(1)
    r = client.post(settle, data={"csrf_token": csrf_token(html), "result": "settle"})
    assert r.status_code == 303 and "/pagar-sin-cuenta/pagos/" in r.headers["Location"]
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "Recibo de pago" in html
    # someone else's browser may not answer for that bank
    stranger = demo_app.test_client()
    token = csrf_token(stranger.get("/pagar-sin-cuenta").get_data(as_text=True))
    r = stranger.post(settle, data={"csrf_token": token, "result": "fail"})
    assert r.status_code == 302 and "/cuenta/entrar" in r.headers["Location"]
