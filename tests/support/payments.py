"""Paying in the tests: through the services (checkout, the fake provider's webhook), through
the pages (the sandbox, the review), and the people of the payments' world who sign in.

The payments' world is tests.support.world.seed; its people sign in with pages.PASSWORD
(world.set_passwords) and the staff with a second step (world.STAFF_TOTP_SECRET).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from portal import clock
from portal.core import offer as options
from portal.payments import service
from portal.payments.webhooks import handle_webhook

from . import stripe_server
from .pages import PASSWORD, csrf_token, error_messages, main_text, second_step
from .world import STAFF_TOTP_SECRET, World

#: The webhook signing secret of the gateway on the fake Stripe server.
WEBHOOK_SECRET = "whsec_test_portal"


def count(world: World, model: Any, *where: Any) -> int:
    """How many rows of `model` (matching `where`) the world's database holds."""
    with world.uow() as uow:
        return uow.session.scalar(select(func.count()).select_from(model).where(*where))


# --- through the services ------------------------------------------------------------------

def checkout(world: World, gateway: Any, choices: Any, *, user: str = "owner",
             language: str = "es"):  # noqa: ANN201
    """Price the choices for the user and start a checkout; returns (Started, Priced)."""
    with world.uow() as uow:
        payer = world.user(uow, user)
        accounts = service.payable_accounts(uow, payer)
        priced = options.price_all({a.key: a.offer for a in accounts}, choices)
    started = service.start_checkout(
        world.database, user=payer, priced=priced, language=language, gateway=gateway,
        success_url=lambda cid: f"http://portal.test/pagos/{cid}/exito",
        cancel_url=lambda cid: f"http://portal.test/pagos/{cid}/cancelado",
        description="Derrama")
    return started, priced


def deliver(world: World, gateway: Any, fake: Any, kind: str, session_id: str | None = None,
            *, obj: Any = None, event_id: str | None = None, event: Any = None,
            secret: str = WEBHOOK_SECRET):  # noqa: ANN201
    """Sign the event as Stripe does and hand the exact bytes to the webhook handler."""
    event = event or fake.event(kind, session_id, obj=obj, event_id=event_id)
    payload, header = stripe_server.signed(event, secret)
    status, text = handle_webhook(world.database, gateway, payload.encode(), header)
    return status, text, event


def session_of(world: World, checkout_id: int) -> str:
    from portal.models.checkouts import Checkout
    with world.uow() as uow:
        return uow.session.get(Checkout, checkout_id).provider_session_id


def ledger_sums(world: World, n: int = 0) -> tuple[Decimal, Decimal]:
    """(credits, debits) of the account's ledger, discounts left out."""
    from portal.models import LedgerEntry
    with world.uow() as uow:
        rows = uow.session.scalars(select(LedgerEntry).where(
            LedgerEntry.parcel_id == world.parcel_ids[n])).all()
    credits = sum((e.amount for e in rows if e.direction == "credit" and e.kind != "discount"),
                  Decimal("0.00"))
    debits = sum((e.amount for e in rows if e.direction == "debit" and e.kind != "cost"
                  and not (e.kind == "reversal" and e.rule == "R-A11")), Decimal("0.00"))
    return credits, debits


def together(n: int, fn: Callable[[int], Any]) -> list[Any]:
    """Run fn(i) in n threads released at the same instant; return results or exceptions."""
    barrier = threading.Barrier(n)
    results: list = [None] * n

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = fn(i)
        except Exception as exc:  # noqa: BLE001 - reported to the test
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


# --- through the pages ---------------------------------------------------------------------

def sign_in_to_pay(client: FlaskClient, email_address: str = "duena@example.com",
                   lang: str = "es") -> str:
    """Sign in as a person of the payments' world (staff with the second step), in `lang`;
    the CSRF token of the payment page."""
    page = client.get(f"/cuenta/entrar?lang={lang}")
    r = client.post("/cuenta/entrar", data={"csrf_token": csrf_token(page.text),
                                            "email": email_address, "password": PASSWORD})
    assert r.status_code == 303, r.text[:500]
    if r.headers["Location"].endswith("/cuenta/verificar"):
        second_step(client, STAFF_TOTP_SECRET)
    if lang == "en":
        client.post("/idioma", data={"csrf_token": csrf_token(client.get("/").text),
                                     "lang": "en", "next": "/"})  # a new token since signing in
    return csrf_token(client.get("/pagar").text)


def pay_in_sandbox(client: FlaskClient, tok: str, data: dict[str, str],
                   outcome: str = "card_succeeds"):  # noqa: ANN201
    """Review, confirm and pay in the test checkout with `outcome`: (the receipt's path, the
    receipt page)."""
    review_page = client.post("/pagar/revisar", data={"csrf_token": tok, **data})
    assert review_page.status_code == 200, error_messages(review_page.text)
    expected = re.search(r'name="expected_total" value="([^"]+)"', review_page.text).group(1)
    hidden = dict(re.findall(r'<input type="hidden" name="((?:choice|through|amount)-[^"]+)" '
                             r'value="([^"]*)"', review_page.text))
    r = client.post("/pagar/confirmar", data={"csrf_token": tok, "expected_total": expected,
                                              **hidden})
    assert r.status_code == 303, main_text(r.text)[:400]
    sandbox = r.headers["Location"]
    assert sandbox.startswith("/pagos/prueba/cs_sandbox_")
    page = client.get(sandbox)
    assert "MODO DE PRUEBA" in page.text and "TEST MODE" in page.text
    r = client.post(sandbox, data={"csrf_token": tok, "outcome": outcome})
    assert r.status_code == 303
    r = client.get(r.headers["Location"])  # the success page settles, then the receipt
    assert r.status_code == 303
    receipt = r.headers["Location"]
    return receipt, client.get(receipt)


# --- several payers of one account (the sandbox's access, two payers at once) --------------

#: The people of the payments' world with `add_people`, by who they are.
EMAILS = {"owner": "duena@example.com", "other": "otro@example.com",
          "staff": "staff@example.com", "delegate": "delegada@example.com",
          "lender": "banco@example.com"}
#: The address the signed-in clients come from (the audit records name it).
ADDRESS = "198.51.100.7"


def add_people(w: World) -> None:
    """Beside the owner of both parcels: `other`, the lessee (a payer) of parcel 0; a
    read-only delegate of parcel 0; a bank's employee with a loan on both parcels; staff.
    Everyone's password is PASSWORD."""
    from portal.models import Lender, Loan, ParcelLink, Party, PartyMember, User
    from portal.people.users import hash_password
    with w.uow() as uow:
        s = uow.session
        delegate = User(email=EMAILS["delegate"], password_hash="x", name="Delia Delegada",
                        language="en")
        banker = User(email=EMAILS["lender"], password_hash="x", name="Bruno Banco",
                      language="en")
        s.add_all([delegate, banker])
        s.flush()
        s.add(ParcelLink(user_id=delegate.id, parcel_id=w.parcel_ids[0], role="delegate",
                         source="grant", granted_by_id=w.owner.id))
        s.add(ParcelLink(user_id=w.other.id, parcel_id=w.parcel_ids[0], role="lessee",
                         source="staff", granted_by_id=w.staff.id))
        party = Party(kind="organisation", name="Banco de Prueba")
        s.add(party)
        s.flush()
        lender = Lender(party_id=party.id, code="BPRUEBA")
        s.add(lender)
        s.flush()
        s.add(PartyMember(party_id=party.id, user_id=banker.id, role="employee"))
        for n, pid in enumerate(w.parcel_ids):
            s.add(Loan(lender_id=lender.id, parcel_id=pid, loan_number=f"L-{n}",
                       starts_on=date(2020, 1, 1)))
        for u in s.scalars(select(User)):
            u.password_hash = hash_password(PASSWORD)
            u.email_confirmed_at = clock.now()


def sign_in_from(app: Flask, who: str, address: str = ADDRESS) -> tuple[FlaskClient, str]:
    """(client, CSRF token) signed in as `who` (a key of EMAILS), from `address`."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    page = client.get("/cuenta/entrar?lang=en")
    r = client.post("/cuenta/entrar", data={"csrf_token": csrf_token(page.text),
                                            "email": EMAILS[who], "password": PASSWORD})
    assert r.status_code == 303, r.text[:300]
    if r.headers["Location"].endswith("/cuenta/verificar"):  # staff: the second step
        second_step(client, STAFF_TOTP_SECRET)
    return client, csrf_token(client.get("/mis-propiedades").text)


def review(client: FlaskClient, tok: str, data: dict[str, str]):  # noqa: ANN201
    """The review page of these choices, and the form that confirms it."""
    r = client.post("/pagar/revisar", data={"csrf_token": tok, **data})
    assert r.status_code == 200, r.text[:500]
    expected = re.search(r'name="expected_total" value="([^"]+)"', r.text).group(1)
    return r, {"csrf_token": tok, "expected_total": expected, **data}


def start(client: FlaskClient, tok: str, data: dict[str, str], **extra: str) -> str:
    """The sandbox's page of a new checkout (the review, then Pay)."""
    _page, form = review(client, tok, data)
    r = client.post("/pagar/confirmar", data={**form, **extra})
    assert r.status_code == 303, r.text[:800]
    assert r.headers["Location"].startswith("/pagos/prueba/cs_sandbox_")
    return r.headers["Location"]
