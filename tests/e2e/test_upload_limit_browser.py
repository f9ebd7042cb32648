"""The upload limit said in a real browser, in Spanish and English: the evidence
form says "10 MB" before the upload, and a larger document gets the page that says the
limit (not "the form may have expired"); axe-core finds nothing on either page."""

from __future__ import annotations

import re

import pytest

from portal import storage
from tests.support.browser import REASON, axe_violations

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WORDS = {
    "es": {"limit": "Aquí se sube un documento (PDF, JPEG o PNG) de 10 MB como máximo.",
           "start_link": "Comenzar la certificación de exoneración residencial",
           "start": "Comenzar la certificación", "upload": "Subir",
           "heading": "El archivo es demasiado grande"},
    "en": {"limit": "This upload takes one document (PDF, JPEG or PNG) of at most 10 MB.",
           "start_link": "Start the residential exemption certification",
           "start": "Start the certification", "upload": "Upload",
           "heading": "The file is too large"},
}


@pytest.fixture(autouse=True)
def _store(tmp_path):  # noqa: ANN001, ANN202
    storage.use(storage.FolderStore(tmp_path / "files"))
    yield
    storage.use(None)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_limit_before_and_after_a_too_large_upload(live, page, lang, tmp_path):  # noqa: ANN001
    _app, url = live
    w = WORDS[lang]
    page.goto(f"{url}/cuenta/entrar?lang={lang}")
    page.locator("#email").fill("owner@demo.pr")
    page.locator("#password").fill("Distrito2026!")
    page.locator("main form [type=submit]").first.click()
    page.wait_for_load_state()
    page.goto(f"{url}/mis-propiedades")
    page.locator("main a[href^='/propiedad/']").first.click()
    page.get_by_role("link", name=w["start_link"]).click()
    page.get_by_role("button", name=w["start"]).click()
    page.wait_for_load_state()
    cid = re.search(r"/exoneracion/(\d+)/", page.url).group(1)
    page.goto(f"{url}/exoneracion/{cid}/paso/evidencia")
    expect(page.get_by_test_id("upload-limit")).to_contain_text(w["limit"])
    assert axe_violations(page) == []
    big = tmp_path / "escritura.pdf"
    big.write_bytes(b"%PDF-1.4\n" + b"0" * (11 * 1024 * 1024))
    page.locator("#file").set_input_files(str(big))
    with page.expect_navigation():
        page.get_by_role("button", name=w["upload"], exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(w["heading"])
    expect(page.locator("main")).to_contain_text(w["limit"])
    assert "expir" not in page.locator("main").inner_text().lower()
    assert axe_violations(page) == []
