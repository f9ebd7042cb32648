"""J7's bulk certifications in a real browser, in Spanish and in English: the demo bank's user
opens the upload page from the portfolio, reads the column guide, downloads the template,
uploads 500 certifications of which 12 are wrong, reads the per-row report (the 12 rejected
with their column and reason), downloads the rejected rows, fixes them and uploads only
those 12, then uploads the original file again: nothing new is filed and the page says so.
Every page clean under axe and HTML_CodeSniffer at 1,280 and 375 px, and valid under vnu.
Screenshots go to $LENDER_BATCH_SHOTS when set (for review; not compared)."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import pytest
from sqlalchemy import func, select

from tests.support.browser import REASON, axe_violations, htmlcs_errors, second_step
from tests.support.html import vnu_errors, vnu_missing
from tests.support.lenders import add_homes, batch_csv

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WORDS = {
    "es": {"email": "Correo electrónico", "password": "Contraseña", "sign_in": "Entrar",
           "link": "Certificaciones de exoneración residencial en lote",
           "guide": "Qué contiene cada columna (guía de columnas, en español y en inglés)",
           "template": "Descargar la plantilla (CSV)",
           "file": "El archivo CSV de certificaciones", "upload": "Subir las certificaciones",
           "rejected": "12 filas fueron rechazadas", "show": "Mostrar",
           "filter": "Rechazada", "failed": "Descargar las filas rechazadas (CSV)",
           "again": "488 filas ya estaban presentadas", "attest": "El oficial tiene que"},
    "en": {"email": "Email", "password": "Password", "sign_in": "Sign in",
           "link": "Residential-exemption certifications in bulk",
           "guide": "What each column holds (column guide, in Spanish and English)",
           "template": "Download the template (CSV)",
           "file": "The CSV file of certifications", "upload": "Upload the certifications",
           "rejected": "12 rows were rejected", "show": "Show", "filter": "Rejected",
           "failed": "Download the rejected rows (CSV)",
           "again": "488 rows were already filed", "attest": "The officer must attest"},
}
BAD = {k * 41 + 3 for k in range(12)}  # 12 rows spread over the file


def _check(page, name: str, lang: str, folder: Path, pages: list[Path]) -> None:  # noqa: ANN001
    assert axe_violations(page) == [], page.url
    assert htmlcs_errors(page) == [], page.url
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= width, f"{page.url} scrolls sideways at {width} px ({wide})"
        if os.environ.get("LENDER_BATCH_SHOTS"):
            page.screenshot(path=str(folder / f"{lang}-{width}-{name}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    html = folder / f"{lang}-{name}.html"
    html.write_text(page.content(), encoding="utf-8")
    pages.append(html)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_j7_upload_500_fix_the_12_rejected_and_upload_again(live, page, lang, tmp_path):
    from portal.db import UnitOfWork
    from portal.jobs import queue
    from portal.models import ExemptionCertification
    from portal.web.data import database
    app, url = live
    w = WORDS[lang]
    folder = Path(os.environ.get("LENDER_BATCH_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    pages: list[Path] = []
    with app.app_context():
        queue.use_immediate(database())

    def certifications() -> int:
        with app.app_context(), UnitOfWork(database()) as uow:
            return uow.session.scalar(select(func.count()).select_from(ExemptionCertification))

    rows = add_homes(app, 500, prefix="091" if lang == "es" else "092")
    sent = [dict(r, officer_attests="no") if k in BAD else r for k, r in enumerate(rows)]
    original = tmp_path / "certificaciones.csv"
    original.write_bytes(batch_csv(sent, lang=lang, encoding="cp1252", delimiter=";"))
    try:
        page.set_default_timeout(240_000)  # the upload's request runs the job (immediate)
        page.goto(f"{url}/cuenta/entrar?lang={lang}")
        page.get_by_label(w["email"]).fill("lender@demo.pr")
        page.get_by_label(w["password"], exact=True).fill("Distrito2026!")
        page.locator("main").get_by_role("button", name=w["sign_in"]).click()
        second_step(page)  # the bank's administrator signs in with two steps
        page.wait_for_url("**/mis-propiedades")
        page.goto(f"{url}/prestamista/prestamos?lang={lang}")
        page.get_by_role("link", name=w["link"]).click()
        expect(page.locator("html")).to_have_attribute("lang", lang)
        _check(page, "upload", lang, folder, pages)
        page.get_by_role("link", name=w["guide"]).click()
        _check(page, "guide", lang, folder, pages)
        page.go_back()
        with page.expect_download() as dl:
            page.locator("main").get_by_role("link", name=w["template"]).click()
        assert dl.value.suggested_filename.endswith(".csv")

        before = certifications()
        page.get_by_label(w["file"]).set_input_files(str(original))
        page.get_by_role("button", name=w["upload"]).click()
        main = page.locator("main")
        expect(main).to_contain_text(w["rejected"])
        assert certifications() == before + 488
        _check(page, "report", lang, folder, pages)
        page.get_by_label(w["show"], exact=True).select_option(label=w["filter"])
        main.get_by_role("button", name=w["show"]).click()
        expect(main.locator("table tbody tr")).to_have_count(12)
        expect(main.locator("table tbody")).to_contain_text(w["attest"])
        _check(page, "rejected", lang, folder, pages)

        with page.expect_download() as dl:
            main.get_by_role("link", name=w["failed"]).click()
        failed = Path(dl.value.path()).read_text(encoding="utf-8-sig")
        table = list(csv.reader(io.StringIO(failed)))
        assert len(table) == 13
        yes = "sí" if lang == "es" else "yes"
        attests = table[0].index("oficial_certifica" if lang == "es" else "officer_attests")
        for cells in table[1:]:
            cells[attests] = yes
        fixed = tmp_path / "corregidas.csv"
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\r\n").writerows(table)
        fixed.write_text(buf.getvalue(), encoding="utf-8-sig")
        page.goto(f"{url}/prestamista/certificaciones/lote")
        page.get_by_label(w["file"]).set_input_files(str(fixed))
        page.get_by_role("button", name=w["upload"]).click()
        expect(main.locator("dl")).to_contain_text("12")
        assert certifications() == before + 500
        _check(page, "fixed", lang, folder, pages)

        page.goto(f"{url}/prestamista/certificaciones/lote")
        page.get_by_label(w["file"]).set_input_files(str(original))
        page.get_by_role("button", name=w["upload"]).click()
        expect(main).to_contain_text(w["again"])
        assert certifications() == before + 500
        _check(page, "again", lang, folder, pages)
    finally:
        queue.reset()
    if vnu_missing() is None:
        errors = vnu_errors(pages)
        assert errors == [], "\n".join(errors)
