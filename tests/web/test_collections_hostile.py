"""Hostile input on the collections pages: a message or a 404, never a 500, nothing written."""

from __future__ import annotations

import io

import pytest
from flask import Flask
from sqlalchemy import func, select

from portal.db import UnitOfWork
from portal.jobs import queue
from portal.models import CourtClaim, DemandLetter, Notice
from portal.web.data import database
from tests.support.pages import csrf_token, login


@pytest.fixture
def app(demo_app: Flask):  # noqa: ANN201
    with demo_app.app_context():
        queue.use_immediate(database())
    yield demo_app
    queue.reset()


def _mailed(app: Flask) -> int:
    with app.app_context(), UnitOfWork(database()) as w:
        return w.session.scalar(select(func.count()).select_from(Notice).where(
            Notice.mailed_on.is_not(None)))


HOSTILE = ["NaN", "Infinity", "-1", "1e400", "7.001", "\x00", "１２", "' OR 1=1 --",
           "9" * 500, "2026-02-30", "0000-00-00", "-2026-01-01"]


def test_hostile_input_is_a_message_not_a_500(app):
    staff = login(app, "staff")
    page = staff.get("/personal/cobros").get_data(as_text=True)
    token = csrf_token(page)
    r = staff.post("/personal/cobros/correr", data={"csrf_token": token, "run_on": "2026-11-30"})
    assert r.status_code == 303
    with app.app_context(), UnitOfWork(database()) as w:
        nid = w.session.scalar(select(DemandLetter.notice_id).limit(1))
    before = _mailed(app)
    for bad in HOSTILE:
        for data in ({"certified_mail_number": "9400", "mailed_on": "2026-11-30", "cost": bad},
                     {"certified_mail_number": bad, "mailed_on": bad, "cost": ""}):
            r = staff.post(f"/personal/cobros/{nid}/envio", data={"csrf_token": token, **data})
            assert r.status_code == 400, (bad, r.status_code)
        for path, field in (("acuse", "received_on"), ("reclamacion", "filed_on")):
            r = staff.post(f"/personal/cobros/{nid}/{path}", data={
                "csrf_token": token, field: bad, "case_number": bad})
            assert r.status_code == 400, (path, bad, r.status_code)
        for query in (f"?estado={bad}", f"?despues={bad}", f"?estado=queued&despues={bad}"):
            for path in ("/personal/cobros", "/personal/cobros/tribunal"):
                r = staff.get(f"{path}{query}")  # (a NUL is refused before any view: 400)
                expected = 400 if "\x00" in bad else 200  # else the page, with its list
                assert r.status_code == expected, (path, query, r.status_code)
        r = staff.post("/personal/cobros/correr", data={"csrf_token": token, "run_on": bad})
        # back to the page with its message (a NUL is refused before any view: 400)
        assert r.status_code == (400 if "\x00" in bad else 303), bad
        r = staff.post("/personal/cobros/envios", data={
            "csrf_token": token, "file": (io.BytesIO(
                f"requerimiento,numero,enviado,franqueo\n{bad},{bad},{bad},{bad}\n".encode()),
                "c.csv")}, content_type="multipart/form-data")
        assert r.status_code == 400, bad
    for path in ("/personal/cobros/99999999999", "/personal/cobros/-1",
                 "/cobros/requerimiento/99999999999.pdf", "/personal/cobros/1/expediente.pdf"):
        assert staff.get(path).status_code == 404, path
    r = staff.post("/personal/cobros/envios", data={
        "csrf_token": token, "file": (io.BytesIO(b"\xff\xfe\x00bad"), "c.csv")},
        content_type="multipart/form-data")
    assert r.status_code == 400
    assert _mailed(app) <= before + 1
    with app.app_context(), UnitOfWork(database()) as w:
        assert w.session.scalar(select(func.count()).select_from(CourtClaim)) == 0
