"""The lenders' API's write side (J7, R-B9, R-B21): batches of certifications by a write token,
with an Idempotency-Key; validation errors as RFC 9457 problems with each field's path in
the caller's language; the OpenAPI 3.1 document made from the validating schemas; the CSV
and the API file the same records; another lender's token sees none of it."""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import func, select

from portal.db import UnitOfWork
from portal.jobs import queue
from portal.web.data import database
from tests.support.app import make_app
from tests.support.lenders import batch_rows, new_token
from tests.support.pages import login

BATCHES = "/api/v1/certification-batches"


@pytest.fixture
def app(demo_app: Flask):  # noqa: ANN201
    with demo_app.app_context():
        queue.use_immediate(database())
    yield demo_app
    queue.reset()


def _h(secret: str, key: str | None = "k-1", lang: str = "es") -> dict[str, str]:
    out = {"Authorization": f"Bearer {secret}", "Accept-Language": lang}
    if key is not None:
        out["Idempotency-Key"] = key
    return out


def _count(app: Flask, model) -> int:  # noqa: ANN001
    with app.app_context(), UnitOfWork(database()) as w:
        return w.session.scalar(select(func.count()).select_from(model))


def test_a_batch_is_accepted_processed_and_reported(app):
    from portal.models import LenderBatch
    secret = new_token(login(app, "lender"), scope="write")
    api = app.test_client()
    rows = batch_rows(app, 5)
    r = api.post(BATCHES, json={"rows": rows}, headers=_h(secret, "batch-1"))
    assert r.status_code == 202, r.get_data(as_text=True)
    body = r.get_json()
    assert r.headers["Location"].endswith(f"{BATCHES}/{body['id']}")
    assert body["source"] == "api" and body["counts"]["rows"] == 5
    status = api.get(f"{BATCHES}/{body['id']}", headers=_h(secret)).get_json()
    assert status["status"] == "done"  # (the queue runs at once in the tests)
    c = status["counts"]
    assert c["processed"] == 5 and c["accepted"] + c["rejected"] + c["duplicate"] == 5
    report = api.get(f"{BATCHES}/{body['id']}/rows", headers=_h(secret)).get_json()
    assert [i["row_number"] for i in report["items"]] == [1, 2, 3, 4, 5]
    assert [i["loan_number"] for i in report["items"]] == [x["loan_number"] for x in rows]
    for item in report["items"]:
        if item["outcome"] == "accepted":
            assert isinstance(item["exemption"], str) and item["reason"] is None
        else:
            assert item["reason"] and item["column"]
    accepted = api.get(f"{BATCHES}/{body['id']}/rows?outcome=accepted",
                       headers=_h(secret)).get_json()["items"]
    assert len(accepted) == c["accepted"]
    # the same key and body: the same batch, nothing new (200); another body: 409
    again = api.post(BATCHES, data=json.dumps({"rows": rows}, indent=2),
                     headers={**_h(secret, "batch-1"), "Content-Type": "application/json"})
    assert again.status_code == 200 and again.get_json()["id"] == body["id"]
    assert _count(app, LenderBatch) == 1
    other = api.post(BATCHES, json={"rows": rows[:4]}, headers=_h(secret, "batch-1", "en"))
    assert other.status_code == 409 and other.mimetype == "application/problem+json"
    assert other.get_json()["title"] == "Key already used"
    assert _count(app, LenderBatch) == 1
    # the same rows under a new key: a new batch whose rows are already filed
    third = api.post(BATCHES, json={"rows": rows}, headers=_h(secret, "batch-2"))
    assert third.status_code == 202
    c3 = api.get(f"{BATCHES}/{third.get_json()['id']}", headers=_h(secret)).get_json()
    assert c3["counts"]["accepted"] == 0
    assert c3["counts"]["duplicate"] == c["accepted"]


@pytest.mark.parametrize(("lang", "required", "too_long", "unknown"), [
    ("es", "Este campo es obligatorio.", "Esto es muy largo: 500 caracteres como máximo.",
     "Este campo no es uno de los campos de la API."),
    ("en", "This field is required.", "This is too long: at most 500 characters.",
     "This field is not one of the API's fields.")])
def test_an_invalid_body_is_422_with_each_fields_path(app, lang, required, too_long, unknown):
    from portal.models import LenderBatch
    secret = new_token(login(app, "lender"), scope="write")
    api = app.test_client()
    rows = batch_rows(app, 4)
    del rows[1]["fiscal_year"]
    rows[3]["owners"] = "x" * 501
    rows[2]["color"] = "azul"
    r = api.post(BATCHES, json={"rows": rows}, headers=_h(secret, lang=lang))
    assert r.status_code == 422 and r.mimetype == "application/problem+json"
    body = r.get_json()
    assert r.headers["Content-Language"] == lang
    assert {(e["field"], e["detail"]) for e in body["errors"]} == {
        ("rows[1].fiscal_year", required), ("rows[3].owners", too_long),
        ("rows[2].color", unknown)}
    assert body["field"] == body["errors"][0]["field"]
    for bad, field in (({"rows": []}, "rows"), ({}, "rows"), ({"rows": [1]}, "rows[0]"),
                       ({"rows": [{"loan_number": 5}]}, "rows[0].loan_number"),
                       ({"rows": rows[:1] * 1001}, "rows")):
        r = api.post(BATCHES, json=bad, headers=_h(secret, lang=lang))
        assert r.status_code == 422, bad
        assert field in {e["field"] for e in r.get_json()["errors"]}
    r = api.post(BATCHES, data="{not json", headers=_h(secret, lang=lang))
    assert r.status_code == 400 and r.get_json()["errors"]
    assert _count(app, LenderBatch) == 0


def test_the_key_is_required_and_a_read_token_may_not_post(app):
    from portal.models import LenderBatch
    admin = login(app, "lender")
    write, read = new_token(admin, "W", scope="write"), new_token(admin, "R")
    api = app.test_client()
    rows = batch_rows(app, 1)
    for key in (None, "", "has space", "x" * 201):
        h = _h(write, key)
        if key == "":
            h["Idempotency-Key"] = ""
        r = api.post(BATCHES, json={"rows": rows}, headers=h)
        assert r.status_code == 400 and r.get_json()["field"] == "Idempotency-Key", key
    r = api.post(BATCHES, json={"rows": rows}, headers=_h(read))
    assert r.status_code == 403 and r.mimetype == "application/problem+json"
    r = api.post(BATCHES, json={"rows": rows}, headers={"Idempotency-Key": "k"})
    assert r.status_code == 401 and r.headers["WWW-Authenticate"].startswith("Bearer")
    assert _count(app, LenderBatch) == 0
    # a read token reads the batches
    r = api.post(BATCHES, json={"rows": rows}, headers=_h(write))
    assert api.get(r.headers["Location"], headers=_h(read)).status_code == 200


@pytest.mark.parametrize("role", ["anonymous", "owner", "lender", "staff", "other"])
def test_a_session_never_posts_to_the_api(app, role):
    """The API's POSTs are walked as every role with its browser session: no token, 401,
    nothing recorded (tests/web/test_access_writes.py lists them as walked here)."""
    from portal.models import LenderAcquisition, LenderBatch
    client = app.test_client() if role == "anonymous" else login(app, role)
    row = batch_rows(app, 1)[0]
    r = client.post(BATCHES, json={"rows": [row]}, headers={"Idempotency-Key": "k"})
    assert r.status_code == 401 and r.mimetype == "application/problem+json"
    r = client.post(f"/api/v1/loans/{row['loan_number']}/acquisitions",
                    json={"acquired_on": "2026-11-02"})
    assert r.status_code == 401 and r.mimetype == "application/problem+json"
    assert _count(app, LenderBatch) == _count(app, LenderAcquisition) == 0


@pytest.mark.parametrize(("lang", "future", "form"), [
    ("es", "La fecha no puede ser posterior a hoy.", "Escriba la fecha así: AAAA-MM-DD."),
    ("en", "The date cannot be later than today.", "Write the date as YYYY-MM-DD.")])
def test_an_acquisition_is_reported_with_its_notice_deadline(app, lang, future, form):
    """R-B10 (iii), R-B21: the answer carries the rolled 30-day deadline, the service's."""
    from datetime import date

    from portal.lenders import acquisitions
    from portal.models import AuditRecord, LenderAcquisition
    admin = login(app, "lender")
    write, read = new_token(admin, "W", scope="write"), new_token(admin, "R")
    api = app.test_client()
    number = batch_rows(app, 1)[0]["loan_number"]
    url = f"/api/v1/loans/{number}/acquisitions"
    r = api.post(url, json={"acquired_on": "2026-11-02"}, headers=_h(write, None, lang))
    assert r.status_code == 201, r.get_data(as_text=True)
    body = r.get_json()
    with app.app_context(), UnitOfWork(database()) as w:
        due = acquisitions.deadline(w, date(2026, 11, 2))
        assert w.session.scalar(select(AuditRecord).where(
            AuditRecord.action == "lender.acquisition_reported")) is not None
    assert body["notice_deadline"] == {"last_day": due.last_day.isoformat(),
                                       "days_left": due.days_left, "overdue": due.overdue}
    assert body["loan_number"] == number and body["acquired_on"] == "2026-11-02"
    for sent, field, detail in (({"acquired_on": "2026-12-25"}, "acquired_on", future),
                                ({"acquired_on": "25/11/2026"}, "acquired_on", form),
                                ({"acquired_on": 1764460800}, "acquired_on", form)):
        r = api.post(url, json=sent, headers=_h(write, None, lang))
        assert r.status_code == 422 and r.mimetype == "application/problem+json", sent
        assert r.get_json()["errors"] == [{"field": field, "detail": detail}], sent
    assert api.post(url, json={"acquired_on": "2026-11-02"}, headers=_h(read, None)
                    ).status_code == 403
    r = api.post("/api/v1/loans/NOT-A-LOAN/acquisitions", json={"acquired_on": "2026-11-02"},
                 headers=_h(write, None))
    assert r.status_code == 404
    assert _count(app, LenderAcquisition) == 1


def test_another_lenders_token_sees_none_of_these_batches(app):
    """Lender B's token: A's batch and its rows are 404, A's loans in B's rows are rejected
    with the neutral reason, an acquisition on A's loan is 404."""
    from portal.lenders import tokens
    from tests.support.demo import app_uow
    from tests.support.lenders import second_lender
    a = new_token(login(app, "lender"), scope="write")
    api = app.test_client()
    r = api.post(BATCHES, json={"rows": batch_rows(app, 2)}, headers=_h(a))
    batch = r.headers["Location"]
    with app_uow(app) as w:
        b, other = second_lender(w)
        _tok, b_secret = tokens.create_token(w, other, b.id, "B", "write", 30)
    for path in (batch, f"{batch}/rows", f"{batch}/rows?outcome=rejected"):
        r = api.get(path, headers=_h(b_secret))
        assert r.status_code == 404 and r.mimetype == "application/problem+json", path
        assert api.get(path, headers=_h(a)).status_code == 200
    # B's rows naming A's loans are rejected with the neutral reason, nothing about them
    rows = batch_rows(app, 2)
    r = api.post(BATCHES, json={"rows": rows}, headers=_h(b_secret, "b-1", "en"))
    report = api.get(f"{r.headers['Location']}/rows", headers=_h(b_secret, lang="en")
                     ).get_json()["items"]
    assert {(i["outcome"], i["exemption"]) for i in report} == {("rejected", None)}
    assert {i["reason"] for i in report} == {
        "This is not one of your loans (check the loan number and the catastro number)."}
    r = api.post(f"/api/v1/loans/{rows[0]['loan_number']}/acquisitions",
                 json={"acquired_on": "2026-11-02"}, headers=_h(b_secret, None))
    assert r.status_code == 404 and r.mimetype == "application/problem+json"
    for path in (f"{BATCHES}/0", f"{BATCHES}/99999999999", f"{BATCHES}/12345/rows"):
        assert api.get(path, headers=_h(a)).status_code == 404


def test_the_csv_and_the_api_file_the_same_records(demo_db, tmp_path: Path, fixed_today):
    """The same rows, once as a CSV upload and once through the API, each on its own copy of
    the demo District: the same outcome, reason and figures per row."""
    from portal.lenders import batches
    from portal.models import ExemptionCertification, LenderBatchRow
    from portal.people import users

    def records(app: Flask) -> list[tuple]:
        with app.app_context(), UnitOfWork(database()) as w:
            rows = w.session.execute(
                select(LenderBatchRow.loan_number, LenderBatchRow.outcome,
                       LenderBatchRow.error_column, LenderBatchRow.reason,
                       LenderBatchRow.exemption_amount, LenderBatchRow.net_tax,
                       LenderBatchRow.raw_values)
                .order_by(LenderBatchRow.row_number)).all()
            certs = w.session.execute(
                select(ExemptionCertification.parcel_id, ExemptionCertification.status,
                       ExemptionCertification.answers)
                .order_by(ExemptionCertification.parcel_id,
                          ExemptionCertification.id)).all()
        return [tuple(r) for r in rows], [(p, st, json.dumps(a, sort_keys=True))
                                          for p, st, a in certs]

    apps = []
    for name in ("csv", "api"):
        (tmp_path / name).mkdir()
        a = make_app(tmp_path / name, demo_db[0])
        a.config["DEMO"] = demo_db[1]
        apps.append(a)
    by_csv, by_api = apps
    rows = batch_rows(by_csv, 12)
    rows[3]["residential_use"] = "maybe"
    rows[5]["fiscal_year"] = "2019"
    rows[7]["residential_fraction"] = "0.5"
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=list(batches.COLUMNS), lineterminator="\r\n")
    w.writeheader()
    w.writerows(rows)
    try:
        with by_csv.app_context():
            queue.use_immediate(database())
            with UnitOfWork(database()) as uow:
                user = users.find_by_email(uow, "lender@demo.pr")
                job = batches.submit_csv(uow, user, out.getvalue().encode(),
                                                "b.csv").job_id
            queue.enqueue(job)
        queue.reset()
        with by_api.app_context():
            queue.use_immediate(database())
        secret = new_token(login(by_api, "lender"), scope="write")
        r = by_api.test_client().post(BATCHES, json={"rows": rows}, headers=_h(secret))
        assert r.status_code == 202
        csv_records, api_records = records(by_csv), records(by_api)
        assert csv_records == api_records
        outcomes = {r[1] for r in csv_records[0]}
        assert "rejected" in outcomes and len(csv_records[0]) == 12
    finally:
        queue.reset()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_document_is_openapi_3_1_made_from_the_validating_schemas(app, lang):
    from openapi_spec_validator import OpenAPIV31SpecValidator

    from portal.web.lenders_api import schemas
    r = app.test_client().get("/api/v1/openapi.json", headers={"Accept-Language": lang})
    assert r.status_code == 200 and r.headers["Content-Language"] == lang  # no token
    doc = r.get_json()
    OpenAPIV31SpecValidator(doc).validate()
    assert doc["openapi"].startswith("3.1")
    assert doc["components"]["securitySchemes"]["bearer"] == {
        **doc["components"]["securitySchemes"]["bearer"], "type": "http", "scheme": "bearer"}
    ops = [(m, p, op) for p, ms in doc["paths"].items() for m, op in ms.items()]
    assert {(m, p) for m, p, _ in ops} >= {
        ("get", "/loans"), ("get", "/loans/{loan_number}"), ("post", "/certification-batches"),
        ("get", "/certification-batches/{batch_id}"),
        ("get", "/certification-batches/{batch_id}/rows"),
        ("post", "/loans/{loan_number}/acquisitions")}
    for m, p, op in ops:
        if p == "/openapi.json":
            continue
        codes = set(op["responses"])
        assert {"400", "401", "429"} <= codes, (m, p)
        assert op["responses"]["429"]["headers"]["Retry-After"]["required"] is True
        assert op["responses"]["401"]["content"].keys() == {"application/problem+json"}
        if m == "post":
            assert {"403", "422"} <= codes
    post = doc["paths"]["/certification-batches"]["post"]
    assert {"409", "202"} <= set(post["responses"])
    assert [p["name"] for p in post["parameters"] if p["in"] == "header"] == ["Idempotency-Key"]
    # the body's columns are the validating model's, the CSV template's
    row = doc["components"]["schemas"]["CertificationRow"]
    model = schemas.row_model().model_json_schema()
    assert list(row["properties"]) == list(model["properties"])
    assert row["required"] == model["required"] and row["additionalProperties"] is False
    assert doc["components"]["schemas"]["CertificationBatchIn"]["properties"]["rows"][
        "maxItems"] == 1000
    money = doc["components"]["schemas"]["Loan"]["properties"]["due_now"]["anyOf"][0]
    assert money["type"] == "string" and money["pattern"]
    words = {"es": "Sus préstamos", "en": "Your loans"}[lang]
    assert doc["paths"]["/loans"]["get"]["summary"] == words


@pytest.mark.parametrize(("lang", "title"), [("es", "La API de los prestamistas: referencia"),
                                             ("en", "The lenders' API: reference")])
def test_the_reference_page_is_the_document_rendered(app, lang, title):
    r = app.test_client().get(f"/api/v1/docs?lang={lang}")
    assert r.status_code == 200 and r.mimetype == "text/html"
    page = r.get_data(as_text=True)
    assert f"<h1 class=\"margin-top-4\">{title}</h1>" in page
    for text in ("POST /api/v1/certification-batches", "Idempotency-Key", "Retry-After",
                 "CertificationRow", "fiscal_year", "/api/v1/openapi.json"):
        assert text in page, text
    assert "http://" not in page.replace("http://localhost", "")  # nothing from elsewhere


@pytest.mark.postgres
def test_on_postgresql_the_api_files_the_same_records_as_on_sqlite(app, tmp_path):
    """The same rows through the API on PostgreSQL and on SQLite: the same per-row report;
    the key's uniqueness and the same-key answers hold there too."""
    from tests.support.app import demo_on_postgresql

    def through_the_api(a: Flask, rows: list[dict[str, str]]) -> list[tuple]:
        with a.app_context():
            queue.use_immediate(database())
        secret = new_token(login(a, "lender"), scope="write")
        api = a.test_client()
        r = api.post(BATCHES, json={"rows": rows}, headers=_h(secret, "pg-1"))
        assert r.status_code == 202, r.get_data(as_text=True)[:300]
        again = api.post(BATCHES, json={"rows": rows}, headers=_h(secret, "pg-1"))
        assert again.status_code == 200 and again.get_json()["id"] == r.get_json()["id"]
        assert api.post(BATCHES, json={"rows": rows[:1]}, headers=_h(secret, "pg-1")
                        ).status_code == 409
        items = api.get(f"{r.headers['Location']}/rows", headers=_h(secret, lang="en")
                        ).get_json()["items"]
        queue.reset()
        return [(i["loan_number"], i["outcome"], i["column"], i["reason"], i["exemption"],
                 i["tax_with_exemption"]) for i in items]

    rows = batch_rows(app, 8)
    rows[2]["officer_attests"] = "no"
    on_sqlite = through_the_api(app, rows)
    with demo_on_postgresql(tmp_path) as (pg, _result):
        on_pg = through_the_api(pg, rows)
    assert on_pg == on_sqlite and len(on_pg) == 8
    assert ("rejected", "officer_attests") in {(o, c) for _n, o, c, *_ in on_pg}


@pytest.mark.parametrize(("lang", "rent", "family", "future"), [
    ("es", "La certificación no cumple con R-B7: Se recibe renta por la propiedad.",
     "La certificación no cumple con R-B7: Quienes viven en la casa no son familia del dueño",
     "La fecha no puede ser posterior a hoy."),
    ("en", "The certification does not meet R-B7: Rent is received for the property.",
     "The certification does not meet R-B7: The people who live in the home are not the "
     "owner's family", "The date cannot be after today.")])
def test_rows_state_the_delivery_who_lives_there_and_rent(app, lang, rent, family, future):
    """The API's fields `delivery_date` (required), `occupant`, `family_relationship`, `rent`
    and `rent_part`: the core decides R-B7 and the row's reason says why in the caller's
    language; an accepted row's certification is dated the owner's delivery (R-B13)."""
    from portal import clock
    from portal.models import ExemptionCertification
    secret = new_token(login(app, "lender"), scope="write")
    api = app.test_client()
    rows = [r for r in batch_rows(app, 6) if r["owners"]][:4]  # a home owned by people
    delivered = (clock.today() - timedelta(days=3)).isoformat()
    rows[0].update(occupant="family", family_relationship="parent", delivery_date=delivered)
    rows[1].update(rent="yes", rent_part="the basement")
    rows[2].update(occupant="family", family_relationship="second_cousin")
    rows[3].update(delivery_date=(clock.today() + timedelta(days=1)).isoformat())
    missing = [dict(rows[0])]
    del missing[0]["delivery_date"]
    r = api.post(BATCHES, json={"rows": missing}, headers=_h(secret, "no-date", lang))
    assert r.status_code == 422
    assert [e["field"] for e in r.get_json()["errors"]] == ["rows[0].delivery_date"]
    r = api.post(BATCHES, json={"rows": rows}, headers=_h(secret, "homes", lang))
    assert r.status_code == 202, r.get_data(as_text=True)
    report = api.get(f"{BATCHES}/{r.get_json()['id']}/rows",
                     headers=_h(secret, lang=lang)).get_json()["items"]
    assert [(i["outcome"], i["column"]) for i in report] == [
        ("accepted", None), ("rejected", "rent"), ("rejected", "family_relationship"),
        ("rejected", "delivery_date")]
    assert report[1]["reason"] == rent
    assert report[2]["reason"].startswith(family)
    assert report[3]["reason"] == future
    with app.app_context(), UnitOfWork(database()) as w:
        cert = w.session.scalar(select(ExemptionCertification).where(
            ExemptionCertification.filing_number == report[0]["filing_number"]))
        assert (cert.filed_on.isoformat(), cert.delivered_on.isoformat()) == (delivered,
                                                                              delivered)


@pytest.mark.parametrize(("lang", "form"), [("es", "Escriba la fecha así: AAAA-MM-DD."),
                                            ("en", "Write the date as YYYY-MM-DD.")])
def test_the_api_takes_iso_dates_only(app, lang, form):
    """11/02/2026 is never read day first (nor month first): every date of the API is
    YYYY-MM-DD, anything else a problem naming the field (422 in a body, 400 in the query),
    in the caller's language, and nothing is recorded."""
    from portal.models import BillFile, LenderBatch
    secret = new_token(login(app, "lender"), scope="write")
    api = app.test_client()
    for n, bad in enumerate(("11/02/2026", "11-02-2026", "2026-2-11", "2026-02-30",
                             "2026-02-11T00:00:00", "1770768000", "２０２６-02-11")):
        rows = batch_rows(app, 2)
        rows[1]["delivery_date"] = bad
        rows[0]["acquisition_date"] = bad
        r = api.post(BATCHES, json={"rows": rows}, headers=_h(secret, f"d-{n}", lang))
        assert r.status_code == 422 and r.mimetype == "application/problem+json", bad
        assert r.get_json()["errors"] == [
            {"field": "rows[0].acquisition_date", "detail": form},
            {"field": "rows[1].delivery_date", "detail": form}], bad
        r = api.post("/api/v1/bills", json={"due_by": bad}, headers=_h(secret, None, lang))
        assert r.status_code == 422 and r.get_json()["errors"] == [
            {"field": "due_by", "detail": form}], bad
        r = api.get("/api/v1/bills", query_string={"due_by": bad},
                    headers=_h(secret, None, lang))
        assert r.status_code == 400 and r.get_json()["field"] == "due_by", bad
        assert r.get_json()["errors"] == [{"field": "due_by", "detail": form}], bad
    r = api.post("/api/v1/bills", json={"due_by": 1770768000}, headers=_h(secret, None, lang))
    assert r.status_code == 422 and r.get_json()["errors"][0]["field"] == "due_by"
    assert _count(app, LenderBatch) == _count(app, BillFile) == 0
    rows = batch_rows(app, 1)  # the ISO form, as before
    assert api.post(BATCHES, json={"rows": rows}, headers=_h(secret, "iso", lang)
                    ).status_code == 202
