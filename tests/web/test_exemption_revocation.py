"""A change report's evidence and the revocation it can lead to, on the web (R-B12, R-B15,
R-B17, R-B18): the owner attaches a document, the reviewer sees it on the report's page and
revokes the exemption there; the owner and the lender's users get an email each in their
language, the report's page, the owner's parcel page and the lender's list say it, and the
year's box reads the revoked state (the tax without the exemption). The clock is the demo
District's day (2026-11-30)."""

from __future__ import annotations

import io
import re

from sqlalchemy import select

from tests.support.demo import app_uow, filed_exemption, home_parcel
from tests.support.pages import csrf_token, login, outbox, read_mail

ATTEST = {"attest": "y", "full_name": "María Rivera Ortiz"}


def _png() -> bytes:
    from PIL import Image
    buf = io.BytesIO()
    Image.new("RGB", (20, 20), (9, 9, 9)).save(buf, "PNG")
    return buf.getvalue()


def _approve(app, pid: int) -> int:  # noqa: ANN001
    from portal.exemptions import review
    from portal.people import users
    cid = filed_exemption(app, pid)
    with app_uow(app) as w:
        staff = users.find_by_email(w, "staff@demo.pr")
        review.take_up(w, staff, cid)
        review.approve(w, staff, cid)
    return cid


def _report(owner, pid: int, **data) -> str:  # noqa: ANN001, ANN003
    token = csrf_token(owner.get(f"/propiedad/{pid}/cambio").get_data(as_text=True))
    r = owner.post(f"/propiedad/{pid}/cambio", data={"csrf_token": token, "action": "send",
                                                     **ATTEST, **data})
    assert r.status_code == 303, r.get_data(as_text=True)
    return r.headers["Location"]


def test_the_form_offers_the_eight_kinds_with_their_rules(demo_app):
    pid = home_parcel(demo_app)
    owner = login(demo_app, "owner")
    html = owner.get(f"/propiedad/{pid}/cambio").get_data(as_text=True)
    for kind in ("moved", "rented", "use_changed", "sold_or_transferred", "co_owner_changed",
                 "spouse_died", "divorce", "other"):
        assert f'value="{kind}"' in html
    assert "Me divorcié" in html and "Se añadió o se eliminó un condueño" in html
    assert "R-B19: el cónyuge supérstite" in html and "R-B6, R-B20" in html
    token = csrf_token(html)
    r = owner.post(f"/propiedad/{pid}/cambio", data={
        "csrf_token": token, "action": "review", "kind": "co_owner_changed",
        "change_date": "2026-06-30"})
    page = r.get_data(as_text=True)
    assert r.status_code == 200
    # R-B12: a change in ownership is punished whatever the intent; never "intencionalmente"
    # for it in the kind's own line (the general warning names intent for qualifications).
    assert "No notificar un cambio en el dominio de la propiedad es delito menos grave, " \
           "cualquiera que sea la intención" in page
    r = owner.post(f"/propiedad/{pid}/cambio", data={
        "csrf_token": token, "action": "review", "kind": "divorce",
        "change_date": "2026-06-30"})
    page = r.get_data(as_text=True)
    assert "Dejar de notificar intencionalmente un cambio en sus cualificaciones es delito " \
           "menos grave" in page  # divorce: a change in qualifications (policy)
    assert "cualquiera que sea la intención" not in page


def test_evidence_then_revocation_told_to_owner_and_lender(demo_app):
    from portal.models import ExemptionCertification
    pid = home_parcel(demo_app)
    cid = _approve(demo_app, pid)
    owner = login(demo_app, "owner")
    pays = re.compile(r"(?:Factura del|Bill of) [^:]+: (\$[\d,.]+)")
    before_bills = pays.findall(owner.get(f"/propiedad/{pid}").get_data(as_text=True))
    # Moved out on 2025-12-01, reported late on 2026-11-30: counts from FY 2026-2027.
    where = _report(owner, pid, kind="moved", change_date="2025-12-01")
    rid = re.search(r"/cambios/(\d+)$", where).group(1)
    conf = owner.get(where).get_data(as_text=True)
    assert "Advertencia (R-B12)" in conf and 'name="file"' in conf
    r = owner.post(f"/cambios/{rid}/evidencia", data={
        "csrf_token": csrf_token(conf), "file": (io.BytesIO(_png()), "mudanza.png")},
        content_type="multipart/form-data", follow_redirects=True)
    page = r.get_data(as_text=True)
    assert "mudanza.png" in page
    bad = owner.post(f"/cambios/{rid}/evidencia", data={
        "csrf_token": csrf_token(conf), "file": (io.BytesIO(b"MZ\x90"), "virus.exe")},
        content_type="multipart/form-data", follow_redirects=True).get_data(as_text=True)
    assert "Solo se aceptan documentos PDF, JPEG o PNG" in bad or "PDF, JPEG o PNG" in bad
    link = re.search(rf'href="(/cambios/{rid}/evidencia/\d+)"', page).group(1)
    assert owner.get(link).data == _png()
    other = login(demo_app, "lessee")
    assert other.get(link).status_code == 404
    assert other.post(f"/cambios/{rid}/evidencia", data={
        "csrf_token": csrf_token(other.get("/").get_data(as_text=True)),
        "file": (io.BytesIO(_png()), "x.png")}, content_type="multipart/form-data"
    ).status_code == 404

    # The reviewer sees the document and decides on the report's page.
    staff = login(demo_app, "staff")
    listed = staff.get("/personal/cambios?estado=filed").get_data(as_text=True)
    assert f'href="/cambios/{rid}"' in listed
    shtml = staff.get(f"/cambios/{rid}").get_data(as_text=True)
    assert "mudanza.png" in shtml and "Acusar recibo y revocar la exoneración" in shtml
    assert staff.get(link).data == _png()
    before = len(outbox(demo_app))
    r = staff.post(f"/personal/cambios/{rid}/acuse",
                   data={"csrf_token": csrf_token(shtml), "decision": "revoked"},
                   follow_redirects=True)
    done = r.get_data(as_text=True)
    assert "la exoneración quedó revocada" in done
    assert "La exoneración residencial fue revocada" in done and "2026-2027" in done
    with app_uow(demo_app) as w:
        cert = w.session.scalar(select(ExemptionCertification).where(
            ExemptionCertification.id == cid))
        assert (cert.status, cert.revoked_from.isoformat()) == ("revoked", "2026-07-01")
    mails = [read_mail(p) for p in outbox(demo_app)[before:]]
    to = {m["To"]: m for m in mails}
    assert "owner@demo.pr" in to and "lender@demo.pr" in to
    assert "revocada" in to["owner@demo.pr"]["Subject"]
    lender_body = to["lender@demo.pr"].get_payload(decode=True).decode()
    assert "2026-2027" in lender_body
    # The owner's pages: the report and the parcel's box (FY 2026-2027 billed without it).
    assert "La exoneración residencial fue revocada" in owner.get(where).get_data(as_text=True)
    parcel = owner.get(f"/propiedad/{pid}").get_data(as_text=True)
    assert "Revocad" in parcel and "Sin la exoneración, la contribución" in parcel
    # What the lender pays the CRIM reads the revoked year too: the bills without it.
    after_bills = pays.findall(parcel)
    assert len(after_bills) == len(before_bills) == 2 and after_bills != before_bills
    money = [float(a.strip("$").replace(",", "")) for a in after_bills + before_bills]
    assert money[0] > money[2] and money[1] > money[3]
    assert 'name="file"' not in owner.get(where).get_data(as_text=True)  # acknowledged
    receipt = owner.get(f"/exoneracion/{cid}/recibo")  # the certification's own receipt
    assert receipt.status_code == 200 and "Revocad" in receipt.get_data(as_text=True)
    pdf = owner.get(f"/exoneracion/{cid}/recibo.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    # The lender's list and its parcel page.
    lender = login(demo_app, "lender")
    assert "La exoneración fue revocada" in lender.get("/prestamista/cambios").get_data(
        as_text=True)
    assert staff.get(f"/personal/exoneraciones/{cid}").status_code == 200  # its review page
    assert staff.get("/personal/exoneraciones").status_code == 200
    lender_home = lender.get(f"/propiedad/{pid}").get_data(as_text=True)
    assert "Revocad" in lender_home  # the lender's view of the parcel reads it too
    # Nothing more: the report was acknowledged once.
    again = staff.post(f"/personal/cambios/{rid}/acuse",
                       data={"csrf_token": csrf_token(shtml), "decision": "revoked"},
                       follow_redirects=True).get_data(as_text=True)
    assert "Ya se había" in again


def test_the_revocation_in_english(demo_app):
    pid = home_parcel(demo_app)
    _approve(demo_app, pid)
    owner = login(demo_app, "owner")
    token = csrf_token(owner.get("/").get_data(as_text=True))
    owner.post("/idioma", data={"csrf_token": token, "lang": "en", "next": "/"})
    where = _report(owner, pid, kind="sold_or_transferred", change_date="2026-10-01")
    rid = where.rsplit("/", 1)[1]
    filed = read_mail(outbox(demo_app)[-1]).get_payload(decode=True).decode()
    assert "Failing to report a transfer of the property is a misdemeanor, whatever the " \
           "intent" in filed  # the email prints the core's R-B12 warning too
    conf = owner.get(where).get_data(as_text=True)
    assert "Failing to report a transfer of the property is a misdemeanor, whatever the " \
           "intent" in conf
    staff = login(demo_app, "staff")
    shtml = staff.get(f"/cambios/{rid}").get_data(as_text=True)
    staff.post(f"/personal/cambios/{rid}/acuse",
               data={"csrf_token": csrf_token(shtml), "decision": "revoked"})
    html = owner.get(where).get_data(as_text=True)
    assert "The residential exemption was revoked" in html and "2027-2028" in html
    # FY 2026-2027 (in course) keeps the exemption: the change counts from 2027-2028.
    assert "Approved" in owner.get(f"/propiedad/{pid}").get_data(as_text=True)
    [mail] = [m for m in map(read_mail, outbox(demo_app)[-2:]) if m["To"] == "owner@demo.pr"]
    assert mail["Subject"].startswith("Residential exemption revoked")  # the report's language
