"""A local Stripe-compatible server for tests: the real `stripe` library talks to it.

It implements the few endpoints the portal uses and RECORDS every request, so tests assert
what we send (amount in cents, currency, metadata, idempotency key, locale):

    POST /v1/checkout/sessions             create (honours Idempotency-Key like Stripe)
    GET  /v1/checkout/sessions/{id}        retrieve (expand[]=payment_intent.payment_method)
    POST /v1/checkout/sessions/{id}/expire expire an open session
    GET  /v1/payment_intents/{id}          retrieve
    POST /v1/refunds                       refund part or all of a payment intent
    GET  /v1/refunds/{id}                  retrieve
    POST /v1/customers                     create a customer (autopay's payer)
    GET  /v1/setup_intents/{id}            retrieve (a setup-mode Checkout Session's)
    POST /v1/payment_intents               create and confirm off-session with a saved method
    POST /v1/payment_methods/{id}/detach   remove a saved method from its customer

A setup-mode Checkout Session (`mode=setup`) takes no `line_items` and needs `currency`
(dynamic payment methods), as the real API; `complete_setup` plays the payer saving a card
or bank account (a SetupIntent succeeded, its PaymentMethod attached to the session's
customer). An off-session PaymentIntent is refused like the real API refuses it:
`off_session` without `confirm=true`, a saved method without its `customer` (or with
another's), a detached or unknown method, a method type not allowed, under $0.50.
`decline_method` makes every later off-session charge of a method a 402 `card_declined`
(the PaymentIntent left `requires_payment_method`, in the error as Stripe puts it); a bank
account's charge is `processing` until `settle_intent`.

Like the real API it refuses (400, `invalid_request_error` naming the parameter) what the
API version of the pinned library does not accept: every form or query is unflattened
(`line_items[0][price_data][currency]` -> nested dicts and lists) and checked recursively
against the library's generated request type for that endpoint (`stripe.params`, e.g.
`SessionCreateParams`): an unknown key (`payment_method_types`, gone in that version), an
enum value outside its `Literal[...]`, a malformed integer or boolean, a missing required key.
It also enforces the limits Stripe has and the types do not carry (`LIMITS`):
client_reference_id 200 characters, metadata 50 keys / 40-character keys / 500-character
values, payment_intent_data.description 1,000, idempotency key 255; and a Stripe-Version
other than the library's is refused (the types are that version's).

Test controls play the payer's and the bank's part: `complete` (card or bank account),
`settle` (the bank debit succeeds or fails), `expire`, `tamper`, `fail_refund` (a refund that
fails days later), `dispute` (the payer disputes the charge); `fail_next` makes the next
request answer an error (402 card_declined by default); `event` builds the webhook event
Stripe would send, and `signed` signs it with Stripe's scheme (t=..., v1=HMAC-SHA256).
"""

from __future__ import annotations

import json
import re
import secrets
import sys
import threading
import time
import types
import typing
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import stripe
from stripe._request_options import RequestOptions
from stripe._stripe_object import UntypedStripeObject
from stripe.params import (
    CustomerCreateParams,
    PaymentIntentCreateParams,
    PaymentIntentRetrieveParams,
    PaymentMethodDetachParams,
    RefundCreateParams,
    RefundRetrieveParams,
    SetupIntentRetrieveParams,
)
from stripe.params.checkout import (
    SessionCreateParams,
    SessionExpireParams,
    SessionRetrieveParams,
)


def unflatten(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """Stripe's form encoding back to nested data: a[b][0][c]=x -> {"a": {"b": [{"c": "x"}]}}.

    Lists come back as dicts keyed "0", "1", ...; `_lists` turns those into lists.
    """
    root: dict[str, Any] = {}
    for key, value in pairs:
        parts = key.replace("]", "").split("[")
        node = root
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return _lists(root)


def _lists(node: Any) -> Any:
    if isinstance(node, dict):
        if node and all(k.isdigit() for k in node):
            return [_lists(node[k]) for k in sorted(node, key=int)]
        return {k: _lists(v) for k, v in node.items()}
    return node


# --- what the pinned library's API version accepts --------------------------------------------

#: The keys of `RequestOptions` (api_key, idempotency_key, ...) are the library's call options,
#: not request parameters: every params class inherits them.
_OPTION_KEYS = frozenset(RequestOptions.__annotations__)
_INTEGER = re.compile(r"-?\d+\Z")
_DECIMAL = re.compile(r"-?(\d+(\.\d*)?|\.\d+)\Z")

#: Stripe's limits that the generated types do not carry.
LIMITS = {"client_reference_id": 200, "metadata_keys": 50, "metadata_key": 40,
          "metadata_value": 500, "payment_intent_data.description": 1000,
          "idempotency_key": 255}


class ParamError(Exception):
    """A request Stripe would refuse: 400, `invalid_request_error`, naming the parameter."""

    def __init__(self, param: str | None, message: str, code: str | None = None):
        super().__init__(message)
        self.param = param
        self.code = code

    def body(self) -> dict[str, Any]:
        error: dict[str, Any] = {"type": "invalid_request_error", "message": str(self)}
        if self.param is not None:
            error["param"] = self.param
        if self.code is not None:
            error["code"] = self.code
        return {"error": error}


def _name(path: str, key: str) -> str:
    return f"{path}[{key}]" if path else key


def _resolve(ann: Any, module: str) -> Any:
    """A forward reference (the generated files quote most of them) as the type it names."""
    if isinstance(ann, typing.ForwardRef):
        ann = ann.__forward_arg__
    if isinstance(ann, str):
        ann = eval(ann, vars(sys.modules[module]))  # noqa: S307 (the library's own annotations)
    return ann


def _is_map(origin: Any) -> bool:
    """`Dict[str, X]`, or the library's `UntypedStripeObject[X]` (metadata and the like)."""
    return origin is dict or (isinstance(origin, type) and issubclass(origin, UntypedStripeObject))


def _is_params(ann: Any) -> bool:
    return isinstance(ann, type) and issubclass(ann, dict) and hasattr(ann, "__annotations__")


def check_params(params_class: type, data: Any) -> None:
    """Raise `ParamError` unless `data` (the unflattened form or query) is what
    `params_class` (a `stripe.params` class) accepts: no key it does not define, enum values
    among its `Literal[...]`, integers and booleans where it says so, objects and lists where
    it has them, its required keys present. Stripe's string limits are `check_limits`."""
    _check(data, params_class, "", params_class.__module__)


def _check(value: Any, ann: Any, path: str, module: str) -> None:
    ann = _resolve(ann, module)
    origin, args = typing.get_origin(ann), typing.get_args(ann)
    if origin in (typing.NotRequired, typing.Required):
        _check(value, args[0], path, module)
    elif origin in (typing.Union, types.UnionType):
        _check_union(value, [_resolve(a, module) for a in args], path, module)
    elif origin is typing.Literal:
        if value not in [str(a).lower() if isinstance(a, bool) else str(a) for a in args]:
            raise ParamError(path, f"Invalid {path}: must be one of "
                             f"{', '.join(str(a) for a in args)}")
    elif origin is list:
        if not isinstance(value, list):
            raise ParamError(path, f"Invalid array: {path}", "parameter_invalid_array")
        for n, item in enumerate(value):
            _check(item, args[0], f"{path}[{n}]", module)
    elif _is_map(origin):
        if not isinstance(value, dict):
            raise ParamError(path, f"Invalid object: {path}", "parameter_invalid_object")
        for key, item in value.items():
            _check(item, args[-1], _name(path, key), module)
    elif _is_params(ann):
        _check_object(value, ann, path)
    elif ann is str:
        if not isinstance(value, str):
            raise ParamError(path, f"Invalid string: {path}", "parameter_invalid_string")
    elif ann is int:
        if not (isinstance(value, str) and _INTEGER.match(value)):
            raise ParamError(path, f"Invalid integer: {value}", "parameter_invalid_integer")
    elif ann is bool:
        if value not in ("true", "false"):
            raise ParamError(path, f"Invalid boolean: {value}", "parameter_invalid_boolean")
    elif ann in (Decimal, float):
        if not (isinstance(value, str) and _DECIMAL.match(value)):
            raise ParamError(path, f"Invalid decimal: {value}", "parameter_invalid_decimal")
    elif ann is not typing.Any:
        raise ParamError(path, f"the test server cannot check {path} ({ann!r})")


def _literal_values(alternatives: list[Any]) -> set[str]:
    return {str(a) for alt in alternatives if typing.get_origin(alt) is typing.Literal
            for a in typing.get_args(alt)}


def _check_union(value: Any, alternatives: list[Any], path: str, module: str) -> None:
    # The generated types write an enum as `Literal[...]|str` so that a newer library value
    # still type-checks; the API version they were generated for accepts only the literals.
    # (`Literal['']` alone is how a parameter is unset, not an enum.)
    if _literal_values(alternatives) - {""}:
        alternatives = [a for a in alternatives if a is not str]
    errors = []
    for alt in alternatives:
        try:
            _check(value, alt, path, module)
            return
        except ParamError as exc:
            errors.append((alt, exc))

    def fits(alt: Any) -> bool:  # the alternative of the value's own shape says what is wrong
        origin = typing.get_origin(alt)
        if isinstance(value, dict):
            return _is_params(alt) or _is_map(origin)
        if isinstance(value, list):
            return origin is list
        return not (_is_params(alt) or origin is list or _is_map(origin))
    raise next((exc for alt, exc in errors if fits(alt)), errors[0][1])


def _check_object(value: Any, params_class: type, path: str) -> None:
    if not isinstance(value, dict):
        raise ParamError(path, f"Invalid object: {path}", "parameter_invalid_object")
    fields = {k: v for k, v in params_class.__annotations__.items() if k not in _OPTION_KEYS}
    for key, item in value.items():
        if key not in fields:
            name = _name(path, key)
            raise ParamError(name, f"Received unknown parameter: {name}", "parameter_unknown")
        _check(item, fields[key], _name(path, key), params_class.__module__)
    for key, ann in fields.items():
        if key not in value and typing.get_origin(ann) is not typing.NotRequired:
            name = _name(path, key)
            raise ParamError(name, f"Missing required param: {name}.", "parameter_missing")


def check_limits(data: dict[str, Any], path: str = "") -> None:
    """Stripe's length limits: client_reference_id, every metadata, the PaymentIntent's
    description."""
    for key, value in data.items():
        name = _name(path, key)
        if key == "metadata" and isinstance(value, dict):
            if len(value) > LIMITS["metadata_keys"]:
                raise ParamError(name, f"Invalid {name}: Metadata can have at most "
                                 f"{LIMITS['metadata_keys']} keys, but you passed in "
                                 f"{len(value)}.", "parameter_invalid_metadata")
            for k, v in value.items():
                if len(k) > LIMITS["metadata_key"]:
                    raise ParamError(_name(name, k), f"Metadata keys can have up to "
                                     f"{LIMITS['metadata_key']} characters, but you passed "
                                     f"in a key that is {len(k)} characters.",
                                     "parameter_invalid_metadata")
                if isinstance(v, str) and len(v) > LIMITS["metadata_value"]:
                    raise ParamError(_name(name, k), f"Metadata values can have up to "
                                     f"{LIMITS['metadata_value']} characters, but you passed "
                                     f"in a value that is {len(v)} characters.",
                                     "parameter_invalid_metadata")
        elif isinstance(value, dict):
            check_limits(value, name)
        elif isinstance(value, list):
            for n, item in enumerate(value):
                if isinstance(item, dict):
                    check_limits(item, f"{name}[{n}]")
    if not path:
        _too_long(data.get("client_reference_id"), "client_reference_id")
        intent = data.get("payment_intent_data")
        if isinstance(intent, dict):
            _too_long(intent.get("description"), "payment_intent_data.description",
                      "payment_intent_data[description]")


def _too_long(value: Any, limit: str, param: str | None = None) -> None:
    if isinstance(value, str) and len(value) > LIMITS[limit]:
        param = param or limit
        raise ParamError(param, f"Invalid {param}: must be at most {LIMITS[limit]} characters",
                         "string_too_long")


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    form: dict[str, Any]
    query: dict[str, Any]

    @property
    def idempotency_key(self) -> str | None:
        return self.headers.get("idempotency-key")


@dataclass
class FakeStripe:
    sessions: dict[str, dict[str, Any]] = field(default_factory=dict)
    intents: dict[str, dict[str, Any]] = field(default_factory=dict)
    refunds: list[dict[str, Any]] = field(default_factory=list)
    requests: list[Recorded] = field(default_factory=list)
    idempotent: dict[str, tuple[str, int, dict[str, Any]]] = field(default_factory=dict)
    failures: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    disputes: list[dict[str, Any]] = field(default_factory=list)
    refused: list[ParamError] = field(default_factory=list)
    customers: dict[str, dict[str, Any]] = field(default_factory=dict)
    setup_intents: dict[str, dict[str, Any]] = field(default_factory=dict)
    methods: dict[str, dict[str, Any]] = field(default_factory=dict)
    declining: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)
    delay: float = 0.0
    port: int = 0

    # -- what was asked -----------------------------------------------------------------------
    def posts(self, path: str) -> list[Recorded]:
        return [r for r in self.requests if r.method == "POST" and r.path == path]

    @property
    def session_creates(self) -> list[Recorded]:
        return self.posts("/v1/checkout/sessions")

    # -- test controls ----------------------------------------------------------------------------
    def fail_next(self, status: int = 402, code: str = "card_declined",
                  message: str = "Your card was declined.", kind: str = "card_error") -> None:
        self.failures.append((status, {"error": {"type": kind, "code": code,
                                                 "message": message}}))

    def complete(self, session_id: str, method: str = "card", paid: bool | None = None,
                 last4: str = "4242", at: int | None = None) -> dict[str, Any]:
        """The payer completes the checkout: by card (paid) or bank account (processing).
        Stripe creates the PaymentIntent then (`at`: its `created`, a Unix time)."""
        s = self.sessions[session_id]
        paid = (method == "card") if paid is None else paid
        pi_id = "pi_test_" + secrets.token_hex(8)
        pm: dict[str, Any] = {"id": "pm_test_" + secrets.token_hex(6), "object": "payment_method",
                              "type": method}
        if method == "card":
            pm["card"] = {"brand": "visa", "last4": last4}
        else:
            pm["us_bank_account"] = {"bank_name": "STRIPE TEST BANK", "last4": "6789"}
        self.intents[pi_id] = {"id": pi_id, "object": "payment_intent",
                               "created": at if at is not None else int(time.time()),
                               "amount": s["amount_total"], "currency": s["currency"],
                               "status": "succeeded" if paid else "processing",
                               "payment_method": pm, "metadata": dict(s["metadata"]),
                               "amount_refunded": 0}
        s.update(status="complete", payment_status="paid" if paid else "unpaid",
                 payment_intent=pi_id)
        return s

    def settle(self, session_id: str, ok: bool = True) -> dict[str, Any]:
        s = self.sessions[session_id]
        pi = self.intents[s["payment_intent"]]
        if ok:
            pi["status"] = "succeeded"
            s["payment_status"] = "paid"
        else:
            pi["status"] = "requires_payment_method"
        return s

    def expire(self, session_id: str) -> dict[str, Any]:
        s = self.sessions[session_id]
        s["status"] = "expired"
        return s

    def tamper(self, session_id: str, **changes: Any) -> dict[str, Any]:
        s = self.sessions[session_id]
        s.update(changes)
        return s

    def event(self, kind: str, session_id: str | None = None, *, obj: dict[str, Any] | None = None,
              event_id: str | None = None, created: int | None = None) -> dict[str, Any]:
        """The webhook event Stripe would send (data.object is the session, or `obj`)."""
        if obj is None:
            assert session_id is not None
            obj = json.loads(json.dumps(self.sessions[session_id]))
        return {"id": event_id or "evt_test_" + secrets.token_hex(10), "object": "event",
                "type": kind, "created": created or int(time.time()), "livemode": False,
                "api_version": stripe.api_version, "data": {"object": obj}}

    def refund_event(self, payment_intent: str, event_id: str | None = None) -> dict[str, Any]:
        pi = self.intents[payment_intent]
        charge = {"id": "ch_test_" + payment_intent[8:], "object": "charge",
                  "payment_intent": payment_intent, "amount": pi["amount"],
                  "amount_refunded": pi["amount_refunded"],
                  "refunded": pi["amount_refunded"] == pi["amount"],
                  "metadata": dict(pi["metadata"])}
        return self.event("charge.refunded", obj=charge, event_id=event_id)

    def refund_by_id(self, refund_id: str) -> dict[str, Any] | None:
        return next((r for r in self.refunds if r["id"] == refund_id), None)

    def fail_refund(self, refund_id: str, reason: str = "expired_or_canceled_card"
                    ) -> dict[str, Any]:
        """A refund that fails later (the card was closed): the money comes back to the
        merchant and no longer counts as refunded on the charge."""
        refund = self.refund_by_id(refund_id)
        assert refund is not None and refund["status"] != "failed"
        refund.update(status="failed", failure_reason=reason)
        self.intents[refund["payment_intent"]]["amount_refunded"] -= refund["amount"]
        return refund

    def refund_failed_event(self, refund_id: str, kind: str = "refund.failed",
                            event_id: str | None = None) -> dict[str, Any]:
        refund = self.refund_by_id(refund_id)
        assert refund is not None
        return self.event(kind, obj=json.loads(json.dumps(refund)), event_id=event_id)

    def dispute(self, payment_intent: str, amount: int | None = None,
                reason: str = "fraudulent", status: str = "needs_response") -> dict[str, Any]:
        """The payer disputes the charge with their bank (Stripe's dispute object)."""
        pi = self.intents[payment_intent]
        now = int(time.time())
        d = {"id": "dp_test_" + secrets.token_hex(8), "object": "dispute",
             "amount": pi["amount"] if amount is None else amount, "currency": pi["currency"],
             "charge": "ch_test_" + payment_intent[8:], "payment_intent": payment_intent,
             "reason": reason, "status": status, "created": now,
             "evidence_details": {"due_by": now + 7 * 86400, "has_evidence": False},
             "metadata": {}}
        self.disputes.append(d)
        return d

    def dispute_event(self, dispute: dict[str, Any], kind: str = "charge.dispute.created",
                      event_id: str | None = None) -> dict[str, Any]:
        return self.event(kind, obj=json.loads(json.dumps(dispute)), event_id=event_id)

    # -- autopay: saved methods and off-session charges ------------------------------------
    def complete_setup(self, session_id: str, method: str = "card", last4: str = "4242"
                       ) -> dict[str, Any]:
        """The payer saves a card or bank account on a setup-mode session: its SetupIntent
        succeeds and the PaymentMethod is attached to the session's customer."""
        s = self.sessions[session_id]
        assert s["mode"] == "setup" and s["status"] == "open"
        pm_id = "pm_test_" + secrets.token_hex(8)
        pm: dict[str, Any] = {"id": pm_id, "object": "payment_method", "type": method,
                              "customer": s.get("customer"), "created": int(time.time())}
        if method == "card":
            pm["card"] = {"brand": "visa", "last4": last4, "exp_month": 12, "exp_year": 2030}
        else:
            pm["us_bank_account"] = {"bank_name": "STRIPE TEST BANK", "last4": "6789",
                                     "account_type": "checking"}
        self.methods[pm_id] = pm
        seti_id = "seti_test_" + secrets.token_hex(8)
        self.setup_intents[seti_id] = {
            "id": seti_id, "object": "setup_intent", "status": "succeeded",
            "customer": s.get("customer"), "payment_method": pm_id, "usage": "off_session",
            "metadata": dict((s.get("setup_intent_data") or {}).get("metadata") or {}),
            "created": int(time.time())}
        s.update(status="complete", setup_intent=seti_id)
        return s

    def decline_method(self, method_id: str) -> None:
        """Every later charge of the method is declined (a closed card, no funds)."""
        self.declining.add(method_id)

    def settle_intent(self, intent_id: str, ok: bool = True) -> dict[str, Any]:
        """A bank debit of an off-session PaymentIntent settles, or is returned."""
        pi = self.intents[intent_id]
        pi["status"] = "succeeded" if ok else "requires_payment_method"
        return pi

    def intent_event(self, kind: str, intent_id: str, event_id: str | None = None
                     ) -> dict[str, Any]:
        return self.event(kind, obj=json.loads(json.dumps(self.intents[intent_id])),
                          event_id=event_id)

    # -- the endpoints --------------------------------------------------------------------------
    def handle(self, method: str, path: str, headers: dict[str, str], form: dict[str, Any],
               query: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        with self.lock:
            self.requests.append(Recorded(method, path, headers, form, query))
            if self.failures:
                return self.failures.pop(0)
            found = self._find_route(method, path)
            if found is None:
                return 404, {"error": {"type": "invalid_request_error",
                                       "message": f"Unrecognized request URL ({method}: "
                                       f"{path})."}}
            params_class, action, ident = found
            key = headers.get("idempotency-key")
            try:
                version = headers.get("stripe-version")
                if version is not None and version != stripe.api_version:
                    raise ParamError(None, f"This test server knows API version "
                                     f"{stripe.api_version} only, not {version}.")
                if key is not None and len(key) > LIMITS["idempotency_key"]:
                    raise ParamError(None, "Idempotency-Key must be at most "
                                     f"{LIMITS['idempotency_key']} characters long.",
                                     "idempotency_key_too_long")
                data = form if method == "POST" else query
                check_params(params_class, data)
                check_limits(data)
            except ParamError as exc:
                self.refused.append(exc)
                return 400, exc.body()  # Stripe saves no idempotent result for these
            if method == "POST" and key:
                seen = self.idempotent.get(key)
                signature = json.dumps([path, form], sort_keys=True)
                if seen is not None:
                    if seen[0] != signature:
                        return 400, {"error": {"type": "idempotency_error",
                                               "message": "Keys for idempotent requests can "
                                               "only be used with the same parameters"}}
                    return seen[1], seen[2]
            status, body = action(ident, form, query)
            if method == "POST" and key and status < 500:
                self.idempotent[key] = (signature, status, body)
            return status, body

    def _find_route(self, method: str, path: str) -> tuple[type, Any, str | None] | None:
        routes = (
            ("POST", r"/v1/checkout/sessions", SessionCreateParams, self._create_session),
            ("GET", r"/v1/checkout/sessions/([^/]+)", SessionRetrieveParams,
             self._retrieve_session),
            ("POST", r"/v1/checkout/sessions/([^/]+)/expire", SessionExpireParams,
             self._expire_session),
            ("GET", r"/v1/payment_intents/([^/]+)", PaymentIntentRetrieveParams,
             self._retrieve_intent),
            ("POST", r"/v1/payment_intents", PaymentIntentCreateParams, self._create_intent),
            ("POST", r"/v1/customers", CustomerCreateParams, self._create_customer),
            ("GET", r"/v1/setup_intents/([^/]+)", SetupIntentRetrieveParams,
             self._retrieve_setup_intent),
            ("POST", r"/v1/payment_methods/([^/]+)/detach", PaymentMethodDetachParams,
             self._detach_method),
            ("POST", r"/v1/refunds", RefundCreateParams, self._refund),
            ("GET", r"/v1/refunds/([^/]+)", RefundRetrieveParams, self._retrieve_refund),
        )
        for verb, pattern, params_class, action in routes:
            m = re.fullmatch(pattern, path)
            if verb == method and m:
                return params_class, action, (m.group(1) if m.groups() else None)
        return None

    @staticmethod
    def _missing(kind: str, ident: str | None) -> tuple[int, dict[str, Any]]:
        return 404, {"error": {"type": "invalid_request_error", "code": "resource_missing",
                               "message": f"No such {kind}: '{ident}'"}}

    def _retrieve_session(self, sid: str | None, form: dict[str, Any],
                          query: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        s = self.sessions.get(sid or "")
        if s is None:
            return self._missing("checkout.session", sid)
        out = json.loads(json.dumps(s))
        expand = query.get("expand") or []
        if any(e.startswith("payment_intent") for e in expand) and s.get("payment_intent"):
            out["payment_intent"] = json.loads(json.dumps(self.intents[s["payment_intent"]]))
        if any(e.startswith("setup_intent") for e in expand) and s.get("setup_intent"):
            seti = json.loads(json.dumps(self.setup_intents[s["setup_intent"]]))
            if "setup_intent.payment_method" in expand and seti.get("payment_method"):
                seti["payment_method"] = json.loads(json.dumps(
                    self.methods[seti["payment_method"]]))
            out["setup_intent"] = seti
        return 200, out

    def _expire_session(self, sid: str | None, form: dict[str, Any],
                        query: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        s = self.sessions.get(sid or "")
        if s is None:
            return self._missing("checkout.session", sid)
        if s["status"] != "open":
            return 400, {"error": {"type": "invalid_request_error",
                                   "message": "Only Checkout Sessions with a status in "
                                   "[\"open\"] can be expired."}}
        return 200, self.expire(s["id"])

    def _retrieve_intent(self, pid: str | None, form: dict[str, Any],
                         query: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        pi = self.intents.get(pid or "")
        if pi is None:
            return self._missing("payment_intent", pid)
        return 200, self._expanded(pi, query.get("expand") or [])

    def _expanded(self, pi: dict[str, Any], expand: list[str]) -> dict[str, Any]:
        out = json.loads(json.dumps(pi))
        pm = out.get("payment_method")
        if "payment_method" in expand and isinstance(pm, str) and pm in self.methods:
            out["payment_method"] = json.loads(json.dumps(self.methods[pm]))
        return out

    def _create_customer(self, _ident: str | None, form: dict[str, Any],
                         query: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        cid = "cus_test_" + secrets.token_hex(8)
        self.customers[cid] = {"id": cid, "object": "customer", "email": form.get("email"),
                               "name": form.get("name"), "metadata": form.get("metadata", {}),
                               "created": int(time.time())}
        return 200, self.customers[cid]

    def _retrieve_setup_intent(self, sid: str | None, form: dict[str, Any],
                               query: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        seti = self.setup_intents.get(sid or "")
        return (200, seti) if seti is not None else self._missing("setup_intent", sid)

    def _detach_method(self, mid: str | None, form: dict[str, Any],
                       query: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        pm = self.methods.get(mid or "")
        if pm is None:
            return self._missing("payment_method", mid)
        if pm.get("customer") is None:
            return 400, {"error": {"type": "invalid_request_error",
                                   "message": "The payment method you provided is not attached "
                                   "to a customer so detachment is impossible."}}
        pm["customer"] = None
        return 200, pm

    @staticmethod
    def _refuse(param: str | None, message: str, code: str | None = None
                ) -> tuple[int, dict[str, Any]]:
        return 400, ParamError(param, message, code).body()

    def _create_intent(self, _ident: str | None, form: dict[str, Any],
                       query: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """A PaymentIntent as the API version's rules take one with a saved method."""
        confirm = form.get("confirm") == "true"
        off_session = form.get("off_session")
        if off_session not in (None, "false") and not confirm:
            return self._refuse("off_session", "You passed `off_session` but `confirm` was "
                                "not set to true. `off_session` can only be used when "
                                "`confirm=true`.")
        amount = int(form.get("amount", "0"))
        if amount < 50:
            return self._refuse("amount", "Amount must be at least $0.50 usd",
                                "amount_too_small")
        mid = form.get("payment_method")
        pm = self.methods.get(mid or "")
        if mid and pm is None:
            return self._refuse("payment_method", f"No such PaymentMethod: '{mid}'",
                                "resource_missing")
        customer = form.get("customer")
        if pm is not None:
            owner = pm.get("customer")
            if owner is None:
                return self._refuse("payment_method", "The provided PaymentMethod was "
                                    "previously used with a PaymentIntent without Customer "
                                    "attachment, shared with a connected account without "
                                    "Customer attachment, or was detached from a Customer. It "
                                    "may not be used again. To use a PaymentMethod multiple "
                                    "times, you must attach it to a Customer first.")
            if customer != owner:
                return self._refuse("customer", f"The provided PaymentMethod {mid} belongs to "
                                    f"the Customer {owner}. Please include the Customer in "
                                    "the `customer` parameter on the PaymentIntent.")
            allowed = form.get("allowed_payment_method_types")
            if allowed is not None and pm["type"] not in allowed:
                return self._refuse("payment_method", "The PaymentMethod provided "
                                    f"({pm['type']}) is not allowed for this PaymentIntent.")
        if customer is not None and customer not in self.customers:
            return self._missing("customer", customer)
        pi_id = "pi_test_" + secrets.token_hex(8)
        status = "requires_confirmation" if not confirm else (
            "requires_payment_method" if mid in self.declining else
            "processing" if pm is not None and pm["type"] == "us_bank_account" else
            "succeeded")
        if confirm and pm is None:
            status = "requires_payment_method"
        pi = {"id": pi_id, "object": "payment_intent", "created": int(time.time()),
              "amount": amount, "currency": form.get("currency"), "status": status,
              "customer": customer, "payment_method": mid, "off_session": off_session,
              "metadata": form.get("metadata", {}), "description": form.get("description"),
              "amount_refunded": 0}
        self.intents[pi_id] = pi
        if status == "requires_payment_method" and mid in self.declining:
            return 402, {"error": {"type": "card_error", "code": "card_declined",
                                   "decline_code": "generic_decline",
                                   "message": "Your card was declined.",
                                   "payment_intent": self._expanded(pi, [])}}
        return 200, self._expanded(pi, form.get("expand") or [])

    def _retrieve_refund(self, rid: str | None, form: dict[str, Any],
                         query: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        refund = self.refund_by_id(rid or "")
        return (200, refund) if refund is not None else self._missing("refund", rid)

    def _create_session(self, _ident: str | None, form: dict[str, Any],
                        query: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if form.get("mode") == "setup":
            return self._create_setup_session(form)
        try:
            items = form["line_items"]
            total = sum(int(i["price_data"]["unit_amount"]) * int(i.get("quantity", 1))
                        for i in items)
            currency = items[0]["price_data"]["currency"]
        except (KeyError, ValueError, TypeError, IndexError):
            return 400, {"error": {"type": "invalid_request_error", "param": "line_items",
                                   "message": "line_items are required"}}
        if total < 50:
            return 400, {"error": {"type": "invalid_request_error", "code": "amount_too_small",
                                   "message": "Amount must be at least $0.50 usd"}}
        sid = "cs_test_" + secrets.token_hex(12)
        session = {"id": sid, "object": "checkout.session", "mode": form.get("mode"),
                   "url": f"https://checkout.stripe.test/c/pay/{sid}", "status": "open",
                   "payment_status": "unpaid", "amount_total": total, "currency": currency,
                   "client_reference_id": form.get("client_reference_id"),
                   "metadata": form.get("metadata", {}), "locale": form.get("locale"),
                   "payment_intent": None, "customer_email": form.get("customer_email"),
                   "payment_method_types": form.get("allowed_payment_method_types",
                                                    ["card"]),
                   "success_url": form.get("success_url"), "cancel_url": form.get("cancel_url"),
                   "created": int(time.time())}
        self.sessions[sid] = session
        return 200, session

    def _create_setup_session(self, form: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if "line_items" in form:
            return self._refuse("line_items", "You cannot pass `line_items` in `setup` mode.")
        if not form.get("currency"):
            return self._refuse("currency", "`currency` is required in `setup` mode when "
                                "`payment_method_types` is not passed.")
        customer = form.get("customer")
        if customer is not None and customer not in self.customers:
            return self._missing("customer", customer)
        sid = "cs_test_" + secrets.token_hex(12)
        session = {"id": sid, "object": "checkout.session", "mode": "setup",
                   "url": f"https://checkout.stripe.test/c/setup/{sid}", "status": "open",
                   "payment_status": "no_payment_required", "amount_total": None,
                   "currency": form.get("currency"), "customer": customer,
                   "client_reference_id": form.get("client_reference_id"),
                   "metadata": form.get("metadata", {}), "locale": form.get("locale"),
                   "setup_intent": None, "payment_intent": None,
                   "setup_intent_data": form.get("setup_intent_data", {}),
                   "payment_method_types": form.get("allowed_payment_method_types", ["card"]),
                   "success_url": form.get("success_url"), "cancel_url": form.get("cancel_url"),
                   "created": int(time.time())}
        self.sessions[sid] = session
        return 200, session

    def _refund(self, _ident: str | None, form: dict[str, Any],
                query: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        pi = self.intents.get(form.get("payment_intent", ""))
        if pi is None or pi["status"] != "succeeded":
            return 400, {"error": {"type": "invalid_request_error", "param": "payment_intent",
                                   "message": "This PaymentIntent has no successful charge"}}
        amount = int(form.get("amount", pi["amount"] - pi["amount_refunded"]))
        if amount <= 0 or pi["amount_refunded"] + amount > pi["amount"]:
            return 400, {"error": {"type": "invalid_request_error",
                                   "code": "charge_already_refunded",
                                   "message": "Refund amount is greater than unrefunded amount"}}
        pi["amount_refunded"] += amount
        refund = {"id": "re_test_" + secrets.token_hex(8), "object": "refund", "amount": amount,
                  "currency": pi["currency"], "charge": "ch_test_" + pi["id"][8:],
                  "payment_intent": pi["id"], "status": "succeeded", "failure_reason": None,
                  "reason": form.get("reason"), "metadata": form.get("metadata", {}),
                  "created": int(time.time())}
        self.refunds.append(refund)
        return 200, refund


def _handler(fake: FakeStripe) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _serve(self, method: str) -> None:
            url = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length).decode() if length else ""
            form = unflatten(parse_qsl(body, keep_blank_values=True))
            query = unflatten(parse_qsl(url.query, keep_blank_values=True))
            headers = {k.lower(): v for k, v in self.headers.items()}
            if fake.delay:
                time.sleep(fake.delay)
            status, payload = fake.handle(method, url.path, headers, form, query)
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Request-Id", "req_" + secrets.token_hex(6))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
            self._serve("GET")

        def do_POST(self) -> None:  # noqa: N802
            self._serve("POST")

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass

    return Handler


@contextmanager
def running() -> Iterator[FakeStripe]:
    """Start the server on 127.0.0.1 on a free port; `fake.base` is its address."""
    fake = FakeStripe()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(fake))
    server.daemon_threads = True
    fake.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()


def base(fake: FakeStripe) -> str:
    return f"http://127.0.0.1:{fake.port}"


def signed(event: dict[str, Any], secret: str, timestamp: int | None = None) -> tuple[str, str]:
    """The exact JSON text to send and its Stripe-Signature header (t=..., v1=...)."""
    payload = json.dumps(event, separators=(",", ":"))
    if timestamp is None:
        header = stripe.WebhookSignature.generate_signature_header(payload, secret)
    else:
        header = stripe.WebhookSignature.generate_signature_header(payload, secret,
                                                                   timestamp=timestamp)
    return payload, header
