"""R-C5 (21 LPRA § 5105): the auction minimum is confidential between the CRIM and the
debtor. On the demo District, the owner's home has a CRIM auction (minimum $3,970.19:
portal/collections/attachments.load_demo) and, added here, the lessee's Authority parcel has one
(minimum $1,111.11: its owner, the Authority, is the debtor, not the lessee).

For every role — anonymous, the owner (the debtor), the lessee, the lender (who lends on the
home), a delegate (read access granted by the owner), another owner, staff — every GET route
of the app is walked with those parcels' ids (and the certificate, notice and job ids there
are), so every page, PDF (its text, by pdftotext), JSON and CSV reachable for them is read;
plus the payoff certificate the owner issues and its public verification, the lenders' API
with a token, and every email in the outbox. The minimum's formatted amount appears only
for staff and the debtor, and for the debtor only on their own parcel."""

from __future__ import annotations

import re
import shutil
import subprocess
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import select

from tests.support.pages import csrf_token, login

HOME_MINIMUM = ("$3,970.19", "3,970.19", "3970.19")
LEASED_MINIMUM = ("$1,111.11", "1,111.11", "1111.11")
DELEGATE = "user00002@demo.pr"
ROLES = ("anonymous", "owner", "lessee", "lender", "delegate", "other", "staff")
#: GET routes not walked, and why.
NOT_WALKED = {"static": "files", "people.sign_out": "ends the session the walk uses",
              "accounts.language": "switches the language", "payments.webhook": "provider only"}

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None,
                                reason="poppler-utils (pdftotext) missing")


def _text(r, tmp: Path) -> str:  # noqa: ANN001
    if r.mimetype == "application/pdf":
        path = tmp / "doc.pdf"
        path.write_bytes(r.data)
        return subprocess.run(["pdftotext", "-q", str(path), "-"], capture_output=True,
                              text=True, check=False).stdout
    return r.get_data(as_text=True)


def _scene(app: Flask) -> dict:
    """The two parcels, the leased one's auction, the delegate, a certificate of the home
    issued by its owner (and its code), the demo's ids to substitute."""
    from portal.collections import attachments
    from portal.db import UnitOfWork
    from portal.models import Job, Lease, Notice, TaxDebt
    from portal.people import users
    from portal.web.data import database
    with app.app_context(), UnitOfWork(database()) as w:
        s = w.session
        home = s.scalar(select(TaxDebt.parcel_id).limit(1))
        lessee = users.find_by_email(w, "lessee@demo.pr")
        from portal.accounts import access
        leased = next(p.id for p, rel in access.linked_parcels(w, lessee) if rel == "lessee")
        assert s.scalar(select(Lease.id).where(Lease.parcel_id == leased))
        attachments.record_auction(
            w, users.find_by_email(w, "staff@demo.pr"), leased, fiscal_years="2024-2025",
            amounts={"taxes": Decimal("1111.11")}, appraised_on=date(2026, 11, 2),
            real_value=Decimal("90000.00"), mortgage_amount=Decimal("0.00"))
        notice = s.scalar(select(Notice.id).where(Notice.parcel_id == leased,
                                                  Notice.kind == "demand"))
        job = s.scalar(select(Job.id).limit(1)) or 1
    client = login(app, "owner")
    page = client.get(f"/propiedad/{home}").get_data(as_text=True)
    r = client.post(f"/propiedad/{home}/acceso",  # the delegate, told by email
                    data={"csrf_token": csrf_token(page), "email": DELEGATE})
    assert r.status_code == 303, r.status_code
    r = client.post(f"/propiedad/{home}/certificados",
                    data={"csrf_token": csrf_token(page), "good_through": "2026-12-05"})
    assert r.status_code == 303, r.status_code
    listed = client.get(r.headers["Location"]).get_data(as_text=True)
    cert = int(re.search(r"/certificados/(\d+)\.pdf", listed).group(1))
    flashed = re.search(r"código de verificación es ([A-Z0-9-]+)", listed)
    return {"home": home, "leased": leased, "certificate": cert, "notice": notice or 1,
            "job": job, "code": flashed.group(1) if flashed else None}


def _paths(app: Flask, sc: dict, pid: int) -> list[str]:
    """Every GET route, its ids filled in for the parcel `pid`."""
    out = []
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or ()) or rule.endpoint in NOT_WALKED:
            continue
        path = rule.rule.replace("<id:parcel_id>", str(pid))
        path = path.replace("<id:certificate_id>", str(sc["certificate"]))
        path = path.replace("<id:notice_id>", str(sc["notice"]))
        path = path.replace("<id:job_id>", str(sc["job"]))
        path = re.sub(r"<(?:[a-z]+:)?[a-z_]+>", "1", path)
        out.append(path)
    out += [f"/verificar?codigo={sc['code']}" if sc["code"] else "/verificar",
            "/prestamista/prestamos?q=&pagina=1"]
    return sorted(set(out))


@pytest.mark.parametrize("role", ROLES)
def test_the_minimum_only_for_staff_and_the_debtor(demo_app, role, tmp_path):
    sc = _scene(demo_app)
    client = demo_app.test_client() if role == "anonymous" else \
        login(demo_app, DELEGATE if role == "delegate" else role)
    may_see = {"home": role in ("staff", "owner"), "leased": role == "staff"}
    seen = {"home": False, "leased": False}
    leaks = []
    for key, minimum in (("home", HOME_MINIMUM), ("leased", LEASED_MINIMUM)):
        for path in _paths(demo_app, sc, sc[key]):
            r = client.get(path)
            body = _text(r, tmp_path)
            found = [m for m in minimum if m in body]
            if found:
                seen[key] = True
                if not may_see[key]:
                    leaks.append(f"{role} {path} {r.status_code}: {found}")
    assert not leaks, "\n".join(leaks)
    # The walk is not vacuous: who may see each parcel opens its page (and sees no minimum).
    for key, viewers in (("home", {"owner", "lender", "delegate", "staff"}),
                         ("leased", {"lessee", "staff"})):
        code = client.get(f"/propiedad/{sc[key]}").status_code
        assert code == (200 if role in viewers else 302 if role == "anonymous" else 404), \
            (key, code)
    # The positive control: staff and the debtor do see it (the walk reads real pages).
    if role in ("staff", "owner"):
        assert seen == may_see, seen


def test_no_email_carries_the_minimum(demo_app):
    _scene(demo_app)
    from tests.support.pages import outbox
    mails = outbox(demo_app)
    assert mails, "the certificate and the access grant wrote emails"
    for path in mails:
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in HOME_MINIMUM + LEASED_MINIMUM:
            assert m not in text, (path.name, m)


def test_the_public_verification_shows_no_minimum(demo_app):
    sc = _scene(demo_app)
    assert sc["code"], "the owner's certificate has a code"
    anonymous = demo_app.test_client()
    for r in (anonymous.get(f"/verificar?codigo={sc['code']}"),
              anonymous.post("/verificar", data={"code": sc["code"],
                                                 "csrf_token": csrf_token(anonymous.get(
                                                     "/verificar").get_data(as_text=True))})):
        html = r.get_data(as_text=True)
        assert r.status_code == 200, r.status_code
        for m in HOME_MINIMUM:
            assert m not in html


def test_the_lenders_api_shows_no_minimum(demo_app):
    """The lenders' JSON API (J7), with a token of the demo bank, for the home's loan."""
    lender_tokens = pytest.importorskip("portal.lenders.tokens")
    from portal.db import UnitOfWork
    from portal.models import Loan
    from portal.people import users
    from portal.web.data import database
    sc = _scene(demo_app)
    with demo_app.app_context(), UnitOfWork(database()) as w:
        loan = w.session.scalars(select(Loan).where(Loan.parcel_id == sc["home"])).first()
        user = users.find_by_email(w, "lender@demo.pr")
        try:
            _tok, secret = lender_tokens.create_token(w, user, loan.lender_id, "R-C5", "read",
                                                      min(lender_tokens.TOKEN_DAYS))
        except Exception as exc:  # the demo's lender user may not administer tokens
            pytest.skip(f"no API token for the demo lender: {exc!r}")
        number = loan.loan_number
    client = demo_app.test_client()
    headers = {"Authorization": f"Bearer {secret}"}
    for path in ("/api/v1/loans", f"/api/v1/loans?q={number}", f"/api/v1/loans/{number}"):
        r = client.get(path, headers=headers)
        assert r.status_code == 200, (path, r.status_code)
        for m in HOME_MINIMUM:
            assert m not in r.get_data(as_text=True), path
