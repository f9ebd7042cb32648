"""J5: the residential-exemption certification online, through the web.

The demo owner files for her home (a photo and a PDF), sees the bill with and without the
exemption (the same figures as `portal calc residential_exemption`), gets a receipt (page,
PDF, email; the lender's copy, R-B9); staff returns it with a reason, she fixes only that
and resubmits, staff approves. Uploads are checked by content; R-B6 blocks a second home;
R-B11 asks for a payment plan; no one else sees the filing, its evidence or its receipt.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from datetime import date
from decimal import Decimal

import pytest
from flask import Flask
from sqlalchemy import select

from portal import storage
from tests.support.exemption_wizard import answer as _answer
from tests.support.exemption_wizard import file_home as _file_home
from tests.support.exemption_wizard import ids as _ids
from tests.support.exemption_wizard import post as _post
from tests.support.exemption_wizard import start as _start
from tests.support.pages import csrf_token, login, outbox


@pytest.fixture(autouse=True)
def _store(tmp_path):  # noqa: ANN001, ANN202
    storage.use(storage.FolderStore(tmp_path / "files"))
    yield
    storage.use(None)


def png_bytes() -> bytes:
    from PIL import Image
    buf = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 30, 30)).save(buf, "PNG")
    return buf.getvalue()


def jpeg_bytes() -> bytes:
    from PIL import Image
    buf = io.BytesIO()
    Image.new("RGB", (40, 30), (30, 30, 200)).save(buf, "JPEG")
    return buf.getvalue()


def pdf_bytes() -> bytes:
    from fpdf import FPDF
    doc = FPDF()
    doc.add_page()
    doc.set_font("helvetica", size=12)
    doc.cell(text="Evidencia")
    return bytes(doc.output())


def _upload(client, cid: int, data: bytes, name: str):  # noqa: ANN001, ANN202
    page = client.get(f"/exoneracion/{cid}/paso/evidencia").get_data(as_text=True)
    r = client.post(f"/exoneracion/{cid}/evidencia", data={
        "csrf_token": csrf_token(page), "file": (io.BytesIO(data), name)},
        content_type="multipart/form-data")
    assert r.status_code == 303
    return client.get(f"/exoneracion/{cid}/paso/evidencia").get_data(as_text=True)


def test_j5_file_return_resubmit_approve(demo_app: Flask, tmp_path):  # noqa: ANN001
    app = demo_app
    ids = _ids(app)
    owner = login(app, "owner")
    parcel_page = owner.get(f"/propiedad/{ids['home']}").get_data(as_text=True)
    assert "Exoneración residencial" in parcel_page
    cid = _file_home(owner, ids)

    # Evidence by content (a photo and a PDF); a renamed executable, an empty file and a
    # corrupt image are refused with a clear message and nothing is stored.
    files = app.config  # noqa: F841
    html = _upload(owner, cid, b"MZ\x90\x00" + b"\x00" * 200, "recibo.pdf")
    assert "solo se aceptan documentos PDF, JPEG o PNG".lower() in html.lower()
    html = _upload(owner, cid, b"", "vacio.png")
    assert "El archivo está vacío" in html
    html = _upload(owner, cid, png_bytes()[:40], "rota.png")
    assert "no se puede abrir" in html
    assert "Todavía no hay documentos." in html
    html = _upload(owner, cid, jpeg_bytes(), "foto-casa.jpg")
    html = _upload(owner, cid, pdf_bytes(), "escritura.pdf")
    assert "foto-casa.jpg" in html and "escritura.pdf" in html
    assert _answer(owner, cid, "evidencia", {}).endswith("/resultado")

    # The result: the bill with and without the exemption, the core's figures.
    result = owner.get(f"/exoneracion/{cid}/paso/resultado").get_data(as_text=True)
    calc = _calc({"valuation": "21000.00", "land_valuation": "4200.00",
                  "tax_rate": "0.1033", "land_area_cuerdas": "0.045"})
    for key in ("gross_tax", "exemption_amount", "net_tax"):
        assert _money_es(calc[key]) in result, key
    assert "¿Por qué esta cantidad?" in result
    _answer(owner, cid, "resultado", {})

    # The attestation: the warning, the box and the full name (a wrong name is refused).
    attest = owner.get(f"/exoneracion/{cid}/paso/certificar").get_data(as_text=True)
    assert "multa de $500" in attest
    r = _post(owner, f"/exoneracion/{cid}/paso/certificar",
              {"attest": "y", "full_name": "Otra Persona"})
    assert r.status_code == 422
    loc = _answer(owner, cid, "certificar", {"attest": "y", "full_name": "maría  rivera ortiz"})
    assert loc.endswith(f"/exoneracion/{cid}/recibo")
    receipt = owner.get(loc).get_data(as_text=True)
    number = re.search(r"EXR-2026-\d{6}", receipt).group(0)
    assert "Radicada" in receipt and "Banco Hipotecario del Caribe" in receipt
    pdf = owner.get(f"/exoneracion/{cid}/recibo.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    # its structure (#29): the issuer first, the bill's table under its heading
    from portal.pdf import issuer
    from tests.support.documents import structure
    elems = structure(pdf.data, tmp_path, issuer(date(2026, 11, 30), "es").name)
    roles = [(role, text) for _depth, role, text in elems]
    bill = roles.index(("H2", "La factura sin y con la exoneración"))
    assert roles[bill + 1][0] == "Table"
    mails = [p.read_text(errors="replace") for p in outbox(app)]
    assert any(number in m and "owner@demo.pr" in m for m in mails)
    assert any(number in m and "lender@demo.pr" in m for m in mails)  # R-B9

    # The lender sees it on its list (R-B9); another owner does not see it at all.
    lender = login(app, "lender")
    assert "/prestamista/exoneraciones" in lender.get("/mis-propiedades").get_data(as_text=True)
    assert number in lender.get("/prestamista/exoneraciones").get_data(as_text=True)
    for role in ("other", "lessee"):
        other = login(app, role)
        for path in (f"/exoneracion/{cid}/recibo", f"/exoneracion/{cid}/recibo.pdf",
                     f"/exoneracion/{cid}/paso/duenos", f"/exoneracion/{cid}/evidencia/1"):
            assert other.get(path).status_code == 404, (role, path)
        r = _post(other, f"/exoneracion/{cid}/retirar", {}, "/")
        assert r.status_code == 404, role

    # Staff: the queue, the review, return with a reason (only the documents reopen).
    staff = login(app, "staff")
    assert number in staff.get("/personal/exoneraciones?status=filed").get_data(as_text=True)
    assert _post(staff, f"/personal/exoneraciones/{cid}/revisar", {},
                 f"/personal/exoneraciones/{cid}").status_code == 303
    r = _post(staff, f"/personal/exoneraciones/{cid}/devolver",
              {"reasons": "evidence", "note": "La foto no se ve bien."},
              f"/personal/exoneraciones/{cid}")
    assert r.status_code == 303
    assert "Devuelta" in owner.get(f"/propiedad/{ids['home']}").get_data(as_text=True)
    # Only what was returned can be changed: the use step sends to the documents.
    r = owner.get(f"/exoneracion/{cid}/paso/uso")
    assert r.status_code == 302 and r.headers["Location"].endswith("/paso/evidencia")
    _upload(owner, cid, png_bytes(), "foto-nueva.png")
    _answer(owner, cid, "evidencia", {})
    _answer(owner, cid, "resultado", {})
    _answer(owner, cid, "certificar", {"attest": "y", "full_name": "María Rivera Ortiz"})
    assert "Reenviada" in owner.get(f"/exoneracion/{cid}/recibo").get_data(as_text=True)

    _post(staff, f"/personal/exoneraciones/{cid}/revisar", {}, f"/personal/exoneraciones/{cid}")
    r = _post(staff, f"/personal/exoneraciones/{cid}/aprobar", {"note": ""},
              f"/personal/exoneraciones/{cid}")
    assert r.status_code == 303
    page = owner.get(f"/propiedad/{ids['home']}").get_data(as_text=True)
    assert "Aprobada" in page
    assert "Aprobada" in lender.get("/prestamista/exoneraciones").get_data(as_text=True)

    # Every change is in the history and the audit log, by whom (R-B13).
    from portal.db import UnitOfWork
    from portal.models import AuditRecord, ExemptionEvent
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        moves = [(e.from_status, e.to_status) for e in w.session.scalars(
            select(ExemptionEvent).where(ExemptionEvent.certification_id == cid)
            .order_by(ExemptionEvent.id))]
        actions = set(w.session.scalars(select(AuditRecord.action).where(
            AuditRecord.object_type == "exemption_certifications")))
    assert moves == [("draft", "filed"), ("filed", "under_review"),
                     ("under_review", "returned"), ("returned", "resubmitted"),
                     ("resubmitted", "under_review"), ("under_review", "approved")]
    assert {"exemption.filed", "exemption.returned", "exemption.approved"} <= actions


def _calc(payload: dict) -> dict:
    out = subprocess.run([sys.executable, "-m", "portal.cli", "calc", "residential_exemption"],
                         input=json.dumps(payload), capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def _money_es(value: str) -> str:
    return f"${Decimal(value):,.2f}"


def test_the_wizard_keeps_answers_and_says_why(demo_app: Flask):
    ids = _ids(demo_app)
    owner = login(demo_app, "owner")
    cid = int(re.search(r"/exoneracion/(\d+)/", _start(owner, ids["home"])).group(1))
    _answer(owner, cid, "duenos", {"owners": ids["maria"]})
    _answer(owner, cid, "residentes", {"occupants": "Ana (hija)"})
    # Back and forward keep the answers (stored server-side: a new client resumes them).
    again = login(demo_app, "owner")
    assert "Ana (hija)" in again.get(f"/exoneracion/{cid}/paso/residentes").get_data(
        as_text=True)
    dashboard = again.get("/mis-propiedades").get_data(as_text=True)  # the badge
    assert "Exoneración residencial: falta un paso" in dashboard
    r = again.get(f"/propiedad/{ids['home']}/exoneracion")
    assert r.status_code == 302 and r.headers["Location"].endswith("/paso/uso")
    page = again.get(f"/exoneracion/{cid}/paso/uso").get_data(as_text=True)
    assert "Por qué preguntamos" in page and "R-B7" in page
    # Living away: the sworn statement step appears (R-B8) and needs its box.
    _answer(again, cid, "uso", {"use": "away"})
    r = _post(again, f"/exoneracion/{cid}/paso/ausencia",
              {"absence_reason": "care_relative_60_plus"})
    assert r.status_code == 422
    assert "declaración jurada" in r.get_data(as_text=True)


def test_one_dwelling_per_owner_r_b6(demo_app: Flask):
    """A second home of the same owner in the same year is refused, naming the other parcel."""
    from portal.db import UnitOfWork
    from portal.models import ExemptionCertification, ExemptionOwner, Parcel
    from portal.web.data import database
    ids = _ids(demo_app)
    with demo_app.app_context(), UnitOfWork(database()) as w:
        lot = w.session.scalar(select(Parcel.id).where(Parcel.catastro == "040-000-002-14"))
        other = ExemptionCertification(parcel_id=lot, fiscal_year_start=date(2026, 7, 1),
                                       status="draft", created_by_id=1, answers={})
        w.session.add(other)
        w.session.flush()
        w.session.add(ExemptionOwner(certification_id=other.id, party_id=ids["maria"]))
        w.session.flush()
        other.status = "filed"
    owner = login(demo_app, "owner")
    cid = int(re.search(r"/exoneracion/(\d+)/", _start(owner, ids["home"])).group(1))
    r = _post(owner, f"/exoneracion/{cid}/paso/duenos", {"owners": ids["maria"]})
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    assert "040-000-002-14" in html and "R-B6" in html
    with demo_app.app_context(), UnitOfWork(database()) as w:  # nothing was saved
        assert w.session.scalars(select(ExemptionOwner).where(
            ExemptionOwner.certification_id == cid)).all() == []
        assert "owners" not in w.session.get(ExemptionCertification, cid).answers


def test_debt_on_january_1_asks_for_a_plan_r_b11(demo_app: Flask):
    """Property tax owed on January 1: the plan step, the rolled 30th day after filing. The
    year's CRIM row says no debt; the debts recorded on the home (2022-2023 with an auction
    pending, 2023-2025 attached) were unpaid on January 1, 2026: the step is asked for them,
    with their total."""
    from portal.db import UnitOfWork
    from portal.models import PropertyTaxFact, TaxDebt
    from portal.web.data import database
    ids = _ids(demo_app)
    with demo_app.app_context(), UnitOfWork(database()) as w:
        fact = w.session.scalar(select(PropertyTaxFact).where(
            PropertyTaxFact.parcel_id == ids["home"]))
        assert fact.debt_on_january_1 == 0
        owed = sum(d.taxes + d.surcharges + d.interest + d.penalties + d.levies + d.fines
                   + d.costs for d in w.session.scalars(select(TaxDebt).where(
                       TaxDebt.parcel_id == ids["home"])))
    assert owed == Decimal("7313.84")
    owner = login(demo_app, "owner")
    cid = int(re.search(r"/exoneracion/(\d+)/", _start(owner, ids["home"])).group(1))
    for slug, data in (("duenos", {"owners": ids["maria"]}),
                       ("residentes", {"occupants": "María Rivera Ortiz (dueña)"}),
                       ("uso", {"use": "home"}), ("renta", {"rent": "no"}),
                       ("parte-residencial", {"residential": "all"}),
                       ("veterano", {"veteran": "no"})):
        _answer(owner, cid, slug, data)
    assert _answer(owner, cid, "cooperativa", {"cooperative": "no"}).endswith("/deuda")
    page = owner.get(f"/exoneracion/{cid}/paso/deuda").get_data(as_text=True)
    # Filed today (2026-11-30), the 30th day is 2026-12-30 (a Wednesday): no roll-over.
    assert "$7,313.84" in page and "30 de diciembre de 2026" in page
    r = _post(owner, f"/exoneracion/{cid}/paso/deuda",
              {"plan": "request", "plan_payments": "13", "plan_first_due": "2027-01-15"})
    assert r.status_code == 422  # at most 12 (R-B16)
    assert _answer(owner, cid, "deuda", {"plan": "request", "plan_payments": "6",
                                         "plan_first_due": "2027-01-15"}).endswith("/evidencia")
    _answer(owner, cid, "evidencia", {})
    _answer(owner, cid, "resultado", {})
    _answer(owner, cid, "certificar", {"attest": "y", "full_name": "María Rivera Ortiz"})
    page = owner.get(f"/propiedad/{ids['home']}").get_data(as_text=True)
    assert "el plan de pagos que solicitó" in page  # the exemption is pending with the plan
    staff = login(demo_app, "staff")
    review = staff.get(f"/personal/exoneraciones/{cid}").get_data(as_text=True)
    assert "6 pagos mensuales desde el 15 de enero de 2027" in review


def test_staff_pages_are_staff_only(demo_app: Flask):
    owner = login(demo_app, "owner")
    for path in ("/personal/exoneraciones", "/personal/exoneraciones/1"):
        assert owner.get(path).status_code == 404
    assert login(demo_app, "owner").get("/prestamista/exoneraciones").status_code == 404


def test_every_exemption_page_is_valid_html(demo_app: Flask, tmp_path):
    """The Nu HTML Checker finds no error on the exemption's pages, both languages, with and
    without a form's errors (tests/web/test_html_valid.py's checker)."""
    from tests.support.html import vnu_errors, vnu_missing
    if vnu_missing():
        pytest.skip(vnu_missing())
    ids = _ids(demo_app)
    owner, staff, lender = (login(demo_app, r) for r in ("owner", "staff", "lender"))
    cid = _file_home(owner, ids)
    _upload(owner, cid, pdf_bytes(), "escritura.pdf")
    pages: dict[str, str] = {}
    for lang in ("es", "en"):
        for client in (owner, staff, lender):
            client.post("/idioma", data={"lang": lang, "csrf_token": csrf_token(
                client.get("/").get_data(as_text=True))})
        for slug in ("duenos", "residentes", "uso", "renta", "parte-residencial", "veterano",
                     "cooperativa", "evidencia", "resultado", "certificar"):
            pages[f"{lang}-{slug}"] = owner.get(f"/exoneracion/{cid}/paso/{slug}").get_data(
                as_text=True)
        pages[f"{lang}-error"] = _post(owner, f"/exoneracion/{cid}/paso/certificar",
                                       {"full_name": ""}).get_data(as_text=True)
        pages[f"{lang}-start"] = staff.get(f"/propiedad/{ids['home']}/exoneracion").get_data(
            as_text=True)
        pages[f"{lang}-queue"] = staff.get("/personal/exoneraciones").get_data(as_text=True)
    _answer(owner, cid, "certificar", {"attest": "y", "full_name": "María Rivera Ortiz"})
    for lang in ("es", "en"):
        for client in (owner, staff, lender):
            client.post("/idioma", data={"lang": lang, "csrf_token": csrf_token(
                client.get("/").get_data(as_text=True))})
        pages[f"{lang}-receipt"] = owner.get(f"/exoneracion/{cid}/recibo").get_data(
            as_text=True)
        pages[f"{lang}-parcel"] = owner.get(f"/propiedad/{ids['home']}").get_data(as_text=True)
        pages[f"{lang}-review"] = staff.get(f"/personal/exoneraciones/{cid}").get_data(
            as_text=True)
        pages[f"{lang}-lender"] = lender.get("/prestamista/exoneraciones").get_data(
            as_text=True)
    files = []
    for name, html in pages.items():
        assert "<html" in html, name
        f = tmp_path / f"{name}.html"
        f.write_text(html, encoding="utf-8")
        files.append(f)
    errors = vnu_errors(files)
    assert errors == [], "\n".join(errors[:40])


# werkzeug's test client spools a large request body to a temporary file it never closes
# (its EnvironBuilder, not the portal): that warning is the test tool's.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.filterwarnings("ignore::ResourceWarning")
def test_uploads_up_to_10_mb_pass_the_portals_smaller_request_limit(demo_app: Flask):
    """The portal refuses requests over 2 MB; the upload route takes a 10 MB file, and one a
    byte larger gets the clear message, not an error page (nothing stored)."""
    import random

    from PIL import Image
    ids = _ids(demo_app)
    owner = login(demo_app, "owner")
    cid = int(re.search(r"/exoneracion/(\d+)/", _start(owner, ids["home"])).group(1))
    rng = random.Random(7)
    img = Image.frombytes("RGB", (1000, 1000), bytes(rng.getrandbits(8) for _ in range(3_000_000)))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    big = buf.getvalue()
    assert 2 * 1024 * 1024 < len(big) <= 10 * 1024 * 1024
    html = _upload(owner, cid, big, "plano.png")
    assert "Se añadió plano.png." in html
    html = _upload(owner, cid, b"%PDF-1.4\n" + b"0" * (10 * 1024 * 1024), "grande.pdf")
    assert "El archivo es mayor de 10 MB" in html and "grande.pdf" not in html
    import gc
    gc.collect()  # the test client's spooled files, inside this test's warning filter


def test_only_reviewers_decide_and_files_are_served_as_what_they_are(demo_app: Flask):
    """R-B13: a cashier or a read-only staff member sees the filing, is refused its decisions
    (403) and nothing changes; its documents are served with their type, never sniffed."""
    ids = _ids(demo_app)
    owner = login(demo_app, "owner")
    cid = _file_home(owner, ids)
    html = _upload(owner, cid, png_bytes(), "foto.png")
    eid = int(re.search(rf"/exoneracion/{cid}/evidencia/(\d+)", html).group(1))
    r = owner.get(f"/exoneracion/{cid}/evidencia/{eid}")
    assert r.status_code == 200 and r.mimetype == "image/png" and r.data == png_bytes()
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    _answer(owner, cid, "evidencia", {})
    _answer(owner, cid, "resultado", {})
    _answer(owner, cid, "certificar", {"attest": "y", "full_name": "María Rivera Ortiz"})
    for email in ("cashier@demo.pr", "readonly@demo.pr"):
        staff = login(demo_app, email)
        page = f"/personal/exoneraciones/{cid}"
        assert staff.get(page).status_code == 200
        assert staff.get(f"/exoneracion/{cid}/evidencia/{eid}").status_code == 200
        for action in ("revisar", "aprobar", "devolver"):
            assert _post(staff, f"{page}/{action}", {"reasons": "evidence"},
                         page).status_code == 403, (email, action)
    assert "Radicada" in owner.get(f"/exoneracion/{cid}/recibo").get_data(as_text=True)


def test_the_queue_filters_and_pages(demo_app: Flask):
    """Staff's queue: by status, municipality and days since filing, 50 a page with links."""
    from portal.db import UnitOfWork
    from portal.models import ExemptionCertification, Parcel
    from portal.web.data import database
    with demo_app.app_context(), UnitOfWork(database()) as w:
        pids = list(w.session.scalars(select(Parcel.id).order_by(Parcel.id).limit(55)))
        for k, pid in enumerate(pids):
            c = ExemptionCertification(parcel_id=pid, fiscal_year_start=date(2026, 7, 1),
                                       status="draft", created_by_id=1, answers={})
            w.session.add(c)
            w.session.flush()
            c.status = "filed"
            c.filing_number = f"EXR-2026-{c.id:06d}"
            c.filed_on = date(2026, 11, 30 - k % 20)
    staff = login(demo_app, "staff")
    page = staff.get("/personal/exoneraciones?status=filed").get_data(as_text=True)
    assert "55 certificaciones" in page and "Página 1 de 2" in page
    assert "page=2" in page and "status=filed" in page
    second = staff.get("/personal/exoneraciones?status=filed&page=2").get_data(as_text=True)
    assert second.count("EXR-2026-") == 5
    old = staff.get("/personal/exoneraciones?age=19").get_data(as_text=True)
    assert "2 certificaciones" in old  # k = 19, 39: filed on November 11
    assert staff.get("/personal/exoneraciones?status=approved").get_data(
        as_text=True).count("EXR-2026-") == 0
    r = staff.get("/personal/exoneraciones?age=-3")
    assert r.status_code == 422  # a clear message, nothing filtered


def _file_home_with_plan(owner, ids: dict) -> int:  # noqa: ANN001
    """The owner files for her home (owed 7,313.84 on January 1) asking for a plan of 6
    monthly payments from 2027-01-15 (R-B16); the certification's id."""
    cid = int(re.search(r"/exoneracion/(\d+)/", _start(owner, ids["home"])).group(1))
    for slug, data in (("duenos", {"owners": ids["maria"]}),
                       ("residentes", {"occupants": "María Rivera Ortiz (dueña)"}),
                       ("uso", {"use": "home"}), ("renta", {"rent": "no"}),
                       ("parte-residencial", {"residential": "all"}),
                       ("veterano", {"veteran": "no"}), ("cooperativa", {"cooperative": "no"}),
                       ("deuda", {"plan": "request", "plan_payments": "6",
                                  "plan_first_due": "2027-01-15"}),
                       ("evidencia", {}), ("resultado", {}),
                       ("certificar", {"attest": "y", "full_name": "María Rivera Ortiz"})):
        _answer(owner, cid, slug, data)
    return cid


def test_the_plan_requested_shows_its_payments_to_the_owner_and_staff(demo_app: Flask,
                                                                      tmp_path):  # noqa: ANN001
    """R-B16: the plan requested with the filing, as the core schedules it, on the owner's
    receipt and the staff's review page, in both languages. The home owed 7,313.84 on January
    1 (the debts recorded on it); 6 payments from Friday 2027-01-15, no down payment (the
    CRIM's rate 0): 731,384 cents / 6 = 121,897 remainder 2: 1,218.98 twice, then 1,218.97
    four times (sum 7,313.84). Last days: 01-15; 02-15 is Presidents' Day: 02-16; 03-15;
    04-15; 05-15 is a Saturday: 05-17; 06-15. The same as `portal calc payment_plan`."""
    from portal.core.calc import run
    ids = _ids(demo_app)
    owner = login(demo_app, "owner")
    cid = _file_home_with_plan(owner, ids)
    core = run("payment_plan", {"debt": "7313.84", "count": 6, "first_due": "2027-01-15"})
    amounts = [p["amount"] for p in core["payments"]]
    assert amounts == ["1218.98", "1218.98", "1218.97", "1218.97", "1218.97", "1218.97"]
    assert [p["last_day"] for p in core["payments"]] == [
        "2027-01-15", "2027-02-16", "2027-03-15", "2027-04-15", "2027-05-17", "2027-06-15"]
    staff = login(demo_app, "staff")
    words = {"es": ("El plan de pago", "16 de febrero de 2027", "17 de mayo de 2027",
                    "$1,218.98", "$7,313.84", "incumplimiento"),
             "en": ("The payment plan", "February 16, 2027", "May 17, 2027", "$1,218.98",
                    "$7,313.84", "in default")}
    for lang, expected in words.items():
        for client in (owner, staff):
            page = client.get("/").get_data(as_text=True)
            client.post("/idioma", data={"csrf_token": csrf_token(page), "lang": lang})
        for who, path in (("owner", f"/exoneracion/{cid}/recibo"),
                          ("staff", f"/personal/exoneraciones/{cid}")):
            html = (owner if who == "owner" else staff).get(path).get_data(as_text=True)
            shown = re.findall(r'data-plan-payment="\d+">.*?data-amount="([0-9.]+)"', html)
            assert shown == amounts, (lang, who)
            for text in expected:
                assert text in html, (lang, who, text)
            (tmp_path / f"{who}-{lang}.html").write_text(html, encoding="utf-8")
        pdf = owner.get(f"/exoneracion/{cid}/recibo.pdf")
        assert pdf.status_code == 200
        text = subprocess.run(["pdftotext", "-", "-"], input=pdf.data, capture_output=True,
                              check=True).stdout.decode()
        assert text.count("$1,218.97") >= 4 and expected[2] in text, lang
    from tests.support.html import vnu_errors, vnu_missing
    if not vnu_missing():
        errors = vnu_errors(sorted(tmp_path.glob("*.html")))
        assert errors == [], "\n".join(errors[:20])


def test_the_crims_reports_apply_to_the_plan_and_a_missed_payment_is_a_default(
        demo_app: Flask, tmp_path):  # noqa: ANN001
    """R-B16 once approved: staff record what the CRIM reports; the core applies it. The
    home's plan of 6 payments from 2027-01-15 (1,218.98, 1,218.98, 1,218.97 x 4; payment 2's
    last day Tuesday 2027-02-16). On 2027-02-17 the CRIM has reported 1,218.98 paid on
    01-15 only: payment 2 was not paid by the end of 02-16, so the plan is in default from
    02-17; the balance 7,313.84 - 1,218.98 = 6,094.86 falls due, plus the auction notice
    costs 45.00 the CRIM charged: 6,139.86. Bad input is refused in the staff's language,
    nothing recorded; the owner sees the default in both languages."""
    from portal import clock
    from portal.models import PlanEntry
    ids = _ids(demo_app)
    owner = login(demo_app, "owner")
    cid = _file_home_with_plan(owner, ids)
    staff = login(demo_app, "staff")
    url = f"/personal/exoneraciones/{cid}"
    tok = csrf_token(staff.get(url).get_data(as_text=True))
    # Not approved yet: nothing to record against.
    r = staff.post(f"{url}/plan", data={"csrf_token": tok, "plan-kind": "payment",
                                        "plan-entry_on": "2026-11-30", "plan-amount": "10"})
    assert r.status_code == 303 and "no tiene un plan de pagos aprobado" in staff.get(
        url).get_data(as_text=True)
    assert staff.post(f"{url}/revisar", data={"csrf_token": tok}).status_code == 303
    assert staff.post(f"{url}/aprobar", data={"csrf_token": tok}).status_code == 303

    def count() -> int:
        from sqlalchemy import func

        from portal.db import UnitOfWork
        from portal.web.data import database
        with demo_app.app_context(), UnitOfWork(database()) as w:
            return w.session.scalar(select(func.count()).select_from(PlanEntry))

    with clock.fixed(date(2027, 2, 17)):
        staff, owner = login(demo_app, "staff"), login(demo_app, "owner")  # sessions expire
        tok = csrf_token(staff.get(url).get_data(as_text=True))
        form = {"csrf_token": tok, "plan-kind": "payment", "plan-entry_on": "2027-01-15",
                "plan-amount": "1,218.98", "plan-reference": "CRIM 55-1"}
        for bad, message in (({"plan-amount": "mil"}, "Escriba la cantidad solo con números"),
                             ({"plan-amount": "0"}, "mayor de 0.00"),
                             ({"plan-entry_on": "2027-03-01"}, "no puede ser un día por venir"),
                             ({"plan-entry_on": "2026-11-01"}, "antes de que se presentara")):
            r = staff.post(f"{url}/plan", data={**form, **bad})
            assert r.status_code == 422, bad
            assert message in r.get_data(as_text=True), (bad, message)
        assert count() == 0
        assert staff.post(f"{url}/plan", data=form).status_code == 303
        assert staff.post(f"{url}/plan", data={**form, "plan-kind": "notice_costs",
                                               "plan-entry_on": "2027-02-17",
                                               "plan-amount": "45"}).status_code == 303
        assert count() == 2
        for lang, words in (("es", ("incumplimiento desde el 17 de febrero de 2027",
                                    "$6,139.86", "No pagado a tiempo")),
                            ("en", ("in default since February 17, 2027", "$6,139.86",
                                    "Missed"))):
            for client in (owner, staff):
                page = client.get("/").get_data(as_text=True)
                client.post("/idioma", data={"csrf_token": csrf_token(page), "lang": lang})
            for client, path in ((owner, f"/exoneracion/{cid}/recibo"), (staff, url)):
                html = client.get(path).get_data(as_text=True)
                assert 'data-figure="plan-default" data-amount="6139.86"' in html, (lang, path)
                for text in words:
                    assert text in html, (lang, path, text)
                (tmp_path / f"{lang}-{path.count('/')}.html").write_text(html, "utf-8")
        bad = staff.post(f"{url}/plan", data={**form, "plan-amount": "mil"})
        (tmp_path / "error.html").write_text(bad.get_data(as_text=True), "utf-8")
    from tests.support.html import vnu_errors, vnu_missing
    if not vnu_missing():
        errors = vnu_errors(sorted(tmp_path.glob("*.html")))
        assert errors == [], "\n".join(errors[:20])
