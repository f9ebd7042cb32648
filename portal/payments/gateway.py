"""Payment gateways: Stripe Checkout, or the built-in sandbox when no keys are set.

The rest of the portal speaks only to `Gateway`: create a checkout session for a payment we have
already recorded, read a session back, refund. Amounts cross this boundary as `Decimal`; the
integer cents Stripe wants are made here, with `to_minor_units` / `from_minor_units`
(DESIGN.md 3). Every checkout carries a stable idempotency key per attempt, so a double click,
a retry or a second tab never creates a second session (or charge).

    gateway = gateway_from_config(os.environ)          # StripeGateway or SandboxGateway

Errors are `GatewayError` with a `kind`: "unavailable" (network, Stripe down, rate limited:
try again later), "declined" (the card or bank said no), "rejected" (our request was refused:
a bug or a configuration problem). Nothing here touches our database except the sandbox's own
store of sessions, which stands in for Stripe's.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, Protocol

from portal.core.money import from_minor_units, to_minor_units

log = logging.getLogger(__name__)

CURRENCY = "usd"
#: The methods a payer may choose in Checkout, sent as `allowed_payment_method_types` (the
#: Checkout Session parameter of the API version the pinned library sends).
PAYMENT_METHOD_TYPES = ("card", "us_bank_account")
#: Stripe Checkout has no "es-PR": Latin-American Spanish ("es-419") is Puerto Rico's.
CHECKOUT_LOCALES = {"es": "es-419", "en": "en"}
#: Stripe's limits on what we send (longer is refused with a 400).
METADATA_VALUE_MAX = 500
DESCRIPTION_MAX = 1000


def payer_language(language: str | None) -> str:
    """"es" or "en" for a user's language: es_PR / es-PR / es -> "es", en* -> "en"."""
    base = (language or "es").replace("-", "_").split("_", 1)[0].lower()
    return base if base in CHECKOUT_LOCALES else "es"


def checkout_locale(language: str | None) -> str:
    """The Checkout locale for a user's language: Spanish -> "es-419", English -> "en"."""
    return CHECKOUT_LOCALES[payer_language(language)]


def fit_description(text: str, limit: int = DESCRIPTION_MAX) -> str:
    """`text` within `limit` characters: a list too long is cut after its last whole item
    (", "-separated) that fits, followed by "…" and how many items were left out."""
    if len(text) <= limit:
        return text
    items = text.split(", ")
    for keep in range(len(items) - 1, 0, -1):
        cut = ", ".join(items[:keep]) + f", … (+{len(items) - keep})"
        if len(cut) <= limit:
            return cut
    return text[:limit - 1] + "…"


class GatewayError(Exception):
    """The provider could not do what we asked. `kind`: unavailable | declined | rejected."""

    def __init__(self, kind: str, message: str, *, code: str | None = None):
        super().__init__(message)
        self.kind = kind
        self.code = code


@dataclass(frozen=True)
class CheckoutRequest:
    payment_id: str
    amount: Decimal
    description: str
    parcel_ids: Sequence[str]
    success_url: str
    cancel_url: str
    idempotency_key: str
    language: str = "es"
    customer_email: str | None = None
    currency: str = CURRENCY

    def metadata(self) -> dict[str, str]:
        """Our checkout id, and how many parcels it pays. The parcel ids too while their list
        fits in one metadata value (Stripe: 500 characters); never a partial list: the
        checkout's parcels are ours to keep (`checkout_payments`)."""
        out = {"payment_id": self.payment_id, "parcel_count": str(len(self.parcel_ids))}
        ids = ",".join(self.parcel_ids)
        if len(ids) <= METADATA_VALUE_MAX:
            out["parcel_ids"] = ids
        return out


@dataclass(frozen=True)
class CheckoutSession:
    """What we read back about a session (a Stripe Checkout Session, or the sandbox's)."""

    id: str
    url: str | None
    status: str  # open | complete | expired
    payment_status: str  # paid | unpaid | no_payment_required
    amount: Decimal | None
    currency: str | None
    client_reference_id: str | None
    metadata: Mapping[str, str] = field(default_factory=dict)
    payment_intent: str | None = None
    method: str | None = None  # card | us_bank_account
    last4: str | None = None
    brand: str | None = None  # card brand, e.g. "visa"
    bank_name: str | None = None
    intent_status: str | None = None  # the PaymentIntent's: processing | succeeded | ...
    # When the payer completed it, as the provider recorded it (R-A6: a card or bank payment
    # counts when the payer completes it). Stripe creates a Checkout Session's PaymentIntent
    # when the payer confirms (API versions since 2022-08-01): its `created`.
    completed_at: datetime | None = None

    @property
    def paid(self) -> bool:
        return self.payment_status == "paid"

    @property
    def completed(self) -> bool:
        return self.status == "complete"


@dataclass(frozen=True)
class Refund:
    id: str
    amount: Decimal
    status: str  # pending | succeeded | failed | ...


@dataclass(frozen=True)
class SetupRequest:
    """Save a payer's card or bank account for later off-session debits (autopay): a
    SetupIntent, collected on the provider's page (Checkout in setup mode, or the sandbox's).
    `customer_id`: the payer's customer at the provider, None to create one."""

    setup_id: str
    success_url: str
    cancel_url: str
    idempotency_key: str
    language: str = "es"
    customer_id: str | None = None
    customer_email: str | None = None
    customer_name: str | None = None
    currency: str = CURRENCY


@dataclass(frozen=True)
class SetupSession:
    """What we read back about a setup: where the payer goes, and once complete the payment
    method saved (card or us_bank_account, with what the payer recognises)."""

    id: str
    url: str | None
    status: str  # open | complete | expired
    customer_id: str | None
    reference: str | None  # our setup's id
    method_id: str | None = None
    method: str | None = None  # card | us_bank_account
    last4: str | None = None
    brand: str | None = None
    bank_name: str | None = None
    setup_intent: str | None = None

    @property
    def saved(self) -> bool:
        return self.status == "complete" and self.method_id is not None


@dataclass(frozen=True)
class ChargeRequest:
    """An off-session debit of a saved method (autopay): confirmed at once, the payer not
    present. Its `payment_id` is our checkout's, as a Checkout Session's reference is."""

    payment_id: str
    amount: Decimal
    customer_id: str
    method_id: str
    description: str
    parcel_ids: Sequence[str]
    idempotency_key: str
    currency: str = CURRENCY

    def metadata(self) -> dict[str, str]:
        return CheckoutRequest(self.payment_id, self.amount, self.description, self.parcel_ids,
                               "", "", self.idempotency_key).metadata()


class Gateway(Protocol):
    name: str

    def create_checkout(self, req: CheckoutRequest) -> CheckoutSession: ...

    def retrieve(self, session_id: str) -> CheckoutSession: ...

    def refund(self, payment_intent: str, amount: Decimal, idempotency_key: str,
               metadata: Mapping[str, str] | None = None) -> Refund: ...

    def construct_event(self, payload: bytes, signature: str | None) -> dict[str, Any]: ...

    def create_setup(self, req: SetupRequest) -> SetupSession: ...

    def retrieve_setup(self, setup_session_id: str) -> SetupSession: ...

    def charge_saved(self, req: ChargeRequest) -> CheckoutSession: ...

    def detach(self, method_id: str) -> None: ...


# --- Stripe -------------------------------------------------------------------------------

class StripeGateway:
    """Stripe Checkout through the official library (`stripe.StripeClient`).

    `api_base` points the library at another server (the tests' local Stripe-compatible one).
    """

    name = "stripe"

    def __init__(self, secret_key: str, webhook_secret: str | None = None,
                 api_base: str | None = None, max_network_retries: int = 2):
        import stripe

        kwargs: dict[str, Any] = {"max_network_retries": max_network_retries}
        if api_base:
            kwargs["base_addresses"] = {"api": api_base}
        self._stripe = stripe
        self.client = stripe.StripeClient(secret_key, **kwargs)
        self.webhook_secret = webhook_secret

    def create_checkout(self, req: CheckoutRequest) -> CheckoutSession:
        if req.amount <= 0:
            raise GatewayError("rejected", "amount must be positive")
        metadata = req.metadata()
        description = fit_description(req.description)
        params: dict[str, Any] = {
            "mode": "payment",
            "line_items": [{
                "quantity": 1,
                "price_data": {
                    "currency": req.currency,
                    "unit_amount": to_minor_units(req.amount),
                    "product_data": {"name": description},
                },
            }],
            "allowed_payment_method_types": list(PAYMENT_METHOD_TYPES),
            "locale": checkout_locale(req.language),
            "client_reference_id": req.payment_id,
            "metadata": metadata,
            "payment_intent_data": {"metadata": metadata, "description": description},
            "success_url": req.success_url,
            "cancel_url": req.cancel_url,
        }
        if req.customer_email:
            params["customer_email"] = req.customer_email
        session = self._call(self.client.v1.checkout.sessions.create, params=params,
                             options={"idempotency_key": req.idempotency_key})
        return self._session(session)

    def retrieve(self, session_id: str) -> CheckoutSession:
        if session_id.startswith("pi_"):  # an off-session debit (autopay): its PaymentIntent
            return self._intent(self._call(self.client.v1.payment_intents.retrieve, session_id,
                                           params={"expand": ["payment_method"]}))
        session = self._call(self.client.v1.checkout.sessions.retrieve, session_id,
                             params={"expand": ["payment_intent.payment_method"]})
        return self._session(session)

    def refund(self, payment_intent: str, amount: Decimal, idempotency_key: str,
               metadata: Mapping[str, str] | None = None) -> Refund:
        params: dict[str, Any] = {"payment_intent": payment_intent,
                                  "amount": to_minor_units(amount)}
        if metadata:
            params["metadata"] = dict(metadata)
        refund = _plain(self._call(self.client.v1.refunds.create, params=params,
                                   options={"idempotency_key": idempotency_key}))
        return Refund(str(refund["id"]), from_minor_units(int(refund["amount"])),
                      str(refund.get("status") or "pending"))

    # -- saved methods and off-session debits (autopay) -------------------------------------

    def create_setup(self, req: SetupRequest) -> SetupSession:
        """A Checkout Session in setup mode (its SetupIntent saves the method on the
        payer's customer, created first when the payer has none)."""
        customer = req.customer_id
        if customer is None:
            params: dict[str, Any] = {"metadata": {"setup_id": req.setup_id}}
            if req.customer_email:
                params["email"] = req.customer_email
            if req.customer_name:
                params["name"] = req.customer_name[:256]
            found = _plain(self._call(self.client.v1.customers.create, params=params,
                                      options={"idempotency_key": req.idempotency_key + "-c"}))
            customer = str(found["id"])
        metadata = {"setup_id": req.setup_id}
        session = self._call(self.client.v1.checkout.sessions.create, params={
            "mode": "setup", "currency": req.currency, "customer": customer,
            "allowed_payment_method_types": list(PAYMENT_METHOD_TYPES),
            "locale": checkout_locale(req.language), "client_reference_id": req.setup_id,
            "metadata": metadata, "setup_intent_data": {"metadata": metadata},
            "success_url": req.success_url, "cancel_url": req.cancel_url,
        }, options={"idempotency_key": req.idempotency_key})
        return self._setup(session)

    def retrieve_setup(self, setup_session_id: str) -> SetupSession:
        session = self._call(self.client.v1.checkout.sessions.retrieve, setup_session_id,
                             params={"expand": ["setup_intent.payment_method"]})
        return self._setup(session)

    def charge_saved(self, req: ChargeRequest) -> CheckoutSession:
        """A PaymentIntent confirmed off-session with the saved method (the payer is not
        there: a card needing authentication is declined, `authentication_required`)."""
        if req.amount <= 0:
            raise GatewayError("rejected", "amount must be positive")
        metadata = req.metadata()
        intent = self._call(self.client.v1.payment_intents.create, params={
            "amount": to_minor_units(req.amount), "currency": req.currency,
            "customer": req.customer_id, "payment_method": req.method_id,
            "allowed_payment_method_types": list(PAYMENT_METHOD_TYPES),
            "off_session": True, "confirm": True,
            "description": fit_description(req.description), "metadata": metadata,
            "expand": ["payment_method"],
        }, options={"idempotency_key": req.idempotency_key})
        return self._intent(intent)

    def detach(self, method_id: str) -> None:
        self._call(self.client.v1.payment_methods.detach, method_id)

    @staticmethod
    def _setup(obj: Any) -> SetupSession:
        s = _plain(obj)
        seti = s.get("setup_intent")
        seti_id = method_id = method = last4 = brand = bank = None
        if isinstance(seti, str):
            seti_id = seti
        elif seti:
            seti_id = seti.get("id")
            pm = seti.get("payment_method")
            if isinstance(pm, str):
                method_id = pm
            elif pm:
                method_id, method = pm.get("id"), pm.get("type")
                if method == "card" and pm.get("card"):
                    last4, brand = pm["card"].get("last4"), pm["card"].get("brand")
                elif method == "us_bank_account" and pm.get("us_bank_account"):
                    last4 = pm["us_bank_account"].get("last4")
                    bank = pm["us_bank_account"].get("bank_name")
            if seti.get("status") != "succeeded":
                method_id = None
        customer = s.get("customer")
        if isinstance(customer, dict):
            customer = customer.get("id")
        return SetupSession(id=str(s["id"]), url=s.get("url"),
                            status=str(s.get("status") or "open"), customer_id=customer,
                            reference=s.get("client_reference_id"), method_id=method_id,
                            method=method, last4=last4, brand=brand, bank_name=bank,
                            setup_intent=seti_id)

    @staticmethod
    def _intent(obj: Any) -> CheckoutSession:
        """A PaymentIntent read as the checkout session it stands for (so `fulfil` reads an
        off-session debit as it reads a Checkout): complete once confirmed; paid when it
        succeeded; the intent's status says processing or failed."""
        pi = _plain(obj)
        status = str(pi.get("status") or "")
        pm = pi.get("payment_method")
        method = last4 = brand = bank = None
        if pm and not isinstance(pm, str):
            method = pm.get("type")
            if method == "card" and pm.get("card"):
                last4, brand = pm["card"].get("last4"), pm["card"].get("brand")
            elif method == "us_bank_account" and pm.get("us_bank_account"):
                last4 = pm["us_bank_account"].get("last4")
                bank = pm["us_bank_account"].get("bank_name")
        metadata = {str(k): str(v) for k, v in dict(pi.get("metadata") or {}).items()}
        created = pi.get("created")
        open_states = ("requires_confirmation", "requires_action")
        return CheckoutSession(
            id=str(pi["id"]), url=None,
            status="open" if status in open_states else "complete",
            payment_status="paid" if status == "succeeded" else "unpaid",
            amount=from_minor_units(int(pi["amount"])) if pi.get("amount") is not None
            else None, currency=pi.get("currency"),
            client_reference_id=metadata.get("payment_id"), metadata=metadata,
            payment_intent=str(pi["id"]), method=method, last4=last4, brand=brand,
            bank_name=bank, intent_status=status,
            completed_at=datetime.fromtimestamp(created, tz=UTC)
            if isinstance(created, int) else None)

    def construct_event(self, payload: bytes, signature: str | None) -> dict[str, Any]:
        """The event, once its signature over the raw body checks out (else ValueError)."""
        if not self.webhook_secret:
            raise ValueError("no webhook secret configured")
        if not signature:
            raise ValueError("missing Stripe-Signature header")
        try:
            self._stripe.WebhookSignature.verify_header(
                payload.decode("utf-8"), signature, self.webhook_secret, tolerance=300)
        except self._stripe.SignatureVerificationError as exc:
            raise ValueError(f"bad signature: {exc}") from None
        except UnicodeDecodeError:
            raise ValueError("payload is not UTF-8") from None
        import json
        try:
            event = json.loads(payload)
        except ValueError:
            raise ValueError("payload is not JSON") from None
        if not isinstance(event, dict):
            raise ValueError("payload is not an event")
        return event

    def _call(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        s = self._stripe
        try:
            return fn(*args, **kwargs)
        except s.CardError as exc:
            raise GatewayError("declined", str(exc.user_message or exc), code=exc.code) from exc
        except (s.APIConnectionError, s.RateLimitError) as exc:
            raise GatewayError("unavailable", str(exc)) from exc
        except s.APIError as exc:
            raise GatewayError("unavailable", str(exc)) from exc
        except s.StripeError as exc:
            raise GatewayError("rejected", str(exc), code=getattr(exc, "code", None)) from exc

    @staticmethod
    def _session(obj: Any) -> CheckoutSession:
        s = _plain(obj)
        pi = s.get("payment_intent")
        pi_id = method = last4 = brand = bank = intent_status = completed_at = None
        if isinstance(pi, str):
            pi_id = pi
        elif pi:
            pi_id = pi.get("id")
            intent_status = pi.get("status")
            if isinstance(pi.get("created"), int):
                completed_at = datetime.fromtimestamp(pi["created"], tz=UTC)
            pm = pi.get("payment_method")
            if pm and not isinstance(pm, str):
                method = pm.get("type")
                if method == "card" and pm.get("card"):
                    last4 = pm["card"].get("last4")
                    brand = pm["card"].get("brand")
                elif method == "us_bank_account" and pm.get("us_bank_account"):
                    last4 = pm["us_bank_account"].get("last4")
                    bank = pm["us_bank_account"].get("bank_name")
        amount = s.get("amount_total")
        metadata = s.get("metadata") or {}
        return CheckoutSession(
            id=str(s["id"]), url=s.get("url"), status=str(s.get("status") or "open"),
            payment_status=str(s.get("payment_status") or "unpaid"),
            amount=from_minor_units(int(amount)) if amount is not None else None,
            currency=s.get("currency"), client_reference_id=s.get("client_reference_id"),
            metadata={str(k): str(v) for k, v in dict(metadata).items()},
            payment_intent=pi_id, method=method, last4=last4, brand=brand, bank_name=bank,
            intent_status=intent_status, completed_at=completed_at)


def _plain(obj: Any) -> dict[str, Any]:
    """A Stripe object as plain data (stripe 16 objects are not dicts)."""
    return obj.to_dict() if hasattr(obj, "to_dict") else dict(obj)


# --- The built-in sandbox ------------------------------------------------------------------

@dataclass
class SandboxRecord:
    """A sandbox checkout session: the sandbox's own state, standing in for Stripe's."""

    id: str
    idempotency_key: str
    payment_id: str
    amount: Decimal
    currency: str
    locale: str
    description: str
    metadata: dict[str, str]
    success_url: str
    cancel_url: str
    created_at: datetime | None = None
    status: str = "open"
    payment_status: str = "unpaid"
    method: str | None = None
    last4: str | None = None
    bank_name: str | None = None
    payment_intent: str | None = None
    intent_status: str | None = None
    refunded: Decimal = Decimal("0.00")


class SandboxStore(Protocol):
    """Where the sandbox keeps its sessions (the database in the portal; a dict in tests)."""

    def by_key(self, idempotency_key: str) -> SandboxRecord | None: ...

    def get(self, session_id: str) -> SandboxRecord | None: ...

    def by_intent(self, payment_intent: str) -> SandboxRecord | None: ...

    def add(self, record: SandboxRecord) -> SandboxRecord: ...

    def save(self, record: SandboxRecord) -> None: ...


class MemorySandboxStore:
    def __init__(self) -> None:
        self.records: dict[str, SandboxRecord] = {}

    def by_key(self, idempotency_key: str) -> SandboxRecord | None:
        return next((r for r in self.records.values()
                     if r.idempotency_key == idempotency_key), None)

    def get(self, session_id: str) -> SandboxRecord | None:
        return self.records.get(session_id)

    def by_intent(self, payment_intent: str) -> SandboxRecord | None:
        return next((r for r in self.records.values()
                     if r.payment_intent == payment_intent), None)

    def add(self, record: SandboxRecord) -> SandboxRecord:
        existing = self.by_key(record.idempotency_key)
        if existing is not None:
            return existing
        self.records[record.id] = record
        return record

    def save(self, record: SandboxRecord) -> None:
        self.records[record.id] = record


@dataclass
class SandboxSetupRecord:
    """A sandbox SetupIntent: the payer saves a test card or bank account on its page."""

    id: str
    idempotency_key: str
    customer_id: str
    reference: str
    locale: str
    success_url: str
    cancel_url: str
    status: str = "open"
    method_id: str | None = None
    method: str | None = None
    last4: str | None = None
    bank_name: str | None = None
    detached: bool = False


class SetupStore(Protocol):
    """Where the sandbox keeps its SetupIntents (the database in the portal; a dict in tests)."""

    def by_key(self, idempotency_key: str) -> SandboxSetupRecord | None: ...

    def get(self, setup_id: str) -> SandboxSetupRecord | None: ...

    def by_method(self, method_id: str) -> SandboxSetupRecord | None: ...

    def add(self, record: SandboxSetupRecord) -> SandboxSetupRecord: ...

    def save(self, record: SandboxSetupRecord) -> None: ...


class MemorySetupStore:
    def __init__(self) -> None:
        self.records: dict[str, SandboxSetupRecord] = {}

    def by_key(self, idempotency_key: str) -> SandboxSetupRecord | None:
        return next((r for r in self.records.values()
                     if r.idempotency_key == idempotency_key), None)

    def get(self, setup_id: str) -> SandboxSetupRecord | None:
        return self.records.get(setup_id)

    def by_method(self, method_id: str) -> SandboxSetupRecord | None:
        return next((r for r in self.records.values() if r.method_id == method_id), None)

    def add(self, record: SandboxSetupRecord) -> SandboxSetupRecord:
        existing = self.by_key(record.idempotency_key)
        if existing is not None:
            return existing
        self.records[record.id] = record
        return record

    def save(self, record: SandboxSetupRecord) -> None:
        self.records[record.id] = record


#: What the payer can save on the sandbox's setup page: a card that pays, a card that will
#: be declined (last four 0002, as Stripe's test card), a bank account (its debits process,
#: then settle or fail).
SANDBOX_SETUP_OUTCOMES = ("card", "card_declines", "bank")


#: What the payer can choose on the sandbox's checkout page.
SANDBOX_OUTCOMES = ("card_succeeds", "card_declined", "bank_processing")


class SandboxGateway:
    """A checkout that runs inside the portal, clearly marked as test mode, with no keys.

    The session's page is `checkout_url` (served by the payments blueprint); there the payer
    chooses an outcome (`SANDBOX_OUTCOMES`), `complete` records it, and the caller then runs
    the same event handling a Stripe webhook would. A bank payment stays "processing" until
    `settle` says whether the debit succeeded.
    """

    name = "sandbox"

    def __init__(self, store: SandboxStore, checkout_url: str = "/pagos/prueba/{session_id}",
                 setup_store: SetupStore | None = None,
                 setup_url: str = "/pagos/prueba/metodo/{setup_id}"):
        self.store = store
        self.checkout_url = checkout_url
        self.setup_store = setup_store if setup_store is not None else MemorySetupStore()
        self.setup_url = setup_url

    # -- saved methods and off-session debits (autopay) -------------------------------------

    def create_setup(self, req: SetupRequest) -> SetupSession:
        existing = self.setup_store.by_key(req.idempotency_key)
        if existing is not None:
            if existing.reference != req.setup_id:
                raise GatewayError("rejected", "idempotency key reused with other parameters")
            return self._setup(existing)
        record = SandboxSetupRecord(
            id="seti_sandbox_" + secrets.token_hex(12), idempotency_key=req.idempotency_key,
            customer_id=req.customer_id or "cus_sandbox_" + secrets.token_hex(8),
            reference=req.setup_id, locale=payer_language(req.language),
            success_url=req.success_url, cancel_url=req.cancel_url)
        return self._setup(self.setup_store.add(record))

    def retrieve_setup(self, setup_session_id: str) -> SetupSession:
        record = self.setup_store.get(setup_session_id)
        if record is None:
            raise GatewayError("rejected", f"no such setup: {setup_session_id}")
        return self._setup(record)

    def complete_setup(self, setup_session_id: str, outcome: str) -> SetupSession:
        """The payer's choice on the sandbox's setup page (`SANDBOX_SETUP_OUTCOMES`)."""
        if outcome not in SANDBOX_SETUP_OUTCOMES:
            raise GatewayError("rejected", f"unknown sandbox outcome: {outcome}")
        record = self.setup_store.get(setup_session_id)
        if record is None:
            raise GatewayError("rejected", f"no such setup: {setup_session_id}")
        if record.status != "open":
            return self._setup(record)
        record.status = "complete"
        record.method_id = "pm_sandbox_" + secrets.token_hex(12)
        if outcome == "bank":
            record.method, record.last4, record.bank_name = "us_bank_account", "6789", \
                "STRIPE TEST BANK"
        else:
            record.method = "card"
            record.last4 = "0002" if outcome == "card_declines" else "4242"
        self.setup_store.save(record)
        return self._setup(record)

    def charge_saved(self, req: ChargeRequest) -> CheckoutSession:
        """An off-session debit: a test card ending 0002 is declined (402, as Stripe's), a
        bank account's debit is processing until `settle`, any other card pays."""
        if req.amount <= 0:
            raise GatewayError("rejected", "amount must be positive")
        existing = self.store.by_key(req.idempotency_key)
        if existing is not None:
            if existing.amount != req.amount or existing.payment_id != req.payment_id:
                raise GatewayError("rejected", "idempotency key reused with other parameters")
            if existing.intent_status == "requires_payment_method":
                raise GatewayError("declined", "Your card was declined.", code="card_declined")
            return self._session(existing)
        method = self.setup_store.by_method(req.method_id)
        if method is None or method.detached or method.customer_id != req.customer_id:
            raise GatewayError("rejected", f"no such payment method: {req.method_id}")
        pi = "pi_sandbox_" + secrets.token_hex(12)
        record = SandboxRecord(
            id=pi, idempotency_key=req.idempotency_key, payment_id=req.payment_id,
            amount=req.amount, currency=req.currency, locale=method.locale,
            description=req.description, metadata=req.metadata(), success_url="",
            cancel_url="", status="complete", payment_intent=pi, method=method.method,
            last4=method.last4, bank_name=method.bank_name)
        if method.method == "us_bank_account":
            record.intent_status = "processing"
        elif method.last4 == "0002":
            record.intent_status = "requires_payment_method"
        else:
            record.payment_status, record.intent_status = "paid", "succeeded"
        record = self.store.add(record)
        if record.intent_status == "requires_payment_method":
            raise GatewayError("declined", "Your card was declined.", code="card_declined")
        return self._session(record)

    def detach(self, method_id: str) -> None:
        record = self.setup_store.by_method(method_id)
        if record is None:
            raise GatewayError("rejected", f"no such payment method: {method_id}")
        record.detached = True
        self.setup_store.save(record)

    def _setup(self, r: SandboxSetupRecord) -> SetupSession:
        return SetupSession(
            id=r.id, url=self.setup_url.format(setup_id=r.id), status=r.status,
            customer_id=r.customer_id, reference=r.reference, method_id=r.method_id,
            method=r.method, last4=r.last4, brand="visa" if r.method == "card" else None,
            bank_name=r.bank_name, setup_intent=r.id)

    def create_checkout(self, req: CheckoutRequest) -> CheckoutSession:
        if req.amount <= 0:
            raise GatewayError("rejected", "amount must be positive")
        existing = self.store.by_key(req.idempotency_key)
        if existing is not None:
            if existing.amount != req.amount or existing.payment_id != req.payment_id:
                # Stripe answers 400 to a reused key with different parameters.
                raise GatewayError("rejected", "idempotency key reused with other parameters")
            return self._session(existing)
        record = SandboxRecord(
            id="cs_sandbox_" + secrets.token_hex(12), idempotency_key=req.idempotency_key,
            payment_id=req.payment_id, amount=req.amount, currency=req.currency,
            locale=payer_language(req.language), description=req.description,
            metadata=req.metadata(), success_url=req.success_url, cancel_url=req.cancel_url)
        return self._session(self.store.add(record))

    def retrieve(self, session_id: str) -> CheckoutSession:
        record = self.store.get(session_id)
        if record is None:
            raise GatewayError("rejected", f"no such checkout session: {session_id}")
        return self._session(record)

    def complete(self, session_id: str, outcome: str) -> tuple[CheckoutSession, str]:
        """The payer's choice on the sandbox page; returns the session and the event type a
        provider would send ("" when nothing changed, e.g. a second click)."""
        if outcome not in SANDBOX_OUTCOMES:
            raise GatewayError("rejected", f"unknown sandbox outcome: {outcome}")
        record = self.store.get(session_id)
        if record is None:
            raise GatewayError("rejected", f"no such checkout session: {session_id}")
        if record.status != "open":
            return self._session(record), ""
        record.status = "complete"
        record.payment_intent = "pi_sandbox_" + secrets.token_hex(12)
        kind = "checkout.session.completed"
        if outcome == "card_succeeds":
            record.payment_status, record.method = "paid", "card"
            record.last4, record.intent_status = "4242", "succeeded"
        elif outcome == "card_declined":
            # The sandbox ends the attempt as a failed payment (the payer starts a new one);
            # it reaches us as a failed asynchronous payment does.
            record.payment_status, record.method = "unpaid", "card"
            record.last4, record.intent_status = "0002", "requires_payment_method"
            kind = "checkout.session.async_payment_failed"
        else:
            record.payment_status, record.method = "unpaid", "us_bank_account"
            record.last4, record.bank_name = "6789", "STRIPE TEST BANK"
            record.intent_status = "processing"
        self.store.save(record)
        return self._session(record), kind

    def settle(self, session_id: str, succeeded: bool) -> tuple[CheckoutSession, str]:
        """A bank debit settles (or fails) some days later."""
        record = self.store.get(session_id)
        if record is None:
            raise GatewayError("rejected", f"no such checkout session: {session_id}")
        if record.intent_status != "processing":
            return self._session(record), ""
        if succeeded:
            record.payment_status, record.intent_status = "paid", "succeeded"
            kind = "checkout.session.async_payment_succeeded"
        else:
            record.intent_status = "requires_payment_method"
            kind = "checkout.session.async_payment_failed"
        self.store.save(record)
        return self._session(record), kind

    def expire(self, session_id: str) -> tuple[CheckoutSession, str]:
        record = self.store.get(session_id)
        if record is None:
            raise GatewayError("rejected", f"no such checkout session: {session_id}")
        if record.status != "open":
            return self._session(record), ""
        record.status = "expired"
        self.store.save(record)
        return self._session(record), "checkout.session.expired"

    def refund(self, payment_intent: str, amount: Decimal, idempotency_key: str,
               metadata: Mapping[str, str] | None = None) -> Refund:
        record = self.store.by_intent(payment_intent)
        if record is None or record.payment_status != "paid":
            raise GatewayError("rejected", "nothing to refund on this payment")
        if amount <= 0 or record.refunded + amount > record.amount:
            raise GatewayError("rejected", "refund larger than what is left of the charge")
        record.refunded += amount
        self.store.save(record)
        return Refund("re_sandbox_" + secrets.token_hex(12), amount, "succeeded")

    def construct_event(self, payload: bytes, signature: str | None) -> dict[str, Any]:
        raise ValueError("the sandbox receives no webhooks")

    def _session(self, r: SandboxRecord) -> CheckoutSession:
        return CheckoutSession(
            id=r.id, url=self.checkout_url.format(session_id=r.id), status=r.status,
            payment_status=r.payment_status, amount=r.amount, currency=r.currency,
            client_reference_id=r.payment_id, metadata=dict(r.metadata),
            payment_intent=r.payment_intent, method=r.method, last4=r.last4,
            bank_name=r.bank_name, intent_status=r.intent_status)


def gateway_from_config(config: Mapping[str, Any], sandbox_store: SandboxStore | None = None,
                        sandbox_url: str = "/pagos/prueba/{session_id}",
                        setup_store: SetupStore | None = None,
                        setup_url: str = "/pagos/prueba/metodo/{setup_id}") -> Gateway:
    """StripeGateway when STRIPE_SECRET_KEY is set, else the sandbox."""
    key = config.get("STRIPE_SECRET_KEY")
    if key:
        return StripeGateway(key, webhook_secret=config.get("STRIPE_WEBHOOK_SECRET"),
                             api_base=config.get("STRIPE_API_BASE") or None,
                             max_network_retries=int(config.get("STRIPE_MAX_RETRIES", 2)))
    return SandboxGateway(sandbox_store or MemorySandboxStore(), checkout_url=sandbox_url,
                          setup_store=setup_store, setup_url=setup_url)
