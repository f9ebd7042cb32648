"""Payment operations for the web layer and the commands (no Flask here).

- `payable_accounts`: the accounts a user may pay, each with its `Offer` (what can be paid,
  computed by the core) — through the access policy (DESIGN.md 6).
- `start_checkout`: record the checkout and its payments BEFORE the payer leaves, then ask the
  gateway for a session with a stable idempotency key. The same payer asking for the same thing
  while it is still open (a double click, a second tab) gets the same checkout and session.
- `others_paying`: someone else's payment of the same accounts still open or processing (the
  owner and the lender paying the same installments at once): `start_checkout` refuses to
  start another (`OthersPaying`) until the payer confirms they want to pay anyway.
- `post_office_payment`: staff records cash or a check through the same ledger.
- `refund_credit`: staff gives back an account's credit (through the provider when the money
  came by card or bank; by the office otherwise).
"""

from __future__ import annotations

import functools
import hashlib
import logging
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import and_, bindparam, or_, select, true, update
from sqlalchemy.exc import IntegrityError

from portal import clock
from portal.accounts import access, audit, bulk, facts, in_force, statements
from portal.accounts.errors import Forbidden, InvalidInput, NotFound
from portal.core import offer as core_offer
from portal.core import payment_states as states
from portal.core.money import ZERO, to_minor_units
from portal.core.offer import ChoiceError
from portal.db import Database, UnitOfWork
from portal.models import FiscalYear, Parcel, Payment
from portal.models.checkouts import Checkout, CheckoutPayment
from portal.payments import fulfilment, ledger
from portal.payments.gateway import CheckoutRequest, Gateway, GatewayError

log = logging.getLogger(__name__)

#: Relations that may pay a parcel online (R-A16: owner or lessee; a lender may pay for them;
#: a delegate reads, and pays only where the owner allowed it: `may_pay`). Staff record
#: office payments instead.
PAYERS = ("owner", "lessee", "lender")


def may_pay(uow: UnitOfWork, user: Any, rows: list[tuple[Any, str]]) -> list[tuple[Any, str]]:
    """The (parcel, relation) of `rows` the user may pay online: a payer's (`PAYERS`), and a
    delegate's the owner allowed to pay (`access.parcels_delegated_to_pay`)."""
    delegated = [p.id for p, rel in rows if rel == "delegate"]
    allowed = access.parcels_delegated_to_pay(uow, user, delegated) if delegated else set()
    return [(p, rel) for p, rel in rows if rel in PAYERS or p.id in allowed]


@dataclass(frozen=True)
class PayableAccount:
    key: str  # "<parcel id>-<fiscal year id>": what the browser posts
    parcel: Parcel
    fiscal_year: FiscalYear
    relation: str
    offer: core_offer.Offer
    payer: str = "owner"

    @property
    def parcel_id(self) -> int:
        return self.parcel.id

    @property
    def fiscal_year_id(self) -> int:
        return self.fiscal_year.id


def account_key(parcel_id: int, fiscal_year_id: int) -> str:
    return f"{parcel_id}-{fiscal_year_id}"


def parse_key(key: str) -> tuple[int, int]:
    try:
        p, f = key.split("-", 1)
        return int(p), int(f)
    except (AttributeError, ValueError):
        raise NotFound() from None




def account_offers(uow: UnitOfWork, parcels: Sequence[tuple[Parcel, str]], on: date,
                   *, include_settled: bool = False, rows: bool = False
                   ) -> list[PayableAccount]:
    """Each parcel's accounts: past fiscal years with something left to pay, and the current
    and next ones once assessed (a lump sum is paid in advance, R-A11). Every year's accounts
    with the last demand mailed on each in one statement, whatever the number of years
    (read-only records: an offer is computed, nothing written). `rows=True` (a page that
    only shows them): the fiscal years are plain records, not `FiscalYear`s, read with the
    Board's parameters (the unit of work's `in_force.parameter_set`) in one statement."""
    if rows:  # the Board's parameters read with them (`in_force.rows_json`)
        found = uow.session.execute(_FISCAL_YEAR_ROWS).all()
        if found:
            in_force.read_rows_json(uow, found[0][-1])
        record = statements.FiscalYearRecord._make
        years = [record(r[:-1]) for r in found]
    else:
        years = list(uow.session.scalars(_FISCAL_YEARS))
    ids = [p.id for p, _ in parcels]
    # Each account with the last demand mailed on it (the offer says what stops the claim).
    loaded = facts.load_years(uow, ids, years, demands=True) if ids else {}
    out: list[PayableAccount] = []
    for fy in years:
        current = on <= fy.ends_on
        for parcel, rel in parcels:
            f = loaded.get((parcel.id, fy.id))
            if f is None:
                continue
            key = account_key(parcel.id, fy.id)
            offer = f.offer(on, key=key, label=parcel.catastro,
                            demand=f.last_demand, with_later=False)
            if offer.payoff > 0 or current or include_settled:
                out.append(PayableAccount(key, parcel, fy, rel, offer, f.assessment.payer))
    out.sort(key=lambda a: (a.parcel.catastro, a.fiscal_year.starts_on))
    return out


_FISCAL_YEARS = select(FiscalYear).order_by(FiscalYear.starts_on)
_FISCAL_YEAR_ROWS = (select(FiscalYear.__table__, in_force.rows_json())
                     .order_by(FiscalYear.__table__.c.starts_on))


def payable_accounts(uow: UnitOfWork, user: Any, on: date | None = None,
                     parcel_id: int | None = None, *, rows: bool = False
                     ) -> list[PayableAccount]:
    """The accounts `user` may pay online (optionally of one parcel), with their offers.
    `rows=True` (the pay page, which only shows them): the parcels and fiscal years are
    plain records of their columns, read in fewer statements, not ORM objects."""
    on = on or clock.today()
    linked = access.linked_parcel_rows(uow, user) if rows else access.linked_parcels(uow, user)
    payable = may_pay(uow, user, linked)
    if parcel_id is not None:
        payable = [(p, rel) for p, rel in payable if p.id == int(parcel_id)]
    return account_offers(uow, payable, on, rows=rows)


def staff_account(uow: UnitOfWork, user: Any, parcel_id: int, fiscal_year_id: int,
                  on: date | None = None) -> PayableAccount:
    """One account for staff (office payments, refunds); NotFound / Forbidden otherwise."""
    access.require_staff(user)
    parcel = uow.session.get(Parcel, int(parcel_id))
    fy = uow.session.get(FiscalYear, int(fiscal_year_id))
    if parcel is None or fy is None:
        raise NotFound()
    found = account_offers(uow, [(parcel, "staff")], on or clock.today(), include_settled=True)
    for a in found:
        if a.fiscal_year.id == fy.id:
            return a
    raise NotFound("no_assessment")


def open_checkouts(uow: UnitOfWork, user: Any, within_hours: int = 24) -> list[Any]:
    """The user's payments started and not finished (to offer to continue them rather than
    pay twice): rows of (amount, checkout_url, created_at), newest first."""
    since = clock.now() - timedelta(hours=within_hours)
    return uow.session.execute(_OPEN_CHECKOUTS, {"user": user.id, "since": since}).all()


# Built once, over the table's columns (plain rows, no ORM step): the pay page asks it on
# every request.
_CHECKOUTS = Checkout.__table__
_OPEN_CHECKOUTS = (select(_CHECKOUTS.c.amount, _CHECKOUTS.c.checkout_url,
                          _CHECKOUTS.c.created_at)
                   .where(_CHECKOUTS.c.user_id == bindparam("user"),
                          _CHECKOUTS.c.status.in_(sorted(states.OPEN)),
                          _CHECKOUTS.c.checkout_url.is_not(None),
                          _CHECKOUTS.c.created_at >= bindparam("since"))
                   .order_by(_CHECKOUTS.c.created_at.desc()))


@dataclass(frozen=True)
class OtherPayer:
    """Someone else's payment of accounts the user is about to pay: who (the name on the
    checkout, "" when it has none), when it was started, its state (created or pending: not
    finished; processing: a bank debit settling) and the accounts in common."""

    checkout_id: int
    name: str
    started_at: datetime
    status: str
    accounts: tuple[str, ...]


class OthersPaying(Exception):
    """Someone else is paying the same accounts (`others`); the payer has not confirmed."""

    def __init__(self, others: list[OtherPayer]):
        super().__init__(f"{len(others)} other payment(s) of the same accounts")
        self.others = others


@functools.lru_cache(maxsize=2)
def _others_paying(signed_in: bool) -> Any:
    """`others_paying`'s statement (:pids, :since, and :user when `signed_in`: the payer's
    own checkouts left out), built once: the lender's loan page asks it on every request."""
    not_theirs = (Checkout.user_id != bindparam("user")) if signed_in else true()
    return (select(Checkout, Payment.parcel_id, Payment.fiscal_year_id)
            .join(CheckoutPayment, CheckoutPayment.checkout_id == Checkout.id)
            .join(Payment, Payment.id == CheckoutPayment.payment_id)
            .where(Payment.parcel_id.in_(bindparam("pids", expanding=True)),
                   Checkout.user_id.is_not(None), not_theirs,
                   or_(and_(Checkout.status.in_(sorted(states.OPEN)),
                            Checkout.checkout_url.is_not(None),
                            Checkout.created_at >= bindparam("since")),
                       Checkout.status == states.PROCESSING))
            .order_by(Checkout.created_at, Checkout.id))


def others_paying(uow: UnitOfWork, user: Any, account_keys: Sequence[str],
                  within_hours: int = 24) -> list[OtherPayer]:
    """Payments by anyone but `user` of any of these accounts ("parcel-fiscal year") that are
    not finished: started within `within_hours` and still open (as `open_checkouts`), or a
    bank debit processing. Office payments are settled at once and never count."""
    wanted = {parse_key(k) for k in account_keys}
    if not wanted:
        return []
    since = clock.now() - timedelta(hours=within_hours)
    # A guest (no account, `guest.GuestPayer`) sees every signed-in payer's as someone else's.
    params = {"pids": sorted({p for p, _ in wanted}), "since": since}
    if user.id is not None:
        params["user"] = int(user.id)
    rows = uow.session.execute(_others_paying(user.id is not None), params).all()
    found: dict[int, tuple[Checkout, list[str]]] = {}
    for chk, parcel_id, fy_id in rows:
        if (parcel_id, fy_id) in wanted:
            found.setdefault(chk.id, (chk, []))[1].append(account_key(parcel_id, fy_id))
    return [OtherPayer(chk.id, chk.payer_name or "", chk.created_at, chk.status,
                       tuple(sorted(set(keys)))) for chk, keys in found.values()]


# --- checkout ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Started:
    checkout_id: int
    url: str
    reused: bool


def open_key(user_id: int | str, priced: core_offer.Priced) -> str:
    """Same payer, same choice: the same key while the checkout is open (double click, tab).
    A guest's payer is its session (`guest.GuestPayer.open_key_id`)."""
    parts = sorted(f"{p.account}|{p.kind}|{p.through}|{p.amount}|{p.lump_sum}"
                   for p in priced.parts)
    return hashlib.sha256(f"{user_id}#{';'.join(parts)}".encode()).hexdigest()


def record_checkout(uow: UnitOfWork, *, user: Any, priced: core_offer.Priced, language: str,
                    provider: str, key: str, others: Sequence[OtherPayer] = ()) -> Checkout:
    """A new checkout of the priced parts and its payments (created, not yet sent to the
    provider), audited; the caller's unit of work commits it."""
    chk = Checkout(user_id=user.id, payer_name=getattr(user, "name", "") or "",
                   payer_email=getattr(user, "email", None), language=language,
                   provider=provider, status=states.CREATED, amount=priced.total,
                   idempotency_key=f"checkout-{uuid.uuid4().hex}", open_key=key)
    uow.session.add(chk)
    uow.session.flush()
    for n, part in enumerate(priced.parts, start=1):
        parcel_id, fy_id = parse_key(part.account)
        p = Payment(parcel_id=parcel_id, fiscal_year_id=fy_id, user_id=user.id,
                    status=states.CREATED, method="card", amount=part.amount,
                    lump_sum=part.lump_sum, purpose=part.kind, provider=provider,
                    idempotency_key=f"{chk.idempotency_key}-{n}")
        uow.session.add(p)
        uow.session.flush()
        uow.session.add(CheckoutPayment(
            checkout_id=chk.id, payment_id=p.id, position=n,
            installments_through=part.through if part.kind == "installments" else None))
    uow.session.flush()
    after: dict[str, Any] = {"amount": chk.amount, "parts": [
        {"account": p.account, "kind": p.kind, "amount": p.amount, "lump_sum": p.lump_sum}
        for p in priced.parts]}
    if others:  # confirmed while someone else's payment of the same accounts was open
        after["others_paying"] = [o.checkout_id for o in others]
    audit.record(uow, user, "payment.created", chk, after=after)
    return chk


def start_checkout(database: Database, *, user: Any, priced: core_offer.Priced, language: str,
                   gateway: Gateway, success_url: Callable[[int], str],
                   cancel_url: Callable[[int], str], description: str,
                   ip: str | None = None, pay_anyway: bool = False) -> Started:
    """Create (or reuse) the checkout, then the provider session; returns where to send the
    payer. Raises `GatewayError` when the provider fails (the checkout is then marked
    failed: no money moved), and `OthersPaying` when someone else's payment of the same
    accounts is open or processing and the payer has not confirmed (`pay_anyway`): nothing
    is created. The accounts' parcels are locked meanwhile, so two payers starting at once
    are checked one after the other."""
    key = open_key(getattr(user, "open_key_id", None) or user.id, priced)
    lang = "en" if str(language).startswith("en") else "es"
    reused = False
    try:
        with database.unit_of_work() as uow:
            uow.info["ip"] = ip
            existing = uow.session.scalar(select(Checkout).where(Checkout.open_key == key))
            if existing is not None and existing.status in states.OPEN:
                chk_id, reused = existing.id, True
            else:
                keys = [p.account for p in priced.parts]
                ledger.lock_accounts(uow, [parse_key(k)[0] for k in keys])
                others = others_paying(uow, user, keys)
                if others and not pay_anyway:
                    raise OthersPaying(others)
                chk_id = record_checkout(uow, user=user, priced=priced, language=lang,
                                 provider=gateway.name, key=key, others=others).id
    except IntegrityError:
        # A simultaneous request (double click, second tab) created it first: use that one.
        with database.unit_of_work() as uow:
            existing = uow.session.scalar(select(Checkout).where(Checkout.open_key == key))
            if existing is None:
                raise
            chk_id, reused = existing.id, True
    with database.unit_of_work() as uow:
        chk = uow.session.get(Checkout, chk_id)
        assert chk is not None
        if reused and chk.provider_session_id and chk.checkout_url:
            outcome = fulfilment.fulfil(uow, chk.id, gateway=gateway)
            if outcome.kind == "open":
                return Started(chk.id, chk.checkout_url, True)
            # It moved on (paid, expired...): a new attempt is a new checkout.
            chk_id = None
    if chk_id is None:
        return start_checkout(database, user=user, priced=priced, language=language,
                              gateway=gateway, success_url=success_url,
                              cancel_url=cancel_url, description=description, ip=ip,
                              pay_anyway=pay_anyway)
    with database.unit_of_work() as uow:
        chk = uow.session.get(Checkout, chk_id)
        parcel_ids = [str(parse_key(p.account)[0]) for p in priced.parts]
        request = CheckoutRequest(
            payment_id=str(chk.id), amount=chk.amount, description=description,
            parcel_ids=parcel_ids, success_url=success_url(chk.id),
            cancel_url=cancel_url(chk.id), idempotency_key=chk.idempotency_key,
            language=chk.language, customer_email=chk.payer_email)
    return Started(chk_id, _open_session(database, chk_id, request, gateway, ip), reused)


def _open_session(database: Database, chk_id: int, request: CheckoutRequest,
                  gateway: Gateway, ip: str | None) -> str:
    """Ask the provider for the checkout's session and keep it (the checkout and its
    payments pending); the address to send the payer to. A refusal marks the checkout
    failed (no money moved) and raises `GatewayError`."""
    try:
        session = gateway.create_checkout(request)
    except GatewayError as exc:
        log.warning("payments: checkout %s: gateway %s: %s", chk_id, exc.kind, exc)
        with database.unit_of_work() as uow:
            uow.info["ip"] = ip
            chk = fulfilment.lock_checkout(uow, chk_id)
            if chk.status in states.OPEN and chk.provider_session_id is None:
                fulfilment.transition(uow, chk, states.FAILED, failure=f"gateway_{exc.kind}")
        raise
    with database.unit_of_work() as uow:
        chk = fulfilment.lock_checkout(uow, chk_id)
        if chk.provider_session_id is None:
            chk.provider_session_id = session.id
        chk.checkout_url = session.url
        if chk.status == states.CREATED:
            chk.status = states.PENDING
            uow.session.execute(  # one statement, however many payments (forward only)
                update(Payment).where(Payment.id.in_(
                    select(CheckoutPayment.payment_id).where(
                        CheckoutPayment.checkout_id == chk_id)),
                    Payment.status == states.CREATED)
                .values(status=states.PENDING).execution_options(synchronize_session=False))
        chk.updated_at = clock.now()
        return session.url or ""


class PricesChanged(Exception):
    """A checkout of many accounts that does not add up to its total, or whose key's
    checkout moved on (`start_many`)."""


def start_many(database: Database, *, user: Any, key: str, total: Decimal,
               batches: Callable[[UnitOfWork], Any], language: str, gateway: Gateway,
               success_url: Callable[[int], str], cancel_url: Callable[[int], str],
               description: str, ip: str | None = None, pay_anyway: bool = False,
               created: Callable[[UnitOfWork, int], None] | None = None,
               progress: Callable[[int], None] | None = None) -> Started:
    """One checkout of many accounts, each "installments through N" at a prepared amount
    (a lender's bill payment): `batches(uow)` yields lists of (parcel id, fiscal year id,
    through, amount), in parcel id order, and raises when one no longer holds (nothing is
    then written). The checkout, its payments and
    their links are written a batch at a time in one transaction (the parcels locked in id
    order, someone else's open payment of them refused unless `pay_anyway`, as
    `start_checkout`); `created(uow, checkout id)` records it in the same transaction. Then
    the provider's session, as `start_checkout`. The same `key` while its checkout is open
    answers that checkout; one written whose session was never opened (the process that
    wrote it stopped before) has it opened now, with the checkout's own idempotency key,
    so the provider makes one session however often this is called. `progress(n)`: the
    accounts written so far, after each batch."""
    lang = "en" if str(language).startswith("en") else "es"
    with database.unit_of_work() as uow:
        uow.info["ip"] = ip
        existing = uow.session.scalar(select(Checkout).where(Checkout.open_key == key))
        if existing is not None:
            if existing.status in states.OPEN and existing.checkout_url:
                return Started(existing.id, existing.checkout_url, True)
            if existing.status == states.CREATED and existing.provider_session_id is None:
                request = CheckoutRequest(
                    payment_id=str(existing.id), amount=existing.amount,
                    description=description, parcel_ids=[str(p) for p in uow.session.scalars(
                        select(Payment.parcel_id).join(
                            CheckoutPayment, CheckoutPayment.payment_id == Payment.id)
                        .where(CheckoutPayment.checkout_id == existing.id)
                        .order_by(CheckoutPayment.position))],
                    success_url=success_url(existing.id), cancel_url=cancel_url(existing.id),
                    idempotency_key=existing.idempotency_key, language=existing.language,
                    customer_email=existing.payer_email)
                chk_id = existing.id
            else:
                raise PricesChanged()  # started and moved on: prepare the payment again
        else:
            request = None
    if request is not None:
        return Started(chk_id, _open_session(database, chk_id, request, gateway, ip), True)
    with database.unit_of_work() as uow:
        uow.info["ip"] = ip
        chk = Checkout(user_id=user.id, payer_name=getattr(user, "name", "") or "",
                       payer_email=getattr(user, "email", None), language=lang,
                       provider=gateway.name, status=states.CREATED, amount=total,
                       idempotency_key=f"checkout-{uuid.uuid4().hex}", open_key=key)
        uow.session.add(chk)
        uow.session.flush()
        chk_id, chk_key = chk.id, chk.idempotency_key
        n, summed, others_all = 0, ZERO, []
        parcel_ids: list[str] = []
        for items in batches(uow):
            ledger.lock_accounts(uow, [p for p, _fy, _n, _a in items])
            others = others_paying(uow, user, [account_key(p, fy) for p, fy, _n, _a in items])
            if others and not pay_anyway:
                raise OthersPaying(others)
            others_all += others
            rows = []
            for p, fy, _through, amount in items:
                n += 1
                rows.append({"parcel_id": p, "fiscal_year_id": fy, "user_id": user.id,
                             "status": states.CREATED, "method": "card", "amount": amount,
                             "lump_sum": False, "purpose": "installments",
                             "provider": gateway.name, "idempotency_key": f"{chk_key}-{n}"})
                summed += amount
                parcel_ids.append(str(p))
            ids = bulk.insert_rows(uow, Payment, rows, return_ids=True)
            bulk.insert_rows(uow, CheckoutPayment, [
                {"checkout_id": chk_id, "payment_id": pid, "position": n - len(items) + k,
                 "installments_through": through}
                for k, (pid, (_p, _fy, through, _a)) in enumerate(zip(ids, items, strict=True),
                                                                  start=1)],
                known={"checkout_id": [chk_id], "payment_id": ids})
            if progress is not None:
                progress(n)
        if n == 0 or summed != total:
            raise PricesChanged()
        after: dict[str, Any] = {"amount": total, "accounts": n}
        if others_all:
            after["others_paying"] = sorted({o.checkout_id for o in others_all})
        audit.record(uow, user, "payment.created", uow.session.get(Checkout, chk_id),
                     after=after)
        if created is not None:
            created(uow, chk_id)
        request = CheckoutRequest(
            payment_id=str(chk_id), amount=total, description=description,
            parcel_ids=parcel_ids, success_url=success_url(chk_id),
            cancel_url=cancel_url(chk_id), idempotency_key=chk_key, language=lang,
            customer_email=getattr(user, "email", None))
    return Started(chk_id, _open_session(database, chk_id, request, gateway, ip), False)


def start_planned(database: Database, plan: Any, *, user: Any, language: str,
                  gateway: Gateway, description: str, success_url: str, cancel_url: str,
                  ip: str | None = None, pay_anyway: bool = False,
                  progress: Callable[[int], None] | None = None) -> Started:
    """`start_many` of a plan (a lender's prepared bill payment, `lenders.bills.to_start`:
    its key, total, batches, what to record, and the checkout it has already if still
    open); `success_url`, `cancel_url` with "{id}" for the checkout's id. Two runs at
    once (a worker taking over one thought dead): the second's checkout row collides with
    the first's key and it answers the first's checkout."""
    if plan.open is not None:
        return Started(plan.open[0], plan.open[1], True)

    def go() -> Started:
        return start_many(
            database, user=user, key=plan.key, total=plan.total, batches=plan.batches,
            created=plan.created, language=language, gateway=gateway,
            description=description, ip=ip, pay_anyway=pay_anyway,
            success_url=lambda cid: success_url.replace("{id}", str(cid)),
            cancel_url=lambda cid: cancel_url.replace("{id}", str(cid)), progress=progress)

    try:
        return go()
    except IntegrityError:
        return go()


# --- office payments and refunds (staff) ---------------------------------------------------

#: The office payment's text fields and their columns' lengths: a longer one is refused
#: (`InvalidInput("<field>_long")`), never cut short.
OFFICE_LENGTHS = {name: Checkout.__table__.c[name].type.length
                  for name in ("payer_name", "reference")}


class OfficePaymentRefused(ChoiceError):
    """An office payment refused: `params["errors"]` gives every reason at once, by the
    form's field: {field: (code, params)}."""

    def __init__(self, errors: dict[str, tuple[str, dict[str, Any]]]):
        super().__init__("office_payment", None, errors=errors)


def office_payment_errors(payoff: Decimal, key: str, amount: Decimal | None, method: str, *,
                          payer_name: str, reference: str = ""
                          ) -> dict[str, tuple[str, dict[str, Any]]]:
    """Every reason an office payment of `amount` (None: not read) on an account whose payoff
    today is `payoff` is refused, by field: the payer's name (required, at most
    `OFFICE_LENGTHS`), cash or check, a check's number, and the amount within the core's
    limits (`core.offer.check_amount`). The one check of the office form and the service."""
    errors: dict[str, tuple[str, dict[str, Any]]] = {}
    if not payer_name.strip():
        errors["payer_name"] = ("payer_name_missing", {})
    for field, text in (("payer_name", payer_name), ("reference", reference)):
        if len(text.strip()) > OFFICE_LENGTHS[field]:
            errors[field] = (f"{field}_long", {})
    if method not in ("cash", "check"):
        errors["method"] = ("method", {})
    elif method == "check" and not reference.strip():
        errors["reference"] = ("check_number", {})
    if amount is not None:
        try:
            core_offer.check_amount(amount, payoff, key)
        except ChoiceError as exc:
            errors["amount"] = (exc.code, exc.params)
    return errors


def post_office_payment(uow: UnitOfWork, staff: Any, parcel_id: int, fiscal_year_id: int,
                        amount: Decimal, method: str, *, payer_name: str,
                        reference: str = "", language: str = "es") -> Checkout:
    """Cash or a check received at the office: posted today through the same ledger.
    Raises `OfficePaymentRefused` with every reason at once (`office_payment_errors`)."""
    access.require_staff_role(staff, *access.TAKE_PAYMENTS)  # docs/STAFF.md
    account = staff_account(uow, staff, parcel_id, fiscal_year_id)
    errors = office_payment_errors(account.offer.payoff, account.key, amount, method,
                                   payer_name=payer_name, reference=reference)
    if errors:
        raise OfficePaymentRefused(errors)
    lang = "en" if str(language).startswith("en") else "es"
    chk = Checkout(user_id=None, created_by_id=staff.id, payer_name=payer_name.strip(),
                   language=lang, provider="office", status=states.CREATED, amount=amount,
                   idempotency_key=f"office-{uuid.uuid4().hex}", method=method,
                   reference=reference.strip() or None)
    uow.session.add(chk)
    uow.session.flush()
    p = Payment(parcel_id=int(parcel_id), fiscal_year_id=int(fiscal_year_id), user_id=None,
                status=states.CREATED, method=method, amount=amount, lump_sum=False,
                purpose="amount", provider="office", idempotency_key=f"{chk.idempotency_key}-1")
    uow.session.add(p)
    uow.session.flush()
    uow.session.add(CheckoutPayment(checkout_id=chk.id, payment_id=p.id, position=1))
    uow.session.flush()
    fulfilment.transition(uow, fulfilment.lock_checkout(uow, chk.id), states.SUCCEEDED,
                          author_id=staff.id)
    return chk


@dataclass(frozen=True)
class RefundDone:
    amount: Decimal  # what was given back (less than asked when the provider refused a part)
    checkouts: list[int]
    asked: Decimal | None = None

    @property
    def short(self) -> bool:
        return self.asked is not None and self.amount < self.asked


def refund_credit(database: Database, staff: Any, parcel_id: int, fiscal_year_id: int,
                  amount: Decimal, *, gateway: Gateway, note: str = "",
                  ip: str | None = None) -> RefundDone:
    """Give back part or all of an account's credit (R-A10: a credit is refundable).

    The money goes back the way it came: through the provider for card and bank payments
    (the checkout row stays locked during the call, so the provider's `charge.refunded`
    webhook waits and then finds nothing new), by the office for cash and checks.

    A credit made of several payments is given back in parts, the latest payment first. Each
    part is recorded and committed as soon as the provider has returned it, before the next
    call: a refusal of a later part cannot undo the record of money already given back. The
    result then says how much went back (`short`); the rest stays as credit.
    """
    access.require_staff_role(staff, *access.TAKE_PAYMENTS)  # docs/STAFF.md
    with database.unit_of_work() as uow:
        uow.info["ip"] = ip
        account = staff_account(uow, staff, parcel_id, fiscal_year_id)
        credit = account.offer.statement.credit
        if amount is None or amount <= 0:
            raise InvalidInput("zero", field="amount")
        if amount > credit:
            raise InvalidInput("more_than_credit", field="amount", credit=credit)
        ledger.lock_accounts(uow, [int(parcel_id)])
        try:
            plan = fulfilment.refund_plan(uow, int(parcel_id), int(fiscal_year_id), amount)
        except ValueError:
            raise Forbidden("nothing_to_refund") from None
        # Every part can go back the way it came, or none is attempted.
        for chk, _p, _take in plan:
            if chk.provider in ("stripe", "sandbox") and (chk.provider != gateway.name
                                                          or not chk.provider_payment_id):
                raise Forbidden("refund_elsewhere")
        parts = [(chk.id, p.id, take) for chk, p, take in plan]
        done: list[int] = []
        given = ZERO
        for checkout_id, payment_id, take in parts:
            if done:  # the previous part's commit released the locks: take them again
                ledger.lock_accounts(uow, [int(parcel_id)])
            chk = fulfilment.lock_checkout(uow, checkout_id)
            p = uow.session.get(Payment, payment_id)
            if p.amount - p.refunded_amount < take:  # refunded meanwhile by someone else
                break
            provider_refund = None
            if chk.provider in ("stripe", "sandbox"):
                n = to_minor_units(chk.refunded_amount)  # stable for a retry, new per refund
                try:
                    result = gateway.refund(chk.provider_payment_id, take,
                                            f"refund-{chk.id}-{p.id}-{n}",
                                            {"payment_id": str(chk.id), "reason": "credit"})
                except GatewayError:
                    if not done:
                        raise
                    log.warning("refund of credit stopped after %s of %s: the provider "
                                "refused a part", given, amount)
                    break
                provider_refund = result.id
            fulfilment.refund_parts(uow, chk, [(p, take)], reason="credit",
                                    author_id=staff.id, note=note or "credit refunded",
                                    provider_refund_id=provider_refund)
            done.append(chk.id)
            given += take
            uow.commit()
    return RefundDone(given, done, amount)


def receipt_total(chk: Checkout) -> Decimal:
    return chk.amount - (chk.refunded_amount or ZERO)
