"""Paperless notices and the parcel's notices, through the pages: the owner
chooses email instead of paper at /cuenta/sin-papel (saved, audited, shown on the parcel
page); the parcel page lists every notice the portal issued, newest first, each with its PDF
(with the QR code of the pay link); nobody else reads them."""

from __future__ import annotations

import re

from flask import Flask

from tests.support.demo import app_uow
from tests.support.pages import csrf_token, login


def _owner_parcel(app: Flask) -> int:
    from portal.accounts import access
    from portal.people import users
    with app_uow(app) as w:
        owner = users.find_by_email(w, "owner@demo.pr")
        return min(p.id for p, rel in access.linked_parcels(w, owner) if rel == "owner")


def test_the_owner_chooses_paperless_and_the_parcel_page_says_so(demo_app: Flask):
    pid = _owner_parcel(demo_app)
    owner = login(demo_app, "owner")
    page = owner.get("/cuenta/sin-papel")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Avisos sin papel" in html
    assert "siempre llegan en papel" in html  # certified demands: the law
    assert f'name="paperless-{pid}" value="paper" checked' in html
    r = owner.post("/cuenta/sin-papel", data={"csrf_token": csrf_token(html),
                                              f"paperless-{pid}": "email"})
    assert r.status_code == 303
    html = owner.get("/cuenta/sin-papel").get_data(as_text=True)
    assert f'name="paperless-{pid}" value="email" checked' in html
    parcel = owner.get(f"/propiedad/{pid}").get_data(as_text=True)
    assert "solo por correo electrónico (sin papel)" in parcel
    from sqlalchemy import select

    from portal.models import AuditRecord
    from portal.models.paperless import PaperlessChoice
    with app_uow(demo_app) as w:
        row = w.session.scalar(select(PaperlessChoice).where(PaperlessChoice.parcel_id == pid))
        assert row.paperless is True
        assert w.session.scalar(select(AuditRecord).where(
            AuditRecord.action == "paperless.chosen")) is not None


def test_another_persons_parcel_cannot_be_chosen(demo_app: Flask):
    pid = _owner_parcel(demo_app)
    other = login(demo_app, "other")
    html = other.get("/cuenta/sin-papel").get_data(as_text=True)
    r = other.post("/cuenta/sin-papel", data={"csrf_token": csrf_token(html),
                                              f"paperless-{pid}": "email"})
    assert r.status_code == 303  # not one of theirs: not asked, nothing saved
    from sqlalchemy import func, select

    from portal.models.paperless import PaperlessChoice
    with app_uow(demo_app) as w:
        assert w.session.scalar(select(func.count()).select_from(PaperlessChoice).where(
            PaperlessChoice.parcel_id == pid)) == 0


def test_the_parcel_page_lists_its_notices_with_their_pdfs(demo_app: Flask):
    pid = _owner_parcel(demo_app)
    owner = login(demo_app, "owner")
    html = owner.get(f"/propiedad/{pid}").get_data(as_text=True)
    assert "Avisos emitidos para esta propiedad" in html
    links = re.findall(rf'href="(/propiedad/{pid}/avisos/\d+\.pdf)"', html)
    assert links
    r = owner.get(links[0])
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    for who in ("other", "lender"):
        assert login(demo_app, who).get(links[0]).status_code == 404
    assert demo_app.test_client().get(links[0]).status_code == 302  # sign in first
    # a notice of another parcel asked for under this one
    number = int(re.search(r"/avisos/(\d+)\.pdf", links[0]).group(1))
    from sqlalchemy import select

    from portal.models import Notice
    with app_uow(demo_app) as w:
        elsewhere = w.session.scalar(select(Notice.id).where(
            Notice.parcel_id != pid, Notice.kind == "assessment"))
    assert owner.get(f"/propiedad/{pid}/avisos/{elsewhere}.pdf").status_code == 404
    assert number != elsewhere


def test_the_statement_prints_the_pay_links_qr_code(demo_app: Flask, tmp_path):
    import shutil
    import subprocess

    import pytest
    if shutil.which("pdfinfo") is None:
        pytest.skip("poppler-utils missing")
    pid = _owner_parcel(demo_app)
    for lang in ("es", "en"):
        r = login(demo_app, "owner").get(f"/propiedad/{pid}/estado-de-cuenta.pdf?lang={lang}")
        path = tmp_path / f"statement-{lang}.pdf"
        path.write_bytes(r.data)
        info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True).stdout
        assert re.search(r"^Tagged:\s+yes$", info, re.M)
        tree = subprocess.run(["pdfinfo", "-struct-text", str(path)], capture_output=True,
                              text=True).stdout
        assert "Figure" in tree
        text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True,
                              text=True).stdout
        assert ("Pague en línea sin cuenta" if lang == "es"
                else "Pay online without an account") in text
        shutil.copy(path, f"/tmp/gp_statement-{lang}.pdf")
