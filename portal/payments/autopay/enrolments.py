"""Autopay enrolments: who may enrol a parcel, the page's facts, enrol, cancel, and what
staff see (every enrolment, its failures).

The owner, the paying lessee, or a delegate the owner allowed to pay may enrol a parcel
(`payments.service.may_pay`, less the lender: a lender pays by its own intents). One live
enrolment per parcel: a second payer is told someone else's autopay is on. An enrolment
ends when its payer cancels it, removes its method, loses the parcel, or a lender reports
escrow for it (`debits` checks these each day).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import select

import portal.payments.autopay.methods as methods
from portal import clock
from portal.accounts import access, audit
from portal.accounts.errors import Forbidden, InvalidInput, NotFound
from portal.core import autopay as core
from portal.core import offer as core_offer
from portal.core import payment_states as states
from portal.db import UnitOfWork
from portal.models import FiscalYear, LenderIntent, Parcel, User
from portal.models.autopay import AutopayDebit, AutopayEnrolment, SavedMethod
from portal.models.checkouts import Checkout
from portal.payments import ledger, service

#: The relations that may enrol (a delegate only where the owner allowed paying).
ENROLLERS = ("owner", "lessee", "delegate")
#: A lender's intent for these says it pays the District's account from escrow.
ESCROW_KINDS = ("district_due_now", "district_installment")


def may_enrol(uow: UnitOfWork, user: Any, parcel: Parcel) -> bool:
    """Whether `user` may pay `parcel` automatically (owner, paying lessee, delegate allowed
    to pay), judged now."""
    if access.is_staff(user) or getattr(user, "id", None) is None:
        return False
    rel = access.relation(uow, user, parcel.id)
    if rel not in ENROLLERS:
        return False
    return bool(service.may_pay(uow, user, [(parcel, rel)]))


def fiscal_year_on(uow: UnitOfWork, day: date) -> FiscalYear | None:
    """The fiscal year of `day`; before any has begun, the next one (its lump sum is paid
    in advance, R-A11)."""
    found = uow.session.scalar(select(FiscalYear).where(FiscalYear.starts_on <= day,
                                                        FiscalYear.ends_on >= day))
    if found is not None:
        return found
    return uow.session.scalar(select(FiscalYear).where(FiscalYear.starts_on > day)
                              .order_by(FiscalYear.starts_on).limit(1))


def account_offer(uow: UnitOfWork, parcel: Parcel, day: date
                  ) -> tuple[FiscalYear, core_offer.Offer] | None:
    """The parcel's account of the fiscal year of `day`, and its offer on `day`."""
    fy = fiscal_year_on(uow, day)
    if fy is None:
        return None
    for account in service.account_offers(uow, [(parcel, "autopay")], day,
                                          include_settled=True):
        if account.fiscal_year.id == fy.id:
            return fy, account.offer
    return None


def escrow_reported(uow: UnitOfWork, parcel_id: int, fiscal_year_id: int) -> bool:
    """A lender said it pays this account from escrow (a live intent for the District)."""
    return uow.session.scalar(select(LenderIntent.id).where(
        LenderIntent.parcel_id == parcel_id, LenderIntent.fiscal_year_id == fiscal_year_id,
        LenderIntent.kind.in_(ESCROW_KINDS), LenderIntent.withdrawn_at.is_(None)).limit(1)
    ) is not None


def as_core(e: AutopayEnrolment, method: SavedMethod) -> core.Enrolment:
    return core.Enrolment(e.plan, method.kind, e.starts_on, e.lump_sum_on, e.ended_on)


#: A checkout's state, as an attempt's (`core.autopay.Attempt.status`).
_ATTEMPT = {states.CREATED: "created", states.PENDING: "created",
            states.PROCESSING: "processing", states.SUCCEEDED: "succeeded",
            states.PARTIALLY_REFUNDED: "succeeded", states.REFUNDED: "succeeded",
            states.FAILED: "failed", states.EXPIRED: "failed"}


def attempt_status(debit: AutopayDebit, checkout: Checkout | None) -> str:
    if checkout is None:
        return debit.status
    return _ATTEMPT.get(checkout.status, debit.status)


def attempts(uow: UnitOfWork, enrolment_ids: list[int], fiscal_year_id: int
             ) -> list[tuple[AutopayDebit, Checkout | None]]:
    """Every attempt of these enrolments for the fiscal year, with its checkout."""
    if not enrolment_ids:
        return []
    return list(uow.session.execute(
        select(AutopayDebit, Checkout).outerjoin(Checkout, Checkout.id == AutopayDebit.checkout_id)
        .where(AutopayDebit.enrolment_id.in_(enrolment_ids),
               AutopayDebit.fiscal_year_id == fiscal_year_id)
        .order_by(AutopayDebit.day, AutopayDebit.id)))


def core_attempts(rows: list[tuple[AutopayDebit, Checkout | None]]) -> list[core.Attempt]:
    return [core.Attempt(d.target, d.day, d.amount, attempt_status(d, c), tuple(d.numbers))
            for d, c in rows]


def parcel_attempts(uow: UnitOfWork, parcel_id: int, fiscal_year_id: int) -> list[core.Attempt]:
    """Every autopay attempt on the parcel's account, whichever enrolment made it (a
    cancelled one's too: an installment charged once is never charged again)."""
    ids = list(uow.session.scalars(select(AutopayEnrolment.id).where(
        AutopayEnrolment.parcel_id == parcel_id)))
    return core_attempts(attempts(uow, ids, fiscal_year_id))


def live(uow: UnitOfWork, parcel_id: int) -> AutopayEnrolment | None:
    """The parcel's enrolment not ended, if any."""
    return uow.session.scalar(select(AutopayEnrolment).where(
        AutopayEnrolment.parcel_id == int(parcel_id), AutopayEnrolment.ended_at.is_(None))
        .order_by(AutopayEnrolment.id).limit(1))


@dataclass(frozen=True)
class Upcoming:
    """The next debit the enrolment will make, as the offer gives it today."""

    day: date
    amount: core_offer.Decimal | None  # None: known on the day (the lump sum's, say)
    notice_day: date
    numbers: tuple[int, ...] = ()


@dataclass(frozen=True)
class AutopayPage:
    parcel: Parcel
    relation: str
    may_enrol: bool
    enrolment: AutopayEnrolment | None  # the parcel's live one
    mine: bool  # the live one is the user's (or the user may cancel it)
    method: SavedMethod | None
    methods: list[SavedMethod]
    offer: core_offer.Offer | None
    upcoming: Upcoming | None
    history: list[DebitView]
    today: date


def _upcoming(uow: UnitOfWork, parcel: Parcel, e: AutopayEnrolment, method: SavedMethod,
              offer: core_offer.Offer | None, today: date) -> Upcoming | None:
    if offer is None:
        return None
    enrol = as_core(e, method)
    if e.plan == core.PLAN_LUMP_SUM:
        if e.lump_sum_on is None or e.lump_sum_on < today:
            return None
        later = account_offer(uow, parcel, e.lump_sum_on)
        amount = later[1].lump_sum.amount if later and later[1].lump_sum.eligible else None
        return Upcoming(e.lump_sum_on, amount, core.notice_day(method.kind, e.lump_sum_on))
    nxt = next((o for o in offer.installments
                if o.status == "upcoming" and o.due_date >= max(today, e.starts_on)), None)
    if nxt is None:
        return None
    later = account_offer(uow, parcel, nxt.due_date)
    debit = core.planned(enrol, later[1]) if later else None
    return Upcoming(nxt.due_date, debit.amount if debit else None,
                    core.notice_day(method.kind, nxt.due_date),
                    debit.numbers if debit else (nxt.number,))


def page(uow: UnitOfWork, user: Any, parcel_id: int | str, gateway_name: str,
         today: date | None = None) -> AutopayPage:
    """The parcel's autopay page for `user` (NotFound when they may not see the parcel)."""
    today = today or clock.today()
    parcel, rel = access.get_parcel_and_relation(uow, user, parcel_id)
    allowed = may_enrol(uow, user, parcel)
    e = live(uow, parcel.id)
    method = uow.session.get(SavedMethod, e.method_id) if e is not None else None
    found = account_offer(uow, parcel, today)
    offer = found[1] if found else None
    mine = e is not None and (e.user_id == user.id or allowed)
    history: list[DebitView] = []
    if found:
        ids = list(uow.session.scalars(select(AutopayEnrolment.id).where(
            AutopayEnrolment.parcel_id == parcel.id)))
        history = [debit_view(d, c) for d, c in attempts(uow, ids, found[0].id)]
    upcoming = _upcoming(uow, parcel, e, method, offer, today) if e and method else None
    return AutopayPage(parcel, rel, allowed, e, mine, method,
                       methods.saved_methods(uow, user, gateway_name) if allowed else [],
                       offer, upcoming, history, today)


def enrol(uow: UnitOfWork, user: Any, parcel_id: int | str, *, method_id: str, plan: str,
          lump_sum_on: date | None, language: str, today: date | None = None
          ) -> AutopayEnrolment:
    """Enrol the parcel. `InvalidInput` (field, code) for a choice refused: no method
    (`method`), an unknown plan (`plan`), a lump-sum day missing, past, or after the
    deadline, or no lump sum to pay (`lump_sum_on`); `Forbidden` when the user may not
    enrol or someone's autopay is already on (`already_enrolled`)."""
    today = today or clock.today()
    parcel = access.get_parcel(uow, user, parcel_id)
    if not may_enrol(uow, user, parcel):
        raise Forbidden()
    ledger.lock_accounts(uow, [parcel.id])
    if live(uow, parcel.id) is not None:
        raise Forbidden("already_enrolled")
    try:
        method = methods.get_method(uow, user, method_id)
    except NotFound:
        raise InvalidInput("method_missing", field="method") from None
    if plan not in core.PLANS:
        raise InvalidInput("plan_missing", field="plan")
    if plan == core.PLAN_LUMP_SUM:
        found = account_offer(uow, parcel, today)
        lump = found[1].lump_sum if found else None
        if lump is None or not lump.eligible:
            raise InvalidInput("lump_sum_unavailable", field="plan")
        if lump_sum_on is None:
            raise InvalidInput("lump_sum_day_missing", field="lump_sum_on")
        if lump_sum_on < today:
            raise InvalidInput("lump_sum_day_past", field="lump_sum_on", today=today)
        if lump.deadline is not None and lump_sum_on > lump.deadline:
            raise InvalidInput("lump_sum_day_late", field="lump_sum_on",
                               deadline=lump.deadline)
    else:
        lump_sum_on = None
    lang = "en" if str(language).startswith("en") else "es"
    e = AutopayEnrolment(user_id=user.id, parcel_id=parcel.id, method_id=method.id, plan=plan,
                         lump_sum_on=lump_sum_on, starts_on=today, language=lang)
    uow.session.add(e)
    uow.session.flush()
    audit.record(uow, user, "autopay.enrolled", e,
                 after={"plan": plan, "lump_sum_on": lump_sum_on, "method": method.id})
    return e


def cancel(uow: UnitOfWork, user: Any, parcel_id: int | str) -> AutopayEnrolment:
    """Cancel the parcel's autopay: its payer, or anyone who may enrol the parcel. No
    debit from today on (one made earlier today stands)."""
    parcel = access.get_parcel(uow, user, parcel_id)
    ledger.lock_accounts(uow, [parcel.id])
    e = live(uow, parcel.id)
    if e is None:
        raise NotFound("no_autopay")
    if e.user_id != user.id and not may_enrol(uow, user, parcel):
        raise Forbidden()
    methods.end(uow, e, "cancelled", by=user, on=clock.today())
    return e


@dataclass(frozen=True)
class DebitView:
    """An attempt as staff and the payer read it: its state follows its checkout's (a bank
    debit returned days later reads as failed at once)."""

    day: date
    target: str
    numbers: tuple[int, ...]
    attempt: int
    amount: core_offer.Decimal
    status: str
    failure_code: str | None
    checkout_id: int | None
    receipt_number: str | None

    @property
    def lump_sum(self) -> bool:
        return self.target == core.LUMP_SUM_TARGET


def debit_view(d: AutopayDebit, c: Checkout | None) -> DebitView:
    return DebitView(d.day, d.target, tuple(d.numbers), d.attempt, d.amount,
                     attempt_status(d, c), d.failure_code or (c.failure_code if c else None),
                     d.checkout_id, c.receipt_number if c else None)


@dataclass(frozen=True)
class StaffRow:
    enrolment: AutopayEnrolment
    parcel: Parcel
    payer: User
    method: SavedMethod
    failures: list[DebitView]
    last: DebitView | None


def staff_overview(uow: UnitOfWork, staff: Any, limit: int = 200) -> list[StaffRow]:
    """Every enrolment (live first, newest first) with its failed attempts: any staff
    role reads it."""
    access.require_staff(staff)
    rows = uow.session.execute(
        select(AutopayEnrolment, Parcel, User, SavedMethod)
        .join(Parcel, Parcel.id == AutopayEnrolment.parcel_id)
        .join(User, User.id == AutopayEnrolment.user_id)
        .join(SavedMethod, SavedMethod.id == AutopayEnrolment.method_id)
        .order_by(AutopayEnrolment.ended_at.is_not(None), AutopayEnrolment.id.desc())
        .limit(limit)).all()
    ids = [e.id for e, *_ in rows]
    debits: dict[int, list[DebitView]] = {}
    if ids:
        for d, c in uow.session.execute(
                select(AutopayDebit, Checkout)
                .outerjoin(Checkout, Checkout.id == AutopayDebit.checkout_id)
                .where(AutopayDebit.enrolment_id.in_(ids))
                .order_by(AutopayDebit.day, AutopayDebit.id)):
            debits.setdefault(d.enrolment_id, []).append(debit_view(d, c))
    out = []
    for e, parcel, payer, method in rows:
        mine = debits.get(e.id, [])
        out.append(StaffRow(e, parcel, payer, method,
                            [d for d in mine if d.status == "failed"], mine[-1] if mine else None))
    return out
