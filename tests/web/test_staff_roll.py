"""The staff's roll page: an amended budget's roll computed and published as background
jobs (run in-process: Huey's immediate mode), each job's page with its progress, reloading
itself while it runs; publishing twice changes nothing; only staff start a job."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from flask import Flask
from sqlalchemy import func, select

from portal.db import UnitOfWork
from portal.jobs import queue, runner
from portal.models import Assessment, AssessmentRoll, Installment, Job
from portal.people import users
from portal.roll import budgets
from portal.roll.budgets import LineInput
from portal.web.data import database
from tests.support.pages import csrf_token, login


@pytest.fixture
def app(demo_app: Flask):  # noqa: ANN201
    with demo_app.app_context():
        queue.use_immediate(database())
    yield demo_app
    queue.reset()


def _amend(app: Flask) -> int:
    """Version 2 of the demo's budget, adopted today (the demo's 2026-11-30)."""
    with app.app_context(), UnitOfWork(database()) as w:
        staff = users.find_by_email(w, "staff@demo.pr")
        fy = budgets.ensure_fiscal_year(w, date(2026, 7, 1))
        v1 = budgets.versions(w, fy)[0]
        lines = [LineInput(ln.kind, ln.description_es, ln.description_en, ln.amount,
                           ln.financed_by_assessments) for ln in budgets.lines(w, v1.id)]
        lines[0] = LineInput(lines[0].kind, lines[0].description_es, lines[0].description_en,
                             lines[0].amount + Decimal("1000.00"),
                             lines[0].financed_by_assessments + Decimal("1000.00"))
        v2 = budgets.draft(w, staff, fy, lines, reference="Res. 2026-30",
                           effective_on=date(2026, 11, 30))
        budgets.adopt(w, staff, v2.id, date(2026, 11, 30))
        return v2.id


def _count(app: Flask, model, *where) -> int:  # noqa: ANN001
    with app.app_context(), UnitOfWork(database()) as w:
        return w.session.scalar(select(func.count()).select_from(model).where(*where))


def _post(client, path: str):  # noqa: ANN001, ANN202
    token = csrf_token(client.get("/personal/tasacion").get_data(as_text=True))
    return client.post(path, data={"csrf_token": token})


def test_staff_compute_and_publish_an_amended_roll_as_jobs(app):
    version_id = _amend(app)
    staff = login(app, "staff")
    page = staff.get("/personal/tasacion").get_data(as_text=True)
    assert "Registro de derramas" in page
    assert f"/personal/tasacion/version/{version_id}/calcular" in page
    r = _post(staff, f"/personal/tasacion/version/{version_id}/calcular")
    assert r.status_code == 302 and "/personal/trabajos/" in r.headers["Location"]
    shown = staff.get(r.headers["Location"])
    html = shown.get_data(as_text=True)
    assert "Refresh" not in shown.headers  # finished: nothing more to wait for
    assert "Terminado" in html and 'value="100"' in html and "240 de 240 propiedades" in html
    with app.app_context(), UnitOfWork(database()) as w:
        roll = w.session.scalar(select(AssessmentRoll).where(
            AssessmentRoll.budget_version_id == version_id))
        roll_id = roll.id
    assert f"/personal/tasacion/{roll_id}/publicar" in staff.get("/personal/tasacion").text
    before = _count(app, Assessment)
    r = _post(staff, f"/personal/tasacion/{roll_id}/publicar")
    assert "Terminado" in staff.get(r.headers["Location"]).text
    changed = _count(app, Assessment) - before
    assert changed > 0  # the parcels whose amount changed have a superseding assessment
    installments = _count(app, Installment)
    r = _post(staff, f"/personal/tasacion/{roll_id}/publicar")  # again: nothing more
    assert "Terminado" in staff.get(r.headers["Location"]).text
    assert (_count(app, Assessment) - before, _count(app, Installment)) == (changed,
                                                                             installments)
    page = staff.get("/personal/tasacion?lang=en").get_data(as_text=True)
    assert "Assessment roll" in page and "Publish the roll" in page and "published" in page


def test_a_running_jobs_page_shows_its_progress_and_never_reloads_itself(app):
    version_id = _amend(app)
    with app.app_context(), UnitOfWork(database()) as w:
        staff_user = users.find_by_email(w, "staff@demo.pr")
        job = runner.submit(w, staff_user, "roll.compute", {"version_id": version_id})
        job_id = job.id
    staff = login(app, "staff")
    r = staff.get(f"/personal/trabajos/{job_id}?lang=en")
    assert r.status_code == 200 and "Refresh" not in r.headers  # WCAG 2.2.1
    assert "Waiting for the worker" in r.text and "Reload now" in r.text
    assert 'data-live-active="true"' in r.text and "Pause the updates" in r.text
    assert 'role="status"' in r.text and "live-progress.js" in r.text
    # The same input while it is queued is the same job: the button shows it.
    r = _post(staff, f"/personal/tasacion/version/{version_id}/calcular")
    assert r.headers["Location"].endswith(f"/personal/trabajos/{job_id}")


def test_the_demos_roll_was_computed_and_published_as_jobs(app):
    staff = login(app, "staff")
    page = staff.get("/personal/tasacion").text
    assert "Trabajo 1: Calcular el registro" in page
    assert "Trabajo 2: Publicar el registro" in page and "Nada: está publicado." in page
    r = staff.get("/personal/trabajos/2?lang=en")
    assert "Publish the roll" in r.text and "240 of 240 parcels" in r.text
    assert "staff@demo.pr, June 10, 2026" in r.text  # who started it, and when
    assert "Refresh" not in r.headers


def test_a_refused_job_is_said_in_the_users_language_and_others_start_none(app):
    demo_jobs = _count(app, Job)
    staff = login(app, "staff")
    r = _post(staff, "/personal/tasacion/version/1/calcular")  # v1's roll is published
    assert r.status_code == 302 and r.headers["Location"].endswith("/personal/tasacion")
    assert "Este registro ya está publicado" in staff.get(r.headers["Location"]).text
    assert _count(app, Job) == demo_jobs
    for role in ("owner", "lender", "other"):
        client = login(app, role)
        token = csrf_token(client.get("/").get_data(as_text=True))
        for path in ("/personal/tasacion/version/1/calcular", "/personal/tasacion/1/publicar"):
            assert client.post(path, data={"csrf_token": token}).status_code == 404
        assert client.get("/personal/trabajos/1").status_code == 404
    assert _count(app, Job) == demo_jobs


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_roll_missing_its_years_rates_is_refused_naming_them(app, lang):
    """The next year's roll (FY 2027-2028: the demo adopts no rates for it) computed; its
    publication is refused on the roll page, naming each missing rate and the year in the
    staff's language; no job starts, nothing is written."""
    from portal.roll import roll as roll_service

    with app.app_context(), UnitOfWork(database()) as w:
        staff = users.find_by_email(w, "staff@demo.pr")
        fy = budgets.ensure_fiscal_year(w, date(2027, 7, 1))
        v = budgets.draft(w, staff, fy, [LineInput(
            "project", "Proyecto", "Project", Decimal("15000.00"), Decimal("10000.00"))],
            reference="Res. 9")
        budgets.adopt(w, staff, v.id, date(2026, 11, 30))
        roll_id = roll_service.compute(w, staff, v.id).id
    jobs = _count(app, Job)
    staff = login(app, "staff")
    staff.post("/idioma", data={"csrf_token": csrf_token(staff.get("/").get_data(as_text=True)),
                                "lang": lang})
    r = _post(staff, f"/personal/tasacion/{roll_id}/publicar")
    assert r.status_code == 302 and r.headers["Location"].endswith("/personal/tasacion")
    page = staff.get(r.headers["Location"]).text
    names = (("Tasa del cargo por demora", "Tasa de intereses (anual)") if lang == "es"
             else ("Late fee rate", "Interest rate (yearly)"))
    assert "2027-2028" in page and all(n in page for n in names)
    assert _count(app, Job) == jobs
    assert _count(app, Assessment, Assessment.roll_id == roll_id) == 0
