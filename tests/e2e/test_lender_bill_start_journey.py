"""A large bill payment in a real browser, in Spanish and in English: from the loans page,
"pay what is due now on these loans" (every loan: no ceiling) prepares one payment by the
bill file's path; confirming it queues a job (the page shows "waiting to start" with a
progress bar, a polite live region and a pause button, and never reloads by itself); the
worker runs it and the page updates in place to the link that continues to the payment
(the test checkout). Every page clean under axe and HTML_CodeSniffer at 1,280 and 375 px;
screenshots to $BILL_START_SHOTS when set."""

from __future__ import annotations

import pytest

from tests.support.browser import REASON, clean_at_widths, second_step, shot

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WORDS = {
    "es": {"email": "Correo electrónico", "password": "Contraseña", "sign_in": "Entrar",
           "pay": "Pagar lo adeudado ahora en estos préstamos", "waiting": "En espera",
           "pause": "Pausar las actualizaciones", "ready": "Listo para pagar",
           "continue": "Continuar al pago"},
    "en": {"email": "Email", "password": "Password", "sign_in": "Sign in",
           "pay": "Pay what is due now on these loans", "waiting": "Waiting to start",
           "pause": "Pause the updates", "ready": "Ready to pay",
           "continue": "Continue to pay"},
}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_large_payment_starts_in_a_job(live, page, lang, monkeypatch):  # noqa: ANN001
    from portal.jobs import queue, runner
    from portal.lenders import bill_start
    from portal.web.data import database
    app, url = live
    w = WORDS[lang]
    monkeypatch.setattr(bill_start, "INLINE_MAX", 3)  # the demo bank's 50 loans: "large"
    enqueued: list[int] = []
    monkeypatch.setattr(queue, "enqueue_or_leave", enqueued.append)  # the worker: below
    page.set_default_timeout(60_000)
    page.goto(f"{url}/cuenta/entrar?lang={lang}")
    page.get_by_label(w["email"]).fill("lender@demo.pr")
    page.get_by_label(w["password"], exact=True).fill("Distrito2026!")
    page.locator("main").get_by_role("button", name=w["sign_in"]).click()
    second_step(page)
    page.wait_for_url("**/mis-propiedades")
    page.goto(f"{url}/prestamista/prestamos?lang={lang}")
    main = page.locator("main")
    main.get_by_role("button", name=w["pay"]).click()
    page.wait_for_url("**/prestamista/facturas/*/pagos/*")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    clean_at_widths(page, f"prepared-{lang}", "BILL_START_SHOTS")
    page.locator("#pay-confirm").click()
    page.wait_for_url("**/prestamista/facturas/*/pagos/*")
    expect(main.locator("#bill-start")).to_contain_text(w["waiting"])
    expect(main.locator("#start-progress")).to_be_visible()
    expect(main.get_by_role("button", name=w["pause"])).to_be_visible()
    clean_at_widths(page, f"waiting-{lang}", "BILL_START_SHOTS")
    assert len(enqueued) == 1
    with app.app_context():
        job = runner.run(database(), enqueued[0])  # the worker
    assert job.status == "succeeded"
    # The page updates in place (live-progress.js, every few seconds), no reload.
    page.evaluate("() => { window.__same_page = true; }")
    expect(main.locator("#pay-continue")).to_be_visible(timeout=20_000)
    assert page.evaluate("() => window.__same_page === true")
    expect(page.locator("#live-status")).to_contain_text(w["ready"])
    expect(main.locator("#pay-continue")).to_contain_text(w["continue"])
    shot(page, f"ready-{lang}", "BILL_START_SHOTS")
    page.reload()
    clean_at_widths(page, f"ready-{lang}-reloaded", "BILL_START_SHOTS")
    main.locator("#pay-continue").click()
    page.wait_for_url("**/pagos/prueba/**")
