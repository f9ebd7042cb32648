"""R-A17 (revision 3) on the pages: the demand letter downloaded is the one kept when it was
queued (the same bytes, never re-rendered), for staff, the payer and the owner (the owner's
copy when another pays); the staff's print file of the owners' copies with no account to
email them to; the next day the run starts by itself, said on the collections page. Both
languages."""

from __future__ import annotations

import io

import pytest
from flask import Flask
from pypdf import PdfReader
from sqlalchemy import select

from portal import pdf
from portal.collections import letters
from portal.db import UnitOfWork
from portal.jobs import queue
from portal.models import (
    DemandDocument,
    DemandLetter,
)
from portal.web.data import database
from tests.support.clock import TODAY
from tests.support.demand_copies import lease_private_parcels
from tests.support.documents import merged_structure, needs_poppler
from tests.support.pages import csrf_token, login


@pytest.fixture
def app(demo_app: Flask):  # noqa: ANN201
    with demo_app.app_context():  # the file store the demo kept its letters in
        queue.use_immediate(database())
    yield demo_app
    queue.reset()


def _run(client) -> None:  # noqa: ANN001
    token = csrf_token(client.get("/personal/cobros").get_data(as_text=True))
    r = client.post("/personal/cobros/correr", data={"csrf_token": token,
                                                      "run_on": "2026-11-30"})
    assert r.status_code == 303


def _kept(app: Flask) -> dict[tuple[int, str], DemandDocument]:
    with app.app_context(), UnitOfWork(database()) as w:
        rows = w.session.execute(select(DemandDocument, DemandLetter.parcel_id).join(
            DemandLetter, DemandLetter.notice_id == DemandDocument.notice_id)).all()
        for d, _p in rows:
            w.session.expunge(d)
        return {(p, d.kind): d for d, p in rows}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_letter_downloaded_is_the_one_kept(app, lang):
    picked = lease_private_parcels(app)
    staff = login(app, "staff")
    _run(staff)
    kept = _kept(app)
    demanded = {p for p, kind in kept if kind == "demand"}
    copies = {p: d for (p, kind), d in kept.items() if kind == "owner_copy"}
    assert set(copies) == set(picked.values()) & demanded, "both leased parcels are demanded"
    assert copies[picked["email"]].channel == "email"
    assert copies[picked["print"]].channel == "print"
    for (pid, kind), d in kept.items():
        if kind != "demand":
            continue
        r = staff.get(f"/cobros/requerimiento/{d.notice_id}.pdf?lang={lang}")
        assert r.status_code == 200 and r.data == letters.read(d), pid
    copy = copies[picked["print"]]
    page = staff.get(f"/personal/cobros/{copy.notice_id}?lang={lang}").get_data(as_text=True)
    assert 'id="owner-copy"' in page and "copia=1" in page
    assert ("en papel" if lang == "es" else "on paper") in page
    emailed = copies[picked["email"]].notice_id
    page = staff.get(f"/personal/cobros/{emailed}?lang={lang}").get_data(as_text=True)
    assert ("por correo electrónico" if lang == "es" else "by email") in page
    r = staff.get(f"/cobros/requerimiento/{copy.notice_id}.pdf?copia=1")
    assert r.status_code == 200 and r.data == letters.read(copy)
    for role in ("lender", "other"):
        assert login(app, role).get(f"/cobros/requerimiento/{copy.notice_id}.pdf"
                                    ).status_code == 404


def _h1s(part: list[tuple[int, str, str]]) -> list[str]:
    return [text for _d, role, text in part if role == "H1"]


@needs_poppler
@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_staffs_print_file_of_the_owners_copies(app, lang, tmp_path):
    picked = lease_private_parcels(app)
    staff = login(app, "staff")
    staff.post("/idioma", data={"csrf_token": csrf_token(staff.get("/").get_data(as_text=True)),
                                "lang": lang})
    page = staff.get("/personal/cobros").get_data(as_text=True)
    # R-A17: on 30 November the run starts by itself on 11 December (G = Thu 10 December)
    assert ("11 de diciembre de 2026" if lang == "es" else "December 11, 2026") in page
    assert "impresion.pdf" not in page
    _run(staff)
    page = staff.get("/personal/cobros").get_data(as_text=True)
    assert "/personal/cobros/impresion.pdf?dia=2026-11-30" in page
    assert ("1 copia preparada" if lang == "es" else "1 copy queued") in page
    r = staff.get("/personal/cobros/impresion.pdf?dia=2026-11-30")
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(r.data)).pages)
    assert "Arrendatario print" in text and "Arrendatario email" not in text
    # tagged: each copy as it was kept, its structure tree carried over (a Part a copy)
    copy = next(d for (_p, kind), d in _kept(app).items()
                if kind == "owner_copy" and d.channel == "print")
    parts = merged_structure(r.data, tmp_path, [pdf.issuer(TODAY, copy.language).name])
    titles = {"es": "Requerimiento de pago", "en": "Demand for payment"}
    assert [h.split(" ")[0] for h in _h1s(parts[0])] == [
        titles[copy.language].split(" ")[0],
        titles["en" if copy.language == "es" else "es"].split(" ")[0]]
    assert picked
    for bad in ("", "?dia=2026-11-29", "?dia=x", "?dia=2026-13-01"):
        assert staff.get(f"/personal/cobros/impresion.pdf{bad}").status_code == 404
    for role in ("owner", "lessee", "lender", "other"):
        assert login(app, role).get("/personal/cobros/impresion.pdf?dia=2026-11-30"
                                    ).status_code == 404


@needs_poppler
def test_the_court_packet_holds_the_kept_letter_and_names_a_closed_day(app, tmp_path):
    """R-A13, R-A17: the demo's demand mailed 22 September (last day 7 October): the packet
    has the letter as kept (the same pages' text) and its receipt of mailing names the day
    the Board closed that moved the last day."""
    from datetime import date as day

    from portal.people import users
    from portal.roll import board_parameters

    staff = login(app, "staff")
    kept = {d.notice_id: d for (_p, kind), d in _kept(app).items() if kind == "demand"}
    court = staff.get("/personal/cobros/tribunal").get_data(as_text=True)
    nid = next(n for n in kept if f'href="/personal/cobros/{n}"' in court)
    with app.app_context(), UnitOfWork(database()) as w:
        board_parameters.declare_closed(w, users.find_by_email(w, "staff@demo.pr"),
                                        day(2026, 10, 7), day(2026, 10, 7), "Huracán Ernesto",
                                        "Hurricane Ernesto", "2026-15", day(2026, 11, 29))
    r = staff.get(f"/personal/cobros/{nid}/expediente.pdf")
    assert r.status_code == 200
    pages = PdfReader(io.BytesIO(r.data)).pages
    letter = PdfReader(io.BytesIO(letters.read(kept[nid]))).pages
    texts = [p.extract_text() for p in pages]
    assert [p.extract_text() for p in letter] == [t for t in texts if t in
                                                 {p.extract_text() for p in letter}]
    assert "Huracán Ernesto" in texts[-1] or "Huracán Ernesto" in texts[-2]
    # tagged: the statement, the letter as kept and the receipt, each a Part of the tree
    issuer = pdf.issuer(TODAY, "es").name
    parts = merged_structure(r.data, tmp_path, [
        issuer, pdf.issuer(TODAY, kept[nid].language).name, issuer])
    assert _h1s(parts[0]) == ["Estado de cuenta"]
    assert len(_h1s(parts[1])) == 2  # the letter in both languages
    assert _h1s(parts[2])[0].startswith("Constancia de envío")
