"""a bank's administrators use two-step verification. An administrator
who has not set it up is sent to set it up before any lender page (and comes back to the
page asked for); a clerk is not; once enrolled, a session that has not passed the second
step is sent to it. The staff roll page lists only the roll's jobs, their kinds worded."""

from __future__ import annotations

import re

from flask import Flask
from sqlalchemy import select

from tests.support.demo import app_uow
from tests.support.pages import csrf_token, login, password_only, totp_code

PAGES = ("/prestamista/prestamos", "/prestamista/organizacion", "/prestamista/certificaciones/lote",
         "/prestamista/exoneraciones", "/prestamista/cambios")


def _admin_and_clerk(app: Flask) -> None:
    """Banco B: user00001 administers it, user00002 is its clerk (neither enrolled)."""
    from portal.models import Lender, Party, PartyMember, User
    with app_uow(app) as w:
        s = w.session
        party = Party(kind="organisation", name="Banco B")
        s.add(party)
        s.flush()
        s.add(Lender(party_id=party.id, code="BBB"))
        for email, role in (("user00001@demo.pr", "administrator"),
                            ("user00002@demo.pr", "employee")):
            user = s.scalar(select(User).where(User.email == email))
            s.add(PartyMember(party_id=party.id, user_id=user.id, role=role))


def test_an_administrator_sets_up_two_steps_before_any_lender_page(demo_app):
    _admin_and_clerk(demo_app)
    admin, _where = password_only(demo_app, "user00001@demo.pr")
    for path in PAGES:
        r = admin.get(path)
        assert r.status_code == 303, path
        assert "/cuenta/dos-pasos/activar" in r.headers["Location"], path
    # the dashboard is not a lender page
    assert admin.get("/mis-propiedades").status_code == 200
    # enrolment, then back to the page asked for
    r = admin.get("/prestamista/prestamos?estado=overdue")
    enrol = admin.get(r.headers["Location"]).get_data(as_text=True)
    secret = re.search(r'id="secret">([A-Z2-7 ]+)</code>', enrol).group(1).replace(" ", "")
    done = admin.post(r.headers["Location"], data={"csrf_token": csrf_token(enrol),
                                                   "code": totp_code(secret)})
    assert done.status_code == 200
    assert "/prestamista/prestamos?estado=overdue" in done.get_data(as_text=True)
    for path in PAGES:
        assert admin.get(path).status_code in (200, 404), path  # (an empty bank's pages)
    assert admin.get("/prestamista/prestamos").status_code == 200
    # enrolled, signing in goes through the second step before any page
    again, where = password_only(demo_app, "user00001@demo.pr")
    assert where.endswith("/cuenta/verificar")
    assert "/cuenta/entrar" in again.get("/prestamista/prestamos").headers["Location"]


def test_a_clerk_and_a_verified_administrator_are_not_asked(demo_app):
    _admin_and_clerk(demo_app)
    clerk, _where = password_only(demo_app, "user00002@demo.pr")
    assert clerk.get("/prestamista/prestamos").status_code == 200
    assert login(demo_app, "lender").get("/prestamista/prestamos").status_code == 200


def test_the_roll_page_lists_the_rolls_jobs_only_worded(demo_app):
    from portal.models import Job, User
    with app_uow(demo_app) as w:
        staff = w.session.scalar(select(User).where(User.email == "staff@demo.pr"))
        for kind in ("roll.compute", "lender.certifications", "collections.run"):
            w.session.add(Job(kind=kind, params={"n": 1}, input_checksum=kind,
                              status="succeeded", total=1, done=1, created_by_id=staff.id))
    for lang, compute in (("es", "Calcular el registro"), ("en", "Compute the roll")):
        page = login(demo_app, "staff").get(f"/personal/tasacion?lang={lang}").get_data(
            as_text=True)
        jobs = page.split('<h2>', 2)[-1]
        assert "lender.certifications" not in page and "roll.compute" not in jobs
        assert compute in jobs and "collections" not in jobs


def test_every_kind_of_job_has_a_name_in_both_languages(demo_app):
    from flask_babel import force_locale

    from portal.jobs import runner
    from portal.web.jobs.views import KINDS
    assert set(runner.KINDS) <= set(KINDS)
    with demo_app.test_request_context():
        for kind in runner.KINDS:
            with force_locale("es"):
                es = str(KINDS[kind])
            with force_locale("en"):
                en = str(KINDS[kind])
            assert es != en and "." not in es, kind
