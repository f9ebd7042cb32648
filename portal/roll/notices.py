"""The assessment notices of a published roll (J8; R-A4, R-A5, R-A16): printed for the mail,
emailed to the linked payers, and rendered on demand.

`Notification` is the work of the job "roll.notify" (`jobs.runner`), which the roll's
publication submits itself (`start_after_publication`, in the unit of work that marks the
roll published; an administrator starts it again to send what was not sent): it goes over
the roll's notices (the `Notice` rows of kind
"assessment" that `roll.Publication` wrote) a batch of `CHUNK` parcels at a time, by parcel
id, and for each notice not yet delivered:

- prints it for the mail, in the payer's language (the first owner's, or the paying
  lessee's, R-A16): every notice of the batch in one PDF, the batch's print file
  (`NoticePrintFile`, kept in the file store). A parcel with no linked payer account
  (unclaimed) and no live access code gets a new code, printed on its notice: only the code's
  hash is stored (`parcels.hash_code`, docs/SECURITY.md), so the code exists in plain text
  only in the print file made in the same batch; a parcel with a live code keeps it (never a
  second one) and its notice says how to get another;
- emails each linked owner, and the linked lessee when the lessee pays (R-A16), in their
  stored language: the amount, the first installment's due date and the parcel's page;
- leaves out of the print file a parcel one of whose addressees chose email instead of paper
  (`accounts.paperless`): its notice is emailed only (counted as "paperless");
- emails no one who stopped emailed notices (`accounts.notice_emails`, counted as
  "email_stopped"); each email carries the one-click unsubscribe (List-Unsubscribe,
  RFC 8058) and its link in the text;
- records each delivery (`NoticeDelivery`: one email per notice and user, one printing per
  notice, unique indexes), so running the job again sends and prints nothing new.

All or nothing per batch: the codes, the print file's row and the deliveries commit
together with the batch's emails, queued in the outbox (`portal.mail`; the worker sends them
once the batch has committed: a rolled-back batch sends nothing, a committed one loses
nothing, and each email is sent once, docs/MAIL.md).

`document` words a notice (title, parcel, payer, the annual assessment and its installments
R-A4, "why this amount" from the core's explanations R-A1–R-A3, and for an amendment the
old and new amounts and the new installments R-A5); `notice_pdf` renders one on demand from
the stored facts (the staff's and the owner's downloads), without the code (it is not
stored): the notice says where it was printed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy import bindparam, func, or_, select

from portal import clock, mail, pdf, storage
from portal.accounts import (
    access,
    audit,
    bulk,
    closed_days,
    in_force,
    notice_emails,
    paperless,
    parcels,
    pay_links,
)
from portal.accounts import facts as account_facts
from portal.accounts.errors import Conflict, NotFound
from portal.config import instance_path, mail_settings, secret_key
from portal.core.allocation import explain_fixed, explain_share
from portal.core.deadlines import timely_payment
from portal.core.explain import N_, Trace
from portal.core.installments import Installment as CoreInstallment
from portal.core.installments import explain_schedule
from portal.core.money import ZERO
from portal.core.offer import Offer
from portal.core.params import ClosedDay
from portal.core.rules import RULES
from portal.db import UnitOfWork
from portal.i18n import Formats, format_address, formats, translate, use_language
from portal.i18n import gettext as _
from portal.jobs import runner
from portal.models import (
    AccessCode,
    Assessment,
    AssessmentRoll,
    BudgetFixedAmount,
    BudgetVersion,
    FiscalYear,
    Installment,
    Job,
    Lease,
    Notice,
    NoticeDelivery,
    NoticePrintFile,
    OwnershipShare,
    Parcel,
    ParcelLink,
    Party,
    User,
)
from portal.pdf.assessment_notice import render_notice, render_print_file
from portal.pdf.qr import Code as QrCode

#: Notices per batch: one print file each (a few hundred pages), one transaction.
CHUNK = 200
#: The parcel page and the claim page (the links of the emails and the printed notices).
PARCEL_PATH = "/propiedad/{id}"
CLAIM_PATH = "/propiedad/reclamar"
LANGS = ("es", "en")


@dataclass
class NoticeFacts:
    """What one assessment notice says, from the stored facts (amounts as `Decimal`)."""

    notice_id: int
    parcel_id: int
    catastro: str
    address: str
    municipality: str
    fiscal_year: str
    notified_on: date
    payer: str  # owner or lessee (R-A16)
    payer_names: list[str]
    language: str  # the payer's (the printed notice's)
    annual: Decimal
    installments: list[CoreInstallment]
    version: int
    adopted_on: date | None
    reference: str
    total_to_assess: Decimal
    units: Decimal
    total_units: Decimal
    pool: Decimal
    fixed: Decimal | None
    previous: Decimal | None = None  # an amendment's earlier amount (R-A5)
    previous_installments: list[CoreInstallment] = field(default_factory=list)
    effective_on: date | None = None
    credit: Decimal = ZERO
    grace: int = 10  # R-A6's day G, and the days the Board declared closed: the last days
    closed: tuple[ClosedDay, ...] = ()

    def last_day(self, item: CoreInstallment) -> date:
        """R-A6: the installment's last timely day (day G, rolled), as the statement's."""
        return timely_payment(item.due_date, self.grace, frozenset(c.day for c in self.closed))

    def extended(self, items: Sequence[CoreInstallment]) -> Trace:
        """The declared closed days that moved the last timely days of `items`."""
        return closed_days.installments(((i.number, i.due_date, self.last_day(i))
                                         for i in items), self.grace, self.closed)


@dataclass
class Addressee:
    user_id: int
    email: str
    name: str
    language: str
    role: str


# --- reading the facts ------------------------------------------------------------------------

class _Roll:
    """A roll's values every notice of it shares, read once."""

    def __init__(self, uow: UnitOfWork, roll: AssessmentRoll):
        self.id = roll.id
        self.version = uow.session.get(BudgetVersion, roll.budget_version_id)
        self.fy = uow.session.get(FiscalYear, roll.fiscal_year_id)
        self.total_units = roll.total_units
        fixed_total = uow.session.scalar(select(func.sum(BudgetFixedAmount.amount)).where(
            BudgetFixedAmount.version_id == self.version.id)) or ZERO
        self.pool = roll.total - fixed_total  # R-A3: what is shared by units
        self.grace = in_force.rules_for(uow, self.fy.starts_on).grace_day
        self.closed = closed_days.declared(uow)


def _installments(uow: UnitOfWork, assessment_ids: Sequence[int]
                  ) -> dict[int, list[CoreInstallment]]:
    out: dict[int, list[CoreInstallment]] = {a: [] for a in assessment_ids}
    if not assessment_ids:
        return out
    for r in uow.session.execute(
            select(Installment.assessment_id, Installment.number, Installment.due_date,
                   Installment.amount).where(Installment.assessment_id.in_(assessment_ids))
            .order_by(Installment.assessment_id, Installment.number)):
        out[r.assessment_id].append(CoreInstallment(r.number, r.due_date, r.amount, False))
    return out


def _payers(uow: UnitOfWork, parcel_ids: Sequence[int], lessee_paid: set[int], on: date
            ) -> dict[int, list[tuple[str, str]]]:
    """Each parcel's payers on `on` as (name, language), largest share first: its owners,
    or the lessee of the lease in force when the lessee pays (R-A16)."""
    out: dict[int, list[tuple[str, str]]] = {p: [] for p in parcel_ids}
    owners = [p for p in parcel_ids if p not in lessee_paid]
    if owners:
        for r in uow.session.execute(
                select(OwnershipShare.parcel_id, Party.name, Party.language)
                .join(Party, Party.id == OwnershipShare.party_id)
                .where(OwnershipShare.parcel_id.in_(owners), OwnershipShare.starts_on <= on,
                       or_(OwnershipShare.ends_on.is_(None), OwnershipShare.ends_on >= on))
                .order_by(OwnershipShare.parcel_id, OwnershipShare.share.desc(), Party.id)):
            out[r.parcel_id].append((r.name, r.language))
    lessees = [p for p in parcel_ids if p in lessee_paid]
    if lessees:
        for r in uow.session.execute(
                select(Lease.parcel_id, Party.name, Party.language)
                .join(Party, Party.id == Lease.lessee_party_id)
                .where(Lease.parcel_id.in_(lessees), Lease.lessee_pays.is_(True),
                       Lease.starts_on <= on, or_(Lease.ends_on.is_(None), Lease.ends_on >= on))
                .order_by(Lease.parcel_id, Lease.id)):
            out[r.parcel_id].append((r.name, r.language))
    return out


def _facts(uow: UnitOfWork, r: _Roll, rows: Sequence[Any]) -> list[NoticeFacts]:
    """The facts of the notices `rows` (Notice.id, Assessment, Parcel) of roll `r`."""
    assessments = [a for _, a, _ in rows]
    prev_ids = [a.supersedes_id for a in assessments if a.supersedes_id is not None]
    previous = {a.id: a for a in uow.session.scalars(
        select(Assessment).where(Assessment.id.in_(prev_ids)))} if prev_ids else {}
    items = _installments(uow, [a.id for a in assessments] + list(previous))
    pids = [p.id for _, _, p in rows]
    fixed = dict(uow.session.execute(select(BudgetFixedAmount.parcel_id,
                                            BudgetFixedAmount.amount).where(
        BudgetFixedAmount.version_id == r.version.id,
        BudgetFixedAmount.parcel_id.in_(pids))).all())
    on = min(rows[0][1].notified_on or clock.today(), r.fy.ends_on) if rows else clock.today()
    payers = _payers(uow, pids, {a.parcel_id for a in assessments if a.payer == "lessee"}, on)
    out = []
    for notice_id, a, p in rows:
        prev = previous.get(a.supersedes_id) if a.supersedes_id else None
        names = payers.get(p.id) or []
        out.append(NoticeFacts(
            notice_id=notice_id, parcel_id=p.id, catastro=p.catastro, address=p.address,
            municipality=p.municipality, fiscal_year=r.fy.label,
            notified_on=a.notified_on or clock.today(), payer=a.payer,
            payer_names=[n for n, _ in names],
            language=names[0][1] if names and names[0][1] in LANGS else "es",
            annual=a.annual_amount, installments=items[a.id], version=r.version.version,
            adopted_on=r.version.adopted_on, reference=r.version.reference or "",
            total_to_assess=r.version.total_to_assess, units=a.benefit_units,
            total_units=r.total_units, pool=r.pool, fixed=fixed.get(p.id),
            previous=prev.annual_amount if prev is not None else None,
            previous_installments=items.get(prev.id, []) if prev is not None else [],
            effective_on=a.effective_on, credit=a.credit, grace=r.grace, closed=r.closed))
    return out


def _notice_rows(roll_id: int) -> Any:
    return (select(Notice.id, Assessment, Parcel)
            .join(Assessment, Assessment.id == Notice.assessment_id)
            .join(Parcel, Parcel.id == Notice.parcel_id)
            .where(Assessment.roll_id == roll_id, Notice.kind == "assessment"))


def _addressees(uow: UnitOfWork, facts: Sequence[NoticeFacts]
                ) -> dict[int, list[Addressee]]:
    """Each parcel's linked payers with an account (R-A16): its owners, and its lessee when
    the lessee pays."""
    payer = {f.parcel_id: f.payer for f in facts}
    out: dict[int, list[Addressee]] = {p: [] for p in payer}
    for r in uow.session.execute(
            select(ParcelLink.parcel_id, ParcelLink.role, User.id, User.email, User.name,
                   User.language)
            .join(User, User.id == ParcelLink.user_id)
            .where(ParcelLink.parcel_id.in_(list(payer)), ParcelLink.revoked_at.is_(None),
                   ParcelLink.role.in_(("owner", "lessee")))
            .order_by(ParcelLink.parcel_id, User.id)):
        if r.role == "owner" or payer[r.parcel_id] == "lessee":
            out[r.parcel_id].append(Addressee(r.id, r.email, r.name or "",
                                              r.language if r.language in LANGS else "es",
                                              r.role))
    return out


# --- the job ----------------------------------------------------------------------------------

@dataclass
class _Batch:
    """What one step writes, made before it writes (`Notification._prepare`): the notices
    printed, their new access codes (plain text: printed only) and the stored print file's
    key; the composed emails, with their addressee and notice; the notices left unprinted or
    unemailed by the payers' choices."""

    printed: list[NoticeFacts] = field(default_factory=list)
    codes: dict[int, str] = field(default_factory=dict)
    key: str = ""
    emails: list[tuple[Addressee, NoticeFacts, Any]] = field(default_factory=list)
    paperless: int = 0
    email_stopped: int = 0


def notifiable(uow: UnitOfWork, staff: Any, roll_id: int) -> AssessmentRoll:
    """The roll, when `staff` may send its notices: a published roll (an administrator's)."""
    access.require_staff_role(staff, *access.MANAGE)
    roll = uow.session.get(AssessmentRoll, int(roll_id))
    if roll is None:
        raise NotFound()
    if roll.status != "published":
        raise Conflict("roll_not_published")
    return roll


class Notification:
    """The job "roll.notify" (see the module's docstring): `begin` counts the roll's
    notices, each `step` delivers the next `CHUNK` by parcel id, `finish` records it."""

    def __init__(self, staff: Any, roll_id: int, config: Mapping[str, Any] | None = None):
        self.staff = staff
        self.roll_id = int(roll_id)
        self.config = mail_settings() if config is None else config
        self.base = str(self.config.get("PORTAL_BASE_URL") or "").rstrip("/")
        self.secret = signing_key(self.config)
        self.after = 0
        self.counts = {"emails": 0, "printed": 0, "codes": 0, "paperless": 0,
                       "email_stopped": 0}

    def begin(self, uow: UnitOfWork) -> int:
        roll = notifiable(uow, self.staff, self.roll_id)
        self.roll = _Roll(uow, roll)
        return uow.session.scalar(select(func.count()).select_from(
            _notice_rows(self.roll_id).subquery()))

    def step(self, uow: UnitOfWork) -> int:
        """The next batch: read and made first (`_prepare`: the facts, the new codes, the
        print file rendered and stored, the emails composed), then written at once
        (`_write`), so the transaction writes for milliseconds, not for the seconds the
        print file takes (SQLite's one writer, docs/JOBS.md "Short writes")."""
        rows = uow.session.execute(_notice_rows(self.roll_id).where(Notice.parcel_id > self.after)
                                   .order_by(Notice.parcel_id).limit(CHUNK)).all()
        if not rows:
            return 0
        batch = self._prepare(uow, rows)
        self._write(uow, batch)
        self.after = rows[-1][2].id
        return len(rows)

    def _prepare(self, uow: UnitOfWork, rows: Sequence[Any]) -> _Batch:
        """What the batch `rows` writes, from reads only (no statement of it writes)."""
        facts = _facts(uow, self.roll, rows)
        ids = [f.notice_id for f in facts]
        done = {(d.notice_id, d.channel, d.user_id) for d in uow.session.execute(
            select(NoticeDelivery.notice_id, NoticeDelivery.channel, NoticeDelivery.user_id)
            .where(NoticeDelivery.notice_id.in_(ids)))}
        people = _addressees(uow, facts)
        unprinted = [f for f in facts if (f.notice_id, "print", None) not in done]
        # Paperless (accounts.paperless): emailed only, left out of the print file.
        emailed_only = paperless.paperless_parcels(uow, {
            f.parcel_id: [a.user_id for a in people[f.parcel_id]] for f in unprinted})
        batch = _Batch(paperless=sum(f.parcel_id in emailed_only for f in unprinted))
        self._print(uow, batch, [f for f in unprinted if f.parcel_id not in emailed_only],
                    people)
        self._email(uow, batch, facts, people, done)
        return batch

    def _print(self, uow: UnitOfWork, batch: _Batch, facts: list[NoticeFacts],
               people: dict[int, list[Addressee]]) -> None:
        """The batch's print file, rendered and put in the file store, and its new codes."""
        if not facts:
            return
        unclaimed = [f.parcel_id for f in facts if not people[f.parcel_id]]
        live = set(uow.session.scalars(select(AccessCode.parcel_id).where(
            AccessCode.parcel_id.in_(unclaimed), AccessCode.revoked_at.is_(None)))
        ) if unclaimed else set()
        batch.codes = {p: parcels.generate_code() for p in unclaimed if p not in live}
        docs = []
        for f in facts:
            state = ("new" if f.parcel_id in batch.codes else "kept" if f.parcel_id in live
                     else "claimed")
            with use_language(f.language):
                docs.append((document(f, self.base, state, batch.codes.get(f.parcel_id),
                                      secret=self.secret), f.language))
        batch.printed = facts
        batch.key = storage.store().put(render_print_file(docs))

    def _email(self, uow: UnitOfWork, batch: _Batch, facts: list[NoticeFacts],
               people: dict[int, list[Addressee]], done: set) -> None:
        """The batch's emails, composed: to each addressee not yet emailed this notice."""
        off = notice_emails.stopped(uow, {a.user_id for f in facts for a in people[f.parcel_id]})
        messages = []
        for f in facts:
            for a in people[f.parcel_id]:
                if (f.notice_id, "email", a.user_id) in done or not a.email:
                    continue
                if a.user_id in off:  # printed instead (`paperless.paperless_parcels`)
                    batch.email_stopped += 1
                    continue
                messages.append((a, f))
        if not messages:
            return
        offers = amendment_offers(uow, self.roll, [f for _, f in messages])
        for a, f in messages:
            stop = notice_emails.link(self.config, a.user_id, a.language)
            batch.emails.append((a, f, mail.compose(
                a.email, "assessment_notice", a.language, config=self.config,
                unsubscribe=stop, unsubscribe_url=stop, paper=True,
                **email_context(f, a, self.base, offers.get(f.parcel_id)))))

    def _write(self, uow: UnitOfWork, batch: _Batch) -> None:
        """The batch's rows, all at once: the codes, the print file's row and its
        deliveries, the emails' deliveries and their outbox rows (sent once this unit of
        work commits, `portal.mail`); then its counts."""
        now = clock.now()
        facts = batch.printed
        if facts:
            code_ids: dict[int, int] = {}
            if batch.codes:
                rows = [{"parcel_id": p, "code_hash": parcels.hash_code(c),
                         "issued_by_id": self.staff.id, "issued_at": now,
                         "failed_attempts": 0} for p, c in batch.codes.items()]
                code_ids = dict(zip(batch.codes, bulk.insert_rows(uow, AccessCode, rows,
                                                                  return_ids=True)))
            printed = NoticePrintFile(roll_id=self.roll_id, storage_key=batch.key,
                                      first_parcel_id=facts[0].parcel_id,
                                      last_parcel_id=facts[-1].parcel_id, notices=len(facts),
                                      codes=len(batch.codes), created_by_id=self.staff.id)
            uow.session.add(printed)
            uow.session.flush()
            bulk.insert_rows(uow, NoticeDelivery, [
                {"notice_id": f.notice_id, "channel": "print", "user_id": None, "email": None,
                 "print_file_id": printed.id, "access_code_id": code_ids.get(f.parcel_id),
                 "language": f.language, "created_at": now} for f in facts])
            if batch.codes:
                audit.record(uow, self.staff, "access_code.issued", printed,
                             after={"roll_id": self.roll_id, "codes": len(batch.codes),
                                    "first_parcel_id": facts[0].parcel_id,
                                    "last_parcel_id": facts[-1].parcel_id})
        if batch.emails:
            bulk.insert_rows(uow, NoticeDelivery, [
                {"notice_id": f.notice_id, "channel": "email", "user_id": a.user_id,
                 "email": a.email, "print_file_id": None, "access_code_id": None,
                 "language": a.language, "created_at": now} for a, f, _msg in batch.emails])
            for _a, _f, msg in batch.emails:  # the outbox (portal.mail), in this unit of work
                mail.queue(uow, msg, "assessment_notice", config=self.config, bulk=True)
        self.counts["paperless"] += batch.paperless
        self.counts["email_stopped"] += batch.email_stopped
        self.counts["printed"] += len(facts)
        self.counts["codes"] += len(batch.codes)
        self.counts["emails"] += len(batch.emails)

    def finish(self, uow: UnitOfWork) -> Notification:
        audit.record(uow, self.staff, "roll.notified", object_type="assessment_rolls",
                     object_id=self.roll_id, after=dict(self.counts))
        return self

    def job_result(self) -> dict[str, Any]:
        return {"roll_id": self.roll_id, **self.counts}


#: The job that sends a roll's notices (`jobs.runner.KINDS`).
KIND = "roll.notify"


def _notify_keys(roll_ids: Sequence[int]) -> dict[str, int]:
    return {runner.checksum(KIND, {"roll_id": int(r)}): int(r) for r in roll_ids}


def start_after_publication(uow: UnitOfWork, staff: Any, roll: AssessmentRoll) -> Job:
    """The roll's "roll.notify" job, submitted by the publication that has just marked
    `roll` published, in the same unit of work (a publication that fails starts nothing).
    A notify job of the roll already queued, running or finished is the one: nothing new
    (sending is idempotent anyway, `notice_deliveries`). The worker runs it once this unit
    of work commits: its recovery pass enqueues every queued job each minute
    (`jobs.runner.recover`)."""
    params = {"roll_id": int(roll.id)}
    found = uow.session.scalar(select(Job).where(
        Job.kind == KIND, Job.input_checksum == runner.checksum(KIND, params),
        Job.status != "failed").order_by(Job.id.desc()).limit(1))
    return found if found is not None else runner.submit(uow, staff, KIND, params)


def notify_jobs(uow: UnitOfWork, staff: Any, roll_ids: Sequence[int]) -> dict[int, Job]:
    """The latest "roll.notify" job of each of `roll_ids` that has one (staff): the one
    the publication started, or a later one an administrator started to send again."""
    access.require_staff(staff)
    keys = _notify_keys(roll_ids)
    if not keys:
        return {}
    out: dict[int, Job] = {}
    for job in uow.session.scalars(select(Job).where(
            Job.kind == KIND, Job.input_checksum.in_(list(keys))).order_by(Job.id)):
        out[keys[job.input_checksum]] = job
    return out


def notify(uow: UnitOfWork, staff: Any, roll_id: int,
           config: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The job's work in one unit of work (the tests, a command): the counts of emails
    queued, notices printed and codes issued."""
    work = Notification(staff, roll_id, config)
    work.begin(uow)
    while work.step(uow):
        pass
    return work.finish(uow).job_result()


def amendment_offers(uow: UnitOfWork, r: _Roll, facts: Sequence[NoticeFacts]
                     ) -> dict[int, Offer]:
    """R-A5: what each amended account offers to pay on the day its email is queued, read
    as the parcel page reads it (`accounts.facts`, `core.offer`): the email names the same
    next amount, its last day (never one already gone) and the credit."""
    ids = sorted({f.parcel_id for f in facts if f.previous is not None})
    if not ids:
        return {}
    today = clock.today()
    loaded = account_facts.load_many(uow, ids, r.fy, rows=True)
    return {pid: f.offer(today, with_later=False) for pid, f in loaded.items()
            if f.assessment is not None}


def email_context(f: NoticeFacts, a: Addressee, base: str, offer: Offer | None = None
                  ) -> dict[str, Any]:
    """The email's words. An amendment's (`offer`: its account today) names the offer's
    next payment and credit, the parcel page's figures; a first notice, the first
    installment."""
    link = base + PARCEL_PATH.format(id=f.parcel_id)
    common = {"name": a.name, "catastro": f.catastro, "fiscal_year": f.fiscal_year,
              "amount": f.annual, "previous": f.previous, "count": len(f.installments),
              "link": link, "next": None, "credit": None}
    if offer is not None:
        nxt = offer.to_pay_next
        credit = offer.statement.credit
        return {**common, "first_due": None, "extended": [], "next": nxt,
                "credit": credit if credit > 0 else None, "today": offer.on}
    first = f.installments[0] if f.installments else None
    extended = [s.text for s in formats(a.language).trace(f.extended([first]))] if first else []
    return {**common, "first_amount": first.amount if first else None,
            "first_due": first.due_date if first else None,
            "first_last": f.last_day(first) if first else None, "extended": extended}


# --- the document -----------------------------------------------------------------------------

def _ref(rule_id: str) -> pdf.Ref:
    r = RULES[rule_id]
    return pdf.Ref(r.id, r.source, translate(r.title))


def _why(f: NoticeFacts, fm: Formats) -> list[pdf.Why]:
    """Why this amount: the budget (R-A1), who is assessed (R-A2) and the parcel's share of
    it (R-A3), in the core's words."""
    t = Trace()
    t.add("R-A1", N_("The Board adopted budget version {version} on {adopted}: {total} to be "
                     "raised by assessments."),
          version=f.version, adopted=f.adopted_on, total=f.total_to_assess)
    steps = fm.trace(t)
    share = explain_fixed(f.fixed) if f.fixed is not None else explain_share(
        str(f.parcel_id), f.annual, f.units,
        f.total_units, f.pool)
    return [*pdf.whys(steps),
            pdf.Why(_("Public land not transferred is not assessed; this parcel is."),
                    _ref("R-A2")),
            *pdf.whys(fm.trace(share))]


def _schedule(f: NoticeFacts, items: Sequence[CoreInstallment], fm: Formats, heading: str
              ) -> pdf.Table:
    return pdf.Table(head=(_("No."), _("Due date"), _("Last timely day"), _("Amount")),
                     rows=[(str(i.number), fm.date_long(i.due_date),
                            fm.date_long(f.last_day(i)), fm.money(i.amount)) for i in items],
                     widths=(11, 44.5, 44.5, 26), align="LLLR", heading=heading)


def signing_key(config: Mapping[str, Any]) -> str:
    """The key the notice's pay link is signed with: the app's SECRET_KEY (the web checks
    the link with it), else the one kept in the instance folder (`config.secret_key`)."""
    return str(config.get("SECRET_KEY") or secret_key(instance_path()))


def pay_code(f: NoticeFacts, base: str, secret: str, code_state: str) -> QrCode:
    """The QR code printed on the notice: the signed link that opens this parcel's pay page
    without an account (`payments.guest`), worded in the language in force."""
    link = pay_links.pay_link(base, f.parcel_id, secret)
    how = (_("Or go to %(address)s and type the parcel number %(catastro)s and the access "
             "code printed on this notice.", address=base + pay_links.START_PATH,
             catastro=f.catastro) if code_state == "new" else
           _("Or sign in at %(address)s to see the whole account.", address=base)
           if code_state == "claimed" else
           _("Or go to %(address)s and type the parcel number %(catastro)s and its access "
             "code.", address=base + pay_links.START_PATH, catastro=f.catastro))
    return QrCode(link, _("QR code: opens the page to pay parcel %(catastro)s online, "
                               "without an account.", catastro=f.catastro),
                       (_("Pay online without an account"),
                        _("Scan this code with your phone's camera to pay this parcel by card "
                          "or from a bank account: no account or password is needed, and the "
                          "receipt is emailed to you."), how))


def document(f: NoticeFacts, base: str, code_state: str, code: str | None = None,
             printed_on: date | None = None, *, secret: str | None = None) -> pdf.Document:
    """The assessment notice in the language in force. `code_state`: "new" (the parcel's new
    access code `code` is printed), "kept" (a live code was issued before), "printed" (on
    demand: the code is on the notice printed on `printed_on`), "claimed" (a payer has an
    account). With `secret`, the QR code of the parcel's signed pay link (`pay_code`)."""
    fm = Formats()
    amended = f.previous is not None
    first = f.installments[0] if f.installments else None
    payer = _("Lessee (under the lease)") if f.payer == "lessee" else _("Owner")
    facts = [(_("Parcel"), f.catastro),
             (_("Address"), format_address(f.address, f.municipality)),
             (payer, "; ".join(f.payer_names) or "—"),
             (_("Fiscal year"), f.fiscal_year),
             (_("Notice date"), fm.date_long(f.notified_on))]
    if first is not None:
        facts.append((_("First installment due"),
                      f"{fm.date_long(first.due_date)} · {fm.money(first.amount)}"))
    if code_state == "new" and code:
        facts.append((_("Access code"), code))
    rows: list[pdf.Row] = []
    if amended:
        rows.append(pdf.Row(_("Annual assessment before the amendment"), fm.money(f.previous)))
        rows.append(pdf.Row(_("Amended annual assessment"), fm.money(f.annual), _why(f, fm),
                            strong=True))
        change = f.annual - f.previous
        rows.append(pdf.Row(_("Increase") if change >= 0 else _("Decrease"),
                            fm.money(abs(change)),
                            [pdf.Why(_("The difference is spread over the unpaid installments "
                                       "due after %(date)s; paid installments do not change.",
                                       date=fm.date_long(f.effective_on or f.notified_on)),
                                     _ref("R-A5"))]))
        if f.credit > 0:
            rows.append(pdf.Row(_("Credit to the account"), fm.money(f.credit),
                                [pdf.Why(_("What no unpaid installment could absorb is "
                                           "credited to the account."), _ref("R-A5"))]))
    else:
        rows.append(pdf.Row(_("Annual assessment"), fm.money(f.annual), _why(f, fm),
                            strong=True))
    body: list[str | pdf.Why] = [
        _("The Board's budget for fiscal year %(year)s is paid by the parcels that benefit "
          "from it. This notice tells you this parcel's share and when each installment is "
          "due.", year=f.fiscal_year) if not amended else
        _("The Board amended its budget for fiscal year %(year)s. This notice tells you this "
          "parcel's new amount and its new installments.", year=f.fiscal_year)]
    link = base + PARCEL_PATH.format(id=f.parcel_id)
    if code_state == "new":
        body.append(_("To see this parcel online and pay: create an account at %(claim)s, "
                      "then type the parcel number %(catastro)s and the access code %(code)s. "
                      "Keep this notice: the code is printed only here.",
                      claim=base + CLAIM_PATH, catastro=f.catastro, code=code or ""))
    elif code_state == "printed":
        body.append(_("The access code to claim this parcel online was printed on the notice "
                      "mailed on %(date)s.", date=fm.date_long(printed_on or f.notified_on)))
    elif code_state == "kept":
        body.append(_("An access code to claim this parcel online at %(claim)s was sent "
                      "before and still works. If you do not have it, ask the Authority for "
                      "a new one.", claim=base + CLAIM_PATH))
    else:
        body.append(_("See this parcel, its installments and how to pay at %(link)s.",
                      link=link))
    # R-A4's "equal monthly installments" holds for a first publication; an amendment's
    # installments are explained by R-A5 (the difference spread over the unpaid ones).
    schedule = Trace() if amended else explain_schedule(f.annual, f.installments,
                                                        f.notified_on)
    schedule.extend(f.extended(f.installments))  # R-A6: a closed day that moved a last day
    notes: list[str | pdf.Why] = [*pdf.whys(fm.trace(schedule)),
                                  _("Every amount is computed from the law over the account's "
                                    "facts; the notes at the end name the rule and the "
                                    "statute behind each.")]
    tables = [_schedule(f, f.installments, fm, _("New installment schedule") if amended
                        else _("Installment schedule"))]
    if amended and f.previous_installments:
        tables.append(_schedule(f, f.previous_installments, fm,
                                _("Installment schedule before the amendment")))
    return pdf.Document(
        title=_("Amended assessment notice") if amended else _("Assessment notice"),
        subtitle=_("District Assessments Portal") + " · "
        + _("Fiscal year %(year)s", year=f.fiscal_year),
        facts=facts, body=body, rows=rows, rows_heading=_("Amounts"), tables=tables,
        notes=notes, reference=_("Parcel %(catastro)s", catastro=f.catastro),
        on=f.notified_on,
        code=pay_code(f, base, secret, code_state) if secret else None,
        code_beside_table=True)


# --- on demand --------------------------------------------------------------------------------

def _load_one(uow: UnitOfWork, notice_row: Any) -> tuple[NoticeFacts, str, date | None]:
    notice_id, a, _p = notice_row
    roll = uow.session.get(AssessmentRoll, a.roll_id)
    f = _facts(uow, _Roll(uow, roll), [notice_row])[0]
    printed = uow.session.execute(
        select(NoticeDelivery.access_code_id, NoticePrintFile.created_at)
        .join(NoticePrintFile, NoticePrintFile.id == NoticeDelivery.print_file_id)
        .where(NoticeDelivery.notice_id == notice_id, NoticeDelivery.channel == "print")
    ).first()
    if printed is not None and printed.access_code_id is not None:
        return f, "printed", clock.legal_date(printed.created_at)
    claimed = bool(_addressees(uow, [f])[f.parcel_id])
    return f, "claimed" if claimed else "kept", None


def staff_notice(uow: UnitOfWork, staff: Any, roll_id: int, parcel_id: int
                 ) -> tuple[NoticeFacts, str, date | None]:
    """A roll's notice of a parcel (any staff), with its code state."""
    access.require_staff(staff)
    row = uow.session.execute(_notice_rows(int(roll_id)).where(
        Notice.parcel_id == int(parcel_id))).first()
    if row is None:
        raise NotFound()
    return _load_one(uow, row)


#: Who may download a parcel's notice from the parcel page: its payers and staff.
READERS = ("owner", "lessee", "staff")


def latest_notice(uow: UnitOfWork, user: Any, parcel_id: int
                  ) -> tuple[NoticeFacts, str, date | None]:
    """The parcel's latest assessment notice, for its owner, its lessee or staff (NotFound
    for anyone else, as for an unknown parcel)."""
    _parcel, relation = access.get_parcel_and_relation(uow, user, parcel_id)
    if relation not in READERS:
        raise NotFound()
    row = uow.session.execute(
        select(Notice.id, Assessment, Parcel)
        .join(Assessment, Assessment.id == Notice.assessment_id)
        .join(Parcel, Parcel.id == Notice.parcel_id)
        .where(Notice.parcel_id == int(parcel_id), Notice.kind == "assessment")
        .order_by(Notice.id.desc()).limit(1)).first()
    if row is None:
        raise NotFound()
    return _load_one(uow, row)


@dataclass(frozen=True)
class Issued:
    """A notice the portal issued for a parcel, for the parcel page's list: its kind
    ("assessment", "amended" or "demand"), fiscal year, date (notified or mailed) and, for a
    demand, the amount demanded."""

    notice_id: int
    kind: str
    fiscal_year: str
    on: date | None
    amount: Decimal | None = None


def issued(uow: UnitOfWork, user: Any, parcel_id: int) -> list[Issued]:
    """Every notice the portal issued for the parcel, newest first: each assessment notice
    (one per roll or amendment) and each demand mailed (R-A12). For its owner, its lessee or
    staff (`READERS`); NotFound for anyone else, as for an unknown parcel."""
    parcel, relation = access.get_parcel_and_relation(uow, user, parcel_id)
    if relation not in READERS:
        raise NotFound()
    return issued_for(uow, parcel.id)


_ISSUED = (select(Notice, Assessment.notified_on, Assessment.supersedes_id, FiscalYear.label)
           .outerjoin(Assessment, Assessment.id == Notice.assessment_id)
           .join(FiscalYear, FiscalYear.id == Notice.fiscal_year_id)
           .where(Notice.parcel_id == bindparam("pid"),
                  or_(Notice.kind == "assessment", Notice.mailed_on.is_not(None))))


def issued_for(uow: UnitOfWork, parcel_id: int) -> list[Issued]:
    """`issued` for a parcel the caller has already read through `accounts.access` with a
    relation in `READERS` (the parcel page's view, in its own unit of work): one statement."""
    rows = uow.session.execute(_ISSUED, {"pid": int(parcel_id)}).all()
    return _issued([(n.id, n.kind, n.mailed_on, n.amount, n.created_at, notified_on,
                     supersedes, label) for n, notified_on, supersedes, label in rows])


def _issued(rows: Sequence[tuple]) -> list[Issued]:
    """(notice id, kind, mailed on, amount, created at, notified on, supersedes id, fiscal
    year label) rows as `Issued`, newest first."""
    out = []
    for nid, kind, mailed_on, amount, created_at, notified_on, supersedes, label in rows:
        if kind == "assessment":
            out.append(Issued(nid, "amended" if supersedes else "assessment", label,
                              notified_on or clock.legal_date(created_at)))
        else:
            out.append(Issued(nid, "demand", label, mailed_on, amount))
    return sorted(out, key=lambda i: (i.on or date.min, i.notice_id), reverse=True)


def issued_json(parcel_id: Any) -> Any:
    """SQL (a scalar subquery, correlated to `parcel_id`): `issued_for`'s rows as JSON
    (`issued_from_json`), for a statement that reads more than the notices."""
    n, a, fy = Notice.__table__, Assessment.__table__, FiscalYear.__table__
    columns = (n.c.id, n.c.kind, n.c.mailed_on, n.c.amount, n.c.created_at, a.c.notified_on,
               a.c.supersedes_id, fy.c.label)
    return (select(account_facts.json_rows(*columns))
            .select_from(n).outerjoin(a, a.c.id == n.c.assessment_id)
            .join(fy, fy.c.id == n.c.fiscal_year_id)
            .where(n.c.parcel_id == parcel_id,
                   or_(n.c.kind == "assessment", n.c.mailed_on.is_not(None)))
            .scalar_subquery())


def issued_from_json(text: str | None) -> list[Issued]:
    """`issued_json`'s value as `issued_for` gives it."""
    f = account_facts
    return _issued([(nid, kind, f.stored_date(mailed), f.stored_money(amount),
                     f.stored_instant(created), f.stored_date(notified), supersedes, label)
                    for nid, kind, mailed, amount, created, notified, supersedes, label
                    in f.read_json_rows(text)])


def issued_notice(uow: UnitOfWork, user: Any, parcel_id: int, notice_id: int
                  ) -> tuple[NoticeFacts, str, date | None]:
    """One of the parcel's assessment notices (`issued`), for its PDF; NotFound otherwise."""
    _parcel, relation = access.get_parcel_and_relation(uow, user, parcel_id)
    if relation not in READERS:
        raise NotFound()
    row = uow.session.execute(
        select(Notice.id, Assessment, Parcel)
        .join(Assessment, Assessment.id == Notice.assessment_id)
        .join(Parcel, Parcel.id == Notice.parcel_id)
        .where(Notice.id == access.parse_id(notice_id), Notice.parcel_id == int(parcel_id),
               Notice.kind == "assessment")).first()
    if row is None:
        raise NotFound()
    return _load_one(uow, row)


def notice_pdf(loaded: tuple[NoticeFacts, str, date | None], lang: str, base: str,
               secret: str | None = None) -> bytes:
    """The notice as a tagged PDF in `lang` (no access code: it is not stored); with
    `secret`, the QR code of its pay link."""
    f, state, printed_on = loaded
    with use_language(lang if lang in LANGS else f.language) as lang:
        doc = document(f, base, state, None, printed_on, secret=secret)
    return render_notice(doc, lang)


@dataclass(frozen=True)
class RollNotices:
    """What the staff's notices page shows of a roll."""

    roll: AssessmentRoll
    notices: int
    printed: int
    emails: int
    codes: int
    files: list[NoticePrintFile]


def summary(uow: UnitOfWork, staff: Any, roll_id: int, *, limit: int = 50, offset: int = 0
            ) -> RollNotices:
    access.require_staff(staff)
    roll = uow.session.get(AssessmentRoll, int(roll_id))
    if roll is None:
        raise NotFound()
    notices = uow.session.scalar(select(func.count()).select_from(
        _notice_rows(roll.id).subquery()))
    counts = dict(uow.session.execute(
        select(NoticeDelivery.channel, func.count()).join(
            NoticePrintFile, NoticePrintFile.id == NoticeDelivery.print_file_id, isouter=True)
        .join(Notice, Notice.id == NoticeDelivery.notice_id)
        .join(Assessment, Assessment.id == Notice.assessment_id)
        .where(Assessment.roll_id == roll.id).group_by(NoticeDelivery.channel)).all())
    codes = uow.session.scalar(select(func.coalesce(func.sum(NoticePrintFile.codes), 0)).where(
        NoticePrintFile.roll_id == roll.id))
    files = list(uow.session.scalars(select(NoticePrintFile).where(
        NoticePrintFile.roll_id == roll.id).order_by(NoticePrintFile.first_parcel_id)
        .limit(limit).offset(offset)))
    return RollNotices(roll, notices or 0, counts.get("print", 0), counts.get("email", 0),
                       int(codes or 0), files)


def print_file(uow: UnitOfWork, staff: Any, roll_id: int, file_id: int) -> bytes:
    """A print file's PDF (administrators: it holds the new access codes in plain text;
    other staff, who see the list of files, are refused it). `retention.PrintFileDeleted`
    once the retention policy deleted it (`portal.roll.retention`)."""
    access.require_staff(staff)
    f = uow.session.get(NoticePrintFile, int(file_id))
    if f is None or f.roll_id != int(roll_id):
        raise NotFound()
    access.require_staff_role(staff, *access.MANAGE)
    store = storage.store()
    if not store.exists(f.storage_key):  # deleted under the retention policy
        from portal.roll.retention import PrintFileDeleted
        raise PrintFileDeleted()
    return store.get(f.storage_key)


runner.register(KIND, lambda staff, p: Notification(staff, int(p["roll_id"])),
                lambda uow, staff, p: notifiable(uow, staff, int(p["roll_id"])))
