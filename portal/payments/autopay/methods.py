"""Saved payment methods: a payer saves a card or bank account (a provider SetupIntent, on
the provider's page: Stripe Checkout in setup mode, or the sandbox's), lists them, removes
one (detached at the provider; the autopay enrolments using it end).

Each payer has one customer at each provider, created with their first setup and reused.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from datetime import date
from typing import Any

from sqlalchemy import select

from portal import clock
from portal.accounts import audit
from portal.accounts.errors import Forbidden, NotFound
from portal.core import autopay as core
from portal.db import Database, UnitOfWork
from portal.models.autopay import AutopayEnrolment, PaymentMethodSetup, SavedMethod
from portal.payments.gateway import Gateway, GatewayError, SetupRequest

log = logging.getLogger(__name__)

#: The provider's method types as the portal names them.
KINDS = {"card": core.METHOD_CARD, "us_bank_account": core.METHOD_BANK}


def _customer(uow: UnitOfWork, user_id: int, provider: str) -> str | None:
    """The payer's customer at the provider, from an earlier setup or saved method."""
    found = uow.session.scalar(
        select(SavedMethod.customer_id).where(SavedMethod.user_id == user_id,
                                              SavedMethod.provider == provider)
        .order_by(SavedMethod.id).limit(1))
    if found:
        return found
    return uow.session.scalar(
        select(PaymentMethodSetup.customer_id).where(
            PaymentMethodSetup.user_id == user_id, PaymentMethodSetup.provider == provider,
            PaymentMethodSetup.customer_id.is_not(None))
        .order_by(PaymentMethodSetup.id).limit(1))


def start_setup(database: Database, user: Any, *, gateway: Gateway, language: str,
                success_url: Callable[[int], str], cancel_url: Callable[[int], str],
                parcel_id: int | None = None) -> str:
    """Record the setup, then ask the provider for its page; returns where to send the
    payer. `GatewayError` when the provider fails (nothing saved)."""
    lang = "en" if str(language).startswith("en") else "es"
    with database.unit_of_work() as uow:
        setup = PaymentMethodSetup(user_id=user.id, provider=gateway.name,
                                   customer_id=_customer(uow, user.id, gateway.name),
                                   idempotency_key=f"setup-{uuid.uuid4().hex}",
                                   return_to=parcel_id, language=lang, status="open")
        uow.session.add(setup)
        uow.session.flush()
        request = SetupRequest(setup_id=str(setup.id), success_url=success_url(setup.id),
                               cancel_url=cancel_url(setup.id),
                               idempotency_key=setup.idempotency_key, language=lang,
                               customer_id=setup.customer_id,
                               customer_email=getattr(user, "email", None),
                               customer_name=getattr(user, "name", None) or None)
        setup_id = setup.id
    session = gateway.create_setup(request)
    with database.unit_of_work() as uow:
        setup = uow.session.get(PaymentMethodSetup, setup_id, with_for_update=True)
        if setup.provider_session_id is None:
            setup.provider_session_id = session.id
        setup.customer_id = setup.customer_id or session.customer_id
    return session.url or ""


def _own_setup(uow: UnitOfWork, user: Any, setup_id: int) -> PaymentMethodSetup:
    setup = uow.session.scalar(select(PaymentMethodSetup).where(
        PaymentMethodSetup.id == int(setup_id)).with_for_update())
    if setup is None or setup.user_id != getattr(user, "id", None):
        raise NotFound()
    return setup


def setup_parcel(uow: UnitOfWork, user: Any, setup_id: int) -> int | None:
    """The parcel whose autopay page asked for the setup (to go back to it)."""
    return _own_setup(uow, user, setup_id).return_to


def finish_setup(uow: UnitOfWork, user: Any, setup_id: int, *, gateway: Gateway
                 ) -> SavedMethod | None:
    """The payer is back from the provider's page: the method saved (once, whatever the
    number of returns), or None when the setup is not complete. Re-read from the provider:
    the return address proves nothing."""
    setup = _own_setup(uow, user, setup_id)
    if setup.provider_session_id is None or setup.provider != gateway.name:
        return None
    session = gateway.retrieve_setup(setup.provider_session_id)
    if session.reference != str(setup.id):
        log.error("payments: setup %s: the provider's session is not ours", setup.id)
        raise Forbidden()
    if session.status == "expired" and setup.status == "open":
        setup.status = "expired"
    if not session.saved or session.method not in KINDS:
        return None
    found = uow.session.scalar(select(SavedMethod).where(
        SavedMethod.provider == setup.provider,
        SavedMethod.provider_method_id == session.method_id))
    if found is not None:
        return found
    setup.status = "complete"
    setup.customer_id = setup.customer_id or session.customer_id
    method = SavedMethod(user_id=user.id, setup_id=setup.id, provider=setup.provider,
                         customer_id=session.customer_id or setup.customer_id or "",
                         provider_method_id=session.method_id, kind=KINDS[session.method],
                         brand=session.brand, bank_name=session.bank_name, last4=session.last4)
    uow.session.add(method)
    uow.session.flush()
    audit.record(uow, user, "payment_method.saved", method,
                 after={"kind": method.kind, "last4": method.last4})
    return method


def saved_methods(uow: UnitOfWork, user: Any, provider: str | None = None) -> list[SavedMethod]:
    """The payer's methods not removed, oldest first (of one provider when given: the
    gateway in use)."""
    stmt = select(SavedMethod).where(SavedMethod.user_id == getattr(user, "id", None),
                                     SavedMethod.removed_at.is_(None))
    if provider is not None:
        stmt = stmt.where(SavedMethod.provider == provider)
    return list(uow.session.scalars(stmt.order_by(SavedMethod.id)))


def listed(uow: UnitOfWork, user: Any) -> list[tuple[SavedMethod, list[str]]]:
    """The payer's methods, each with the catastro numbers of the live autopay using it."""
    from portal.models import Parcel

    out = []
    for method in saved_methods(uow, user):
        used = list(uow.session.scalars(
            select(Parcel.catastro).join(AutopayEnrolment, AutopayEnrolment.parcel_id == Parcel.id)
            .where(AutopayEnrolment.method_id == method.id, AutopayEnrolment.ended_at.is_(None))
            .order_by(Parcel.catastro)))
        out.append((method, used))
    return out


def get_method(uow: UnitOfWork, user: Any, method_id: int | str) -> SavedMethod:
    """One of the payer's own methods, not removed; NotFound otherwise."""
    from portal.accounts.access import parse_id

    found = uow.session.get(SavedMethod, parse_id(method_id))
    if found is None or found.user_id != getattr(user, "id", None) or found.removed_at:
        raise NotFound()
    return found


def remove(uow: UnitOfWork, user: Any, method_id: int | str, *, gateway: Gateway) -> list[int]:
    """Remove a saved method: detached at the provider, marked removed; the enrolments
    that use it end (`method_removed`). Returns their ids."""
    method = get_method(uow, user, method_id)
    if method.provider == gateway.name:
        try:
            gateway.detach(method.provider_method_id)
        except GatewayError as exc:
            if exc.kind == "unavailable":
                raise
            log.warning("payments: detaching method %s: %s", method.id, exc)
    method.removed_at = clock.now()
    ended = []
    for enrolment in uow.session.scalars(select(AutopayEnrolment).where(
            AutopayEnrolment.method_id == method.id, AutopayEnrolment.ended_at.is_(None))):
        end(uow, enrolment, "method_removed", by=user)
        ended.append(enrolment.id)
    audit.record(uow, user, "payment_method.removed", method, after={"ended": ended})
    return ended


def end(uow: UnitOfWork, enrolment: AutopayEnrolment, reason: str, *, by: Any = None,
        on: date | None = None) -> None:
    """End an enrolment once: no debit from `on` (default today) on."""
    if enrolment.ended_at is not None:
        return
    enrolment.ended_at = clock.now()
    enrolment.ended_on = on or clock.today()
    enrolment.end_reason = reason
    enrolment.ended_by_id = getattr(by, "id", None)
    uow.session.flush()
    audit.record(uow, by, f"autopay.{reason}", enrolment, after={"reason": reason})
