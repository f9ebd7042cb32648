"""A certification revoked on a change report (R-B18) is one of the statuses staff filter and
count: the queue's filter, the bulk review's filter and the exemption-queue report list it.
Its Spanish badge reads "Revocada" (la certificación), while a lender's revoked API token
reads "Revocado" (el token): one English word, two catalog contexts. The clock is the demo
District's day (2026-11-30)."""

from __future__ import annotations

import re

from portal.i18n import pgettext, use_language
from tests.support.demo import home_parcel
from tests.support.lenders import new_token
from tests.support.pages import csrf_token, login
from tests.web.test_exemption_revocation import _approve, _report


def _revoked(app) -> int:  # noqa: ANN001
    """A certification approved, then revoked on the owner's change report."""
    pid = home_parcel(app)
    cid = _approve(app, pid)
    where = _report(login(app, "owner"), pid, kind="moved", change_date="2025-12-01")
    rid = re.search(r"/cambios/(\d+)$", where).group(1)
    staff = login(app, "staff")
    page = staff.get(f"/cambios/{rid}").get_data(as_text=True)
    r = staff.post(f"/personal/cambios/{rid}/acuse",
                   data={"csrf_token": csrf_token(page), "decision": "revoked"})
    assert r.status_code == 303
    return cid


def test_the_two_revoked_words_have_their_own_context():
    with use_language("es"):
        from portal.web.exemptions.present import status_label
        assert status_label("revoked") == "Revocada"
        assert pgettext("token status", "Revoked") == "Revocado"
    with use_language("en"):
        assert status_label("revoked") == "Revoked"
        assert pgettext("token status", "Revoked") == "Revoked"


def test_staff_filter_and_count_revoked_certifications(demo_app):
    cid = _revoked(demo_app)
    staff = login(demo_app, "staff")
    queue = staff.get("/personal/exoneraciones").get_data(as_text=True)
    assert '<option value="revoked">Revocada</option>' in queue
    listed = staff.get("/personal/exoneraciones?status=revoked")
    html = listed.get_data(as_text=True)
    assert listed.status_code == 200 and f'href="/personal/exoneraciones/{cid}"' in html
    assert "Revocada" in html and "Revocado" not in html
    approved = staff.get("/personal/exoneraciones?status=approved").get_data(as_text=True)
    assert f'href="/personal/exoneraciones/{cid}"' not in approved
    bulk = staff.get("/personal/exoneraciones/en-lote").get_data(as_text=True)
    assert '<option value="revoked">Revocada</option>' in bulk
    assert staff.get("/personal/exoneraciones/en-lote?estado=revoked").status_code == 200
    report = staff.get("/personal/informes/exoneraciones").get_data(as_text=True)
    assert "Revocadas en una notificación de cambio" in report and "Revocada" in report
    assert "Retirada" in report  # the withdrawn ones are counted too
    token = csrf_token(staff.get("/").get_data(as_text=True))
    staff.post("/idioma", data={"csrf_token": token, "lang": "en", "next": "/"})
    queue = staff.get("/personal/exoneraciones?status=revoked").get_data(as_text=True)
    assert re.search(r"<option[^>]*value=\"revoked\"[^>]*>Revoked</option>", queue)
    report = staff.get("/personal/informes/exoneraciones").get_data(as_text=True)
    assert "Revoked on a change report" in report


def test_a_revoked_token_reads_revocado(demo_app):
    from sqlalchemy import select

    from portal.models import LenderApiToken
    from tests.support.demo import app_uow
    client = login(demo_app, "lender")
    new_token(client, "Gone")
    with app_uow(demo_app) as w:
        gone = w.session.scalar(select(LenderApiToken.id).where(LenderApiToken.name == "Gone"))
    page = client.get("/prestamista/organizacion").get_data(as_text=True)
    r = client.post(f"/prestamista/organizacion/tokens/{gone}/revocar",
                    data={"csrf_token": csrf_token(page)})
    assert r.status_code == 303
    html = client.get("/prestamista/organizacion").get_data(as_text=True)
    assert "Revocado" in html and "Revocada" not in html
