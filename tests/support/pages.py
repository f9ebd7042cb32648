"""Using the portal's pages from a test client: CSRF tokens, signing in (the demo District's
people, with the second step for staff), the emails in the outbox, a page's text."""

from __future__ import annotations

import email
import re
from datetime import timedelta
from email.message import Message
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from portal import clock
from portal.demo.district import DEMO_PASSWORD

#: The demo District's people sign in with it (the payments' world is given it too).
PASSWORD = DEMO_PASSWORD
#: The demo District's sign-ins by role (portal/demo/district.py).
ROLES = {"owner": "owner@demo.pr", "lessee": "lessee@demo.pr", "lender": "lender@demo.pr",
         "staff": "staff@demo.pr", "other": "user00001@demo.pr"}
#: The demo's staff sign-ins by staff role.
STAFF_ROLE_EMAILS = {"administrator": "staff@demo.pr", "reviewer": "reviewer@demo.pr",
                     "cashier": "cashier@demo.pr", "read_only": "readonly@demo.pr"}


# --- forms ---------------------------------------------------------------------------------

def csrf_token(html: str) -> str:
    """The CSRF token of the page's first form."""
    m = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html)
    assert m, "no CSRF token on the page"
    return m.group(1)


def error_messages(html: str) -> list[str]:
    """The form's error messages (USWDS's usa-error-message), as plain text."""
    return [re.sub(r"\s+", " ", e).strip() for e in
            re.findall(r'class="usa-error-message"[^>]*>(.*?)</span>', html, re.S)]


_SPOKEN = re.compile(r'<span class="usa-sr-only">[^<]*</span>')
_FOR_THE_EYE = re.compile(r'<span aria-hidden="true">([^<]*)</span>')


def as_seen(html: str) -> str:
    """The page as the eye reads it: an amount's words for a screen reader
    (`portal.web.spoken`) left out, its figure kept."""
    return _FOR_THE_EYE.sub(r"\1", _SPOKEN.sub("", html))


def main_text(html: str) -> str:
    """The text of the page's <main> as the eye reads it, tags dropped, spaces collapsed."""
    main = as_seen(html[html.index("<main"):html.index("</main>")])
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main))


# --- signing in ----------------------------------------------------------------------------

def sign_in_form(client: FlaskClient, email_addr: str, password: str, lang: str | None = None):  # noqa: ANN201
    """Post the sign-in form (in `lang` when given): the response, not followed."""
    query = f"?lang={lang}" if lang else ""
    page = client.get(f"/cuenta/entrar{query}").get_data(as_text=True)
    return client.post("/cuenta/entrar", data={"csrf_token": csrf_token(page),
                                               "email": email_addr, "password": password})


def login(app: Flask, role_or_email: str, password: str = PASSWORD) -> FlaskClient:
    """A test client signed in as a demo role (owner, lessee, lender, staff, other) or an
    email; staff through the second step too, with the demo's TOTP secret."""
    from portal.demo.district import STAFF_TOTP_SECRET
    client = app.test_client()
    email_addr = ROLES.get(role_or_email, role_or_email)
    r = sign_in_form(client, email_addr, password)
    assert r.status_code == 303, f"could not sign in as {email_addr}"
    if r.headers["Location"].endswith("/cuenta/verificar"):
        second_step(client, STAFF_TOTP_SECRET)
    return client


def password_only(app: Flask, email_addr: str = "staff@demo.pr", lang: str = "es"
                  ) -> tuple[FlaskClient, str]:
    """(client, where the sign-in sent it): the first step only, the password of a demo
    person (staff are sent on to the second step, `/cuenta/verificar`)."""
    client = app.test_client()
    r = sign_in_form(client, email_addr, PASSWORD, lang)
    assert r.status_code == 303
    return client, r.headers["Location"]


def totp_code(secret: str) -> str:
    """The code an authenticator shows now for `secret`, on a fresh time step: a fixed clock
    moves on 30 seconds first (a step's code is accepted once, as the next sign-in of a
    person would come in a later step)."""
    import pyotp
    if clock.is_fixed():
        clock.set_fixed(clock.now() + timedelta(seconds=30))
    return pyotp.TOTP(secret).at(clock.now())


def second_step(client: FlaskClient, secret: str, lang: str | None = None) -> str:
    """Complete `/cuenta/verificar` with the authenticator's code; where it sends next."""
    query = f"?lang={lang}" if lang else ""
    page = client.get(f"/cuenta/verificar{query}").get_data(as_text=True)
    r = client.post("/cuenta/verificar", data={"csrf_token": csrf_token(page),
                                               "code": totp_code(secret)})
    assert r.status_code == 303, "the second step refused the code"
    return r.headers["Location"]


# --- signing up (a new person, not the demo's) ---------------------------------------------

#: The password of the people the tests sign up.
NEW_PASSWORD = "una frase bastante larga"


def sign_up(client: FlaskClient, email_addr: str = "ana@example.com", lang: str = "es",
            password: str = NEW_PASSWORD):  # noqa: ANN201
    page = client.get(f"/cuenta/registro?lang={lang}").get_data(as_text=True)
    return client.post(f"/cuenta/registro?lang={lang}", data={
        "csrf_token": csrf_token(page), "name": "Ana Rivera", "email": email_addr,
        "password": password, "confirm": password})


def sign_in(client: FlaskClient, email_addr: str = "ana@example.com",
            password: str = NEW_PASSWORD):  # noqa: ANN201
    """Sign a person the test signed up in (`sign_up`): the response, not followed."""
    return sign_in_form(client, email_addr, password)


# --- the outbox (mail goes to files in the tests) ------------------------------------------

def outbox(app: Flask) -> list[Path]:
    """The emails the app wrote (.eml files in OUTBOX_DIR), oldest first."""
    folder = Path(app.config["OUTBOX_DIR"])
    return sorted(folder.glob("*.eml")) if folder.exists() else []


def read_mail(path: Path) -> Message:
    return email.message_from_bytes(path.read_bytes())


def mail_link(path: Path) -> str:
    """The first link of a (single-part) email, as a path on the test client's host."""
    body = read_mail(path).get_payload(decode=True).decode()
    m = re.search(r"https?://\S+", body)
    assert m, body
    return m.group(0).replace("http://localhost", "")


def outbox_link(app: Flask) -> str:
    """The link of the last email in the outbox."""
    return mail_link(outbox(app)[-1])
