"""Paying a parcel without an account: a guest opens one parcel's pay flow
by its catastro number and the access code printed on its notice, or by the signed link the
notice's and the statement's QR code carries, and pays what the offer says can be paid.

No Flask here. The web layer keeps the guest's session (`GuestPass`: the one parcel, when it
ends, the checkouts it started) and asks this module for everything else:

- `open_by_code`: the catastro number and a live access code of the parcel (the claim's
  codes, `accounts.parcels.check_code`); wrong ones are throttled per address with the claim
  form's counters and limits (`accounts.throttle`, `parcels.MAX_ADDRESS_FAILURES` in
  `parcels.ADDRESS_WINDOW`), never per parcel: an owner typing the right code gets in
  however many others guessed wrong.
- `read_pay_link`: the pass of the QR code's link (`accounts.pay_links`: signed with the
  portal's SECRET_KEY, naming the parcel, good for `LINK_DAYS`).
- `accounts`: the parcel's accounts with their offers (`service.account_offers`): what the
  guest may pay, nothing else of the account.
- `start_checkout`: the same checkout as a signed-in payer's (`service.start_checkout`:
  same gateway, same exactly-once fulfilment), with no user: the payer's email (for the
  receipt) and name on the checkout.
- `checkout`: a checkout the guest's session started, for its receipt; `NotFound` for any
  other.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import select

from portal import clock
from portal.accounts import parcels, pay_links, throttle
from portal.accounts.errors import ClaimRateLimited, ClaimRefused, NotFound
from portal.core import offer as core_offer
from portal.db import Database, UnitOfWork
from portal.models import AccessCode, Parcel, Payment
from portal.models.checkouts import Checkout, CheckoutPayment
from portal.payments import service
from portal.payments.gateway import Gateway

#: How long a guest's session lasts after the code or the link opened it.
SESSION_MINUTES = 30
#: The signed link (`accounts.pay_links`: the notices print it, below payments).
LINK_DAYS = pay_links.LINK_DAYS
START_PATH = pay_links.START_PATH
pay_link = pay_links.pay_link
pay_link_token = pay_links.pay_link_token


@dataclass
class GuestPass:
    """What the guest's session holds: the one parcel it opens, until when, a random id of
    the session (its checkouts' reuse key), and the checkouts it started."""

    parcel_id: int
    expires_at: datetime
    key: str = field(default_factory=lambda: secrets.token_hex(16))
    checkouts: list[int] = field(default_factory=list)

    @property
    def live(self) -> bool:
        return clock.now() < self.expires_at

    def renewed(self) -> GuestPass:
        """The same pass, open `SESSION_MINUTES` from now (a checkout was just started)."""
        self.expires_at = clock.now() + timedelta(minutes=SESSION_MINUTES)
        return self

    def as_dict(self) -> dict[str, Any]:
        return {"p": self.parcel_id, "e": self.expires_at.isoformat(), "k": self.key,
                "c": list(self.checkouts)}

    @classmethod
    def from_dict(cls, data: Any) -> GuestPass | None:
        try:
            found = cls(int(data["p"]), datetime.fromisoformat(data["e"]), str(data["k"]),
                        [int(c) for c in data.get("c", [])])
        except (KeyError, TypeError, ValueError):
            return None
        return found if found.live else None


def new_pass(parcel_id: int) -> GuestPass:
    return GuestPass(int(parcel_id), clock.now() + timedelta(minutes=SESSION_MINUTES))


@dataclass(frozen=True)
class GuestPayer:
    """The payer of a guest checkout: no account (`id` None), the email the receipt goes to,
    the name printed on it, and the session's key (`open_key_id`: a second click or tab of the
    same session reuses its checkout; another guest's is another)."""

    email: str
    name: str
    session_key: str
    id: None = None

    @property
    def open_key_id(self) -> str:
        return f"guest:{self.session_key}"


# --- opening the pay flow --------------------------------------------------------------------

def _address_key(uow: UnitOfWork) -> str | None:
    ip = uow.info.get("ip")
    return f"guestpay:ip:{ip}" if ip else None


def open_by_code(uow: UnitOfWork, catastro: str, code: str) -> GuestPass:
    """The guest's pass to the parcel whose catastro number and live access code were typed.
    Raises `ClaimRateLimited` (too many wrong tries from this address lately) or
    `ClaimRefused` (unknown catastro or wrong code: one error for both); a wrong try is
    counted and committed even though it raises."""
    key = _address_key(uow)
    limit, window = parcels.MAX_ADDRESS_FAILURES, parcels.ADDRESS_WINDOW
    if key is not None and throttle.blocked(uow, key, limit, window):
        raise ClaimRateLimited(retry_after=throttle.retry_after(uow, key, limit, window))
    typed = parcels.normalise_catastro(catastro)
    parcel = uow.session.scalar(select(Parcel).where(Parcel.catastro == typed)) if typed else None
    codes = [] if parcel is None else list(uow.session.scalars(select(AccessCode).where(
        AccessCode.parcel_id == parcel.id, AccessCode.revoked_at.is_(None))))
    if parcel is None or not any(parcels.check_code(c.code_hash, code) for c in codes):
        if key is not None:
            throttle.hit(uow, key, limit, window)
        uow.commit()  # the wrong try counts even though it is refused
        raise ClaimRefused()
    return new_pass(parcel.id)


def read_pay_link(uow: UnitOfWork, token: str, secret: str) -> GuestPass:
    """The guest's pass from a pay link's token; `ClaimRefused` for a token changed, signed
    with another key, older than `LINK_DAYS` or naming no parcel."""
    parcel_id = pay_links.parcel_of(token, secret)
    if parcel_id is None or uow.session.get(Parcel, parcel_id) is None:
        raise ClaimRefused()
    return new_pass(parcel_id)


# --- paying ----------------------------------------------------------------------------------

def _parcel(uow: UnitOfWork, guest: GuestPass) -> Parcel:
    if not guest.live:
        raise NotFound()
    parcel = uow.session.get(Parcel, guest.parcel_id)
    if parcel is None:
        raise NotFound()
    return parcel


def accounts(uow: UnitOfWork, guest: GuestPass, on: date | None = None
             ) -> list[service.PayableAccount]:
    """The accounts of the guest's parcel that can be paid, with their offers."""
    parcel = _parcel(uow, guest)
    return service.account_offers(uow, [(parcel, "guest")], on or clock.today())


def start_checkout(database: Database, guest: GuestPass, payer: GuestPayer,
                   priced: core_offer.Priced, *, language: str, gateway: Gateway,
                   description: str, success_url: Callable[[int], str],
                   cancel_url: Callable[[int], str], ip: str | None = None,
                   pay_anyway: bool = False) -> service.Started:
    """The guest's checkout: only the guest's parcel's accounts (`NotFound` otherwise)."""
    with database.unit_of_work() as uow:
        parcel = _parcel(uow, guest)
    if any(service.parse_key(p.account)[0] != parcel.id for p in priced.parts):
        raise NotFound()
    started = service.start_checkout(database, user=payer, priced=priced, language=language,
                                     gateway=gateway, success_url=success_url,
                                     cancel_url=cancel_url, description=description, ip=ip,
                                     pay_anyway=pay_anyway)
    if started.checkout_id not in guest.checkouts:
        guest.checkouts.append(started.checkout_id)
    return started


def checkout(uow: UnitOfWork, guest: GuestPass | None, checkout_id: int | str) -> Checkout:
    """A checkout the guest's session started (no user, the guest's parcel only)."""
    try:
        cid = int(checkout_id)
    except (TypeError, ValueError):
        raise NotFound() from None
    if guest is None or cid not in guest.checkouts:
        raise NotFound()
    chk = uow.session.get(Checkout, cid)
    if chk is None or chk.user_id is not None:
        raise NotFound()
    parcel_ids: Sequence[int] = uow.session.scalars(
        select(Payment.parcel_id).join(CheckoutPayment, CheckoutPayment.payment_id == Payment.id)
        .where(CheckoutPayment.checkout_id == cid)).all()
    if not parcel_ids or set(parcel_ids) != {guest.parcel_id}:
        raise NotFound()
    return chk
