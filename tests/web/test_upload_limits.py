"""Upload limits said as limits: a request over its limit is a 413 page (or a
problem under /api) naming the limit in the reader's language, never "the form expired";
each upload form says its limit before the upload; the lender's certification file takes
a realistic 20,000-row file (its own request limit); uploads are counted apart from sign-in
tries; the lender's pay-by-file refuses binary garbage and skips a header row."""

from __future__ import annotations

import io
import re

import pytest
from flask import Flask

from portal import storage
from portal.lenders.portfolio import read_loan_numbers
from tests.support.app import make_app
from tests.support.exemption_wizard import ids, start
from tests.support.pages import csrf_token, login, main_text

MB = 1024 * 1024


@pytest.fixture(autouse=True)
def _store(tmp_path):  # noqa: ANN001, ANN202
    storage.use(storage.FolderStore(tmp_path / "files"))
    yield
    storage.use(None)


def _draft(client, app: Flask) -> int:  # noqa: ANN001
    return int(re.search(r"/exoneracion/(\d+)/", start(client, ids(app)["home"])).group(1))


def _png(k: int) -> bytes:
    from PIL import Image
    buf = io.BytesIO()
    Image.new("RGB", (8 + k, 8), (k * 20, 30, 30)).save(buf, "PNG")
    return buf.getvalue()


def _switch(client, lang: str) -> None:  # noqa: ANN001
    page = client.get("/").get_data(as_text=True)
    client.post("/idioma", data={"csrf_token": csrf_token(page), "lang": lang})


@pytest.mark.parametrize(("lang", "says"), [
    ("es", "Aquí se sube un documento (PDF, JPEG o PNG) de 10 MB como máximo."),
    ("en", "This upload takes one document (PDF, JPEG or PNG) of at most 10 MB."),
])
def test_a_50_mb_document_is_told_the_10_mb_limit(demo_app: Flask, lang: str, says: str):
    owner = login(demo_app, "owner")
    _switch(owner, lang)
    cid = _draft(owner, demo_app)
    form = owner.get(f"/exoneracion/{cid}/paso/evidencia").get_data(as_text=True)
    assert says in form  # said before the upload
    r = owner.post(f"/exoneracion/{cid}/evidencia", data=b"x" * 1024,
                   content_type="multipart/form-data; boundary=x",
                   environ_overrides={"CONTENT_LENGTH": str(50 * MB)})
    page = r.get_data(as_text=True)
    assert r.status_code == 413
    assert says in main_text(page)
    assert "expir" not in page.lower()


@pytest.mark.parametrize(("lang", "says"), [
    ("es", "Esta página acepta 2 MB como máximo cada vez."),
    ("en", "This page takes at most 2 MB at a time."),
])
def test_any_form_over_the_apps_limit_is_told_it(demo_app: Flask, lang: str, says: str):
    owner = login(demo_app, "owner")
    _switch(owner, lang)
    r = owner.post("/idioma", data={"lang": "x" * (3 * MB)})
    assert r.status_code == 413 and says in main_text(r.get_data(as_text=True))


@pytest.mark.parametrize(("lang", "says"), [("es", "16 MB como máximo"),
                                            ("en", "at most 16 MB")])
def test_the_api_answers_a_too_large_body_with_a_problem_naming_the_limit(
        demo_app: Flask, lang: str, says: str):
    r = demo_app.test_client().post(
        "/api/v1/certification-batches", data=b"{}", content_type="application/json",
        headers={"Accept-Language": lang},
        environ_overrides={"CONTENT_LENGTH": str(17 * MB)})
    assert r.status_code == 413 and r.mimetype == "application/problem+json"
    body = r.get_json()
    assert body["status"] == 413 and says in body["detail"]


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.filterwarnings("ignore::ResourceWarning")
def test_the_lender_file_takes_a_20000_row_file_over_the_form_limit(demo_app: Flask):
    """A 2.5 MB upload passes the route's own limit (8 MB) and is read: here it is no CSV,
    and says so, where it used to be a 413 "the form expired" page."""
    lender = login(demo_app, "lender")
    page = lender.get("/prestamista/certificaciones/lote").get_data(as_text=True)
    assert "Aquí se sube un archivo de 8 MB como máximo." in page
    r = lender.post("/prestamista/certificaciones/lote", data={
        "csrf_token": csrf_token(page),
        "file": (io.BytesIO(b"\x00\x01" * (5 * MB // 4)), "prestamos.csv")},
        content_type="multipart/form-data")
    assert r.status_code == 400
    assert "El archivo no es un archivo CSV" in main_text(r.get_data(as_text=True))
    r.request.environ["wsgi.input"].close()  # the test client's spooled body (werkzeug's)


def test_uploads_are_counted_apart_from_sign_in_tries(tmp_path, demo_db, fixed_today):  # noqa: ANN001
    """With the throttle on, the 11th document in a minute is taken (sign-ins allow 10)."""
    app = make_app(tmp_path, demo_db[0], RATELIMIT_ENABLED=True)
    owner = login(app, "owner")
    cid = _draft(owner, app)
    page = owner.get(f"/exoneracion/{cid}/paso/evidencia").get_data(as_text=True)
    token = csrf_token(page)
    statuses = []
    for k in range(11):
        r = owner.post(f"/exoneracion/{cid}/evidencia", data={
            "csrf_token": token, "file": (io.BytesIO(_png(k)), f"foto-{k}.png")},
            content_type="multipart/form-data")
        statuses.append(r.status_code)
    assert statuses == [303] * 11
    assert owner.get(f"/exoneracion/{cid}/paso/evidencia").status_code == 200  # still in


@pytest.mark.parametrize("data", [b"\x89PNG\r\n\x1a\n\x00\x00garbage", b"\xff\xfe\x00\x00\x81",
                                  "préstamo\n\x07\x1b[31m\n".encode()])
def test_pay_by_file_refuses_binary_garbage(data: bytes):
    with pytest.raises(ValueError, match="not_text"):
        read_loan_numbers(data)


@pytest.mark.parametrize("header", ["Número de préstamo", "loan_number", "Prestamo;Catastro",
                                    "NUMERO", "Loan #"])
def test_pay_by_file_skips_a_header_row(header: str):
    data = f"{header}\nBHC-0001\nBHC-0002;040-000-000-00\n".encode()
    assert read_loan_numbers(data) == ["BHC-0001", "BHC-0002"]


def test_pay_by_file_over_the_web_says_it_is_no_csv(demo_app: Flask):
    lender = login(demo_app, "lender")
    page = lender.get("/prestamista/prestamos").get_data(as_text=True)
    r = lender.post("/prestamista/pagar/archivo", data={
        "csrf_token": csrf_token(page), "file": (io.BytesIO(b"\x00\xff\x13garbage"), "x.csv")},
        content_type="multipart/form-data", follow_redirects=True)
    text = main_text(r.get_data(as_text=True))
    assert "no es un archivo CSV" in text and "garbage" not in text
