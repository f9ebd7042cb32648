"""J8's assessment notices in a real browser, in Spanish and in English: the administrator
opens a published roll's notices from the roll page, sends them (the job runs in-process) and
sees the print file listed; the owner finds the notice's download on the parcel page. Every
page clean under axe, HTML_CodeSniffer and the Nu HTML Checker."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.browser import REASON, axe_violations, htmlcs_errors, second_step
from tests.support.html import vnu_errors, vnu_missing

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WORDS = {
    "es": {"email": "Correo electrónico", "password": "Contraseña", "sign_in": "Entrar",
           "notices": "Avisos", "send": "Enviar los avisos", "file": "Archivo para imprimir 1",
           "download": "Descargar el aviso de derrama (PDF)"},
    "en": {"email": "Email", "password": "Password", "sign_in": "Sign in",
           "notices": "Notices", "send": "Send the notices", "file": "Print file 1",
           "download": "Download the assessment notice (PDF)"},
}


def _sign_in(page, url: str, lang: str, email: str) -> None:  # noqa: ANN001
    w = WORDS[lang]
    page.context.clear_cookies()
    page.goto(f"{url}/cuenta/entrar?lang={lang}")
    page.get_by_label(w["email"]).fill(email)
    page.get_by_label(w["password"], exact=True).fill("Distrito2026!")
    page.locator("main").get_by_role("button", name=w["sign_in"]).click()


def _check(page, name: str, folder: Path, pages: list[Path]) -> None:  # noqa: ANN001
    assert axe_violations(page) == [], page.url
    assert htmlcs_errors(page) == [], page.url
    html = folder / f"{name}.html"
    html.write_text(page.content(), encoding="utf-8")
    pages.append(html)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_j8_send_the_notices_and_download_one(live, page, lang, tmp_path, monkeypatch):
    from portal import storage
    from portal.jobs import queue
    from portal.web.data import database
    app, url = live
    w = WORDS[lang]
    storage.use(storage.FolderStore(tmp_path / "files"))
    with app.app_context():
        queue.use_immediate(database())
    pages: list[Path] = []
    try:
        _sign_in(page, url, lang, "staff@demo.pr")
        second_step(page)
        page.goto(f"{url}/personal/tasacion?lang={lang}")
        page.locator("main").get_by_role("link", name=w["notices"], exact=True).first.click()
        page.wait_for_url("**/avisos*")
        _check(page, f"{lang}-notices", tmp_path, pages)
        page.get_by_role("button", name=w["send"]).click(timeout=120000)  # the job, in-process
        page.wait_for_url("**/personal/trabajos/**", timeout=120000)
        page.go_back()
        page.reload()
        expect(page.locator("main")).to_contain_text(w["file"])
        _check(page, f"{lang}-notices-sent", tmp_path, pages)
        _sign_in(page, url, lang, "owner@demo.pr")
        page.wait_for_url("**/mis-propiedades")
        page.locator("main a[href^='/propiedad/']").first.click()
        expect(page.locator("main").get_by_role("link", name=w["download"])).to_be_visible()
    finally:
        queue.reset()
        storage.use(None)
    if vnu_missing() is None:
        errors = vnu_errors(pages)
        assert errors == [], "\n".join(errors)
