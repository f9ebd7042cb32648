"""The staff's pages show the notices' job the publication started (J8): the roll page beside
the published roll, the publication's job page, and the roll's notices page, whose button
now sends what was not sent."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import select

from portal.db import UnitOfWork
from portal.models import AssessmentRoll, Job
from portal.web.data import database
from tests.support.pages import login


def _jobs(app: Flask) -> tuple[int, int, int]:
    """The demo's published roll, its publication's job and the notices' job it started."""
    with app.app_context(), UnitOfWork(database()) as w:
        roll_id = w.session.scalar(select(AssessmentRoll.id).where(
            AssessmentRoll.status == "published").order_by(AssessmentRoll.id))
        by_kind = {j.kind: j.id for j in w.session.scalars(select(Job).order_by(Job.id))
                   if (j.result or j.params).get("roll_id") == roll_id}
    return roll_id, by_kind["roll.publish"], by_kind["roll.notify"]


def test_the_pages_show_the_notices_job_publication_started(demo_app: Flask):
    roll_id, published, notify = _jobs(demo_app)
    admin = login(demo_app, "staff")

    def text(path: str, lang: str) -> str:
        return admin.get(f"{path}?lang={lang}").get_data(as_text=True)

    for lang, words in (("en", ("Notices' job %d", "Publishing the roll started the job",
                                "Send the notices not yet sent")),
                        ("es", ("Trabajo de los avisos %d", "Al publicar el registro",
                                "Enviar los avisos que faltan"))):
        roll_page = text("/personal/tasacion", lang)
        assert words[0] % notify in roll_page
        assert f"/personal/trabajos/{notify}" in roll_page
        job_page = text(f"/personal/trabajos/{published}", lang)
        assert words[1] in job_page and f"/personal/trabajos/{notify}" in job_page
        notices = text(f"/personal/tasacion/{roll_id}/avisos", lang)
        assert f"/personal/trabajos/{notify}" in notices and words[2] in notices
        own = text(f"/personal/trabajos/{notify}", lang)
        assert f"/personal/tasacion/{roll_id}/avisos" in own
