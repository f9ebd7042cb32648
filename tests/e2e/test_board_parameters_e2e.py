"""J8's Board parameters in a real browser, in Spanish and in English (R-A6 to R-A11): the
administrator opens the year's parameters from the staff's tasks, records a new interest
rate (a bad value first: explained, nothing saved), declares a day closed, and the parcel
page says why its last timely day moved. Every page clean under axe, HTML_CodeSniffer and
the Nu HTML Checker; a screenshot of each page at 375 and 1,280 px (`BOARD_SHOTS=<folder>`,
else the test's own folder)."""

from __future__ import annotations

import os
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
           "task": "Parámetros de la Junta por año fiscal y días declarados cerrados",
           "title": "Parámetros de la Junta para 2026-2027",
           "record": "Tasa de intereses (anual) para 2026-2027",
           "value": "Valor nuevo", "number": "Número de la resolución",
           "date": "Fecha de la resolución", "submit": "Registrar el valor nuevo",
           "bad": "Escriba una tasa como 0.07 o 7%.", "saved": "El valor nuevo quedó registrado",
           "declare": "Declarar días cerrados", "first": "Primer día cerrado",
           "reason_es": "Razón, en español", "reason_en": "Razón, en inglés",
           "closed": "Declarar cerrado",
           "why": "porque la Junta declaró cerrado el 10 de diciembre de 2026 "
                  "(Huracán Ernesto, Resolución 2026-15)"},
    "en": {"email": "Email", "password": "Password", "sign_in": "Sign in",
           "task": "Board parameters by fiscal year and days declared closed",
           "title": "Board parameters for 2026-2027",
           "record": "Interest rate (yearly) for 2026-2027",
           "value": "New value", "number": "Resolution number", "date": "Resolution date",
           "submit": "Record the new value", "bad": "Write a rate such as 0.07 or 7%.",
           "saved": "The new value is recorded", "declare": "Declare days closed",
           "first": "First day closed", "reason_es": "Reason, in Spanish",
           "reason_en": "Reason, in English", "closed": "Declare closed",
           "why": "because the Board declared December 10, 2026 closed "
                  "(Hurricane Ernesto, Resolución 2026-15)"},
}


def _check(page, name: str, lang: str, folder: Path, pages: list[Path]) -> None:  # noqa: ANN001
    violations = axe_violations(page)
    assert violations == [], f"{page.url}: {violations}"
    errors = htmlcs_errors(page)
    assert errors == [], f"{page.url}: {errors}"
    for width in (375, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(folder / f"{lang}-{width}-{name}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    html = folder / f"{lang}-{name}.html"
    html.write_text(page.content(), encoding="utf-8")
    pages.append(html)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_j8_record_a_rate_and_declare_a_day_closed(live, page, lang, tmp_path):
    app, url = live
    w = WORDS[lang]
    folder = Path(os.environ.get("BOARD_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    pages: list[Path] = []
    page.goto(f"{url}/cuenta/entrar?lang={lang}")
    page.get_by_label(w["email"]).fill("staff@demo.pr")
    page.get_by_label(w["password"], exact=True).fill("Distrito2026!")
    page.locator("main").get_by_role("button", name=w["sign_in"]).click()
    second_step(page)
    page.goto(f"{url}/personal/buscar")
    page.get_by_role("link", name=w["task"]).click()
    expect(page.locator("h1")).to_have_text(w["title"])
    _check(page, "parameters", lang, folder, pages)

    # A new interest rate: a bad value first (explained, nothing saved), then a good one
    page.locator("main a[href$='/2026-2027/interest_rate']").click()
    expect(page.locator("h1")).to_contain_text(w["record"])
    page.get_by_label(w["value"]).fill("abc")
    page.get_by_label(w["number"]).fill("2026-14")
    page.get_by_label(w["date"]).fill("2026-11-20")
    page.get_by_role("button", name=w["submit"]).click()
    expect(page.locator("#error-summary")).to_contain_text(w["bad"])
    _check(page, "value-error", lang, folder, pages)
    page.get_by_label(w["value"]).fill("8%")
    page.get_by_role("button", name=w["submit"]).click()
    expect(page.locator("main")).to_contain_text(w["saved"])
    expect(page.locator("main")).to_contain_text("Resolución 2026-14")

    # A day declared closed, with the Board's reason in both languages
    page.get_by_role("link", name=w["declare"]).click()
    _check(page, "closed-day", lang, folder, pages)
    page.get_by_label(w["first"]).fill("2026-12-10")
    page.get_by_label(w["reason_es"]).fill("Huracán Ernesto")
    page.get_by_label(w["reason_en"]).fill("Hurricane Ernesto")
    page.get_by_label(w["number"]).fill("2026-15")
    page.get_by_label(w["date"]).fill("2026-11-29")
    page.get_by_role("button", name=w["closed"]).click()
    expect(page.locator("main")).to_contain_text("Hurricane Ernesto" if lang == "en"
                                                 else "Huracán Ernesto")
    _check(page, "parameters-after", lang, folder, pages)

    # The parcel page says why the last timely day moved
    from portal.accounts import access
    from portal.db import UnitOfWork
    from portal.people import users
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as uow:
        owner = users.find_by_email(uow, "owner@demo.pr")
        pid = [p.id for p, _rel in access.linked_parcels(uow, owner)][0]
    page.goto(f"{url}/propiedad/{pid}?lang={lang}")
    expect(page.locator("main")).to_contain_text(w["why"])
    if vnu_missing() is None:
        errors = vnu_errors(pages)
        assert errors == [], "\n".join(errors)
