"""The pages with the demo District: dashboard, parcel page (amounts and why), PDF, lessee,
lender and staff views, claim and grant — in Spanish and in English."""

from __future__ import annotations

import re

import pytest

from portal import i18n
from tests.support.demo import parcel_ids
from tests.support.pages import csrf_token, login


def test_owner_dashboard_lists_three_parcels_with_badges(demo_app):
    client = login(demo_app, "owner")
    html = client.get("/mis-propiedades").get_data(as_text=True)
    assert html.count('class="portal-card-list"') == 1
    assert len(re.findall(r'href="/propiedad/\d+"', html)) == len(parcel_ids(demo_app)["owner"])
    assert "vencido" in html and "al día" in html
    assert "Derrama de este año" in html and "A pagar ahora" in html
    assert "Próximo vencimiento" in html and "(queda 1 día)" in html


@pytest.mark.parametrize("lang", ["es", "en"])
def test_parcel_page_explains_every_amount(demo_app, lang):
    client = login(demo_app, "owner")
    ids = parcel_ids(demo_app)["owner"]
    pages = [client.get(f"/propiedad/{pid}?lang={lang}").get_data(as_text=True) for pid in ids]
    delinquent = next(p for p in pages if "10% x " in p and " / 365 = " in p)  # interest runs
    words = {"es": ("¿Por qué esta cantidad?", "Intereses a la fecha", "Cargos por demora",
                    "Costas de cobro", "Correo certificado", "Cantidad para saldar",
                    "Calendario de plazos", "unidades de beneficio", "23 LPRA § 6432(d)"),
             "en": ("Why this amount?", "Interest to date", "Late fees", "Collection costs",
                    "Certified mail", "Pay-off amount", "Installment schedule",
                    "benefit units", "23 LPRA § 6432(d)")}[lang]
    for w in words:
        assert w in delinquent, w
    for rule in ("R-A1", "R-A3", "R-A4", "R-A6", "R-A7", "R-A8", "R-A9", "R-A10"):
        assert rule in delinquent, rule
    assert "<details" in delinquent and "<summary>" in delinquent
    assert f'<html lang="{lang}">' in delinquent


def test_statement_pdf_in_both_languages(demo_app):
    client = login(demo_app, "owner")
    pid = parcel_ids(demo_app)["owner"][0]
    for lang in ("es", "en"):
        r = client.get(f"/propiedad/{pid}/estado-de-cuenta.pdf?lang={lang}")
        assert r.status_code == 200
        assert r.mimetype == "application/pdf"
        assert r.data.startswith(b"%PDF")
        assert len(r.data) > 2000


@pytest.mark.parametrize("lang,words", [
    ("es", ("Estado de cuenta", "Intereses a la fecha", "Cargos por demora", "Costas de cobro",
            "Cantidad para saldar", "Correo certificado")),
    ("en", ("Statement of account", "Interest to date", "Late fees", "Collection costs",
            "Pay-off amount", "Certified mail"))])
def test_pdf_says_it_in_the_readers_language(demo_app, lang, words):
    from portal import clock
    from portal.documents.statement import statement_document
    from portal.web.accounts import views
    owner_ids = parcel_ids(demo_app)["owner"]
    from portal.people import users
    from portal.web.data import uow
    with demo_app.app_context(), i18n.use_language(lang):
        with uow() as w:
            owner = users.find_by_email(w, "owner@demo.pr")
        docs = [statement_document(views.parcel_view(owner, pid, clock.today()))
                for pid in owner_ids]
    text = "\n".join(" ".join([d.title, *(f"{r.label} {r.amount} "
                                          + " ".join(w.text for w in r.why) for r in d.rows)])
                      for d in docs)
    for w in words:
        assert w in text, w
    refs = {w.ref for d in docs for r in d.rows for w in r.why if w.ref}  # the footnotes
    assert any(r.rule == "R-A8" and r.source == "23 LPRA § 6432(d)" for r in refs)


def test_lessee_sees_leased_parcel_with_demand(demo_app):
    client = login(demo_app, "lessee")
    html = client.get("/arrendamientos/").get_data(as_text=True)
    [pid] = [int(x) for x in re.findall(r'href="/propiedad/(\d+)"', html)]
    page = client.get(f"/propiedad/{pid}").get_data(as_text=True)
    assert "arrendatario" in page
    assert "Correo certificado" in page
    assert "R-A12" in page and "R-A13" in page
    assert "Cantidad para saldar" in page


def test_lender_lists_fifty_loans(demo_app):
    client = login(demo_app, "lender")
    html = client.get("/prestamista/prestamos").get_data(as_text=True)
    assert "50 préstamos" in html
    assert len(re.findall(r"BHC-\d{4}-\d{6}", html)) == 50


def test_lender_page_is_404_for_others(demo_app):
    assert login(demo_app, "owner").get("/prestamista/prestamos").status_code == 404


def test_staff_lookup(demo_app):
    client = login(demo_app, "staff")
    html = client.get("/personal/buscar?q=owner@demo").get_data(as_text=True)
    m = re.search(r'href="/personal/persona/(\d+)"', html)
    assert m
    person = client.get(f"/personal/persona/{m.group(1)}").get_data(as_text=True)
    assert "owner@demo.pr" in person
    assert len(re.findall(r'href="/propiedad/\d+"', person)) == len(parcel_ids(demo_app)["owner"])
    html = client.get("/personal/buscar?q=Calle").get_data(as_text=True)
    assert re.search(r'href="/propiedad/\d+"', html)
    short = client.get("/personal/buscar?q=a").get_data(as_text=True)
    assert "Escriba de 3 a 100 caracteres." in short


def test_claim_with_code_then_wrong_code(demo_app):
    from tests.support.pages import outbox_link, sign_up
    result = demo_app.config["DEMO"]
    catastro, code, _address = result.codes[0]
    client = demo_app.test_client()
    sign_up(client, "nuevo@example.com")
    client.get(outbox_link(demo_app))
    client = login(demo_app, "nuevo@example.com", "una frase bastante larga")
    page = client.get("/propiedad/reclamar").get_data(as_text=True)
    r = client.post("/propiedad/reclamar", data={"csrf_token": csrf_token(page),
                                                 "catastro": catastro, "code": "WRONG-CODE"})
    assert r.status_code == 200
    assert "no coinciden" in r.get_data(as_text=True)
    assert f'value="{catastro}"' in r.get_data(as_text=True)
    r = client.post("/propiedad/reclamar", data={"csrf_token": csrf_token(page),
                                                 "catastro": catastro, "code": code})
    assert r.status_code == 303
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "La propiedad se añadió a su cuenta." in html


def test_owner_grants_and_revokes_read_access(demo_app):
    owner = login(demo_app, "owner")
    pid = parcel_ids(demo_app)["owner"][0]
    page = owner.get(f"/propiedad/{pid}").get_data(as_text=True)
    r = owner.post(f"/propiedad/{pid}/acceso", data={"csrf_token": csrf_token(page),
                                                     "email": "user00002@demo.pr"})
    assert r.status_code == 303
    other = login(demo_app, "user00002@demo.pr")
    assert other.get(f"/propiedad/{pid}").status_code == 200
    import email as email_lib

    from tests.support.pages import outbox
    msg = email_lib.message_from_bytes(outbox(demo_app)[-1].read_bytes())
    assert msg["To"] == "user00002@demo.pr"
    assert "puede ver la propiedad" in str(msg["Subject"]) or "can now see parcel" in str(
        msg["Subject"])
    page = owner.get(f"/propiedad/{pid}/acceso").get_data(as_text=True)
    assert "user00002@demo.pr" in page
    assert f'action="/propiedad/{pid}/acceso/quitar"' in page
    r = owner.post(f"/propiedad/{pid}/acceso/quitar",
                   data={"csrf_token": csrf_token(page), "email": "user00002@demo.pr"})
    assert r.status_code == 303
    assert other.get(f"/propiedad/{pid}").status_code == 404


def test_grant_to_unknown_email_explains(demo_app):
    owner = login(demo_app, "owner")
    pid = parcel_ids(demo_app)["owner"][0]
    page = owner.get(f"/propiedad/{pid}").get_data(as_text=True)
    r = owner.post(f"/propiedad/{pid}/acceso", data={"csrf_token": csrf_token(page),
                                                     "email": "nadie@example.com"})
    assert r.status_code == 303  # the same answer as for an account (no enumeration)
    html = owner.get(r.headers["Location"]).get_data(as_text=True)
    assert "Le enviamos un mensaje a nadie@example.com" in html
    import email as email_lib

    from tests.support.pages import outbox
    msg = email_lib.message_from_bytes(outbox(demo_app)[-1].read_bytes())
    assert msg["To"] == "nadie@example.com"  # the invitation to create an account


def test_every_amount_on_the_parcel_page_answers_why(demo_app):
    client = login(demo_app, "lessee")
    [pid] = parcel_ids(demo_app)["lessee"]
    html = client.get(f"/propiedad/{pid}").get_data(as_text=True)
    block = html.split('<dl class="portal-amounts">', 1)[1].split("</dl>", 1)[0]
    items = block.split("<div>")[1:]
    # The figures that are not zero are listed, each explained; the zero ones are summed up
    # in one line after the list.
    assert len(items) >= 4
    for item in items:
        assert "<details" in item and "R-A" in item, item[:200]
        assert "$0.00</span>" not in item or "Total a pagar ahora" in item, item[:200]
    for section in ("Cantidad para saldar", "Pagar todo el año de una vez",
                    "Calendario de plazos", "El presupuesto detrás de esta derrama", "Cobro"):
        part = html.split(f">{section}</h2>", 1)[1].split("<h2", 1)[0]
        assert "¿Por qué esta cantidad?" in part, section


def test_wrong_codes_are_rate_limited_with_a_clear_message(demo_app):
    from portal.accounts import parcels
    client = login(demo_app, "user00002@demo.pr")
    catastro = demo_app.config["DEMO"].codes[2][0]
    page = client.get("/propiedad/reclamar").get_data(as_text=True)
    for _ in range(parcels.MAX_FAILURES):
        client.post("/propiedad/reclamar", data={"csrf_token": csrf_token(page),
                                                 "catastro": catastro, "code": "NOPE-NOPE"})
    r = client.post("/propiedad/reclamar", data={"csrf_token": csrf_token(page),
                                                 "catastro": catastro,
                                                 "code": demo_app.config["DEMO"].codes[2][1]})
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert "Demasiados códigos incorrectos. Intente de nuevo en" in html


def test_overdue_account_without_demand_says_what_happens_next(demo_app):
    client = login(demo_app, "other")
    html = client.get("/mis-propiedades").get_data(as_text=True)
    cards = html.split("<li>")
    overdue = [re.search(r'href="/propiedad/(\d+)"', c).group(1) for c in cards
               if "portal-status--overdue" in c and 'href="/propiedad/' in c]
    assert overdue
    for pid in overdue[:5]:
        page = client.get(f"/propiedad/{pid}").get_data(as_text=True)
        if "Requerimiento de pago enviado" not in page:
            assert "Lo que sigue" in page and "R-A12" in page and "R-A13" in page
            return
    pytest.fail("no overdue account without a demand among the first five")
