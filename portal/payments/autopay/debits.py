"""Autopay's day (`run_day`, registered by `portal.domains` with `portal.jobs.daily`): for
each live enrolment, end it if its payer lost the parcel or a lender reported escrow;
tell its payer of a debit `core.autopay.NOTICE_DAYS` ahead; debit what `core.autopay.due_today`
says (exactly the offer's amount for that day), off-session with the saved method, posted by
`fulfilment` (the one exactly-once path of every payment); and tell the payer the same day
of a debit made or failed (with a link to pay it), a failure being tried again once.

Idempotent for its day, whoever runs it: an attempt is a row unique per (enrolment, fiscal
year, target, attempt), inserted and committed before the provider is called (a second run
finds it and does nothing); the provider call carries the checkout's idempotency key; every
email is a row of `autopay_messages`, unique per (enrolment, fiscal year, target, kind),
written in the unit of work that queues it.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Mapping
from datetime import date, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

import portal.payments.autopay.enrolments as enrolments
import portal.payments.autopay.methods as methods
from portal import mail
from portal.config import DEFAULT_BASE_URL, mail_settings
from portal.core import autopay as core
from portal.core import offer as core_offer
from portal.core import payment_states as states
from portal.db import Database, UnitOfWork
from portal.models import Parcel, User
from portal.models.autopay import AutopayDebit, AutopayEnrolment, AutopayMessage, SavedMethod
from portal.models.checkouts import Checkout
from portal.payments import fulfilment, gateway_settings, service
from portal.payments.gateway import ChargeRequest, Gateway, GatewayError

log = logging.getLogger(__name__)

#: The page to pay by hand, and the autopay page, from PORTAL_BASE_URL (emails).
PAY_PATH = "/pagar?parcela={parcel_id}"
AUTOPAY_PATH = "/propiedad/{parcel_id}/pago-automatico"
RECEIPT_PATH = "/pagos/{checkout_id}/recibo"


def _link(config: Mapping[str, Any], path: str) -> str:
    return str(config.get("PORTAL_BASE_URL") or DEFAULT_BASE_URL).rstrip("/") + path


def _message(uow: UnitOfWork, e: AutopayEnrolment, fy_id: int | None, target: str, kind: str,
             day: date) -> bool:
    """Claim the email (enrolment, year, target, kind) once; False when already sent."""
    try:
        with uow.session.begin_nested():
            uow.session.add(AutopayMessage(enrolment_id=e.id, fiscal_year_id=fy_id,
                                           target=target, kind=kind, day=day))
    except IntegrityError:
        return False
    return True


def _send(uow: UnitOfWork, config: Mapping[str, Any], e: AutopayEnrolment, template: str,
          **context: Any) -> None:
    payer = uow.session.get(User, e.user_id)
    parcel = uow.session.get(Parcel, e.parcel_id)
    method = uow.session.get(SavedMethod, e.method_id)
    mail.send(uow, payer.email, template, e.language, config=config, catastro=parcel.catastro,
              method=method, pay_link=_link(config, PAY_PATH.format(parcel_id=parcel.id)),
              autopay_link=_link(config, AUTOPAY_PATH.format(parcel_id=parcel.id)),
              **context)


def _end_if_needed(uow: UnitOfWork, e: AutopayEnrolment, day: date,
                   config: Mapping[str, Any]) -> bool:
    """End the enrolment when its payer lost the parcel or a lender reports escrow."""
    payer = uow.session.get(User, e.user_id)
    parcel = uow.session.get(Parcel, e.parcel_id)
    reason = None
    if payer is None or payer.disabled_at is not None or not enrolments.may_enrol(
            uow, payer, parcel):
        reason = "lost_parcel"
    else:
        fy = enrolments.fiscal_year_on(uow, day)
        if fy is not None and enrolments.escrow_reported(uow, parcel.id, fy.id):
            reason = "escrow"
    if reason is None:
        return False
    methods.end(uow, e, reason, on=day)
    if _message(uow, e, None, reason, "ended", day):
        _send(uow, config, e, "autopay_ended", reason=reason)
    return True


def _notice(uow: UnitOfWork, e: AutopayEnrolment, method: SavedMethod, day: date,
            config: Mapping[str, Any]) -> int:
    """Tell the payer of the debit `notice_days` ahead, once."""
    debit_day = day + timedelta(days=core.notice_days(method.kind))
    parcel = uow.session.get(Parcel, e.parcel_id)
    found = enrolments.account_offer(uow, parcel, debit_day)
    if found is None:
        return 0
    fy, offer = found
    attempts = enrolments.parcel_attempts(uow, parcel.id, fy.id)
    debit = core.notice_for(enrolments.as_core(e, method), offer, attempts)
    if debit is None or not _message(uow, e, fy.id, debit.target, "notice", day):
        return 0
    _send(uow, config, e, "autopay_notice", debit=debit, debit_day=debit_day)
    return 1


def _checkout(uow: UnitOfWork, payer: User, e: AutopayEnrolment, offer: core_offer.Offer,
              debit: core.Debit, provider: str, row: AutopayDebit) -> Checkout:
    """The debit's checkout and payment, priced by the core as a payer's choice is (the
    installments through N, or the lump sum), recorded by `service.record_checkout` as every
    payment is."""
    choice = core_offer.Choice(offer.account.key, debit.kind, through=debit.through)
    part = core_offer.price(offer, choice)
    if part.amount != debit.amount:  # the core's one figure: never anything else
        raise AssertionError(f"autopay {row.id}: {part.amount} != {debit.amount}")
    key = hashlib.sha256(f"autopay-{row.id}".encode()).hexdigest()
    chk = service.record_checkout(uow, user=payer, priced=core_offer.Priced([part]),
                                  language=e.language, provider=provider, key=key)
    return chk


def _attempt(database: Database, gw: Gateway, enrolment_id: int, day: date,
             config: Mapping[str, Any], send_receipt: Callable[[int], Any] | None
             ) -> str | None:
    """One enrolment's day: end, notice, debit. Returns what it did (None: nothing)."""
    with database.unit_of_work() as uow:
        e = uow.session.get(AutopayEnrolment, enrolment_id)
        if e is None or e.ended_at is not None:
            return None
        if _end_if_needed(uow, e, day, config):
            return "ended"
        method = uow.session.get(SavedMethod, e.method_id)
        if method.removed_at is not None:
            methods.end(uow, e, "method_removed", on=day)
            return "ended"
        _notice(uow, e, method, day, config)
        parcel = uow.session.get(Parcel, e.parcel_id)
        found = enrolments.account_offer(uow, parcel, day)
        if found is None:
            return None
        fy, offer = found
        debit = core.due_today(enrolments.as_core(e, method), offer,
                               enrolments.parcel_attempts(uow, parcel.id, fy.id))
        if debit is None:
            return None
        if method.provider != gw.name:
            log.warning("autopay %s: its method is %s's, the gateway %s's", e.id,
                        method.provider, gw.name)
            return None
        payer = uow.session.get(User, e.user_id)
        try:
            with uow.session.begin_nested():
                row = AutopayDebit(enrolment_id=e.id, fiscal_year_id=fy.id, target=debit.target,
                                   numbers=list(debit.numbers), attempt=debit.attempt, day=day,
                                   amount=debit.amount, status="created")
                uow.session.add(row)
        except IntegrityError:
            return None  # another run made this attempt
        chk = _checkout(uow, payer, e, offer, debit, gw.name, row)
        row.checkout_id = chk.id
        request = ChargeRequest(payment_id=str(chk.id), amount=chk.amount,
                                customer_id=method.customer_id,
                                method_id=method.provider_method_id,
                                description=f"District benefit assessment, parcel "
                                f"{parcel.catastro} (autopay)",
                                parcel_ids=[str(parcel.id)],
                                idempotency_key=chk.idempotency_key)
        row_id, chk_id = row.id, chk.id
    # Committed: the attempt is ours. Now the provider (its key makes a retry the same).
    try:
        session = gw.charge_saved(request)
    except GatewayError as exc:
        log.warning("autopay: debit %s: %s %s", row_id, exc.kind, exc)
        with database.unit_of_work() as uow:
            chk = fulfilment.lock_checkout(uow, chk_id)
            fulfilment.transition(uow, chk, states.FAILED,
                                  failure=(exc.code or f"gateway_{exc.kind}")[:40])
            row = uow.session.get(AutopayDebit, row_id)
            row.status = "failed"
            row.failure_code = (exc.code or exc.kind)[:60]
        _tell_outcomes(database, enrolment_id, day, config)
        return "failed"
    with database.unit_of_work() as uow:
        chk = fulfilment.lock_checkout(uow, chk_id)
        if chk.status == states.CREATED:
            chk.status = states.PENDING
            for p in fulfilment.payments_of(uow, chk.id, lock=True):
                p.status = states.PENDING
            uow.session.flush()
        outcome = fulfilment.fulfil(uow, chk_id, session.id, gateway=gw)
        row = uow.session.get(AutopayDebit, row_id)
        row.status = enrolments.attempt_status(row, chk)
    if send_receipt is not None and outcome.kind in ("posted", "settled"):
        try:
            send_receipt(chk_id)
        except Exception:  # the money is posted; `portal payments reconcile` sends it later
            log.exception("autopay: the receipt of checkout %s", chk_id)
    _tell_outcomes(database, enrolment_id, day, config)
    return outcome.kind


def _tell_outcomes(database: Database, enrolment_id: int, day: date,
                   config: Mapping[str, Any]) -> int:
    """Tell the payer, once each, of every attempt debited or failed (a bank debit's failure
    is known days later: told the day the task sees it)."""
    sent = 0
    with database.unit_of_work() as uow:
        e = uow.session.get(AutopayEnrolment, enrolment_id)
        rows = enrolments.attempts(uow, [e.id], enrolments.fiscal_year_on(uow, day).id) \
            if enrolments.fiscal_year_on(uow, day) else []
        for d, c in rows:
            status = enrolments.attempt_status(d, c)
            if status != d.status and status in ("failed", "succeeded", "processing"):
                d.status = status
                d.failure_code = d.failure_code or (c.failure_code if c else None)
            suffix = "" if d.attempt == 1 else f"-{d.attempt}"
            view = enrolments.debit_view(d, c)
            if status in ("succeeded", "processing") and _message(
                    uow, e, d.fiscal_year_id, d.target + suffix, "debited", day):
                _send(uow, config, e, "autopay_debited", debit=view,
                      receipt_link=_link(config, RECEIPT_PATH.format(checkout_id=c.id)))
                sent += 1
            elif status == "failed" and _message(uow, e, d.fiscal_year_id, d.target + suffix,
                                                 "failed", day):
                _send(uow, config, e, "autopay_failed", debit=view,
                      retry=d.attempt < core.MAX_ATTEMPTS and e.ended_at is None,
                      retry_day=max(day, d.day + timedelta(days=core.RETRY_AFTER_DAYS)))
                sent += 1
    return sent


def run_day(database: Database, day: date, *, gateway: Gateway | None = None,
            config: Mapping[str, Any] | None = None,
            send_receipt: Callable[[int], Any] | None = None) -> dict[str, int]:
    """Autopay's work for `day` (see the module): counts of what it did."""
    config = mail_settings() if config is None else config
    gw = gateway if gateway is not None else gateway_settings.gateway(config, database)
    with database.unit_of_work() as uow:
        ids = list(uow.session.scalars(select(AutopayEnrolment.id).where(
            AutopayEnrolment.ended_at.is_(None), AutopayEnrolment.starts_on <= day)
            .order_by(AutopayEnrolment.id)))
    counts: dict[str, int] = {}
    for enrolment_id in ids:
        try:
            done = _attempt(database, gw, enrolment_id, day, config, send_receipt)
            if done is None:
                _tell_outcomes(database, enrolment_id, day, config)
        except GatewayError as exc:  # the provider unreachable: the next hour tries again
            log.warning("autopay: enrolment %s: %s", enrolment_id, exc)
            done = "unavailable"
        if done:
            counts[done] = counts.get(done, 0) + 1
    counts["enrolments"] = len(ids)
    return counts
