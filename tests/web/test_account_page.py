"""The account page (/cuenta): a new email counts only once the new address
confirms it (the old one keeps working meanwhile, and is told after); a wrong current
password changes nothing; the telephone's messages in both languages; the sections other
parts add appear once their pages exist; the year's payments as CSV and PDF hold the
person's own payments only. And the help pages (item 7), linked from every page's footer."""

from __future__ import annotations

import csv
import io
import re
import subprocess

import pytest
from sqlalchemy import select

from portal import clock, passwords
from portal.models import AuditRecord, Parcel, Payment, User
from tests.support.demo import app_uow
from tests.support.documents import needs_poppler, pdfinfo
from tests.support.pages import (
    PASSWORD,
    csrf_token,
    error_messages,
    login,
    main_text,
    outbox,
    read_mail,
    sign_in_form,
)

NEW = "maria.nueva@example.com"


def _user(app, email):  # noqa: ANN001, ANN202
    with app_uow(app) as w:
        u = w.session.scalar(select(User).where(User.email == email))
        if u is None:
            return None
        w.session.expunge(u)
        return u


def _post(client, path, page_lang="es", **data):  # noqa: ANN001, ANN003, ANN202
    """Post a form of the account page, read in `page_lang`."""
    token = csrf_token(client.get(f"/cuenta?lang={page_lang}").get_data(as_text=True))
    sep = "&" if "?" in path else "?"
    return client.post(f"{path}{sep}lang={page_lang}", data={"csrf_token": token, **data})


def _mails_to(app, address):  # noqa: ANN001, ANN202
    return [read_mail(p) for p in outbox(app) if address in read_mail(p)["To"]]


def _body(msg) -> str:  # noqa: ANN001
    return msg.get_payload(decode=True).decode()


# --- the page ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "words"), [
    ("es", ["Su cuenta", "Correo electrónico", "Teléfono", "Idioma",
            "Cambie su contraseña", "verificación en dos pasos", "Sus pagos por año"]),
    ("en", ["Your account", "Email", "Telephone", "Language", "Change your password",
            "two-step verification", "Your payments by year"])])
def test_the_page_in_both_languages(demo_app, lang, words):
    client = login(demo_app, "owner")
    r = client.get(f"/cuenta?lang={lang}")
    assert r.status_code == 200
    text = main_text(r.get_data(as_text=True))
    for w in words:
        assert w in text, w
    assert "owner@demo.pr" in text
    assert f"/cuenta/pagos-{clock.today().year}.csv" in r.get_data(as_text=True)


def test_signed_out_goes_to_sign_in(demo_app):
    for path in ("/cuenta", "/cuenta/pagos-2026.csv", "/cuenta/pagos-2026.pdf"):
        r = demo_app.test_client().get(path)
        assert r.status_code == 302 and "/cuenta/entrar" in r.headers["Location"], path


def test_the_dashboard_links_the_account_page(demo_app):
    html = login(demo_app, "owner").get("/mis-propiedades?lang=en").get_data(as_text=True)
    assert 'href="/cuenta"' in html
    assert "Signing in" not in html  # (the account page has it now)


def test_more_sections_appear_once_their_pages_exist(app, monkeypatch):
    """Reminders, saved payment methods, paperless: linked only when the app has the page
    (by its endpoint, or a page at its path)."""
    from portal.web.accounts import account
    with app.test_request_context("/cuenta"):
        shown = [url for url, _label, _hint in account._more_sections()]
    assert shown == ["/cuenta/recordatorios", "/cuenta/metodos-de-pago", "/cuenta/sin-papel"]
    monkeypatch.setattr(account, "MORE_SECTIONS", [
        account.Section("nowhere.page", "A", "a"), account.Section("elsewhere.page", "B", "b"),
        account.Section("accounts.account", "C", "c")])
    monkeypatch.setattr(account, "MORE_PATHS", ("/cuenta/no-existe", "/cuenta/tampoco",
                                                 "/x"))
    with app.test_request_context("/cuenta"):
        assert [url for url, _l, _h in account._more_sections()] == ["/cuenta"]
    app.add_url_rule("/cuenta/tampoco", "later_page", lambda: "ok")
    with app.test_request_context("/cuenta"):
        assert [url for url, _l, _h in account._more_sections()] == ["/cuenta/tampoco",
                                                                        "/cuenta"]


# --- the email ----------------------------------------------------------------------------------

def test_a_new_email_counts_only_once_confirmed(demo_app):
    client = login(demo_app, "owner")
    before = len(outbox(demo_app))
    r = _post(client, "/cuenta/correo", new_email=NEW, email_password=PASSWORD)
    assert r.status_code == 303
    page = client.get("/cuenta?lang=es").get_data(as_text=True)
    assert NEW in page and "owner@demo.pr" in page
    # Until the link is opened: the old email still signs in, the new one does not.
    assert _user(demo_app, "owner@demo.pr") is not None
    assert _user(demo_app, NEW) is None
    assert sign_in_form(demo_app.test_client(), NEW, PASSWORD).status_code == 200
    assert sign_in_form(demo_app.test_client(), "owner@demo.pr", PASSWORD).status_code == 303
    sent = outbox(demo_app)[before:]
    assert len(sent) == 1
    msg = read_mail(sent[0])
    assert msg["To"] == NEW
    link = re.search(r"https?://\S+", _body(msg)).group(0).replace("http://localhost", "")
    assert "/cuenta/correo/confirmar/" in link
    # Opened (from another browser: the signature names the account).
    r = demo_app.test_client().get(link)
    assert r.status_code == 303
    user = _user(demo_app, NEW)
    assert user is not None and user.email_confirmed_at is not None
    assert _user(demo_app, "owner@demo.pr") is None
    told = _mails_to(demo_app, "owner@demo.pr")
    assert told and NEW in _body(told[-1])
    assert "787-555-0142" in _body(told[-1])  # the Authority's telephone, from one place
    assert sign_in_form(demo_app.test_client(), NEW, PASSWORD).status_code == 303
    with app_uow(demo_app) as w:
        rec = w.session.scalars(select(AuditRecord).where(
            AuditRecord.action == "user.email_changed")).one()
        assert rec.before == {"email": "owner@demo.pr"} and rec.after == {"email": NEW}
    # The link works once.
    r = demo_app.test_client().get(link + "?lang=en", follow_redirects=True)
    assert "not valid or has expired" in r.get_data(as_text=True)


def test_a_wrong_password_changes_no_email_and_sends_nothing(demo_app):
    client = login(demo_app, "owner")
    before = len(outbox(demo_app))
    r = _post(client, "/cuenta/correo", "en", new_email=NEW,
              email_password="not the password")
    assert r.status_code == 400
    assert "That is not your current password." in error_messages(r.get_data(as_text=True))
    assert len(outbox(demo_app)) == before
    assert _user(demo_app, "owner@demo.pr") is not None


def test_an_email_another_account_has_is_told_there(demo_app):
    """The same answer on the page; the other address gets a note; nothing changes."""
    client = login(demo_app, "owner")
    before = len(outbox(demo_app))
    r = _post(client, "/cuenta/correo", new_email="lessee@demo.pr", email_password=PASSWORD)
    assert r.status_code == 303
    sent = [read_mail(p) for p in outbox(demo_app)[before:]]
    assert [m["To"] for m in sent] == ["lessee@demo.pr"]
    assert "/cuenta/correo/confirmar/" not in _body(sent[0])
    assert _user(demo_app, "owner@demo.pr") is not None


def test_a_forged_or_stale_link_changes_nothing(demo_app):
    client = demo_app.test_client()
    r = client.get("/cuenta/correo/confirmar/not-a-token?lang=es", follow_redirects=True)
    assert "no es válido" in r.get_data(as_text=True)
    assert _user(demo_app, "owner@demo.pr") is not None


# --- the password -----------------------------------------------------------------------------

def test_a_wrong_current_password_changes_nothing(demo_app):
    client = login(demo_app, "owner")
    before = _user(demo_app, "owner@demo.pr").password_hash
    page = client.get("/cuenta/contrasena?lang=es").get_data(as_text=True)
    r = client.post("/cuenta/contrasena", data={
        "csrf_token": csrf_token(page), "current": "no es la mía",
        "password": "una frase nueva bastante larga", "confirm": "una frase nueva bastante larga"})
    assert r.status_code == 200
    assert "Esa no es su contraseña actual." in error_messages(r.get_data(as_text=True))
    after = _user(demo_app, "owner@demo.pr").password_hash
    assert after == before and passwords.check_password(after, PASSWORD)


def test_a_new_password_returns_to_the_account_page(demo_app):
    client = login(demo_app, "owner")
    page = client.get("/cuenta/contrasena").get_data(as_text=True)
    assert 'href="/cuenta"' in page
    new = "una frase nueva bastante larga"
    r = client.post("/cuenta/contrasena", data={
        "csrf_token": csrf_token(page), "current": PASSWORD, "password": new, "confirm": new})
    assert r.status_code == 303 and r.headers["Location"].endswith("/cuenta")
    assert passwords.check_password(_user(demo_app, "owner@demo.pr").password_hash, new)


# --- the telephone -----------------------------------------------------------------------------

PHONE_MESSAGES = {
    "es": {"abc": "Escriba el teléfono solo con números, como 787-555-0142.",
           "123": "Ese número tiene muy pocos o demasiados dígitos",
           "787-000-0000": "Ese no es un número de teléfono en uso"},
    "en": {"abc": "Write the telephone with digits only, like 787-555-0142.",
           "123": "That number has too few or too many digits",
           "787-000-0000": "That is not a telephone number in use"},
}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_phone_messages_in_both_languages(demo_app, lang):
    client = login(demo_app, "owner")
    for typed, message in PHONE_MESSAGES[lang].items():
        r = _post(client, "/cuenta/telefono", lang, phone=typed)
        assert r.status_code == 400, typed
        errors = error_messages(r.get_data(as_text=True))
        assert len(errors) == 1 and errors[0].startswith(message), (typed, errors)
        assert _user(demo_app, "owner@demo.pr").phone is None


def test_a_phone_is_stored_e164_and_shown_nationally(demo_app):
    client = login(demo_app, "owner")
    r = _post(client, "/cuenta/telefono", phone=" 787 555 0142 ")
    assert r.status_code == 303
    assert _user(demo_app, "owner@demo.pr").phone == "+17875550142"
    assert "(787) 555-0142" in client.get("/cuenta").get_data(as_text=True)
    _post(client, "/cuenta/telefono", phone="+34 912 345 678")
    assert _user(demo_app, "owner@demo.pr").phone == "+34912345678"
    assert "+34 912 34 56 78" in client.get("/cuenta").get_data(as_text=True)
    _post(client, "/cuenta/telefono", phone="")
    assert _user(demo_app, "owner@demo.pr").phone is None


def test_the_language_is_saved(demo_app):
    client = login(demo_app, "owner")
    token = csrf_token(client.get("/cuenta?lang=es").get_data(as_text=True))
    r = client.post("/cuenta/idioma", data={"csrf_token": token, "lang": "en"})
    assert r.status_code == 303
    assert _user(demo_app, "owner@demo.pr").language == "en"
    assert "The language was saved" in client.get("/cuenta").get_data(as_text=True)


# --- the year's payments -----------------------------------------------------------------------

def _own_payments(app, email, year):  # noqa: ANN001, ANN202
    """(catastro, amount) of the succeeded payments of the person's year, read directly."""
    with app_uow(app) as w:
        rows = w.session.execute(select(Payment, Parcel.catastro).join(
            Parcel, Parcel.id == Payment.parcel_id).where(
            Payment.status.in_(("succeeded", "partially_refunded", "refunded")),
            Payment.completed_at.is_not(None))).all()
        user = w.session.scalar(select(User).where(User.email == email))
        from portal.accounts import access
        mine = {pid for pid, rel in access.relations(w, user).items()
                if rel in ("owner", "lessee")}
        return sorted((c, f"{p.amount:.2f}") for p, c in rows
                      if (p.parcel_id in mine or p.user_id == user.id)
                      and clock.legal_date(p.completed_at).year == year)


def _csv(client, year, lang="es"):  # noqa: ANN001, ANN202
    r = client.get(f"/cuenta/pagos-{year}.csv?lang={lang}")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    text = r.get_data(as_text=True)
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:])))


@pytest.mark.parametrize("role", ["owner", "lessee"])
def test_the_csv_holds_ones_own_payments(demo_app, role):
    year = clock.today().year
    rows = _csv(login(demo_app, role), year)
    assert rows[0][:3] == ["Fecha", "Recibo", "Número de catastro"]
    got = sorted((r[2], r[7]) for r in rows[1:])
    assert got == _own_payments(demo_app, f"{role}@demo.pr", year)
    assert got, "the demo's owner and lessee paid this year"
    english = _csv(login(demo_app, role), year, "en")
    assert english[0][:3] == ["Date", "Receipt", "Catastro number"]


def test_another_persons_history_is_unreachable(demo_app):
    """The routes take no person: another account's CSV lists none of the owner's payments,
    and there is no way to ask for the owner's."""
    year = clock.today().year
    owner = {r[1] for r in _csv(login(demo_app, "owner"), year)[1:]}
    other = login(demo_app, "other")
    theirs = {r[1] for r in _csv(other, year)[1:]}
    assert owner and not owner & theirs
    for query in ("user=1", "email=owner@demo.pr", "persona=owner@demo.pr"):
        r = other.get(f"/cuenta/pagos-{year}.csv?{query}")
        rows = list(csv.reader(io.StringIO(r.get_data(as_text=True)[1:])))
        assert {row[1] for row in rows[1:]} == theirs, query
    assert other.get("/cuenta/pagos-1999.csv").status_code == 404
    assert other.get(f"/cuenta/pagos-{year + 1}.pdf").status_code == 404


def test_csv_cells_never_run_as_formulas(demo_app):
    year = clock.today().year
    with app_uow(demo_app) as w:
        user = w.session.scalar(select(User).where(User.email == "owner@demo.pr"))
        from portal.accounts import access
        pid = next(pid for pid, rel in access.relations(w, user).items() if rel == "owner")
        w.session.get(Parcel, pid).address = '=HYPERLINK("http://x.example","x")'
    rows = _csv(login(demo_app, "owner"), year)
    cells = [c for r in rows for c in r]
    assert not any(c.startswith(("=", "+", "-", "@")) for c in cells)


@needs_poppler
@pytest.mark.parametrize(("lang", "title"), [("es", "Historial de pagos"),
                                              ("en", "Payment history")])
def test_the_pdf_is_tagged_and_lists_the_receipts(demo_app, tmp_path, lang, title):
    year = clock.today().year
    client = login(demo_app, "owner")
    numbers = [r[1] for r in _csv(client, year)[1:] if r[1]]
    r = client.get(f"/cuenta/pagos-{year}.pdf?lang={lang}")
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    assert re.search(r"^Tagged:\s+yes$", pdfinfo(r.data, tmp_path), re.M)
    path = tmp_path / "h.pdf"
    path.write_bytes(r.data)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert f"{title} {year}" in text
    for n in numbers:
        assert n in text


# --- help -----------------------------------------------------------------------------------

HELP = ("/ayuda/contacto", "/ayuda/preguntas", "/ayuda/privacidad", "/ayuda/accesibilidad")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_help_pages_for_anyone_and_in_every_footer(demo_app, lang):
    client = demo_app.test_client()
    for path in HELP:
        r = client.get(f"{path}?lang={lang}")
        assert r.status_code == 200, path
    contact = main_text(client.get(f"/ayuda/contacto?lang={lang}").get_data(as_text=True))
    assert "787-555-0142" in contact and "100 Convention Boulevard" in contact
    for page in ("/", "/cuenta/entrar", "/no-existe"):
        html = client.get(f"{page}?lang={lang}").get_data(as_text=True)
        footer = html[html.index("<footer"):]
        for path in HELP:
            assert f'href="{path}"' in footer, (page, path)
    signed = login(demo_app, "owner").get(f"/mis-propiedades?lang={lang}").get_data(as_text=True)
    assert all(f'href="{p}"' in signed[signed.index("<footer"):] for p in HELP)


def test_the_faq_cites_the_rules(demo_app):
    text = main_text(demo_app.test_client().get("/ayuda/preguntas?lang=es")
                     .get_data(as_text=True))
    for rule in ("R-A2", "R-A3", "R-A11", "R-A13", "R-B1"):
        assert rule in text
    assert "derrama" in text and "pago global" in text and "requerimiento" in text
