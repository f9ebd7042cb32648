"""A lender's webhooks against a local HTTP receiver: an administrator registers an
endpoint and gets its signing secret once; a batch that finishes and a certification that is
decided are events written in the same unit of work; the worker posts them signed
(`Portal-Signature: t=…,v1=HMAC-SHA256("t.body")`), retries an endpoint that fails after a
backoff, fails one after its last attempt; the bank sees the delivery log on its page and
through the API. Only https (and public) addresses; a clerk adds none."""

from __future__ import annotations

import json
import re
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from portal import clock, webhooks
from portal.db import UnitOfWork
from portal.jobs import queue
from portal.web.data import database
from tests.support.demo import app_uow
from tests.support.lenders import add_homes, new_token
from tests.support.pages import csrf_token, login

PAGE = "/prestamista/webhooks"


class Receiver:
    """A local endpoint: records each request (headers, body) and answers the statuses
    queued in `answers` (then 200)."""

    def __init__(self) -> None:
        self.requests: list[tuple[dict[str, str], bytes, str]] = []
        self.answers: list[int] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                outer.requests.append((dict(self.headers), body, self.path))
                self.send_response(outer.answers.pop(0) if outer.answers else 200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *_args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks/portal"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def app(demo_app: Flask):  # noqa: ANN201
    demo_app.config["WEBHOOKS_ALLOW_LOCAL"] = True
    with demo_app.app_context():
        queue.use_immediate(database())
    yield demo_app
    queue.reset()


def _deliver(app: Flask) -> dict[str, int]:
    with app.app_context():
        return webhooks.deliver_all(database(), allow_local=True)


def _register(client, url: str, lang: str = "es", **events: str):  # noqa: ANN001, ANN202
    page = client.get(f"{PAGE}?lang={lang}").get_data(as_text=True)
    data = {"csrf_token": csrf_token(page), "url": url,
            **(events or {"batch_finished": "y", "certification_decided": "y"})}
    return client.post(f"{PAGE}?lang={lang}", data=data)


def _secret(r) -> str:  # noqa: ANN001
    return re.search(r'id="new-secret"[^>]*>([^<]+)</textarea>', r.get_data(as_text=True)).group(1)


def test_a_batch_and_a_decision_are_posted_signed_with_retries_and_logged(app):
    from portal.exemptions import review
    from portal.models import ExemptionCertification, User, WebhookDelivery
    admin = login(app, "lender")
    with Receiver() as rx:
        r = _register(admin, rx.url)
        assert r.status_code == 200
        secret = _secret(r)
        assert secret.startswith("whsec_")
        page = admin.get(PAGE).get_data(as_text=True)
        assert rx.url in page and secret not in page  # shown once
        # a batch through the API: processed at once (the tests' queue), its end an event
        token = new_token(admin, scope="write")
        rows = add_homes(app, 2)
        api = app.test_client()
        b = api.post("/api/v1/certification-batches", json={"rows": rows},
                     headers={"Authorization": f"Bearer {token}", "Idempotency-Key": "wh"})
        assert b.status_code == 202
        batch_id = b.get_json()["id"]
        rx.answers = [500]  # the endpoint fails once
        assert _deliver(app) == {"delivered": 0, "retry": 1, "failed": 0}
        assert len(rx.requests) == 1
        # not again before its backoff (30 s)...
        assert _deliver(app) == {"delivered": 0, "retry": 0, "failed": 0}
        clock.set_fixed(clock.now() + timedelta(seconds=31))
        assert _deliver(app) == {"delivered": 1, "retry": 0, "failed": 0}
        headers, body, path = rx.requests[-1]
        assert path == "/hooks/portal" and headers["Content-Type"] == "application/json"
        assert webhooks.verify(secret, headers["Portal-Signature"], body, clock.now())
        assert not webhooks.verify(secret, headers["Portal-Signature"], body + b" ", clock.now())
        assert not webhooks.verify("whsec_other", headers["Portal-Signature"], body,
                                   clock.now())
        assert not webhooks.verify(secret, headers["Portal-Signature"], body,
                                   clock.now() + timedelta(minutes=6))  # a replay, later
        event = json.loads(body)
        assert event["type"] == "batch.finished" == headers["Portal-Event"]
        assert event["id"] == headers["Portal-Event-Id"]
        assert event["data"]["batch_id"] == batch_id and event["data"]["status"] == "done"
        assert event["data"]["counts"]["rows"] == 2
        # a certification of the bank's loan decided: an event written with the decision
        with app_uow(app) as w:
            staff = w.session.scalar(select(User).where(User.email == "staff@demo.pr"))
            cert = w.session.scalar(select(ExemptionCertification).where(
                ExemptionCertification.filing_number.is_not(None))
                .order_by(ExemptionCertification.id.desc()).limit(1))
            review.take_up(w, staff, cert.id)
            review.approve(w, staff, cert.id)
            cert_id, number = cert.id, cert.filing_number
        assert _deliver(app)["delivered"] == 1
        headers, body, _path = rx.requests[-1]
        assert webhooks.verify(secret, headers["Portal-Signature"], body, clock.now())
        decided = json.loads(body)
        assert decided["type"] == "certification.decided"
        assert decided["data"]["certification_id"] == cert_id
        assert decided["data"]["filing_number"] == number
        assert decided["data"]["status"] == "approved"
        assert decided["data"]["loan_number"] in {r["loan_number"] for r in rows}
    # the delivery log: on the page (both languages) and through the API
    for lang, word in (("es", "Entregado"), ("en", "Delivered")):
        log = admin.get(f"{PAGE}?lang={lang}").get_data(as_text=True)
        assert "batch.finished" in log and "certification.decided" in log and word in log
    listed = api.get("/api/v1/webhook-deliveries",
                     headers={"Authorization": f"Bearer {token}"}).get_json()
    assert listed["total"] == 2 and listed["next"] is None
    assert [i["event"] for i in listed["items"]] == ["certification.decided", "batch.finished"]
    first = listed["items"][1]
    assert first["status"] == "delivered" and first["attempts"] == 2
    assert first["last_status"] == 200 and first["url"] == rx.url
    with app_uow(app) as w:
        assert w.session.scalar(select(WebhookDelivery.last_error).where(
            WebhookDelivery.event == "batch.finished")) is None


def test_an_endpoint_that_keeps_failing_is_failed_after_its_last_attempt(app, monkeypatch):
    monkeypatch.setattr(webhooks, "MAX_ATTEMPTS", 3)
    admin = login(app, "lender")
    with Receiver() as rx:
        assert _register(admin, rx.url, batch_finished="y").status_code == 200
        with app_uow(app) as w:
            from portal.models import Lender
            lender_id = w.session.scalar(select(Lender.id).order_by(Lender.id).limit(1))
            assert webhooks.emit(w, lender_id, "batch.finished", {"batch_id": 1}) == 1
            # an event the endpoint did not ask for is not written for it
            assert webhooks.emit(w, lender_id, "certification.decided", {}) == 0
        rx.answers = [503, 503, 410]
        waits = []
        for _ in range(3):
            _deliver(app)
            with app_uow(app) as w:
                from portal.models import WebhookDelivery
                d = w.session.scalar(select(WebhookDelivery))
                waits.append((d.status, d.attempts, d.next_attempt_at - clock.now()))
            clock.set_fixed(clock.now() + timedelta(minutes=2))
        assert [(s, a) for s, a, _w in waits] == [("pending", 1), ("pending", 2), ("failed", 3)]
        assert waits[0][2] == timedelta(seconds=30) and waits[1][2] == timedelta(minutes=1)
        assert len(rx.requests) == 3
        page = admin.get(f"{PAGE}?lang=en").get_data(as_text=True)
        assert "HTTP 410" in page and "Failed" in page and "Send again" in page
        # the administrator sends it again: posted by the next sweep
        with app_uow(app) as w:
            delivery_id = w.session.scalar(select(WebhookDelivery.id))
        r = admin.post(f"{PAGE}/entregas/{delivery_id}/reenviar",
                       data={"csrf_token": csrf_token(page)})
        assert r.status_code == 303
        assert _deliver(app) == {"delivered": 1, "retry": 0, "failed": 0}
        assert len(rx.requests) == 4
        # a delivered one is not sent again
        r = admin.post(f"{PAGE}/entregas/{delivery_id}/reenviar",
                       data={"csrf_token": csrf_token(page)})
        assert r.status_code == 303 and _deliver(app)["delivered"] == 0


def test_an_event_is_written_only_if_its_cause_commits(app):
    from portal.models import Lender, WebhookDelivery
    admin = login(app, "lender")
    assert _register(admin, "http://127.0.0.1:9/x").status_code == 200
    with pytest.raises(RuntimeError), app.app_context(), UnitOfWork(database()) as w:
        lender_id = w.session.scalar(select(Lender.id).order_by(Lender.id).limit(1))
        webhooks.emit(w, lender_id, "batch.finished", {"batch_id": 1})
        raise RuntimeError("the batch's step failed")
    with app_uow(app) as w:
        assert w.session.scalar(select(WebhookDelivery.id)) is None


@pytest.mark.parametrize(("lang", "url", "message"), [
    ("es", "http://bank.example/h", "https://"),
    ("en", "http://bank.example/h", "must begin with https://"),
    ("en", "https://localhost/h", "not a local one"),
    ("en", "https://10.0.0.8/h", "not a local one"),
    ("en", "https://169.254.169.254/latest", "not a local one"),
    ("en", "nota url", "not valid")])
def test_only_public_https_addresses(demo_app, lang, url, message):
    from portal.models import LenderWebhook
    admin = login(demo_app, "lender")
    r = _register(admin, url, lang)
    assert r.status_code == 400 and message in r.get_data(as_text=True)
    with app_uow(demo_app) as w:
        assert w.session.scalar(select(LenderWebhook.id)) is None
    ok = _register(admin, "https://bank.example/portal-events", lang)
    assert ok.status_code == 200


@pytest.mark.parametrize("asked", ["0", "-1", "abc", "1.5", "10000001"])
def test_a_page_number_that_is_no_page_is_not_found(demo_app, asked):
    """The log's pages read `pagina` as every list of a lender does (portal.web.paging)."""
    admin = login(demo_app, "lender")
    assert admin.get(PAGE).status_code == 200
    assert admin.get(f"{PAGE}?pagina={asked}").status_code == 404


def test_a_private_address_is_not_posted_to(demo_app):
    """An endpoint whose name resolves to a local address is refused when posting."""
    with pytest.raises(webhooks.Refused):
        webhooks.post("https://localhost/x", b"{}", {})
    with pytest.raises(webhooks.Refused):
        webhooks.post("http://bank.example/x", b"{}", {})


def test_a_clerk_sees_the_log_but_adds_or_removes_nothing(app):
    from portal.models import LenderWebhook, PartyMember, User
    admin = login(app, "lender")
    assert _register(admin, "https://bank.example/events").status_code == 200
    with app_uow(app) as w:
        hook_id = w.session.scalar(select(LenderWebhook.id))
        lender_party = w.session.scalar(select(PartyMember.party_id).join(
            User, User.id == PartyMember.user_id).where(User.email == "lender@demo.pr"))
        clerk = w.session.scalar(select(User).where(User.email == "user00002@demo.pr"))
        w.session.add(PartyMember(party_id=lender_party, user_id=clerk.id, role="employee"))
    clerk_client = login(app, "user00002@demo.pr")
    page = clerk_client.get(PAGE).get_data(as_text=True)
    assert "https://bank.example/events" in page and 'name="url"' not in page
    assert _register(clerk_client, "https://bank.example/other").status_code == 403
    token = csrf_token(page)
    assert clerk_client.post(f"{PAGE}/{hook_id}/eliminar",
                             data={"csrf_token": token}).status_code == 403
    assert clerk_client.post(f"{PAGE}/entregas/1/reenviar",
                             data={"csrf_token": token}).status_code == 403
    # the administrator removes it: nothing more is written for it
    r = admin.post(f"{PAGE}/{hook_id}/eliminar",
                   data={"csrf_token": csrf_token(admin.get(PAGE).get_data(as_text=True))})
    assert r.status_code == 303
    assert "https://bank.example/events" not in admin.get(PAGE).get_data(as_text=True)
    # someone who works for no lender: 404
    assert login(app, "owner").get(PAGE).status_code == 404


@pytest.mark.postgres
def test_on_postgresql_two_workers_post_each_event_once(tmp_path):
    """Two workers sweeping at once (FOR UPDATE SKIP LOCKED): each event is posted once."""
    from portal.models import Lender
    from tests.support.app import demo_on_postgresql
    with demo_on_postgresql(tmp_path) as (pg, _result), Receiver() as rx:
        pg.config["WEBHOOKS_ALLOW_LOCAL"] = True
        assert _register(login(pg, "lender"), rx.url).status_code == 200
        with app_uow(pg) as w:
            lender_id = w.session.scalar(select(Lender.id).order_by(Lender.id).limit(1))
            for n in range(20):
                webhooks.emit(w, lender_id, "batch.finished", {"batch_id": n})
        start, counts = threading.Barrier(2), []

        def sweep() -> None:
            with pg.app_context():
                start.wait(10)
                counts.append(webhooks.deliver_all(database(), allow_local=True))

        threads = [threading.Thread(target=sweep) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert sum(c["delivered"] for c in counts) == 20
        ids = sorted(json.loads(body)["data"]["batch_id"] for _h, body, _p in rx.requests)
        assert ids == list(range(20))
