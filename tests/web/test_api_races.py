"""The lenders' API under concurrency and odd JSON (docs/SECURITY.md): the same
Idempotency-Key sent by several requests at once records one batch, and every request gets
that batch (202 or 200) or 409, never a 500; a body that repeats a key in one object is
refused with a problem naming the key, and nothing is recorded."""

from __future__ import annotations

import threading

from flask import Flask
from sqlalchemy import func, select

from portal.db import UnitOfWork
from portal.web.data import database
from tests.support.lenders import batch_rows, new_token
from tests.support.pages import login

BATCHES = "/api/v1/certification-batches"
AT_ONCE = 4


def _batches(app: Flask) -> int:
    from portal.models import LenderBatch
    with app.app_context(), UnitOfWork(database()) as w:
        return w.session.scalar(select(func.count()).select_from(LenderBatch))


def test_one_key_at_the_same_instant_records_one_batch(demo_app: Flask):
    app = demo_app
    secret = new_token(login(app, "lender"), scope="write")
    rows = batch_rows(app, 2)
    before = _batches(app)
    start, answers = threading.Barrier(AT_ONCE), []

    def send(i: int) -> None:
        body = {"rows": rows if i else rows[:1]}  # one of them with another body
        client = app.test_client()
        start.wait(10)
        r = client.post(BATCHES, json=body, headers={"Authorization": f"Bearer {secret}",
                                                     "Idempotency-Key": "same-key"})
        answers.append((i, r.status_code, (r.get_json() or {}).get("id")))

    threads = [threading.Thread(target=send, args=(i,)) for i in range(AT_ONCE)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(answers) == AT_ONCE
    assert all(code in (200, 202, 409) for _i, code, _id in answers), answers
    assert _batches(app) == before + 1
    ids = {bid for _i, code, bid in answers if code in (200, 202)}
    assert len(ids) <= 1, answers  # every acceptance names the one batch
    assert sum(code == 202 for _i, code, _id in answers) == 1, answers


def test_a_repeated_key_is_refused_naming_it(demo_app: Flask):
    app = demo_app
    secret = new_token(login(app, "lender"), scope="write")
    [row] = batch_rows(app, 1)
    fields = ", ".join(f'"{k}": "{v}"' for k, v in row.items())
    raw = '{"rows": [{' + fields + ', "fiscal_year": "1999-2000"}]}'
    before = _batches(app)
    for lang, word in (("es", "fiscal_year"), ("en", "fiscal_year")):
        r = app.test_client().post(BATCHES, data=raw, content_type="application/json",
                                   headers={"Authorization": f"Bearer {secret}",
                                            "Idempotency-Key": "dup", "Accept-Language": lang})
        assert r.status_code == 400 and r.mimetype == "application/problem+json"
        body = r.get_json()
        assert body["field"] == word and word in body["detail"]
    assert _batches(app) == before
