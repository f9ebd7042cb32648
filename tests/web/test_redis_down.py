"""Degrade, don't fail (docs/SECURITY.md): with the rate limits' Redis unreachable (a URL on
a closed port), the forms that count attempts there keep working on the database's counts,
limits included (the 429 page, in the user's language), never a 500: forgot-password,
sign-up, claim, access grant and evidence upload."""

from __future__ import annotations

import io
import socket

from flask import Flask

from tests.support.app import make_app
from tests.support.demo import app_uow, parcel_ids
from tests.support.pages import csrf_token, login


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again when the socket is


def _app(tmp_path, demo_db) -> Flask:  # noqa: ANN001
    app = make_app(tmp_path, demo_db[0], RATELIMIT_ENABLED=True,
                   RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{_closed_port()}/0",
                   RATELIMIT_SIGNIN="3 per minute", RATELIMIT_CLAIM="3 per minute")
    app.config["DEMO"] = demo_db[1]
    return app


def _png() -> bytes:
    from PIL import Image
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), (1, 2, 3)).save(buf, "PNG")
    return buf.getvalue()


def test_the_forms_work_and_limit_on_the_database(tmp_path, demo_db, fixed_today):
    app = _app(tmp_path, demo_db)
    anon = app.test_client()
    tok = csrf_token(anon.get("/cuenta/registro").get_data(as_text=True))
    r = anon.post("/cuenta/registro", data={"csrf_token": tok, "email": "nueva@example.com",
                                            "name": "Nueva", "password": "x"})
    assert r.status_code in (200, 303, 400)  # the form answers (one attempt counted)
    tok = csrf_token(anon.get("/cuenta/olvide").get_data(as_text=True))
    codes = [anon.post("/cuenta/olvide", data={"csrf_token": tok, "email": "x@example.com"}
                       ).status_code for _ in range(3)]
    assert codes == [303, 303, 429]  # the limit holds, counted in the database
    page = anon.post("/cuenta/olvide", data={"csrf_token": tok, "email": "x@example.com"})
    assert "espere unos minutos" in page.get_data(as_text=True)  # the 429 page, in Spanish
    owner = login(app, "owner")
    tok = csrf_token(owner.get("/propiedad/reclamar").get_data(as_text=True))
    r = owner.post("/propiedad/reclamar", data={"csrf_token": tok, "catastro": "000",
                                                "code": "WRONG"})
    assert r.status_code in (200, 400)
    pid = parcel_ids(app)["owner"][0]
    r = owner.post(f"/propiedad/{pid}/acceso", data={"csrf_token": tok,
                                                     "email": "hija@example.com"})
    assert r.status_code == 303
    from portal.exemptions import filings
    from portal.people import users
    with app_uow(app) as w:
        cid = filings.start(w, users.find_by_email(w, "owner@demo.pr"), pid).id
    r = owner.post(f"/exoneracion/{cid}/evidencia", data={
        "csrf_token": tok, "file": (io.BytesIO(_png()), "foto.png")},
        content_type="multipart/form-data")
    assert r.status_code == 303
