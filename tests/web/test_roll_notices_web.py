"""The roll's notices on the web (J8): the staff's notices page and its button (the job runs
in-process), the print file (administrators only), a parcel's notice as staff sees it, and
the parcel's own download (its payers and staff; 404 for anyone else)."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import func, select

from portal import storage
from portal.db import UnitOfWork
from portal.jobs import queue
from portal.models import AssessmentRoll, Notice, NoticeDelivery, NoticePrintFile
from portal.web.data import database
from tests.support.demo import parcel_ids
from tests.support.pages import STAFF_ROLE_EMAILS, csrf_token, login


@pytest.fixture
def app(demo_app: Flask, tmp_path, monkeypatch):  # noqa: ANN001, ANN201
    monkeypatch.setenv("OUTBOX_DIR", demo_app.config["OUTBOX_DIR"])  # the worker's settings
    monkeypatch.setenv("PORTAL_BASE_URL", "http://localhost")
    storage.use(storage.FolderStore(tmp_path / "files"))
    with demo_app.app_context():
        queue.use_immediate(database())
    yield demo_app
    queue.reset()
    storage.use(None)


def _roll_id(app: Flask) -> int:
    with app.app_context(), UnitOfWork(database()) as w:
        return w.session.scalar(select(func.min(AssessmentRoll.id)).where(
            AssessmentRoll.status == "published"))


def _noticed(app: Flask, pids: list[int]) -> list[int]:
    with app.app_context(), UnitOfWork(database()) as w:
        return sorted(set(w.session.scalars(select(Notice.parcel_id).where(
            Notice.parcel_id.in_(pids), Notice.kind == "assessment"))))


def test_staff_send_the_notices_once(app: Flask):
    roll_id = _roll_id(app)
    admin = login(app, "staff")
    page = admin.get(f"/personal/tasacion/{roll_id}/avisos")
    assert page.status_code == 200
    token = csrf_token(page.get_data(as_text=True))
    r = admin.post(f"/personal/tasacion/{roll_id}/avisos/enviar", data={"csrf_token": token})
    assert r.status_code == 303 and "/personal/trabajos/" in r.headers["Location"]
    with app.app_context(), UnitOfWork(database()) as w:
        deliveries = w.session.scalar(select(func.count()).select_from(NoticeDelivery))
        files = w.session.scalars(select(NoticePrintFile.id)).all()
    assert deliveries and files
    again = admin.post(f"/personal/tasacion/{roll_id}/avisos/enviar",
                       data={"csrf_token": token})
    assert again.status_code == 303
    with app.app_context(), UnitOfWork(database()) as w:
        assert w.session.scalar(select(func.count()).select_from(NoticeDelivery)) == deliveries
    listed = admin.get(f"/personal/tasacion/{roll_id}/avisos").get_data(as_text=True)
    assert f"/avisos/archivos/{files[0]}.pdf" in listed
    pdf = admin.get(f"/personal/tasacion/{roll_id}/avisos/archivos/{files[0]}.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    for role in ("reviewer", "cashier", "read_only"):
        other = login(app, STAFF_ROLE_EMAILS[role])
        notices_page = other.get(f"/personal/tasacion/{roll_id}/avisos")
        assert notices_page.status_code == 200
        assert other.get(f"/personal/tasacion/{roll_id}/avisos/archivos/{files[0]}.pdf"
                         ).status_code == 403
        # (with their own session's token: the role is refused, 403)
        own_token = csrf_token(notices_page.get_data(as_text=True))
        assert other.post(f"/personal/tasacion/{roll_id}/avisos/enviar",
                          data={"csrf_token": own_token}).status_code == 403


def test_a_parcels_notice_only_for_its_payers_and_staff(app: Flask):
    roll_id = _roll_id(app)
    vis = parcel_ids(app)
    owned = _noticed(app, vis["owner"])
    assert owned
    pid = owned[0]
    paths = (f"/propiedad/{pid}/aviso-de-tasacion.pdf",
             f"/personal/tasacion/{roll_id}/avisos/{pid}.pdf")
    owner = login(app, "owner")
    mine = owner.get(paths[0])
    assert mine.status_code == 200 and mine.data.startswith(b"%PDF")
    assert owner.get(paths[1]).status_code == 404  # the staff's route
    staff = login(app, "staff")
    for path in paths:
        assert staff.get(path).status_code == 200, path
    assert staff.get(paths[1] + "?idioma=en").status_code == 200
    for role in ("other", "lessee", "lender"):
        if pid in vis[role] and role != "lender":
            continue
        client = login(app, role)
        for path in paths:
            assert client.get(path).status_code == 404, (role, path)
    anonymous = app.test_client()
    assert anonymous.get(paths[0]).status_code == 302
    assert staff.get(f"/personal/tasacion/{roll_id}/avisos/999999.pdf").status_code == 404
    assert staff.get("/personal/tasacion/999999/avisos").status_code == 404


def test_the_emails_went_to_the_linked_payers(app: Flask):
    from tests.support.pages import outbox
    admin = login(app, "staff")
    roll_id = _roll_id(app)
    token = csrf_token(admin.get(f"/personal/tasacion/{roll_id}/avisos").get_data(as_text=True))
    before = len(outbox(app))
    admin.post(f"/personal/tasacion/{roll_id}/avisos/enviar", data={"csrf_token": token})
    sent = outbox(app)[before:]
    assert sent
    texts = [p.read_text(errors="replace") for p in sent]
    assert any("owner@demo.pr" in t for t in texts)
    assert all("http://localhost/propiedad/" in t for t in texts)
