"""Every page of the portal, as each role sees it, in both languages (for the HTML checker
and the accessibility tests)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from flask import Flask

from .demo import parcel_ids
from .pages import csrf_token, login

ANONYMOUS = ("/", "/cuenta/entrar", "/cuenta/registro", "/cuenta/revise-su-correo",
             "/cuenta/olvide", "/no-existe",
             "/pagar-sin-cuenta")  # paying without an account
#: The help pages (for anyone; the anonymous walk opens them).
HELP = ("/ayuda/contacto", "/ayuda/preguntas", "/ayuda/privacidad", "/ayuda/accesibilidad")


def pages_for(app: Flask, role: str) -> list[str]:
    """The paths a role can open (GET)."""
    if role == "anonymous":
        return [*ANONYMOUS, *HELP]
    ids = parcel_ids(app)
    paths = ["/", "/mis-propiedades", "/propiedad/reclamar", "/arrendamientos/"]
    mine = ids[role][:3]
    paths += [f"/propiedad/{pid}" for pid in mine]
    if role in ("owner", "lessee"):
        paths.append(f"/propiedad/{mine[0]}/acceso")
    if role == "lender":
        paths += ["/prestamista/prestamos", "/prestamista/webhooks"]
    paths += ["/cuenta", "/cuenta/dos-pasos", "/cuenta/contrasena"]
    if role == "owner":
        paths.append("/cuenta/dos-pasos/activar")
    paths.append("/cuenta/recordatorios")  # reminders and the calendar
    paths.append("/cuenta/sin-papel")  # paperless notices
    if role == "staff":
        paths += ["/personal/buscar", "/personal/buscar?q=Calle", "/personal/buscar?q=x",
                  "/personal/persona/1", f"/propiedad/{ids['lessee'][0]}"]
    return paths


def walk(app: Flask) -> Iterator[tuple[str, str, str]]:
    """(label, path, html) for every page, every role, both languages; and forms with errors."""
    for role in ("anonymous", "owner", "lessee", "lender", "staff"):
        client = app.test_client() if role == "anonymous" else login(app, role)
        for lang in ("es", "en"):
            for path in pages_for(app, role):
                sep = "&" if "?" in path else "?"
                r = client.get(f"{path}{sep}lang={lang}")
                expected = 404 if path == "/no-existe" else 200  # (the one page that is not)
                assert r.status_code == expected, (role, path, r.status_code)
                yield f"{role}-{lang}", path, r.get_data(as_text=True)
    # Forms shown again with their errors.
    client = app.test_client()
    page = client.get("/cuenta/registro").get_data(as_text=True)
    r = client.post("/cuenta/registro", data={"csrf_token": csrf_token(page), "name": "",
                                              "email": "no", "password": "x", "confirm": "y"})
    yield "signup-errors", "/cuenta/registro", r.get_data(as_text=True)
    owner = login(app, "owner")
    page = owner.get("/propiedad/reclamar").get_data(as_text=True)
    r = owner.post("/propiedad/reclamar", data={"csrf_token": csrf_token(page),
                                                "catastro": "abc", "code": ""})
    yield "claim-errors", "/propiedad/reclamar", r.get_data(as_text=True)
    pid = parcel_ids(app)["owner"][0]
    page = owner.get(f"/propiedad/{pid}").get_data(as_text=True)
    r = owner.post(f"/propiedad/{pid}/acceso", data={"csrf_token": csrf_token(page),
                                                     "email": "owner@demo.pr"})
    yield "grant-errors", f"/propiedad/{pid}", r.get_data(as_text=True)
    # Paying without an account: the code's errors, the pay page, its errors.
    guest = app.test_client()
    page = guest.get("/pagar-sin-cuenta").get_data(as_text=True)
    r = guest.post("/pagar-sin-cuenta", data={"csrf_token": csrf_token(page),
                                              "catastro": "abc", "code": ""})
    yield "guest-code-errors", "/pagar-sin-cuenta", r.get_data(as_text=True)
    catastro, code, _address = app.config["DEMO"].codes[0]
    guest.post("/pagar-sin-cuenta", data={"csrf_token": csrf_token(page),
                                          "catastro": catastro, "code": code})
    page = guest.get("/pagar-sin-cuenta/pagar").get_data(as_text=True)
    yield "guest-pay", "/pagar-sin-cuenta/pagar", page
    r = guest.post("/pagar-sin-cuenta/revisar", data={"csrf_token": csrf_token(page),
                                                      "payer_email": "no"})
    yield "guest-pay-errors", "/pagar-sin-cuenta/revisar", r.get_data(as_text=True)
    page = owner.get("/cuenta").get_data(as_text=True)
    r = owner.post("/cuenta/telefono", data={"csrf_token": csrf_token(page), "phone": "123"})
    yield "phone-errors", "/cuenta", r.get_data(as_text=True)


def slug(label: str, path: str) -> str:
    return f"{label}-{re.sub(r'[^a-z0-9]+', '_', path.lower()).strip('_') or 'home'}"
