"""A lender's organisation and API (J7): users and roles, invitations, removal; API tokens
(shown once, stored hashed, scoped, expiring, revocable, last use shown); the JSON API with
Bearer tokens and RFC 9457 problems in the caller's language; another lender sees nothing."""

from __future__ import annotations

import email
import hashlib
import re
from datetime import timedelta

import pytest
from sqlalchemy import select

from portal import clock
from tests.support.demo import app_uow
from tests.support.lenders import new_token, second_lender
from tests.support.pages import csrf_token, login, outbox


def test_a_token_is_shown_once_stored_hashed_and_read_by_the_api(demo_app):
    from portal.models import AuditRecord, LenderApiToken
    client = login(demo_app, "lender")
    secret = new_token(client)
    assert secret.startswith("pdl_") and len(secret) > 40
    page = client.get("/prestamista/organizacion").get_data(as_text=True)
    assert secret not in page and secret[:12] in page and "Nunca se ha usado" in page
    with app_uow(demo_app) as w:
        tok = w.session.scalar(select(LenderApiToken))
        assert tok.token_hash == hashlib.sha256(secret.encode()).hexdigest()
        assert secret not in str(w.session.scalars(select(AuditRecord.after)).all())
        assert w.session.scalar(select(AuditRecord).where(
            AuditRecord.action == "lender.token_created")) is not None
    api = demo_app.test_client()  # no session: the token alone
    r = api.get("/api/v1/loans", headers={"Authorization": f"Bearer {secret}"})
    assert r.status_code == 200, r.get_data(as_text=True)
    body = r.get_json()
    assert body["count"] == 50 and len(body["items"]) == 50
    assert isinstance(body["totals"]["due_now"], str)  # money as a string
    assert sum(__import__("decimal").Decimal(i["due_now"]) for i in body["items"]) \
        == __import__("decimal").Decimal(body["totals"]["due_now"])
    _due_now_by_is_the_offers(demo_app, body["items"])
    one = body["items"][0]["loan_number"]
    r = api.get(f"/api/v1/loans/{one}", headers={"Authorization": f"Bearer {secret}"})
    assert r.status_code == 200 and r.get_json()["loan_number"] == one
    assert "due_now_by" in r.get_json()
    # the retention per bill is the loan page's (the core's), money as strings
    from tests.support.lenders import loan_with_facts
    loan_id, _pid, expected = loan_with_facts(demo_app)
    page = login(demo_app, "lender").get(f"/prestamista/prestamos/{loan_id}").get_data(
        as_text=True)
    number = re.search(r"<h1>Préstamo ([^<]+)</h1>", page).group(1)
    ret = api.get(f"/api/v1/loans/{number}", headers={"Authorization": f"Bearer {secret}"}
                  ).get_json()["retention"]
    assert [b["pay_billed_with_exemption"] for b in ret["bills"]] == \
        [f"{b.with_exemption.amount:.2f}" for b in expected.bills]
    assert [b["retain_new_structure"] for b in ret["bills"]] == \
        [f"{b.new_structure:.2f}" for b in expected.bills]
    with app_uow(demo_app) as w:
        assert w.session.scalar(select(LenderApiToken.last_used_at)) is not None
    assert "Nunca se ha usado" not in client.get("/prestamista/organizacion").get_data(as_text=True)


@pytest.mark.parametrize(("lang", "title"), [("es", "No autenticado"),
                                             ("en", "Not authenticated")])
def test_the_api_without_or_with_a_bad_token_is_401_problem_json(demo_app, lang, title):
    api = demo_app.test_client()
    for headers in ({}, {"Authorization": "Bearer pdl_nope"}, {"Authorization": "Basic x"}):
        r = api.get("/api/v1/loans", headers={**headers, "Accept-Language": lang})
        assert r.status_code == 401
        assert r.mimetype == "application/problem+json"
        body = r.get_json()
        assert body["status"] == 401 and body["title"] == title and body["type"]
        assert r.headers["WWW-Authenticate"].startswith("Bearer")


def test_expired_and_revoked_tokens_are_refused(demo_app):
    from portal.models import LenderApiToken
    client = login(demo_app, "lender")
    old, gone = new_token(client, "Old", days="30"), new_token(client, "Gone")
    page = client.get("/prestamista/organizacion").get_data(as_text=True)
    with app_uow(demo_app) as w:
        gone_id = w.session.scalar(select(LenderApiToken.id).where(LenderApiToken.name == "Gone"))
    r = client.post(f"/prestamista/organizacion/tokens/{gone_id}/revocar",
                    data={"csrf_token": csrf_token(page)})
    assert r.status_code == 303
    api = demo_app.test_client()
    assert api.get("/api/v1/loans", headers={"Authorization": f"Bearer {gone}"}).status_code == 401
    assert api.get("/api/v1/loans", headers={"Authorization": f"Bearer {old}"}).status_code == 200
    with clock.fixed(clock.now() + timedelta(days=31)):
        r = api.get("/api/v1/loans", headers={"Authorization": f"Bearer {old}"})
    assert r.status_code == 401


def test_a_read_token_may_not_write(demo_app):
    from portal.accounts.errors import Forbidden
    from portal.db import UnitOfWork
    from portal.lenders import tokens
    from portal.web.data import database
    secret = new_token(login(demo_app, "lender"))
    with demo_app.app_context(), UnitOfWork(database()) as w:
        with pytest.raises(Forbidden):
            tokens.authenticate(w, secret, write=True)
        assert tokens.authenticate(w, secret).scope == "read"


def test_odd_api_parameters_are_400_with_the_field(demo_app):
    secret = new_token(login(demo_app, "lender"))
    api = demo_app.test_client()
    for query, field in (("page=0", "page"), ("page=x", "page"), ("status=paid", "status"),
                         ("sort=password", "sort"), ("order=up", "order"),
                         ("page=2147483648", "page")):
        r = api.get(f"/api/v1/loans?{query}", headers={"Authorization": f"Bearer {secret}"})
        assert r.status_code == 400, query
        assert r.mimetype == "application/problem+json" and r.get_json()["field"] == field
    # A page past the last is a valid number: an empty page, with the total and no next.
    for page in ("99", "2147483647"):
        r = api.get(f"/api/v1/loans?page={page}", headers={"Authorization": f"Bearer {secret}"})
        assert r.status_code == 200, page
        body = r.get_json()
        assert body["items"] == [] and body["next"] is None and body["total"] > 0


def test_another_lenders_token_sees_none_of_these_loans(demo_app):
    """A token of lender B: B's loans only; A's loan numbers are 404 as no loan is."""
    from portal.lenders import tokens
    from portal.models import LenderApiToken, Loan, Parcel
    with app_uow(demo_app) as w:
        s = w.session
        a_loan = s.scalar(select(Loan.loan_number).limit(1))
        b, other = second_lender(w)
        pid = s.scalar(select(Parcel.id).order_by(Parcel.id.desc()).limit(1))
        s.add(Loan(lender_id=b.id, parcel_id=pid, loan_number="B-1",
                   starts_on=clock.today() - timedelta(days=30)))
        s.flush()
        _tok, secret = tokens.create_token(w, other, b.id, "B", "read", 30)
        a_token = s.scalar(select(LenderApiToken.id).where(LenderApiToken.lender_id != b.id))
    api = demo_app.test_client()
    h = {"Authorization": f"Bearer {secret}"}
    body = api.get("/api/v1/loans", headers=h).get_json()
    assert [i["loan_number"] for i in body["items"]] == ["B-1"]
    r = api.get(f"/api/v1/loans/{a_loan}", headers=h)
    assert r.status_code == 404 and r.mimetype == "application/problem+json"
    assert a_token is None  # (no token of A was made here)
    # B's administrator, signed in, cannot see or revoke A's tokens
    a_secret = new_token(login(demo_app, "lender"))
    with app_uow(demo_app) as w:
        a_id = w.session.scalar(select(LenderApiToken.id).where(
            LenderApiToken.token_hash == hashlib.sha256(a_secret.encode()).hexdigest()))
    b_client = login(demo_app, "other")
    page = b_client.get("/prestamista/organizacion").get_data(as_text=True)
    assert a_secret[:12] not in page
    r = b_client.post(f"/prestamista/organizacion/tokens/{a_id}/revocar",
                      data={"csrf_token": csrf_token(page)})
    assert r.status_code == 404
    assert api.get("/api/v1/loans", headers={"Authorization": f"Bearer {a_secret}"}
                   ).status_code == 200


def test_invite_accept_change_role_and_remove(demo_app, tmp_path):
    from portal.models import AuditRecord, PartyMember, User
    admin = login(demo_app, "lender")
    page = admin.get("/prestamista/organizacion").get_data(as_text=True)
    r = admin.post("/prestamista/organizacion/invitar", data={
        "csrf_token": csrf_token(page), "email": "User00001@Demo.pr", "role": "employee"})
    assert r.status_code == 303
    mails = [email.message_from_bytes(p.read_bytes()) for p in outbox(demo_app)]
    [msg] = [m for m in mails if m["To"] == "user00001@demo.pr"]
    body = msg.get_payload(decode=True).decode()
    assert "le invita" in body  # in the inviter's language
    link = re.search(r"(/prestamista/invitacion/[\w-]+)", body).group(1)
    assert login(demo_app, "owner").get(link).status_code == 404  # not the invited email
    clerk = login(demo_app, "other")
    page = clerk.get(link).get_data(as_text=True)
    assert clerk.post(link, data={"csrf_token": csrf_token(page)}).status_code == 303
    assert clerk.get("/prestamista/prestamos").status_code == 200
    org = clerk.get("/prestamista/organizacion").get_data(as_text=True)
    assert "Crear el token" not in org  # a clerk creates no token
    assert clerk.post("/prestamista/organizacion/tokens", data={
        "csrf_token": csrf_token(org), "name": "x", "scope": "read", "days": "30"}
        ).status_code == 403
    with app_uow(demo_app) as w:
        m = w.session.scalar(select(PartyMember).join(User, User.id == PartyMember.user_id)
                             .where(User.email == "user00001@demo.pr"))
        mid, role = m.id, m.role
        admin_mid = w.session.scalar(select(PartyMember.id).join(
            User, User.id == PartyMember.user_id).where(User.email == "lender@demo.pr"))
    assert role == "employee"
    page = admin.get("/prestamista/organizacion").get_data(as_text=True)
    r = admin.post(f"/prestamista/organizacion/usuario/{admin_mid}/quitar",
                   data={"csrf_token": csrf_token(page)}, follow_redirects=True)
    assert "al menos un administrador" in r.get_data(as_text=True)  # the last administrator
    r = admin.post(f"/prestamista/organizacion/usuario/{mid}/quitar",
                   data={"csrf_token": csrf_token(page)})
    assert r.status_code == 303
    assert login(demo_app, "other").get("/prestamista/prestamos").status_code == 404
    with app_uow(demo_app) as w:
        actions = set(w.session.scalars(select(AuditRecord.action)
                                        .where(AuditRecord.action.like("lender.%"))))
    assert {"lender.invited", "lender.invitation_accepted", "lender.member_removed"} <= actions


@pytest.mark.parametrize("role", ["owner", "lender", "staff", "other"])
def test_a_session_never_opens_the_api(demo_app, role):
    """The API reads only the Bearer token: a signed-in browser's cookie gets 401."""
    r = login(demo_app, role).get("/api/v1/loans")
    assert r.status_code == 401 and r.mimetype == "application/problem+json"


def test_the_api_is_rate_limited_with_retry_after(demo_app, monkeypatch):
    from portal.web.lenders_api import routes
    monkeypatch.setattr(routes, "PER_TOKEN", (3, 60))
    secret = new_token(login(demo_app, "lender"))
    api = demo_app.test_client()
    codes = [api.get("/api/v1/loans?status=overdue",
                     headers={"Authorization": f"Bearer {secret}"}) for _ in range(4)]
    assert [r.status_code for r in codes] == [200, 200, 200, 429]
    assert int(codes[-1].headers["Retry-After"]) >= 1
    assert codes[-1].get_json()["title"] == "Demasiadas solicitudes"


#: The lenders' POST routes (J7), walked here as every other role (tests/web/test_access_writes.py
#: walks the other routes).
LENDER_POSTS = ("/prestamista/pagar", "/prestamista/pagar/archivo",
                "/prestamista/organizacion/invitar", "/prestamista/organizacion/tokens",
                "/prestamista/organizacion/invitacion/{inv}/retirar",
                "/prestamista/organizacion/usuario/{member}/quitar",
                "/prestamista/organizacion/usuario/{member}/rol",
                "/prestamista/organizacion/tokens/{token}/revocar",
                "/prestamista/invitacion/not-the-emailed-secret")


def _lender_tables(app) -> tuple:  # noqa: ANN001
    from sqlalchemy import func

    from portal.models import LenderApiToken, LenderInvitation, PartyMember
    from portal.models.checkouts import Checkout
    with app_uow(app) as w:
        s = w.session
        return (tuple(s.execute(select(PartyMember.id, PartyMember.role,
                                       PartyMember.revoked_at)).all()),
                tuple(s.execute(select(LenderApiToken.id, LenderApiToken.revoked_at)).all()),
                tuple(s.execute(select(LenderInvitation.id,
                                       LenderInvitation.revoked_at)).all()),
                s.scalar(select(func.count()).select_from(Checkout)))


@pytest.mark.parametrize("role", ["anonymous", "owner", "lessee", "staff", "other"])
def test_the_lenders_posts_refuse_everyone_else(demo_app, role):
    """Every J7 POST, as someone who works for no lender, on the bank's own objects: 404
    (anonymous: sent to sign in), and nothing changes."""
    from portal.models import PartyMember, User
    admin = login(demo_app, "lender")
    new_token(admin)
    page = admin.get("/prestamista/organizacion").get_data(as_text=True)
    admin.post("/prestamista/organizacion/invitar", data={
        "csrf_token": csrf_token(page), "email": "nobody@example.pr", "role": "employee"})
    from portal.models import LenderApiToken, LenderInvitation
    with app_uow(demo_app) as w:
        ids = {"token": w.session.scalar(select(LenderApiToken.id)),
               "inv": w.session.scalar(select(LenderInvitation.id)),
               "member": w.session.scalar(select(PartyMember.id).join(
                   User, User.id == PartyMember.user_id).where(User.email == "lender@demo.pr"))}
    before = _lender_tables(demo_app)
    client = demo_app.test_client() if role == "anonymous" else login(demo_app, role)
    tok = csrf_token(client.get("/cuenta/entrar" if role == "anonymous" else "/")
                     .get_data(as_text=True))
    for path in LENDER_POSTS:
        r = client.post(path.format(**ids), data={
            "csrf_token": tok, "estado": "overdue", "name": "x", "scope": "write",
            "days": "30", "email": "x@example.pr", "role": "administrator"})
        assert r.status_code == (302 if role == "anonymous" else 404), (role, path, r.status_code)
    assert _lender_tables(demo_app) == before


def _due_now_by_is_the_offers(app, items) -> None:  # noqa: ANN001
    """Each loan's due now comes with its last timely day, the offer's (`due_now_by`):
    null exactly when nothing is due."""
    from portal.accounts import statements
    from portal.accounts.facts import load_many
    from portal.models import FiscalYear, Parcel
    with app_uow(app) as w:
        today = __import__("portal.clock", fromlist=["today"]).today()
        fy = w.session.scalar(select(FiscalYear).where(FiscalYear.starts_on <= today,
                                                       FiscalYear.ends_on >= today))
        ids = dict(w.session.execute(select(Parcel.catastro, Parcel.id).where(
            Parcel.catastro.in_([i["catastro"] for i in items]))).all())
        facts = load_many(w, list(ids.values()), fy)
        demands = statements.demands_of(w, list(ids.values()), fy.id)
        some = 0
        for i in items:
            pid = ids[i["catastro"]]
            if facts[pid].assessment is None:
                assert i["due_now_by"] is None
                continue
            o = facts[pid].offer(today, key=f"{pid}-{fy.id}", demand=demands.get(pid))
            want = o.due_now_by.isoformat() if o.due_now_by else None
            assert i["due_now_by"] == want, i
            assert (i["due_now_by"] is None) == (o.due_now <= 0), i
            some += want is not None
        assert some, "some loans of the demo bank have something due now"


def test_a_read_of_the_api_writes_the_tokens_last_use_once_a_minute(demo_app):
    """A token's last use is written to the minute (`tokens.LAST_USE_STEP`): calls within
    the minute write nothing, a call a minute later writes its time."""
    from portal.models import LenderApiToken
    from portal.web.data import database
    from tests.support.sql import QueryCounter
    secret = new_token(login(demo_app, "lender"))
    api, auth = demo_app.test_client(), {"Authorization": f"Bearer {secret}"}
    start = clock.now()
    with demo_app.app_context():
        engine = database().engine

    def updates(q: QueryCounter) -> list[str]:
        return [s for s in q.statements
                if s.lstrip().upper().startswith("UPDATE LENDER_API_TOKENS")]

    with QueryCounter(engine) as q:
        for seconds in (0, 20, 59):
            with clock.fixed(start + timedelta(seconds=seconds)):
                assert api.get("/api/v1/loans", headers=auth).status_code == 200
        assert len(updates(q)) == 1
        with clock.fixed(start + timedelta(seconds=61)):
            assert api.get("/api/v1/loans", headers=auth).status_code == 200
        assert len(updates(q)) == 2
    with app_uow(demo_app) as w:
        used = w.session.scalar(select(LenderApiToken.last_used_at))
    assert used == start + timedelta(seconds=61)
