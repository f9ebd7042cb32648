"""Collections pages (J9): staff start the delinquency run (a background job, in-process
here), see the demands, record a mailing and a return receipt; the court list; the owner sees
the collection timeline on the parcel page and downloads the bilingual demand letter (tagged,
nothing overlapping, every amount whole); nobody else gets it (404). Both languages."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import select

from portal.db import UnitOfWork
from portal.jobs import queue
from portal.models import AuditRecord, DemandLetter, Notice
from portal.web.data import database
from tests.support.demo import parcel_ids
from tests.support.html import vnu_errors, vnu_missing
from tests.support.pages import csrf_token, login

STAFF_PAGES = ("/personal/cobros", "/personal/cobros?estado=queued", "/personal/cobros/tribunal")


@pytest.fixture
def app(demo_app: Flask):  # noqa: ANN201
    with demo_app.app_context():
        queue.use_immediate(database())
    yield demo_app
    queue.reset()


def _run(app: Flask, client) -> str:  # noqa: ANN001
    token = csrf_token(client.get("/personal/cobros").get_data(as_text=True))
    r = client.post("/personal/cobros/correr", data={"csrf_token": token,
                                                      "run_on": "2026-11-30"})
    assert r.status_code == 303, r.status_code
    return r.headers["Location"]


def _letters(app: Flask) -> list[tuple[int, int]]:
    with app.app_context(), UnitOfWork(database()) as w:
        return [(dl.notice_id, dl.parcel_id) for dl in w.session.scalars(  # the runs' own
            select(DemandLetter).where(DemandLetter.job_id.is_not(None)))]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_staff_run_collections_and_record_a_mailing(app, lang):
    staff = login(app, "staff")
    staff.post("/idioma", data={"csrf_token": csrf_token(staff.get("/").get_data(as_text=True)),
                                "lang": lang})
    job_page = _run(app, staff)
    page = staff.get(job_page).get_data(as_text=True)
    assert ("Terminado" if lang == "es" else "Finished") in page
    letters = _letters(app)
    assert letters, "the demo has delinquent accounts with no demand yet"
    _run(app, staff)  # the same day again: nothing twice
    assert _letters(app) == letters
    notice_id = letters[0][0]
    page = staff.get("/personal/cobros?estado=queued").get_data(as_text=True)
    assert f"/personal/cobros/{notice_id}" in page
    demand = staff.get(f"/personal/cobros/{notice_id}").get_data(as_text=True)
    token = csrf_token(demand)
    bad = staff.post(f"/personal/cobros/{notice_id}/envio", data={
        "csrf_token": token, "certified_mail_number": "", "mailed_on": "30/11/26"})
    assert bad.status_code == 400
    html = bad.get_data(as_text=True)
    assert 'id="error-summary"' in html and "Traceback" not in html
    assert ("AAAA-MM-DD" if lang == "es" else "YYYY-MM-DD") in html
    # the post office's file: a date as the other language writes it is refused with the
    # date parser's own words (how this reader writes a date), nothing recorded
    other_order = "30/11/2026" if lang == "en" else "11/30/2026"
    r = staff.post("/personal/cobros/envios", data={"csrf_token": token, "file": (io.BytesIO(
        f"requerimiento,numero,enviado\n{notice_id},9400 1000 0000 0000 0001,{other_order}\n"
        .encode()), "correo.csv")}, content_type="multipart/form-data")
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert ("30/11/2026 (día, mes y año)" if lang == "es"
            else "11/30/2026 (month, day and year)") in html, html
    ok = staff.post(f"/personal/cobros/{notice_id}/envio", data={
        "csrf_token": token, "certified_mail_number": "9400 1000 0000 0000 0001",
        "mailed_on": "2026-11-30", "cost": "7.00"})
    assert ok.status_code == 303
    demand = staff.get(f"/personal/cobros/{notice_id}").get_data(as_text=True)
    assert "9400 1000 0000 0000 0001" in demand
    # 15 days after 2026-11-30 is 2026-12-15 (Tue): the last day to pay
    assert ("15 de diciembre de 2026" if lang == "es" else "December 15, 2026") in demand
    r = staff.post(f"/personal/cobros/{notice_id}/acuse", data={
        "csrf_token": csrf_token(demand), "received_on": "2026-11-30"})
    assert r.status_code == 303
    with app.app_context(), UnitOfWork(database()) as w:
        n = w.session.get(Notice, notice_id)
        assert str(n.mailed_on) == "2026-11-30" and str(n.acknowledged_on) == "2026-11-30"
    court = staff.get("/personal/cobros/tribunal").get_data(as_text=True)
    assert f"/personal/cobros/{notice_id}" not in court  # in its window, not claimable


def test_the_owner_sees_the_timeline_and_downloads_the_letter_nobody_else(app):
    staff = login(app, "staff")
    _run(app, staff)
    owner_parcels = set(parcel_ids(app)["owner"])
    mine = [(n, p) for n, p in _letters(app) if p in owner_parcels]
    others = [(n, p) for n, p in _letters(app) if p not in owner_parcels]
    owner = login(app, "owner")
    # the delinquent parcel with a demand mailed in September: claimable now
    for pid in owner_parcels:
        html = owner.get(f"/propiedad/{pid}").get_data(as_text=True)
        if "Cronología del cobro" in html:
            assert re.search(r"Pague \$[\d,]+\.\d\d|pagado hoy|Pagado hoy", html), html[:0]
            break
    else:
        pytest.fail("no parcel of the owner shows the collection timeline")
    lessee = login(app, "lessee")  # the lessee's parcel, its demand in its window: the same
    leased = [lessee.get(f"/propiedad/{pid}").get_data(as_text=True)
              for pid in parcel_ids(app)["lessee"]]
    assert any("Cronología del cobro" in html and "Requerimiento enviado por correo "
               "certificado" in html for html in leased)
    for nid, _pid in mine:
        r = owner.get(f"/cobros/requerimiento/{nid}.pdf")
        assert r.status_code == 200 and r.mimetype == "application/pdf"
    other = login(app, "other")
    lender = login(app, "lender")
    ids = parcel_ids(app)
    probes = [(n, p) for n, p in mine + others if p not in ids["other"]][:6]
    assert probes
    for nid, pid in probes:
        assert other.get(f"/cobros/requerimiento/{nid}.pdf").status_code == 404
        if pid not in ids["lender"]:
            assert lender.get(f"/cobros/requerimiento/{nid}.pdf").status_code == 404
    lent = [n for n, p in mine + others if p in ids["lender"]][:2]
    for nid in lent:  # a lender sees the parcel, not the letter to its payer
        assert lender.get(f"/cobros/requerimiento/{nid}.pdf").status_code == 404
    for nid, _pid in [(n, p) for n, p in others if p not in ids["owner"]][:3]:
        assert owner.get(f"/cobros/requerimiento/{nid}.pdf").status_code == 404
    assert app.test_client().get(f"/cobros/requerimiento/{(mine + others)[0][0]}.pdf"
                                 ).status_code == 302
    for role in ("owner", "lessee", "lender", "other"):
        client = login(app, role)
        for path in STAFF_PAGES + ("/personal/cobros/1",):
            assert client.get(path).status_code == 404, (role, path)
        token = csrf_token(client.get("/").get_data(as_text=True))
        assert client.post("/personal/cobros/correr", data={
            "csrf_token": token, "run_on": "2026-11-30"}).status_code == 404


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils missing")
@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_demand_letter_is_bilingual_tagged_and_whole(app, lang, tmp_path):
    from portal.collections import demands
    from portal.documents.demand_letter import letter_document
    from portal.i18n import use_language
    from portal.pdf import issuer as pdf_issuer
    from portal.pdf.demand import render_bilingual
    from portal.people import users
    from tests.support.documents import check
    staff = login(app, "staff")
    _run(app, staff)
    nid = _letters(app)[0][0]
    second = "en" if lang == "es" else "es"
    with app.app_context(), use_language(lang):
        with UnitOfWork(database()) as w:
            lf = demands.letter(w, users.find_by_email(w, "staff@demo.pr"), nid)
        first_doc, second_doc = letter_document(lf, lang), letter_document(lf, second)
        data = render_bilingual(first_doc, lang, second_doc, second)
    check(first_doc, data, lang, tmp_path, min_pages=2, other=(second_doc, second))
    text = (tmp_path / "letter.txt")
    path = tmp_path / "letter.pdf"
    path.write_bytes(data)
    if os.environ.get("J9_SHOTS"):  # for review (pdftoppm -png)
        (Path(os.environ["J9_SHOTS"]) / f"letter-{lang}.pdf").write_bytes(data)
    out = subprocess.run(["pdftotext", str(path), str(text)], check=True)
    assert out.returncode == 0
    words = text.read_text()
    for title in ("Requerimiento de pago", "Demand for payment"):
        assert title in words
    assert words.index(first_doc.title) < words.index(second_doc.title)
    assert b"/Lang (en-US)" in data and b"/Lang (es-PR)" in data  # the second version's Sect
    total = lf.letter.total
    from portal.i18n import formats
    for doc_lang in ("es", "en"):
        assert formats(doc_lang).money(total) in words
    # #29 item 4: as a court and a family expect it: the addressee's mailing address, the
    # Authority's signature block, each installment with its due date and amount
    flat = " ".join(words.split())
    assert lf.addressee.mailing_address and " ".join(lf.addressee.mailing_address.split()) in flat
    for doc_lang, closing in (("es", "Atentamente,"), ("en", "Sincerely,")):
        name = pdf_issuer(lf.letter.run_on, doc_lang).name
        assert f"{closing} ________________________________ {name}" in flat, doc_lang
    listed = [int(x) for x in lf.letter.installments.split(",")]
    rows = [i for i in lf.statement.installments if i.number in listed]
    assert rows and sum(i.principal for i in rows) == lf.letter.delinquent_principal
    for i in rows:
        for doc_lang in ("es", "en"):
            f = formats(doc_lang)
            assert f"{i.number} {f.date_long(i.due_date)} {f.money(i.principal)}" in flat
    # a day's interest under a cent is said so, not "$0.00"
    from dataclasses import replace
    with use_language(lang):
        small = letter_document(replace(lf, interest_per_day=Decimal("0.00")), lang)
    said = " ".join(w.text for r in small.rows for w in r.why)
    assert {"es": "menos de un centavo", "en": "less than one cent"}[lang] in said
    assert "$0.00" not in said


@pytest.mark.skipif(vnu_missing() is not None, reason=vnu_missing() or "")
def test_collections_pages_are_valid_html(app, tmp_path):
    staff = login(app, "staff")
    _run(app, staff)
    nid = _letters(app)[0][0]
    files = []
    owner = login(app, "owner")
    for lang in ("es", "en"):
        for client, path in [(staff, p) for p in STAFF_PAGES + (f"/personal/cobros/{nid}",)] + [
                (owner, f"/propiedad/{pid}") for pid in parcel_ids(app)["owner"]]:
            r = client.get(f"{path}{'&' if '?' in path else '?'}lang={lang}")
            assert r.status_code == 200, path
            f = tmp_path / f"{lang}-{re.sub(r'[^a-z0-9]+', '_', path)}.html"
            f.write_text(r.get_data(as_text=True))
            files.append(f)
    import io
    token = csrf_token(staff.get("/personal/cobros").get_data(as_text=True))
    for name, text in (("errors", f"requerimiento,numero,enviado\n{nid},,2026-13-01\n"),
                       ("form", "")):
        r = staff.post("/personal/cobros/envios", data={
            "csrf_token": token, "file": (io.BytesIO(text.encode()), "correo.csv")},
            content_type="multipart/form-data")
        assert r.status_code == 400
        f = tmp_path / f"upload-{name}.html"
        f.write_text(r.get_data(as_text=True))
        files.append(f)
    r = staff.post(f"/personal/cobros/{nid}/envio", data={"csrf_token": token,
                                                        "mailed_on": "x"})
    f = tmp_path / "mailing-errors.html"
    f.write_text(r.get_data(as_text=True))
    files.append(f)
    assert vnu_errors(files) == []


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_post_offices_file_in_the_staffs_language(app, lang):
    import io
    staff = login(app, "staff")
    staff.post("/idioma", data={"csrf_token": csrf_token(staff.get("/").get_data(as_text=True)),
                                "lang": lang})
    _run(app, staff)
    ids = [n for n, _p in _letters(app)][:2]
    token = csrf_token(staff.get("/personal/cobros").get_data(as_text=True))

    def upload(text: str, name: str = "correo.csv"):  # noqa: ANN202
        return staff.post("/personal/cobros/envios", data={
            "csrf_token": token, "file": (io.BytesIO(text.encode()), name)},
            content_type="multipart/form-data")

    r = upload(f"requerimiento,numero,enviado\n{ids[0]},9400 1000 0000 0000 0001,2026-11-30\n"
               f"{ids[1]},,2026-02-30\n")
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert "Traceback" not in html and 'id="error-summary"' in html
    assert ("Nada se registró" if lang == "es" else "Nothing was recorded") in html
    # a day that does not exist: the date parser's own words, in the staff's language
    assert ("o como AAAA-MM-DD" if lang == "es" else "or as YYYY-MM-DD") in html
    with app.app_context(), UnitOfWork(database()) as w:
        assert w.session.get(Notice, ids[0]).mailed_on is None
    assert upload("x", "correo.pdf").status_code == 400
    r = upload(f"requerimiento,numero,enviado,acuse\n{ids[0]},9400 1000 0000 0000 0001,"
               f"2026-11-30,2026-11-30\n{ids[1]},9400 1000 0000 0000 0002,2026-11-30,\n")
    assert r.status_code == 303
    with app.app_context(), UnitOfWork(database()) as w:
        assert (w.session.get(Notice, ids[1]).certified_mail_number
                == "9400 1000 0000 0000 0002")
        assert str(w.session.get(Notice, ids[0]).acknowledged_on) == "2026-11-30"


def test_the_court_packet_of_a_claimable_demand(app, tmp_path):
    """R-A13: for the demo's demand mailed 2026-09-22 (claimable since 10-08): one PDF with the
    statement, the demand and the receipt of mailing; refused for a demand not claimable;
    404 for anyone but staff."""
    staff = login(app, "staff")
    court = staff.get("/personal/cobros/tribunal").get_data(as_text=True)
    ids = [int(x) for x in re.findall(r'href="/personal/cobros/(\d+)"', court)]
    assert ids, "the demo has demands past their window"
    r = staff.get(f"/personal/cobros/{ids[0]}/expediente.pdf")
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    path = tmp_path / "packet.pdf"
    path.write_bytes(r.data)
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout
    for title in ("Estado de cuenta", "Requerimiento de pago", "Constancia de envío"):
        assert title in text, title
    if os.environ.get("J9_SHOTS"):
        (Path(os.environ["J9_SHOTS"]) / "packet-es.pdf").write_bytes(r.data)
    _run(app, staff)
    queued = _letters(app)[0][0]
    assert staff.get(f"/personal/cobros/{queued}/expediente.pdf").status_code == 303
    for role in ("owner", "lessee", "lender", "other"):
        assert login(app, role).get(f"/personal/cobros/{ids[0]}/expediente.pdf"
                                    ).status_code == 404


def test_read_only_staff_see_collections_and_change_nothing(app):
    """Every staff role sees the pages; a read-only one gets no button and a 403 (R-A12's
    records are for those who collect: `collections.COLLECT`)."""
    from portal.models import User
    with app.app_context(), UnitOfWork(database()) as w:
        staff = w.session.scalar(select(User).where(User.email == "staff@demo.pr"))
        staff.staff_role = "read_only"
    client = login(app, "staff")
    page = client.get("/personal/cobros").get_data(as_text=True)
    assert "/personal/cobros/correr" not in page and "/personal/cobros/envios" not in page
    r = client.post("/personal/cobros/correr", data={"csrf_token": csrf_token(page),
                                                      "run_on": "2026-11-30"})
    assert r.status_code == 403
    assert _letters(app) == []


# --- A mailing checked and corrected (R-A12, R-A13), in both languages: a formula for a
# number and a mailing before the demand existed are refused on their fields; a recorded
# mailing is corrected, the page then showing the new number; the post office's file with
# semicolons, uploaded twice, says the second time that nothing new was recorded.

NUMBER = "9407 1118 9876 5432 1001 23"


def _staff_in(app: Flask, lang: str):  # noqa: ANN202
    staff = login(app, "staff")
    staff.post("/idioma", data={"csrf_token": csrf_token(staff.get("/").get_data(as_text=True)),
                                "lang": lang})
    return staff


def _queued(app: Flask, staff) -> list[int]:  # noqa: ANN001
    token = csrf_token(staff.get("/personal/cobros").get_data(as_text=True))
    assert staff.post("/personal/cobros/correr", data={"csrf_token": token,
                                                       "run_on": "2026-11-30"}).status_code == 303
    with app.app_context(), UnitOfWork(database()) as w:
        return list(w.session.scalars(select(Notice.id).where(
            Notice.kind == "demand", Notice.mailed_on.is_(None)).order_by(Notice.id)))


@pytest.mark.parametrize("lang", ["es", "en"])
def test_staff_correct_a_mailing(app, lang):
    staff = _staff_in(app, lang)
    nid = _queued(app, staff)[0]
    page = staff.get(f"/personal/cobros/{nid}").get_data(as_text=True)
    token = csrf_token(page)
    r = staff.post(f"/personal/cobros/{nid}/envio", data={
        "csrf_token": token, "certified_mail_number": '=HYPERLINK("http://evil","x")',
        "mailed_on": "2026-11-29"})
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert ("20 o 22 dígitos" if lang == "es" else "20 or 22 digits") in html
    r = staff.post(f"/personal/cobros/{nid}/envio", data={
        "csrf_token": token, "certified_mail_number": NUMBER, "mailed_on": "2026-11-29"})
    assert r.status_code == 400
    assert ("anterior a la fecha del requerimiento (30 de noviembre de 2026)" if lang == "es"
            else "before the demand existed (November 30, 2026)") in r.get_data(as_text=True)
    with app.app_context(), UnitOfWork(database()) as w:
        assert w.session.get(Notice, nid).mailed_on is None
    assert staff.post(f"/personal/cobros/{nid}/envio", data={
        "csrf_token": token, "certified_mail_number": "9400 1000 0000 0000 0001",
        "mailed_on": "2026-11-30"}).status_code == 303
    page = staff.get(f"/personal/cobros/{nid}").get_data(as_text=True)
    assert ("Corregir el envío" if lang == "es" else "Correct the mailing") in page
    # 15 days after 2026-11-30: Tuesday 15 December
    assert ("15 de diciembre de 2026" if lang == "es" else "December 15, 2026") in page
    r = staff.post(f"/personal/cobros/{nid}/envio/correccion", data={
        "csrf_token": csrf_token(page), "certified_mail_number": "=1+1",
        "mailed_on": "2026-11-30"})
    assert r.status_code == 400 and "Traceback" not in r.get_data(as_text=True)
    # the demand existed on 30 November: an earlier day is refused, and so is tomorrow
    for day in ("2026-11-27", "2026-12-01"):
        r = staff.post(f"/personal/cobros/{nid}/envio/correccion", data={
            "csrf_token": csrf_token(page), "certified_mail_number": NUMBER, "mailed_on": day})
        assert r.status_code == 400
    r = staff.post(f"/personal/cobros/{nid}/envio/correccion", data={
        "csrf_token": csrf_token(page), "certified_mail_number": NUMBER,
        "mailed_on": "2026-11-30"})
    assert r.status_code == 303
    page = staff.get(r.headers["Location"]).get_data(as_text=True)
    assert ("El envío quedó corregido" if lang == "es" else "The mailing is corrected") in page
    assert NUMBER in page
    with app.app_context(), UnitOfWork(database()) as w:
        rec = w.session.scalar(select(AuditRecord).where(
            AuditRecord.action == "demand.mailing_corrected",
            AuditRecord.object_id == str(nid)))
        assert rec.before["certified_mail_number"] == "9400 1000 0000 0000 0001"
        assert rec.after["certified_mail_number"] == NUMBER


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_same_post_office_file_twice_records_nothing_new(app, lang):
    staff = _staff_in(app, lang)
    ids = _queued(app, staff)[:2]
    token = csrf_token(staff.get("/personal/cobros").get_data(as_text=True))
    data = (f"requerimiento;numero;enviado\n{ids[0]};{NUMBER};2026-11-30\n"
            f"{ids[1]};9400 1000 0000 0000 0002;2026-11-30\n").encode()
    said = []
    for _ in range(2):
        r = staff.post("/personal/cobros/envios", data={
            "csrf_token": token, "file": (io.BytesIO(data), "correo.csv")},
            content_type="multipart/form-data")
        assert r.status_code == 303
        said.append(staff.get(r.headers["Location"]).get_data(as_text=True))
    assert ("Envíos registrados: 2" if lang == "es" else "Mailings recorded: 2") in said[0]
    assert ("No se registró nada nuevo" if lang == "es" else "Nothing new was recorded") in said[1]
    assert ("Envíos registrados" if lang == "es" else "Mailings recorded") not in said[1]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_claim_under_the_demand_minimum_is_confirmed_first(app, lang):
    """R-A17 (revision 3): with the Board's minimum above what a claimable demand listed, the
    demand's page warns; recording the claim without confirming is refused (400, nothing
    recorded) with the amount and the minimum; confirmed, it is recorded."""
    from datetime import date
    from decimal import Decimal

    from portal.models import CourtClaim, User
    from portal.roll import board_parameters

    staff = _staff_in(app, lang)
    court = staff.get("/personal/cobros/tribunal").get_data(as_text=True)
    nid = int(re.findall(r'href="/personal/cobros/(\d+)"', court)[0])
    with app.app_context(), UnitOfWork(database()) as w:
        admin = w.session.scalar(select(User).where(User.staff_role == "administrator"))
        listed = w.session.get(Notice, nid).amount
        board_parameters.adopt(w, admin, date(2026, 7, 1), "demand_minimum",
                               str(listed + Decimal("10.00")), date(2026, 11, 2), "2026-30",
                               date(2026, 11, 2))
    page = staff.get(f"/personal/cobros/{nid}").get_data(as_text=True)
    assert ("mínimo de requerimiento de la Junta" if lang == "es"
            else "Board's demand minimum") in page
    data = {"csrf_token": csrf_token(page), "filed_on": "2026-11-30", "case_number": "SJ1"}
    r = staff.post(f"/personal/cobros/{nid}/reclamacion", data=data)
    assert r.status_code == 400
    assert ("Marque la casilla" if lang == "es" else "Check the box") in r.get_data(as_text=True)
    with app.app_context(), UnitOfWork(database()) as w:
        assert w.session.scalar(select(CourtClaim).where(CourtClaim.notice_id == nid)) is None
    r = staff.post(f"/personal/cobros/{nid}/reclamacion",
                   data={**data, "confirm_under_minimum": "y"})
    assert r.status_code == 303
    with app.app_context(), UnitOfWork(database()) as w:
        assert w.session.scalar(select(CourtClaim).where(CourtClaim.notice_id == nid))


def test_plain_list_is_not_an_error_but_a_bad_status_is(app):  # noqa: ANN001
    """The list with no filter asked for says no "Error:" in its title (its filter form is
    only checked when a status is asked for); an unknown status is named as an error."""
    staff = login(app, "staff")
    plain = staff.get("/personal/cobros").get_data(as_text=True)
    assert "<title>Cobros" in plain and "Error:" not in plain
    bad = staff.get("/personal/cobros?estado=nada").get_data(as_text=True)
    assert "<title>Error: Cobros" in bad
