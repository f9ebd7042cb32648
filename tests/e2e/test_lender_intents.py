"""J7 in a real browser, in Spanish and English: the demo lender reports an acquisition of a
new structure on its loan of the owner's home (the rolled 30-day notice deadline, R-B10 iii,
R-B21) and marks a CRIM bill and a District installment it will pay; the owner then sees
"Your bank said it will pay this" on the parcel page and on the pay pages, where the review
asks to confirm before paying. Every page is axe-clean, and valid HTML (vnu) when Java is
there; the loan's page has no sideways scroll on a 375 px phone. Screenshots go to
$J7_SHOTS when it is set (looked at by hand, not compared)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from tests.support.browser import REASON, axe_violations, second_step, shot

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WORDS = {
    "es": {"email": "Correo electrónico", "password": "Contraseña", "sign_in": "Entrar",
           "date": "Fecha de la adquisición (la escritura)",
           "report": "Informar la adquisición", "last": "27 de noviembre de 2026",
           "mark": "Pagaremos estas partidas", "notice": "Su banco dijo que pagará esto",
           "confirm_box": "Sé que mi banco dijo que pagará esto"},
    "en": {"email": "Email", "password": "Password", "sign_in": "Sign in",
           "date": "Date of the acquisition (the deed)",
           "report": "Report the acquisition", "last": "November 27, 2026",
           "mark": "We will pay these", "notice": "Your bank said it will pay this",
           "confirm_box": "I know my bank said it will pay this"},
}


def _clean(page, pages: list[Path], folder: Path, name: str) -> None:  # noqa: ANN001
    violations = axe_violations(page)
    assert violations == [], f"{page.url}: {violations}"
    path = folder / f"{name}.html"
    path.write_text(page.content(), encoding="utf-8")
    pages.append(path)


def _sign_in(page, url: str, lang: str, email: str) -> None:  # noqa: ANN001
    w = WORDS[lang]
    page.goto(url + "/cuenta/entrar")
    if page.locator("html").get_attribute("lang") != lang:
        page.locator(f"header button[lang='{lang}']").click()
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.get_by_label(w["email"]).fill(email)
    page.get_by_label(w["password"], exact=True).fill("Distrito2026!")
    page.locator("main").get_by_role("button", name=w["sign_in"]).click()
    if email == "lender@demo.pr":  # the bank's administrator signs in with two steps
        second_step(page)
        page.wait_for_url("**/mis-propiedades**")
    page.wait_for_load_state()


def _home_loan(app) -> tuple[int, int]:  # noqa: ANN001
    from portal.db import UnitOfWork
    from portal.models import Loan
    from portal.web.data import database
    from tests.support.demo import parcel_ids
    owner = set(parcel_ids(app)["owner"])
    with app.app_context(), UnitOfWork(database()) as w:
        loan = next(ln for ln in w.session.scalars(select(Loan).order_by(Loan.id))
                    if ln.parcel_id in owner)
        return loan.parcel_id, loan.id


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_lender_marks_and_the_owner_is_told(live, browser, tmp_path, lang):
    app, url = live
    w = WORDS[lang]
    pid, loan_id = _home_loan(app)
    pages: list[Path] = []
    lender_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = lender_ctx.new_page()
        _sign_in(page, url, lang, "lender@demo.pr")
        page.goto(f"{url}/prestamista/prestamos/{loan_id}")
        main = page.locator("main")
        _clean(page, pages, tmp_path, f"loan-{lang}")
        main.get_by_label(w["date"]).fill("2026-10-27")
        main.get_by_role("button", name=w["report"]).click()
        page.wait_for_url(f"**/prestamista/prestamos/{loan_id}**")
        expect(main).to_contain_text(w["last"])  # + 30 = Thanksgiving: Friday the 27th
        labels = main.locator("#intent-items label")
        labels.nth(1).click()  # the CRIM bill of January 1
        labels.nth(2).click()  # the next District installment
        main.get_by_role("button", name=w["mark"]).click()
        page.wait_for_url(f"**/prestamista/prestamos/{loan_id}**")
        assert main.locator("form[action*='/retirar']").count() == 2
        _clean(page, pages, tmp_path, f"loan-marked-{lang}")
        shot(page, f"loan-intents-{lang}-1280", "J7_SHOTS")
        page.set_viewport_size({"width": 375, "height": 800})
        shot(page, f"loan-intents-{lang}-375", "J7_SHOTS")
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
    finally:
        lender_ctx.close()

    owner_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = owner_ctx.new_page()
        _sign_in(page, url, lang, "owner@demo.pr")
        page.goto(f"{url}/propiedad/{pid}")
        notice = page.locator("#lender-marks")
        expect(notice).to_contain_text(w["notice"])
        expect(notice).to_contain_text("Banco Hipotecario del Caribe")
        _clean(page, pages, tmp_path, f"parcel-{lang}")
        shot(page, f"parcel-marks-{lang}-1280", "J7_SHOTS")
        page.goto(f"{url}/pagar?parcela={pid}")
        expect(page.locator("#lender-marks")).to_contain_text(w["notice"])
        _clean(page, pages, tmp_path, f"pay-{lang}")
        page.locator("main label[for^='inst-']").first.click()
        page.locator("main form[action='/pagar/revisar'] button[type=submit]").first.click()
        page.wait_for_url("**/pagar/revisar")
        expect(page.locator("#lender-marks")).to_contain_text(w["notice"])
        expect(page.locator("label[for='lender-ok']")).to_contain_text(w["confirm_box"])
        assert axe_violations(page) == []  # the payments' review (as the lenders' journey)
        shot(page, f"review-marks-{lang}-1280", "J7_SHOTS")
    finally:
        owner_ctx.close()

    from tests.support.html import vnu_errors, vnu_missing
    if vnu_missing() is None:
        errors = vnu_errors(pages)
        assert errors == [], "\n".join(errors[:20])
