"""J8's review step in a real browser, in Spanish and in English: the demo's budget amended
and its roll computed, the staff open the review from the roll's page (the total to the cent,
the exempt parcels and why, the ten largest shares, the histogram) and the amendment's
differences per parcel. Every page clean under axe, HTML_CodeSniffer and the Nu HTML Checker.
`ROLL_REVIEW_SHOTS=<folder>` also writes a screenshot of each page at 375 and 1,280 px."""

from __future__ import annotations

import os
from datetime import date
from decimal import Decimal
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
           "review": "Revisar", "balanced": "al centavo", "top": "Las diez derramas más altas",
           "differences": "Ver las diferencias por propiedad",
           "changed": "Propiedades cuya cantidad cambia"},
    "en": {"email": "Email", "password": "Password", "sign_in": "Sign in",
           "review": "Review", "balanced": "to the cent", "top": "The ten largest shares",
           "differences": "See the differences per parcel",
           "changed": "Parcels whose amount changes"},
}


def _amend_and_compute(app) -> int:  # noqa: ANN001
    """Version 2 of the demo's budget ($1,000.00 more on its first line), adopted on the
    demo's day and computed: its roll's id."""
    from portal.db import UnitOfWork
    from portal.people import users
    from portal.roll import budgets, roll
    from portal.roll.budgets import LineInput
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        staff = users.find_by_email(w, "staff@demo.pr")
        fy = budgets.ensure_fiscal_year(w, date(2026, 7, 1))
        v1 = budgets.versions(w, fy)[0]
        lines = [LineInput(ln.kind, ln.description_es, ln.description_en, ln.amount,
                           ln.financed_by_assessments) for ln in budgets.lines(w, v1.id)]
        first = lines[0]
        lines[0] = LineInput(first.kind, first.description_es, first.description_en,
                             first.amount + Decimal("1000.00"),
                             first.financed_by_assessments + Decimal("1000.00"))
        v2 = budgets.draft(w, staff, fy, lines, reference="Res. 2026-30",
                           effective_on=date(2026, 11, 30))
        budgets.adopt(w, staff, v2.id, date(2026, 11, 30))
        return roll.compute(w, staff, v2.id).id


def _check(page, name: str, lang: str, pages: list[Path], folder: Path) -> None:  # noqa: ANN001
    violations = axe_violations(page)
    assert violations == [], f"{page.url}: {violations}"
    errors = htmlcs_errors(page)
    assert errors == [], f"{page.url}: {errors}"
    f = folder / f"{lang}-{name}.html"
    f.write_text(page.content(), encoding="utf-8")
    pages.append(f)
    shots = os.environ.get("ROLL_REVIEW_SHOTS")
    if shots:
        for width in (375, 1280):
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=str(Path(shots) / f"{lang}-{width}-{name}.png"),
                            full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})


@pytest.mark.parametrize("lang", ["es", "en"])
def test_j8_review_a_computed_amendment(live, page, lang, tmp_path):
    app, url = live
    w = WORDS[lang]
    roll_id = _amend_and_compute(app)
    page.goto(f"{url}/cuenta/entrar?lang={lang}")
    page.get_by_label(w["email"]).fill("staff@demo.pr")
    page.get_by_label(w["password"], exact=True).fill("Distrito2026!")
    page.locator("main").get_by_role("button", name=w["sign_in"]).click()
    second_step(page)
    page.goto(f"{url}/personal/tasacion")
    page.locator(f"a[href$='/personal/tasacion/{roll_id}/revision']").click()
    main = page.locator("main")
    expect(main).to_contain_text(w["balanced"])
    expect(main).to_contain_text(w["top"])
    expect(page.locator("svg[role=img] rect").first).to_be_visible()
    expect(main.locator(".usa-alert--error")).to_have_count(0)
    pages: list[Path] = []
    _check(page, "review", lang, pages, tmp_path)
    page.get_by_role("link", name=w["differences"]).click()
    expect(main).to_contain_text(w["changed"])
    _check(page, "differences", lang, pages, tmp_path)
    if vnu_missing() is None:
        errors = vnu_errors(pages)
        assert errors == [], "\n".join(errors[:20])
