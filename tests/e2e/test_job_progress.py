"""A job's page never reloads by itself (WCAG 2.2.1, 4.1.3): with JavaScript its progress
updates in place, a polite live region says the status when it changes, keyboard focus stays
where it was, and a button pauses and resumes the updates; when the job ends the controls go.
Both languages, in Debian's Chromium."""

from __future__ import annotations

import pytest
from sqlalchemy import update

from portal.db import UnitOfWork
from portal.models import Job
from portal.people import users
from tests.support.browser import REASON, axe_violations, sign_in

expect = pytest.importorskip("playwright.sync_api",
                             reason="playwright is not installed").expect

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REASON is not None, reason=REASON or "")]

WORDS = {"es": {"pause": "Pausar las actualizaciones", "resume": "Reanudar las actualizaciones",
                "half": "120 de 240 propiedades", "said": "En curso: 50 %",
                "end": "Terminado: 100 %"},
         "en": {"pause": "Pause the updates", "resume": "Resume the updates",
                "half": "120 of 240 parcels", "said": "Running: 50 %",
                "end": "Finished: 100 %"}}


def _job(app) -> int:  # noqa: ANN001
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        staff = users.find_by_email(w, "staff@demo.pr")
        job = Job(kind="roll.compute", params={"version_id": 0}, input_checksum="0" * 64,
                  status="running", done=0, total=240, created_by_id=staff.id)
        w.session.add(job)
        w.session.flush()
        return job.id


def _set(app, job_id: int, **values) -> None:  # noqa: ANN001, ANN003
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        w.session.execute(update(Job).where(Job.id == job_id).values(**values))


@pytest.mark.parametrize("lang", ["es", "en"])
def test_progress_updates_in_place_and_the_person_can_pause_it(live, page, lang):
    app, url = live
    words = WORDS[lang]
    job_id = _job(app)
    sign_in(page, url, "staff", lang)
    loads = []
    page.on("request", lambda r: loads.append(r.url) if f"/trabajos/{job_id}" in r.url
            else None)
    response = page.goto(f"{url}/personal/trabajos/{job_id}?lang={lang}")
    assert "refresh" not in {k.lower() for k in response.headers}
    pause = page.get_by_role("button", name=words["pause"])
    expect(pause).to_be_visible()
    expect(page.locator("[data-live-without-script]")).to_be_hidden()
    assert axe_violations(page) == []
    pause.focus()

    _set(app, job_id, done=120)
    expect(page.locator("[data-live-region]")).to_contain_text(words["half"])
    expect(page.locator("#live-status")).to_have_text(words["said"])
    assert page.evaluate("() => document.activeElement.hasAttribute('data-live-pause')")

    page.keyboard.press("Enter")  # pause
    resume = page.get_by_role("button", name=words["resume"])
    expect(resume).to_be_focused()
    seen = len(loads)
    _set(app, job_id, done=240, status="succeeded")
    page.wait_for_timeout(4000)  # longer than the interval: a paused page asks nothing
    assert len(loads) == seen
    expect(page.locator("[data-live-region]")).to_contain_text(words["half"])

    page.keyboard.press("Enter")  # resume: asks at once, then stops, the job having ended
    expect(page.locator("#live-status")).to_have_text(words["end"])
    expect(page.locator("[data-live-controls]")).to_be_hidden()
    expect(page.locator("#job-progress")).to_have_attribute("value", "100")
