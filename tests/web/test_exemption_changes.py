"""Change reports of the residential exemption (J6) on the web: the owner's two steps, the
confirmation and its email, staff's list and acknowledge, the lender's list, bad input in both
languages, and who may see what (another owner, a lessee, a lender: 404). R-B5, R-B9, R-B12."""

from __future__ import annotations

import email
import re
from datetime import date

import pytest
from flask import Flask

from tests.support.demo import home_parcel, parcel_ids
from tests.support.pages import csrf_token, login, outbox

ATTEST = {"attest": "y", "full_name": "María Rivera Ortiz"}  # R-B12: the box and the name


def _english(client) -> None:  # noqa: ANN001
    token = csrf_token(client.get("/").get_data(as_text=True))
    client.post("/idioma", data={"csrf_token": token, "lang": "en", "next": "/"})


def _review(client, pid: int, **data):  # noqa: ANN001, ANN003, ANN202
    page = client.get(f"/propiedad/{pid}/cambio").get_data(as_text=True)
    form = {"csrf_token": csrf_token(page), "action": "review", **data}
    return client.post(f"/propiedad/{pid}/cambio", data=form)


def test_owner_reports_the_house_rented_out_and_sees_deadline_and_consequences(demo_app):
    pid = home_parcel(demo_app)
    owner = login(demo_app, "owner")
    page = owner.get(f"/propiedad/{pid}").get_data(as_text=True)
    assert f'href="/propiedad/{pid}/cambio"' in page
    form = owner.get(f"/propiedad/{pid}/cambio")
    assert form.status_code == 200
    html = form.get_data(as_text=True)
    assert "31 de diciembre de 2026" in html and "31 días" in html  # R-B9, from Nov 30
    assert "préstamo" in html  # the lender forwards it
    r = _review(owner, pid, kind="rented", change_date="2026-11-15", details="Alquilada")
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert "31 de diciembre de 2026" in html
    assert "2027-2028" in html  # R-B18: the first FY judged on a January 1 after it
    assert "$500.00" in html and "R-B12" in html  # the penalty for not reporting
    # R-B12: intent is named for a change in qualifications, none for a transfer
    assert "dejar intencionalmente de notificar un cambio en sus cualificaciones" in html
    assert "haya o no intención" in html
    assert "R-B7" in html
    token = csrf_token(html)
    before = len(outbox(demo_app))
    r = owner.post(f"/propiedad/{pid}/cambio", data={
        "csrf_token": token, "action": "send", **ATTEST, "kind": "rented",
        "change_date": "2026-11-15",
        "details": "Alquilada"})
    assert r.status_code == 303
    m = re.search(r"/cambios/(\d+)$", r.headers["Location"])
    assert m
    conf = owner.get(r.headers["Location"]).get_data(as_text=True)
    number = re.search(r"C-2026-\d{6}", conf).group(0)
    assert "Alquilada" in conf and "A tiempo" in conf
    mails = outbox(demo_app)[before:]
    assert len(mails) == 1
    msg = email.message_from_bytes(mails[0].read_bytes())
    assert number in msg["Subject"] and msg["To"] == "owner@demo.pr"
    body = msg.get_payload(decode=True).decode()
    assert "31 de diciembre de 2026" in body and "préstamo" in body

    # The lender sees it on its list, to forward by December 31 (R-B9).
    lender = login(demo_app, "lender")
    lhtml = lender.get("/prestamista/cambios").get_data(as_text=True)
    assert number in lhtml
    assert lender.get(f"/cambios/{m.group(1)}").status_code == 200
    assert 'href="/prestamista/prestamos"' in lhtml
    assert 'href="/prestamista/cambios"' in lender.get("/prestamista/prestamos").get_data(
        as_text=True)
    # ... and records that it forwarded it to the CRIM, once (R-B9).
    forward = f"/prestamista/cambios/{m.group(1)}/enviada"
    assert owner.post(forward, data={"csrf_token": token}).status_code == 404  # not a lender
    r = lender.post(forward, data={"csrf_token": csrf_token(lhtml)}, follow_redirects=True)
    assert "como enviada al CRIM" in r.get_data(as_text=True)
    assert "30 de noviembre de 2026" in r.get_data(as_text=True)
    r = lender.post(forward, data={"csrf_token": csrf_token(lhtml)}, follow_redirects=True)
    assert "ya estaba registrada como enviada" in r.get_data(as_text=True)
    assert "registró que la envió el 30 de noviembre de 2026" in owner.get(
        f"/cambios/{m.group(1)}").get_data(as_text=True)

    # Staff sees it, acknowledges it once.
    staff = login(demo_app, "staff")
    assert 'href="/personal/cambios"' in staff.get("/personal/buscar").get_data(as_text=True)
    shtml = staff.get("/personal/cambios?estado=filed").get_data(as_text=True)
    assert number in shtml
    token = csrf_token(shtml)
    r = staff.post(f"/personal/cambios/{m.group(1)}/acuse", data={"csrf_token": token})
    assert r.status_code == 303
    link = f'href="/cambios/{m.group(1)}"'
    assert link not in staff.get("/personal/cambios?estado=filed").get_data(as_text=True)
    assert link in staff.get("/personal/cambios?estado=acknowledged").get_data(as_text=True)
    r = staff.post(f"/personal/cambios/{m.group(1)}/acuse", data={"csrf_token": token},
                   follow_redirects=True)
    assert "Ya se había" in r.get_data(as_text=True)


def test_the_same_journey_in_english(demo_app):
    pid = home_parcel(demo_app)
    owner = login(demo_app, "owner")
    _english(owner)
    html = owner.get(f"/propiedad/{pid}/cambio").get_data(as_text=True)
    assert "December 31, 2026" in html and "31 days left" in html
    html = _review(owner, pid, kind="moved", change_date="2026-03-15").get_data(as_text=True)
    assert "fiscal year 2027-2028" in html and "$500.00" in html
    assert "a change in the ownership of the property, whatever the intent" in html  # R-B12
    r = owner.post(f"/propiedad/{pid}/cambio", data={
        "csrf_token": csrf_token(html), "action": "send", **ATTEST, "kind": "moved",
        "change_date": "2026-03-15"})
    conf = owner.get(r.headers["Location"]).get_data(as_text=True)
    assert "Change report C-2026-" in conf and "On time" in conf
    msg = email.message_from_bytes(outbox(demo_app)[-1].read_bytes())
    assert "received" in msg["Subject"]


def test_spouse_died_titleholder_is_asked_only_to_confirm_the_home(demo_app):
    pid = home_parcel(demo_app)
    owner = login(demo_app, "owner")
    r = _review(owner, pid, kind="spouse_died", change_date="2026-08-20")
    assert r.status_code == 400  # the titleholder question must be answered
    assert "nombrada como dueña" in r.get_data(as_text=True) or \
        "como dueño" in r.get_data(as_text=True)
    r = _review(owner, pid, kind="spouse_died", change_date="2026-08-20",
                original_titleholder="yes")
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert "La exoneración continúa" in html
    assert 'name="residential_use"' in html
    data = {"csrf_token": csrf_token(html), "action": "send", **ATTEST, "kind": "spouse_died",
            "change_date": "2026-08-20", "original_titleholder": "yes"}
    r = owner.post(f"/propiedad/{pid}/cambio", data=data)
    assert r.status_code == 400 and 'name="residential_use"' in r.get_data(as_text=True)
    r = owner.post(f"/propiedad/{pid}/cambio", data={**data, "residential_use": "yes"})
    assert r.status_code == 303
    conf = owner.get(r.headers["Location"]).get_data(as_text=True)
    assert "sin una nueva certificación" in conf


@pytest.mark.parametrize(("lang", "data", "message"), [
    ("es", {"change_date": "2026-11-15"}, "Escoja qué cambió."),
    ("en", {"change_date": "2026-11-15"}, "Choose what changed."),
    ("es", {"kind": "rented"}, "Escriba la fecha del cambio"),
    ("en", {"kind": "rented", "change_date": "2026-02-30"}, "Write the date as 11/30/2026"),
    ("es", {"kind": "rented", "change_date": "15/13/2026"},
     "Escriba la fecha como 30/11/2026 (día, mes y año), o como AAAA-MM-DD."),
    ("en", {"kind": "rented", "change_date": "2026-12-15"}, "cannot be after today"),
    ("es", {"kind": "rented", "change_date": "2026-12-15"}, "no puede ser después de hoy"),
    ("en", {"kind": "marriage", "change_date": "2026-11-15"}, "Error:"),  # not of R-B17
    ("en", {"kind": "rented", "change_date": "2026-11-15", "details": "x" * 2001},
     "at most 2000"),
])
def test_bad_input_is_a_clear_message_and_nothing_is_stored(demo_app, lang, data, message):
    from sqlalchemy import func, select

    from portal.db import UnitOfWork
    from portal.models import ExemptionChangeReport
    from portal.web.data import database
    pid = home_parcel(demo_app)
    owner = login(demo_app, "owner")
    if lang == "en":
        _english(owner)
    for action in ("review", "send"):
        token = csrf_token(owner.get(f"/propiedad/{pid}/cambio").get_data(as_text=True))
        r = _review(owner, pid, **data) if action == "review" else owner.post(
            f"/propiedad/{pid}/cambio", data={"csrf_token": token, "action": "send", **ATTEST,
                                              **data})
        assert r.status_code == 400
        html = r.get_data(as_text=True)
        assert message in html
        assert "Traceback" not in html
    with demo_app.app_context(), UnitOfWork(database()) as w:
        assert w.session.scalar(select(func.count(ExemptionChangeReport.id))) == 0


@pytest.mark.parametrize(("lang", "missing", "message"), [
    ("es", {"attest": ""}, "Marque la casilla"), ("en", {"attest": ""}, "Check the box"),
    ("es", {"full_name": "  "}, "Escriba su nombre completo"),
    ("en", {"full_name": "x" * 201}, "at most 200"),
])
def test_sending_needs_the_attestation(demo_app, lang, missing, message):
    from sqlalchemy import func, select

    from portal.db import UnitOfWork
    from portal.models import ExemptionChangeReport
    from portal.web.data import database
    pid = home_parcel(demo_app)
    owner = login(demo_app, "owner")
    if lang == "en":
        _english(owner)
    html = _review(owner, pid, kind="moved", change_date="2026-03-15").get_data(as_text=True)
    assert "R-B12" in html and 'name="attest"' in html
    r = owner.post(f"/propiedad/{pid}/cambio", data={
        "csrf_token": csrf_token(html), "action": "send", "kind": "moved",
        "change_date": "2026-03-15", **{**ATTEST, **missing}})
    assert r.status_code == 400
    assert message in r.get_data(as_text=True)
    with demo_app.app_context(), UnitOfWork(database()) as w:
        assert w.session.scalar(select(func.count(ExemptionChangeReport.id))) == 0


def test_another_user_a_lessee_and_a_lender_get_404(demo_app):
    pid = home_parcel(demo_app)
    owner = login(demo_app, "owner")
    html = _review(owner, pid, kind="moved", change_date="2026-03-15").get_data(as_text=True)
    r = owner.post(f"/propiedad/{pid}/cambio", data={
        "csrf_token": csrf_token(html), "action": "send", **ATTEST, "kind": "moved",
        "change_date": "2026-03-15"})
    report = r.headers["Location"]
    ids = parcel_ids(demo_app)
    leased = ids["lessee"][0]
    for role in ("other", "lessee", "lender"):
        client = login(demo_app, role)
        assert client.get(f"/propiedad/{pid}/cambio").status_code == 404, role
        token = csrf_token(client.get("/").get_data(as_text=True))
        r = client.post(f"/propiedad/{pid}/cambio", data={
            "csrf_token": token, "action": "send", **ATTEST, "kind": "moved",
            "change_date": "2026-03-15"})
        assert r.status_code == 404, role
        if role != "lender":  # the lender forwards it: it may open it
            body = client.get(report)
            assert body.status_code == 404, role
        assert client.get("/personal/cambios").status_code == 404
    # The lessee sees the leased parcel but does not own it: no link, no form.
    lessee = login(demo_app, "lessee")
    assert "/cambio" not in lessee.get(f"/propiedad/{leased}").get_data(as_text=True)
    assert lessee.get(f"/propiedad/{leased}/cambio").status_code == 404
    anonymous = demo_app.test_client()
    assert anonymous.get(report).status_code == 302


def test_late_report_is_accepted_and_flagged(demo_app):
    from portal import clock
    pid = home_parcel(demo_app)
    with clock.fixed(date(2027, 1, 5)):
        owner = login(demo_app, "owner")
        html = _review(owner, pid, kind="moved", change_date="2026-06-01").get_data(
            as_text=True)
        assert "Este informe está tarde" in html or "tarde" in html
        r = owner.post(f"/propiedad/{pid}/cambio", data={
            "csrf_token": csrf_token(html), "action": "send", **ATTEST, "kind": "moved",
            "change_date": "2026-06-01"})
        conf = owner.get(r.headers["Location"]).get_data(as_text=True)
    assert "C-2027-" in conf and ("tarde" in conf)


def _my_pages(app: Flask):  # noqa: ANN202
    """(label, html) of every page of this area, in both languages, with and without errors."""
    pid = home_parcel(app)
    owner = login(app, "owner")
    html = _review(owner, pid, kind="rented", change_date="2026-11-15").get_data(as_text=True)
    report = owner.post(f"/propiedad/{pid}/cambio", data={
        "csrf_token": csrf_token(html), "action": "send", **ATTEST, "kind": "rented",
        "change_date": "2026-11-15", "details": "Dos líneas\ny <b>marcas</b>"}).headers["Location"]
    staff, lender = login(app, "staff"), login(app, "lender")
    for lang in ("es", "en"):
        if lang == "en":
            for c in (owner, staff, lender):
                _english(c)
        yield f"form-{lang}", owner.get(f"/propiedad/{pid}/cambio").get_data(as_text=True)
        yield f"errors-{lang}", _review(owner, pid, kind="spouse_died",
                                        change_date="2026-13-01").get_data(as_text=True)
        yield f"review-{lang}", _review(owner, pid, kind="rented",
                                        change_date="2026-11-15").get_data(as_text=True)
        yield f"review-spouse-{lang}", _review(owner, pid, kind="spouse_died",
                                               change_date="2026-08-20",
                                               original_titleholder="yes").get_data(as_text=True)
        yield f"confirmation-{lang}", owner.get(report).get_data(as_text=True)
        yield f"parcel-{lang}", owner.get(f"/propiedad/{pid}").get_data(as_text=True)
        yield f"staff-{lang}", staff.get("/personal/cambios").get_data(as_text=True)
        yield f"lender-{lang}", lender.get("/prestamista/cambios").get_data(as_text=True)


def test_pages_are_valid_html(demo_app, tmp_path):
    from tests.support.html import vnu_errors, vnu_missing
    if vnu_missing():
        pytest.skip(vnu_missing())
    files = []
    for label, html in _my_pages(demo_app):
        assert "<b>marcas</b>" not in html  # the details are escaped
        f = tmp_path / f"{label}.html"
        f.write_text(html, encoding="utf-8")
        files.append(f)
    assert len(files) == 16
    assert vnu_errors(files) == []


def test_the_form_shows_the_exemption_on_file(demo_app):
    """J5's exemption_status: an approved certification of the parcel is named on the form."""
    from portal.db import UnitOfWork
    from portal.models import ExemptionCertification
    from portal.people import users
    from portal.web.data import database
    pid = home_parcel(demo_app)
    owner = login(demo_app, "owner")
    assert "certificación E-2026-" not in owner.get(f"/propiedad/{pid}/cambio").get_data(
        as_text=True)
    with demo_app.app_context(), UnitOfWork(database()) as w:
        me = users.find_by_email(w, "owner@demo.pr")
        w.session.add(ExemptionCertification(
            parcel_id=pid, fiscal_year_start=date(2026, 7, 1), status="approved",
            created_by_id=me.id, filing_number="E-2026-000777"))
    html = owner.get(f"/propiedad/{pid}/cambio").get_data(as_text=True)
    assert "Esta propiedad tiene la exoneración residencial (certificación E-2026-000777)" in html
