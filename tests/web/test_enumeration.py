"""No account enumeration: sign-up, forgot-password and grant-access answer with the same
words, and do the same work (no timed assertion: the work is counted), whether or not an
account uses the email."""

from __future__ import annotations

import email
import email.policy
import re

import pytest

from portal import mail, passwords
from portal.web.people import tokens
from tests.support.demo import parcel_ids
from tests.support.pages import csrf_token, login, outbox

STRONG = "guayaba con queso en la playa"


@pytest.fixture
def counted(monkeypatch):
    """How often each piece of work ran: hashing a password, making a reset token, sending
    an email (the emails are still sent)."""
    calls = {"hash": 0, "token": 0, "mail": 0}

    def counting(name, real):  # noqa: ANN001, ANN202
        def wrapper(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            calls[name] += 1
            return real(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(passwords, "hash_password", counting("hash", passwords.hash_password))
    monkeypatch.setattr(tokens, "make_reset", counting("token", tokens.make_reset))
    monkeypatch.setattr(mail, "send", counting("mail", mail.send))
    return calls


def _text(client, response) -> str:  # noqa: ANN001
    """The page the answer leads to, without the form's one-time token."""
    if response.status_code in (302, 303):
        response = client.get(response.headers["Location"])
    return re.sub(r'name="csrf_token"[^>]*value="[^"]+"', "", response.get_data(as_text=True))


def _sign_up(app, email):  # noqa: ANN001, ANN202
    client = app.test_client()
    page = client.get("/cuenta/registro").get_data(as_text=True)
    r = client.post("/cuenta/registro", data={
        "csrf_token": csrf_token(page), "name": "Ana Rivera", "email": email,
        "password": STRONG, "confirm": STRONG})
    return r, _text(client, r)


def _both_paths(counted, post, email_a, email_b):  # noqa: ANN001, ANN202
    """Post with each email; assert the same answer and page; the work done on each path."""
    first_r, first_text = post(email_a)
    work_a = dict(counted)
    second_r, second_text = post(email_b)
    work_b = {k: counted[k] - work_a[k] for k in counted}
    assert (first_r.status_code, first_r.headers["Location"]) == \
        (second_r.status_code, second_r.headers["Location"])
    assert first_text == second_text
    return work_a, work_b


def test_sign_up_hashes_and_answers_alike_for_a_known_email(demo_app, counted):
    work_new, work_known = _both_paths(counted, lambda e: _sign_up(demo_app, e),
                                       "nueva.persona@example.com", "owner@demo.pr")
    assert work_new["hash"] == work_known["hash"] == 1
    assert work_new["mail"] == work_known["mail"] == 1


def test_the_known_email_is_told_by_email(demo_app):
    _sign_up(demo_app, "owner@demo.pr")
    [sent] = outbox(demo_app)
    msg = email.message_from_bytes(sent.read_bytes(), policy=email.policy.default)
    assert msg["To"] == "owner@demo.pr"
    assert "Ya tiene una cuenta" in str(msg["Subject"])
    assert "/cuenta/olvide" in msg.get_body().get_content()


def _forgot(app, email):  # noqa: ANN001, ANN202
    client = app.test_client()
    page = client.get("/cuenta/olvide").get_data(as_text=True)
    r = client.post("/cuenta/olvide", data={"csrf_token": csrf_token(page), "email": email})
    return r, _text(client, r)


def test_forgot_password_does_the_same_work_for_an_unknown_email(demo_app, counted):
    work_known, work_unknown = _both_paths(counted, lambda e: _forgot(demo_app, e),
                                           "owner@demo.pr", "nadie@example.com")
    assert work_known["token"] == work_unknown["token"] == 1
    assert work_known["mail"] == work_unknown["mail"] == 1


def _resend(app, email):  # noqa: ANN001, ANN202
    client = app.test_client()
    page = client.get("/cuenta/revise-su-correo").get_data(as_text=True)
    r = client.post("/cuenta/reenviar", data={"csrf_token": csrf_token(page), "email": email})
    return r, _text(client, r)


def test_resend_confirmation_does_the_same_work_for_any_email(demo_app, counted, monkeypatch):
    """Unconfirmed, confirmed or unknown: the same page, one token made, one email sent."""
    counted["confirm"] = 0
    real = tokens.make_confirm

    def counting(*args):  # noqa: ANN002, ANN202
        counted["confirm"] += 1
        return real(*args)

    monkeypatch.setattr(tokens, "make_confirm", counting)
    _sign_up(demo_app, "sin.confirmar@example.com")  # an account waiting for confirmation
    for pair in (("sin.confirmar@example.com", "nadie@example.com"),
                 ("owner@demo.pr", "nadie.tampoco@example.com")):
        counted.update(dict.fromkeys(counted, 0))
        work_a, work_b = _both_paths(counted, lambda e: _resend(demo_app, e), *pair)
        assert work_a["confirm"] == work_b["confirm"] == 1, pair
        assert work_a["mail"] == work_b["mail"] == 1, pair
    subjects = {msg["To"]: str(msg["Subject"]) for msg in (
        email.message_from_bytes(f.read_bytes(), policy=email.policy.default)
        for f in outbox(demo_app))}
    assert "Ya tiene una cuenta" in subjects["owner@demo.pr"]
    unknown = [f for f in outbox(demo_app) if b"nadie@example.com" in f.read_bytes()]
    body = email.message_from_bytes(unknown[-1].read_bytes(), policy=email.policy.default)
    assert "/cuenta/registro" in body.get_body().get_content()


def _grant(app, client, pid, email):  # noqa: ANN001, ANN202
    page = client.get(f"/propiedad/{pid}/acceso").get_data(as_text=True)
    r = client.post(f"/propiedad/{pid}/acceso", data={"csrf_token": csrf_token(page),
                                                      "email": email})
    assert r.status_code == 303
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    alert = re.search(r'<p class="usa-alert__text">(.*?)</p>', page, re.S)
    assert alert, page
    return alert.group(1).replace(email, "EMAIL")


def test_grant_access_says_the_same_whether_or_not_an_account_uses_the_email(demo_app,
                                                                              counted):
    pid = parcel_ids(demo_app)["owner"][0]
    owner = login(demo_app, "owner")
    before = counted["mail"]
    known = _grant(demo_app, owner, pid, "user00001@demo.pr")
    unknown = _grant(demo_app, owner, pid, "nadie@example.com")
    assert known == unknown
    assert "No account uses" not in unknown and "Ninguna cuenta" not in unknown
    assert counted["mail"] - before == 2  # an email on both paths


def _listed(owner, pid) -> str:  # noqa: ANN001
    page = owner.get(f"/propiedad/{pid}/acceso").get_data(as_text=True)
    return re.search(r'<ul class="usa-list">(.*?)</ul>', page, re.S).group(1)


def test_the_access_list_shows_an_email_with_or_without_an_account_alike(demo_app):
    """Given access, a person with an account and an email no account uses are listed the
    same way; the email's access becomes real once an account with it is confirmed, and the
    owner can withdraw either from the list."""
    pid = parcel_ids(demo_app)["owner"][0]
    owner = login(demo_app, "owner")
    _grant(demo_app, owner, pid, "user00001@demo.pr")
    _grant(demo_app, owner, pid, "nueva.vecina@example.com")
    listed = _listed(owner, pid)
    known = re.search(r"<li>\s*user00001@demo\.pr(.*?)</li>", listed, re.S).group(1)
    unknown = re.search(r"<li>\s*nueva\.vecina@example\.com(.*?)</li>", listed, re.S).group(1)
    assert known.replace("user00001@demo.pr", "EMAIL") == \
        unknown.replace("nueva.vecina@example.com", "EMAIL")
    # Giving access again says the same for both.
    page = owner.get(f"/propiedad/{pid}/acceso").get_data(as_text=True)
    again = [owner.post(f"/propiedad/{pid}/acceso", data={"csrf_token": csrf_token(page),
                                                          "email": e}).get_data(as_text=True)
             for e in ("user00001@demo.pr", "nueva.vecina@example.com")]
    assert all("ya puede ver esta propiedad" in a.lower() or "already" in a.lower()
               for a in again), again[1][:2000]
    # The invited person signs up and confirms: the parcel is theirs to see.
    _sign_up(demo_app, "nueva.vecina@example.com")
    sent = [f for f in outbox(demo_app) if b"To: nueva.vecina@example.com" in f.read_bytes()]
    body = email.message_from_bytes(sent[-1].read_bytes(), policy=email.policy.default)
    link = re.search(r"https?://\S+/cuenta/confirmar/\S+", body.get_body().get_content())
    neighbour = demo_app.test_client()
    assert neighbour.get(link.group(0)).status_code == 302
    page = neighbour.get("/cuenta/entrar").get_data(as_text=True)
    r = neighbour.post("/cuenta/entrar", data={"csrf_token": csrf_token(page),
                                               "email": "nueva.vecina@example.com",
                                               "password": STRONG})
    assert r.status_code == 303
    assert neighbour.get(f"/propiedad/{pid}").status_code == 200
    # The owner withdraws both from the list; the neighbour sees the parcel no more.
    for e in ("user00001@demo.pr", "nueva.vecina@example.com"):
        page = owner.get(f"/propiedad/{pid}/acceso").get_data(as_text=True)
        r = owner.post(f"/propiedad/{pid}/acceso/quitar",
                       data={"csrf_token": csrf_token(page), "email": e})
        assert r.status_code == 303
    page = owner.get(f"/propiedad/{pid}/acceso").get_data(as_text=True)
    assert "user00001@demo.pr" not in page and "nueva.vecina@example.com" not in page
    assert neighbour.get(f"/propiedad/{pid}").status_code == 404
