"""Making a large bill file, and preparing a large bill payment, out of the request
(DESIGN.md 7), as `bill_start` starts a large payment.

Three kinds of job, each one step (one transaction: all or nothing), its progress written
aside as each batch of loans is read (`report`, the runner's `report_aside`):

- "lender.bill_file": the bill file page's "make" (`bills.todays` or `bills.make`, the
  lender's row locked first: one file per bank, year and day, however often it runs);
- "lender.bill_prepare": a file's "pay" of its filtered lines (`bills.prepare`);
- "lender.bill_loans": the loans page's "pay the filtered set" (`portfolio.loans_to_pay`,
  a file of just those loans, `bills.make(only=...)`, and its whole payment prepared), or
  its "pay for a list of loan numbers" (`listed`: the numbers loaded by `load_list` into
  `loan_number_lists` in chunks, the file made of the loans they join).

The click submits the job (the one already queued or running for the same input if there
is one: clicking twice gives one job) and its page shows the progress, then lands on the
file or the payment. A file or a payment is made exactly once per job: the step writes
what it made on the job's own row (`Job.result`) in the same transaction, so a run that
takes over from a worker that died after that commit finds it and makes nothing more; a
run that died inside the transaction wrote nothing.

At most `INLINE_MAX` loans are made or prepared within the click, as before: about
0.3 ms a loan, a quarter of a second, the same wait as `bill_start.INLINE_MAX` payments.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import and_, func, select

from portal import clock
from portal.accounts import audit, bulk
from portal.accounts.errors import NotFound
from portal.db import Database, UnitOfWork
from portal.jobs import runner
from portal.lenders import bills, portfolio
from portal.lenders.batches import _sender
from portal.models import Job, Loan, LoanNumberList, Parcel

FILE = "lender.bill_file"
PREPARE = "lender.bill_prepare"
LOANS = "lender.bill_loans"
KINDS = (FILE, PREPARE, LOANS)
#: At most this many loans are made into a file, or prepared, within the click.
INLINE_MAX = 1000
#: The daily task that deletes the lists of loan numbers left behind (`purge_lists`).
LISTS_TASK = "lenders.loan_lists"
#: A list no job has used up is deleted this many Puerto Rico days after it was uploaded.
LIST_DAYS = 7
LIST_DELETED = "lender.loan_list_deleted"

_QUERY_FIELDS = ("q", "status", "municipality", "due_min", "due_max", "due_within",
                 "certification", "notice", "notice_within", "sort", "desc")


def file_size(uow: UnitOfWork, who: Any) -> int:
    """How many loans a bill file of the lender's loans in force today reads."""
    s = _sender(uow, who)
    return int(uow.session.scalar(
        select(func.count()).select_from(Loan).join(Parcel, Parcel.id == Loan.parcel_id)
        .where(*bills._active(s.lender_id, clock.today()))) or 0)


def prepare_size(uow: UnitOfWork, who: Any, file_id: int, flt: bills.Filters) -> int:
    """How many lines a payment of the file's filtered lines owed reads."""
    f = bills.get(uow, who, file_id)
    sub = bills._lines(f.id, bills.Filters(flt.q, flt.by, owed=True)).subquery()
    return int(uow.session.scalar(select(func.count()).select_from(sub)) or 0)


def query_params(query: portfolio.Query) -> dict[str, Any]:
    """The loans page's filters as a job's input (JSON: amounts as text)."""
    out: dict[str, Any] = {}
    for name in _QUERY_FIELDS:
        v = getattr(query, name)
        out[name] = str(v) if isinstance(v, Decimal) else v
    return out


def query_of(params: dict[str, Any]) -> portfolio.Query:
    values = {k: params.get(k) for k in _QUERY_FIELDS}
    for name in ("due_min", "due_max"):
        values[name] = Decimal(values[name]) if values[name] not in (None, "") else None
    return portfolio.Query(**{k: v for k, v in values.items() if v is not None})


def load_list(uow: UnitOfWork, who: Any, numbers: Sequence[str]) -> tuple[str, list[str]]:
    """The list of these loan numbers kept for the lender, loaded `bills.BATCH` at a time
    (the same list twice: kept once), and the numbers that are not among the lender's
    loans (nothing is said about anyone else's): (its key, those numbers)."""
    s = _sender(uow, who)
    wanted = sorted(dict.fromkeys(n.strip() for n in numbers if n.strip()))
    key = hashlib.sha256("\n".join([str(s.lender_id), *wanted]).encode()).hexdigest()
    kept = uow.session.scalar(select(func.count()).select_from(LoanNumberList).where(
        LoanNumberList.list_key == key))
    if not kept:
        for i in range(0, len(wanted), bills.BATCH):
            bulk.insert_rows(uow, LoanNumberList, [
                {"list_key": key, "lender_id": s.lender_id, "loan_number": n,
                 "created_at": clock.now()} for n in wanted[i:i + bills.BATCH]])
    unknown = list(uow.session.scalars(
        select(LoanNumberList.loan_number)
        .outerjoin(Loan, and_(Loan.loan_number == LoanNumberList.loan_number,
                              Loan.lender_id == s.lender_id))
        .where(LoanNumberList.list_key == key, Loan.id.is_(None))
        .order_by(LoanNumberList.loan_number).limit(21)))
    return key, unknown


def listed(uow: UnitOfWork, who: Any, key: str) -> tuple[Any, dict[str, Any], int]:
    """The lender's loans in force on a kept list (`load_list`): (a statement of their ids,
    its parameters, how many), as `portfolio.loans_to_pay` gives them."""
    s = _sender(uow, who)
    chosen = (select(Loan.id).join(LoanNumberList, and_(
        LoanNumberList.loan_number == Loan.loan_number, LoanNumberList.list_key == key))
        .where(*bills._active(s.lender_id, clock.today())))
    count = uow.session.scalar(select(func.count()).select_from(chosen.subquery()))
    return chosen, {}, int(count or 0)


def drop_list(uow: UnitOfWork, lender_id: int, key: str, why: str, **after: Any) -> int:
    """Delete a kept list of loan numbers (its bill file is done, or it is past
    `LIST_DAYS`), audited (`lender.loan_list_deleted`, the system's); how many numbers."""
    rows = uow.session.execute(
        LoanNumberList.__table__.delete().where(LoanNumberList.list_key == key,
                                                LoanNumberList.lender_id == int(lender_id)))
    deleted = int(rows.rowcount or 0)
    if deleted:
        audit.record(uow, None, LIST_DELETED, object_type=LoanNumberList.__tablename__,
                     object_id=key[:40], after={"list_key": key, "lender_id": int(lender_id),
                                                "numbers": deleted, "why": why, **after})
    return deleted


def pay_list_now(uow: UnitOfWork, who: Any, key: str) -> tuple[int, int] | None:
    """`pay_now` for a kept list within the click, the list deleted with it (the file of
    just those loans is made, so the numbers are needed no more)."""
    chosen, params, count = listed(uow, who, key)
    ids = pay_now(uow, who, (chosen, params)) if count else None
    drop_list(uow, _sender(uow, who).lender_id, key, "done")
    return ids


def purge_lists(database: Database, day: date, *, days: int = LIST_DAYS) -> dict[str, int]:
    """The daily backstop (`LISTS_TASK`): the lists uploaded `days` or more Puerto Rico days
    before `day` (a job that failed, a click that never came back), each deleted and
    audited; a list a job still queued or running reads is kept until it ends.
    Idempotent: a second call finds none left."""
    cutoff = datetime.combine(day - timedelta(days=days - 1), time.min, tzinfo=clock.PR_TZ)
    with UnitOfWork(database) as w:
        s = w.session
        in_use = {str((p or {}).get("list")) for p in s.scalars(
            select(Job.params).where(Job.kind == LOANS, Job.active_key.is_not(None)))}
        old = s.execute(select(LoanNumberList.lender_id, LoanNumberList.list_key)
                        .group_by(LoanNumberList.lender_id, LoanNumberList.list_key)
                        .having(func.max(LoanNumberList.created_at) < cutoff)
                        .order_by(LoanNumberList.list_key)).all()
        lists = numbers = kept = 0
        for lender_id, key in old:
            if key in in_use:
                kept += 1
                continue
            numbers += drop_list(w, lender_id, key, "retention", days=days)
            lists += 1
    return {"lists_deleted": lists, "numbers_deleted": numbers, "lists_in_use": kept}


def _chosen(uow: UnitOfWork, who: Any, params: dict[str, Any]
            ) -> tuple[Any, dict[str, Any], int]:
    if params.get("list"):
        return listed(uow, who, str(params["list"]))
    return portfolio.loans_to_pay(uow, who, query_of(params))


def _filters(params: dict[str, Any]) -> bills.Filters:
    return bills.Filters(q=params.get("q") or "", by=runner.optional_date(params.get("by")),
                         owed=bool(params.get("owed")))


def _sized(job: Job, size: int) -> Job:
    """The job, its total the size seen at the click until its run counts it again."""
    if job.total is None:
        job.total = size
    return job


def _owned(uow: UnitOfWork, who: Any, params: dict[str, Any]) -> dict[str, Any]:
    """The job's input with the lender it is made for: part of its identity
    (`runner.checksum`, `Job.active_key`), so two banks asking with the same input get a
    job each, and what `job_of` shows it to (every user of that lender)."""
    return {**params, "lender_id": _sender(uow, who).lender_id}


def submit_file(uow: UnitOfWork, who: Any, *, fiscal_year: str, due_by: date | None,
                size: int) -> Job:
    return _sized(runner.submit(uow, who, FILE, _owned(uow, who, {
        "fiscal_year": fiscal_year, "due_by": due_by.isoformat() if due_by else None})), size)


def submit_prepare(uow: UnitOfWork, who: Any, file_id: int, flt: bills.Filters, *,
                   size: int) -> Job:
    return _sized(runner.submit(uow, who, PREPARE, _owned(uow, who, {
        "file_id": int(file_id), "q": flt.q, "by": flt.by.isoformat() if flt.by else None,
        "owed": bool(flt.owed)})), size)


def submit_loans(uow: UnitOfWork, who: Any, query: portfolio.Query, *, size: int) -> Job:
    return _sized(runner.submit(uow, who, LOANS, _owned(uow, who, query_params(query))),
                  2 * size)


def submit_list(uow: UnitOfWork, who: Any, key: str, *, size: int) -> Job:
    """The job for the list: the one still waiting for it if there is one (the same file
    sent twice, one job); but a job that has already made its file (the list deleted, the
    job not yet ended) is not this upload's: the list sent again then gets a job of its own
    (`again`: 1, 2... in its input), never the ended one's result."""
    params = _owned(uow, who, {"list": key})
    for again in range(1, 100):
        active = uow.session.scalar(select(Job).where(
            Job.active_key == runner.checksum(LOANS, params)))
        if active is None or not active.result:
            break
        params = {**params, "again": again}
    return _sized(runner.submit(uow, who, LOANS, params), 2 * size)


def pay_now(uow: UnitOfWork, who: Any, chosen: tuple[Any, dict[str, Any]],
            progress: Callable[[int], None] | None = None, count: int = 0
            ) -> tuple[int, int] | None:
    """A file of the chosen loans, due by today, and its whole payment prepared: (the
    file's id, the payment's id); None, and nothing kept, when nothing is due on them."""
    with uow.session.begin_nested() as sp:
        f = bills.make(uow, who, due_by=clock.today(), only=chosen, progress=progress)
        pay = bills.prepare(uow, who, f.id, bills.Filters(),
                            progress=None if progress is None else (
                                lambda n: progress(count + n)))
        if pay.items == 0:
            sp.rollback()
            return None
        return f.id, pay.id


def job_of(uow: UnitOfWork, who: Any, job_id: Any) -> Job:
    """One of these jobs made for the lender `who` works for, whoever of its users started
    it (NotFound for another lender's, anyone else's, or another kind)."""
    try:
        job = uow.session.get(Job, int(job_id))
    except (TypeError, ValueError):
        raise NotFound() from None
    if job is None or job.kind not in KINDS:
        raise NotFound()
    s = _sender(uow, who)
    owner = (job.params or {}).get("lender_id")
    if owner is None:  # queued before the input named its lender: its starter's only
        if job.created_by_id != s.user_id:
            raise NotFound()
    elif int(owner) != s.lender_id:
        raise NotFound()
    return job


class Making:
    """The job's work: one step, the whole file or payment (see the module); `report` is
    set by the runner (the loans read so far, on a connection of its own)."""

    report: Callable[[int], None] | None = None

    def __init__(self, kind: str, user: Any, params: dict[str, Any]):
        self.kind, self.user, self.params = kind, user, params
        self.result: dict[str, Any] = {}
        self.job_id: int | None = None
        self.total = 0

    def _job(self, uow: UnitOfWork) -> Job | None:
        return uow.session.scalar(select(Job).where(
            Job.active_key == runner.checksum(self.kind, self.params)))

    def begin(self, uow: UnitOfWork) -> int:
        if self.user is None:
            raise NotFound()
        _same_lender(uow, self.user, self.params)
        job = self._job(uow)
        self.job_id = job.id if job is not None else None
        self.result = dict(job.result or {}) if job is not None else {}
        if self.kind == FILE:
            self.total = file_size(uow, self.user)
        elif self.kind == PREPARE:
            self.total = prepare_size(uow, self.user, int(self.params["file_id"]),
                                      _filters(self.params))
        else:
            self.total = 2 * _chosen(uow, self.user, self.params)[2]
        return self.total

    def _progress(self, base: int) -> Callable[[int], None] | None:
        report = self.report
        return None if report is None else (lambda n: report(base + n))

    def step(self, uow: UnitOfWork) -> int:
        if self.result:  # made by a run that died after its commit: nothing more
            return 0
        made: dict[str, Any] = {}
        if self.kind == FILE:
            due_by = runner.optional_date(self.params.get("due_by"))
            fy = self.params.get("fiscal_year") or None
            f = bills.todays(uow, self.user, fiscal_year=fy, due_by=due_by, lock=True)
            f = f or bills.make(uow, self.user, fiscal_year=fy, due_by=due_by,
                                progress=self._progress(0))
            made = {"file_id": f.id}
        elif self.kind == PREPARE:
            pay = bills.prepare(uow, self.user, int(self.params["file_id"]),
                                _filters(self.params), progress=self._progress(0))
            made = {"file_id": pay.file_id, "payment_id": pay.id}
        else:
            chosen, params, count = _chosen(uow, self.user, self.params)
            ids = pay_now(uow, self.user, (chosen, params), self._progress(0), count) \
                if count else None
            made = {"nothing": True} if ids is None else {"file_id": ids[0],
                                                          "payment_id": ids[1]}
            if self.params.get("list"):  # its file is made: the numbers go with the step
                drop_list(uow, _sender(uow, self.user).lender_id, str(self.params["list"]),
                          "done", job_id=self.job_id)
        if self.job_id is not None:  # kept with the job, in the same transaction
            job = uow.session.get(Job, self.job_id)
            if job is not None:
                job.result = made
        self.result = made
        return max(self.total, 1)

    def finish(self, uow: UnitOfWork) -> Making:
        return self

    def job_result(self) -> dict[str, Any]:
        return dict(self.result)


def _same_lender(uow: UnitOfWork, user: Any, params: dict[str, Any]) -> None:
    """A job made for a lender runs only for a user who still acts for it."""
    if "lender_id" in params and int(params["lender_id"]) != _sender(uow, user).lender_id:
        raise NotFound()


def _runnable_file(uow: UnitOfWork, user: Any, params: dict[str, Any]) -> None:
    _same_lender(uow, user, params)
    bills.todays(uow, user, fiscal_year=params.get("fiscal_year") or None,
                 due_by=runner.optional_date(params.get("due_by")))


def _runnable_prepare(uow: UnitOfWork, user: Any, params: dict[str, Any]) -> None:
    _same_lender(uow, user, params)
    bills.get(uow, user, params.get("file_id"))


def _runnable_loans(uow: UnitOfWork, user: Any, params: dict[str, Any]) -> None:
    _same_lender(uow, user, params)
    s = _sender(uow, user)
    if params.get("list") and not uow.session.scalar(select(LoanNumberList.id).where(
            LoanNumberList.list_key == str(params["list"]),
            LoanNumberList.lender_id == s.lender_id).limit(1)):
        raise NotFound()


runner.register(FILE, lambda user, params: Making(FILE, user, params), _runnable_file,
                lender=True)
runner.register(PREPARE, lambda user, params: Making(PREPARE, user, params),
                _runnable_prepare, lender=True)
runner.register(LOANS, lambda user, params: Making(LOANS, user, params), _runnable_loans,
                lender=True)

__all__ = ["FILE", "INLINE_MAX", "KINDS", "LIST_DAYS", "LIST_DELETED", "LISTS_TASK", "LOANS",
           "PREPARE", "Making", "drop_list", "file_size", "job_of", "listed", "load_list",
           "pay_list_now", "pay_now", "prepare_size", "purge_lists", "query_of",
           "query_params", "submit_file", "submit_list", "submit_loans", "submit_prepare"]
