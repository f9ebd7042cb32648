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

from collections.abc import Iterator
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
from portal.db import UnitOfWork
from portal.i18n import translate, use_language
from portal.lenders.batches import _sender
from portal.models import (
    BillFile,
    BillLine,
    FiscalYear,
    Lender,
    Loan,
    Parcel,
    PartyMember,
    Payment,
)

BATCH = 500
PER_PAGE = 50
#: One payment covers at most this many loans (the payments' review lists each one).
MAX_PAY = 200
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


def make(uow: UnitOfWork, who: Any, *, fiscal_year: str | None = None,
         due_by: date | None = None, reuse: bool = False) -> BillFile:
    """The bill file of the lender's loans in force today (see the module). `reuse`: the
    lender's file of today for the same year and day if there is one (the API's GET)."""
    s = _sender(uow, who)
    today = clock.today()
    fy = fiscal_year_of(uow, fiscal_year, today)
    if due_by is not None and not fy.starts_on <= due_by <= fy.ends_on:
        raise InvalidInput("due_by_outside", field="due_by")
    if reuse:
        found = uow.session.scalar(select(BillFile).where(
            BillFile.lender_id == s.lender_id, BillFile.fiscal_year_id == fy.id,
            BillFile.as_of == today,
            BillFile.due_by.is_(None) if due_by is None else BillFile.due_by == due_by)
            .order_by(BillFile.id.desc()).limit(1))
        if found is not None:
            return found
    f = BillFile(lender_id=s.lender_id, created_by_id=s.user_id, fiscal_year_id=fy.id,
                 due_by=due_by, as_of=today, lines=0, total=ZERO)
    uow.session.add(f)
    uow.session.flush()
    count, total, last = 0, ZERO, 0
    while True:
        loans = uow.session.execute(
            select(Loan.id, Loan.loan_number, Parcel.id, Parcel.catastro)
            .join(Parcel, Parcel.id == Loan.parcel_id)
            .where(*_active(s.lender_id, today), Loan.id > last)
            .order_by(Loan.id).limit(BATCH)).all()
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
        uow.session.expunge_all()
        f = uow.session.get(BillFile, f.id)
    f.lines, f.total = count, total
    audit.record(uow, s.user_id, "lender.bill_file_made", f,
                 after={"fiscal_year": fy.label, "due_by": due_by, "lines": count,
                        "total": str(total), "token_id": s.token_id})
    return f


def get(uow: UnitOfWork, who: Any, file_id: Any) -> BillFile:
    s = _sender(uow, who)
    try:
        fid = int(file_id)
    except (TypeError, ValueError):
        raise NotFound() from None
    f = uow.session.get(BillFile, fid)
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
    too_many: bool = False


def to_pay(uow: UnitOfWork, who: Any, file_id: int, flt: Filters) -> ToPay:
    """What to pay of the filtered lines owed on the file, and the exceptions (see the
    module), `BATCH` lines at a time."""
    f = get(uow, who, file_id)
    s = _sender(uow, who)
    today = clock.today()
    fy = uow.session.get(FiscalYear, f.fiscal_year_id)
    members = set(uow.session.scalars(
        select(PartyMember.user_id).join(Lender, Lender.party_id == PartyMember.party_id)
        .where(Lender.id == s.lender_id)))
    flt = Filters(flt.q, flt.by, owed=True)
    choices: list[tuple[int, int, int, Decimal]] = []
    exceptions: list[Exception_] = []
    billed = total = ZERO
    seen: set[int] = set()
    last: tuple[str, int] = ("", 0)
    while True:
        lines = list(uow.session.scalars(
            _lines(f.id, flt).where(or_(BillLine.loan_number > last[0],
                                        (BillLine.loan_number == last[0])
                                        & (BillLine.id > last[1])))
            .order_by(BillLine.loan_number, BillLine.id).limit(BATCH)))
        if not lines:
            break
        last = (lines[-1].loan_number, lines[-1].id)
        pids = sorted({ln.parcel_id for ln in lines})
        in_force = set(uow.session.scalars(select(Loan.id).where(
            Loan.id.in_([ln.loan_id for ln in lines]), *_active(s.lender_id, today))))
        facts = load_many(uow, pids, fy, rows=True)
        demands = statements.demands_of(uow, pids, fy.id)
        paid: dict[int, set[str]] = {}
        for pid, uid in uow.session.execute(
                select(Payment.parcel_id, Payment.user_id).where(
                    Payment.parcel_id.in_(pids), Payment.fiscal_year_id == fy.id,
                    Payment.status.in_(sorted(states.APPLIED)),
                    Payment.created_at > f.created_at)):
            paid.setdefault(pid, set()).add("you" if uid in members else "other")
        for ln in lines:
            if ln.loan_id not in in_force:
                exceptions.append(Exception_(ln, "ended", ZERO))
                continue
            fa = facts.get(ln.parcel_id)
            if fa is None or fa.assessment is None:
                exceptions.append(Exception_(ln, "paid", ZERO))
                continue
            offer = fa.offer(today, key=f"{ln.parcel_id}-{fy.id}", label=ln.catastro,
                             demand=demands.get(ln.parcel_id), with_later=False)
            now = core_bill.line(offer, f.due_by)
            who_paid = paid.get(ln.parcel_id, set())
            code = core_bill.exception(ln.amount, ln.through, now,
                                       paid_by_you="you" in who_paid,
                                       paid_by_other="other" in who_paid)
            if code not in (None, "changed"):
                exceptions.append(Exception_(ln, code, now.amount))
                continue
            if code == "changed":
                exceptions.append(Exception_(ln, code, now.amount))
            if ln.parcel_id in seen:  # two loans on one parcel: its account is paid once
                continue
            seen.add(ln.parcel_id)
            choices.append((ln.parcel_id, fy.id, int(now.through), now.amount))
            billed += ln.amount
            total += now.amount
        uow.session.expunge_all()
    return ToPay(choices, exceptions, billed, total, too_many=len(choices) > MAX_PAY)


def exception_text(code: str) -> str:
    return translate(EXCEPTION_LABELS.get(code, EXCEPTION_LABELS["paid"]))


def exceptions_csv(report: ToPay, lang: str) -> Iterator[str]:
    head = {"es": ("numero_prestamo", "catastro", "cantidad_en_archivo", "cantidad_hoy",
                   "excepcion"),
            "en": ("loan_number", "catastro", "amount_in_file", "amount_today",
                   "exception")}[lang if lang == "en" else "es"]
    with use_language(lang):
        rows = [[e.line.loan_number, e.line.catastro, e.line.amount, e.now,
                 exception_text(e.code)] for e in report.exceptions]
    return csv_text.csv_lines(head, rows)


__all__ = ["BATCH", "EXCEPTION_LABELS", "MAX_PAY", "Filters", "LinesPage", "ToPay",
           "exception_text", "exceptions_csv", "fiscal_year_of", "fiscal_years", "get",
           "lines_csv", "lines_page", "make", "recent", "to_pay"]
