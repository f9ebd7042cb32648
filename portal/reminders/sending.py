"""The day's reminders (docs/REMINDERS.md): a task of `portal.jobs.daily`, idempotent for its
day. For every parcel with someone to remind (an account that owns it or pays it as lessee,
with reminders on for it; a confirmed relative), the core says which reminders are due
(`portal.core.reminders.due`, with the recipient's days before), less what a lender's intent
or autopay covers; each goes once per parcel, kind, day and recipient: a `rem_sent` row
(unique) is written with its email in the outbox in one savepoint, so a second run, or two
workers at once, send nothing more.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import exists, select
from sqlalchemy.exc import IntegrityError

from portal import mail
from portal.accounts import facts, statements
from portal.config import mail_settings
from portal.core import reminders as core
from portal.core.reminders import Reminder
from portal.db import Database, UnitOfWork
from portal.jobs import daily
from portal.lenders import intents
from portal.models import Assessment, Installment, Parcel, ParcelLink, User
from portal.models.reminders import ReminderParcelOff, ReminderSent, ReminderSettings
from portal.payments import autopay
from portal.reminders import links, relatives
from portal.reminders.preferences import RECIPIENT_ROLES, ensure

log = logging.getLogger(__name__)

#: Parcels read a batch at a time.
BATCH = 500


@dataclass(frozen=True)
class Recipient:
    email: str
    language: str
    days_before: int
    name: str
    unsubscribe_token: str
    relative: bool  # a relative without an account: the guest pay page
    user_id: int | None = None


def covered_by_autopay(uow: UnitOfWork, parcel_id: int, day: date) -> bool:
    """Whether the parcel's autopay will pay what its account asks next,
    as of `day` (`portal.payments.autopay.covers`)."""
    return autopay.covers(uow, parcel_id, day)


def covered_by_intents(uow: UnitOfWork, parcel_id: int, fiscal_year_id: int) -> set[int]:
    """The installment numbers a lender said it will pay (J7): one installment, or what was
    due now when it marked it (the installments due by that day)."""
    covered: set[int] = set()
    views = intents.for_parcel(uow, parcel_id, fiscal_year_id)
    if not views:
        return covered
    due_by = [v.marked_at.date() for v in views if v.kind == "district_due_now"]
    covered |= {v.installment_number for v in views
                if v.kind == "district_installment" and v.installment_number is not None}
    if due_by:
        last = max(due_by)
        covered |= set(uow.session.scalars(
            select(Installment.number).join(
                Assessment, Assessment.id == Installment.assessment_id)
            .where(Assessment.parcel_id == parcel_id,
                   Assessment.fiscal_year_id == fiscal_year_id,
                   Installment.due_date <= last)))
    return covered


def _account_recipients(uow: UnitOfWork, parcel_ids: list[int]) -> dict[int, list[Recipient]]:
    """{parcel id: the accounts reminded of it}: live owner and lessee links, reminders on
    (no row: on), the parcel not turned off."""
    off = exists().where(ReminderParcelOff.user_id == ParcelLink.user_id,
                         ReminderParcelOff.parcel_id == ParcelLink.parcel_id)
    rows = uow.session.execute(
        select(ParcelLink.parcel_id, User, ReminderSettings)
        .join(User, User.id == ParcelLink.user_id)
        .outerjoin(ReminderSettings, ReminderSettings.user_id == User.id)
        .where(ParcelLink.parcel_id.in_(parcel_ids), ParcelLink.revoked_at.is_(None),
               ParcelLink.role.in_(RECIPIENT_ROLES), User.disabled_at.is_(None),
               (ReminderSettings.enabled.is_(None)) | (ReminderSettings.enabled.is_(True)),
               ~off)
        .order_by(ParcelLink.parcel_id, User.id))
    out: dict[int, list[Recipient]] = {}
    seen: set[tuple[int, int]] = set()
    for pid, user, settings in rows:
        if (pid, user.id) in seen:
            continue
        seen.add((pid, user.id))
        days = settings.days_before if settings is not None else core.DEFAULT_DAYS_BEFORE
        token = settings.unsubscribe_token if settings is not None else ""
        out.setdefault(pid, []).append(Recipient(user.email, user.language or "es", days,
                                                 user.name or "", token, False, user.id))
    return out


def _parcels_to_remind(uow: UnitOfWork) -> list[int]:
    linked = select(ParcelLink.parcel_id).where(ParcelLink.revoked_at.is_(None),
                                                ParcelLink.role.in_(RECIPIENT_ROLES))
    ids = set(uow.session.scalars(linked.distinct()))
    ids |= set(relatives.parcels_with_relatives(uow))
    return sorted(ids)


def _batches(ids: list[int]) -> Iterator[list[int]]:
    for i in range(0, len(ids), BATCH):
        yield ids[i:i + BATCH]


def run(database: Database, day: date, config: Mapping[str, Any] | None = None
        ) -> dict[str, int]:
    """Queue the reminders due on `day` that were not sent yet; {"sent": n, "parcels": n}."""
    config = mail_settings() if config is None else config
    sent = parcels = 0
    with UnitOfWork(database) as uow:
        fy = facts.fiscal_year_on(uow, day)
        ids = _parcels_to_remind(uow) if fy is not None else []
    for batch in _batches(ids):
        with UnitOfWork(database) as uow:
            n, p = _send_batch(uow, batch, facts.fiscal_year_on(uow, day), day, config)
            sent += n
            parcels += p
    return {"sent": sent, "parcels": parcels}


def _send_batch(uow: UnitOfWork, batch: list[int], fy: Any, day: date,
                config: Mapping[str, Any]) -> tuple[int, int]:
    loaded = facts.load_many(uow, batch, fy, rows=True)
    demands = statements.demands_of(uow, batch, fy.id)
    accounts = _account_recipients(uow, batch)
    family = relatives.confirmed_of(uow, batch)
    catastro = dict(uow.session.execute(select(Parcel.id, Parcel.catastro)
                                        .where(Parcel.id.in_(batch))).all())
    address = dict(uow.session.execute(select(Parcel.id, Parcel.address)
                                       .where(Parcel.id.in_(batch))).all())
    sent = parcels = 0
    for pid in batch:
        f = loaded.get(pid)
        if f is None or f.assessment is None:
            continue
        people = list(accounts.get(pid, []))
        people += [Recipient(r.email, r.language, core.DEFAULT_DAYS_BEFORE, "",
                             r.unsubscribe_token, True) for r in family.get(pid, [])]
        if not people:
            continue
        parcels += 1
        account = f.account(label=catastro[pid], on=day)
        covered: set[int] | None = None
        autopaid: bool | None = None
        due_by_days: dict[int, list[Reminder]] = {}
        for person in people:
            if person.days_before not in due_by_days:
                due_by_days[person.days_before] = core.due(account, day, person.days_before,
                                                           demand=demands.get(pid))
            due = due_by_days[person.days_before]
            if not due:
                continue
            if covered is None:
                covered = covered_by_intents(uow, pid, fy.id)
            for r in core.without(due, covered):
                if r.kind in (core.INSTALLMENT_DUE, core.LUMP_SUM_DEADLINE):
                    if autopaid is None:
                        autopaid = covered_by_autopay(uow, pid, day)
                    if autopaid:
                        continue
                if _send_one(uow, pid, catastro[pid], address[pid], r, person, day, config):
                    sent += 1
    return sent, parcels


def _already(uow: UnitOfWork, pid: int, r: Reminder, email: str) -> bool:
    return uow.session.scalar(select(ReminderSent.id).where(
        ReminderSent.parcel_id == pid, ReminderSent.kind == r.kind, ReminderSent.day == r.day,
        ReminderSent.recipient == email)) is not None


def _send_one(uow: UnitOfWork, pid: int, catastro: str, address: str, r: Reminder,
              person: Recipient, day: date, config: Mapping[str, Any]) -> bool:
    email = person.email.lower()
    if _already(uow, pid, r, email):
        return False
    token = person.unsubscribe_token
    if not token and person.user_id is not None:
        token = ensure(uow, person.user_id).unsubscribe_token
    unsubscribe = links.unsubscribe(config, token, person.language)
    pay_url = (links.guest_pay(config, pid) if person.relative
               else links.pay(config, pid))
    try:
        with uow.session.begin_nested():
            msg = mail.send(uow, email, f"reminder_{r.kind}", person.language, config=config,
                            unsubscribe=unsubscribe, r=r, catastro=catastro, address=address,
                            name=person.name, pay_url=pay_url, relative=person.relative,
                            settings_url=links.url(config, links.SETTINGS), today=day,
                            unsubscribe_url=unsubscribe)
            uow.session.flush()
            uow.session.add(ReminderSent(parcel_id=pid, kind=r.kind, day=r.day,
                                         recipient=email, sent_on=day, outbox_id=msg.id))
            uow.session.flush()
    except IntegrityError:  # another run sent it meanwhile
        log.info("reminder %s %s %s for %s already sent", pid, r.kind, r.day, email)
        return False
    return True


def daily_task(database: Database, day: date) -> dict[str, int]:
    return run(database, day)


daily.register("reminders", daily_task)
