"""Hostile input never reaches a user as a traceback (no HTTP 500), and changes nothing.

Every route that reads input, as every role (and anonymous), gets odd values in its query
parameters, its path ids and every field of its forms (with a valid CSRF token): empty, very
long, NUL bytes, odd unicode, NaN and infinities, huge numbers, hex, commas, duplicated and
missing fields. A 500 fails the test with the request and the exception that caused it (read
from the app's error log); a request that should be refused must not change the data.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from werkzeug.datastructures import MultiDict

from tests.support.demo import parcel_ids
from tests.support.hostile import (
    AMOUNTS,
    IDS,
    LEGIT_AMOUNTS,
    QUICK,
    TOKENS,
    VALUES,
    ErrorLog,
    Probe,
    fingerprint,
    short,
)
from tests.support.pages import ROLES as EMAILS

ROLES = ("owner", "lessee", "lender", "staff", "other")


def _payable(app: Flask, role: str) -> list[tuple[str, Any, list[int], Any]]:
    """(key, payoff, installment numbers, due now) of the accounts `role` may pay."""
    from portal import clock
    from portal.db import UnitOfWork
    from portal.payments import service
    from portal.people import users
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        user = users.find_by_email(w, EMAILS[role])
        return [(a.key, a.offer.payoff, [i.number for i in a.offer.installments],
                 a.offer.due_now) for a in service.payable_accounts(w, user, clock.today())]


def _not_redirected(r) -> bool:  # noqa: ANN001
    """Sign-in only: a wrong password is the form again (200) until the account's throttle
    pauses it (429), so the answer depends on how many counted tries came before (a value
    the form refuses is not one); what matters is that it is not followed."""
    return r.status_code not in (301, 302, 303)


# --- anonymous -----------------------------------------------------------------------------

def test_anonymous(demo_app: Flask, error_log: ErrorLog):
    p = Probe(demo_app, "anonymous", error_log)
    for value in VALUES:
        for path in ("/", "/cuenta/entrar", "/cuenta/registro", "/cuenta/olvide",
                     "/cuenta/revise-su-correo"):
            p.get(path, query_string={"lang": value, "next": value, "sent": value})
    p.get("/", query_string="lang=%ff%fe&next=%00%ED%A0%80")
    for header, value in (("Accept-Language", "es;q=NaN, en;q=1e999, *;q=-1"),
                          ("Accept-Language", "\x00" * 10), ("Accept-Language", "x" * 8000),
                          ("Cookie", "session=\x00garbage"), ("Cookie", "session=" + "a" * 4000),
                          ("Cookie", "remember_token=1|deadbeef"),
                          ("Cookie", "remember_token=99999999999999999999|x")):
        p.get("/mis-propiedades", headers={header: value})
        p.get("/", headers={header: value})
    for tok in TOKENS:
        p.get(f"/cuenta/confirmar/{tok}")
        p.get(f"/cuenta/nueva-contrasena/{tok}")
        p.post(f"/cuenta/nueva-contrasena/{tok}", {"csrf_token": p.token, "password": "x",
                                                   "confirm": "x"})
    # Sign-up (an email already registered: the same answer, nothing created), sign-in.
    strong = "Un-paso-largo-2026!"
    p.form("/cuenta/registro", {"name": "Ana", "email": "owner@demo.pr", "password": strong,
                                "confirm": strong})
    p.form("/cuenta/entrar", {"email": "owner@demo.pr", "password": "not it"},
           refused=_not_redirected)
    p.form("/cuenta/olvide", {"email": "nadie@example.com"})
    p.form("/cuenta/reenviar", {"email": "nadie@example.com"})
    p.form("/idioma", {"lang": "en", "next": "/"})
    for path in ("/cuenta/registro", "/cuenta/entrar", "/idioma", "/cuenta/olvide",
                 "/cuenta/reenviar"):
        p.csrf(path, {"email": "x@example.com"})
    # Protected POSTs: sent to sign in, never run.
    for path in ("/propiedad/reclamar", "/pagar/revisar", "/pagar/confirmar", "/cuenta/salir",
                 "/propiedad/1/acceso", "/personal/pagos/oficina/1"):
        r = p.post(path, {"csrf_token": p.token, "amount": "1e999999"})
        p.expect(r.status_code == 302, f"anonymous POST {path} -> {r.status_code}")
    p.unchanged()
    p.report()


def test_sign_in_with_an_odd_next(demo_app: Flask, error_log: ErrorLog):
    """?next= is read once the password is right: only a path on this site is followed."""
    probes = []
    for value in ("//[", "http://[::1", "/[", "//evil.example/", "/\\evil", "\r\nX: y",
                  "/a\r\nX: y", "/ok\x00", "/" + "a" * 10_000, "javascript:alert(1)", "https:/evil",
                  "/%2F%2Fx", "/\t/evil.example"):
        p = Probe(demo_app, "anonymous", error_log)
        r = p.post("/cuenta/entrar", {"csrf_token": p.token, "email": "owner@demo.pr",
                                      "password": "Distrito2026!"}, f"next={short(value)}",
                   query_string={"next": value})
        if r.status_code == 303:
            location = r.headers["Location"]
            p.expect(location.startswith("/") and not location.startswith("//")
                     and "\\" not in location, f"next={value!r} went to {location!r}")
        probes.append(p)
    probes[0].report(*probes[1:])


# --- signed in -----------------------------------------------------------------------------

ID_PATHS = ("/propiedad/{}", "/propiedad/{}/acceso", "/propiedad/{}/estado-de-cuenta.pdf",
            "/propiedad/{}/pagos", "/personal/persona/{}", "/pagos/{}/recibo",
            "/pagos/{}/recibo.pdf", "/pagos/{}/exito", "/pagos/{}/cancelado",
            "/pagos/pago/{}/recibo", "/pagos/pago/{}/recibo.pdf",
            "/personal/pagos/oficina/{}", "/personal/pagos/reembolso/{}")
ID_POSTS = ("/propiedad/{}/acceso", "/propiedad/{}/acceso/{}/quitar",
            "/personal/pagos/oficina/{}", "/personal/pagos/reembolso/{}")


@pytest.mark.parametrize("role", ROLES)
def test_queries_and_ids(demo_app: Flask, error_log: ErrorLog, role: str):
    p = Probe(demo_app, role, error_log)
    mine = parcel_ids(demo_app)[role][:1] or [1]
    for value in VALUES:
        p.get(f"/propiedad/{mine[0]}", query_string={"lang": value})
        p.get("/prestamista/prestamos", query_string={"page": value, "lang": value})
        p.get("/personal/buscar", query_string={"q": value, "lang": value})
        p.get("/pagar", query_string={"parcela": mine[0], "lang": value})
    for value in QUICK:  # (the dashboard and the list of all accounts are slow for some)
        p.get("/mis-propiedades", query_string={"lang": value})
        p.get("/arrendamientos/", query_string={"lang": value})
        p.get("/pagar", query_string={"parcela": value})
    for raw in ("q=%ff%fe%fd", "q=%00%00%00", "q=a&q=%25%25%25", "page=1&page=x",
                "parcela=1&parcela=2", "q=%ED%A0%80abc", "page=-1", "page=0"):
        p.get("/personal/buscar", query_string=raw)
        p.get("/prestamista/prestamos", query_string=raw)
        p.get("/pagar", query_string=raw)
    for odd in IDS:
        for path in ID_PATHS:
            r = p.get(path.format(odd))
            # (ids are ASCII digits: "٣" and "１" are not /3 and /1; a NUL byte is a 400)
            expected = 400 if odd == "%00" else 404
            p.expect(r.status_code == expected,
                     f"GET {short(path.format(odd))} -> {r.status_code}")
        for path in ID_POSTS:
            p.post(path.format(odd, odd), {"csrf_token": p.token, "email": "x@example.com"})
            p.post(path.format(mine[0], odd), {"csrf_token": p.token})
    for tok in TOKENS:
        p.get(f"/pagos/prueba/{tok}")
        p.post(f"/pagos/prueba/{tok}", {"csrf_token": p.token, "outcome": "card_succeeds"})
        p.post(f"/pagos/prueba/{tok}/banco", {"csrf_token": p.token, "result": "settle"})
    p.unchanged()
    p.report()


@pytest.mark.parametrize("role", ROLES)
def test_forms(demo_app: Flask, error_log: ErrorLog, role: str):
    p = Probe(demo_app, role, error_log)
    mine = parcel_ids(demo_app)[role]
    # The claim: refused (only a claim attempt is recorded, which is not guarded).
    p.form("/propiedad/reclamar", {"catastro": "040-012-345-67", "code": "NOPE"},
           refused=lambda r: r.status_code == 200)  # the form again, with its message
    # Read access for someone else, on one's own parcel (the form again: 400) and on
    # another's (404; staff manage every parcel's access, a lender grants none, not even
    # on its loans' parcels).
    for pid in sorted(set(mine[:1]) | {1}):
        expected = 400 if role == "staff" or (pid in mine and role != "lender") else 404
        p.form(f"/propiedad/{pid}/acceso", {"email": "nobody@example.com"},
               refused=lambda r, expected=expected: r.status_code == expected)
    p.csrf("/propiedad/reclamar", {"catastro": "040-012-345-67", "code": "NOPE"})
    # The language switch: no odd language is kept; any `next` stays on this site.
    for value in VALUES:
        r = p.post("/idioma", {"csrf_token": p.token, "lang": "zz", "next": value},
                   f"next={short(value)}")
        loc = r.headers.get("Location", "/")
        p.expect(loc.startswith("/") and not loc.startswith("//"), f"/idioma next -> {loc!r}")
    p.form("/idioma", {"lang": "zz", "next": "/"}, fields=["lang"])
    p.unchanged()
    p.report()


@pytest.mark.parametrize("role", ("owner", "lessee", "lender"))
def test_payment_choices(demo_app: Flask, error_log: ErrorLog, role: str):
    """What to pay, how much, the reviewed total: odd values are refused and start no
    checkout."""
    p = Probe(demo_app, role, error_log)
    accounts = _payable(demo_app, role)
    assert accounts, f"{role} has nothing to pay in the demo"
    key, _payoff, numbers, _due = accounts[0]
    others = [a[0] for a in accounts[1:]]
    # (every answer shows the list of all one's accounts: slow for the lender's many)
    amounts = AMOUNTS if role != "lender" else QUICK + ["1" * 27, "0.001", "$5"]
    values = VALUES if role != "lender" else QUICK
    refused = {"/pagar/revisar": lambda r: r.status_code == 400,
               "/pagar/confirmar": lambda r: r.status_code == 400}
    for path in ("/pagar/revisar", "/pagar/confirmar"):
        # (the total posted is not the reviewed one: nothing can start, whatever the amount)
        base = {f"choice-{key}": "amount", f"amount-{key}": "5.00", "expected_total": "0.01"}
        p.form(path, base, amounts, fields=[f"amount-{key}"], refused=refused[path])
        for choice in [*values[:30], "installments", *("through-" + v for v in (
                "", "0", "-1", "1" * 30, "1" * 5000, "٣", "1_0", "sNaN", " 1 "))]:
            p.post(path, {"csrf_token": p.token, f"choice-{key}": choice,
                          "expected_total": "0.01"}, f"choice={short(choice)}")
        for value in [*values, "1" * 4301, str(max(numbers or [1]) + 1)]:
            p.post(path, {"csrf_token": p.token, f"choice-{key}": "installments",
                          f"through-{key}": value, "expected_total": "0.01"},
                   f"through={short(value)}")
        # Accounts not one's own, odd keys, several of them.
        for odd in ("1-1", "0-0", "-1--1", "x", "\x00", "9" * 30 + "-1", *others[:1]):
            p.post(path, {"csrf_token": p.token, f"choice-{odd}": "due_now",
                          f"amount-{odd}": "5", f"through-{odd}": "1",
                          "expected_total": "0.01"}, f"key={odd!r}")
        p.post(path, MultiDict([("csrf_token", p.token), (f"choice-{key}", "due_now"),
                                (f"choice-{key}", "amount"), (f"amount-{key}", "5"),
                                (f"amount-{key}", "sNaN")]), "every field twice")
        p.post(path, {"csrf_token": p.token}, "nothing chosen")
        p.csrf(path, {f"choice-{key}": "due_now"})
    p.unchanged()
    # The reviewed total: only the exact total starts a checkout.
    key, _payoff, _numbers, due_now = next(a for a in accounts if a[3] > 0)
    for value in amounts + ["0.01", str(due_now) + "0", str(due_now + 1)]:
        r = p.post("/pagar/confirmar", {"csrf_token": p.token, f"choice-{key}": "due_now",
                                        "expected_total": value},
                   f"expected_total={short(value)}")
        # (not the total reviewed: 409; a NUL byte is a 400 before any view)
        p.expect(r.status_code == (400 if "\x00" in value else 409),
                 f"expected_total={short(value)} (due {due_now}) -> {r.status_code}")
    p.unchanged("(expected_total)")
    p.report()


def _start_sandbox(p: Probe, data: dict[str, str]) -> str:
    """Review, then confirm with the reviewed total: the sandbox checkout's URL."""
    review = p.post("/pagar/revisar", {"csrf_token": p.token, **data})
    m = re.search(r'name="expected_total" value="([^"]+)"', review.get_data(as_text=True))
    errors = re.findall(r"usa-error-message[^>]*>([^<]*)", review.get_data(as_text=True))
    assert m, (review.status_code, errors, data)
    r = p.post("/pagar/confirmar", {"csrf_token": p.token, **data,
                                    "expected_total": m.group(1)})
    assert r.status_code == 303 and "/pagos/prueba/" in r.headers["Location"], r.status_code
    return r.headers["Location"]


def test_sandbox_checkout(demo_app: Flask, error_log: ErrorLog):
    """The sandbox's page (test mode): odd outcomes are refused."""
    p = Probe(demo_app, "owner", error_log)
    key = next(a[0] for a in _payable(demo_app, "owner") if a[3] > 0)
    url = _start_sandbox(p, {f"choice-{key}": "due_now"})
    p._before = fingerprint(demo_app)
    p.form(url, {"outcome": "no-such-outcome"}, fields=["outcome"],
           refused=lambda r: r.status_code == 400)
    p.csrf(url, {"outcome": "card_succeeds"})
    p.unchanged("(sandbox outcome)")
    # The bank's answer (test mode): anything but "settle" means the debit failed.
    p.form(url + "/banco", {"result": "settle"})
    p.report()


def test_staff_office_and_refund(demo_app: Flask, error_log: ErrorLog):
    p = Probe(demo_app, "staff", error_log)
    pid = sorted(parcel_ids(demo_app)["owner"])[0]
    office = f"/personal/pagos/oficina/{pid}"
    keys = re.findall(r'value="(\d+-\d+)"', p.get(office).get_data(as_text=True))
    assert keys, "no account on the office form"
    # Odd amounts, accounts and methods: refused, nothing posted. (With a payer's name
    # missing nothing could be posted; the amount is still read and checked.)
    base = {"account": keys[-1], "amount": "0", "method": "cash", "reference": "",
            "payer_name": "Ana"}
    p.form(office, {**base, "payer_name": ""}, AMOUNTS, fields=["amount"])
    p.form(office, base, [v for v in AMOUNTS if v not in LEGIT_AMOUNTS], fields=["amount"],
           refused=lambda r: r.status_code == 400)
    p.form(office, {**base, "payer_name": ""}, [*VALUES, "1-1", "0-0", "\x00" + keys[-1]],
           fields=["account", "method"])
    p.csrf(office, base)
    p.unchanged("(office)")
    # Odd names and references with a sound amount: a name is a name (recorded); one
    # longer than its column, or none at all, is refused.
    p.form(office, {**base, "amount": "1.00", "method": "check", "reference": "1042"},
           [v for v in VALUES if v.strip()], fields=["payer_name", "reference"])
    # Refunds: the owner pays the whole year twice (two tabs), which leaves a credit.
    owner = Probe(demo_app, "owner", error_log)
    okey, payoff, numbers, _due = next(a for a in _payable(demo_app, "owner")
                                       if a[0].startswith(f"{pid}-"))
    urls = [_start_sandbox(owner, {f"choice-{okey}": "amount", f"amount-{okey}": str(payoff)}),
            _start_sandbox(owner, {f"choice-{okey}": "installments",
                                   f"through-{okey}": str(numbers[-1])})]
    for url in urls:
        owner.post(url, {"csrf_token": owner.token, "outcome": "card_succeeds"})
    refund = f"/personal/pagos/reembolso/{pid}"
    rkeys = re.findall(r'value="(\d+-\d+)"', p.get(refund).get_data(as_text=True))
    assert rkeys, "the two payments left no credit to refund"
    p._before = fingerprint(demo_app)
    base = {"account": rkeys[0], "amount": "0", "note": "x"}
    p.form(refund, base, [v for v in AMOUNTS if v not in LEGIT_AMOUNTS], fields=["amount"],
           refused=lambda r: r.status_code == 400)
    p.form(refund, {**base, "amount": "-1"}, VALUES, fields=["account", "note"])
    p.csrf(refund, base)
    p.unchanged("(refund)")
    p.report(owner)


def test_a_500_is_detected(demo_app: Flask, error_log: ErrorLog):
    """The harness itself: a route that raises is reported with its exception and line."""
    demo_app.add_url_rule("/_boom", "boom", lambda: 1 / 0)
    p = Probe(demo_app, "anonymous", error_log)
    p.get("/_boom")
    assert len(p.problems) == 1
    assert "ZeroDivisionError" in p.problems[0] and "test_hostile_input.py" in p.problems[0]
    with pytest.raises(AssertionError, match="1 problems"):
        p.report()


# --- the provider's webhook ----------------------------------------------------------------

WEBHOOK_SECRET = "whsec_hostile_test"


@pytest.fixture
def stripe_app(tmp_path, demo_db, fixed_today) -> Iterator[Flask]:  # noqa: ANN001
    from portal.db import reset_databases
    from tests.support.app import make_app
    application = make_app(tmp_path, demo_db[0], STRIPE_SECRET_KEY="sk_test_hostile",
                           STRIPE_WEBHOOK_SECRET=WEBHOOK_SECRET,
                           STRIPE_API_BASE="http://127.0.0.1:9", STRIPE_MAX_RETRIES="0")
    yield application
    reset_databases()


def test_webhook_unsigned(stripe_app: Flask, error_log: ErrorLog):
    """Anyone can post to the webhook: without Stripe's signature it is a 400."""
    p = Probe(stripe_app, "anonymous", error_log)
    url = "/pagos/webhook/stripe"
    for body in (b"", b"\x00\xff\xfe", b"{}", b"[]", b"null", b'{"id": 1}', b"x" * 100_000,
                 '{"type": "😀"}'.encode()):
        for sig in (None, "", "t=1,v1=abc", "t=nan,v1=", "t=99999999999999999999999,v1=x",
                    "t=-1", "v1=" + "a" * 64, "\x00", ",,,=,=", "t=1,v1=abc,v1=def"):
            headers = {} if sig is None else {"Stripe-Signature": sig}
            r = p.post(url, body, f"body={short(body)} sig={short(sig)}", headers=headers,
                       content_type="application/json")
            p.expect(r.status_code == 400, f"webhook sig={sig!r} -> {r.status_code}")
    p.unchanged("(webhook)")
    p.report()


def test_webhook_signed_odd_events(stripe_app: Flask, error_log: ErrorLog):
    """Events with Stripe's signature (only Stripe can send these) but odd contents: a 4xx
    or a 200 "ignored", never a 500."""
    import json
    import time

    import stripe
    p = Probe(stripe_app, "anonymous", error_log)
    url = "/pagos/webhook/stripe"
    odd_objects = [{"id": v} for v in ("", "\x00", "x" * 10_000, 1, None, [])] + [
        {"client_reference_id": v} for v in ("99999999999999999999", "9223372036854775808",
                                             "²", "٣", "0", "-1", 1.5)] + [
        {"metadata": {"payment_id": "99999999999999999999"}}, {"metadata": "x"}]
    events = [{"id": f"evt_{n}", "type": "checkout.session.completed", "created": created,
               "data": {"object": obj}}
              for n, (obj, created) in enumerate(
                  [(o, 1) for o in odd_objects] +
                  [({"id": "cs_x"}, c) for c in (10**20, -10**20, 2**63)])]
    events += [{"id": f"evt_r{n}", "type": "charge.refunded",
                "data": {"object": {"payment_intent": pi, "amount_refunded": amt}}}
               for n, (pi, amt) in enumerate([("pi_x", 10**30), ("\x00", -1), (["x"], 5),
                                              ({"a": 1}, 5), ("pi_x", True)])]
    events += [{"id": 1, "type": "x", "data": {"object": {}}}, {"id": "e", "type": "x",
                                                                 "data": "x"}, {}]
    for event in events:
        payload = json.dumps(event)
        sig = stripe.WebhookSignature.generate_signature_header(
            payload, WEBHOOK_SECRET, timestamp=int(time.time()))
        p.post(url, payload.encode(), f"event={short(event)}",
               headers={"Stripe-Signature": sig}, content_type="application/json")
    p.report()


# --- PostgreSQL (what production runs): NUL bytes and ids past INTEGER -----------------------

@pytest.mark.postgres
def test_on_postgresql(tmp_path, error_log: ErrorLog):
    """PostgreSQL refuses text with a NUL byte and ids past its INTEGER, where SQLite takes
    them: the same odd input, on the server production runs."""
    from portal.demo import district
    from tests.support.app import demo_on_postgresql
    with demo_on_postgresql(tmp_path, users_n=len(district.SIGN_INS) + 2) as (app, _demo):
        _postgres_probes(app, error_log)


def _postgres_probes(app: Flask, error_log: ErrorLog) -> None:
    nul = ["\x00", "a\x00b", "Ana\x00"]
    big = ["2147483648", "9223372036854775807", "9223372036854775808", "99999999999999999999"]
    anon = Probe(app, "anonymous", error_log)
    for v in nul:
        anon.post("/cuenta/registro", {"csrf_token": anon.token, "name": v,
                                       "email": "new-nul@example.com",
                                       "password": "Un-paso-largo-2026!",
                                       "confirm": "Un-paso-largo-2026!"}, f"name={v!r}")
        for path in ("/cuenta/entrar", "/cuenta/olvide", "/cuenta/reenviar"):
            anon.post(path, {"csrf_token": anon.token, "email": f"a{v}@example.com",
                             "password": v}, f"email/password={v!r}")
        anon.post("/idioma", {"csrf_token": anon.token, "lang": v, "next": "/" + v})
    probes = [anon]
    for role in ("owner", "staff"):
        p = Probe(app, role, error_log)
        probes.append(p)
        pid = parcel_ids(app)["owner"][0]
        for v in nul:
            p.post("/propiedad/reclamar", {"csrf_token": p.token, "catastro": "040-012",
                                           "code": v}, f"code={v!r}")
            p.post(f"/propiedad/{pid}/acceso", {"csrf_token": p.token,
                                                "email": f"x{v}@example.com"}, f"email={v!r}")
            p.get("/personal/buscar", f"q=abc{v!r}", query_string={"q": "abc" + v})
            p.get(f"/pagos/prueba/cs_{v}")
            p.post(f"/pagos/prueba/cs_{v}", {"csrf_token": p.token, "outcome": "cancel"})
            p.get("/pagar", query_string={"parcela": v})
        for n in big:
            for path in ("/pagos/{}/recibo", "/pagos/{}/recibo.pdf", "/pagos/{}/exito",
                         "/pagos/pago/{}/recibo", "/propiedad/{}/pagos", "/pagar?parcela={}",
                         "/personal/pagos/oficina/{}", "/personal/pagos/reembolso/{}",
                         "/prestamista/prestamos?page={}", "/personal/persona/{}"):
                p.get(path.format(n))
        if role == "staff":
            page = p.get(f"/personal/pagos/oficina/{pid}").get_data(as_text=True)
            key = re.findall(r'value="(\d+-\d+)"', page)[-1]
            for field in ("payer_name", "reference"):
                for v in nul:
                    p.post(f"/personal/pagos/oficina/{pid}", {
                        "csrf_token": p.token, "account": key, "amount": "1.00",
                        "method": "check", "reference": "1042", "payer_name": "Ana",
                        field: v}, f"{field}={v!r}")
            for v in ["1-" + n for n in big] + [n + "-1" for n in big]:
                p.post(f"/personal/pagos/oficina/{pid}", {
                    "csrf_token": p.token, "account": v, "amount": "1.00", "method": "cash",
                    "payer_name": "Ana"}, f"account={v!r}")
    # A refund's note with a NUL byte: refused before the provider is asked to give money
    # back (a 500 after the provider's refund would leave the money refunded, unrecorded).
    owner, staff = probes[1], probes[2]
    pid = parcel_ids(app)["owner"][0]
    okey, payoff, numbers, _due = next(a for a in _payable(app, "owner")
                                       if a[0].startswith(f"{pid}-"))
    urls = [_start_sandbox(owner, {f"choice-{okey}": "amount", f"amount-{okey}": str(payoff)}),
            _start_sandbox(owner, {f"choice-{okey}": "installments",
                                   f"through-{okey}": str(numbers[-1])})]
    for url in urls:  # (both started before either is paid: the second leaves a credit)
        owner.post(url, {"csrf_token": owner.token, "outcome": "card_succeeds"})
    refund = f"/personal/pagos/reembolso/{pid}"
    page = staff.get(refund).get_data(as_text=True)
    rkeys = re.findall(r'value="(\d+-\d+)"', page)
    assert rkeys, "no credit to refund"
    for note in nul:
        staff.post(refund, {"csrf_token": staff.token, "account": rkeys[0], "amount": "0.01",
                            "note": note}, f"note={note!r}")
    probes[0].report(*probes[1:])
