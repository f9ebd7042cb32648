"""The lenders' API, complete and strict: every error under /api is an
RFC 9457 problem in the caller's language (an unknown address, a method not allowed, a body
too large, too many requests, an unexpected error), never the portal's HTML page; the list of
batches and the rows' report carry the total and the next page's address; every answer
says its quotas (`RateLimit`, `RateLimit-Policy`); a parcel's certifications by catastro;
the same Idempotency-Key sent twice at once gives one batch on SQLite and PostgreSQL."""

from __future__ import annotations

import threading

import pytest
from flask import Flask
from sqlalchemy import func, select

from portal.db import UnitOfWork
from portal.jobs import queue
from portal.web.data import database
from tests.support.lenders import add_homes, batch_rows, new_token
from tests.support.pages import login

BATCHES = "/api/v1/certification-batches"


@pytest.fixture
def app(demo_app: Flask):  # noqa: ANN201
    with demo_app.app_context():
        queue.use_immediate(database())
    yield demo_app
    queue.reset()


def _h(secret: str, lang: str = "es", key: str | None = None) -> dict[str, str]:
    out = {"Authorization": f"Bearer {secret}", "Accept-Language": lang}
    if key is not None:
        out["Idempotency-Key"] = key
    return out


def _problem(r, status: int, lang: str) -> dict:  # noqa: ANN001
    assert r.status_code == status, (r.status_code, r.get_data(as_text=True)[:200])
    assert r.mimetype == "application/problem+json", r.mimetype
    assert r.headers["Content-Language"] == lang
    body = r.get_json()
    assert body["status"] == status and body["type"].startswith("https://")
    assert "<html" not in r.get_data(as_text=True)
    return body


@pytest.mark.parametrize(("lang", "not_found", "method"), [
    ("es", "No encontrado", "Método no permitido"),
    ("en", "Not found", "Method not allowed")])
def test_every_error_under_api_is_a_problem_in_the_callers_language(app, lang, not_found,
                                                                     method):
    secret = new_token(login(app, "lender"), scope="write")
    api = app.test_client()
    for path in (f"{BATCHES}/null,null", f"{BATCHES}/null,null/rows", "/api/v1/nothing",
                 "/api/v2/loans", "/api/v1/loans/1/2/3"):
        body = _problem(api.get(path, headers=_h(secret, lang)), 404, lang)
        assert body["title"] == not_found, path
    r = api.delete("/api/v1/loans", headers=_h(secret, lang))
    assert _problem(r, 405, lang)["title"] == method
    assert "GET" in r.headers["Allow"]
    # without a token, an unknown address is a problem too (not the HTML 404 page)
    _problem(api.get("/api/v1/nothing", headers={"Accept-Language": lang}), 404, lang)
    # a body over the limit
    big = b'{"rows": [' + b" " * (17 * 1024 * 1024) + b"]}"
    r = api.post(BATCHES, data=big, content_type="application/json",
                 headers=_h(secret, lang, key="big"))
    assert "16" in _problem(r, 413, lang)["detail"]


def test_an_unexpected_error_is_a_500_problem(app, monkeypatch):
    from portal.lenders import portfolio
    secret = new_token(login(app, "lender"))

    def broken(*_a, **_k):  # noqa: ANN002, ANN003, ANN202
        raise RuntimeError("boom")

    monkeypatch.setattr(portfolio, "portfolio", broken)
    for lang in ("es", "en"):
        body = _problem(app.test_client().get("/api/v1/loans", headers=_h(secret, lang)),
                        500, lang)
        assert "boom" not in str(body)
    # the portal's pages keep their HTML error page
    r = app.test_client().get("/no-such-page")
    assert r.status_code == 404 and r.mimetype == "text/html"


def test_every_answer_says_its_quotas_and_429_is_a_problem(app, monkeypatch):
    from portal.web.lenders_api import routes
    monkeypatch.setattr(routes, "PER_TOKEN", (3, 60))
    secret = new_token(login(app, "lender"))
    api = app.test_client()
    lefts = []
    for _ in range(3):
        r = api.get("/api/v1/loans", headers=_h(secret))
        assert r.status_code == 200
        assert r.headers["RateLimit-Policy"] == '"address";q=300;w=60, "token";q=3;w=60'
        token = r.headers["RateLimit"].split(", ")[1]
        lefts.append(int(token.split(";r=")[1].split(";")[0]))
        assert int(token.split(";t=")[1]) >= 1
    assert lefts == [2, 1, 0]
    r = api.get("/api/v1/loans", headers=_h(secret, "en"))
    body = _problem(r, 429, "en")
    assert int(r.headers["Retry-After"]) >= 1 and r.headers["Retry-After"] in body["detail"]
    assert '"token";r=0' in r.headers["RateLimit"]
    # an unknown token is counted against the address's quota, and says so
    r = api.get("/api/v1/loans", headers=_h("pdl_nothing"))
    assert r.status_code == 401 and r.headers["RateLimit"].startswith('"address";r=')


def test_the_batches_list_and_the_rows_report_have_the_total_and_next(app, monkeypatch):
    from portal.web.lenders_api import batches
    monkeypatch.setattr(batches, "PER_PAGE", 2)
    secret = new_token(login(app, "lender"), scope="write")
    api = app.test_client()
    rows = batch_rows(app, 5)
    ids = []
    for i in range(3):
        r = api.post(BATCHES, json={"rows": rows[i:i + 3]}, headers=_h(secret, key=f"l-{i}"))
        assert r.status_code == 202
        ids.append(r.get_json()["id"])
    first = api.get(BATCHES, headers=_h(secret)).get_json()
    assert first["total"] == 3 and first["pages"] == 2
    assert [b["id"] for b in first["items"]] == ids[::-1][:2]  # newest first
    assert first["next"] == f"{BATCHES}?page=2"
    second = api.get(first["next"], headers=_h(secret)).get_json()
    assert [b["id"] for b in second["items"]] == ids[:1] and second["next"] is None
    assert api.get(f"{BATCHES}?status=done", headers=_h(secret)).get_json()["total"] == 3
    assert api.get(f"{BATCHES}?status=queued", headers=_h(secret)).get_json()["total"] == 0
    bad = api.get(f"{BATCHES}?status=lost", headers=_h(secret, "en"))
    assert _problem(bad, 400, "en")["field"] == "status"

    report = api.get(f"{BATCHES}/{ids[0]}/rows?outcome=", headers=_h(secret)).get_json()
    assert report["total"] == 3 and report["pages"] == 2 and len(report["items"]) == 2
    assert report["next"] == f"{BATCHES}/{ids[0]}/rows?outcome=&page=2"
    last = api.get(report["next"], headers=_h(secret)).get_json()
    assert len(last["items"]) == 1 and last["next"] is None
    assert [i["row_number"] for i in report["items"] + last["items"]] == [1, 2, 3]


def test_a_parcels_certifications_by_catastro(app):
    from portal.models import Parcel
    secret = new_token(login(app, "lender"), scope="write")
    api = app.test_client()
    rows = add_homes(app, 1)
    r = api.post(BATCHES, json={"rows": rows}, headers=_h(secret, key="cert"))
    assert r.status_code == 202
    catastro = rows[0]["catastro"]
    body = api.get(f"/api/v1/parcels/{catastro}/certifications", headers=_h(secret)).get_json()
    assert body["catastro"] == catastro and rows[0]["loan_number"] in body["loan_numbers"]
    [cert] = body["items"]
    assert cert["status"] == "filed" and cert["loan_number"] == rows[0]["loan_number"]
    assert cert["fiscal_year"] == rows[0]["fiscal_year"] and cert["filing_number"]
    other_year = api.get(f"/api/v1/parcels/{catastro}/certifications?fiscal_year=1999-2000",
                         headers=_h(secret)).get_json()
    assert other_year["items"] == []
    bad = api.get(f"/api/v1/parcels/{catastro}/certifications?fiscal_year=1999-2003",
                  headers=_h(secret, "en"))
    assert _problem(bad, 400, "en")["field"] == "fiscal_year"
    # a parcel none of the bank's loans is on: 404, as one that does not exist
    from tests.support.demo import app_uow
    with app_uow(app) as w:
        theirs = w.session.scalar(select(Parcel.catastro).where(
            Parcel.catastro.not_in([r["catastro"] for r in batch_rows(app, 5000)]))
            .order_by(Parcel.id.desc()).limit(1))
    for c in (theirs, "000-000-000-00"):
        body = _problem(api.get(f"/api/v1/parcels/{c}/certifications",
                                headers=_h(secret, "en")), 404, "en")
        assert c not in str(body)


def _same_key_twice(app: Flask) -> None:
    """Two requests with one key and body at the same instant: one batch, both answers
    name it (202 and 200); then two with one key and different bodies: one batch, the other
    409. Never a 500."""
    from portal.models import LenderBatch
    with app.app_context():
        queue.use_immediate(database())
    secret = new_token(login(app, "lender"), scope="write")
    rows = batch_rows(app, 2)

    def count() -> int:
        with app.app_context(), UnitOfWork(database()) as w:
            return w.session.scalar(select(func.count()).select_from(LenderBatch))

    for key, bodies in (("twice-same", (rows, rows)), ("twice-other", (rows, rows[:1]))):
        before, start, answers = count(), threading.Barrier(2), []

        def send(body: list, key: str = key, start: threading.Barrier = start,
                 answers: list = answers) -> None:
            client = app.test_client()
            start.wait(10)
            r = client.post(BATCHES, json={"rows": body}, headers=_h(secret, key=key))
            answers.append((r.status_code, (r.get_json() or {}).get("id")))

        threads = [threading.Thread(target=send, args=(b,)) for b in bodies]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        codes = sorted(c for c, _id in answers)
        assert count() == before + 1, answers
        if bodies[0] is bodies[1]:
            assert codes == [200, 202], answers
            assert len({i for _c, i in answers}) == 1, answers
        else:
            assert codes == [202, 409], answers
    queue.reset()


def test_one_key_sent_twice_at_once_gives_one_batch_on_sqlite(app):
    _same_key_twice(app)


@pytest.mark.postgres
def test_one_key_sent_twice_at_once_gives_one_batch_on_postgresql(tmp_path):
    from tests.support.app import demo_on_postgresql
    with demo_on_postgresql(tmp_path) as (pg, _result):
        _same_key_twice(pg)
