"""J8's budget steps in a real browser, in Spanish and in English (PRODUCT.md J8, R-A1, R-A3):
the staff drafts the next fiscal year's budget (adding a line without JavaScript's help),
adopts it, amends it and sees the two versions side by side; every page clean under axe and
HTML_CodeSniffer.
`BUDGET_SHOTS=<folder>` also writes a screenshot of each page at 375 and 1,280 px."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.browser import REASON, axe_violations, htmlcs_errors, second_step

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WORDS = {
    "es": {"email": "Correo electrónico", "password": "Contraseña", "sign_in": "Entrar",
           "budgets": "Presupuestos: redactar, adoptar y enmendar",
           "draft": "Redactar el presupuesto de un año fiscal", "add": "Añadir una partida",
           "save": "Guardar el borrador", "saved": "Se guardó el borrador",
           "adopt": "Adoptar esta versión", "adopted": "La versión 1 está adoptada",
           "amend": "Enmendar: comenzar una versión nueva",
           "compare": "Comparar con otra versión",
           "title": "Presupuesto 2027-2028: versión 1 y versión 2", "added": "añadida"},
    "en": {"email": "Email", "password": "Password", "sign_in": "Sign in",
           "budgets": "Budgets: draft, adopt and amend",
           "draft": "Draft a fiscal year's budget", "add": "Add a line",
           "save": "Save the draft", "saved": "The draft is saved",
           "adopt": "Adopt this version", "adopted": "Version 1 is adopted",
           "amend": "Amend: start a new version", "compare": "Compare with another version",
           "title": "Budget 2027-2028: version 1 and version 2", "added": "added"},
}


def _check(page, name: str, lang: str) -> None:  # noqa: ANN001
    violations = axe_violations(page)
    assert violations == [], f"{page.url}: {violations}"
    errors = htmlcs_errors(page)  # HTML_CodeSniffer (WCAG2AA), the second engine
    assert errors == [], f"{page.url}: {errors}"
    shots = os.environ.get("BUDGET_SHOTS")
    if shots:
        for width in (375, 1280):
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=str(Path(shots) / f"{lang}-{width}-{name}.png"),
                            full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})


def _line(page, k: int, es: str, en: str, cost: str, financed: str) -> None:  # noqa: ANN001
    page.locator(f"#lines-{k}-description_es").fill(es)
    page.locator(f"#lines-{k}-description_en").fill(en)
    page.locator(f"#lines-{k}-amount").fill(cost)
    page.locator(f"#lines-{k}-financed").fill(financed)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_j8_draft_adopt_amend_and_compare_a_budget(live, page, lang):
    _app, url = live
    w = WORDS[lang]
    page.goto(f"{url}/cuenta/entrar?lang={lang}")
    page.get_by_label(w["email"]).fill("staff@demo.pr")
    page.get_by_label(w["password"], exact=True).fill("Distrito2026!")
    page.locator("main").get_by_role("button", name=w["sign_in"]).click()
    second_step(page)
    page.goto(f"{url}/personal/buscar")
    page.get_by_role("link", name=w["budgets"]).click()
    _check(page, "budgets", lang)

    # 1. The draft: one row per item of R-A1; one more row asked for, and filled
    page.get_by_role("link", name=w["draft"]).click()
    _line(page, 0, "Muelle de la bahía", "Bay pier", "$1,250,000.00", "1,000,000")
    _line(page, 3, "Seguridad y limpieza", "Security and cleaning", "300,000.50", "300000.50")
    rows = page.locator("input[id$='-amount'][id^='lines-']").count()
    page.get_by_role("button", name=w["add"]).click()
    expect(page.locator("input[id$='-amount'][id^='lines-']")).to_have_count(rows + 1)
    expect(page.locator("#lines-0-description_es")).to_have_value("Muelle de la bahía")
    page.locator(f"#lines-{rows}-kind").select_option("center")
    _line(page, rows, "Centro: techos", "Center: roofs", "80,000", "40,000")
    page.locator("#reference").fill("Res. 2027-3")
    _check(page, "draft", lang)
    page.get_by_role("button", name=w["save"]).click()
    expect(page.locator("main")).to_contain_text(w["saved"])
    expect(page.locator("main")).to_contain_text("$1,340,000.50")  # R-A1 (3): the total
    _check(page, "version", lang)

    # 2. Adopted (before the year starts, on 2027-07-01: no warning; not after today, the
    # demo's 30 November 2026)
    page.get_by_role("link", name=w["adopt"]).click()
    page.locator("#adopted_on").fill("2026-11-20")
    page.locator("label[for=confirm]").click()
    _check(page, "adopt", lang)
    page.locator("main form [type=submit]").click()
    expect(page.locator("main")).to_contain_text(w["adopted"])

    # 3. Amended: a new draft copied from it; the pier costs more; adopted today
    page.get_by_role("button", name=w["amend"]).click()
    expect(page.locator("#lines-0-amount")).to_have_value("1,250,000.00")
    page.locator("#lines-0-amount").fill("1,400,000.00")
    page.locator("#lines-0-financed").fill("1,100,000.00")
    page.locator("#lines-3-kind").select_option("marketing")  # the first blank row
    _line(page, 3, "Rótulos", "Signs", "5,000", "5,000")
    page.get_by_role("button", name=w["save"]).click()
    page.get_by_role("link", name=w["adopt"]).click()
    page.locator("#adopted_on").fill("2026-11-30")
    page.locator("label[for=confirm]").click()
    page.locator("main form [type=submit]").click()

    # 4. Side by side: per line old, new and change; the totals
    page.get_by_role("link", name=w["compare"]).click()
    main = page.locator("main")
    expect(main.locator("h1")).to_have_text(w["title"])
    pier = main.locator("tbody tr").filter(has_text="Bay pier" if lang == "en"
                                           else "Muelle de la bahía")
    expect(pier).to_contain_text("$1,250,000.00")
    expect(pier).to_contain_text("$1,400,000.00")
    expect(pier).to_contain_text("+$150,000.00")
    expect(pier).to_contain_text("+$100,000.00")
    expect(main.locator("tbody tr").filter(has_text="Signs" if lang == "en" else "Rótulos")
           ).to_contain_text(w["added"])
    expect(main).to_contain_text("$1,445,000.50")  # the new total to assess
    expect(main).to_contain_text("+$105,000.00")
    _check(page, "compare", lang)
