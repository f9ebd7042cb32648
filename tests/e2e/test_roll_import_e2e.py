"""J8's roll import in a real browser, in Spanish and in English:
staff download the template, read the guide, upload a 1,000-parcel CSV with one bad row, see
the per-row report, fix the file, upload it again, see the dry run and import it; the roll
then has the 1,000 parcels. Every page clean under axe and HTML_CodeSniffer, at 1,280 and
375 px (no sideways scroll). Screenshots go to $ROLL_IMPORT_SHOTS when it is set (for
review; not compared)."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest
from sqlalchemy import func, select

from portal.roll import roll_csv as ri
from tests.support.browser import REASON, axe_violations, htmlcs_errors, second_step

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WORDS = {
    "es": {"task": "Padrón de propiedades: importarlo de un archivo CSV",
           "guide": "La guía de columnas", "file": "El archivo CSV del padrón",
           "upload": "Subir y revisar", "errors": "1 fila tiene errores",
           "reason": "No es un número", "nothing": "No se importó nada",
           "new": "Propiedades nuevas: 1,000", "import": "Importar el padrón",
           "imported": "Importado. Importar el mismo archivo otra vez no cambia nada.",
           "new_list": "Propiedades nuevas: 1,000"},
    "en": {"task": "Parcel roll: import it from a CSV file",
           "guide": "The column guide", "file": "The roll's CSV file",
           "upload": "Upload and check", "errors": "1 row has errors",
           "reason": "Not a number", "nothing": "Nothing was imported",
           "new": "New parcels: 1,000", "import": "Import the roll",
           "imported": "Imported. Importing the same file again changes nothing.",
           "new_list": "New parcels: 1,000"},
}
SHOTS = os.environ.get("ROLL_IMPORT_SHOTS")


def _shot(page, name: str) -> None:  # noqa: ANN001
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def _clean(page, name: str) -> None:  # noqa: ANN001
    assert axe_violations(page) == [], page.url
    assert htmlcs_errors(page) == [], page.url  # a second engine (WCAG2AA)
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= width, f"{page.url} scrolls sideways at {width} px ({wide})"
        _shot(page, f"{name}-{width}")
    page.set_viewport_size({"width": 1280, "height": 900})


def _write(path: Path, bad_row: int | None, lang: str) -> None:
    """1,000 parcels (Windows-1252, semicolons, as Excel saves), one bad unit count."""
    with open(path, "w", encoding="cp1252", newline="") as fh:
        out = csv.writer(fh, delimiter=";", lineterminator="\r\n")
        out.writerow([c.es if lang == "es" else c.en for c in ri.COLUMNS])
        for k in range(1000):
            units = "doce" if k == bad_row else str(5 + k % 7)
            out.writerow([f"070-{lang == 'en':03d}-{k // 100:03d}-{k % 100:02d}",
                          f"Calle Piñones {k}", "Loíza", "urbana" if lang == "es" else "urban",
                          "0.5", "40000", "0", "privado" if lang == "es" else "private",
                          "no", "no", units, f"Dueña {k}", f"duena{k}@example.pr", "", "",
                          "", "", "", "", ""])


@pytest.mark.parametrize("lang", ["es", "en"])
def test_j8_staff_import_a_roll_with_one_bad_row_fix_it_and_import(live, page, lang, tmp_path):
    from portal.db import UnitOfWork
    from portal.jobs import queue
    from portal.models import Parcel
    from portal.web.data import database
    app, url = live
    with app.app_context():
        queue.use_immediate(database())

    def parcels() -> int:
        with app.app_context(), UnitOfWork(database()) as w:
            return w.session.scalar(select(func.count()).select_from(Parcel).where(
                Parcel.catastro.like("070-%")))

    try:
        w = WORDS[lang]
        page.goto(f"{url}/cuenta/entrar?lang={lang}")
        page.locator("#email").fill("staff@demo.pr")
        page.locator("#password").fill("Distrito2026!")
        page.locator("main button[type=submit], main input[type=submit]").first.click()
        second_step(page)
        page.wait_for_url("**/mis-propiedades")
        page.goto(f"{url}/personal/buscar?lang={lang}")
        if page.locator("html").get_attribute("lang") != lang:
            page.locator(f"header button[lang='{lang}']").click()
        expect(page.locator("html")).to_have_attribute("lang", lang)
        page.get_by_role("link", name=w["task"]).click()
        _clean(page, f"{lang}-upload")
        page.get_by_role("link", name=w["guide"]).click()
        _clean(page, f"{lang}-guide")
        page.go_back()

        bad = tmp_path / f"padron-{lang}.csv"
        _write(bad, bad_row=499, lang=lang)
        page.get_by_label(w["file"]).set_input_files(str(bad))
        page.get_by_role("button", name=w["upload"]).click()
        main = page.locator("main")
        expect(main).to_contain_text(w["errors"])
        expect(main).to_contain_text(w["reason"])
        expect(main).to_contain_text(w["nothing"])
        expect(main.locator("table tbody tr")).to_have_count(1)
        expect(main.locator("table tbody tr th")).to_have_text("501")  # row 501: header + 500
        expect(main.get_by_role("button", name=w["import"])).to_have_count(0)
        _clean(page, f"{lang}-report")
        assert parcels() == 0

        good = tmp_path / f"padron-{lang}-fixed.csv"
        _write(good, bad_row=None, lang=lang)
        page.goto(f"{url}/personal/padron")
        page.get_by_label(w["file"]).set_input_files(str(good))
        page.get_by_role("button", name=w["upload"]).click()
        expect(main).to_contain_text(w["new"])
        _clean(page, f"{lang}-dry-run")
        page.get_by_role("link", name=w["new_list"]).click()
        expect(main.locator("table tbody tr")).to_have_count(50)
        expect(main.locator("p").first).to_contain_text("1,000")  # (the count, formatted)
        _clean(page, f"{lang}-new-parcels")
        page.go_back()
        assert parcels() == 0
        page.get_by_role("button", name=w["import"]).click()
        expect(main).to_contain_text(w["imported"])
        _clean(page, f"{lang}-imported")
        assert parcels() == 1000
    finally:
        queue.reset()
