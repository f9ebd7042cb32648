"""Making a large bill file, and preparing a large bill payment (from the file or from the
loans page's filtered set), leave the request: the click queues a job (the same job when
clicked twice), its page shows the progress (a polite live region, no reload by itself)
and then lands on the file or the payment; a worker that dies midway leaves one file or
one payment once another worker takes the job over. Small ones stay in the click. The
clock is the demo's day, moved on past the runner's STALE for the takeover."""

from __future__ import annotations

from datetime import timedelta

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
    """The demo, a job above 3 loans; the queue only records what is enqueued."""
    from portal.lenders import bill_jobs
    monkeypatch.setattr(bill_jobs, "INLINE_MAX", 3)
    record_queue(demo_app, monkeypatch)
    yield demo_app
    queue.reset()


def _signed_in(app: Flask, lang: str):  # noqa: ANN202
    c = login(app, "lender")
    tok = csrf_token(c.get("/prestamista/facturas").get_data(as_text=True))
    if lang == "en":
        c.post("/idioma", data={"csrf_token": tok, "lang": "en"})
    return c, tok


def _count(app: Flask, model) -> int:  # noqa: ANN001
    with app_uow(app) as w:
        return w.session.scalar(select(func.count()).select_from(model))


def _progress_page(c, url: str, lang: str) -> None:  # noqa: ANN001
    body = c.get(url).get_data(as_text=True)
    assert ("Waiting to start" if lang == "en" else "En espera") in body
    assert 'data-live-active="true"' in body and 'role="status" id="live-status"' in body
    assert 'http-equiv="refresh"' not in body  # never reloaded by itself
    assert " 0 of 0 " not in body and " 0 de 0 " not in body  # the size seen at the click
    assert ("Pause the updates" if lang == "en" else "Pausar") in body


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_large_bill_file_is_made_by_a_job_then_its_page_opens(app: Flask, lang: str) -> None:
    from portal.models import BillFile, Job
    c, tok = _signed_in(app, lang)
    before = _count(app, BillFile)
    r = c.post("/prestamista/facturas", data={"csrf_token": tok, "due_by": ""})
    assert r.status_code == 303 and "/prestamista/facturas/trabajos/" in r.headers["Location"]
    job_url = r.headers["Location"]
    again = c.post("/prestamista/facturas", data={"csrf_token": tok, "due_by": ""})
    assert again.headers["Location"] == job_url  # one job for both clicks
    (job_id, same) = app.config["ENQUEUED"]
    assert same == job_id and _count(app, BillFile) == before  # nothing made in the click
    _progress_page(c, job_url, lang)
    with app.app_context():
        job = runner.run(database(), job_id)
    assert (job.kind, job.status, job.done, job.total) == ("lender.bill_file", "succeeded",
                                                           job.total, job.total)
    assert job.total > 3 and _count(app, BillFile) == before + 1
    r = c.get(job_url)
    assert r.status_code == 303 and r.headers["Location"].endswith(
        f"/prestamista/facturas/{job.result['file_id']}")
    # Asked again the same day: the day's file, not another one.
    r = c.post("/prestamista/facturas", data={"csrf_token": tok, "due_by": ""})
    with app.app_context():
        job2 = runner.run(database(), app.config["ENQUEUED"][-1])
    assert job2.result == job.result and _count(app, BillFile) == before + 1
    with app_uow(app) as w:
        assert w.session.get(Job, job_id).created_by_id is not None
    # Another lender's user, or an owner, sees nothing of it.
    assert login(app, "owner").get(job_url).status_code == 404


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_large_payment_is_prepared_by_a_job_then_its_page_opens(app: Flask,
                                                                   lang: str) -> None:
    from portal.lenders import bill_jobs
    from portal.models import BillPayment
    c, tok = _signed_in(app, lang)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(bill_jobs, "INLINE_MAX", 10**6)
        file_url = c.post("/prestamista/facturas",
                          data={"csrf_token": tok, "due_by": ""}).headers["Location"]
    r = c.post(file_url + "/pagar", data={"csrf_token": tok})
    assert r.status_code == 303 and "/trabajos/" in r.headers["Location"]
    job_url = r.headers["Location"]
    assert c.post(file_url + "/pagar", data={"csrf_token": tok}).headers["Location"] == job_url
    assert _count(app, BillPayment) == 0
    _progress_page(c, job_url, lang)
    with app.app_context():
        job = runner.run(database(), app.config["ENQUEUED"][0])
    assert job.status == "succeeded" and _count(app, BillPayment) == 1
    r = c.get(job_url)
    assert r.headers["Location"].endswith(f"{file_url}/pagos/{job.result['payment_id']}")
    body = c.get(r.headers["Location"]).get_data(as_text=True)
    assert 'id="pay-confirm"' in body


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_loans_pages_large_set_is_prepared_by_a_job(app: Flask, lang: str) -> None:
    from portal.models import BillFile, BillPayment
    c, tok = _signed_in(app, lang)
    r = c.post("/prestamista/pagar", data={"csrf_token": tok})
    assert r.status_code == 303 and "/trabajos/" in r.headers["Location"]
    job_url = r.headers["Location"]
    assert c.post("/prestamista/pagar", data={"csrf_token": tok}).headers["Location"] == job_url
    assert (_count(app, BillFile), _count(app, BillPayment)) == (0, 0)
    _progress_page(c, job_url, lang)
    with app.app_context():
        job = runner.run(database(), app.config["ENQUEUED"][0])
    assert job.kind == "lender.bill_loans" and job.status == "succeeded"
    assert (_count(app, BillFile), _count(app, BillPayment)) == (1, 1)
    r = c.get(job_url)
    assert r.status_code == 303 and r.headers["Location"].endswith(
        f"/prestamista/facturas/{job.result['file_id']}/pagos/{job.result['payment_id']}")


def test_a_small_set_stays_in_the_click(app: Flask) -> None:
    from portal.lenders import bill_jobs
    c, tok = _signed_in(app, "es")
    with pytest.MonkeyPatch.context() as m:
        m.setattr(bill_jobs, "INLINE_MAX", 10**6)
        r = c.post("/prestamista/pagar", data={"csrf_token": tok})
    assert "/pagos/" in r.headers["Location"] and app.config["ENQUEUED"] == []


def test_one_payment_when_the_worker_dies(app: Flask, monkeypatch) -> None:
    """Killed inside the transaction: nothing was written. Killed after it committed,
    before the job ended: the run that takes it over finds the payment kept on the job and
    makes no other (one file, one payment)."""
    from portal.lenders import bill_jobs, bills
    from portal.models import BillFile, BillLine, BillPayment, BillPaymentItem
    c, tok = _signed_in(app, "es")
    job_url = c.post("/prestamista/pagar", data={"csrf_token": tok}).headers["Location"]
    (job_id,) = app.config["ENQUEUED"]
    real_prepare = bills.prepare

    def dies_after_writing(*a, **kw):  # noqa: ANN002, ANN003, ANN202
        real_prepare(*a, **kw)
        raise Died()

    monkeypatch.setattr(bills, "prepare", dies_after_writing)
    with app.app_context(), pytest.raises(Died):
        runner.run(database(), job_id)
    monkeypatch.setattr(bills, "prepare", real_prepare)
    assert [_count(app, m) for m in (BillFile, BillLine, BillPayment)] == [0, 0, 0]

    def dies_at_the_end(self, uow):  # noqa: ANN001, ANN202
        raise Died()

    monkeypatch.setattr(bill_jobs.Making, "finish", dies_at_the_end)
    with clock.fixed(clock.now() + runner.STALE + timedelta(seconds=1)), \
            app.app_context(), pytest.raises(Died):
        assert job_id in runner.recover(database())
        runner.run(database(), job_id)
    counts = [_count(app, m) for m in (BillFile, BillPayment, BillPaymentItem)]
    assert counts[:2] == [1, 1]
    monkeypatch.undo()
    record_queue(app, monkeypatch)
    with clock.fixed(clock.now() + 2 * runner.STALE + timedelta(seconds=2)), \
            app.app_context():
        assert job_id in runner.recover(database())
        job = runner.run(database(), job_id)
        assert runner.run(database(), job_id) is None  # ended: nothing more
    assert (job.status, job.attempts) == ("succeeded", 3)
    assert [_count(app, m) for m in (BillFile, BillPayment, BillPaymentItem)] == counts
    with app_uow(app) as w:
        pay = w.session.scalar(select(BillPayment))
        assert job.result == {"file_id": pay.file_id, "payment_id": pay.id}
    assert c.get(job_url).headers["Location"].endswith(f"/pagos/{pay.id}")


def _numbers(app: Flask) -> list[str]:
    """The demo bank's loan numbers in force."""
    from portal.lenders.batches import _sender
    from portal.models import Loan, User
    with app_uow(app) as w:
        s = _sender(w, w.session.scalar(select(User).where(User.email == "lender@demo.pr")))
        return list(w.session.scalars(select(Loan.loan_number).where(
            Loan.lender_id == s.lender_id, Loan.ends_on.is_(None)).order_by(Loan.loan_number)))


def _upload(c, tok: str, numbers: list[str]):  # noqa: ANN001, ANN202
    import io
    data = ("Préstamo\r\n" + "\r\n".join(numbers) + "\r\n").encode("utf-8-sig")
    return c.post("/prestamista/pagar/archivo", data={
        "csrf_token": tok, "file": (io.BytesIO(data), "loans.csv")},
        content_type="multipart/form-data")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_long_list_of_loan_numbers_is_paid_by_the_bill_path(app: Flask, lang: str) -> None:
    """No ceiling: the numbers are kept as a list (loaded in chunks), a file of just those
    loans is made and its payment prepared, by a job when long; the same file twice is the
    same job."""
    from portal.models import BillLine, BillPayment, LoanNumberList
    c, tok = _signed_in(app, lang)
    numbers = _numbers(app)
    assert len(numbers) > 3
    r = _upload(c, tok, numbers)
    assert r.status_code == 303 and "/trabajos/" in r.headers["Location"]
    job_url = r.headers["Location"]
    assert _upload(c, tok, list(reversed(numbers))).headers["Location"] == job_url
    assert _count(app, LoanNumberList) == len(numbers)  # kept once
    _progress_page(c, job_url, lang)
    with app.app_context():
        job = runner.run(database(), app.config["ENQUEUED"][0])
    assert job.status == "succeeded" and _count(app, BillPayment) == 1
    assert _count(app, BillLine) == len(numbers)
    assert _count(app, LoanNumberList) == 0  # its file made: the list deleted with it
    r = c.get(job_url)
    assert r.headers["Location"].endswith(f"/pagos/{job.result['payment_id']}")
    from portal.lenders import bill_jobs
    from portal.models import AuditRecord
    with app_uow(app) as w:
        (rec,) = w.session.scalars(select(AuditRecord).where(
            AuditRecord.action == bill_jobs.LIST_DELETED))
        assert (rec.after["numbers"], rec.after["why"], rec.after["job_id"]) == (
            len(numbers), "done", job.id)


def test_a_list_over_the_old_ceiling_names_the_unknown_numbers(app: Flask) -> None:
    from portal.models import LoanNumberList
    c, tok = _signed_in(app, "en")
    numbers = _numbers(app)[:2] + [f"NOT-MINE-{i:04d}" for i in range(250)]
    r = _upload(c, tok, numbers)
    assert r.status_code == 303 and r.headers["Location"].endswith("/prestamista/prestamos")
    text = c.get(r.headers["Location"]).get_data(as_text=True)
    assert "NOT-MINE-0000" in text and "NOT-MINE-0019" in text and "NOT-MINE-0020" not in text
    assert "one payment covers at most" not in text
    assert _count(app, LoanNumberList) == 0  # nothing kept
    # A list under the limit stays in the click.
    from portal.lenders import bill_jobs
    with pytest.MonkeyPatch.context() as m:
        m.setattr(bill_jobs, "INLINE_MAX", 10**6)
        r = _upload(c, tok, _numbers(app))
    assert "/pagos/" in r.headers["Location"] and app.config["ENQUEUED"] == []
    assert _count(app, LoanNumberList) == 0  # paid within the click: deleted with it


def test_on_postgresql_the_progress_is_written_aside_and_one_file_is_made(
        tmp_path, monkeypatch) -> None:  # noqa: ANN001
    """PostgreSQL: the step's transaction holds the lender's row while its progress is
    written on a connection of its own as each batch is read (it must not wait on itself),
    and the job ends with the one file of the day; a second job of the same day answers
    that file. A list of loan numbers is paid by the same path."""
    from portal.lenders import bill_jobs, bills
    from portal.models import BillFile
    from tests.support.app import demo_on_postgresql
    monkeypatch.setattr(bill_jobs, "INLINE_MAX", 3)
    monkeypatch.setattr(bills, "BATCH", 10)
    with demo_on_postgresql(tmp_path) as (app, _result):
        record_queue(app, monkeypatch)
        c, tok = _signed_in(app, "en")
        r = c.post("/prestamista/facturas", data={"csrf_token": tok, "due_by": ""})
        with app.app_context():
            job = runner.run(database(), app.config["ENQUEUED"][0])
        assert job.status == "succeeded" and job.done == job.total > 10
        assert _count(app, BillFile) == 1
        assert c.get(r.headers["Location"]).headers["Location"].endswith(
            f"/prestamista/facturas/{job.result['file_id']}")
        c.post("/prestamista/facturas", data={"csrf_token": tok, "due_by": ""})
        with app.app_context():
            again = runner.run(database(), app.config["ENQUEUED"][-1])
        assert again.result == job.result and _count(app, BillFile) == 1
        # A list of loan numbers, loaded into its table, joined, paid: one payment.
        from portal.models import BillPayment
        r = _upload(c, tok, _numbers(app))
        with app.app_context():
            paid = runner.run(database(), app.config["ENQUEUED"][-1])
        assert paid.status == "succeeded" and _count(app, BillPayment) == 1
        assert c.get(r.headers["Location"]).headers["Location"].endswith(
            f"/pagos/{paid.result['payment_id']}")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_failed_job_says_so_and_offers_the_way_back(app: Flask, monkeypatch,
                                                      lang: str) -> None:
    from portal.accounts.errors import ServiceError
    from portal.lenders import bills
    from portal.models import BillFile
    c, tok = _signed_in(app, lang)
    job_url = c.post("/prestamista/facturas",
                     data={"csrf_token": tok, "due_by": ""}).headers["Location"]

    def refuses(*a, **kw):  # noqa: ANN002, ANN003, ANN202
        raise ServiceError("broken")

    monkeypatch.setattr(bills, "make", refuses)
    with app.app_context():
        job = runner.run(database(), app.config["ENQUEUED"][0])
    assert job.status == "failed" and _count(app, BillFile) == 0
    r = c.get(job_url)
    body = r.get_data(as_text=True)
    assert r.status_code == 200 and 'data-live-active="false"' in body
    assert ("It could not be done" if lang == "en" else "No se pudo completar") in body
    assert '<a href="/prestamista/facturas" id="job-back">' in body


def _colleague_and_other_bank(app: Flask) -> tuple[str, str]:
    """A clerk of the demo bank (user00002) and the administrator of a second bank with four
    loans of its own (user00001, so its file is a job too): their emails."""
    from portal.models import Lender, Loan, Parcel, PartyMember, User
    from tests.support.lenders import second_lender
    with app_uow(app) as w:
        s = w.session
        demo = s.scalar(select(Lender).order_by(Lender.id).limit(1))
        clerk = s.scalar(select(User).where(User.email == "user00002@demo.pr"))
        s.add(PartyMember(party_id=demo.party_id, user_id=clerk.id, role="employee"))
        bank_b, _admin = second_lender(w, "user00001@demo.pr")
        for k, pid in enumerate(s.scalars(select(Parcel.id).order_by(Parcel.id).limit(4))):
            s.add(Loan(lender_id=bank_b.id, parcel_id=pid, loan_number=f"BB-{k}",
                       starts_on=clock.today() - timedelta(days=400)))
    return "user00002@demo.pr", "user00001@demo.pr"


def test_a_job_is_its_banks_every_users_and_no_other_banks(app: Flask) -> None:
    """A colleague at the same bank follows the job another started (its page, then the
    file); another bank asking with the same input gets a job of its own (the lender is
    part of the job's identity), and neither bank sees the other's: 404 both ways."""
    from portal.models import BillFile, Job, Lender
    colleague_email, other_email = _colleague_and_other_bank(app)
    c, tok = _signed_in(app, "es")
    job_a = c.post("/prestamista/facturas",
                   data={"csrf_token": tok, "due_by": ""}).headers["Location"]
    colleague = login(app, colleague_email)
    _progress_page(colleague, job_a, "es")
    other = login(app, other_email)
    other_tok = csrf_token(other.get("/prestamista/facturas").get_data(as_text=True))
    r = other.post("/prestamista/facturas", data={"csrf_token": other_tok, "due_by": ""})
    assert r.status_code == 303 and "/trabajos/" in r.headers["Location"]
    job_b = r.headers["Location"]
    assert job_b != job_a and len(set(app.config["ENQUEUED"])) == 2
    assert other.get(job_a).status_code == 404
    assert c.get(job_b).status_code == 404 and colleague.get(job_b).status_code == 404
    _progress_page(other, job_b, "es")
    with app.app_context():
        done = {runner.run(database(), i).id: None for i in app.config["ENQUEUED"][:2]}
    with app_uow(app) as w:
        files = {j.id: w.session.get(BillFile, j.result["file_id"]).lender_id
                 for j in w.session.scalars(select(Job).where(Job.id.in_(done)))}
        lenders = list(w.session.scalars(select(Lender.id).order_by(Lender.id)))
    assert sorted(files.values()) == lenders[:2]  # each bank's job made its own bank's file
    r = colleague.get(job_a)
    assert r.status_code == 303 and "/prestamista/facturas/" in r.headers["Location"]
    assert colleague.get(r.headers["Location"]).status_code == 200
    assert other.get(job_a).status_code == 404 and c.get(job_b).status_code == 404


def test_a_job_made_for_one_bank_does_not_run_for_another(app: Flask) -> None:
    """The input names the lender; a user acting for another lender is refused it."""
    from portal.accounts.errors import NotFound
    from portal.lenders import bill_jobs
    from portal.models import User
    _colleague, other_email = _colleague_and_other_bank(app)
    with app_uow(app) as w:
        lender_user = w.session.scalar(select(User).where(User.email == "lender@demo.pr"))
        other = w.session.scalar(select(User).where(User.email == other_email))
        job = bill_jobs.submit_file(w, lender_user, fiscal_year="", due_by=None, size=10)
        params = dict(job.params)
        with pytest.raises(NotFound):
            runner.CHECKS[bill_jobs.FILE](w, other, params)
        with pytest.raises(NotFound):
            bill_jobs.Making(bill_jobs.FILE, other, params).begin(w)


def test_the_lists_left_behind_are_deleted_after_seven_days(app: Flask) -> None:
    """The daily backstop (`lenders.loan_lists`, the worker's day's work): a list no job
    used up (its job failed, say) is deleted on the seventh Puerto Rico day after its
    upload, audited, not before; a list a job still queued reads is kept; a second run
    finds nothing."""
    from datetime import date

    import portal.domains  # noqa: F401 - registers the day's tasks
    from portal.jobs import daily
    from portal.lenders import bill_jobs
    from portal.models import AuditRecord, LoanNumberList, User
    from tests.support.clock import at
    assert daily.TASKS[bill_jobs.LISTS_TASK] is bill_jobs.purge_lists
    numbers = _numbers(app)
    uploaded = date(2026, 11, 20)
    with app_uow(app) as w, clock.fixed(at(uploaded, 23, 59)):
        user = w.session.scalar(select(User).where(User.email == "lender@demo.pr"))
        left, _ = bill_jobs.load_list(w, user, numbers[:3])
        queued, _ = bill_jobs.load_list(w, user, numbers[3:6])
        job = bill_jobs.submit_list(w, user, queued, size=3)
    with app_uow(app) as w, clock.fixed(at(uploaded + timedelta(days=3))):
        recent, _ = bill_jobs.load_list(w, user, numbers[6:8])
    with app.app_context():
        assert bill_jobs.purge_lists(database(), uploaded + timedelta(days=6)) == {
            "lists_deleted": 0, "numbers_deleted": 0, "lists_in_use": 0}
        assert _count(app, LoanNumberList) == 8
        assert daily.run_all(database(), uploaded + timedelta(days=7))[
            bill_jobs.LISTS_TASK] == {"lists_deleted": 1, "numbers_deleted": 3,
                                      "lists_in_use": 1}
    with app_uow(app) as w:
        kept = set(w.session.scalars(select(LoanNumberList.list_key)))
        assert kept == {queued, recent}
        (rec,) = w.session.scalars(select(AuditRecord).where(
            AuditRecord.action == bill_jobs.LIST_DELETED))
        assert rec.actor_id is None and rec.after == {
            "list_key": left, "lender_id": rec.after["lender_id"], "numbers": 3,
            "why": "retention", "days": 7}
        w.session.get(type(job), job.id).active_key = None  # its job ended (failed)
    with app.app_context():
        assert bill_jobs.purge_lists(database(), uploaded + timedelta(days=8))[
            "lists_deleted"] == 1
        assert bill_jobs.purge_lists(database(), uploaded + timedelta(days=10)) == {
            "lists_deleted": 1, "numbers_deleted": 2, "lists_in_use": 0}
        assert bill_jobs.purge_lists(database(), uploaded + timedelta(days=10))[
            "lists_deleted"] == 0
    assert _count(app, LoanNumberList) == 0


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_same_list_uploaded_again_is_processed_again_never_a_404(app: Flask,
                                                                      lang: str) -> None:
    """The same CSV of loan numbers a second time: while its job waits, the same job; once
    its file and payment are made (and the list deleted), a new job from the figures of
    now, whose page shows its progress and then the new payment; a list whose loans owe
    nothing says so in the words of a file (not of the loans page's filters)."""
    from portal.models import BillLine, BillPayment
    c, tok = _signed_in(app, lang)
    numbers = _numbers(app)
    first = _upload(c, tok, numbers).headers["Location"]
    assert _upload(c, tok, numbers).headers["Location"] == first  # still waiting: one job
    with app.app_context():
        runner.run(database(), app.config["ENQUEUED"][-1])
    r = _upload(c, tok, numbers)
    assert r.status_code == 303 and "/trabajos/" in r.headers["Location"]
    again = r.headers["Location"]
    assert again != first
    _progress_page(c, again, lang)
    with app.app_context():
        job = runner.run(database(), app.config["ENQUEUED"][-1])
    assert job.status == "succeeded" and _count(app, BillPayment) == 2
    r = c.get(again)
    assert r.status_code == 303 and r.headers["Location"].endswith(
        f"/pagos/{job.result['payment_id']}")
    assert c.get(r.headers["Location"]).status_code == 200
    with app_uow(app) as w:  # the loans that owe nothing now
        paid_up = sorted(w.session.scalars(select(BillLine.loan_number).where(
            BillLine.file_id == job.result["file_id"], BillLine.amount == 0)))
    assert len(paid_up) > 3
    for _time in range(2):
        where = _upload(c, tok, paid_up).headers["Location"]
        with app.app_context():
            done = runner.run(database(), app.config["ENQUEUED"][-1])
        assert done is None or done.result == {"nothing": True}
        r = c.get(where)
        body = r.get_data(as_text=True)
        assert r.status_code == 200 and 'data-live-active="false"' in body
        assert ("Nothing is due now on the loans the file names." if lang == "en" else
                "Los préstamos que nombra el archivo no adeudan nada ahora.") in body
        assert "filters" not in body and "filtros" not in body


def test_a_list_sent_again_while_its_ended_job_closes_gets_a_job_of_its_own(app: Flask) -> None:
    """The window between a list's job making its file (the list deleted, its result kept,
    in one transaction) and the job's end: the same list uploaded then is kept again and
    gets a new job, which makes its own file; it never lands on the first job (whose file
    is of the figures before) nor waits for the seven-day cleanup."""
    from portal.lenders import bill_jobs
    from portal.models import BillPayment, Job, LoanNumberList, User
    c, tok = _signed_in(app, "en")
    numbers = _numbers(app)
    first = _upload(c, tok, numbers).headers["Location"]
    first_id = app.config["ENQUEUED"][-1]
    with app_uow(app) as w:  # the job's step commits; the job has not ended yet
        job = w.session.get(Job, first_id)
        user = w.session.scalar(select(User).where(User.email == "lender@demo.pr"))
        making = bill_jobs.Making(bill_jobs.LOANS, user, dict(job.params))
        making.begin(w)
        making.step(w)
    with app_uow(app) as w:
        job = w.session.get(Job, first_id)
        assert job.active_key is not None and job.result.get("payment_id")
    assert _count(app, LoanNumberList) == 0
    again = _upload(c, tok, numbers).headers["Location"]
    assert again != first and "/trabajos/" in again
    assert _count(app, LoanNumberList) == len(numbers)  # kept again, for the new job
    second_id = app.config["ENQUEUED"][-1]
    assert second_id != first_id
    with app.app_context():
        done = runner.run(database(), second_id)
    assert done.status == "succeeded" and done.result.get("payment_id")
    assert done.result["payment_id"] != job.result["payment_id"]
    assert _count(app, BillPayment) == 2 and _count(app, LoanNumberList) == 0
