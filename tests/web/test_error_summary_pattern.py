"""Errors that used to be shown apart, now in the GOV.UK error-summary pattern (#29): the
summary at the top linked to the field, "Error:" first in the title, the field marked
invalid. The J5 upload with no file (a redirect: the route flashes it for the field) and
`/verificar` with an unknown code. The focus move is the browser's part
(tests/e2e/test_error_summary_focus.py)."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from portal import storage
from tests.support.exemption_wizard import file_home, ids, post
from tests.support.pages import csrf_token, login


@pytest.fixture(autouse=True)
def _store(tmp_path):  # noqa: ANN001, ANN202
    storage.use(storage.FolderStore(tmp_path / "files"))
    yield
    storage.use(None)


def _title(html: str) -> str:
    return re.search(r"<title>\s*(.*?)\s*</title>", html, re.S).group(1)


def test_an_upload_with_no_file_is_a_field_error(demo_app: Flask):
    owner = login(demo_app, "owner")
    cid = file_home(owner, ids(demo_app))
    step = f"/exoneracion/{cid}/paso/evidencia"
    r = post(owner, f"/exoneracion/{cid}/evidencia", {}, page_url=step)
    assert r.status_code == 303
    html = owner.get(r.headers["Location"]).get_data(as_text=True)
    assert _title(html).startswith("Error:")
    summary = re.search(r'<div[^>]*id="error-summary".*?</div>\s*</div>', html, re.S).group(0)
    assert 'href="#file"' in summary and "Escoja un documento para subir." in summary
    assert re.search(r'<input[^>]*id="file"[^>]*aria-invalid="true"', html)
    assert 'usa-alert--slim' not in html  # not also a banner
    again = owner.get(step).get_data(as_text=True)  # shown once
    assert 'id="error-summary"' not in again and not _title(again).startswith("Error:")


@pytest.mark.parametrize("lang,words", [
    ("es", ("Error:", "Ninguna certificación tiene ese código")),
    ("en", ("Error:", "No certificate has that code"))])
def test_an_unknown_certificate_code_is_a_field_error(demo_app: Flask, lang, words):
    client = demo_app.test_client()
    r = client.get(f"/verificar?lang={lang}&codigo=0000-0000-0000-0000-0000-0000-0000")
    assert r.status_code == 404
    html = r.get_data(as_text=True)
    assert _title(html).startswith(words[0])
    summary = re.search(r'<div[^>]*id="error-summary".*?</div>\s*</div>', html, re.S).group(0)
    assert 'href="#code"' in summary and words[1] in summary
    code = re.search(r'<input[^>]*id="code"[^>]*>', html).group(0)
    assert 'aria-invalid="true"' in code


def test_the_lender_upload_with_no_file_is_ours_not_the_browsers(demo_app: Flask):
    """No `required` bubble from the browser (the form is `novalidate`): the portal's own
    summary, in the title and on the field."""
    lender = login(demo_app, "lender")
    page = lender.get("/prestamista/certificaciones/lote").get_data(as_text=True)
    assert re.search(r'<form[^>]*lote"[^>]*novalidate', page)
    r = lender.post("/prestamista/certificaciones/lote", data={"csrf_token": csrf_token(page)})
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert _title(html).startswith("Error:")
    summary = re.search(r'<div[^>]*id="error-summary".*?</div>\s*</div>', html, re.S).group(0)
    assert 'href="#file"' in summary
    file = re.search(r'<input[^>]*id="file"[^>]*>', html).group(0)
    assert 'aria-invalid="true"' in file


@pytest.mark.parametrize("lang,words", [
    ("es", "El archivo no se abrió: contiene más de lo que un documento necesita"),
    ("en", "The file was not opened: it holds more than a document needs")])
@pytest.mark.parametrize("bomb", ["png", "pdf"])
def test_a_bomb_is_refused_in_the_readers_language(demo_app: Flask, lang, words, bomb):
    """A decompression-bomb PNG and a PDF bomb through the J5 upload: the
    owner's step again with the refusal in the summary, linked to the field, in the
    reader's language; nothing stored (tests/data/test_exemption_services.py holds the
    memory bound)."""
    import io

    from werkzeug.datastructures import FileStorage, MultiDict
    from werkzeug.test import encode_multipart

    from tests.support.bombs import pdf_bomb, png_bomb
    owner = login(demo_app, "owner")
    cid = file_home(owner, ids(demo_app))
    step = f"/exoneracion/{cid}/paso/evidencia?lang={lang}"
    data = png_bomb() if bomb == "png" else pdf_bomb()
    # the body encoded here, in memory (the test client's own encoding spools a body over
    # 500 kB to a temporary file it leaves open)
    boundary, body = encode_multipart(MultiDict({
        "csrf_token": csrf_token(owner.get(step).get_data(as_text=True)),
        "file": FileStorage(io.BytesIO(data), filename=f"escaneo.{bomb}")}))
    r = owner.post(f"/exoneracion/{cid}/evidencia?lang={lang}", data=body,
                   content_type=f"multipart/form-data; boundary={boundary}")
    assert r.status_code == 303
    html = owner.get(r.headers["Location"] + f"?lang={lang}").get_data(as_text=True)
    assert _title(html).startswith("Error:")
    summary = re.search(r'<div[^>]*id="error-summary".*?</div>\s*</div>', html, re.S).group(0)
    assert 'href="#file"' in summary and words in summary
    assert f"escaneo.{bomb}" not in html  # not listed among the documents
