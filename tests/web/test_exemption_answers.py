"""The owner's certification (J5): what the wizard takes and what it says back.

A veteran's amount is refused over the property's valuation (R-B3) and in an exponent; "who
lives in the home" is required and bounded; the owner reads every answer before the
attestation (R-B12), which is signed with the name of an owner named on the filing (accents,
case and spaces aside); the receipt (page, PDF, email) states the answers (R-B14); a PDF with
a script is accepted and flagged to the reviewer.
"""

from __future__ import annotations

import io
import re

import pytest
from flask import Flask
from pypdf import PdfReader

from portal import storage
from portal.exemptions.evidence import active_content
from portal.exemptions.filings import signed_by_owner
from tests.support.exemption_wizard import answer, file_home, ids, post, start
from tests.support.pages import csrf_token, error_messages, login, outbox, read_mail


@pytest.fixture(autouse=True)
def _store(tmp_path):  # noqa: ANN001, ANN202
    storage.use(storage.FolderStore(tmp_path / "files"))
    yield
    storage.use(None)


def _pdf(extra: bytes = b"") -> bytes:
    """A one-page PDF; `extra`: more of its catalog (an /OpenAction, say)."""
    from fpdf import FPDF
    doc = FPDF()
    doc.add_page()
    doc.set_font("helvetica", size=12)
    doc.cell(text="Evidencia")
    data = bytes(doc.output())
    return data.replace(b"/Type /Catalog", b"/Type /Catalog " + extra, 1) if extra else data


def _draft(owner, home: dict) -> int:  # noqa: ANN001
    cid = int(re.search(r"/exoneracion/(\d+)/", start(owner, home["home"])).group(1))
    answer(owner, cid, "duenos", {"owners": home["maria"]})
    return cid


@pytest.mark.parametrize(("typed", "says"), [
    ("1e9", "sin exponente"),
    ("1.500,00", "no 1.500,00"),
    ("1000000000", "no puede ser mayor que la valoración de la propiedad"),
])
def test_a_veterans_amount_that_would_zero_the_bill_is_refused(demo_app: Flask, typed: str,
                                                               says: str):
    """"1e9" and a billion were taken (the bill shown as $0.00): each is refused with its
    reason, the bound the CRIM's valuation (R-B3), and nothing is stored."""
    home = ids(demo_app)
    owner = login(demo_app, "owner")
    cid = _draft(owner, home)
    r = post(owner, f"/exoneracion/{cid}/paso/veterano",
             {"veteran": "yes", "veteran_amount": typed})
    assert r.status_code == 422
    assert any(says in m for m in error_messages(r.get_data(as_text=True))), \
        error_messages(r.get_data(as_text=True))
    page = owner.get(f"/exoneracion/{cid}/paso/veterano").get_data(as_text=True)
    assert typed not in page
    assert answer(owner, cid, "veterano", {"veteran": "yes", "veteran_amount": "5,000.00"}
                  ).endswith("/cooperativa")


@pytest.mark.parametrize("occupants", ["", "   ", "x" * 1001])
def test_who_lives_in_the_home_is_required_and_bounded(demo_app: Flask, occupants: str):
    home = ids(demo_app)
    owner = login(demo_app, "owner")
    cid = _draft(owner, home)
    r = post(owner, f"/exoneracion/{cid}/paso/residentes", {"occupants": occupants})
    assert r.status_code == 422
    messages = error_messages(r.get_data(as_text=True))
    assert any("quién vive en la casa" in m or "1,000 caracteres" in m for m in messages)


def test_the_signature_is_an_owner_named_on_the_filing():
    owners = ["María Rivera Ortiz"]
    assert signed_by_owner("maria  RIVERA ortíz", owners)
    assert signed_by_owner(" María Rivera Ortiz ", owners)
    assert not signed_by_owner("Pedro Pérez", owners)
    assert not signed_by_owner("María Rivera", owners)
    assert not signed_by_owner("María Rivera Ortiz", [])


def test_a_name_not_of_an_owner_on_the_filing_does_not_sign(demo_app: Flask):
    home = ids(demo_app)
    owner = login(demo_app, "owner")
    cid = file_home(owner, home)
    answer(owner, cid, "evidencia", {})
    answer(owner, cid, "resultado", {})
    r = post(owner, f"/exoneracion/{cid}/paso/certificar",
             {"attest": "y", "full_name": "Pedro Pérez"})
    assert r.status_code == 422
    assert any("entre los dueños de esta certificación" in m
               for m in error_messages(r.get_data(as_text=True)))


@pytest.mark.parametrize(("lang", "words"), [
    ("es", ("Sus respuestas", "¿Quiénes son los dueños?", "María Rivera Ortiz (dueña)",
            "La paga completa dentro de los 30 días")),
    ("en", ("Your answers", "Who are the owners?", "María Rivera Ortiz (dueña)",
            "Pays in full within the 30 days")),
])
def test_every_answer_before_the_attestation_and_on_the_receipt(demo_app: Flask, lang: str,
                                                                words: tuple[str, ...]):
    """R-B12, R-B14: the summary before certifying, and the receipt's page, PDF and email,
    in the reader's language."""
    home = ids(demo_app)
    owner = login(demo_app, "owner")
    post(owner, "/idioma", {"lang": lang}, page_url="/")
    cid = file_home(owner, home)
    answer(owner, cid, "evidencia", {})
    answer(owner, cid, "resultado", {})
    attest = owner.get(f"/exoneracion/{cid}/paso/certificar").get_data(as_text=True)
    summary = attest[attest.index('data-testid="summary"'):]
    for w in words:
        assert w.replace("'", "&#39;") in summary, w
    loc = answer(owner, cid, "certificar", {"attest": "y", "full_name": "María Rivera Ortiz"})
    receipt = owner.get(loc).get_data(as_text=True)
    assert all(w in receipt for w in words[1:]), receipt
    pdf = owner.get(f"/exoneracion/{cid}/recibo.pdf").data
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "María Rivera Ortiz (dueña)" in " ".join(text.split())
    assert words[3] in " ".join(text.split())
    mails = [read_mail(p) for p in outbox(demo_app)]
    filed = [m.get_payload(decode=True).decode() for m in mails if m["To"] == "owner@demo.pr"
             and "EXR-2026" in str(m["Subject"])]
    assert filed and all(w in filed[-1] for w in words[1:]), filed


def test_a_pdf_with_a_script_is_accepted_and_flagged_to_the_reviewer(demo_app: Flask):
    assert active_content(_pdf()) == []
    script = _pdf(b"/OpenAction << /S /JavaScript /JS (app.alert(1)) >>")
    assert active_content(script) == ["JavaScript", "JS", "OpenAction"]
    escaped = _pdf(b"/#4Fpen#41ction << /S /#4AavaScript >>")
    assert "OpenAction" in active_content(escaped)
    home = ids(demo_app)
    owner = login(demo_app, "owner")
    cid = file_home(owner, home)
    page = owner.get(f"/exoneracion/{cid}/paso/evidencia").get_data(as_text=True)
    r = owner.post(f"/exoneracion/{cid}/evidencia", data={
        "csrf_token": csrf_token(page), "file": (io.BytesIO(script), "carta.pdf")},
        content_type="multipart/form-data")
    assert r.status_code == 303
    answer(owner, cid, "evidencia", {})
    answer(owner, cid, "resultado", {})
    answer(owner, cid, "certificar", {"attest": "y", "full_name": "María Rivera Ortiz"})
    receipt = owner.get(f"/exoneracion/{cid}/recibo").get_data(as_text=True)
    assert "carta.pdf" in receipt and 'data-testid="active-content"' not in receipt
    staff = login(demo_app, "staff")
    review = staff.get(f"/personal/exoneraciones/{cid}").get_data(as_text=True)
    assert 'data-testid="active-content"' in review
    assert "JavaScript, JS, OpenAction" in review
