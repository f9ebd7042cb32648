"""A large bill file in a real browser, in Spanish and in English: "Make the bill file"
queues a job (its page shows "waiting to start" with a progress bar, a polite live region
and a pause button, and never reloads by itself); the worker runs it and the page goes on
by itself to the file made. Every page clean under axe and HTML_CodeSniffer at 1,280 and
375 px; screenshots to $BILL_JOB_SHOTS when set."""

from __future__ import annotations

import pytest

from tests.support.browser import REASON, clean_at_widths, sign_in
from tests.support.worker import record_queue

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WORDS = {
    "es": {"make": "Hacer el archivo de facturas", "waiting": "En espera",
           "title": "Preparando su archivo de facturas",
           "pause": "Pausar las actualizaciones", "pay": "Pagar estas líneas en un solo pago"},
    "en": {"make": "Make the bill file", "waiting": "Waiting to start",
           "title": "Making your bill file",
           "pause": "Pause the updates", "pay": "Pay these lines in one payment"},
}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_large_bill_file_is_made_in_a_job(live, page, lang, monkeypatch):  # noqa: ANN001
    from portal.jobs import runner
    from portal.lenders import bill_jobs
    from portal.web.data import database
    app, url = live
    w = WORDS[lang]
    monkeypatch.setattr(bill_jobs, "INLINE_MAX", 3)  # the demo bank's 50 loans: "large"
    enqueued = record_queue(app, monkeypatch)  # the worker: below
    page.set_default_timeout(60_000)
    sign_in(page, url, "lender", lang)
    page.goto(f"{url}/prestamista/facturas?lang={lang}")
    main = page.locator("main")
    main.get_by_role("button", name=w["make"]).click()
    page.wait_for_url("**/prestamista/facturas/trabajos/*")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(main.locator("h1")).to_have_text(w["title"])
    expect(main.locator("#bill-job")).to_contain_text(w["waiting"])
    expect(main.locator("#job-progress")).to_be_visible()
    expect(main.get_by_role("button", name=w["pause"])).to_be_visible()
    clean_at_widths(page, f"file-waiting-{lang}", "BILL_JOB_SHOTS")
    assert len(enqueued) == 1
    with app.app_context():
        job = runner.run(database(), enqueued[0])  # the worker
    assert job.status == "succeeded"
    # The page polls (live-progress.js, every few seconds) and goes on to the file.
    page.wait_for_url(f"**/prestamista/facturas/{job.result['file_id']}", timeout=20_000)
    expect(main.get_by_role("button", name=w["pay"])).to_be_visible()
    clean_at_widths(page, f"file-made-{lang}", "BILL_JOB_SHOTS")
