"""Starting a large bill payment leaves the request: the confirmation queues a job, the
payment's page shows its progress (a polite live region, no reload by itself) and then the
link to pay; a worker that dies midway leaves exactly one checkout and one provider
session once another worker takes the job over. A small payment still starts within the
click. The clock is the demo's day, moved on past the runner's STALE for the takeover."""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from flask import Flask
from sqlalchemy import func, select

from portal import clock
from portal.jobs import queue, runner
from portal.web.data import database
from tests.support.demo import app_uow
from tests.support.pages import csrf_token, login
from tests.support.worker import Died, record_queue


@pytest.fixture
def app(demo_app: Flask, monkeypatch):  # noqa: ANN001, ANN201
    """The demo; the queue only records what is enqueued (the test runs the worker)."""
    from portal.lenders import bill_start
    monkeypatch.setattr(bill_start, "INLINE_MAX", 3)
    record_queue(demo_app, monkeypatch)
    yield demo_app
    queue.reset()


def _prepared(app: Flask, lang: str = "es"):  # noqa: ANN202
    """A lender signed in, the day's file made and its whole payment prepared:
    (client, the payment's page address, its total, a CSRF token)."""
    c = login(app, "lender")
    page = c.get("/prestamista/facturas").get_data(as_text=True)
    tok = csrf_token(page)
    if lang == "en":
        c.post("/idioma", data={"csrf_token": tok, "lang": "en"})
    r = c.post("/prestamista/facturas", data={"csrf_token": tok, "due_by": ""})
    url = r.headers["Location"]
    r = c.post(url + "/pagar", data={"csrf_token": tok})
    pay_url = r.headers["Location"]
    body = c.get(pay_url).get_data(as_text=True)
    expected = re.search(r'name="expected_total" value="([^"]+)"', body).group(1)
    return c, pay_url, expected, tok


def _counts(app: Flask, key: str) -> tuple[int, int, int]:
    """(checkouts of the payment's key, their payments, provider sessions of them)."""
    from portal.models.checkouts import Checkout, CheckoutPayment, SandboxSession
    with app_uow(app) as w:
        ids = list(w.session.scalars(select(Checkout.id).where(Checkout.open_key == key)))
        payments = w.session.scalar(select(func.count()).select_from(CheckoutPayment).where(
            CheckoutPayment.checkout_id.in_(ids))) if ids else 0
        keys = list(w.session.scalars(select(Checkout.idempotency_key).where(
            Checkout.id.in_(ids)))) if ids else []
        sessions = w.session.scalar(select(func.count()).select_from(SandboxSession).where(
            SandboxSession.idempotency_key.in_(keys))) if keys else 0
    return len(ids), payments, sessions


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_large_payment_starts_in_a_job_and_its_page_shows_the_progress(
        app: Flask, lang: str) -> None:
    from portal.models import BillPayment, Job
    c, pay_url, expected, tok = _prepared(app, lang)
    r = c.post(pay_url + "/confirmar", data={"csrf_token": tok, "expected_total": expected})
    assert r.status_code == 303 and r.headers["Location"].endswith(pay_url)
    (job_id,) = app.config["ENQUEUED"]
    again = c.post(pay_url + "/confirmar", data={"csrf_token": tok, "expected_total": expected})
    assert again.status_code == 303 and app.config["ENQUEUED"] == [job_id, job_id]  # one job
    body = c.get(pay_url).get_data(as_text=True)
    waiting = "Waiting to start" if lang == "en" else "En espera"
    assert waiting in body and 'data-live-active="true"' in body
    assert 'role="status" id="live-status"' in body and 'id="pay-confirm"' not in body
    assert 'http-equiv="refresh"' not in body  # never reloaded by itself
    pid = int(pay_url.rsplit("/", 1)[1])
    with app.app_context():
        job = runner.run(database(), job_id)
    assert (job.kind, job.status, job.done, job.total) == (
        "lender.bill_payment", "succeeded", job.total, job.total)
    with app_uow(app) as w:
        pay = w.session.get(BillPayment, pid)
        assert pay.job_id == job_id and pay.checkout_id == job.result["checkout_id"]
        assert w.session.get(Job, job_id).created_by_id is not None
    body = c.get(pay_url).get_data(as_text=True)
    link = re.search(r'id="pay-continue" href="([^"]+)"', body).group(1)
    assert link.startswith("/pagos/prueba/cs_sandbox_") and 'data-live-active="false"' in body
    assert ("Continue to pay" if lang == "en" else "Continuar al pago") in body
    assert _counts(app, f"bill-payment-{pid}") == (1, pay.items, 1)
    # The return addresses are the portal's, for this checkout.
    from portal.models.checkouts import SandboxSession
    with app_uow(app) as w:
        s = w.session.scalar(select(SandboxSession).where(
            SandboxSession.id == link.rsplit("/", 1)[1]))
        assert s.success_url.endswith(f"/pagos/{pay.checkout_id}/exito")


def test_exactly_once_when_the_worker_dies(app: Flask, monkeypatch) -> None:
    """Killed after its checkout was written, before the provider's session: the job is
    taken over once its heartbeat is stale and opens that session (one checkout, one
    session). Killed inside the transaction: nothing was written, the next run writes it."""
    from portal.accounts import bulk
    from portal.models import BillPayment, Job
    from portal.payments.gateway import SandboxGateway
    c, pay_url, expected, tok = _prepared(app)
    c.post(pay_url + "/confirmar", data={"csrf_token": tok, "expected_total": expected})
    (job_id,) = app.config["ENQUEUED"]
    pid = int(pay_url.rsplit("/", 1)[1])
    key = f"bill-payment-{pid}"

    real_insert, calls = bulk.insert_rows, {"n": 0}

    def dies_in_the_second_batch(uow, model, rows, **kw):  # noqa: ANN001, ANN202
        calls["n"] += 1
        if calls["n"] == 3:  # the first batch's payments and links are written
            raise Died()
        return real_insert(uow, model, rows, **kw)

    from portal.lenders import bills
    monkeypatch.setattr(bills, "BATCH", 5)
    monkeypatch.setattr(bulk, "insert_rows", dies_in_the_second_batch)
    with app.app_context(), pytest.raises(Died):
        runner.run(database(), job_id)
    monkeypatch.setattr(bulk, "insert_rows", real_insert)
    assert _counts(app, key) == (0, 0, 0)  # the transaction rolled back whole
    with app.app_context():
        assert runner.run(database(), job_id) is None  # still another worker's
        assert job_id not in runner.recover(database())  # its heartbeat is fresh

    real_create = SandboxGateway.create_checkout

    def dies_before_the_provider(self, req):  # noqa: ANN001, ANN202
        raise Died()

    monkeypatch.setattr(SandboxGateway, "create_checkout", dies_before_the_provider)
    with clock.fixed(clock.now() + runner.STALE + timedelta(seconds=1)), \
            app.app_context(), pytest.raises(Died):
        assert job_id in runner.recover(database())
        runner.run(database(), job_id)
    with app_uow(app) as w:
        items = w.session.get(BillPayment, pid).items
    assert _counts(app, key) == (1, items, 0)  # written, its session not opened
    monkeypatch.setattr(SandboxGateway, "create_checkout", real_create)
    with clock.fixed(clock.now() + 2 * runner.STALE + timedelta(seconds=2)), \
            app.app_context():
        assert job_id in runner.recover(database())
        job = runner.run(database(), job_id)
        assert runner.run(database(), job_id) is None  # ended: nothing more
    assert (job.status, job.attempts) == ("succeeded", 3)
    assert _counts(app, key) == (1, items, 1)
    with app_uow(app) as w:
        assert w.session.get(BillPayment, pid).checkout_id == job.result["checkout_id"]
        assert w.session.get(Job, job_id).active_key is None
    body = c.get(pay_url).get_data(as_text=True)
    assert 'id="pay-continue"' in body


def test_a_refused_start_says_why_and_can_be_tried_again(app: Flask) -> None:
    """Amounts changed since it was prepared: the job fails, nothing is written, and the
    page says so and offers the confirmation again (a new job)."""
    from portal.models import BillPaymentItem, LedgerEntry
    c, pay_url, expected, tok = _prepared(app)
    pid = int(pay_url.rsplit("/", 1)[1])
    c.post(pay_url + "/confirmar", data={"csrf_token": tok, "expected_total": expected})
    (job_id,) = app.config["ENQUEUED"]
    with app_uow(app) as w:
        item = w.session.scalars(select(BillPaymentItem).where(
            BillPaymentItem.payment_id == pid)).first()
        fy_id = item.fiscal_year_id
        w.session.add(LedgerEntry(parcel_id=item.parcel_id, fiscal_year_id=fy_id,
                                  kind="cost", direction="debit", amount=Decimal("12.50"),
                                  legal_date=clock.today(), rule="R-A9",
                                  cost_kind="certified_mail", description="certified mail"))
    with app.app_context():
        job = runner.run(database(), job_id)
    assert (job.status, job.error_code) == ("failed", "bill_payment_changed")
    body = c.get(pay_url).get_data(as_text=True)
    assert 'id="pay-error"' in body and 'id="pay-confirm"' in body
    assert _counts(app, f"bill-payment-{pid}") == (0, 0, 0)
    c.post(pay_url + "/confirmar", data={"csrf_token": tok, "expected_total": expected})
    assert app.config["ENQUEUED"][-1] != job_id


def test_a_small_payment_still_starts_within_the_click(demo_app: Flask) -> None:
    """At most INLINE_MAX items: no job, the provider's page next, as before."""
    from portal.models import Job
    c, pay_url, expected, tok = _prepared(demo_app)
    with app_uow(demo_app) as w:
        before = w.session.scalar(select(func.count()).select_from(Job))
    r = c.post(pay_url + "/confirmar", data={"csrf_token": tok, "expected_total": expected})
    assert r.status_code == 303 and r.headers["Location"].startswith("/pagos/prueba/")
    with app_uow(demo_app) as w:
        assert w.session.scalar(select(func.count()).select_from(Job)) == before


@pytest.mark.postgres
def test_on_postgresql_the_progress_is_seen_while_the_checkout_is_written(
        tmp_path, monkeypatch) -> None:  # noqa: ANN001
    """PostgreSQL: each batch's progress is committed on a connection of its own while the
    checkout's one transaction is still open (another connection reads it), and the job
    ends with one checkout of every item."""
    from portal.db import UnitOfWork
    from portal.lenders import bill_start, bills
    from portal.models import BillPayment, Job
    from tests.support.app import demo_on_postgresql
    monkeypatch.setattr(bill_start, "INLINE_MAX", 3)
    monkeypatch.setattr(bills, "BATCH", 5)
    enqueued: list[int] = []
    monkeypatch.setattr(queue, "enqueue_or_leave", enqueued.append)
    real, seen = runner.report_aside, []

    def spy(db, job_id, token, total):  # noqa: ANN001, ANN202
        report = real(db, job_id, token, total)

        def reported(done: int) -> None:
            report(done)
            with UnitOfWork(db) as w:  # another connection: committed, visible
                seen.append((done, w.session.get(Job, job_id).done))
        return reported

    monkeypatch.setattr(runner, "report_aside", spy)
    with demo_on_postgresql(tmp_path) as (app, _result):
        _c, pay_url, expected, tok = _prepared(app)
        _c.post(pay_url + "/confirmar", data={"csrf_token": tok, "expected_total": expected})
        (job_id,) = enqueued
        with app.app_context():
            job = runner.run(database(), job_id)
        pid = int(pay_url.rsplit("/", 1)[1])
        with app_uow(app) as w:
            items = w.session.get(BillPayment, pid).items
        assert job.status == "succeeded" and job.done == items
        assert len(seen) == -(-items // 5) and all(done == read for done, read in seen)
        assert seen[-1][0] == items
        assert _counts(app, f"bill-payment-{pid}") == (1, items, 1)
        queue.reset()


def test_through_the_queue_the_job_runs_and_the_page_offers_to_pay(demo_app: Flask,
                                                                   monkeypatch) -> None:
    """The real enqueue (Huey, in immediate mode: the task runs at once, as a worker
    would): the click's job runs, and the payment's page offers the link to pay."""
    from portal.lenders import bill_start
    from portal.models import Job
    monkeypatch.setattr(bill_start, "INLINE_MAX", 3)
    with demo_app.app_context():
        queue.use_immediate(database())
    try:
        c, pay_url, expected, tok = _prepared(demo_app)
        r = c.post(pay_url + "/confirmar", data={"csrf_token": tok,
                                                 "expected_total": expected})
        assert r.status_code == 303
        body = c.get(pay_url).get_data(as_text=True)
        assert 'id="pay-continue"' in body and "Listo para pagar" in body
        with app_uow(demo_app) as w:
            job = w.session.scalar(select(Job).where(Job.kind == bill_start.KIND))
            assert (job.status, job.attempts, job.active_key) == ("succeeded", 1, None)
    finally:
        queue.reset()
