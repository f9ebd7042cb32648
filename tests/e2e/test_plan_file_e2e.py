"""R-B16 in a real browser, in Spanish and in English: staff upload the CRIM's file of plan
payments (two good rows, six bad ones) and read the per-row report; the plan is in default,
and the owner's receipt says what follows. Every page clean under axe and HTML_CodeSniffer,
at 1,280 and 375 px (no sideways scroll). Screenshots go to $PLAN_FILE_SHOTS when it is set
(for review; not compared)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from portal import clock, storage
from tests.support.browser import REASON, axe_violations, htmlcs_errors, sign_in
from tests.web.test_plan_file import DAY, _approved_plan, _csv, _rows

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

SHOTS = os.environ.get("PLAN_FILE_SHOTS")
WORDS = {"es": {"file": "El archivo del CRIM de pagos de planes (CSV)",
                "send": "Anotar los pagos", "recorded": "Anotadas ahora: 2.",
                "reason": "No es una fecha", "follows": "Lo que sigue"},
         "en": {"file": "The CRIM's file of plan payments (CSV)",
                "send": "Record the payments", "recorded": "Recorded now: 2.",
                "reason": "Not a date", "follows": "What follows"}}


@pytest.fixture(autouse=True)
def _store(tmp_path):  # noqa: ANN001, ANN202
    storage.use(storage.FolderStore(tmp_path / "files"))
    yield
    storage.use(None)


def _clean(page, name: str) -> None:  # noqa: ANN001
    assert axe_violations(page) == [], page.url
    assert htmlcs_errors(page) == [], page.url
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= width, f"{page.url} scrolls sideways at {width} px ({wide})"
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{SHOTS}/{name}-{width}.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


@pytest.mark.parametrize("lang", ["es", "en"])
def test_staff_upload_the_crims_file_and_the_owner_reads_what_follows(live, page, lang,
                                                                      tmp_path):  # noqa: ANN001
    app, url = live
    cid, number = _approved_plan(app)
    w = WORDS[lang]
    data = tmp_path / "crim.csv"
    data.write_bytes(_csv(number, *_rows(number)))
    with clock.fixed(DAY):
        sign_in(page, url, "staff", lang)
        page.goto(f"{url}/personal/exoneraciones/planes/archivo")
        _clean(page, f"{lang}-upload")
        page.get_by_label(w["file"]).set_input_files(str(data))
        page.get_by_role("button", name=w["send"]).click()
        main = page.locator("main")
        expect(main).to_contain_text(w["recorded"])
        expect(main).to_contain_text(w["reason"])
        expect(main.locator("table tbody tr")).to_have_count(6)
        _clean(page, f"{lang}-report")
        sign_in(page, url, "owner", lang)
        page.goto(f"{url}/exoneracion/{cid}/recibo")
        expect(page.locator("[data-plan-follows]")).to_be_visible()
        expect(main).to_contain_text(w["follows"])
        _clean(page, f"{lang}-owner")
