"""Payoff certificates (J10, R-A19): issuing and downloading (owner and staff only: 404 for
anyone else), bad dates, the public verification page (what it shows and what it does not,
its rate limit), and when a certificate stops holding (superseded, expired)."""

from __future__ import annotations

import json
import re
from datetime import date, timedelta
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from portal import clock
from portal.accounts import ledger
from portal.collections import certificates
from portal.db import UnitOfWork
from portal.models import AuditRecord, DebtCertificate, FiscalYear
from portal.people import users
from portal.web.data import database
from tests.support.clock import TODAY
from tests.support.demo import parcel_ids
from tests.support.pages import csrf_token, login

CODE = re.compile(r"\b[0-9A-Z]{4}(?:-[0-9A-Z]{4}){6}\b")


def _count(app) -> int:  # noqa: ANN001
    with app.app_context(), UnitOfWork(database()) as w:
        return w.session.scalar(select(func.count()).select_from(DebtCertificate))


def _issue(client, pid: int, good_through: str, lang: str | None = None):  # noqa: ANN001, ANN202
    query = f"?lang={lang}" if lang else ""
    page = client.get(f"/propiedad/{pid}/certificados{query}")
    assert page.status_code == 200, page.status_code
    return client.post(f"/propiedad/{pid}/certificados{query}",
                       data={"csrf_token": csrf_token(page.get_data(as_text=True)),
                             "good_through": good_through})


def _issued_code(client, response) -> str:  # noqa: ANN001
    assert response.status_code == 303, response.status_code
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    found = CODE.findall(page)
    assert len(found) == 1, found
    return found[0]


@pytest.fixture
def owner_parcel(demo_app) -> int:  # noqa: ANN001
    return parcel_ids(demo_app)["owner"][0]


def test_owner_issues_downloads_and_anyone_verifies(demo_app, owner_parcel):
    client = login(demo_app, "owner")
    parcel_page = client.get(f"/propiedad/{owner_parcel}").get_data(as_text=True)
    assert f'action="/propiedad/{owner_parcel}/certificados"' in parcel_page
    before = _count(demo_app)
    r = _issue(client, owner_parcel, "2026-12-10")
    code = _issued_code(client, r)
    assert _count(demo_app) == before + 1
    listing = client.get(f"/propiedad/{owner_parcel}/certificados").get_data(as_text=True)
    pdf_url = re.search(r'href="(/propiedad/\d+/certificados/\d+\.pdf)"', listing).group(1)
    assert "válida" in listing
    doc = client.get(pdf_url)
    assert doc.status_code == 200 and doc.mimetype == "application/pdf"
    assert doc.data.startswith(b"%PDF") and "certificacion-de-deuda" in \
        doc.headers["Content-Disposition"]
    with demo_app.app_context(), UnitOfWork(database()) as w:
        cert = w.session.scalars(select(DebtCertificate).order_by(DebtCertificate.id.desc())
                                 ).first()
        content = json.loads(cert.content)
        assert cert.good_through == date(2026, 12, 10) and cert.issued_on == TODAY
        assert cert.language == "es"
        assert cert.code_digest == certificates.digest(code.replace("-", ""))
        assert code.replace("-", "") not in cert.content  # only the digest is kept
        assert w.session.scalar(select(func.count()).select_from(AuditRecord).where(
            AuditRecord.action == "certificate.issued",
            AuditRecord.object_id == str(cert.id))) == 1
        payoff, catastro = cert.payoff, content["catastro"]
    # anyone, signed in or not, checks the code (as typed: lower case, no dashes)
    visitor = demo_app.test_client()
    page = visitor.get(f"/verificar?codigo={code.replace('-', '').lower()}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Certificación válida" in text and catastro in text
    assert "10 de diciembre de 2026" in text and "30 de noviembre de 2026" in text
    from portal.i18n import money, use_language
    with use_language("es"):
        assert money(payoff) in text
    # only what the certificate says: no name, no address, no other figure of the account
    for private in content["payer_names"] + ["Banco", "Calle", "Hipoteca"]:
        assert private not in text, private


def test_staff_issue_for_any_parcel(demo_app, owner_parcel):
    client = login(demo_app, "staff")
    code = _issued_code(client, _issue(client, owner_parcel, TODAY.isoformat()))
    assert CODE.fullmatch(code)


@pytest.mark.parametrize("role", ["lessee", "lender", "other"])
def test_no_one_else_issues_lists_or_downloads(demo_app, owner_parcel, role):
    """The owner's parcel's certificates are not found (404) for a lessee, a lender or
    another owner, whether or not they can see the parcel; nothing is issued."""
    owner = login(demo_app, "owner")
    _issued_code(owner, _issue(owner, owner_parcel, "2026-12-05"))
    with demo_app.app_context(), UnitOfWork(database()) as w:
        cert_id = w.session.scalar(select(func.max(DebtCertificate.id)))
    before = _count(demo_app)
    client = login(demo_app, role)
    token = csrf_token(client.get("/").get_data(as_text=True))
    assert client.get(f"/propiedad/{owner_parcel}/certificados").status_code == 404
    assert client.get(f"/propiedad/{owner_parcel}/certificados/{cert_id}.pdf").status_code \
        == 404
    r = client.post(f"/propiedad/{owner_parcel}/certificados",
                    data={"csrf_token": token, "good_through": "2026-12-05"})
    assert r.status_code == 404
    assert _count(demo_app) == before
    # and on their own parcels, a certificate of another parcel is not theirs
    for pid in parcel_ids(demo_app)[role]:
        assert client.get(f"/propiedad/{pid}/certificados/{cert_id}.pdf").status_code == 404
    # the parcel page offers no request form to those who may not issue
    if owner_parcel in parcel_ids(demo_app)[role]:
        page = client.get(f"/propiedad/{owner_parcel}").get_data(as_text=True)
        assert "/certificados" not in page


def test_a_certificate_under_another_parcel_is_not_found(demo_app):
    owner = login(demo_app, "owner")
    first, second = parcel_ids(demo_app)["owner"][:2]
    _issued_code(owner, _issue(owner, first, "2026-12-05"))
    with demo_app.app_context(), UnitOfWork(database()) as w:
        cert_id = w.session.scalar(select(func.max(DebtCertificate.id)))
    assert owner.get(f"/propiedad/{first}/certificados/{cert_id}.pdf").status_code == 200
    assert owner.get(f"/propiedad/{second}/certificados/{cert_id}.pdf").status_code == 404


def test_anonymous_is_sent_to_sign_in(demo_app, owner_parcel):
    client = demo_app.test_client()
    r = client.get(f"/propiedad/{owner_parcel}/certificados")
    assert r.status_code == 302 and "/cuenta/entrar" in r.headers["Location"]


@pytest.mark.parametrize(("typed", "lang", "message"), [
    ("2026-11-29", "es", "La fecha no puede ser antes de hoy, 30 de noviembre de 2026."),
    ("2026-12-31", "es", "La fecha puede ser, a lo sumo, el 30 de diciembre de 2026 (30 días "
                         "desde hoy)."),
    ("mañana", "es", "Escriba la fecha como 30/11/2026 (día, mes y año), o como AAAA-MM-DD."),
    ("", "es", "Escriba la fecha hasta la cual debe valer la certificación."),
    ("2026-02-30", "en", "Write the date as 11/30/2026 (month, day and year), or as YYYY-MM-DD."),
    ("2027-01-01", "en", "The date can be at most December 30, 2026 (30 days from today)."),
])
def test_bad_dates_say_how_to_fix_them_and_change_nothing(demo_app, owner_parcel, typed, lang,
                                                           message):
    client = login(demo_app, "owner")
    before = _count(demo_app)
    r = _issue(client, owner_parcel, typed, lang)
    assert r.status_code == 400
    text = r.get_data(as_text=True)
    assert message in text
    assert "<title>Error:" in text
    assert _count(demo_app) == before


def test_unknown_and_malformed_codes_say_so(demo_app):
    client = demo_app.test_client()
    for typed in ("0000-0000-0000-0000-0000-0000-0000", "not a code", "x" * 200):
        r = client.get(f"/verificar?codigo={typed}")
        assert r.status_code == 404
        assert "Ninguna certificación tiene ese código" in r.get_data(as_text=True)
    r = client.get("/verificar?lang=en&codigo=ABCD")
    assert "No certificate has that code" in r.get_data(as_text=True)


def test_the_form_posts_a_code(demo_app, owner_parcel):
    owner = login(demo_app, "owner")
    code = _issued_code(owner, _issue(owner, owner_parcel, "2026-12-01"))
    client = demo_app.test_client()
    page = client.get("/verificar").get_data(as_text=True)
    r = client.post("/verificar", data={"csrf_token": csrf_token(page),
                                        "code": code.replace("-", " ")})
    assert r.status_code == 200 and "Certificación válida" in r.get_data(as_text=True)
    r = client.post("/verificar", data={"csrf_token": csrf_token(page), "code": ""})
    assert r.status_code == 400
    assert "Escriba el código impreso en la certificación." in r.get_data(as_text=True)


def test_verification_is_rate_limited_per_address(demo_app):
    client = demo_app.test_client()
    limit = certificates.VERIFY_LIMIT[0]
    statuses = [client.get(f"/verificar?codigo=ZZZZ{n:04d}").status_code
                for n in range(limit + 1)]
    assert statuses[:limit] == [404] * limit
    assert statuses[limit] == 429
    r = client.get("/verificar?codigo=ZZZZ")
    assert r.status_code == 429
    assert "Se han verificado demasiados códigos desde aquí." in r.get_data(as_text=True)
    # another address is not held back
    other = client.get("/verificar?codigo=ZZZZ", environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 404


def _standing(app, code: str, today: date | None = None) -> str:  # noqa: ANN001
    with app.app_context(), UnitOfWork(database()) as w:
        found = certificates.verify(w, code, f"test-{code}")
        assert found is not None
        if today is None:
            return found.standing
        cert = w.session.scalar(select(DebtCertificate).where(
            DebtCertificate.code_digest == certificates.digest(certificates.normalise(code))))
        return certificates.standing(w, cert, today)


def test_a_payment_supersedes_a_certificate(demo_app, owner_parcel):
    owner = login(demo_app, "owner")
    code = _issued_code(owner, _issue(owner, owner_parcel, "2026-12-10"))
    assert _standing(demo_app, code) == "valid"
    with demo_app.app_context(), UnitOfWork(database()) as w:
        staff = users.find_by_email(w, "staff@demo.pr")
        fy = w.session.scalar(select(FiscalYear).where(FiscalYear.starts_on <= TODAY,
                                                       FiscalYear.ends_on >= TODAY))
        ledger.record_office_payment(w, staff, owner_parcel, fy.id, Decimal("10.00"))
    assert _standing(demo_app, code) == "superseded"
    page = demo_app.test_client().get(f"/verificar?codigo={code}").get_data(as_text=True)
    assert "Certificación sustituida" in page


def test_a_later_certificate_supersedes_the_earlier(demo_app, owner_parcel):
    owner = login(demo_app, "owner")
    first = _issued_code(owner, _issue(owner, owner_parcel, "2026-12-10"))
    second = _issued_code(owner, _issue(owner, owner_parcel, "2026-12-15"))
    assert (_standing(demo_app, first), _standing(demo_app, second)) == ("superseded", "valid")
    listing = owner.get(f"/propiedad/{owner_parcel}/certificados").get_data(as_text=True)
    assert listing.count("sustituida") == 1 and listing.count(">válida<") == 1


def test_a_certificate_expires_after_its_date(demo_app, owner_parcel):
    owner = login(demo_app, "owner")
    code = _issued_code(owner, _issue(owner, owner_parcel, "2026-12-03"))
    assert _standing(demo_app, code, date(2026, 12, 3)) == "valid"
    assert _standing(demo_app, code, date(2026, 12, 4)) == "expired"
    with clock.fixed(TODAY + timedelta(days=4)):
        page = demo_app.test_client().get(f"/verificar?lang=en&codigo={code}")
    assert "Expired certificate" in page.get_data(as_text=True)


def test_a_certificate_is_never_rewritten(demo_app, owner_parcel):
    from portal.models import ImmutableRowError
    owner = login(demo_app, "owner")
    _issued_code(owner, _issue(owner, owner_parcel, "2026-12-10"))
    with demo_app.app_context(), pytest.raises(ImmutableRowError), UnitOfWork(database()) as w:
        cert = w.session.scalars(select(DebtCertificate)).first()
        cert.payoff = Decimal("0.00")
        w.session.flush()


def test_the_delinquent_parcel_states_its_collection_and_every_category(demo_app):
    """The demo owner's delinquent parcel: the certificate's figures are the account's
    statement as of the good-through date (the parcel page's pay-off figure, good through the
    same day, is the certificate's)."""
    from portal.accounts import statements
    owner = login(demo_app, "owner")
    with demo_app.app_context(), UnitOfWork(database()) as w:
        user = users.find_by_email(w, "owner@demo.pr")
        views = {pid: statements.statement_for(w, user, pid, as_of=TODAY)
                 for pid in parcel_ids(demo_app)["owner"]}
    pid, view = max(views.items(), key=lambda kv: kv[1].statement.interest)
    assert view.statement.interest > 0
    through = view.payoff_through
    _issued_code(owner, _issue(owner, pid, through.isoformat()))
    with demo_app.app_context(), UnitOfWork(database()) as w:
        cert = w.session.scalars(select(DebtCertificate).order_by(DebtCertificate.id.desc())
                                 ).first()
        content = json.loads(cert.content)
    year = next(y for y in content["years"] if y["fiscal_year"] == view.fiscal_year.label)
    later = view.payoff_statement
    assert Decimal(year["payoff"]) == view.payoff_amount
    assert Decimal(year["interest"]) == later.interest
    assert Decimal(year["late_fees"]) == later.late_fees
    assert Decimal(year["costs"]) == later.costs
    assert Decimal(year["delinquent_principal"]) == later.delinquent_principal
    assert Decimal(year["interest_per_day"]) > 0
    assert year["status"] == "overdue"


def test_the_pages_are_valid_html(demo_app, owner_parcel, tmp_path):
    """The Nu HTML Checker finds no error on the certificates' pages: the list (empty, with a
    certificate, with an error), the verification page (blank, found, unknown, refused), in
    both languages, and the parcel page with its request form."""
    from tests.support.html import vnu_errors, vnu_missing
    if vnu_missing():
        pytest.skip(vnu_missing())
    owner = login(demo_app, "owner")
    pages = {"parcel": owner.get(f"/propiedad/{owner_parcel}"),
             "empty": owner.get(f"/propiedad/{owner_parcel}/certificados?lang=en"),
             "error": _issue(owner, owner_parcel, "2027-05-01")}
    code = _issued_code(owner, _issue(owner, owner_parcel, "2026-12-02"))
    visitor = demo_app.test_client()
    pages |= {"listed": owner.get(f"/propiedad/{owner_parcel}/certificados"),
              "blank": visitor.get("/verificar"),
              "found": visitor.get(f"/verificar?codigo={code}"),
              "found-en": visitor.get(f"/verificar?lang=en&codigo={code}"),
              "unknown": visitor.get("/verificar?codigo=nada")}
    files = []
    for name, r in pages.items():
        expected = {"error": 400, "unknown": 404}.get(name, 200)  # a refused form, no such code
        assert r.status_code == expected, (name, r.status_code)
        path = tmp_path / f"{name}.html"
        path.write_text(r.get_data(as_text=True))
        files.append(path)
    assert vnu_errors(files) == []


def test_a_demand_mailed_after_it_supersedes_it(demo_app, owner_parcel):
    """R-A12: a demand mailed after the certificate changes the collection status it states
    (superseded); an old demand of a fiscal year it does not list (nothing owed there) does
    not."""
    from portal.models import Notice
    owner = login(demo_app, "owner")
    code = _issued_code(owner, _issue(owner, owner_parcel, "2026-12-10"))
    with demo_app.app_context(), UnitOfWork(database()) as w:
        old = FiscalYear(label="2024-2025", starts_on=date(2024, 7, 1), ends_on=date(2025, 6, 30))
        w.session.add(old)
        w.session.flush()
        w.session.add(Notice(parcel_id=owner_parcel, fiscal_year_id=old.id, kind="demand",
                             language="es", amount=Decimal("100.00"),
                             mailed_on=date(2024, 10, 20)))
    assert _standing(demo_app, code) == "valid"
    with demo_app.app_context(), UnitOfWork(database()) as w:
        fy = w.session.scalar(select(FiscalYear).where(FiscalYear.starts_on <= TODAY,
                                                       FiscalYear.ends_on >= TODAY))
        w.session.add(Notice(parcel_id=owner_parcel, fiscal_year_id=fy.id, kind="demand",
                             language="es", amount=Decimal("100.00"), mailed_on=TODAY))
    assert _standing(demo_app, code) == "superseded"


@pytest.mark.parametrize("value", ["\x00", "２０２６-１２-０１", "9" * 400, "2026-12-01\x00",
                                   "1e309", "NaN", "'; DROP TABLE debt_certificates; --"])
def test_hostile_input_is_refused_plainly(demo_app, owner_parcel, value):
    """Odd values in every field and id: a message or a 404, never a 500, nothing written."""
    owner = login(demo_app, "owner")
    before = _count(demo_app)
    r = _issue(owner, owner_parcel, value)
    assert r.status_code == 400, r.status_code
    visitor = demo_app.test_client()
    # A NUL byte anywhere in a request is the portal's plain 400, before any view; the form
    # refuses a code longer than 60 characters (400); any other code is not found (404).
    nul = "\x00" in value
    assert visitor.get("/verificar", query_string={"codigo": value}).status_code == (
        400 if nul else 404)
    page = visitor.get("/verificar").get_data(as_text=True)
    r = visitor.post("/verificar", data={"csrf_token": csrf_token(page), "code": value})
    assert r.status_code == (400 if nul or len(value) > 60 else 404), r.status_code
    for path in (f"/propiedad/{owner_parcel}/certificados/{'9' * 30}.pdf",
                 f"/propiedad/{'9' * 30}/certificados", "/propiedad/0/certificados/0.pdf"):
        assert owner.get(path).status_code == 404, path
    assert _count(demo_app) == before


@pytest.mark.postgres
def test_issue_and_verify_on_postgresql(tmp_path):
    """The same on PostgreSQL (NUMERIC amounts, the PDF as bytea, the throttle's upsert)."""
    from tests.support.app import demo_on_postgresql
    with demo_on_postgresql(tmp_path) as (app, _result):
        pid = parcel_ids(app)["owner"][0]
        owner = login(app, "owner")
        code = _issued_code(owner, _issue(owner, pid, "2026-12-10"))
        listing = owner.get(f"/propiedad/{pid}/certificados").get_data(as_text=True)
        pdf_url = re.search(r'href="(/propiedad/\d+/certificados/\d+\.pdf)"', listing).group(1)
        assert owner.get(pdf_url).data[:4] == b"%PDF"
        page = app.test_client().get(f"/verificar?codigo={code}").get_data(as_text=True)
        assert "Certificación válida" in page
        with app.app_context(), UnitOfWork(database()) as w:
            payoff = w.session.scalar(select(DebtCertificate.payoff))
        assert isinstance(payoff, Decimal) and payoff.as_tuple().exponent == -2


def test_the_payer_of_a_leased_parcel_is_its_lessee(demo_app):
    """R-A16 (as the lease provides): staff's certificate of the lessee's Authority parcel
    names the lessee as the payer."""
    from portal.models import Lease, Party
    pid = parcel_ids(demo_app)["lessee"][0]
    staff = login(demo_app, "staff")
    _issued_code(staff, _issue(staff, pid, "2026-12-10"))
    with demo_app.app_context(), UnitOfWork(database()) as w:
        content = json.loads(w.session.scalar(
            select(DebtCertificate.content).where(DebtCertificate.parcel_id == pid)))
        lessee = w.session.scalar(select(Party.name).join(Lease, Lease.lessee_party_id
                                                          == Party.id)
                                  .where(Lease.parcel_id == pid))
    assert content["payer"] == "lessee"
    assert content["payer_names"] == [lessee]
