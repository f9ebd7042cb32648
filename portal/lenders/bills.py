"""A lender's bill file: for a fiscal year, optionally only what falls due on or
before a day, what is due on each of its loans in force, as the account's offer says it
(`core.bill.line`: the amount through the last installment covered, its last timely day,
the lump sum when eligible), kept (`bill_files`, `bill_lines`) so that a payment later can
say what changed since.

- `make` reads the lender's loans in force by id, `BATCH` at a time (keyset, constant
  memory), each batch's accounts' facts in a few statements (`facts.load_many(rows=True)`,
  the demands in one), and writes the batch's lines in one statement (`bulk.insert_rows`).
- `lines_page`, `lines_csv` (streamed, `BATCH` at a time, every cell through
  `csv_text.safe_cell`) read the kept lines, filtered (`Filters`).
- `to_pay` computes, for the filtered lines owed on the file, today's line by the same core
  path and the payments posted since the file, and sorts them into what to pay (today's
  amount, "installments through N", the payments' own choice) and the exceptions report:
  paid by the lender since, paid by the owner (or anyone else), paid otherwise, the amount
  changed (paid at today's amount), the loan no longer in force (`core.bill.exception`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy import func, or_, select

from portal import clock, csv_text
from portal.accounts import audit, bulk, statements
from portal.accounts.errors import InvalidInput, NotFound
from portal.accounts.facts import load_many
from portal.core import bill as core_bill
from portal.core import payment_states as states
from portal.core.explain import N_
from portal.core.money import ZERO
from portal.db import Database, UnitOfWork
from portal.i18n import translate, use_language
from portal.lenders.batches import _sender
from portal.models import (
    BillFile,
    BillLine,
    BillPayment,
    BillPaymentException,
    BillPaymentItem,
    FiscalYear,
    Lender,
    Loan,
    Parcel,
    PartyMember,
    Payment,
)
from portal.models.checkouts import Checkout

BATCH = 500
PER_PAGE = 50
EXCEPTION_LABELS = {
    "paid_by_you": N_("Paid by you since the file was made"),
    "paid_by_owner": N_("Paid by the owner (or someone else) since the file was made"),
    "paid": N_("Nothing is owed any more"),
    "changed": N_("The amount changed since the file was made: paid at today's amount"),
    "ended": N_("No longer one of your loans"),
    "in_progress": N_("A payment is in progress"),
}
CSV_HEADERS = {
    "es": ("numero_prestamo", "catastro", "plazo_hasta", "cantidad_adeudada",
           "ultimo_dia_a_tiempo", "pago_global", "pago_global_hasta"),
    "en": ("loan_number", "catastro", "through_installment", "amount_due",
           "last_timely_day", "lump_sum", "lump_sum_by"),
}


@dataclass(frozen=True)
class Filters:
    q: str = ""  # the start of a loan number or a catastro number
    by: date | None = None  # the last timely day on or before this day
    owed: bool = False  # only lines with something due


def fiscal_years(uow: UnitOfWork) -> list[FiscalYear]:
    return list(uow.session.scalars(select(FiscalYear).order_by(FiscalYear.starts_on)))


def fiscal_year_of(uow: UnitOfWork, label: str | None, today: date) -> FiscalYear:
    """The fiscal year labelled `label` ("2026-2027"), or today's; InvalidInput otherwise."""
    q = select(FiscalYear)
    q = q.where(FiscalYear.label == label) if label else q.where(
        FiscalYear.starts_on <= today, FiscalYear.ends_on >= today)
    fy = uow.session.scalar(q)
    if fy is None:
        raise InvalidInput("unknown_fiscal_year", field="fiscal_year")
    return fy


def _active(lender_id: int, today: date) -> Any:
    return (Loan.lender_id == lender_id, Loan.starts_on <= today,
            or_(Loan.ends_on.is_(None), Loan.ends_on >= today))


def todays(uow: UnitOfWork, who: Any, *, fiscal_year: str | None = None,
           due_by: date | None = None, lock: bool = False) -> BillFile | None:
    """The lender's latest file made today for that year and day, or None (reads only;
    `lock`: the lender's row locked first, so two makers at once make one file)."""
    s = _sender(uow, who)
    today = clock.today()
    fy = fiscal_year_of(uow, fiscal_year, today)
    if due_by is not None and not fy.starts_on <= due_by <= fy.ends_on:
        raise InvalidInput("due_by_outside", field="due_by")
    if lock:
        uow.session.execute(select(Lender.id).where(Lender.id == s.lender_id)
                            .with_for_update()).all()
    return uow.session.scalar(select(BillFile).where(
        BillFile.lender_id == s.lender_id, BillFile.fiscal_year_id == fy.id,
        BillFile.as_of == today,
        BillFile.due_by.is_(None) if due_by is None else BillFile.due_by == due_by)
        .order_by(BillFile.id.desc()).limit(1))


def make(uow: UnitOfWork, who: Any, *, fiscal_year: str | None = None,
         due_by: date | None = None, only: tuple[Any, dict[str, Any]] | None = None,
         progress: Callable[[int], None] | None = None) -> BillFile:
    """The bill file of the lender's loans in force today (see the module); `only`: just
    the loans of this statement of loan ids and its parameters (the loans page's filters,
    `portfolio.loans_to_pay`: a file of source "loans"); `progress(n)`: the loans read so
    far, after each batch."""
    s = _sender(uow, who)
    today = clock.today()
    fy = fiscal_year_of(uow, fiscal_year, today)
    if due_by is not None and not fy.starts_on <= due_by <= fy.ends_on:
        raise InvalidInput("due_by_outside", field="due_by")
    f = BillFile(lender_id=s.lender_id, created_by_id=s.user_id, fiscal_year_id=fy.id,
                 due_by=due_by, as_of=today, lines=0, total=ZERO,
                 source="file" if only is None else "loans")
    chosen, params = (only[0].subquery(), only[1]) if only is not None else (None, {})
    uow.session.add(f)
    uow.session.flush()
    count, total, last, read = 0, ZERO, 0, 0
    while True:
        stmt = (select(Loan.id, Loan.loan_number, Parcel.id, Parcel.catastro)
                .join(Parcel, Parcel.id == Loan.parcel_id)
                .where(*_active(s.lender_id, today), Loan.id > last))
        if chosen is not None:
            stmt = stmt.where(Loan.id.in_(select(chosen.c[0])))
        loans = uow.session.execute(stmt.order_by(Loan.id).limit(BATCH), params).all()
        if not loans:
            break
        last = loans[-1][0]
        pids = sorted({r[2] for r in loans})
        facts = load_many(uow, pids, fy, rows=True)
        demands = statements.demands_of(uow, pids, fy.id)
        values = []
        for lid, number, pid, catastro in loans:
            fa = facts.get(pid)
            if fa is None or fa.assessment is None:
                continue
            offer = fa.offer(today, key=f"{pid}-{fy.id}", label=catastro,
                             demand=demands.get(pid), with_later=False)
            ln = core_bill.line(offer, due_by)
            values.append({"file_id": f.id, "loan_id": lid, "parcel_id": pid,
                           "loan_number": number, "catastro": catastro,
                           "through": ln.through, "amount": ln.amount,
                           "last_timely_day": ln.last_timely_day, "lump_sum": ln.lump_sum,
                           "lump_sum_by": ln.lump_sum_by})
            count += 1
            total += ln.amount
        if values:
            bulk.insert_rows(uow, BillLine, values)
        read += len(loans)
        if progress is not None:
            progress(read)
        uow.session.expunge_all()
        f = uow.session.get(BillFile, f.id)
    f.lines, f.total = count, total
    audit.record(uow, s.user_id, "lender.bill_file_made", f,
                 after={"fiscal_year": fy.label, "due_by": due_by, "lines": count,
                        "total": str(total), "token_id": s.token_id, "source": f.source})
    return f


def _number(value: Any) -> int:
    """A row's number as asked (a path's text); NotFound when it is none."""
    try:
        return int(value)
    except (TypeError, ValueError):
        raise NotFound() from None


def get(uow: UnitOfWork, who: Any, file_id: Any) -> BillFile:
    s = _sender(uow, who)
    f = uow.session.get(BillFile, _number(file_id))
    if f is None or f.lender_id != s.lender_id:
        raise NotFound()
    return f


def recent(uow: UnitOfWork, who: Any, limit: int = 10) -> list[tuple[BillFile, str]]:
    s = _sender(uow, who)
    return [(f, label) for f, label in uow.session.execute(
        select(BillFile, FiscalYear.label).join(FiscalYear,
                                                FiscalYear.id == BillFile.fiscal_year_id)
        .where(BillFile.lender_id == s.lender_id)
        .order_by(BillFile.id.desc()).limit(limit))]


def fiscal_year_label(uow: UnitOfWork, f: BillFile) -> str:
    return uow.session.scalar(select(FiscalYear.label).where(
        FiscalYear.id == f.fiscal_year_id)) or ""


def _lines(file_id: int, flt: Filters) -> Any:
    q = select(BillLine).where(BillLine.file_id == file_id)
    if flt.q:
        like = flt.q.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        q = q.where(or_(BillLine.loan_number.like(like, escape="\\"),
                        BillLine.catastro.like(like, escape="\\")))
    if flt.by is not None:
        q = q.where(BillLine.last_timely_day <= flt.by)
    if flt.owed:
        q = q.where(BillLine.amount > 0)
    return q


@dataclass(frozen=True)
class LinesPage:
    lines: list[BillLine]
    count: int
    total: Decimal
    owed: int  # lines with something due
    page: int
    pages: int


def lines_page(uow: UnitOfWork, who: Any, file_id: int, flt: Filters, page: int = 1,
               per_page: int = PER_PAGE) -> LinesPage:
    """A page of the file's lines by loan number, with the filtered set's count, total and
    lines owed (SQL aggregates over the same statement)."""
    f = get(uow, who, file_id)
    sub = _lines(f.id, flt).subquery()
    count, total, owed = uow.session.execute(select(
        func.count(), func.coalesce(func.sum(sub.c.amount), 0),
        func.count().filter(sub.c.amount > 0)).select_from(sub)).one()
    pages = max(1, -(-int(count) // per_page))
    rows = list(uow.session.scalars(_lines(f.id, flt).order_by(
        BillLine.loan_number, BillLine.id).offset((page - 1) * per_page).limit(per_page)))
    return LinesPage(rows, int(count), Decimal(total).quantize(Decimal("0.01")), int(owed),
                     page, pages)


def _cell(v: Any) -> Any:
    return "" if v is None else v.isoformat() if isinstance(v, date) else v


def lines_csv(uow: UnitOfWork, who: Any, file_id: int, flt: Filters, lang: str
              ) -> Iterator[str]:
    """The filtered lines, streamed `BATCH` at a time (keyset by loan number and id)."""
    f = get(uow, who, file_id)

    def records() -> Iterator[list[Any]]:
        last: tuple[str, int] = ("", 0)
        while True:
            chunk = uow.session.execute(
                _lines(f.id, flt).with_only_columns(
                    BillLine.loan_number, BillLine.id, BillLine.catastro, BillLine.through,
                    BillLine.amount, BillLine.last_timely_day, BillLine.lump_sum,
                    BillLine.lump_sum_by)
                .where(or_(BillLine.loan_number > last[0],
                           (BillLine.loan_number == last[0]) & (BillLine.id > last[1])))
                .order_by(BillLine.loan_number, BillLine.id).limit(BATCH)).all()
            if not chunk:
                return
            for number, _id, cat, through, amount, by, lump, lump_by in chunk:
                yield [number, cat, _cell(through), amount, _cell(by), _cell(lump),
                       _cell(lump_by)]
            last = (chunk[-1][0], chunk[-1][1])

    return csv_text.csv_lines(CSV_HEADERS.get(lang, CSV_HEADERS["es"]), records())


@dataclass(frozen=True)
class Exception_:
    line: BillLine
    code: str
    now: Decimal  # what is owed on the line today


@dataclass(frozen=True)
class ToPay:
    choices: list[tuple[int, int, int, Decimal]]  # (parcel id, fiscal year id, through, amount)
    exceptions: list[Exception_]
    billed: Decimal  # the billed amounts of the lines paid
    total: Decimal  # today's amounts of the lines paid


@dataclass(frozen=True)
class _Batch:
    choices: list[tuple[int, int, int, Decimal]]
    exceptions: list[Exception_]
    billed: Decimal
    lines: int = 0  # the lines read so far, this batch's included


def _walk(uow: UnitOfWork, who: Any, f: BillFile, flt: Filters) -> Iterator[_Batch]:
    """The filtered lines owed on the file, `BATCH` at a time (keyset by loan number and
    id): each batch's accounts to pay (today's line by the core) and its exceptions."""
    s = _sender(uow, who)
    today = clock.today()
    fy = uow.session.get(FiscalYear, f.fiscal_year_id)
    fid, fy_id, due_by, made_at = f.id, fy.id, f.due_by, f.created_at
    members = set(uow.session.scalars(
        select(PartyMember.user_id).join(Lender, Lender.party_id == PartyMember.party_id)
        .where(Lender.id == s.lender_id)))
    flt = Filters(flt.q, flt.by, owed=True)
    seen: set[int] = set()
    last: tuple[str, int] = ("", 0)
    read = 0
    while True:
        lines = list(uow.session.scalars(
            _lines(fid, flt).where(or_(BillLine.loan_number > last[0],
                                       (BillLine.loan_number == last[0])
                                       & (BillLine.id > last[1])))
            .order_by(BillLine.loan_number, BillLine.id).limit(BATCH)))
        if not lines:
            return
        last = (lines[-1].loan_number, lines[-1].id)
        pids = sorted({ln.parcel_id for ln in lines})
        in_force = set(uow.session.scalars(select(Loan.id).where(
            Loan.id.in_([ln.loan_id for ln in lines]), *_active(s.lender_id, today))))
        fy = uow.session.get(FiscalYear, fy_id)
        facts = load_many(uow, pids, fy, rows=True)
        demands = statements.demands_of(uow, pids, fy_id)
        paid: dict[int, set[str]] = {}
        for pid, uid in uow.session.execute(
                select(Payment.parcel_id, Payment.user_id).where(
                    Payment.parcel_id.in_(pids), Payment.fiscal_year_id == fy_id,
                    Payment.status.in_(sorted(states.APPLIED)),
                    Payment.created_at > made_at)):
            paid.setdefault(pid, set()).add("you" if uid in members else "other")
        batch = _Batch([], [], ZERO)
        for ln in lines:
            if ln.loan_id not in in_force:
                batch.exceptions.append(Exception_(ln, "ended", ZERO))
                continue
            fa = facts.get(ln.parcel_id)
            if fa is None or fa.assessment is None:
                batch.exceptions.append(Exception_(ln, "paid", ZERO))
                continue
            offer = fa.offer(today, key=f"{ln.parcel_id}-{fy_id}", label=ln.catastro,
                             demand=demands.get(ln.parcel_id), with_later=False)
            now = core_bill.line(offer, due_by)
            who_paid = paid.get(ln.parcel_id, set())
            code = core_bill.exception(ln.amount, ln.through, now,
                                       paid_by_you="you" in who_paid,
                                       paid_by_other="other" in who_paid)
            if code not in (None, "changed"):
                batch.exceptions.append(Exception_(ln, code, now.amount))
                continue
            if code == "changed":
                batch.exceptions.append(Exception_(ln, code, now.amount))
            if ln.parcel_id in seen:  # two loans on one parcel: its account is paid once
                continue
            seen.add(ln.parcel_id)
            batch.choices.append((ln.parcel_id, fy_id, int(now.through), now.amount))
            batch = _Batch(batch.choices, batch.exceptions, batch.billed + ln.amount)
        read += len(lines)
        yield _Batch(batch.choices, batch.exceptions, batch.billed, read)
        uow.session.expunge_all()


def to_pay(uow: UnitOfWork, who: Any, file_id: int, flt: Filters) -> ToPay:
    """What to pay of the filtered lines owed on the file, and the exceptions (see the
    module), in memory: `prepare` writes the same a batch at a time."""
    f = get(uow, who, file_id)
    choices: list[tuple[int, int, int, Decimal]] = []
    exceptions: list[Exception_] = []
    billed = ZERO
    for b in _walk(uow, who, f, flt):
        choices += b.choices
        exceptions += b.exceptions
        billed += b.billed
    return ToPay(choices, exceptions, billed, sum((c[3] for c in choices), ZERO))


def prepare(uow: UnitOfWork, who: Any, file_id: int, flt: Filters, *,
            progress: Callable[[int], None] | None = None) -> BillPayment:
    """One payment of the file's filtered lines owed (the whole file when unfiltered),
    kept: its items and its exceptions report written `BATCH` lines at a time (memory flat
    in the file's size); started later by `start`. `progress(n)`: the lines read so far,
    after each batch."""
    f = get(uow, who, file_id)
    s = _sender(uow, who)
    pay = BillPayment(file_id=f.id, created_by_id=s.user_id, q=flt.q, by=flt.by,
                      as_of=clock.today(), items=0, exceptions=0, billed=ZERO, total=ZERO)
    uow.session.add(pay)
    uow.session.flush()
    pid = pay.id
    items = excs = 0
    billed = total = ZERO
    for b in _walk(uow, who, f, flt):
        if b.choices:
            bulk.insert_rows(uow, BillPaymentItem, [
                {"payment_id": pid, "parcel_id": p, "fiscal_year_id": fy, "through": n,
                 "amount": a} for p, fy, n, a in b.choices])
        if b.exceptions:
            bulk.insert_rows(uow, BillPaymentException, [
                {"payment_id": pid, "loan_id": e.line.loan_id,
                 "loan_number": e.line.loan_number, "catastro": e.line.catastro,
                 "billed": e.line.amount, "now": e.now, "code": e.code}
                for e in b.exceptions])
        items += len(b.choices)
        excs += len(b.exceptions)
        if progress is not None:
            progress(b.lines)
        billed += b.billed
        total += sum((c[3] for c in b.choices), ZERO)
    pay = uow.session.get(BillPayment, pid)
    pay.items, pay.exceptions, pay.billed, pay.total = items, excs, billed, total
    audit.record(uow, s.user_id, "lender.bill_payment_prepared", pay,
                 after={"file_id": file_id, "items": items, "exceptions": excs,
                        "total": str(total)})
    return pay


def payment_of(uow: UnitOfWork, who: Any, file_id: int, payment_id: Any) -> BillPayment:
    """A prepared payment of the lender's file; NotFound otherwise."""
    f = get(uow, who, file_id)
    pay = uow.session.get(BillPayment, _number(payment_id))
    if pay is None or pay.file_id != f.id:
        raise NotFound()
    return pay


@dataclass(frozen=True)
class ExceptionsPage:
    rows: list[BillPaymentException]
    page: int
    pages: int


def exceptions_page(uow: UnitOfWork, who: Any, file_id: int, payment_id: int, page: int = 1,
                    per_page: int = PER_PAGE) -> ExceptionsPage:
    pay = payment_of(uow, who, file_id, payment_id)
    pages = max(1, -(-pay.exceptions // per_page))
    rows = list(uow.session.scalars(
        select(BillPaymentException).where(BillPaymentException.payment_id == pay.id)
        .order_by(BillPaymentException.loan_number, BillPaymentException.id)
        .offset((page - 1) * per_page).limit(per_page)))
    return ExceptionsPage(rows, page, pages)


EXCEPTIONS_HEADERS = {
    "es": ("numero_prestamo", "catastro", "cantidad_en_archivo", "cantidad_hoy", "excepcion"),
    "en": ("loan_number", "catastro", "amount_in_file", "amount_today", "exception"),
}


def stored_exceptions_csv(uow: UnitOfWork, who: Any, file_id: int, payment_id: int,
                          lang: str) -> Iterator[str]:
    """A prepared payment's exceptions report as kept, streamed `BATCH` rows at a time."""
    pay = payment_of(uow, who, file_id, payment_id)
    pid = pay.id

    def records() -> Iterator[list[Any]]:
        last: tuple[str, int] = ("", 0)
        while True:
            chunk = uow.session.execute(
                select(BillPaymentException.loan_number, BillPaymentException.id,
                       BillPaymentException.catastro, BillPaymentException.billed,
                       BillPaymentException.now, BillPaymentException.code)
                .where(BillPaymentException.payment_id == pid,
                       or_(BillPaymentException.loan_number > last[0],
                           (BillPaymentException.loan_number == last[0])
                           & (BillPaymentException.id > last[1])))
                .order_by(BillPaymentException.loan_number, BillPaymentException.id)
                .limit(BATCH)).all()
            if not chunk:
                return
            with use_language(lang):
                for number, _id, cat, billed, now, code in chunk:
                    yield [number, cat, billed, now, exception_text(code)]
            last = (chunk[-1][0], chunk[-1][1])

    return csv_text.csv_lines(EXCEPTIONS_HEADERS["en" if lang == "en" else "es"], records())


def items_of(uow: UnitOfWork, payment_id: int) -> Iterator[list[BillPaymentItem]]:
    """A prepared payment's items, `BATCH` at a time, in parcel id order (the order the
    accounts are locked in)."""
    last = 0
    while True:
        chunk = list(uow.session.scalars(
            select(BillPaymentItem).where(BillPaymentItem.payment_id == payment_id,
                                          BillPaymentItem.parcel_id > last)
            .order_by(BillPaymentItem.parcel_id).limit(BATCH)))
        if not chunk:
            return
        last = chunk[-1].parcel_id
        yield chunk


def still_priced(uow: UnitOfWork, fy_id: int, due_by: date | None,
                 items: list[BillPaymentItem]) -> bool:
    """Each item's account still owes the same through the same installment today (the
    core's line, as when prepared)."""
    today = clock.today()
    fy = uow.session.get(FiscalYear, fy_id)
    pids = sorted({i.parcel_id for i in items})
    facts = load_many(uow, pids, fy, rows=True)
    demands = statements.demands_of(uow, pids, fy_id)
    for i in items:
        fa = facts.get(i.parcel_id)
        if fa is None or fa.assessment is None:
            return False
        offer = fa.offer(today, key=f"{i.parcel_id}-{fy_id}", label="",
                         demand=demands.get(i.parcel_id), with_later=False)
        now = core_bill.line(offer, due_by)
        if now.through != i.through or now.amount != i.amount:
            return False
    return True


class Changed(Exception):
    """A prepared payment that may not be started as it is: prepared another day, a total
    not the one reviewed, already started, or an item changed since (prepare it again)."""


#: A prepared payment's items as the checkout takes them: (parcel id, fiscal year id,
#: installments through, amount).
Item = tuple[int, int, int, Decimal]


@dataclass(frozen=True)
class Start:
    """How to start a prepared payment (`payments.service.start_many` takes each part):
    its checkout's key and total, its items a batch at a time (`Changed` when one no longer
    holds) and what to record once its checkout is written; or the checkout it already has,
    still open (`open`: its id and address)."""

    key: str
    total: Decimal
    batches: Callable[[UnitOfWork], Iterator[list[Item]]]
    created: Callable[[UnitOfWork, int], None]
    open: tuple[int, str] | None = None


def to_start(database: Database, who: Any, file_id: int, payment_id: int, *,
             expected_total: Decimal | None) -> Start:
    """Start the prepared payment: its items in parcel id order (the order the accounts are
    locked in), each checked again against today's offer and the loans still in force as
    the checkout is written. `Changed` when prepared another day, when the total reviewed is
    not the payment's, or when it was started and its checkout is no longer open (one
    written whose provider session is not open yet is started again: `start_many` opens
    it)."""
    with database.unit_of_work() as uow:
        pay = payment_of(uow, who, file_id, payment_id)
        f = get(uow, who, file_id)
        s = _sender(uow, who)
        pid, total, fy_id, due_by, lender_id = pay.id, pay.total, f.fiscal_year_id, \
            f.due_by, s.lender_id
        opened: tuple[int, str] | None = None
        if pay.checkout_id is not None:
            chk = uow.session.get(Checkout, pay.checkout_id)
            if chk is None or chk.status not in states.OPEN:
                raise Changed()
            if chk.checkout_url:
                opened = (chk.id, chk.checkout_url)
            # else: written, its provider session not opened yet: `start_many` opens it
        elif pay.as_of != clock.today() or expected_total != pay.total or pay.items == 0:
            raise Changed()

    def batches(uow: UnitOfWork) -> Iterator[list[Item]]:
        today = clock.today()
        for items in items_of(uow, pid):
            lent = set(uow.session.scalars(select(Loan.parcel_id).where(
                Loan.parcel_id.in_([i.parcel_id for i in items]), *_active(lender_id, today))))
            if any(i.parcel_id not in lent for i in items) or not still_priced(
                    uow, fy_id, due_by, items):
                raise Changed()
            yield [(i.parcel_id, i.fiscal_year_id, i.through, i.amount) for i in items]

    def created(uow: UnitOfWork, checkout_id: int) -> None:
        pay = uow.session.get(BillPayment, pid)
        pay.checkout_id = checkout_id
        audit.record(uow, who, "lender.bill_payment_started", pay,
                     after={"checkout_id": checkout_id, "total": str(total)})

    return Start(f"bill-payment-{pid}", total, batches, created, opened)


def exception_text(code: str) -> str:
    return translate(EXCEPTION_LABELS.get(code, EXCEPTION_LABELS["paid"]))


def exceptions_csv(report: ToPay, lang: str) -> Iterator[str]:
    head = EXCEPTIONS_HEADERS["en" if lang == "en" else "es"]
    with use_language(lang):
        rows = [[e.line.loan_number, e.line.catastro, e.line.amount, e.now,
                 exception_text(e.code)] for e in report.exceptions]
    return csv_text.csv_lines(head, rows)


__all__ = ["BATCH", "EXCEPTION_LABELS", "Changed", "ExceptionsPage", "Filters", "Item",
           "LinesPage", "Start", "ToPay", "exception_text", "exceptions_csv",
           "exceptions_page", "fiscal_year_of", "fiscal_years", "get", "items_of",
           "lines_csv", "lines_page", "make", "payment_of", "prepare", "recent",
           "still_priced", "stored_exceptions_csv", "to_pay", "to_start", "todays"]
