"""The lenders' API for the portfolio kept by the bank and its bill file: loans
added and removed with each row's outcome and reason, idempotency (the same key and body:
the same change; another body: 409), problems in the caller's language, another lender's
change 404, the bill file's lines and its parameters; the OpenAPI document lists them and
validates."""

from __future__ import annotations

import json

import pytest
from flask import Flask
from sqlalchemy import func, select

from portal import clock
from tests.support.demo import app_uow
from tests.support.lenders import new_token
from tests.support.pages import login


def _h(secret: str, key: str | None = "k-1", lang: str = "es") -> dict[str, str]:
    out = {"Authorization": f"Bearer {secret}", "Accept-Language": lang,
           "Content-Type": "application/json"}
    if key is not None:
        out["Idempotency-Key"] = key
    return out


def free_parcel(app: Flask):  # noqa: ANN201
    from portal.models import Loan, OwnershipShare, Parcel, Party
    with app_uow(app) as w:
        return w.session.execute(
            select(Parcel.catastro, Party.name)
            .join(OwnershipShare, OwnershipShare.parcel_id == Parcel.id)
            .join(Party, Party.id == OwnershipShare.party_id)
            .where(Party.kind == "person", OwnershipShare.ends_on.is_(None),
                   OwnershipShare.starts_on <= clock.today(),
                   Parcel.id.not_in(select(Loan.parcel_id)))
            .order_by(Parcel.id).limit(1)).one()


def test_loan_changes(demo_app: Flask) -> None:
    cat, name = free_parcel(demo_app)
    secret = new_token(login(demo_app, "lender"), scope="write")
    c = demo_app.test_client()
    body = {"changes": [
        {"action": "add", "loan_number": "API-1", "catastro": cat, "owner_name": name,
         "escrow": "yes"},
        {"action": "add", "loan_number": "API-2", "catastro": "999-999-999-99",
         "owner_name": name}]}
    r = c.post("/api/v1/loan-changes", data=json.dumps(body), headers=_h(secret, lang="en"))
    assert r.status_code == 201, r.get_data(as_text=True)
    got = r.get_json()
    assert [i["outcome"] for i in got["items"]] == ["added", "rejected"]
    assert got["items"][1]["reason"] == "No parcel on the roll has this catastro number."
    assert got["items"][1]["column"] == "catastro"
    again = c.post("/api/v1/loan-changes", data=json.dumps(body), headers=_h(secret))
    assert again.status_code == 200 and again.get_json()["id"] == got["id"]
    body["changes"][0]["escrow"] = "no"
    other = c.post("/api/v1/loan-changes", data=json.dumps(body), headers=_h(secret))
    assert other.status_code == 409
    assert other.headers["Content-Type"].startswith("application/problem+json")
    r = c.post("/api/v1/loan-changes", data=json.dumps(body), headers=_h(secret, key=None))
    assert r.status_code == 400 and r.get_json()["field"] == "Idempotency-Key"
    r = c.post("/api/v1/loan-changes", data=json.dumps({"changes": [{"action": "add"}]}),
               headers=_h(secret, key="k-2"))
    assert r.status_code == 422
    assert {e["field"] for e in r.get_json()["errors"]} == {"changes[0].loan_number",
                                                            "changes[0].catastro"}
    assert "obligatorio" in r.get_json()["errors"][0]["detail"]
    listed = c.get("/api/v1/loan-changes", headers=_h(secret)).get_json()
    assert listed["count"] >= 1 and listed["items"][0]["id"] == got["id"]
    one = c.get(f"/api/v1/loan-changes/{got['id']}", headers=_h(secret))
    assert one.status_code == 200 and one.get_json()["counts"]["done"] == 1
    assert c.get("/api/v1/loan-changes/99999", headers=_h(secret)).status_code == 404
    read = new_token(login(demo_app, "lender"), name="Read", scope="read")
    r = c.post("/api/v1/loan-changes", data=json.dumps(body), headers=_h(read, key="k-3"))
    assert r.status_code == 403
    # a session never opens the API: every role's session is 401, nothing written
    for who in ("lender", "owner", "staff"):
        session = login(demo_app, who)
        r = session.post("/api/v1/loan-changes", data=json.dumps(body),
                         headers={"Idempotency-Key": "k-9", "Content-Type": "application/json"})
        assert r.status_code == 401, who
    listed = c.get("/api/v1/loan-changes", headers=_h(secret)).get_json()
    assert listed["items"][0]["id"] == got["id"]


def test_another_lenders_change_is_404(demo_app: Flask) -> None:
    from tests.support.lenders import second_lender
    secret = new_token(login(demo_app, "lender"), scope="write")
    c = demo_app.test_client()
    r = c.post("/api/v1/loan-changes", data=json.dumps({"changes": [
        {"action": "baja", "loan_number": "X", "catastro": "040-000-000-00"}]}),
        headers=_h(secret))
    fid = r.get_json()["id"]
    from portal.lenders import tokens
    with app_uow(demo_app) as w:
        b, other = second_lender(w)
        _tok, theirs = tokens.create_token(w, other, b.id, "B", "read", 30)
    r = c.get(f"/api/v1/loan-changes/{fid}", headers=_h(theirs))
    assert r.status_code == 404
    assert r.headers["Content-Type"].startswith("application/problem+json")


def test_bills(demo_app: Flask) -> None:
    """A GET never writes: the file is made by POST /bills (201, then the same file 200 the
    rest of the day), read by GET /bills (404 before) and at its address, page by page."""
    from portal.models import BillFile, BillLine
    read = new_token(login(demo_app, "lender"), scope="read")
    secret = new_token(login(demo_app, "lender"), name="Writer", scope="write")
    c = demo_app.test_client()

    def files() -> tuple[int, int]:
        with app_uow(demo_app) as w:
            return (w.session.scalar(select(func.count()).select_from(BillFile)),
                    w.session.scalar(select(func.count()).select_from(BillLine)))

    before = files()
    r = c.get("/api/v1/bills", headers=_h(secret))
    assert r.status_code == 404 and r.get_json()["type"].endswith("/bill-file-not-made")
    assert r.headers["Content-Type"].startswith("application/problem+json")
    assert files() == before  # nothing written by a GET
    assert c.post("/api/v1/bills", headers=_h(read), data="{}").status_code == 403
    assert files() == before
    r = c.post("/api/v1/bills", headers=_h(secret), data="{}")
    assert r.status_code == 201, r.get_data(as_text=True)
    made = r.get_json()
    assert made["count"] >= 1 and made["items"]
    assert all("." in i["amount_due"] for i in made["items"])
    assert r.headers["Location"].endswith(f"/api/v1/bills/{made['file_id']}")
    after = files()
    again = c.post("/api/v1/bills", headers=_h(secret), data="{}")
    assert again.status_code == 200 and again.get_json()["file_id"] == made["file_id"]
    for path in ("/api/v1/bills", f"/api/v1/bills/{made['file_id']}"):
        page = c.get(path, headers=_h(secret)).get_json()
        assert page == made  # the same kept file on every read
    assert files() == after
    for query, field in (("fiscal_year=1999-2000", "fiscal_year"),
                         ("fiscal_year=abc", "fiscal_year"), ("due_by=2027-13-01", "due_by"),
                         ("due_by=2001-01-01", "due_by"), ("page=999", "page")):
        r = c.get(f"/api/v1/bills?{query}", headers=_h(secret, lang="en"))
        assert r.status_code == 400, query
        assert r.get_json()["field"] == field, query
    for body, field in (('{"fiscal_year": "1999-2000"}', "fiscal_year"),
                        ('{"due_by": "2001-01-01"}', "due_by"),
                        ('{"due_by": "x"}', "due_by"), ('{"other": 1}', "other")):
        r = c.post("/api/v1/bills", headers=_h(secret, lang="en"), data=body)
        assert r.status_code == 422, body
        assert r.get_json()["field"] == field, body
    assert c.post("/api/v1/bills", headers=_h(secret), data="{").status_code == 400
    assert files() == after
    assert c.get(f"/api/v1/bills/{made['file_id']}?page=2", headers=_h(secret)
                 ).status_code in (200, 400)
    r = c.get("/api/v1/bills/999999", headers=_h(secret))
    assert r.status_code == 404 and r.get_json()["type"].endswith("/bill-file-not-found")


def test_another_lenders_bill_file_is_404_and_sessions_never_post(demo_app: Flask) -> None:
    from portal.lenders import tokens
    from portal.models import BillFile
    from tests.support.lenders import second_lender
    secret = new_token(login(demo_app, "lender"), scope="write")
    c = demo_app.test_client()
    fid = c.post("/api/v1/bills", headers=_h(secret), data="{}").get_json()["file_id"]
    with app_uow(demo_app) as w:
        b, other = second_lender(w)
        w.session.flush()
        _tok, theirs = tokens.create_token(w, other, b.id, "B", "write", 30)
    r = c.get(f"/api/v1/bills/{fid}", headers=_h(theirs))
    assert r.status_code == 404
    with app_uow(demo_app) as w:
        n = w.session.scalar(select(func.count()).select_from(BillFile))
    for role in ("owner", "lender", "staff"):  # a session, never a token: 401, nothing made
        s = login(demo_app, role)
        assert s.post("/api/v1/bills", data="{}",
                      headers={"Content-Type": "application/json"}).status_code == 401
    assert demo_app.test_client().post("/api/v1/bills", data="{}").status_code == 401
    with app_uow(demo_app) as w:
        assert w.session.scalar(select(func.count()).select_from(BillFile)) == n


def test_openapi_lists_and_validates(demo_app: Flask) -> None:
    from openapi_spec_validator import OpenAPIV31SpecValidator
    c = demo_app.test_client()
    for lang in ("es", "en"):
        doc = c.get("/api/v1/openapi.json", headers={"Accept-Language": lang}).get_json()
        OpenAPIV31SpecValidator(doc).validate()
        assert {"/loan-changes", "/loan-changes/{change_id}", "/bills",
                "/bills/{file_id}"} <= set(doc["paths"])
        assert set(doc["paths"]["/bills"]) == {"get", "post"}
        loan = doc["components"]["schemas"]["Loan"]
        assert "due_now_by" in loan["properties"] and "due_now_by" in loan["required"]
    assert pytest
