"""R-B16: the CRIM's file of plan payments (the staff's upload and the CRIM system's API)
and a plan's default told to its owner once.

The home's plan of 6 payments from 2027-01-15 (1,218.98, 1,218.98, 1,218.97 x 4; payment 2's
last day Tuesday 2027-02-16), approved. On 2027-02-17 the CRIM's file reports 1,218.98 paid
on 01-15 (receipt CRIM-1) and the auction notice costs 45.00 charged on 02-17 (CRIM-2):
payment 2 was not paid by the end of 02-16, so the plan is in default from 02-17; the
balance 7,313.84 - 1,218.98 = 6,094.86 falls due with the 45.00: 6,139.86.
"""

from __future__ import annotations

import io
from datetime import date, timedelta

import pytest
from flask import Flask
from sqlalchemy import func, select

from portal import clock, storage
from tests.support.pages import csrf_token, login
from tests.web.test_exemption import _file_home_with_plan, _ids

DAY = date(2027, 2, 17)


@pytest.fixture(autouse=True)
def _store(tmp_path):  # noqa: ANN001, ANN202
    storage.use(storage.FolderStore(tmp_path / "files"))
    yield
    storage.use(None)


def _approved_plan(app: Flask) -> tuple[int, str]:
    """The home's plan, filed and approved: (certification id, filing number)."""
    owner = login(app, "owner")
    cid = _file_home_with_plan(owner, _ids(app))
    staff = login(app, "staff")
    url = f"/personal/exoneraciones/{cid}"
    tok = csrf_token(staff.get(url).get_data(as_text=True))
    assert staff.post(f"{url}/revisar", data={"csrf_token": tok}).status_code == 303
    assert staff.post(f"{url}/aprobar", data={"csrf_token": tok}).status_code == 303
    return cid, _one(app, "filing_number", cid)


def _one(app: Flask, what: str, cid: int | None = None):  # noqa: ANN202
    from portal.db import UnitOfWork
    from portal.models import ExemptionCertification, OutboxMessage, PlanDefault, PlanEntry
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        if what == "filing_number":
            return w.session.get(ExemptionCertification, cid).filing_number
        model = {"entries": PlanEntry, "defaults": PlanDefault}.get(what)
        if model is not None:
            return w.session.scalar(select(func.count()).select_from(model))
        return w.session.scalar(select(func.count()).select_from(OutboxMessage).where(
            OutboxMessage.template == what))


def _csv(number: str, *rows: str, header: str = "numero_radicacion,tipo,fecha,cantidad,recibo"
         ) -> bytes:
    return ("\n".join([header, *rows]) + "\n").encode("utf-8")


def _rows(number: str) -> tuple[str, ...]:
    return (f'{number},pago,2027-01-15,"1,218.98",CRIM-1',  # line 2: recorded
            f"{number},costas,2027-02-17,45.00,CRIM-2",  # 3: recorded
            f"{number},pago,15/01/2027,100.00,CRIM-3",  # 4: bad_date
            f"{number},pago,2027-01-20,mil,CRIM-4",  # 5: bad_amount
            "EXR-2026-999999,pago,2027-01-20,10.00,CRIM-5",  # 6: unknown_filing
            f"{number},pago,2027-03-01,10.00,CRIM-6",  # 7: future
            f"{number},pago,2027-01-20,10.00,",  # 8: required (the receipt)
            f"{number},abono,2027-01-20,10.00,CRIM-7")  # 9: bad_kind


def _upload(client, data: bytes, name: str = "crim.csv"):  # noqa: ANN001, ANN202
    page = client.get("/personal/exoneraciones/planes/archivo")
    assert page.status_code == 200
    return client.post("/personal/exoneraciones/planes/archivo", data={
        "csrf_token": csrf_token(page.get_data(as_text=True)),
        "file": (io.BytesIO(data), name)}, content_type="multipart/form-data")


def _lang(client, lang: str) -> None:  # noqa: ANN001
    page = client.get("/").get_data(as_text=True)
    client.post("/idioma", data={"csrf_token": csrf_token(page), "lang": lang})


def test_the_crims_file_records_good_rows_reports_bad_ones_and_twice_records_nothing(
        demo_app: Flask, tmp_path):  # noqa: ANN001
    """Row by row: the two good rows are recorded, the six bad ones listed with their line,
    column, value and reason in the reader's language; the same file again records nothing
    (2 already recorded); the same receipt with another amount is refused; a file that is
    not the CRIM's (a column missing) records nothing, with a clear message."""
    cid, number = _approved_plan(demo_app)
    with clock.fixed(DAY):
        staff = login(demo_app, "reviewer@demo.pr")
        r = _upload(staff, _csv(number, *_rows(number)))
        assert r.status_code == 200
        html = r.get_data(as_text=True)
        for count, n in (("rows", 8), ("recorded", 2), ("already", 0), ("refused", 6)):
            assert f'data-count="{count}" data-value="{n}"' in html, (count, html)
        for line, code in ((4, "bad_date"), (5, "bad_amount"), (6, "unknown_filing"),
                           (7, "future"), (8, "required"), (9, "bad_kind")):
            assert f'data-refused-line="{line}" data-code="{code}"' in html, (line, code)
        for text in ("No es una fecha: escríbala como AAAA-MM-DD",
                     "Ninguna certificación presentada tiene este número",
                     "El día no puede ser un día por venir"):
            assert text in html, text
        (tmp_path / "report-es.html").write_text(html, "utf-8")
        assert _one(demo_app, "entries") == 2
        _lang(staff, "en")
        again = _upload(staff, _csv(number, *_rows(number)))
        html = again.get_data(as_text=True)
        for count, n in (("recorded", 0), ("already", 2), ("refused", 6)):
            assert f'data-count="{count}" data-value="{n}"' in html, count
        assert "Not a date: write it as YYYY-MM-DD" in html
        (tmp_path / "report-en.html").write_text(html, "utf-8")
        assert _one(demo_app, "entries") == 2
        differs = _upload(staff, _csv(number, f"{number},pago,2027-01-15,1000.00,CRIM-1"))
        assert 'data-code="receipt_differs"' in differs.get_data(as_text=True)
        assert _one(demo_app, "entries") == 2
        bad = _upload(staff, _csv(number, f"{number},pago,2027-01-15,10.00",
                                  header="numero_radicacion,tipo,fecha,cantidad"))
        assert bad.status_code == 400
        assert "The file lacks these columns: recibo" in bad.get_data(as_text=True)
        (tmp_path / "refused-en.html").write_text(bad.get_data(as_text=True), "utf-8")
        # The staff's page shows the plan in default from the file's rows.
        page = staff.get(f"/personal/exoneraciones/{cid}").get_data(as_text=True)
        assert 'data-figure="plan-default" data-amount="6139.86"' in page
        # The one-entry form refuses a receipt the file recorded, in the staff's language.
        form = {"csrf_token": csrf_token(page), "plan-kind": "payment",
                "plan-entry_on": "2027-01-15", "plan-amount": "1,218.98",
                "plan-reference": "CRIM-1"}
        again = staff.post(f"/personal/exoneraciones/{cid}/plan", data=form)
        assert again.status_code == 422
        assert "This receipt of the CRIM is already recorded" in again.get_data(as_text=True)
        assert _one(demo_app, "entries") == 2
        # A cashier reads the page without the form, and may not upload (403).
        cashier = login(demo_app, "cashier@demo.pr")
        page = cashier.get("/personal/exoneraciones/planes/archivo").get_data(as_text=True)
        assert "Solo un revisor o un administrador" in page and 'type="file"' not in page
        r = cashier.post("/personal/exoneraciones/planes/archivo", data={
            "csrf_token": csrf_token(page),
            "file": (io.BytesIO(_csv(number, *_rows(number))), "crim.csv")},
            content_type="multipart/form-data")
        assert r.status_code == 403 and _one(demo_app, "entries") == 2
    from tests.support.html import vnu_errors, vnu_missing
    if not vnu_missing():
        errors = vnu_errors(sorted(tmp_path.glob("*.html")))
        assert errors == [], "\n".join(errors[:20])


def _token(app: Flask, email: str, **kw) -> tuple[int, str]:  # noqa: ANN003
    from portal.db import UnitOfWork
    from portal.exemptions import staff_tokens
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        tok, secret = staff_tokens.create(w, None, email, "CRIM", **kw)
        return tok.id, secret


def _lender_token(app: Flask) -> str:
    """A lender's write token: not one the CRIM's API takes."""
    from portal.db import UnitOfWork
    from portal.lenders import tokens
    from portal.models import Lender
    from portal.people import users
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        user = users.find_by_email(w, "lender@demo.pr")
        lender = w.session.scalars(select(Lender).order_by(Lender.id)).first()
        _tok, secret = tokens.create_token(w, user, lender.id, "CRIM?", "write", 30)
        return secret


def test_the_crims_system_sends_its_file_with_a_staff_token(demo_app: Flask):
    """The API takes the same file with a staff token of scope plan_payments; it refuses no
    token, an unknown one, a lender's, a revoked or expired one (401) and a token whose staff
    member lost the role (403), recording nothing; the same file twice records nothing."""
    from portal.db import UnitOfWork
    from portal.exemptions import staff_tokens
    from portal.models import User
    from portal.web.data import database
    _cid, number = _approved_plan(demo_app)
    body = _csv(number, *_rows(number)[:3])
    api = demo_app.test_client()
    url = "/api/v1/crim/plan-payments"
    with clock.fixed(DAY):
        tid, secret = _token(demo_app, "reviewer@demo.pr")

        def send(auth: str | None, data: bytes = body, lang: str = "es",  # noqa: ANN202
                 kind: str = "text/csv"):
            headers = {"Accept-Language": lang, "Content-Type": kind}
            if auth is not None:
                headers["Authorization"] = auth
            return api.post(url, data=data, headers=headers)

        for auth in (None, "Bearer", "Bearer pds_nada", f"Basic {secret}",
                     f"Bearer {_lender_token(demo_app)}"):
            r = send(auth)
            assert r.status_code == 401, auth
            assert r.mimetype == "application/problem+json"
            assert "Bearer" in r.headers["WWW-Authenticate"]
        assert _one(demo_app, "entries") == 0
        r = send(f"Bearer {secret}", kind="application/json")
        assert r.status_code == 400 and r.json["field"] == "Content-Type"
        r = send(f"Bearer {secret}", lang="en")
        assert r.status_code == 200, r.json
        assert (r.json["recorded"], r.json["already_recorded"], r.json["refused"]) == (2, 0, 1)
        assert r.json["problems"][0]["code"] == "bad_date"
        assert r.json["problems"][0]["detail"].startswith("Not a date")
        r = send(f"Bearer {secret}")
        assert (r.json["recorded"], r.json["already_recorded"]) == (0, 2)
        assert r.json["problems"][0]["detail"].startswith("No es una fecha")
        r = send(f"Bearer {secret}", data=b"columna\nx\n")
        assert r.status_code == 422 and "columna" in r.json["detail"]
        assert _one(demo_app, "entries") == 2
        with demo_app.app_context(), UnitOfWork(database()) as w:  # the reviewer now a cashier
            w.session.scalar(select(User).where(User.email == "reviewer@demo.pr")
                             ).staff_role = "cashier"
        r = send(f"Bearer {secret}")
        assert r.status_code == 403 and "insufficient_scope" in r.headers["WWW-Authenticate"]
        _tid2, other = _token(demo_app, "staff@demo.pr", days=30)
        assert send(f"Bearer {other}").status_code == 200
        with demo_app.app_context(), UnitOfWork(database()) as w:
            staff_tokens.revoke(w, None, _tid2)
        assert send(f"Bearer {other}").status_code == 401
    _tid3, later = _token(demo_app, "staff@demo.pr", days=30)
    with clock.fixed(DAY + timedelta(days=31)):
        assert send(f"Bearer {later}").status_code == 401  # expired
    assert _one(demo_app, "entries") == 2


def test_a_default_is_told_to_the_owner_once_and_listed_for_staff(demo_app: Flask, tmp_path):  # noqa: ANN001
    """The daily task on 2027-02-16 finds the plan kept (payment 2's last day); on 02-17 in
    default: one row, one email to the owner (her language) with what falls due and what
    follows; run again (another worker, the next hour) nothing more. Staff see it in their
    list; the owner's page says what follows, in both languages."""
    from portal.exemptions import plan_defaults
    from portal.web.data import database
    cid, number = _approved_plan(demo_app)
    with clock.fixed(DAY):
        staff = login(demo_app, "reviewer@demo.pr")
        assert _upload(staff, _csv(number, *_rows(number)[:2])).status_code == 200
    with demo_app.app_context():
        db = database()
        before = _one(demo_app, "plan_default")
        with clock.fixed(DAY - timedelta(days=1)):
            assert plan_defaults.find(db, DAY - timedelta(days=1), demo_app.config)[
                "defaults"] == 0
        with clock.fixed(DAY):
            assert plan_defaults.find(db, DAY, demo_app.config)["defaults"] == 1
            assert plan_defaults.find(db, DAY, demo_app.config)["defaults"] == 0
        with clock.fixed(DAY + timedelta(days=1)):
            assert plan_defaults.find(db, DAY + timedelta(days=1), demo_app.config)[
                "defaults"] == 0
    assert _one(demo_app, "defaults") == 1
    assert _one(demo_app, "plan_default") == before + 1
    from tests.support.pages import outbox, read_mail
    told = [read_mail(p) for p in outbox(demo_app) if number in read_mail(p)["Subject"]
            and "incumplimiento" in read_mail(p)["Subject"]
            and read_mail(p)["To"] == "owner@demo.pr"]  # (the home's bank: the next test)
    assert len(told) == 1
    text = told[0].get_payload(decode=True).decode()
    assert "$6,139.86" in text and "vía de apremio" in text and "17 de febrero de 2027" in text
    with clock.fixed(DAY + timedelta(days=1)):
        staff = login(demo_app, "readonly@demo.pr")
        listed = staff.get("/personal/exoneraciones/planes/incumplidos")
        html = listed.get_data(as_text=True)
        assert listed.status_code == 200 and f'data-plan-default="{number}"' in html
        (tmp_path / "defaults-es.html").write_text(html, "utf-8")
        owner = login(demo_app, "owner")
        assert owner.get("/personal/exoneraciones/planes/incumplidos").status_code == 404
        for lang, words in (("es", ("Lo que sigue", "vía de apremio", "no se revoca")),
                            ("en", ("What follows", "compulsory collection", "not revoked"))):
            _lang(owner, lang)
            html = owner.get(f"/exoneracion/{cid}/recibo").get_data(as_text=True)
            assert "data-plan-follows" in html
            for w in words:
                assert w in html, (lang, w)
            (tmp_path / f"owner-{lang}.html").write_text(html, "utf-8")
    from tests.support.html import vnu_errors, vnu_missing
    if not vnu_missing():
        errors = vnu_errors(sorted(tmp_path.glob("*.html")))
        assert errors == [], "\n".join(errors[:20])


def test_no_one_else_sends_the_crims_file(demo_app: Flask):
    """The upload as every role who does not decide certifications: people and anonymous get
    404 or the sign-in page, a cashier and read-only staff 403; the API with any session
    (no Bearer token) 401. Nothing is recorded."""
    from tests.support.pages import STAFF_ROLE_EMAILS
    _cid, number = _approved_plan(demo_app)
    body = _csv(number, *_rows(number)[:2])
    with clock.fixed(DAY):
        clients = {"anonymous": demo_app.test_client()}
        for role in ("owner", "lessee", "lender", "other", "user00002@demo.pr"):
            clients[role] = login(demo_app, role)
        for role in ("cashier", "read_only"):
            clients[role] = login(demo_app, STAFF_ROLE_EMAILS[role])
        for role, client in clients.items():
            tok = csrf_token(client.get("/").get_data(as_text=True))
            r = client.post("/personal/exoneraciones/planes/archivo", data={
                "csrf_token": tok, "file": (io.BytesIO(body), "crim.csv")},
                content_type="multipart/form-data")
            expected = {403} if role in ("cashier", "read_only") else {404, 302, 303}
            assert r.status_code in expected, (role, r.status_code)
            api = client.post("/api/v1/crim/plan-payments", data=body,
                              headers={"Content-Type": "text/csv"})
            assert api.status_code == 401, role
    assert _one(demo_app, "entries") == 0


def test_a_default_is_told_to_the_lenders_users_of_the_loan_each_in_their_language(
        demo_app: Flask):
    """R-B16, R-B9: the plan's default is emailed (through the outbox) to every user of the
    lender with a loan in force on the parcel, each in the user's language, with the loan's
    number and page; a removed member, another bank without a loan there and a bank whose
    loan ended are not told; the owner is told as before. Once: a second run sends nothing."""
    from portal.db import UnitOfWork
    from portal.exemptions import plan_defaults
    from portal.models import ExemptionCertification, Lender, Loan, OutboxMessage, PartyMember, User
    from portal.web.data import database
    from tests.support.lenders import other_lender
    from tests.support.pages import outbox, read_mail
    cid, number = _approved_plan(demo_app)
    with clock.fixed(DAY):
        staff = login(demo_app, "reviewer@demo.pr")
        assert _upload(staff, _csv(number, *_rows(number)[:2])).status_code == 200
    with demo_app.app_context(), UnitOfWork(database()) as w:
        s = w.session
        parcel_id = s.get(ExemptionCertification, cid).parcel_id
        bank = s.scalar(select(Lender).order_by(Lender.id).limit(1))
        loan = s.scalar(select(Loan).where(Loan.parcel_id == parcel_id,
                                           Loan.lender_id == bank.id))
        if loan is None:
            loan = Loan(lender_id=bank.id, parcel_id=parcel_id, loan_number="PD-1",
                        starts_on=date(2020, 1, 1))
            s.add(loan)
        loan.ends_on = None
        clerk, gone = (s.scalar(select(User).where(User.email == e))
                       for e in ("user00002@demo.pr", "lessee@demo.pr"))
        clerk.language, gone.language = "en", "en"
        s.add(PartyMember(party_id=bank.party_id, user_id=clerk.id, role="employee"))
        s.add(PartyMember(party_id=bank.party_id, user_id=gone.id, role="employee",
                          revoked_at=clock.now()))
        # another bank (user00001): its loan elsewhere, and one on this parcel that ended
        other_bank, _other_clerk = other_lender(w)
        s.execute(Loan.__table__.update().where(Loan.lender_id == other_bank.id)
                  .values(parcel_id=s.scalar(select(Loan.parcel_id).where(
                      Loan.parcel_id != parcel_id).limit(1))))
        s.add(Loan(lender_id=other_bank.id, parcel_id=parcel_id, loan_number="OLD-1",
                   starts_on=date(2010, 1, 1), ends_on=DAY - timedelta(days=1)))
        s.flush()
        loan_id, loan_number = loan.id, loan.loan_number
        admins = set(s.scalars(select(User.email).join(
            PartyMember, PartyMember.user_id == User.id).where(
            PartyMember.party_id == bank.party_id, PartyMember.revoked_at.is_(None))))
    assert "user00002@demo.pr" in admins and "lessee@demo.pr" not in admins
    with demo_app.app_context(), clock.fixed(DAY):
        done = plan_defaults.find(database(), DAY, demo_app.config)
        assert (done["defaults"], done["lenders_emailed"]) == (1, len(admins))
        assert plan_defaults.find(database(), DAY, demo_app.config)["lenders_emailed"] == 0
    with demo_app.app_context(), UnitOfWork(database()) as w:
        queued = set(w.session.scalars(select(OutboxMessage.recipient).where(
            OutboxMessage.template == "plan_default_lender")))
    assert queued == admins  # not user00001 (another bank's, ended), nor the removed one
    told = {read_mail(p)["To"]: read_mail(p) for p in outbox(demo_app)
            if number in read_mail(p)["Subject"] and read_mail(p)["To"] in admins}
    assert set(told) == admins
    en = told["user00002@demo.pr"]
    assert en["Subject"] == f"Payment plan in default on a parcel of your loans ({number})"
    text = en.get_payload(decode=True).decode()
    assert f"(your loan {loan_number}, fiscal year" in text and "$6,139.86" in text
    assert "February 17, 2027" in text and f"/prestamista/prestamos/{loan_id}" in text
    from email.header import decode_header, make_header
    es = told["lender@demo.pr"]
    assert str(make_header(decode_header(es["Subject"]))) == (
        f"Plan de pagos en incumplimiento en una propiedad de sus préstamos ({number})")
    body = es.get_payload(decode=True).decode()
    assert f"(su préstamo {loan_number}, año fiscal" in body and "vía de apremio" in body
    assert "17 de febrero de 2027" in body
    assert _one(demo_app, "plan_default") == 1  # the owner, once
    # How many of the bank's users were emailed is kept with the default, and shown.
    from portal.models import PlanDefault
    with demo_app.app_context(), UnitOfWork(database()) as w:
        row = w.session.scalar(select(PlanDefault).where(PlanDefault.certification_id == cid))
        assert (row.owner_told, row.lenders_told) == (True, len(admins))
    with clock.fixed(DAY):
        staff = login(demo_app, "readonly@demo.pr")
        for lang, words in (("es", "Correos a usuarios del banco"),
                            ("en", "Bank users emailed")):
            _lang(staff, lang)
            html = staff.get("/personal/exoneraciones/planes/incumplidos").get_data(
                as_text=True)
            assert f'data-lenders-told="{len(admins)}">{len(admins)}</td>' in html
            assert f'data-label="{words}"' in html
            html = staff.get(f"/personal/exoneraciones/{cid}").get_data(as_text=True)
            assert f"{words}: {len(admins)}." in html
