"""A local Stripe-compatible server for tests: the real `stripe` library talks to it.

It implements the few endpoints the portal uses and RECORDS every request, so tests assert
what we send (amount in cents, currency, metadata, idempotency key, locale):

    POST /v1/checkout/sessions           create (honours Idempotency-Key like Stripe)
    GET  /v1/checkout/sessions/{id}      retrieve (expand[]=payment_intent.payment_method)
    POST /v1/refunds                     refund part or all of a payment intent

Test controls play the payer's and the bank's part: `complete` (card or bank account),
`settle` (the bank debit succeeds or fails), `expire`, `tamper`; `fail_next` makes the next
request answer an error (402 card_declined by default); `event` builds the webhook event
Stripe would send, and `signed` signs it with Stripe's scheme (t=..., v1=HMAC-SHA256).
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import stripe


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
                "api_version": "2025-01-01", "data": {"object": obj}}

    def refund_event(self, payment_intent: str, event_id: str | None = None) -> dict[str, Any]:
        pi = self.intents[payment_intent]
        charge = {"id": "ch_test_" + payment_intent[8:], "object": "charge",
                  "payment_intent": payment_intent, "amount": pi["amount"],
                  "amount_refunded": pi["amount_refunded"],
                  "refunded": pi["amount_refunded"] == pi["amount"],
                  "metadata": dict(pi["metadata"])}
        return self.event("charge.refunded", obj=charge, event_id=event_id)

    # -- the endpoints --------------------------------------------------------------------------
    def handle(self, method: str, path: str, headers: dict[str, str], form: dict[str, Any],
               query: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        with self.lock:
            self.requests.append(Recorded(method, path, headers, form, query))
            if self.failures:
                return self.failures.pop(0)
            key = headers.get("idempotency-key")
            if method == "POST" and key:
                seen = self.idempotent.get(key)
                signature = json.dumps([path, form], sort_keys=True)
                if seen is not None:
                    if seen[0] != signature:
                        return 400, {"error": {"type": "idempotency_error",
                                               "message": "Keys for idempotent requests can "
                                               "only be used with the same parameters"}}
                    return seen[1], seen[2]
            status, body = self._route(method, path, form, query)
            if method == "POST" and key and status < 500:
                self.idempotent[key] = (signature, status, body)
            return status, body

    def _route(self, method: str, path: str, form: dict[str, Any],
               query: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if method == "POST" and path == "/v1/checkout/sessions":
            return self._create_session(form)
        if method == "GET" and path.startswith("/v1/checkout/sessions/"):
            sid = path.rsplit("/", 1)[1]
            s = self.sessions.get(sid)
            if s is None:
                return 404, {"error": {"type": "invalid_request_error",
                                       "code": "resource_missing",
                                       "message": f"No such checkout.session: '{sid}'"}}
            out = json.loads(json.dumps(s))
            expand = query.get("expand") or []
            if any(e.startswith("payment_intent") for e in expand) and s.get("payment_intent"):
                out["payment_intent"] = json.loads(json.dumps(self.intents[s["payment_intent"]]))
            return 200, out
        if method == "POST" and path == "/v1/refunds":
            return self._refund(form)
        return 404, {"error": {"type": "invalid_request_error", "message": "no such route"}}

    def _create_session(self, form: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        try:
            items = form["line_items"]
            total = sum(int(i["price_data"]["unit_amount"]) * int(i.get("quantity", 1))
                        for i in items)
            currency = items[0]["price_data"]["currency"]
        except (KeyError, ValueError, TypeError, IndexError):
            return 400, {"error": {"type": "invalid_request_error",
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
                   "payment_method_types": form.get("payment_method_types", []),
                   "success_url": form.get("success_url"), "cancel_url": form.get("cancel_url"),
                   "created": int(time.time())}
        self.sessions[sid] = session
        return 200, session

    def _refund(self, form: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        pi = self.intents.get(form.get("payment_intent", ""))
        if pi is None or pi["status"] != "succeeded":
            return 400, {"error": {"type": "invalid_request_error",
                                   "message": "This PaymentIntent has no successful charge"}}
        amount = int(form.get("amount", pi["amount"] - pi["amount_refunded"]))
        if amount <= 0 or pi["amount_refunded"] + amount > pi["amount"]:
            return 400, {"error": {"type": "invalid_request_error",
                                   "code": "charge_already_refunded",
                                   "message": "Refund amount is greater than unrefunded amount"}}
        pi["amount_refunded"] += amount
        refund = {"id": "re_test_" + secrets.token_hex(8), "object": "refund", "amount": amount,
                  "payment_intent": pi["id"], "status": "succeeded",
                  "metadata": form.get("metadata", {})}
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
