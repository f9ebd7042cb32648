"""The payoff certificate as a document (R-A19): issued through the service for each of the
demo owner's parcels in both languages and read back with poppler as every document is
(`tests/web/test_documents.check`: no two runs of text overlap, every amount whole, the
Authority and "page N of M" on each page, tagged with title, language and structure), plus
its own parts: the verification code and address printed, the QR code a tagged /Figure whose
/Alt gives the address, and a certificate of many years running onto several pages."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
from datetime import date

import pytest
from fpdf.syntax import PDFString
from sqlalchemy import select

from portal import i18n
from portal.collections import certificates
from portal.core.payoff_certificate import CertificateContent
from portal.db import UnitOfWork
from portal.models import DebtCertificate
from portal.pdf.certificate import modules
from portal.people import users
from portal.web.data import database
from tests.support.demo import parcel_ids
from tests.support.documents import check, pages_of, pdfinfo, structure

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None or shutil.which("pdfinfo")
                                is None, reason="poppler-utils (pdftotext, pdfinfo) missing")

LINK = "http://localhost/verificar"


def i18n_issuer(lang: str) -> str:
    from portal import pdf
    return pdf.issuer(date(2026, 11, 30), lang).name


def _issued(demo_app, lang: str) -> list[tuple[DebtCertificate, str]]:  # noqa: ANN001
    out = []
    with demo_app.app_context(), UnitOfWork(database()) as w:
        owner = users.find_by_email(w, "owner@demo.pr")
        for pid in parcel_ids(demo_app)["owner"]:
            issued = certificates.issue(w, owner, pid, date(2026, 12, 12), lang, LINK)
            w.session.expunge(issued.certificate)
            out.append((issued.certificate, issued.code))
    return out


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_certificate_prints_cleanly(demo_app, lang, tmp_path):  # noqa: ANN001
    for cert, code in _issued(demo_app, lang):
        content = CertificateContent.from_json(json.loads(cert.content))
        with i18n.use_language(lang):
            doc = certificates.document(content, code, f"{LINK}?codigo={code}")
        check(doc, cert.document, lang, tmp_path, min_pages=1)
        text = " ".join(b.text for _, _, boxes in pages_of(cert.document, tmp_path)
                        for b in boxes)
        assert code in text and LINK in text
        title = {"es": "Certificación de deuda", "en": "Payoff certificate"}[lang]
        assert doc.title == title
        # its heading: the first heading of the tree, an H1 with the title in the reader's
        # language, after the Authority's name and contact
        elems = structure(cert.document, tmp_path, i18n_issuer(lang))
        headings = [(role, text) for _d, role, text in elems if role.startswith("H")]
        assert headings[0] == ("H1", title), headings[:2]
        assert [r for r, _t in headings].count("H1") == 1
        assert [r for _d, r, _t in elems[:4]] == ["Document", "P", "P", "H1"]
        tree = pdfinfo(cert.document, tmp_path, "-struct")
        assert re.search(r"^\s*Figure\b", tree, re.M), "the QR code is no tagged figure"
        alt = {"es": "Código QR de la dirección de verificación",
               "en": "QR code of the verification address"}[lang]
        assert b"/Alt " + PDFString(f"{alt}: {LINK}?codigo={code}").serialize().encode() \
            in cert.document
        # the R-A19 contents, in the reader's words
        words = {"es": ("Válida hasta", "Cantidad para saldar", "Principal en mora",
                        "Antes que el gravamen del Distrito", "versión 1 del presupuesto"),
                 "en": ("Good through", "Pay-off amount", "Delinquent principal",
                        "Ahead of the District's lien", "budget version 1")}[lang]
        flat = text.replace("\u00a0", " ")
        for w in words:
            assert w in flat, w


def test_many_years_run_onto_several_pages(demo_app, tmp_path):  # noqa: ANN001
    cert, code = _issued(demo_app, "es")[0]
    content = CertificateContent.from_json(json.loads(cert.content))
    longer = dataclasses.replace(content, years=content.years * 8)
    with i18n.use_language("es"):
        doc = certificates.document(longer, code, LINK)
    data = certificates.render(longer, code, LINK, "es")
    check(doc, data, "es", tmp_path, min_pages=3)


def test_the_qr_code_encodes_the_link():
    """segno's modules of the address: a version-3 or larger code (29+ modules a side),
    square, and another address gives other modules."""
    a, b = modules(f"{LINK}?codigo=AAAA"), modules(f"{LINK}?codigo=BBBB")
    assert len(a) >= 29 and all(len(row) == len(a) for row in a)
    assert a != b


def test_the_stored_document_is_the_issued_one(demo_app):
    """Downloading twice gives the same bytes: the PDF is kept as issued, not re-rendered."""
    (cert, _code), *_ = _issued(demo_app, "es")
    with demo_app.app_context(), UnitOfWork(database()) as w:
        stored = w.session.scalar(select(DebtCertificate.document)
                                  .where(DebtCertificate.id == cert.id))
    assert stored == cert.document
