"""Collections (J9): the delinquency run, the demands' mailing and return receipt, the list of
claims that can go to court, the claims filed, and the owner's collection timeline.

The run (R-A12, R-A17) is a background job (`collections.run`, `Run`): for every account
delinquent after day G on the run's day, a demand `Notice` (kind "demand": all amounts then
due) and its `DemandLetter` (what it demanded, by category, as of that day). It reads the
accounts a batch at a time by parcel id (`id > last ORDER BY id LIMIT CHUNK`: never a list of
every parcel), each batch in its own transaction with the job's progress (all or nothing per
batch); re-running the same day creates nothing twice (one letter per account and run day;
an account whose delinquent installments an earlier demand already listed gets no new one:
R-A18, new delinquencies get new demands).

The mailing (certified-mail number, date, its postage as an R-A9 cost) and the return
receipt are recorded on the notice (`portal.collections.mailing`); the 15 days run from
mailing (R-A13); from the day after the rolled last day a demand not paid is on the court
list until staff records the claim filed (`CourtClaim`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy import Integer, bindparam, func, or_, select

from portal import clock, csv_text, date_input, mail, money_input
from portal.accounts import access, audit, closed_days, facts, in_force, notice_emails
from portal.accounts.errors import Conflict, InvalidInput, NotFound
from portal.accounts.statements import cut_records
from portal.collections import letters, mailing
from portal.config import mail_settings
from portal.core.collection import Demand, may_be_demanded, under_demand_minimum
from portal.core.collection_timeline import Timeline, interest_per_day, timeline
from portal.core.deadlines import deadline, demand_mailing
from portal.core.offer import demand_stop
from portal.core.statement import Statement
from portal.db import UnitOfWork
from portal.i18n import LOCALES
from portal.jobs import runner
from portal.models import (
    Assessment,
    CourtClaim,
    DemandLetter,
    FiscalYear,
    Job,
    Lease,
    Notice,
    OwnershipShare,
    Parcel,
    ParcelLink,
    Party,
    User,
)

#: Accounts per batch (one transaction, one step of the job).
CHUNK = 500
#: Rows the staff's lists show at most per page.
PAGE = 50
KIND = "collections.run"
STATUSES = ("queued", "mailed", "received", "claimable", "claimed", "paid")
#: Who may see a demand letter besides staff: the payer and the owner (R-A17: the payer, with
#: a copy to the owner) and whom the owner delegated; not a lender.
LETTER_RELATIONS = ("staff", "owner", "lessee", "delegate")
#: Who may run collections and record mailings, receipts and claims: every staff role but
#: read-only (docs/STAFF.md); every staff role sees the lists.
COLLECT = (access.ADMINISTRATOR, access.REVIEWER, access.CASHIER)


def _fiscal_year(uow: UnitOfWork, on: date) -> FiscalYear:
    fy = uow.session.scalar(select(FiscalYear).where(FiscalYear.starts_on <= on,
                                                     FiscalYear.ends_on >= on))
    if fy is None:
        raise Conflict("no_fiscal_year")
    return fy


def runnable(uow: UnitOfWork, staff: Any, params: dict[str, Any]) -> FiscalYear:
    """What `jobs.submit` checks: staff who may collect (or no one: the scheduled run,
    `runner.submit_scheduled`), a valid day not in the future, a fiscal year on it."""
    if staff is not None:
        access.require_staff_role(staff, *COLLECT)
    run_on = _run_on(params)
    return _fiscal_year(uow, run_on)


def _run_on(params: dict[str, Any]) -> date:
    try:
        run_on = date.fromisoformat(str(params.get("run_on")))
    except ValueError:
        raise InvalidInput("invalid", field="run_on") from None
    if run_on > clock.today():
        raise InvalidInput("invalid", field="run_on")
    return run_on


def demanded_numbers(st: Statement, on: date) -> set[int]:
    """R-A12: the installments a demand dated `on` lists: those past their rolled day G then."""
    return {i.number for i in st.installments if i.last_timely_day < on}


@dataclass
class RunResult:
    run_on: date
    demands: int  # letters of that day, in all (this run and any before it the same day)

    def job_result(self) -> dict[str, Any]:
        return {"run_on": self.run_on.isoformat(), "demands": self.demands}


class Run:
    """R-A12, R-A17: the delinquency run of one day, a batch of accounts per step (module
    doc). `begin` counts the accounts of the fiscal year; each `step` reads the next `CHUNK`
    by parcel id and writes their demands; `finish` counts the day's letters."""

    def __init__(self, staff: Any, run_on: date):
        self.staff = staff
        self.run_on = run_on
        self.job_id: int | None = None
        self.after = 0
        self.fiscal_year_id = 0

    def begin(self, uow: UnitOfWork) -> int:
        fy = runnable(uow, self.staff, {"run_on": self.run_on.isoformat()})
        self.fiscal_year_id = fy.id
        self.after = 0
        # The job this work runs as, when it runs as one (its letters name it).
        self.job_id = uow.session.scalar(select(Job.id).where(
            Job.kind == KIND, Job.status == "running").order_by(Job.id.desc()).limit(1))
        return uow.session.scalar(
            select(func.count(func.distinct(Assessment.parcel_id)))
            .where(Assessment.fiscal_year_id == fy.id)) or 0

    def step(self, uow: UnitOfWork) -> int:
        fy = uow.session.get(FiscalYear, self.fiscal_year_id)
        ids = list(uow.session.scalars(
            select(Assessment.parcel_id).where(Assessment.fiscal_year_id == fy.id,
                                               Assessment.parcel_id > self.after)
            .group_by(Assessment.parcel_id).order_by(Assessment.parcel_id).limit(CHUNK)))
        if not ids:
            return 0
        accounts = facts.load_many(uow, ids, fy)
        minimum = in_force.demand_minimum(uow, fy.starts_on)
        earlier: dict[int, list[Notice]] = {}
        for n in uow.session.scalars(select(Notice).where(
                Notice.parcel_id.in_(ids), Notice.fiscal_year_id == fy.id,
                Notice.kind == "demand")):
            earlier.setdefault(n.parcel_id, []).append(n)
        done_today = set(uow.session.scalars(select(DemandLetter.parcel_id).where(
            DemandLetter.parcel_id.in_(ids), DemandLetter.fiscal_year_id == fy.id,
            DemandLetter.run_on == self.run_on)))
        due: list[tuple[int, Statement, set[int]]] = []
        for pid in ids:
            acct = accounts[pid]
            if acct.assessment is None or pid in done_today:
                continue
            st = acct.evaluate(self.run_on)
            if not may_be_demanded(st.delinquent_principal, st.total_due_now, minimum):
                continue  # R-A17: nothing delinquent, or under the Board's minimum
            delinquent = {i.number for i in st.installments if i.status == "delinquent"}
            covered: set[int] = set()
            for n in earlier.get(pid, []):
                covered |= demanded_numbers(st, n.mailed_on or clock.legal_date(n.created_at))
            if delinquent <= covered:
                continue  # R-A18: an earlier demand listed them all
            due.append((pid, st, delinquent))
        to = _addressees(uow, [pid for pid, *_ in due], self.run_on)
        owners = _owners(uow, [pid for pid, *_ in due], self.run_on)
        closed = closed_days.declared(uow)
        rules = _rules(uow, fy)
        for pid, st, delinquent in due:
            party_id, language = to.get(pid, (None, "es"))
            notice = Notice(parcel_id=pid, fiscal_year_id=fy.id, kind="demand",
                            assessment_id=accounts[pid].assessment.id,
                            addressee_party_id=party_id, language=language,
                            amount=st.total_due_now, created_by_id=getattr(self.staff, "id",
                                                                           None))
            uow.session.add(notice)
            uow.session.flush()
            letter = DemandLetter(
                notice_id=notice.id, parcel_id=pid, fiscal_year_id=fy.id, run_on=self.run_on,
                job_id=self.job_id, interest=st.interest, late_fees=st.late_fees,
                costs=st.costs, delinquent_principal=st.delinquent_principal, credit=st.credit,
                total=st.total_due_now, installments=",".join(str(n) for n in sorted(
                    delinquent)))
            uow.session.add(letter)
            uow.session.flush()
            audit.record(uow, self.staff, "demand.queued", notice,
                         after={**audit.snapshot(notice), "letter": audit.snapshot(letter)})
            _keep_letters(uow, notice, letter, accounts[pid], fy, earlier.get(pid, []),
                          owners.get(pid), closed, rules)
        self.after = ids[-1]
        return len(ids)

    def finish(self, uow: UnitOfWork) -> RunResult:
        count = uow.session.scalar(select(func.count()).select_from(DemandLetter).where(
            DemandLetter.run_on == self.run_on)) or 0
        audit.record(uow, self.staff, "collections.run", object_type="collections",
                     object_id=self.run_on.isoformat(), after={"demands": count})
        return RunResult(self.run_on, count)


def work(staff: Any, params: dict[str, Any]) -> Run:
    """The job kind's work (`jobs.KINDS["collections.run"]`)."""
    return Run(staff, _run_on(params))


def run(uow: UnitOfWork, staff: Any, run_on: date | None = None) -> RunResult:
    """The run start to end in this unit of work (tests; the job runs the same `Run` a batch
    per transaction)."""
    r = Run(staff, run_on or clock.today())
    r.begin(uow)
    while r.step(uow):
        pass
    return r.finish(uow)


def _keep_letters(uow: UnitOfWork, notice: Notice, letter: DemandLetter, acct: Any,
                  fy: FiscalYear, earlier: list[Notice], owner: tuple[int, str] | None,
                  closed: Any, rules: Any) -> None:
    """R-A17: the letter kept as queued, and the owner's copy when another pays."""
    lf = _facts_at_queue(uow, notice, letter, acct, fy, earlier)
    mail_by = demand_mailing(letter.run_on, rules.closed_days)
    _keep(uow, lf, "demand", notice.addressee_party_id, notice.language or "es", mail_by,
          "certified", closed)
    if owner is not None and owner[0] != notice.addressee_party_id:
        _owner_copy(uow, lf, owner, mail_by, closed)


def _owner_copy(uow: UnitOfWork, lf: LetterFacts, owner: tuple[int, str], mail_by: date,
                closed: Any) -> None:
    """R-A17: the copy to the owner (the payer is another): emailed to each owner with
    an account on the parcel, the copy attached; else in the staff's print file."""
    party_id, language = owner
    # An owner who stopped emailed notices (`accounts.notice_emails`) gets the copy on paper.
    accounts_ = list(uow.session.execute(
        select(User.id, User.email, User.language)
        .join(ParcelLink, ParcelLink.user_id == User.id)
        .where(ParcelLink.parcel_id == lf.parcel.id, ParcelLink.role == "owner",
               ParcelLink.revoked_at.is_(None), User.notice_emails_off_at.is_(None))
        .order_by(User.id)))
    payer = lf.addressee.name if lf.addressee else ""
    copy = replace(lf, addressee=uow.session.get(Party, party_id),
                   payer_name=payer or "—", notice_language=language)
    doc = _keep(uow, copy, "owner_copy", party_id, language, mail_by,
                "email" if accounts_ else "print", closed)
    if not accounts_:
        return
    pdf = letters.read(doc)
    config = mail_settings()
    base = str(config.get("PORTAL_BASE_URL") or "").rstrip("/")
    for user_id, email, lang in accounts_:
        lang = lang if lang in ("es", "en") else "es"
        stop = notice_emails.link(config, user_id, lang)
        subject, body = mail.render("demand_owner_copy", lang, catastro=lf.parcel.catastro,
                                    payer=payer, amount=lf.letter.total,
                                    link=f"{base}/cobros/requerimiento/{lf.notice.id}.pdf",
                                    unsubscribe_url=stop, paper=True)
        msg = mail.build(email, subject, body, lang, config, unsubscribe=stop)
        msg.add_attachment(pdf, maintype="application", subtype="pdf",
                           filename=f"requerimiento-{lf.notice.id}-copia.pdf")
        mail.queue(uow, msg, "demand_owner_copy", config=config, bulk=True)


def queue_demand(uow: UnitOfWork, staff: Any, parcel_id: int, fiscal_year_id: int,
                 as_of: date | None = None) -> Notice:
    """R-A12, R-A17: one demand queued by hand (`mailing.queue_demand`: its checks, the
    Board's minimum), addressed and kept as the run keeps its demands: its `DemandLetter`
    (what it lists, as of `as_of`), the letter as queued and the owner's copy."""
    as_of = as_of or clock.today()
    notice = mailing.queue_demand(uow, staff, parcel_id, fiscal_year_id, as_of)
    fy = uow.session.get(FiscalYear, notice.fiscal_year_id)
    acct = facts.load(uow, notice.parcel_id, fy)
    st = acct.evaluate(as_of)
    party_id, language = _addressees(uow, [notice.parcel_id], as_of).get(
        notice.parcel_id, (None, "es"))
    notice.addressee_party_id, notice.language = party_id, language
    letter = DemandLetter(
        notice_id=notice.id, parcel_id=notice.parcel_id, fiscal_year_id=fy.id, run_on=as_of,
        interest=st.interest, late_fees=st.late_fees, costs=st.costs,
        delinquent_principal=st.delinquent_principal, credit=st.credit,
        total=st.total_due_now, installments=",".join(
            str(i.number) for i in st.installments if i.status == "delinquent"))
    uow.session.add(letter)
    uow.session.flush()
    earlier = [n for n in uow.session.scalars(select(Notice).where(
        Notice.parcel_id == notice.parcel_id, Notice.fiscal_year_id == fy.id,
        Notice.kind == "demand", Notice.id != notice.id).order_by(Notice.id))]
    _keep_letters(uow, notice, letter, acct, fy, earlier,
                  _owners(uow, [notice.parcel_id], as_of).get(notice.parcel_id),
                  closed_days.declared(uow), _rules(uow, fy))
    return notice


def _owners(uow: UnitOfWork, ids: list[int], on: date) -> dict[int, tuple[int, str]]:
    """R-A17: each parcel's owner for the copy of its demand (the owner with the oldest share
    in force, as `_addressees`) and the owner's language; none for the Authority's own
    parcels (it sends the demand)."""
    out: dict[int, tuple[int, str]] = {}
    for ids_ in facts.in_batches(ids) if ids else ():
        for pid, party_id, lang in uow.session.execute(
                select(OwnershipShare.parcel_id, Party.id, Party.language)
                .join(Party, Party.id == OwnershipShare.party_id)
                .join(Parcel, Parcel.id == OwnershipShare.parcel_id)
                .where(OwnershipShare.parcel_id.in_(ids_), OwnershipShare.starts_on <= on,
                       Parcel.owner_kind != "authority",
                       or_(OwnershipShare.ends_on.is_(None), OwnershipShare.ends_on >= on))
                .order_by(OwnershipShare.parcel_id, OwnershipShare.id.desc())):
            out[pid] = (party_id, lang)
    return out


def _facts_at_queue(uow: UnitOfWork, n: Notice, dl: DemandLetter, acct: Any,
                    fy: FiscalYear, earlier: list[Notice]) -> LetterFacts:
    """The letter's facts on its queue day: the amounts it lists, the account's timeline that
    day (what stops the next step), the addressee."""
    on = dl.run_on
    st = acct.evaluate(on)
    tl = account_timeline(acct.account(on=on), on, acct.assessment.notified_on,
                          [*earlier, n], claims_of(uow, [e.id for e in earlier]),
                          queued_on=on)
    party = uow.session.get(Party, n.addressee_party_id) if n.addressee_party_id else None
    return LetterFacts(n, dl, uow.session.get(Parcel, n.parcel_id), fy, party, tl,
                       interest_per_day(st), st)


def frozen_facts(lf: LetterFacts, mail_by: date) -> dict[str, Any]:
    """What a kept letter states (R-A17), as text: the amounts as NUMERIC strings."""
    dl = lf.letter
    nxt = lf.timeline.next
    return {"demand": lf.notice.id, "parcel": lf.parcel.catastro,
            "address": lf.parcel.address or "", "fiscal_year": lf.fiscal_year.label,
            "to": lf.addressee.name if lf.addressee else "", "payer": lf.payer_name,
            "queued_on": dl.run_on.isoformat(), "mail_by": mail_by.isoformat(),
            "installments": dl.installments,
            "amounts": {k: str(getattr(dl, k)) for k in (
                "interest", "late_fees", "costs", "delinquent_principal", "credit", "total")},
            "interest_per_day": str(lf.interest_per_day),
            "next": ({"step": nxt.step, "amount": str(nxt.amount),
                      "by": nxt.by.isoformat() if nxt.by else None}
                     if nxt is not None else None)}


def _keep(uow: UnitOfWork, lf: LetterFacts, kind: str, party_id: int | None, language: str,
          mail_by: date, channel: str, closed: Any) -> Any:
    pdf = letters.render(lf, closed, lf.payer_name or None)
    return letters.keep(uow, lf.notice.id, kind, party_id=party_id, language=language,
                        queued_on=lf.letter.run_on, mail_by=mail_by, channel=channel,
                        pdf=pdf, facts=frozen_facts(lf, mail_by))


def _addressees(uow: UnitOfWork, ids: list[int], on: date) -> dict[int, tuple[int, str]]:
    """R-A16, R-A17: to whom each parcel's demand goes (the paying lessee of a lease in force,
    else the owner with the oldest share in force) and in which language (the party's)."""
    out: dict[int, tuple[int, str]] = {}
    if not ids:
        return out
    for ids_ in facts.in_batches(ids):
        owners = uow.session.execute(
            select(OwnershipShare.parcel_id, Party.id, Party.language)
            .join(Party, Party.id == OwnershipShare.party_id)
            .where(OwnershipShare.parcel_id.in_(ids_), OwnershipShare.starts_on <= on,
                   or_(OwnershipShare.ends_on.is_(None), OwnershipShare.ends_on >= on))
            .order_by(OwnershipShare.parcel_id, OwnershipShare.id.desc()))
        for pid, party_id, lang in owners:
            out[pid] = (party_id, lang)
        kinds = dict(uow.session.execute(select(Parcel.id, Parcel.owner_kind)
                                         .where(Parcel.id.in_(ids_))).all())
        leases = uow.session.execute(
            select(Lease.parcel_id, Lease.lessee_pays, Party.id, Party.language)
            .join(Party, Party.id == Lease.lessee_party_id)
            .where(Lease.parcel_id.in_(ids_), Lease.starts_on <= on,
                   or_(Lease.ends_on.is_(None), Lease.ends_on >= on))
            .order_by(Lease.parcel_id, Lease.starts_on))
        for pid, lessee_pays, party_id, lang in leases:
            if lessee_pays or kinds.get(pid) in ("authority", "public"):
                out[pid] = (party_id, lang)
    return out


# --- The staff's lists -------------------------------------------------------------------

@dataclass
class DemandRow:
    """A demand on the staff's list, with its window (R-A13) once mailed."""

    notice: Any  # NoticeRecord (read-only: the notices' columns), and so on
    letter: Any  # LetterRecord | None
    catastro: str
    claim: Any  # ClaimRecord | None
    last_day: date | None = None
    claimable_from: date | None = None
    status: str = "queued"
    stop_amount: Decimal | None = None  # what it listed, still owed today (claimable rows)
    addressee: str = ""
    mail_by: date | None = None  # R-A17: queued, not mailed: the last day to mail it
    fiscal_year: Any = None  # the demand's (a YearRecord)


def _rules(uow: UnitOfWork, fy: FiscalYear) -> Any:
    return facts.rules_for(fy.starts_on, uow)


def _status(n: Notice, claim: CourtClaim | None, today: date, closed: Iterable[date]
            ) -> tuple[str, date | None, date | None]:
    if n.mailed_on is None:
        return "queued", None, None
    last = deadline("demand_payment", n.mailed_on, closed_days=closed)
    first = deadline("court_claim", n.mailed_on, closed_days=closed)
    if claim is not None:
        return "claimed", last, first
    if today >= first:
        return "claimable", last, first
    return ("received" if n.acknowledged_on else "mailed"), last, first


# The list's rows as plain read-only records of the tables' columns (named as the models'
# attributes), not ORM objects: building these was most of the list's read. Each demand
# comes with its letter, its claim and its fiscal year (a few columns, not a statement per
# year), then the parcel's catastro and the addressee's name.
NoticeRecord = facts.record_type(Notice, "NoticeRecord")
LetterRecord = facts.record_type(DemandLetter, "LetterRecord")
ClaimRecord = facts.record_type(CourtClaim, "ClaimRecord")
YearRecord = facts.record_type(FiscalYear, "YearRecord")
_N, _L, _C, _Y = (m.__table__ for m in (Notice, DemandLetter, CourtClaim, FiscalYear))
_LIST = (select(_N, _L, _C, _Y, Parcel.__table__.c.catastro, Party.__table__.c.name)
         .select_from(_N)
         .join(Parcel.__table__, Parcel.__table__.c.id == _N.c.parcel_id)
         .join(_Y, _Y.c.id == _N.c.fiscal_year_id)
         .outerjoin(_L, _L.c.notice_id == _N.c.id)
         .outerjoin(_C, _C.c.notice_id == _N.c.id)
         .outerjoin(Party.__table__, Party.__table__.c.id == _N.c.addressee_party_id)
         .where(_N.c.kind == "demand"))


def demands(uow: UnitOfWork, staff: Any, *, status: str | None = None,
            today: date | None = None, after: int = 0, limit: int = PAGE) -> list[DemandRow]:
    """The demands by id (a page of `limit` after the id `after`), each with its status on
    `today`: queued (not mailed), mailed, received (the return receipt is in), claimable
    (R-A13: from the day after the rolled last day, not claimed; the amount it listed still
    owed), claimed. `status` filters (claimable: only those still owed)."""
    access.require_staff(staff)
    return _demand_rows(uow, status=status, today=today, after=after, limit=limit)


def _demand_rows(uow: UnitOfWork, *, status: str | None, today: date | None, after: int,
                 limit: int) -> list[DemandRow]:
    """`demands`, for a reader its caller has checked."""
    today = today or clock.today()
    if status is not None and status not in STATUSES:
        raise InvalidInput("invalid", field="status")
    stmt = _BY_STATUS.get(status, _BY_STATUS[None])
    out: list[DemandRow] = []
    years: dict[int, Any] = {}  # each year's closed days, once
    for rows in _pages(uow, stmt, after, limit):
        page: list[DemandRow] = []
        for row in rows:
            n, letter, claim, fy = cut_records(row[:-2], NoticeRecord, LetterRecord,
                                              ClaimRecord, YearRecord)
            catastro, name = row[-2], row[-1]
            closed = years.get(fy.id)
            if closed is None:
                closed = years[fy.id] = _rules(uow, fy).closed_days
            st, last, first = _status(n, claim, today, closed)
            row = DemandRow(n, letter, catastro, claim, last, first, st, addressee=name or "",
                            fiscal_year=fy)
            if n.mailed_on is None:  # R-A17: closed days counted as the timeline counts them
                queued_on = letter.run_on if letter is not None else clock.legal_date(
                    n.created_at)
                row.mail_by = deadline("demand_mailing", queued_on, closed_days=closed)
            page.append(row)
        _stops(uow, [r for r in page if r.status == "claimable"], today)
        for row in page:
            if status is None or row.status == status:
                out.append(row)
                if len(out) >= limit:
                    return out
    return out


def _listed(*where: Any) -> Any:
    """`_LIST` after the notice id :after, filtered by `where`, :limit rows by notice id."""
    return (_LIST.where(_N.c.id > bindparam("after"), *where).order_by(_N.c.id)
            .limit(bindparam("limit", type_=Integer)))


#: `demands`' statement for each status it filters on in SQL (built once; any other status,
#: or none, reads every demand), bound by :after and :limit.
_BY_STATUS = {None: _listed(), "queued": _listed(_N.c.mailed_on.is_(None)),
              "claimed": _listed(_C.c.id.is_not(None))}
_BY_STATUS.update(dict.fromkeys(("mailed", "received", "claimable"), _listed(
    _N.c.mailed_on.is_not(None), _C.c.id.is_(None))))


def _pages(uow: UnitOfWork, stmt: Any, after: int, limit: int) -> Iterator[list[Any]]:
    """The rows of `stmt` (`_listed`) after the notice id `after` a page at a time, by key (a
    short page is the last: no statement more to learn that there is none after it)."""
    while True:
        rows = uow.session.execute(stmt, {"after": after, "limit": limit}).all()
        if rows:
            yield rows
        if len(rows) < limit:
            return
        after = rows[-1][0]  # the last notice's id (its first column)


def _stops(uow: UnitOfWork, rows: list[DemandRow], today: date) -> None:
    """The claimable rows' amounts that stop the claim today (`stop_amount`), their accounts
    read together (one statement per fiscal year, `facts.load_many`, whatever the number of
    rows); a row whose demand is paid becomes "paid"."""
    by_year: dict[int, list[DemandRow]] = {}
    for r in rows:
        by_year.setdefault(r.notice.fiscal_year_id, []).append(r)
    for year_rows in by_year.values():
        accounts = facts.load_many(uow, [r.notice.parcel_id for r in year_rows],
                                   year_rows[0].fiscal_year, rows=True)
        for r in year_rows:
            stop = _stop_of(accounts[r.notice.parcel_id], r.notice, today)
            if stop is None or stop.today <= 0:
                r.status = "paid"
            else:
                r.stop_amount = stop.today


def court_list(uow: UnitOfWork, staff: Any, *, today: date | None = None, after: int = 0,
               limit: int = PAGE) -> list[DemandRow]:
    """R-A13: the demands whose last day has passed, not paid (what they listed is still
    owed) and not yet claimed: the claims that can go to court under Rule 60, whatever the
    amount."""
    return demands(uow, staff, status="claimable", today=today, after=after, limit=limit)


def claimable(uow: UnitOfWork, *, today: date | None = None, after: int = 0,
              limit: int = PAGE) -> list[DemandRow]:
    """`court_list` for a reader the caller has checked: the reports' court list, whose
    entry checks staff (`reports.figures`, `reports.rows`), and its daily snapshot, which
    the portal itself computes (the audit log's "system": `reports.snapshots`)."""
    return _demand_rows(uow, status="claimable", today=today, after=after, limit=limit)


def _stop_of(acct: Any, n: Notice, today: date) -> Any:
    """R-A13: what stops the claim of this demand today (`core.offer.demand_stop`, the offer's
    `stop`, without the rest of the offer a list does not show)."""
    if acct.assessment is None or n.mailed_on is None:
        return None
    return demand_stop(acct.account(on=today), today,
                       Demand(n.mailed_on, n.amount or Decimal(0), n.acknowledged_on))


def record_mailing(uow: UnitOfWork, staff: Any, notice_id: int, mailed_on: date,
                   certified_mail_number: str, cost: Decimal | None = None) -> Notice:
    """R-A12, R-A17: the demand went out by certified mail (its postage an R-A9 cost)."""
    access.require_staff_role(staff, *COLLECT)
    _demand(uow, notice_id)
    return mailing.record_mailing(uow, staff, notice_id, mailed_on, certified_mail_number,
                                  cost)


def correct_mailing(uow: UnitOfWork, staff: Any, notice_id: int, mailed_on: date,
                    certified_mail_number: str) -> Notice:
    """R-A13: staff correct a demand's mailing (`mailing.correct_mailing`: audited with the
    old and new values; the 15 days run from the corrected date)."""
    access.require_staff_role(staff, *COLLECT)
    _demand(uow, notice_id)
    return mailing.correct_mailing(uow, staff, notice_id, mailed_on, certified_mail_number)


def record_receipt(uow: UnitOfWork, staff: Any, notice_id: int, received_on: date) -> Notice:
    """R-A12: the return receipt came back, signed on `received_on` (not after today)."""
    access.require_staff_role(staff, *COLLECT)
    if received_on > clock.today():
        raise InvalidInput("invalid", field="acknowledged_on")
    _demand(uow, notice_id)
    return mailing.record_acknowledgment(uow, staff, notice_id, received_on)


def claim_minimum(uow: UnitOfWork, n: Any, fy: Any = None) -> Decimal | None:
    """R-A17 (revision 3): the Board's `demand_minimum` in force for this demand's fiscal
    year (`fy`, when the caller has it) when the demand listed less than it (staff are
    warned before claiming it in court), else None."""
    fy = fy or uow.session.get(FiscalYear, n.fiscal_year_id)
    minimum = in_force.demand_minimum(uow, fy.starts_on)
    return minimum if under_demand_minimum(n.amount, minimum) else None


def record_claim(uow: UnitOfWork, staff: Any, notice_id: int, filed_on: date,
                 case_number: str, *, confirmed_under_minimum: bool = False) -> CourtClaim:
    """R-A13: staff filed the Rule 60 claim; only for a mailed demand whose window ended,
    on or after the first day it may be claimed, not after today, once. R-A17 (revision
    3): a demand that listed less than the Board's `demand_minimum` is claimed only once
    staff confirm it (Conflict below_minimum, with the amount and the minimum, until then)."""
    access.require_staff_role(staff, *COLLECT)
    n = _demand(uow, notice_id)
    if n.mailed_on is None:
        raise Conflict("not_mailed")
    fy = uow.session.get(FiscalYear, n.fiscal_year_id)
    first = deadline("court_claim", n.mailed_on, closed_days=_rules(uow, fy).closed_days)
    if filed_on < first or filed_on > clock.today():
        raise InvalidInput("invalid", field="filed_on", first=first)
    if uow.session.scalar(select(CourtClaim.id).where(CourtClaim.notice_id == n.id)):
        raise Conflict("already_claimed")
    minimum = claim_minimum(uow, n)
    if minimum is not None and not confirmed_under_minimum:
        raise Conflict("below_minimum", amount=n.amount, minimum=minimum)
    claim = CourtClaim(notice_id=n.id, parcel_id=n.parcel_id, fiscal_year_id=n.fiscal_year_id,
                       filed_on=filed_on, case_number=case_number,
                       created_by_id=getattr(staff, "id", None))
    uow.session.add(claim)
    uow.session.flush()
    audit.record(uow, staff, "demand.claimed", claim,
                 after={**audit.snapshot(claim), "under_demand_minimum": str(minimum)}
                 if minimum is not None else audit.snapshot(claim))
    return claim


#: The columns of the post office's file (the first row names them; Spanish or English).
MAILING_COLUMNS = {"demand": ("requerimiento", "demand"),
                   "number": ("numero", "número", "certified_mail_number"),
                   "mailed_on": ("enviado", "mailed_on"),
                   "received_on": ("acuse", "received_on"),
                   "cost": ("franqueo", "cost")}
MAX_MAILING_ROWS = 5000


@dataclass(frozen=True)
class MailingRow:
    """One row of the post office's file, as read: `line` its line number (the header is 1)."""

    line: int
    demand: str
    number: str
    mailed_on: str
    received_on: str = ""
    cost: str = ""


@dataclass(frozen=True)
class RowError:
    line: int
    field: str  # demand | number | mailed_on | received_on | cost | columns | rows | file
    code: str  # missing | invalid | not_found | future | before_demand | before_mailing |
    # other_mailing | empty | not_text | ...
    #: For a date or an amount the one parser refused (`date_input`, `money_input`): its
    #: error, whose message says how to write the value in the reader's language.
    typed: date_input.DateInputError | money_input.MoneyInputError | None = field(
        default=None, compare=False)


def read_mailings(data: bytes) -> tuple[list[MailingRow], list[RowError]]:
    """The rows of a CSV from the post office (R-A12: the certified-mail number, the mailing
    date and, when it came back, the return receipt's date of each demand), read like every
    other upload (`portal.csv_text`: UTF-8 or Windows-1252, commas or semicolons), with the
    errors of its shape: no text, a missing column, more than MAX_MAILING_ROWS rows."""
    try:
        records = list(csv_text.records(data))
    except ValueError as exc:
        return [], [RowError(1, "file", str(exc))]
    if not records:
        return [], [RowError(1, "columns", "missing")]
    names = [h.strip().lower() for h in records[0][1]]
    where: dict[str, int] = {}
    for key, aliases in MAILING_COLUMNS.items():
        for k, name in enumerate(names):
            if name in aliases:
                where[key] = k
    missing = [k for k in ("demand", "number", "mailed_on") if k not in where]
    if missing:
        return [], [RowError(1, "columns", "missing:" + ",".join(missing))]
    rows: list[MailingRow] = []
    for line, cells in records[1:]:
        if len(rows) >= MAX_MAILING_ROWS:
            return [], [RowError(line, "rows", "too_many")]

        def cell(key: str, cells: list[str] = cells) -> str:
            k = where.get(key)
            return cells[k].strip() if k is not None and k < len(cells) else ""
        rows.append(MailingRow(line, cell("demand"), cell("number"), cell("mailed_on"),
                               cell("received_on"), cell("cost")))
    return rows, []


def record_mailings(uow: UnitOfWork, staff: Any, rows: list[MailingRow], lang: str = "es"
                    ) -> int:
    """R-A12: the mailings (and return receipts) of a post office file, all or nothing: with
    any error nothing is recorded (the caller's unit of work is rolled back: raise
    InvalidInput) and every row's errors are returned. Dates and the postage are read by the
    portal's one parser of each (`date_input`, `money_input`) as the staff member's language
    `lang` writes them. A row already recorded the same way
    (same number and mailing date) changes nothing, so the same file again is a no-op.
    Returns how many rows recorded something new (0 for the same file again)."""
    access.require_staff_role(staff, *COLLECT)
    errors: list[RowError] = []
    new = 0
    today = clock.today()
    seen: set[int] = set()
    for row in rows:
        found = _row_errors(uow, row, today, seen, lang)
        if found:
            errors += found
            continue
        n = uow.session.get(Notice, int(row.demand))
        mailed = date_input.parse(row.mailed_on, lang)
        changed = False
        if n.mailed_on is None:
            record_mailing(uow, staff, n.id, mailed, row.number,
                           _postage(row.cost, lang) if row.cost else None)
            changed = True
        if row.received_on and n.acknowledged_on is None:
            record_receipt(uow, staff, n.id, date_input.parse(row.received_on, lang))
            changed = True
        new += changed
    if errors:
        raise InvalidInput("mailings", errors=errors)
    return new


def _row_errors(uow: UnitOfWork, row: MailingRow, today: date, seen: set[int], lang: str
                ) -> list[RowError]:
    out: list[RowError] = []
    n = None
    if not (row.demand.isascii() and row.demand.isdigit()) or int(row.demand) > access.MAX_ID:
        out.append(RowError(row.line, "demand", "invalid" if row.demand else "missing"))
    else:
        n = uow.session.get(Notice, int(row.demand))
        if n is None or n.kind != "demand":
            out.append(RowError(row.line, "demand", "not_found"))
            n = None
        elif n.id in seen:
            out.append(RowError(row.line, "demand", "twice"))
        else:
            seen.add(n.id)
    number = mailing.certified_number(row.number)
    if number is None:
        out.append(RowError(row.line, "number", "invalid" if row.number else "missing"))
    mailed, refused = _day(row.mailed_on, lang)
    if mailed is None:
        out.append(RowError(row.line, "mailed_on", "invalid" if row.mailed_on else "missing",
                            refused))
    elif mailed > today:
        out.append(RowError(row.line, "mailed_on", "future"))
    elif n is not None and (code := mailing.mailing_date_error(n, mailed)):
        out.append(RowError(row.line, "mailed_on", code))
    elif n is not None and n.mailed_on is not None and number is not None and (
            n.mailed_on != mailed or n.certified_mail_number != number):
        out.append(RowError(row.line, "mailed_on", "other_mailing"))
    if row.received_on:
        received, refused = _day(row.received_on, lang)
        if received is None:
            out.append(RowError(row.line, "received_on", "invalid", refused))
        elif received > today:
            out.append(RowError(row.line, "received_on", "future"))
        elif mailed is not None and received < mailed:
            out.append(RowError(row.line, "received_on", "before_mailing"))
    if row.cost:
        try:
            _postage(row.cost, lang)
        except money_input.MoneyInputError as exc:
            out.append(RowError(row.line, "cost", "invalid", exc))
    return out


#: The largest postage a row may record.
MAX_POSTAGE = Decimal("1000.00")


def _postage(text: str, lang: str) -> Decimal:
    return money_input.parse(text, LOCALES.get(lang, "es_PR"), maximum=MAX_POSTAGE)


def _day(text: str, lang: str) -> tuple[date | None, date_input.DateInputError | None]:
    """A date cell read by the one parser: (the date, None) or (None, why not)."""
    try:
        return date_input.parse(text, lang), None
    except date_input.DateInputError as exc:
        return None, exc


def _demand(uow: UnitOfWork, notice_id: int) -> Notice:
    n = uow.session.get(Notice, access.parse_id(notice_id))
    if n is None or n.kind != "demand":
        raise NotFound()
    return n


# --- One demand, and the account's timeline --------------------------------------------------

@dataclass
class LetterFacts:
    """What the demand letter says (R-A17): the notice, its letter's amounts, the parcel, the
    addressee, the account's timeline today (the amount that stops the next step) and the
    interest each day adds."""

    notice: Notice
    letter: DemandLetter | None
    parcel: Parcel
    fiscal_year: FiscalYear
    addressee: Party | None
    timeline: Timeline
    interest_per_day: Decimal
    statement: Statement
    claim: CourtClaim | None = None
    lines: list[Any] = field(default_factory=list)
    #: an owner's copy (R-A17): the payer's name, to whom the demand itself went
    payer_name: str = ""
    #: the copy's first language (the owner's), else the notice's
    notice_language: str = ""


def letter(uow: UnitOfWork, user: Any, notice_id: int, today: date | None = None
           ) -> LetterFacts:
    """A demand letter's facts for staff, its payer or the owner (NotFound for anyone else:
    another owner, a lender, the public)."""
    today = today or clock.today()
    n = _demand(uow, notice_id)
    if access.relation(uow, user, n.parcel_id) not in LETTER_RELATIONS:
        raise NotFound()
    fy = uow.session.get(FiscalYear, n.fiscal_year_id)
    acct = facts.load(uow, n.parcel_id, fy)
    if acct.assessment is None:
        raise NotFound()
    dl = uow.session.scalar(select(DemandLetter).where(DemandLetter.notice_id == n.id))
    claim = uow.session.scalar(select(CourtClaim).where(CourtClaim.notice_id == n.id))
    on = dl.run_on if dl is not None else clock.legal_date(n.created_at)
    st = acct.evaluate(on)
    tl = account_timeline(acct.account(on=today), today, acct.assessment.notified_on, [n],
                          [claim] if claim else [])
    party = uow.session.get(Party, n.addressee_party_id) if n.addressee_party_id else None
    return LetterFacts(n, dl, uow.session.get(Parcel, n.parcel_id), fy, party, tl,
                       interest_per_day(st), st, claim)


def kept_letter(uow: UnitOfWork, user: Any, notice_id: int, *, copy: bool = False
                ) -> bytes | None:
    """The demand letter as kept when it was queued (R-A17: never re-rendered), for staff,
    its payer or the owner (NotFound for anyone else): the owner (and the owner's delegate)
    get the owner's copy when there is one, everyone else the demand; staff ask for the
    copy with `copy`. None: a demand queued before letters were kept (or by hand), whose
    letter is rendered from its stored amounts (`letter`)."""
    n = _demand(uow, notice_id)
    relation = access.relation(uow, user, n.parcel_id)
    if relation not in LETTER_RELATIONS:
        raise NotFound()
    doc = None
    if copy or relation in ("owner", "delegate"):
        doc = letters.stored(uow, n.id, "owner_copy")
    if doc is None and copy:
        raise NotFound()
    doc = doc or letters.stored(uow, n.id)
    return letters.read(doc) if doc is not None else None


@dataclass(frozen=True)
class OwnerCopy:
    """R-A17: the owner's copy of a demand, for the staff's page: to whom, how it goes."""

    owner: str
    channel: str  # email | print
    queued_on: date
    mail_by: date


def owner_copy(uow: UnitOfWork, staff: Any, notice_id: int) -> OwnerCopy | None:
    """The owner's copy of a demand (staff), or None when the payer is the owner."""
    access.require_staff(staff)
    return _copy_of(uow, _demand(uow, notice_id).id)


def owner_copy_of(uow: UnitOfWork, staff: Any, row: DemandRow) -> OwnerCopy | None:
    """`owner_copy` of a demand of the staff's list (`demands`: already read)."""
    access.require_staff(staff)
    return _copy_of(uow, row.notice.id)


def _copy_of(uow: UnitOfWork, notice_id: int) -> OwnerCopy | None:
    doc = letters.stored(uow, notice_id, "owner_copy")
    if doc is None:
        return None
    party = uow.session.get(Party, doc.addressee_party_id) if doc.addressee_party_id else None
    return OwnerCopy(party.name if party else "—", doc.channel, doc.queued_on, doc.mail_by)


def account_timeline(account: Any, today: date, notified_on: date | None,
                     demand_notices: list[Any], claims: list[Any], *,
                     offered: Any = None, queued_on: date | None = None) -> Timeline:
    """The core's timeline (`core.collection_timeline`) from an account's demand notices (in
    the order sent) and its claims: the last demand mailed, a later one still queued, and
    the claim filed for that demand. `offered`: the account's offer today with that demand,
    when the caller has it (the parcel page): not computed again."""
    mailed = [n for n in demand_notices if n.mailed_on is not None]
    last = mailed[-1] if mailed else None
    demand = (Demand(last.mailed_on, last.amount or Decimal(0), last.acknowledged_on)
              if last is not None else None)
    queued = [n for n in demand_notices if n.mailed_on is None
              and (last is None or n.id > last.id)]
    if queued_on is None or not queued:
        queued_on = clock.legal_date(queued[0].created_at) if queued else None
    claimed_on = next((c.filed_on for c in claims if last is not None
                       and c.notice_id == last.id), None)
    return timeline(account, today, notified_on=notified_on, demand=demand,
                    queued_on=queued_on, claimed_on=claimed_on, offered=offered)


def claims_of(uow: UnitOfWork, notice_ids: list[int]) -> list[CourtClaim]:
    """The claims filed for these demands (the parcel page's timeline)."""
    if not notice_ids:
        return []
    return list(uow.session.scalars(select(CourtClaim).where(
        CourtClaim.notice_id.in_(notice_ids))))


__all__ = ["CHUNK", "KIND", "DemandRow", "LetterFacts", "MailingRow", "OwnerCopy", "RowError",
           "Run", "RunResult", "account_timeline", "claim_minimum", "claimable", "claims_of",
           "correct_mailing", "court_list", "demands", "frozen_facts", "kept_letter", "letter",
           "owner_copy", "owner_copy_of", "queue_demand", "read_mailings", "record_claim",
           "record_mailing", "record_mailings", "record_receipt", "run", "runnable", "work"]


runner.register("collections.run", work, runnable)
